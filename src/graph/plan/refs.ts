import type { EntityReferences, ExecutionResult, PlanStep, RefKind, StepRef } from "../../types/index.js";
import type { MemoState } from "../../types/state.js";

/** The kind of entity an operation's result holds, by its function's prefix ("lists.create" → lists). */
const KIND_OF_PREFIX: Record<string, RefKind> = {
  tasks: "tasks",
  lists: "lists",
  calendar: "events",
  notes: "notes",
  gmail: "emails",
};

/** What a succeeded step produced, for the steps after it; null when it produced no entity. */
export function stepRefOf(step: PlanStep, result: ExecutionResult): StepRef | null {
  const kind = KIND_OF_PREFIX[result.functionName.split(".")[0] ?? ""];
  const ids = result.latestAction?.externalIds ?? result.produced?.ids ?? [];
  if (!result.success || !kind || ids.length === 0) return null;
  const when = result.latestAction ? result.latestAction.when : result.produced?.when;
  return {
    stepId: step.id,
    capability: step.capability,
    functionName: result.functionName,
    kind,
    ids,
    summary: result.latestAction?.summary ?? result.produced?.summary ?? step.action,
    ...(when ? { when } : {}),
  };
}

/**
 * Whether a step that a later one depends on did not give it anything to act on: it failed, or it
 * was a search or listing that found nothing (the later step is skipped and the reply says so).
 */
export function leftNothingFor(result: ExecutionResult | undefined): boolean {
  if (!result) return false;
  return !result.success || result.produced?.ids.length === 0;
}

/** The state's reducer for refs: each step's result kept by id; per kind, every id and the latest single one. */
export function mergeRefs(current: EntityReferences, update: EntityReferences): EntityReferences {
  const merged: EntityReferences = { ...current, steps: { ...current.steps } };
  for (const ref of Object.values(update.steps)) {
    merged.steps[ref.stepId] = ref;
    const before = merged[ref.kind];
    merged[ref.kind] = {
      ids: [...(before?.ids ?? []), ...ref.ids.filter((id) => !before?.ids.includes(id))],
      ...(ref.ids.length === 1
        ? { selectedId: ref.ids[0] }
        : before?.selectedId
          ? { selectedId: before.selectedId }
          : {}),
    };
  }
  return merged;
}

/**
 * What the steps `stepId` depends on produced, nearest first: its own dependencies, then theirs.
 * A step that depends on nothing gets nothing (it acts on the user's words and earlier messages).
 */
export function dependencyRefs(state: Readonly<MemoState>, stepId: string): StepRef[] {
  const plan = state.plannerOutput?.plan ?? [];
  const byId = new Map(plan.map((s) => [s.id, s]));
  const seen = new Set<string>();
  const out: StepRef[] = [];
  let frontier = byId.get(stepId)?.dependsOn ?? [];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) {
      if (seen.has(id)) continue;
      seen.add(id);
      const ref = state.refs.steps[id];
      if (ref) out.push(ref);
      next.push(...(byId.get(id)?.dependsOn ?? []));
    }
    frontier = next;
  }
  return out;
}
