import type { LLMModelConfig } from "../../config/llmConfig.js";

/** USD cost of one call from the model table's per-1k prices, rounded to a billionth of a dollar. */
export function costUsd(model: LLMModelConfig, inputTokens: number, outputTokens: number): number {
  const cost = (inputTokens / 1000) * model.inputCostPer1k + (outputTokens / 1000) * model.outputCostPer1k;
  return Math.round(cost * 1e9) / 1e9;
}
