import { t, type MessageKey } from "../../messages/index.js";
import type { Language } from "../../messages/entries.js";
import type { PlanStep } from "../../types/index.js";
import type { MemoState } from "../../types/state.js";

type Verb =
  | "create"
  | "add"
  | "update"
  | "move"
  | "complete"
  | "delete"
  | "find"
  | "forward"
  | "send"
  | "reply"
  | "store"
  | "rename"
  | "clear"
  | "tick";
type Noun = "list" | "item" | "task" | "tasks" | "event" | "events" | "email" | "note" | "thing";

/** The verb of a plan action's first word ("add_list_item" → add); reading words say "find". */
const VERBS: Record<string, Verb> = {
  create: "create",
  add: "add",
  update: "update",
  set: "update",
  move: "move",
  complete: "complete",
  delete: "delete",
  remove: "delete",
  end: "delete",
  find: "find",
  show: "find",
  list: "find",
  search: "find",
  get: "find",
  read: "find",
  check: "find",
  analyze: "find",
  summarize: "find",
  forward: "forward",
  send: "send",
  draft: "send",
  reply: "reply",
  store: "store",
  save: "store",
  rename: "rename",
  clear: "clear",
  toggle: "tick",
};

const NOUN_OF_CAPABILITY: Partial<Record<PlanStep["capability"], Noun>> = {
  database: "task",
  calendar: "event",
  gmail: "email",
  "second-brain": "note",
};

/** The args fields that name what a step acts on, in the order they are tried. */
const NAME_FIELDS = ["listName", "summary", "text", "subject", "query", "content", "name", "title", "from"];
/** Longer names are cut here in the reply. */
const MAX_NAME = 40;

function nounOf(step: PlanStep): Noun {
  const action = step.action.toLowerCase();
  if (action.includes("item")) return "item";
  if (/tasks|reminders/u.test(action)) return "tasks";
  if (/task|reminder/u.test(action)) return "task";
  if (/events/u.test(action)) return "events";
  if (/event|meeting|appointment/u.test(action)) return "event";
  if (/email|mail/u.test(action)) return "email";
  if (/note/u.test(action)) return "note";
  if (action.includes("list")) return "list";
  return NOUN_OF_CAPABILITY[step.capability] ?? "thing";
}

const cut = (text: string) => (text.length > MAX_NAME ? `${text.slice(0, MAX_NAME - 1)}…` : text);

/** The first naming field of `record` (also inside `email` and `filters`), or null. */
function nameIn(record: Record<string, unknown> | undefined): string | null {
  if (!record) return null;
  for (const key of NAME_FIELDS) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) return cut(value.trim());
  }
  for (const inner of ["email", "filters", "constraints"]) {
    const value = record[inner];
    if (value && typeof value === "object" && !Array.isArray(value)) {
      const name = nameIn(value as Record<string, unknown>);
      if (name) return name;
    }
  }
  return null;
}

/** The words a step adds ("tent, lamp"), when its changes list them. */
function itemsIn(record: Record<string, unknown>): string | null {
  const items = record.items;
  if (!Array.isArray(items)) return null;
  const words = items.filter((item): item is string => typeof item === "string" && item.trim() !== "");
  return words.length > 0 ? cut(words.join(", ")) : null;
}

/** "add “tent, lamp”", "find the list “hiking gear”", "move the event": a step in the user's language. */
function describe(step: PlanStep, args: Record<string, unknown> | undefined, language: Language): string {
  const verb = VERBS[step.action.toLowerCase().split("_")[0] ?? ""] ?? "update";
  const noun = nounOf(step);
  const items = verb === "add" ? (itemsIn(args ?? {}) ?? itemsIn(step.changes)) : null;
  const name = nameIn(args) ?? nameIn(step.constraints) ?? nameIn(step.changes);
  const nounText = t(language, `stepNoun.${noun}` satisfies MessageKey);
  const object = items
    ? t(language, "stepObject.quoted", { name: items })
    : name
      ? t(language, "stepObject.named", { noun: nounText, name })
      : nounText;
  return t(language, `stepVerb.${verb}` satisfies MessageKey, { object });
}

/**
 * Why `step` did not run, naming it and the step it depended on: "So I didn't add “rope”: I
 * couldn't find the list “hiking gear”." / "…, since you chose not to delete the list “old”."
 */
export function skippedStepText(
  state: Readonly<MemoState>,
  step: PlanStep,
  dependency: PlanStep,
  language: Language,
): string {
  const result = state.executionResults.get(dependency.id);
  const resolved = state.resolverResults.get(dependency.id)?.args;
  const dependencyArgs =
    resolved ?? (result && Object.keys(result.args).length > 0 ? result.args : undefined);
  const declined = result?.errorCode === "CANCELLED";
  // A search that found nothing, like one that failed, is a thing not found.
  const asFound = !declined && /^(?:find|show|list|search|get|read)/u.test(dependency.action);
  const depended = describe(
    asFound ? { ...dependency, action: dependency.action.replace(/^[a-z]+/u, "find") } : dependency,
    dependencyArgs,
    language,
  );
  return t(language, declined ? "skippedAfterDeclined" : "skippedAfterFailed", {
    skipped: describe(step, undefined, language),
    dependency: depended,
  });
}
