/**
 * A capability's operations, declared once (issue 33 item 2): for each function ("lists.create") the
 * zod schema of the arguments its executor receives after entity resolution, whether it only reads,
 * what kind of entity it hands to later steps, and the plan actions that lead to it. The resolver's
 * schema, the entity resolver, the executor and the reply template are typed from it, and the
 * planner's list of actions is generated from it.
 */
import { z } from "zod";
import type { ExecutorOutcome } from "../types/capability.js";
import type { CapabilityName, RefKind } from "../types/index.js";

/** A semantic plan action ("create_list"), with the words the planner prompt adds after it. */
export interface PlannerAction {
  name: string;
  /** Shown in parentheses after the name in the planner prompt: "empty it, or remove its checked items". */
  hint?: string;
  /** Only reads (lists, finds, analyses): a find resolver may claim it. */
  reads?: true;
  /** The executor function it runs as it is, with no resolver model ("memory.list"). */
  functionName?: string;
}

/** One operation of a capability's executor. */
export interface OperationSpec<A extends z.ZodType = z.ZodType> {
  /** What the executor receives, after entity resolution. */
  args: A;
  /** Changes nothing: no ledger entry, no undo entry (default: false). */
  reads?: true;
  /**
   * Adds something new (a task, an event, a list item, a note, a draft): its capability asks
   * nothing before it runs, so a plan the planner marked risky asks at the planner's level (D12)
   * (default: false).
   */
  creates?: true;
  /** The kind of entity its result hands to the steps that depend on it (refs). */
  produces?: RefKind;
  /** The plan actions that map to it, for the planner prompt and the resolvers' `actions`. */
  actions?: readonly PlannerAction[];
  /** One line for the resolver prompt's "Operations:" list. */
  description: string;
}

type Operations = Record<string, OperationSpec>;

/** A capability's planner actions, for a capability whose operations are not declared yet. */
export interface CapabilityActions {
  capability: CapabilityName;
  actions: readonly PlannerAction[];
}

/** A capability's operations, and the planner actions they come from. */
export interface Contract<O extends Operations = Operations> extends CapabilityActions {
  operations: O;
}

/** Declares a capability's operations; its planner actions are theirs, in declaration order. */
export function defineContract<const O extends Operations>(
  capability: CapabilityName,
  operations: O,
): Contract<O> {
  return {
    capability,
    operations,
    actions: Object.values(operations).flatMap((spec) => spec.actions ?? []),
  };
}

/** The functions a contract declares ("tasks.create" | "lists.clear" | …). */
export type FunctionOf<C extends Contract> = keyof C["operations"] & string;

/** The arguments the executor of `F` receives. */
export type ArgsOf<C extends Contract, F extends FunctionOf<C>> = z.infer<C["operations"][F]["args"]>;

/** One operation of a contract with its arguments: the discriminated union the executor switches on. */
export type OperationOf<C extends Contract> = {
  [F in FunctionOf<C>]: { functionName: F; args: ArgsOf<C, F> };
}[FunctionOf<C>];

/** "create" for "lists.create" when P is "lists". */
export type OperationName<F extends string, P extends string> = F extends `${P}.${infer S}` ? S : never;

/** What an executor reports about an operation whose result is `R`. */
export type OutcomeOf<R> = Omit<ExecutorOutcome, "data"> & { data?: R };

/** The names after `prefix.` of a contract's functions, in declaration order ("create", "clear", …). */
export function operationNames<C extends Contract, P extends string>(
  contract: C,
  prefix: P,
): [OperationName<FunctionOf<C>, P>, ...OperationName<FunctionOf<C>, P>[]] {
  const names = Object.keys(contract.operations)
    .filter((f) => f.startsWith(`${prefix}.`))
    .map((f) => f.slice(prefix.length + 1));
  if (names.length === 0) throw new Error(`no ${prefix}.* operation in the ${contract.capability} contract`);
  return names as [OperationName<FunctionOf<C>, P>, ...OperationName<FunctionOf<C>, P>[]];
}

/** The resolver prompt's lines of `prefix.*` operations: "- clear: listName; removes every item…". */
export function operationLines(contract: Contract, prefix: string): string {
  return Object.entries(contract.operations)
    .filter(([f]) => f.startsWith(`${prefix}.`))
    .map(([f, spec]) => `- ${f.slice(prefix.length + 1)}: ${spec.description}`)
    .join("\n");
}

/** The plan actions of a contract's `prefix.*` operations, in declaration order. */
export function actionsOf(contract: Contract, prefix: string): PlannerAction[] {
  return Object.entries(contract.operations)
    .filter(([f]) => f.startsWith(`${prefix}.`))
    .flatMap(([, spec]) => spec.actions ?? []);
}

/** The names of a contract's `prefix.*` plan actions: a resolver's `actions`. */
export function actionNames(contract: Contract, prefix: string): string[] {
  return actionsOf(contract, prefix).map((a) => a.name);
}

/** `"create_event" (also several…), "list_events"`: actions as the planner prompt lists them. */
export function plannerActionList(actions: readonly PlannerAction[]): string {
  return actions.map((a) => (a.hint ? `"${a.name}" (${a.hint})` : `"${a.name}"`)).join(", ");
}

/** Whether `functionName` is one the contract declares. */
export function declares<C extends Contract>(
  contract: C,
  functionName: string,
): functionName is FunctionOf<C> {
  return Object.hasOwn(contract.operations, functionName);
}

/** The result of checking a step's `{ functionName, args }` against its contract. */
type Checked<C extends Contract> =
  { success: true; operation: OperationOf<C> } | { success: false; issues: string };

/**
 * Checks an operation against its contract: the one place where a string function name and
 * `Record<string, unknown>` arguments become the typed union (the rest of the capability is typed).
 */
export function checkOperation<C extends Contract>(
  contract: C,
  functionName: string,
  args: unknown,
): Checked<C> {
  const unknown = `unknown operation ${functionName}`;
  if (!declares(contract, functionName)) return { success: false, issues: unknown };
  const parsed = contract.operations[functionName]!.args.safeParse(args);
  if (!parsed.success) return { success: false, issues: z.prettifyError(parsed.error) };
  return { success: true, operation: { functionName, args: parsed.data } as OperationOf<C> };
}

/**
 * `true` only when A and B are the same set of names: a contract writes
 * `const _resultsCoverOperations: Same<keyof Results, Function> = true`, which fails `tsc` when an
 * operation has no result type or a result type no operation.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;

/** The end of an exhaustive switch: a new case the switch does not handle fails `tsc` here. */
export function assertNever(value: never): never {
  const shown: unknown = value;
  throw new Error(`unhandled case: ${JSON.stringify(shown)}`);
}

/**
 * The names an action may stand for: as written, then without "all" and in the singular
 * ("delete_all_tasks", "delete_tasks" → "delete_task"; "create_events" → "create_event"), as the
 * planner is told to write "…_tasks" for several.
 */
export function actionSpellings(action: string): string[] {
  const words = action
    .toLowerCase()
    .split("_")
    .filter((w) => w !== "all" && w !== "");
  const singular = words.map((w) =>
    w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w,
  );
  return [action, words.join("_"), singular.join("_")];
}
