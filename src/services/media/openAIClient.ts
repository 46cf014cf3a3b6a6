import OpenAI from "openai";
import type { AppConfig } from "../../config/env.js";

/**
 * The `openai` client of the configuration's OpenAI-compatible server, for the audio endpoints
 * (transcription, speech); null when none is configured (no key and no base URL).
 */
export function openAIAudioClient(config: AppConfig): OpenAI | null {
  if (!config.openai.apiKey && !config.llm.baseUrl) return null;
  return new OpenAI({
    apiKey: config.openai.apiKey ?? "no-key",
    ...(config.llm.baseUrl ? { baseURL: config.llm.baseUrl } : {}),
    timeout: config.llm.timeoutMs,
    maxRetries: config.llm.maxRetries,
  });
}
