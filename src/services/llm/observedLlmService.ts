import type { z } from "zod";
import type { LLMNode } from "../../types/llm.js";
import { LLMError } from "./llmError.js";
import type { LLMMessage, LLMResult, LLMService, LLMUsage } from "../../types/llm.js";

/** One finished LLM call as observers see it: what it cost, and how it ended. */
export interface LLMCallRecord {
  node: LLMNode;
  /** Tokens and cost; absent when a failed call got no answer at all. */
  usage?: LLMUsage;
  ok: boolean;
  /** Why it failed, when it did (LLMError's kind, or "api_error"). */
  errorKind?: string;
  durationMs: number;
}

/** Told of every LLM call after it ends; must not throw (errors are swallowed). */
export type LLMObserver = (call: LLMCallRecord) => void;

/** Runs a call inside something of its own (a trace); must return the call's own result. */
export type LLMCallWrapper = <T>(node: LLMNode, call: () => Promise<LLMResult<T>>) => Promise<LLMResult<T>>;

/**
 * The LLM service with observers around it (metrics, the per-user cost ledger), an optional gate
 * that may refuse a call before it is made (the daily budget), and an optional wrapper each call
 * runs inside (a LangSmith trace of work outside the graph).
 */
export class ObservedLLMService implements LLMService {
  constructor(
    private readonly inner: LLMService,
    private readonly observers: readonly LLMObserver[],
    /** Throws (an LLMError) to refuse a call; runs before every call (default: none). */
    private readonly gate?: (node: LLMNode) => Promise<void>,
    /** Each call runs inside it (default: none). */
    private readonly wrap?: LLMCallWrapper,
  ) {}

  structured<T>(
    node: LLMNode,
    schema: z.ZodType<T>,
    messages: LLMMessage[],
    options?: { name?: string },
  ): Promise<LLMResult<T>> {
    return this.observe(node, () => this.inner.structured(node, schema, messages, options));
  }

  text(node: LLMNode, messages: LLMMessage[]): Promise<LLMResult<string>> {
    return this.observe(node, () => this.inner.text(node, messages));
  }

  private async observe<T>(node: LLMNode, call: () => Promise<LLMResult<T>>): Promise<LLMResult<T>> {
    const started = performance.now();
    try {
      // A refused call is still a call the observers see (outcome "over_budget").
      await this.gate?.(node);
      const result = await (this.wrap ? this.wrap(node, call) : call());
      this.tell({ node, usage: result.usage, ok: true, durationMs: performance.now() - started });
      return result;
    } catch (error) {
      this.tell({
        node,
        ...(error instanceof LLMError && error.usage ? { usage: error.usage } : {}),
        ok: false,
        errorKind: error instanceof LLMError ? error.kind : "api_error",
        durationMs: performance.now() - started,
      });
      throw error;
    }
  }

  private tell(record: LLMCallRecord): void {
    for (const observer of this.observers) {
      try {
        observer(record);
      } catch {
        // An observer's fault (a metric, a ledger write) never fails the user's turn.
      }
    }
  }
}
