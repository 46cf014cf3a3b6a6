/**
 * The plan actions the planner may name, per capability: the contracts' actions (src/contracts/),
 * which the planner prompt lists, and the two the prompt names by rule ("answer_question",
 * "describe_capabilities"). The corpus's expected actions are these; a model's action is read
 * as production reads it (src/graph/plan/planPolicy.ts): as written, else without "all" and in
 * the singular ("delete_all_tasks" → "delete_task").
 */
import { calendarContract } from "../../src/contracts/calendar.js";
import { actionSpellings, type Contract } from "../../src/contracts/contract.js";
import { gmailContract } from "../../src/contracts/gmail.js";
import { metaContract } from "../../src/contracts/meta.js";
import { secondBrainContract } from "../../src/contracts/secondBrain.js";
import { tasksContract } from "../../src/contracts/tasks.js";
import type { PLANNER_CAPABILITIES } from "../../src/types/index.js";

type PlannerCapability = (typeof PLANNER_CAPABILITIES)[number];

/** One action the planner may name, and whether it only reads or only adds something new (its operation's). */
interface KnownAction {
  name: string;
  reads: boolean;
  creates: boolean;
}

function actionsOfContract(contract: Contract): KnownAction[] {
  return Object.values(contract.operations).flatMap((spec) =>
    (spec.actions ?? []).map((a) => ({
      name: a.name,
      reads: a.reads === true || spec.reads === true,
      creates: spec.creates === true,
    })),
  );
}

/** Every action the planner may name, by capability, in the contracts' order. */
export const PLANNER_ACTIONS: ReadonlyMap<PlannerCapability, readonly KnownAction[]> = new Map<
  PlannerCapability,
  KnownAction[]
>([
  ["database", actionsOfContract(tasksContract)],
  ["calendar", actionsOfContract(calendarContract)],
  ["gmail", actionsOfContract(gmailContract)],
  ["second-brain", actionsOfContract(secondBrainContract)],
  // Rule 14 of the planner prompt: pure conversation, and "what can you do".
  ["general", [{ name: "answer_question", reads: true, creates: false }]],
  [
    "meta",
    [{ name: "describe_capabilities", reads: true, creates: false }, ...actionsOfContract(metaContract)],
  ],
]);

/** The known action `action` stands for in `capability`, or undefined. @internal */
export function knownAction(capability: string, action: string): KnownAction | undefined {
  const known = PLANNER_ACTIONS.get(capability as PlannerCapability) ?? [];
  for (const spelling of actionSpellings(action)) {
    const found = known.find((a) => a.name === spelling);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether an action changes or deletes something that exists: neither only reads nor only adds
 * something new (an action no contract names counts as a change).
 */
export function changesSomething(capability: string, action: string): boolean {
  const known = knownAction(capability, action);
  return !known || (!known.reads && !known.creates);
}

/** Whether a model's step action is one of the accepted names (each read as production reads it). */
export function sameAction(capability: string, got: string, accepted: readonly string[]): boolean {
  const read = knownAction(capability, got)?.name ?? got;
  return accepted.some((name) => name === got || (knownAction(capability, name)?.name ?? name) === read);
}
