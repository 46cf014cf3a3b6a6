import type { PlanStep } from "../../types/index.js";
import { MemoError } from "../../utils/errors.js";
import type { MemoState } from "../../types/state.js";

/** The plan's dependencies form a cycle: it can never run. */
export class PlanCycleError extends MemoError {}

/**
 * Layers the plan by `dependsOn`: every step of a group depends only on steps of earlier groups,
 * so a group's steps can run in parallel. Throws PlanCycleError naming the steps of a cycle.
 * @internal
 */
export function executionGroups(plan: readonly PlanStep[]): PlanStep[][] {
  const ids = new Set(plan.map((s) => s.id));
  const placed = new Set<string>();
  const groups: PlanStep[][] = [];
  let remaining = [...plan];
  while (remaining.length > 0) {
    const ready = remaining.filter((s) => s.dependsOn.every((d) => placed.has(d) || !ids.has(d)));
    if (ready.length === 0) {
      throw new PlanCycleError(
        `Plan steps ${remaining.map((s) => s.id).join(", ")} depend on each other in a cycle`,
        {
          node: "resolver_router",
        },
      );
    }
    groups.push(ready);
    ready.forEach((s) => placed.add(s.id));
    remaining = remaining.filter((s) => !placed.has(s.id));
  }
  return groups;
}

/** The first group with a step that has no execution result yet, or null when all are done. */
export function activeGroup(state: MemoState): PlanStep[] | null {
  const plan = state.plannerOutput?.plan ?? [];
  return executionGroups(plan).find((group) => group.some((s) => !state.executionResults.has(s.id))) ?? null;
}

/** Answers the user gave about one step this turn, oldest first. */
export function answersFor(state: MemoState, stepId: string) {
  return Object.values(state.hitlResults)
    .filter((r) => r.stepId === stepId)
    .sort((a, b) => a.answeredAt - b.answeredAt);
}
