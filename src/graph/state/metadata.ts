/** One LLM call as the turn's metadata records it (matches LLMUsage of the LLM service). */
export interface LLMUsageRecord {
  node: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  durationMs: number;
  fallback: boolean;
}

/** The metadata update for one LLM call. */
export function llmUsageUpdate(usage: LLMUsageRecord) {
  return {
    llmCalls: 1,
    totalTokens: usage.inputTokens + usage.outputTokens,
    totalCost: usage.costUsd,
    llmUsage: [usage],
  };
}
