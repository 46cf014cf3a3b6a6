/**
 * What the planner reads of long-term memory each turn: the summaries of the newest conversation
 * chunks and the remembered facts most worth showing, as short markdown sections within one token
 * budget shared as spec 004 "Priority-based Allocation" shares it (no I/O).
 */
import type { ChunkSummary, ConversationChunk } from "../../db/repositories/chunkRepository.js";
import type { Episode } from "../../db/repositories/episodeRepository.js";
import type { Fact, MemoryType, ValidFromPrecision } from "../../db/repositories/memoryRepository.js";
import { noteSearchText } from "../../utils/searchText.js";
import { estimateTokens } from "./limits.js";
import { personKey, rankMemories, type MemoryItem, type RetrievalQuery } from "./retrieval.js";
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
/** Estimated tokens of the facts section's lines at most: 40% of 500 = 200. @internal */
export const CONTEXT_FACT_TOKENS = Math.floor(LONG_TERM_TOKENS * RETRIEVED_SHARE);
/** Chunk summaries read for the context at most, newest first (default: 10). */
export const CONTEXT_CHUNK_CANDIDATES = 10;

/** Heading of the chunk summaries in the planner's context. @internal */
export const SUMMARY_HEADING = "### Summary of earlier conversation";
/** Heading of the key moments (episodes) in the planner's context. */
const EPISODES_HEADING = "### Key moments";
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

/** An episode with how it ranked for a message (spec 004 retrieval). */
export interface ScoredEpisode {
  episode: Episode;
  score: number;
  relevance: number;
}

/** Episodes shown at most, as "Key moments" (default: 3). */
const CONTEXT_MAX_EPISODES = 3;

/** A fact with how it ranked for a message (spec 004 retrieval). */
export interface ScoredFact {
  fact: Fact;
  /** 0..1: the weighted score. */
  score: number;
  /** 0..1: how much of the message the fact speaks of (0 when it was chosen for its value alone). */
  relevance: number;
}

/**
 * Words a question asks about an attribute by, in English and Hebrew: "where did I live?" and
 * "איפה גרתי?" both ask for a fact whose attribute is "residence", whatever its words.
 */
const ATTRIBUTE_WORDS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries({
    residence: "live lives lived living home moved address גר גרה גרים גרתי גרנו מגורים עברתי עברנו כתובת",
    workplace: "work works worked working job employer office company עובד עובדת עבדתי עבדנו עבודה",
    job: "work works worked job profession עובד עובדת עבדתי עבודה מקצוע",
    name: "name called named שם קוראים",
    birthday: "birthday born הולדת יומולדת נולד נולדה",
    diet: "diet eat eats food vegetarian vegan אוכל אוכלת תזונה צמחוני טבעוני",
    origin: "from born origin נולד נולדתי מוצא",
  }).map(([attribute, words]) => [attribute, noteSearchText(words)]),
);

/** Every form of the words that ask for an attribute ("live", "גרתי"…): they name no one. */
export const ATTRIBUTE_ASKING_WORDS: ReadonlySet<string> = new Set(
  Object.values(ATTRIBUTE_WORDS).flatMap((text) => text.split(" ")),
);

/** A fact as retrieval scores it: true from `validFrom`, its decay standing in for its importance's freshness. */
export function factItem(fact: Fact): MemoryItem {
  const asked = fact.attribute ? ATTRIBUTE_WORDS[fact.attribute] : undefined;
  return {
    kind: "fact",
    id: fact.id,
    text: fact.content,
    searchText: asked ? `${fact.searchText} ${asked}` : fact.searchText,
    importance: fact.importance * fact.decayFactor,
    accessCount: fact.accessCount,
    lastAccessedAt: fact.lastAccessedAt,
    at: fact.validFrom,
    until: fact.validUntil,
    startUnknown: fact.precision === "instant",
    people: fact.people,
    links: fact.type === "entity" && fact.people.length > 1,
  };
}

/** An episode as retrieval scores it: its significance as importance, when it happened. */
export function episodeItem(episode: Episode): MemoryItem {
  const text = [episode.title, episode.summary, episode.outcome ?? "", ...episode.participants].join(" ");
  return {
    kind: "episode",
    id: episode.id,
    text: episode.title,
    searchText: noteSearchText(text),
    importance: episode.significance,
    accessCount: episode.accessCount,
    lastAccessedAt: episode.lastAccessedAt,
    at: episode.occurredAt,
    people: episode.participants.map(personKey),
  };
}

/** A chunk of earlier conversation as retrieval scores it: its summary and topics, the time it spans. */
export function chunkItem(chunk: ConversationChunk): MemoryItem {
  return {
    kind: "chunk",
    id: chunk.id,
    text: chunk.summary,
    searchText: noteSearchText(chunk.summary, null, chunk.keyTopics),
    importance: 0.5,
    accessCount: 0,
    lastAccessedAt: chunk.endedAt,
    at: chunk.startedAt,
    until: chunk.endedAt,
  };
}

/** The facts ranked for a query by spec 004's retrieval, best first (`items`: theirs, embedded or not). */
export function rankFacts(
  query: RetrievalQuery,
  facts: readonly Fact[],
  items: readonly MemoryItem[] = facts.map(factItem),
): ScoredFact[] {
  const byId = new Map(facts.map((f) => [f.id, f]));
  return rankMemories(query, items).map((r) => ({
    fact: byId.get(r.item.id)!,
    score: r.score,
    relevance: r.relevance,
  }));
}

/** A local day as the planner reads it: "12 Nov 2026". */
function dayLabel(at: number, timeZone: string): string {
  const p = safeParts(at, timeZone);
  return `${p.day} ${MONTHS[p.month - 1] ?? ""} ${p.year}`;
}

/** When a fact became true, as finely as it was said, in the user's zone: "the week of 8 Nov 2026". */
function sinceLabel(at: number, precision: ValidFromPrecision, timeZone: string): string {
  const p = safeParts(at, timeZone);
  switch (precision) {
    case "year":
      return String(p.year);
    case "month":
      return `${MONTHS[p.month - 1] ?? ""} ${p.year}`;
    case "week":
      return `the week of ${dayLabel(at, timeZone)}`;
    default:
      return dayLabel(at, timeZone);
  }
}

/** One fact as the planner reads it: `- (fact) Lives in Haifa (since the week of 8 Nov 2026)`. */
function factLine(fact: Fact, timeZone: string): string {
  return `- (${TYPE_LABELS[fact.type]}) ${fact.content} (since ${sinceLabel(fact.validFrom, fact.precision, timeZone)})`;
}

const EPISODE_LABELS: Readonly<Record<string, string>> = {
  decision: "decided",
  problem_solved: "solved",
  breakthrough: "breakthrough",
  issue_identified: "problem found",
  task_completed: "done",
  pivot: "changed course",
};

/** One episode as the planner reads it: `- (decided, 12 Nov 2026) Go to Eilat for the trip`. */
function episodeLine({ episode }: ScoredEpisode, timeZone: string): string {
  const outcome = episode.outcome ? ` → ${episode.outcome}` : "";
  return `- (${EPISODE_LABELS[episode.kind] ?? episode.kind}, ${dayLabel(episode.occurredAt, timeZone)}) ${episode.title}${outcome}`;
}

/** The zone's wall-clock parts, or UTC's when the zone is unknown. */
function safeParts(ms: number, timeZone: string) {
  try {
    return zonedParts(ms, timeZone);
  } catch {
    return zonedParts(ms, "UTC");
  }
}

/** The local dates a chunk spans: "(12 Nov 2026)", "(12–14 Nov 2026)", "(30 Oct–2 Nov 2026)". @internal */
export function chunkDates(startedAt: number, endedAt: number, timeZone: string): string {
  const a = safeParts(startedAt, timeZone);
  const b = safeParts(endedAt, timeZone);
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
  /** The user's zone, for the dates shown (default: UTC). */
  timeZone?: string;
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
  episodes: readonly ScoredEpisode[] = [],
): MemoryContext {
  const total = budgets.totalTokens ?? LONG_TERM_TOKENS;
  const maxFacts = budgets.maxFacts ?? CONTEXT_MAX_FACTS;
  const zone = budgets.timeZone ?? "UTC";
  let left = Math.floor(total * (budgets.retrievedShare ?? RETRIEVED_SHARE));
  // Retrieved memories share one budget: the episodes speaking of the message first (few, and
  // only when it names them), then the facts.
  const moments: string[] = [];
  for (const episode of episodes) {
    if (moments.length >= CONTEXT_MAX_EPISODES) break;
    if (episode.relevance <= 0) continue;
    const line = episodeLine(episode, zone);
    const cost = estimateTokens(line);
    if (cost > left) continue;
    left -= cost;
    moments.push(line);
  }
  const lines: string[] = [];
  const factIds: string[] = [];
  for (const { fact } of ranked) {
    if (lines.length >= maxFacts) break;
    const line = factLine(fact, zone);
    const cost = estimateTokens(line);
    if (cost > left) continue;
    left -= cost;
    lines.push(line);
    factIds.push(fact.id);
  }
  const factTokens = [...moments, ...lines].reduce((sum, line) => sum + estimateTokens(line), 0);

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
  if (moments.length > 0) sections.push(`${EPISODES_HEADING}\n${moments.join("\n")}`);
  if (lines.length > 0) sections.push(`${FACTS_HEADING}\n${lines.join("\n")}`);
  return { text: sections.length > 0 ? sections.join("\n\n") : undefined, factIds };
}
