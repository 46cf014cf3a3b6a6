/**
 * The tasks capability's contract (plan id `database`): every tasks.* and lists.* operation its
 * executor runs, with the arguments it receives after entity resolution and the result it returns.
 */
import { z } from "zod";
import type { ListItem, TaskList, TaskRecurrence } from "../types/index.js";
import {
  defineContract,
  type ArgsOf,
  type FunctionOf,
  type OperationName,
  type OperationOf,
  type Same,
} from "./contract.js";

/** V1's reminderRecurrence (spec 002 §8.3). Optional fields also take null: models often send it. */
export const ReminderRecurrenceSchema = z.object({
  type: z.enum(["daily", "weekly", "monthly", "nudge"]),
  time: z.string().nullish().describe('Local "HH:mm", ONLY for daily/weekly/monthly'),
  interval: z.string().nullish().describe('ONLY for nudge, e.g. "10 minutes"'),
  days: z.array(z.number().int().min(0).max(6)).nullish().describe("weekly: 0 = Sunday … 6 = Saturday"),
  dayOfMonth: z.number().int().min(1).max(31).nullish().describe("monthly: day of the month"),
  until: z.string().nullish().describe("when it stops: the user's words or a local date YYYY-MM-DD"),
  phrase: z
    .string()
    .nullish()
    .describe(
      'The user\'s own repeat words with their time, as written: "every other Tuesday at 8", "כל יום חול ב-7"',
    ),
});

/**
 * reminderRecurrence as code hands it on: the model's fields, or (from a stored or parsed rule, never
 * from the model, whose output the schema strips of them) an RFC 5545 rule kept exactly as it is.
 */
const ReminderRecurrenceArgsSchema = ReminderRecurrenceSchema.extend({
  type: z.enum(["daily", "weekly", "monthly", "nudge", "rrule", "hebrew"]),
  /** type "rrule": the rule and its series start, as Recurrence stores them. */
  rule: z.string().optional(),
  start: z.string().optional(),
  /** type "hebrew": the Hebrew date every year, and whether it rings the evening before, as Recurrence stores them. */
  hebrew: z
    .object({
      month: z.number().int().min(1).max(13),
      day: z.number().int().min(1).max(30),
      custom: z.enum(["date", "birthday", "yahrzeit"]),
    })
    .optional(),
  eve: z.boolean().optional(),
});

export type ReminderRecurrenceArgs = z.infer<typeof ReminderRecurrenceArgsSchema>;

/** Which tasks getAll, deleteAll, completeAll and updateAll apply to. */
export const TaskFiltersSchema = z.object({
  completed: z.boolean().nullish(),
  category: z.string().nullish(),
  due: z.enum(["overdue", "today", "tomorrow", "week", "upcoming", "none"]).nullish(),
  query: z.string().nullish().describe("words the task text must contain"),
});

/** A zone the user named with a time, not their own: the confirmation shows both times. */
export interface SaidIn {
  /** IANA zone. */
  zone: string;
  /** The words said ("pst", "london time"). */
  label: string;
}

const text = z.string().nullish();
const ids = z.array(z.string()).nullish();
const flag = z.boolean().nullish();

/** When a task is due and how it repeats, as words code reads (D6). */
const timeArgs = {
  dueDate: text,
  reminder: text,
  reminderRecurrence: ReminderRecurrenceArgsSchema.nullish(),
  /** Set in code only (the fast path): the zone the user named with the time ("8am PST"). */
  saidIn: z.object({ zone: z.string(), label: z.string() }).nullish(),
  /** Set in code only (the fast path): the Hebrew date the day was named by ("on 10 Tevet"). */
  hebrewDate: z
    .object({
      year: z.number(),
      month: z.number(),
      day: z.number(),
      said: z.object({ month: z.number(), day: z.number() }).optional(),
    })
    .nullish(),
};
const taskDraft = z.object({ text, category: text, ...timeArgs });
/** A resolved task id (absent: no such task, refused as "which task?"). */
const taskId = text;
const taskChange = { newText: text, category: text, ...timeArgs };

/** A resolved list id (absent: no such list, refused as "which list?"). */
const listId = text;
const listDraft = z.object({ listName: text, items: ids, isChecklist: flag, forHousehold: flag });
const listChange = z.object({ listId, newName: text, isChecklist: flag });

/** The group a task is shown in, in a listing. */
export type TaskGroup = "overdue" | "today" | "upcoming" | "recurring" | "undated" | "done";

/** A task as results carry it to the formatter and the templates. */
export interface TaskView {
  id: string;
  text: string;
  category: string | null;
  dueAt: string | null;
  nextFireAt: string | null;
  recurrence: TaskRecurrence | null;
  reminderOffsetMinutes: number | null;
  completed: boolean;
  subtasks: { text: string; completed: boolean }[];
  /** The zone its time was named in, when not the user's ("8am PST"). */
  saidIn?: SaidIn;
  /** The Hebrew date its day was named by ("on 10 Tevet"), shown beside the Gregorian one. */
  hebrewDate?: { year: number; month: number; day: number; said?: { month: number; day: number } };
  /** The group it is shown in, in a listing. */
  group?: TaskGroup;
  /** Another household member gave it: its words are theirs, shown as content (D14). */
  given?: true;
  /**
   * Just created with its first ring inside a Shabbat or holiday window while the user keeps
   * Shabbat quiet: the havdalah (ISO instant) it will be sent after, said in the confirmation.
   */
  heldUntil?: string;
}

/** A result about one task. */
export interface TaskResult<Op extends string = string> {
  kind: "task";
  op: Op;
  task: TaskView;
  /** complete: the task was removed (a reminder), not kept as done. */
  removed?: boolean;
  /** complete: a repeating task, moved to its next time. */
  recurring?: boolean;
  /** addSubtask: the subtask added. */
  subtask?: string;
}

/** A result about several tasks. */
export interface TasksResult<Op extends string = string> {
  kind: "tasks";
  op: Op;
  tasks: TaskView[];
}

/** getAll: the user's tasks in display order. */
interface TaskListing {
  kind: "taskList";
  tasks: TaskView[];
  filtered: boolean;
}

/** A result about one list. */
export interface ListResult<Op extends string = string> {
  kind: "list";
  op: Op;
  list: TaskList;
  added?: string[];
  /** addItem made the list, none by that name existing. */
  created?: boolean;
  item?: ListItem;
  previousName?: string;
  /** clear: the items it removed (none: the list had nothing to remove). */
  cleared?: ListItem[];
  /** clear: only the checked items were removed. */
  onlyChecked?: boolean;
  /** sort: the items were in that order already (or fewer than two). */
  unchanged?: boolean;
}

/** A result about several lists. */
export interface ListsResult<Op extends string = string> {
  kind: "lists";
  op: Op;
  lists: TaskList[];
}

/** The operations of the tasks capability, in the order the prompts and the planner list them. */
export const tasksContract = defineContract("database", {
  "tasks.create": {
    args: taskDraft,
    creates: true,
    produces: "tasks",
    actions: [{ name: "create_task" }],
    description:
      "one task or reminder. text = what to do, without the time words. dueDate, reminder, reminderRecurrence as below.",
  },
  "tasks.createMultiple": {
    args: z.object({ tasks: z.array(taskDraft).nullish() }),
    creates: true,
    produces: "tasks",
    description: 'several at once in "tasks".',
  },
  "tasks.get": {
    args: z.object({ taskId }),
    reads: true,
    produces: "tasks",
    description: "one task (taskId or text).",
  },
  "tasks.getAll": {
    args: z.object({ filters: TaskFiltersSchema.nullish() }),
    reads: true,
    produces: "tasks",
    actions: [{ name: "list_tasks", reads: true }],
    description:
      'the user\'s tasks, narrowed by "filters" (completed, category, due: overdue|today|tomorrow|week|upcoming|none, query).',
  },
  "tasks.update": {
    args: z.object({ taskId, ...taskChange }),
    produces: "tasks",
    actions: [{ name: "update_task" }],
    description:
      "taskId or text names the task; newText, category, dueDate, reminder or reminderRecurrence are the new values.",
  },
  "tasks.updateMultiple": {
    args: z.object({ updates: z.array(z.object({ taskId, ...taskChange })).nullish() }),
    produces: "tasks",
    description: '"updates", each naming a task (taskId or text) with its new values.',
  },
  "tasks.updateAll": {
    args: z.object({ taskIds: ids, ...taskChange }),
    produces: "tasks",
    description: "filters + the new values.",
  },
  "tasks.complete": {
    args: z.object({ taskId }),
    produces: "tasks",
    actions: [{ name: "complete_task" }],
    description: "one task (taskId or text).",
  },
  "tasks.completeAll": {
    args: z.object({ taskIds: ids }),
    produces: "tasks",
    description: "filters (empty = all open tasks).",
  },
  "tasks.delete": {
    args: z.object({ taskId }),
    produces: "tasks",
    actions: [{ name: "delete_task" }],
    description: "one task (taskId or text).",
  },
  "tasks.deleteMultiple": {
    args: z.object({ taskIds: ids }),
    produces: "tasks",
    description: '"taskIds" (handles or task texts).',
  },
  "tasks.deleteAll": {
    args: z.object({ taskIds: ids }),
    produces: "tasks",
    description: "filters (empty = all open tasks).",
  },
  "tasks.addSubtask": {
    args: z.object({ taskId, subtask: text }),
    creates: true,
    produces: "tasks",
    actions: [{ name: "add_subtask" }],
    description: 'taskId or text names the parent; "subtask" is the new subtask.',
  },
  "lists.create": {
    args: listDraft,
    creates: true,
    produces: "lists",
    actions: [{ name: "create_list" }],
    description:
      "listName, items (may be empty), isChecklist (default true; false only for a plain list the user does not tick off).",
  },
  "lists.createMultiple": {
    args: z.object({ lists: z.array(listDraft).nullish() }),
    creates: true,
    produces: "lists",
    description: '"lists".',
  },
  "lists.get": {
    args: z.object({ listId }),
    reads: true,
    produces: "lists",
    actions: [{ name: "show_list", reads: true }],
    description: "one list (listId or listName).",
  },
  "lists.getAll": {
    args: z.object({}),
    reads: true,
    produces: "lists",
    actions: [{ name: "show_lists", reads: true }],
    description: "all lists.",
  },
  "lists.addItem": {
    args: z.object({ listId, listName: text, items: ids, item: text, createList: flag }),
    creates: true,
    produces: "lists",
    actions: [{ name: "add_list_item" }],
    description:
      'listName (or listId) and the new "items" ("add milk and eggs to the shopping list" → items ["milk", "eggs"]).',
  },
  "lists.toggleItem": {
    args: z.object({ listId, item: text, checked: flag }),
    produces: "lists",
    actions: [{ name: "toggle_list_item" }],
    description: 'listName and "item" to tick or untick; checked true/false when the user says which.',
  },
  "lists.deleteItem": {
    args: z.object({ listId, item: text }),
    produces: "lists",
    actions: [{ name: "delete_list_item" }],
    description: 'listName and "item" to remove.',
  },
  "lists.update": {
    args: listChange,
    produces: "lists",
    actions: [{ name: "rename_list" }],
    description: "listId or listName names the list; newName / isChecklist are the new values.",
  },
  "lists.updateMultiple": {
    args: z.object({ updates: z.array(listChange).nullish() }),
    produces: "lists",
    description: '"updates".',
  },
  "lists.delete": {
    args: z.object({ listId }),
    produces: "lists",
    actions: [{ name: "delete_list" }],
    description: "one list.",
  },
  "lists.deleteMultiple": {
    args: z.object({ listIds: ids }),
    produces: "lists",
    description: '"listIds" (handles or names).',
  },
  "lists.clear": {
    args: z.object({ listId, onlyChecked: flag }),
    produces: "lists",
    actions: [{ name: "clear_list", hint: "empty it, or remove its checked items" }],
    description:
      'listName; removes every item and keeps the list ("clear / empty the shopping list", "remove all items from shopping", "נקה את רשימת הקניות"). onlyChecked true removes only the checked items ("remove the done items from shopping", "מחק את הפריטים המסומנים"). Deleting the list itself is delete.',
  },
  "lists.sort": {
    args: z.object({ listId }),
    produces: "lists",
    actions: [{ name: "sort_list", hint: "put its items in alphabetical order" }],
    description:
      'listName; puts the items in alphabetical order and keeps them as they are ("sort the shopping list", "סדר את רשימת הקניות", "מיין את רשימת קניות").',
  },
});

type TasksContract = typeof tasksContract;
export type TasksFunction = FunctionOf<TasksContract>;
/** One tasks operation with its arguments, as the executor switches on it. */
export type TasksOperation = OperationOf<TasksContract>;
export type TasksArgs<F extends TasksFunction> = ArgsOf<TasksContract, F>;
export type TaskOperationName = OperationName<TasksFunction, "tasks">;
export type ListOperationName = OperationName<TasksFunction, "lists">;

/** What each operation returns as data (the reply template's input, before times are humanized). */
export interface TasksResults {
  "tasks.create": TaskResult<"create">;
  "tasks.createMultiple": TasksResult<"createMultiple">;
  "tasks.get": TaskResult<"get">;
  "tasks.getAll": TaskListing;
  "tasks.update": TaskResult<"update">;
  "tasks.updateMultiple": TasksResult<"updateMultiple">;
  "tasks.updateAll": TasksResult<"updateAll">;
  "tasks.complete": TaskResult<"complete">;
  "tasks.completeAll": TasksResult<"completeAll">;
  "tasks.delete": TaskResult<"delete">;
  "tasks.deleteMultiple": TasksResult<"deleteMultiple">;
  "tasks.deleteAll": TasksResult<"deleteAll">;
  "tasks.addSubtask": TaskResult<"addSubtask">;
  "lists.create": ListResult<"create">;
  "lists.createMultiple": ListsResult<"createMultiple">;
  "lists.get": ListResult<"get">;
  "lists.getAll": ListsResult<"getAll">;
  "lists.addItem": ListResult<"addItem">;
  "lists.toggleItem": ListResult<"toggleItem">;
  "lists.deleteItem": ListResult<"deleteItem">;
  "lists.update": ListResult<"update">;
  "lists.updateMultiple": ListsResult<"updateMultiple">;
  "lists.delete": ListResult<"delete">;
  "lists.deleteMultiple": ListsResult<"deleteMultiple">;
  "lists.clear": ListResult<"clear">;
  "lists.sort": ListResult<"sort">;
}

/** Any result of the tasks capability. */
export type TasksData = TasksResults[TasksFunction];

// Every operation has a result type, and every result type an operation.
const _resultsCoverOperations: Same<keyof TasksResults, TasksFunction> = true;
void _resultsCoverOperations;

/** A tasks function as its kind and operation: "lists.clear" → lists, clear. */
type SplitFunction =
  { kind: "tasks"; operation: TaskOperationName } | { kind: "lists"; operation: ListOperationName };

/** Splits a function the contract declares into its kind and operation. */
export function splitFunction(functionName: TasksFunction): SplitFunction {
  const [kind, operation] = functionName.split(".");
  return { kind, operation } as SplitFunction;
}
