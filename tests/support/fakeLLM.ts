import type { z } from "zod";
import type { LLMNode } from "../../src/types/llm.js";
import type { LLMMessage, LLMResult, LLMService, LLMUsage } from "../../src/types/llm.js";
import { wirePlannerAnswer } from "./scriptedOpenAI.js";

/**
 * An in-process LLM that answers at once: structured answers are validated against the caller's
 * zod schema, as the real service does (a planner answer scripted with records sent in the wire
 * shape first, as the scripted server does). For benchmarks and tests that are not about the LLM.
 */
export class FakeLLM implements LLMService {
  readonly calls: { node: LLMNode; messages: LLMMessage[] }[] = [];

  constructor(private readonly answer: (node: LLMNode, messages: LLMMessage[]) => unknown) {}

  structured<T>(node: LLMNode, schema: z.ZodType<T>, messages: LLMMessage[]): Promise<LLMResult<T>> {
    this.calls.push({ node, messages });
    return Promise.resolve({
      value: schema.parse(wirePlannerAnswer(this.answer(node, messages))),
      usage: this.usage(node),
    });
  }

  text(node: LLMNode, messages: LLMMessage[]): Promise<LLMResult<string>> {
    this.calls.push({ node, messages });
    return Promise.resolve({ value: String(this.answer(node, messages)), usage: this.usage(node) });
  }

  private usage(node: LLMNode): LLMUsage {
    return {
      node,
      model: "fake",
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      durationMs: 0,
      fallback: false,
    };
  }
}
