/**
 * What the planner reads of long-term memory each turn: the rolling summary and the remembered
 * facts most worth showing, as short markdown sections within token budgets (no I/O).
 */
import type { MemoryType, ScoredFact } from "../../db/repositories/memoryRepository.js";
import { estimateTokens } from "./limits.js";
import { SUMMARY_MAX_TOKENS, fitSummary } from "./summary.js";

/** Facts shown at most (default: 6). */
const CONTEXT_MAX_FACTS = 6;
/** Facts read for the context: twice those shown, so a fact too long for the budget leaves room for the next ones. */
export const CONTEXT_FACT_CANDIDATES = CONTEXT_MAX_FACTS * 2;
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

/** One fact as the planner reads it: `- (preference) Prefers morning meetings`. */
function factLine(type: MemoryType, content: string): string {
  return `- (${TYPE_LABELS[type]}) ${content}`;
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
  budgets: { summaryTokens?: number; factTokens?: number; maxFacts?: number } = {},
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
    const line = factLine(fact.type, fact.content);
    const cost = estimateTokens(line);
    if (cost > left) continue;
    left -= cost;
    lines.push(line);
    factIds.push(fact.id);
  }
  if (lines.length > 0) sections.push(`${FACTS_HEADING}\n${lines.join("\n")}`);

  return { text: sections.length > 0 ? sections.join("\n\n") : undefined, factIds };
}
