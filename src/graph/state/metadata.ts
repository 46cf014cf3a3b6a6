import type { LLMUsage } from "../../services/llm/index.js";

/** One LLM call as the turn's metadata records it. */
export type LLMUsageRecord = LLMUsage;

/** The metadata update for one LLM call. */
export function llmUsageUpdate(usage: LLMUsageRecord) {
  return {
    llmCalls: 1,
    totalTokens: usage.inputTokens + usage.outputTokens,
    totalCost: usage.costUsd,
    llmUsage: [usage],
  };
}
