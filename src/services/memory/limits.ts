import type { ConversationMessage } from "../../types/conversation.js";
import {
  CHARS_PER_TOKEN,
  MAX_SYSTEM_MESSAGES,
  MAX_TOTAL_MESSAGES,
  MAX_TOTAL_TOKENS,
} from "./ConversationWindow.js";

/** Estimated tokens of a text: one per 3.5 characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Estimated tokens of all the messages' contents. */
export function totalTokens(messages: readonly ConversationMessage[]): number {
  return messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
}

/**
 * The messages that fit the window, oldest first (spec 000 §3.4): at most 3 system messages (the
 * oldest go first), then the newest `maxMessages` (default: 10), then the oldest dropped while the
 * estimate exceeds `maxTokens` (default: 500). The newest message is always kept, however long.
 */
export function enforceMemoryLimits(
  messages: readonly ConversationMessage[],
  maxMessages = MAX_TOTAL_MESSAGES,
  maxTokens = MAX_TOTAL_TOKENS,
): ConversationMessage[] {
  let systemToDrop = messages.filter((m) => m.role === "system").length - MAX_SYSTEM_MESSAGES;
  let result = messages.filter((m) => !(m.role === "system" && systemToDrop-- > 0));

  if (result.length > maxMessages) result = result.slice(-Math.max(maxMessages, 1));

  let tokens = totalTokens(result);
  let start = 0;
  while (tokens > maxTokens && result.length - start > 1) {
    tokens -= estimateTokens(result[start]!.content);
    start++;
  }
  return result.slice(start);
}
