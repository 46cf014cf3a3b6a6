/**
 * The rolling summary of what has left the short-term window: extractive (deterministic, no
 * model) or written by the LLM, always within a token budget (no I/O here).
 */
import type { HistoryMessage } from "../../db/repositories/conversationHistory.js";
import type { LLMMessage } from "../../types/llm.js";
import {
  CONVERSATION_SUMMARY_PROMPT,
  FORGET_PROMPT,
  SUMMARY_TARGET_TOKENS,
} from "../../prompts/conversationSummaryPrompt.js";
import { MEMORY_MESSAGE_MAX_CHARS, capText, estimateTokens } from "./limits.js";
import {
  isCommand,
  isMemoryCommand,
  isQuestion,
  isSmallTalk,
  sentencesOf,
  unitsOf,
} from "../../utils/memoryText.js";
import { pad2, zonedParts } from "../../utils/timeContext.js";

/** What context assembly shows at most (default: 300 estimated tokens). */
export const SUMMARY_MAX_TOKENS = 300;
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
  budget = SUMMARY_TARGET_TOKENS,
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
export function fitSummary(text: string, maxTokens = SUMMARY_MAX_TOKENS): string {
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

/** The messages of one summary update: previous summary plus the messages that left the window. */
export function summaryMessages(
  previous: string,
  messages: readonly HistoryMessage[],
  timeZone: string,
): LLMMessage[] {
  return [
    { role: "system", content: CONVERSATION_SUMMARY_PROMPT },
    {
      role: "user",
      content: `Previous summary:\n${previous.trim() || "(none yet)"}\n\nMessages that left the window:\n${transcript(messages, timeZone)}`,
    },
  ];
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
