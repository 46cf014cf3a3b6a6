/**
 * What the planner reads of long-term memory each turn: the summaries of the newest conversation
 * chunks and the remembered facts most worth showing, as short markdown sections within one token
 * budget shared as spec 004 "Priority-based Allocation" shares it (no I/O).
 */
import type { ChunkSummary } from "../../db/repositories/chunkRepository.js";
import type { MemoryType, ScoredFact } from "../../db/repositories/memoryRepository.js";
import { estimateTokens } from "./limits.js";
import { fitSummary } from "./summary.js";
import { zonedParts } from "../../utils/timeContext.js";

/**
 * Estimated tokens of the long-term section at most (default: 500, what the rolling summary (300)
 * and the facts (200) had before). The recent messages, spec 004's first 60%, are the window,
 * budgeted elsewhere (500 tokens, `MAX_TOTAL_TOKENS`).
 */
const LONG_TERM_TOKENS = 500;
/** Share of the long-term section for retrieved memories (facts) at most (spec 004: 40%). */
const RETRIEVED_SHARE = 0.4;
/** Facts shown at most (default: 6). */
const CONTEXT_MAX_FACTS = 6;
/** Facts read for the context: twice those shown, so a fact too long for the budget leaves room for the next ones. */
export const CONTEXT_FACT_CANDIDATES = CONTEXT_MAX_FACTS * 2;
/** Estimated tokens of the facts section's lines at most: 40% of 500 = 200. @internal */
export const CONTEXT_FACT_TOKENS = Math.floor(LONG_TERM_TOKENS * RETRIEVED_SHARE);
/** Chunk summaries read for the context at most, newest first (default: 10). */
export const CONTEXT_CHUNK_CANDIDATES = 10;

/** Heading of the chunk summaries in the planner's context. @internal */
export const SUMMARY_HEADING = "### Summary of earlier conversation";
/** Heading of the remembered facts in the planner's context. @internal */
export const FACTS_HEADING = "### Remembered about the user";

const TYPE_LABELS: Readonly<Record<MemoryType, string>> = {
  fact: "fact",
  preference: "preference",
  decision: "decision",
  goal: "goal",
  constraint: "constraint",
  entity: "person/thing",
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** One fact as the planner reads it: `- (preference) Prefers morning meetings`. */
function factLine(type: MemoryType, content: string): string {
  return `- (${TYPE_LABELS[type]}) ${content}`;
}

/** The local dates a chunk spans: "(12 Nov 2026)", "(12–14 Nov 2026)", "(30 Oct–2 Nov 2026)". @internal */
export function chunkDates(startedAt: number, endedAt: number, timeZone: string): string {
  const local = (ms: number) => {
    try {
      return zonedParts(ms, timeZone);
    } catch {
      return zonedParts(ms, "UTC");
    }
  };
  const a = local(startedAt);
  const b = local(endedAt);
  const month = (p: typeof a) => MONTHS[p.month - 1] ?? "";
  if (a.year !== b.year) return `(${a.day} ${month(a)} ${a.year}–${b.day} ${month(b)} ${b.year})`;
  if (a.month !== b.month) return `(${a.day} ${month(a)}–${b.day} ${month(b)} ${b.year})`;
  if (a.day !== b.day) return `(${a.day}–${b.day} ${month(b)} ${b.year})`;
  return `(${b.day} ${month(b)} ${b.year})`;
}

/** One chunk as the planner reads it: its dates, then its summary (blank lines closed up). */
function chunkText(chunk: ChunkSummary, summary: string): string {
  return `${chunkDates(chunk.startedAt, chunk.endedAt, chunk.timeZone)} ${summary.replace(/\n\s*\n/g, "\n")}`;
}

export interface MemoryContext {
  /** The sections, or undefined when there is neither a chunk nor a fact to show. */
  text: string | undefined;
  /** The facts shown, best first. */
  factIds: string[];
}

/** Budgets of `formatMemoryContext` (each with its default). */
export interface MemoryContextBudgets {
  /** Estimated tokens of both sections' lines together (default: 500). */
  totalTokens?: number;
  /** Share of `totalTokens` the facts may take at most (default: 0.4). */
  retrievedShare?: number;
  /** Facts shown at most (default: 6). */
  maxFacts?: number;
}

/**
 * The sections for the planner within `totalTokens`: first the ranked facts, best first, as many
 * as fit `retrievedShare` of it and `maxFacts` (a fact too long for what is left is skipped for
 * shorter ones after it); then the chunk summaries (`chunks` newest first) in what remains, newest
 * first, stopping at the first that does not fit (the newest is cut to fit when alone it does not),
 * shown oldest to newest with their dates. The chunks' section comes first, as the older context.
 */
export function formatMemoryContext(
  chunks: readonly ChunkSummary[],
  ranked: readonly ScoredFact[],
  budgets: MemoryContextBudgets = {},
): MemoryContext {
  const total = budgets.totalTokens ?? LONG_TERM_TOKENS;
  const maxFacts = budgets.maxFacts ?? CONTEXT_MAX_FACTS;
  let left = Math.floor(total * (budgets.retrievedShare ?? RETRIEVED_SHARE));
  const lines: string[] = [];
  const factIds: string[] = [];
  for (const { fact } of ranked) {
    if (lines.length >= maxFacts) break;
    const line = factLine(fact.type, fact.content);
    const cost = estimateTokens(line);
    if (cost > left) continue;
    left -= cost;
    lines.push(line);
    factIds.push(fact.id);
  }
  const factTokens = lines.reduce((sum, line) => sum + estimateTokens(line), 0);

  // Chunk summaries take what the facts left (spec 004: "Remaining"); a line break costs one.
  let room = total - factTokens;
  const shown: string[] = [];
  for (const chunk of chunks) {
    if (chunk.summary.trim() === "") continue;
    const text = chunkText(chunk, chunk.summary.trim());
    const cost = estimateTokens(text) + 1;
    if (cost <= room) {
      shown.push(text);
      room -= cost;
      continue;
    }
    const summaryRoom = room - estimateTokens(chunkText(chunk, "")) - 2;
    if (shown.length === 0 && summaryRoom >= 10)
      shown.push(chunkText(chunk, fitSummary(chunk.summary, summaryRoom)));
    break;
  }

  const sections: string[] = [];
  if (shown.length > 0) sections.push(`${SUMMARY_HEADING}\n${shown.reverse().join("\n")}`);
  if (lines.length > 0) sections.push(`${FACTS_HEADING}\n${lines.join("\n")}`);
  return { text: sections.length > 0 ? sections.join("\n\n") : undefined, factIds };
}
