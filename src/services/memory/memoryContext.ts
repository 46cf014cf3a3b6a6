/**
 * What the planner reads of long-term memory each turn: the rolling summary and the remembered
 * facts most worth showing, as short markdown sections within token budgets (no I/O).
 */
import type { Fact, MemoryType, ValidFromPrecision } from "../../db/repositories/memoryRepository.js";
import { instantToLocal } from "../../nlu/zonedTime.js";
import { noteSearchText } from "../../utils/searchText.js";
import { estimateTokens } from "./limits.js";
import { rankMemories, type MemoryItem, type RetrievalWeights } from "./retrieval.js";
import { SUMMARY_MAX_TOKENS, fitSummary } from "./summary.js";

/** Facts shown at most (default: 6). */
const CONTEXT_MAX_FACTS = 6;

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
    people: fact.people,
    links: fact.type === "entity" && fact.people.length > 1,
  };
}

/** The facts ranked for a message by spec 004's retrieval, best first. */
export function rankFacts(
  message: string,
  facts: readonly Fact[],
  now: number,
  weights?: Readonly<RetrievalWeights>,
): ScoredFact[] {
  const byId = new Map(facts.map((f) => [f.id, f]));
  return rankMemories({ text: message, now, ...(weights && { weights }) }, facts.map(factItem)).map((r) => ({
    fact: byId.get(r.item.id)!,
    score: r.score,
    relevance: r.relevance,
  }));
}

/** When a fact became true, as the planner reads it: as finely as it was said, in the user's zone. */
function sinceLabel(at: number, precision: ValidFromPrecision, timeZone: string): string {
  const d = instantToLocal(at, timeZone);
  const day = `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
  switch (precision) {
    case "year":
      return String(d.year);
    case "month":
      return day.slice(0, 7);
    case "week":
      return `the week of ${day}`;
    default:
      return day;
  }
}
/** Estimated tokens of the facts section's lines at most (default: 200). @internal */
export const CONTEXT_FACT_TOKENS = 200;

/** Heading of the rolling summary in the planner's context. @internal */
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

/** One fact as the planner reads it: `- (fact) Lives in Haifa (since the week of 2026-11-16)`. */
function factLine(fact: Fact, timeZone: string): string {
  return `- (${TYPE_LABELS[fact.type]}) ${fact.content} (since ${sinceLabel(fact.validFrom, fact.precision, timeZone)})`;
}

export interface MemoryContext {
  /** The sections, or undefined when there is neither a summary nor a fact to show. */
  text: string | undefined;
  /** The facts shown, best first. */
  factIds: string[];
}

/**
 * The sections for the planner: the summary cut to `summaryTokens` (its newest part kept), then
 * the ranked facts, best first, as many as fit `factTokens` and `maxFacts` (a fact too long for
 * what is left is skipped for shorter ones after it).
 */
export function formatMemoryContext(
  summary: string,
  ranked: readonly ScoredFact[],
  budgets: { summaryTokens?: number; factTokens?: number; maxFacts?: number; timeZone?: string } = {},
): MemoryContext {
  const sections: string[] = [];
  const shownSummary =
    summary.trim() === "" ? "" : fitSummary(summary, budgets.summaryTokens ?? SUMMARY_MAX_TOKENS);
  if (shownSummary !== "") sections.push(`${SUMMARY_HEADING}\n${shownSummary}`);

  const maxFacts = budgets.maxFacts ?? CONTEXT_MAX_FACTS;
  let left = budgets.factTokens ?? CONTEXT_FACT_TOKENS;
  const lines: string[] = [];
  const factIds: string[] = [];
  for (const { fact } of ranked) {
    if (lines.length >= maxFacts) break;
    const line = factLine(fact, budgets.timeZone ?? "UTC");
    const cost = estimateTokens(line);
    if (cost > left) continue;
    left -= cost;
    lines.push(line);
    factIds.push(fact.id);
  }
  if (lines.length > 0) sections.push(`${FACTS_HEADING}\n${lines.join("\n")}`);

  return { text: sections.length > 0 ? sections.join("\n\n") : undefined, factIds };
}
