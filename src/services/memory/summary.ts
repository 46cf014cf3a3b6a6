/**
 * The summaries of conversation chunks (spec 004 Layer 2), what has left the short-term window ten
 * messages at a time: extractive (deterministic, no model) or written by the LLM, always within a
 * token budget, with their key topics; and the merge of the two oldest (no I/O here).
 */
import type { HistoryMessage } from "../../db/repositories/conversationHistory.js";
import type { LLMMessage } from "../../types/llm.js";
import { z } from "zod";
import {
  CHUNK_SUMMARY_PROMPT,
  CHUNK_TARGET_TOKENS,
  FORGET_PROMPT,
} from "../../prompts/conversationSummaryPrompt.js";
import { MEMORY_MESSAGE_MAX_CHARS, capText, estimateTokens } from "./limits.js";
import {
  isCommand,
  isMemoryCommand,
  isQuestion,
  isSmallTalk,
  queryWordsOf,
  sentencesOf,
  unitsOf,
} from "../../utils/memoryText.js";
import { pad2, zonedParts } from "../../utils/timeContext.js";

/** Estimated tokens of one chunk's summary at most, as written (default: 100; spec 004: ~100–200). */
export const CHUNK_SUMMARY_MAX_TOKENS = 100;
/**
 * Estimated tokens of a merged chunk's summary at most (default: 200, the top of spec 004's
 * 100–200): a merge keeps more than one chunk's worth, but the oldest detail still thins out.
 */
const MERGED_SUMMARY_MAX_TOKENS = 200;
/** Key topics kept per chunk (default: 5), and per merged chunk twice that. */
const KEY_TOPICS_MAX = 5;
/** One quoted sentence of the extractive summary is cut at this many characters. */
const SENTENCE_MAX_CHARS = 160;

/**
 * The messages worth summarizing: everything but requests about Memo's memory ("forget that
 * I…", "what do you remember?") and Memo's answer right after each, which would otherwise carry
 * what was forgotten back into the summary.
 */
export function summarizable(messages: readonly HistoryMessage[]): HistoryMessage[] {
  const kept: HistoryMessage[] = [];
  let skipAnswer = false;
  for (const message of messages) {
    if (message.role === "user") {
      skipAnswer = isMemoryCommand(message.content);
      if (!skipAnswer) kept.push(message);
    } else if (message.role === "assistant") {
      if (!skipAnswer) kept.push(message);
      skipAnswer = false;
    }
  }
  return kept;
}

/** The local calendar date of an instant in a zone, "YYYY-MM-DD". */
function localDate(epochMs: number, timeZone: string): string {
  try {
    const p = zonedParts(epochMs, timeZone);
    return `${p.year}-${pad2(p.month)}-${pad2(p.day)}`;
  } catch {
    return new Date(epochMs).toISOString().slice(0, 10);
  }
}

/** A sentence worth keeping: a statement by the user, not a question, a request to Memo or small talk. */
function isInformative(sentence: string): boolean {
  return !isQuestion(sentence) && !isCommand(sentence) && !isSmallTalk(sentence);
}

/**
 * Summary lines for the user's informative sentences, oldest first: `- 2026-03-01: "…"`, dated
 * in the user's zone. Sentences `exclude` rejects are left out (what was forgotten).
 */
export function extractiveLines(
  messages: readonly HistoryMessage[],
  timeZone: string,
  exclude: (sentence: string) => boolean = () => false,
): string[] {
  const lines: string[] = [];
  for (const message of summarizable(messages)) {
    if (message.role !== "user") continue;
    const date = localDate(message.createdAt, timeZone);
    for (const sentence of sentencesOf(message.content)) {
      if (!isInformative(sentence) || exclude(sentence)) continue;
      const text =
        sentence.length > SENTENCE_MAX_CHARS ? `${sentence.slice(0, SENTENCE_MAX_CHARS - 1)}…` : sentence;
      lines.push(`- ${date}: "${text.replaceAll('"', "'")}"`);
    }
  }
  return lines;
}

/** The quoted sentence of an extractive line, so a repeated sentence is kept once (its newest). */
function lineKey(line: string): string {
  return line.replace(/^- \d{4}-\d{2}-\d{2}: /, "").toLowerCase();
}

/**
 * The extractive summary: the previous summary's lines, then the new ones; a sentence said again
 * keeps only its newest line; the newest lines kept within `budget` tokens, in order.
 */
export function extractiveSummary(
  previous: string,
  newLines: readonly string[],
  budget = CHUNK_TARGET_TOKENS,
): string {
  const all = [...unitsOf(previous), ...newLines];
  const seen = new Set<string>();
  const kept: string[] = [];
  let tokens = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const line = all[i]!;
    const key = lineKey(line);
    if (seen.has(key)) continue;
    seen.add(key);
    const cost = estimateTokens(line) + 1;
    if (tokens + cost > budget) break;
    tokens += cost;
    kept.push(line);
  }
  return kept.reverse().join("\n");
}

/**
 * The text within `maxTokens`: whole, or its newest lines (or sentences, for one paragraph) that
 * fit, after a "…" line; a single unit too long for the budget is cut.
 */
export function fitSummary(text: string, maxTokens = CHUNK_SUMMARY_MAX_TOKENS): string {
  const trimmed = text.trim();
  if (estimateTokens(trimmed) <= maxTokens) return trimmed;
  const units = unitsOf(trimmed);
  const kept: string[] = [];
  let tokens = estimateTokens("…") + 1;
  for (let i = units.length - 1; i >= 0; i--) {
    const cost = estimateTokens(units[i]!) + 1;
    if (tokens + cost > maxTokens) break;
    tokens += cost;
    kept.push(units[i]!);
  }
  if (kept.length === 0) {
    const chars = Math.floor((maxTokens - 1) * 3.5);
    return `…${trimmed.slice(-chars)}`;
  }
  const joiner = trimmed.includes("\n") ? "\n" : " ";
  return `…${joiner}${kept.reverse().join(joiner)}`;
}

/** The messages as the summarizer reads them: one line each, dated, with who said it. */
function transcript(messages: readonly HistoryMessage[], timeZone: string): string {
  return messages
    .map(
      (m) =>
        `[${localDate(m.createdAt, timeZone)}] ${m.role === "user" ? "User" : "Memo"}: ${capText(m.content, MEMORY_MESSAGE_MAX_CHARS).text}`,
    )
    .join("\n");
}

/** What the LLM answers for one chunk. */
export const chunkAnswerSchema = z.object({
  summary: z.string(),
  topics: z.array(z.string()).default([]),
});

/** The messages of one chunk's summary: the chunk's messages, dated. */
export function chunkMessages(messages: readonly HistoryMessage[], timeZone: string): LLMMessage[] {
  return [
    { role: "system", content: CHUNK_SUMMARY_PROMPT },
    { role: "user", content: `Messages:\n${transcript(messages, timeZone)}` },
  ];
}

/**
 * Topics cleaned: trimmed, at most 40 characters, deduplicated (case-insensitive, first kept), at
 * most `max`.
 */
export function dedupeTopics(topics: readonly string[], max = KEY_TOPICS_MAX): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const topic of topics) {
    const text = topic.trim().slice(0, 40);
    const key = text.toLowerCase();
    if (text === "" || seen.has(key)) continue;
    seen.add(key);
    kept.push(text);
    if (kept.length === max) break;
  }
  return kept;
}

/**
 * The key topics of a chunk without a model: a term-frequency count of the content words (stop
 * words and generic verbs such as "like" left out, normalized) over its messages, each message counting a word once; the user's
 * words before Memo's on a tie, then the first said. Words said once count when nothing repeats.
 */
export function keyTopicsOf(messages: readonly HistoryMessage[]): string[] {
  const counts = new Map<string, { count: number; user: boolean; first: number }>();
  let order = 0;
  for (const message of messages) {
    for (const { word } of queryWordsOf(message.content)) {
      if (/^\d+$/.test(word)) continue;
      const entry = counts.get(word) ?? { count: 0, user: false, first: order++ };
      entry.count++;
      entry.user ||= message.role === "user";
      counts.set(word, entry);
    }
  }
  const ranked = [...counts.entries()].sort(
    ([, a], [, b]) => b.count - a.count || Number(b.user) - Number(a.user) || a.first - b.first,
  );
  return dedupeTopics(ranked.map(([word]) => word));
}

const EARLIER = "Earlier: ";

/**
 * Two chunks' summaries as one (spec 004 "Chunk Compression"): "Earlier: {older}\n\nThen: {newer}",
 * within 200 tokens: the newer part keeps up to half, the older part the rest (both their newest
 * part). An older summary that is itself a merge is not labelled "Earlier:" twice.
 */
export function mergedSummary(older: string, newer: string): string {
  const label = "\n\nThen: ";
  const room = MERGED_SUMMARY_MAX_TOKENS - estimateTokens(EARLIER + label);
  const newerPart = fitSummary(newer, Math.min(estimateTokens(newer.trim()), Math.floor(room / 2)));
  const olderText = older.startsWith(EARLIER) ? older.slice(EARLIER.length) : older;
  const olderPart = fitSummary(olderText, room - estimateTokens(newerPart));
  return `${EARLIER}${olderPart}${label}${newerPart}`;
}

/** The topics of two merged chunks, deduplicated, the older's first, at most 10. */
export function mergedTopics(older: readonly string[], newer: readonly string[]): string[] {
  return dedupeTopics([...older, ...newer], KEY_TOPICS_MAX * 2);
}

/** The messages of a rewrite leaving out the forgotten facts. */
export function forgetMessages(summary: string, forgotten: readonly string[]): LLMMessage[] {
  return [
    { role: "system", content: FORGET_PROMPT },
    {
      role: "user",
      content: `Summary:\n${summary}\n\nForget:\n${forgotten.map((f) => `- ${f}`).join("\n")}`,
    },
  ];
}
