import type { ConversationMessage } from "../../types/conversation.js";
import {
  CHARS_PER_TOKEN,
  MAX_SYSTEM_MESSAGES,
  MAX_TOTAL_MESSAGES,
  MAX_TOTAL_TOKENS,
} from "./conversationWindow.js";

/**
 * Characters of one message that reach a model at most (default: 4000): the planner, the resolvers
 * and everything stored for later memory calls read the message cut there, and the reply says so.
 */
export const MAX_MESSAGE_CHARS = 4000;
/**
 * Characters of one stored message a memory call (facts, summary) reads at most (default: 1000),
 * so a call stays bounded in total: 20 messages for facts, 40 for a summary.
 */
export const MEMORY_MESSAGE_MAX_CHARS = 1000;

/**
 * Messages per conversation chunk (spec 004 `chunkSize`, default: 10): a chunk is made once this
 * many have left the window past the last chunk.
 */
export const CHUNK_SIZE = 10;
/**
 * Chunks kept per user before the two oldest are merged (default: 20): about 100 turns at chunk
 * grain (spec 004 counts ~25 chunks for 250 turns), at most ~100–200 tokens each, so what retrieval
 * searches stays bounded; the planner is shown only the newest few.
 */
export const MAX_CHUNKS = 20;

/** The text cut at `max` characters (never inside a surrogate pair), and whether it was cut. */
export function capText(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return { text: text.slice(0, end), cut: true };
}

/** Estimated tokens of a text: one per 3.5 characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Estimated tokens of a message as models read it: its words and what Memo added to them. */
export function messageTokens(message: ConversationMessage): number {
  const added = message.metadata?.addedContext;
  return estimateTokens(message.content) + (added?.length ? estimateTokens(added.join("\n")) : 0);
}

/** Estimated tokens of all the messages (their words and added context). */
export function totalTokens(messages: readonly ConversationMessage[]): number {
  return messages.reduce((sum, m) => sum + messageTokens(m), 0);
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
    tokens -= messageTokens(result[start]!);
    start++;
  }
  return result.slice(start);
}
