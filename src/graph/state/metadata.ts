import type { LLMUsage } from "../../types/llm.js";
import type { ExecutionMetadata } from "../../types/state.js";

/** The metadata update for the LLM calls a node made: counts, tokens, cost, and each call. */
export function llmUsageUpdate(...usages: LLMUsage[]): Partial<ExecutionMetadata> {
  return {
    llmCalls: usages.length,
    totalTokens: usages.reduce((sum, u) => sum + u.inputTokens + u.outputTokens, 0),
    totalCost: usages.reduce((sum, u) => sum + u.costUsd, 0),
    llmUsage: usages,
  };
}
