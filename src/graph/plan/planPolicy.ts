/**
 * The planner's policies, kept in code (spec 002 §5.2): what a plan must be whatever the model
 * wrote, applied to every plan the planner makes, and what a plan's steps are by their contracts
 * (reads, creations, other changes), which the HITL gate reads to decide who asks before a risky
 * plan runs (D12).
 */
import { calendarContract } from "../../contracts/calendar.js";
import { actionSpellings, type Contract, type OperationSpec } from "../../contracts/contract.js";
import { generalContract } from "../../contracts/general.js";
import { gmailContract } from "../../contracts/gmail.js";
import { metaContract } from "../../contracts/meta.js";
import { secondBrainContract } from "../../contracts/secondBrain.js";
import { tasksContract } from "../../contracts/tasks.js";
import { isReminderRequest } from "../../nlu/noteCommands.js";
import { asksToBeReminded, namesCalendarThing, schedulesSomething } from "../../nlu/reminderWords.js";
import type { CapabilityName, PlannerOutput, PlanStep } from "../../types/index.js";
import type { Logger } from "../../utils/logger.js";

/** What the planner's policies read of the turn. */
export interface PolicyTurn {
  /** The user's message as the planner read it (reply and image context folded in). */
  message: string;
  nowMs: number;
  timeZone: string;
  traceId?: string;
  /** WhatsApp marked the message forwarded (D14). */
  forwarded?: boolean;
  /** The message is the caption of a document the user sent, whose text the planner read as data (D14). */
  document?: boolean;
}

/** The step a policy rewrote, for the log. */
interface Rewrite {
  policy: "note_is_reminder" | "reminder_not_calendar";
  from: PlanStep;
  to: PlanStep;
}

/** The new step a database reminder takes: the task resolver reads the time and words from the message. */
function asReminder(step: PlanStep): PlanStep {
  return { ...step, capability: "database", action: "create_task" };
}

/**
 * A plan that sets a reminder or task in a step of its own ("note X and remind me at 9 to act on
 * it", "add the dentist on Sunday and remind me the day before"): the time belongs to that step.
 */
function remindsApart(plan: PlannerOutput): boolean {
  return plan.plan.some((step) => step.capability === "database" && /task|remind/.test(step.action));
}

/** `plan` with each step `rewrite` returns a new step for replaced by it, recorded in `done`. */
function rewritten(
  plan: PlannerOutput,
  rewrite: (step: PlanStep) => PlanStep | null,
  policy: Rewrite["policy"],
  done: Rewrite[],
): PlannerOutput {
  return {
    ...plan,
    plan: plan.plan.map((step) => {
      const to = rewrite(step);
      if (!to) return step;
      done.push({ policy, from: step, to });
      return to;
    }),
  };
}

function noteRule(plan: PlannerOutput, turn: PolicyTurn, done: Rewrite[]): PlannerOutput {
  const storesNote = (step: PlanStep) =>
    step.capability === "second-brain" &&
    /store|save|add|create|note$/.test(step.action) &&
    !/search|find|list|delete|update|forget|summar/.test(step.action);
  if (
    !plan.plan.some(storesNote) ||
    remindsApart(plan) ||
    !isReminderRequest(turn.message, turn.nowMs, turn.timeZone)
  )
    return plan;
  return rewritten(plan, (step) => (storesNote(step) ? asReminder(step) : null), "note_is_reminder", done);
}

/**
 * Planner rule 2, kept in code: a note the user asked for with a time or "remind me" in it is a
 * reminder (a database task), never a note that would sit silently when the time comes, unless
 * the plan sets that reminder in a step of its own.
 * @internal
 */
export function enforceNoteRule(
  plan: PlannerOutput,
  message: string,
  nowMs: number,
  timeZone: string,
): PlannerOutput {
  return noteRule(plan, { message, nowMs, timeZone }, []);
}

/**
 * Planner rule 2's other half, kept in code: "remind me at 5 to call Dana" planned as a calendar
 * event would make a reminder that never rings in WhatsApp, so a calendar creation for a message
 * that asks to be reminded, and names no meeting, appointment, event or calendar, is a database
 * reminder. "Remind me 10 minutes before the meeting" names one: that event's own reminder stays
 * calendar; so do words that schedule something or time the reminder from it ("book a haircut
 * Tuesday at 10, remind me the day before", "קבע ארוחת ערב … ותזכיר לי שעה לפני"), and a plan
 * that sets its reminder in a database step of its own.
 */
function reminderRule(plan: PlannerOutput, turn: PolicyTurn, done: Rewrite[]): PlannerOutput {
  const createsEvent = (step: PlanStep) => step.capability === "calendar" && stepKind(step) === "creates";
  if (
    !plan.plan.some(createsEvent) ||
    remindsApart(plan) ||
    !asksToBeReminded(turn.message) ||
    namesCalendarThing(turn.message) ||
    schedulesSomething(turn.message)
  )
    return plan;
  return rewritten(
    plan,
    (step) => (createsEvent(step) ? asReminder(step) : null),
    "reminder_not_calendar",
    done,
  );
}

/**
 * A forwarded message was written by someone else: what it asks for is offered back, never done as
 * the user's own request (D14). A plan of it that changes or creates anything is marked high risk,
 * so it asks before it runs (D12), whoever planned it: the model, the fast path or a capability.
 */
export function forwardedIsData(
  plan: PlannerOutput,
  turn: Pick<PolicyTurn, "forwarded" | "traceId">,
  logger: Logger,
): PlannerOutput {
  if (!turn.forwarded || plan.riskLevel === "high" || plan.plan.every((step) => stepKind(step) === "reads"))
    return plan;
  logger.info(
    {
      event: "PLAN_POLICY_FORWARDED",
      steps: plan.plan.map((step) => `${step.capability}.${step.action}`),
      ...(turn.traceId ? { traceId: turn.traceId } : {}),
    },
    "a forwarded message's plan changes something: it asks first",
  );
  return { ...plan, riskLevel: "high" };
}

/** Step fields that name other people or a list others share (a creation that reaches them). */
const REACHES_OTHERS =
  /^(?:attendees?|guests?|invitees?|participants?|assignee|assignees|assignedTo|member|members|person|people|recipients?|to|cc|contact|contacts|forWhom|for|shared|household|sharedList)$/iu;

/** Whether a step's changes or constraints name another person or a shared list (a non-empty value). */
function reachesOthers(step: PlanStep): boolean {
  if (step.capability === "household") return true;
  return [step.changes, step.constraints].some((fields) =>
    Object.entries(fields).some(
      ([key, value]) =>
        REACHES_OTHERS.test(key) &&
        value !== null &&
        value !== undefined &&
        value !== false &&
        value !== "" &&
        !(Array.isArray(value) && value.length === 0),
    ),
  );
}

/**
 * A document's text is data (D14): the caption is the user's request about it, but a model that
 * read the document may still obey orders printed in it ("delete all my tasks"). So in a turn with
 * a document, a plan that changes or removes anything that exists (anything but reading and
 * creating from the document) asks before it runs (D12), whoever planned it; so does a creation
 * that reaches others (an invitation to people, an item on a household's shared list).
 */
export function documentIsData(
  plan: PlannerOutput,
  turn: Pick<PolicyTurn, "document" | "traceId">,
  logger: Logger,
): PlannerOutput {
  if (!turn.document) return plan;
  const changes = plan.plan.filter((step) => {
    const kind = stepKind(step);
    return kind === "changes" || kind === "unknown" || (kind === "creates" && reachesOthers(step));
  });
  if (changes.length === 0 || (plan.riskLevel === "high" && plan.needsApproval)) return plan;
  logger.info(
    {
      event: "PLAN_POLICY_DOCUMENT",
      steps: changes.map((step) => `${step.capability}.${step.action}`),
      ...(turn.traceId ? { traceId: turn.traceId } : {}),
    },
    "a plan made beside a document changes something: it asks first",
  );
  return { ...plan, riskLevel: "high", needsApproval: true };
}

/** The planner's plan with every policy applied; each step a policy rewrites is logged (`PLAN_POLICY_REWRITE`). */
export function applyPlanPolicies(plan: PlannerOutput, turn: PolicyTurn, logger: Logger): PlannerOutput {
  const done: Rewrite[] = [];
  const result = documentIsData(
    forwardedIsData(reminderRule(noteRule(plan, turn, done), turn, done), turn, logger),
    turn,
    logger,
  );
  for (const { policy, from, to } of done) {
    logger.info(
      {
        event: "PLAN_POLICY_REWRITE",
        policy,
        stepId: from.id,
        planned: `${from.capability}.${from.action}`,
        rewritten: `${to.capability}.${to.action}`,
        ...(turn.traceId ? { traceId: turn.traceId } : {}),
      },
      "a planner policy rewrote a step",
    );
  }
  return result;
}

// ---- what a step is, by its contract ----

/** What a plan step does: only reads, adds something new, changes or removes, or no contract names its action. */
type StepKind = "reads" | "creates" | "changes" | "unknown";

const CONTRACTS: readonly Contract[] = [
  tasksContract,
  calendarContract,
  gmailContract,
  secondBrainContract,
  metaContract,
  generalContract,
];

/** Each capability's plan actions, with the operation each leads to. */
const ACTIONS: ReadonlyMap<CapabilityName, ReadonlyMap<string, OperationSpec>> = new Map(
  CONTRACTS.map((contract) => [
    contract.capability,
    new Map(
      Object.values(contract.operations).flatMap((spec) =>
        (spec.actions ?? []).map((action) => [action.name, spec] as const),
      ),
    ),
  ]),
);

function stepKind(step: PlanStep): StepKind {
  const actions = ACTIONS.get(step.capability);
  const spec = actionSpellings(step.action)
    .map((name) => actions?.get(name))
    .find((found) => found !== undefined);
  if (!spec) return "unknown";
  return spec.reads ? "reads" : spec.creates ? "creates" : "changes";
}

/**
 * Who asks before a plan the planner marked risky runs (D12):
 * - `capabilities`: every step only reads, or is a change its capability itself asks about,
 *   naming what it changes (entity_resolution; `confirmsInCode`): no question at the planner's level;
 * - `creations`: besides such steps, only creations, which no capability asks about: the planner's
 *   question names what will be created, and the changes are still asked about in code;
 * - `planner`: anything else (an action no contract names, a capability that does not confirm in
 *   code): the planner's question, for the whole plan.
 */
export function riskyPlanAsker(
  plan: readonly PlanStep[],
  confirmsInCode: (capability: CapabilityName) => boolean,
): "capabilities" | "creations" | "planner" {
  if (plan.length === 0) return "planner";
  const unasked = plan.filter((step) => {
    const kind = stepKind(step);
    return !(confirmsInCode(step.capability) && (kind === "reads" || kind === "changes"));
  });
  if (unasked.length === 0) return "capabilities";
  return unasked.every((step) => stepKind(step) === "creates") ? "creations" : "planner";
}

/** One thing a plan creates, as the planner named it. */
export interface PlannedCreation {
  capability: CapabilityName;
  /** Its title in the planner's words ("Standup", "milk"), when it gave one. */
  label?: string;
}

/** The fields a planner step names a thing by, in order of preference. */
const LABEL_FIELDS = ["summary", "title", "text", "name", "content", "subject", "item", "listName"];

/** The fields of a step's changes that list several things it creates at once. */
const SEVERAL_FIELDS = ["events", "recurringEvents", "tasks", "reminders", "items", "lists", "notes"];

function labelIn(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  for (const field of LABEL_FIELDS) {
    const found = record[field];
    if (typeof found === "string" && found.trim() !== "") return found.trim();
  }
  return undefined;
}

/**
 * What a plan's creation steps will create, one entry per thing: each element of a list the step's
 * changes carry ("events": [...], "items": ["milk", "eggs"]), else the step itself, named by its
 * changes or constraints.
 */
export function plannedCreations(plan: readonly PlanStep[]): PlannedCreation[] {
  return plan
    .filter((step) => stepKind(step) === "creates")
    .flatMap((step) => {
      const several = SEVERAL_FIELDS.map((field) => step.changes[field]).find(
        (value): value is unknown[] => Array.isArray(value) && value.length > 0,
      );
      const named = (label: string | undefined): PlannedCreation =>
        label ? { capability: step.capability, label } : { capability: step.capability };
      if (several) return several.map((value) => named(labelIn(value)));
      return [named(labelIn(step.changes) ?? labelIn(step.constraints))];
    });
}
