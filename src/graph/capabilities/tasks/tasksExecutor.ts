import { literalOf } from "../../../utils/fuzzy.js";
import { nonEmpty } from "../../../utils/args.js";
import type { ListRepository } from "../../../db/repositories/listRepository.js";
import type { TaskRepository } from "../../../db/repositories/taskRepository.js";
import type { DatabaseRepositories } from "../../../db/storage.js";
import type { Storage } from "../../../db/transaction.js";
import type { RowScope } from "../../../db/repositories/undoRepository.js";
import {
  DEFAULT_UNDO_WINDOW_MS,
  describeChanged,
  UndoCapture,
  type UndoAction,
  type UndoDescription,
} from "../../../services/undo/undoJournal.js";
import { findTasks, groupOf, type TaskGroup } from "../../../services/tasks/taskFilters.js";
import { completeTaskRow } from "../../../services/tasks/completeTask.js";
import { invisibleNameReply } from "../../../services/tasks/visibleNames.js";
import { tooLongReply, type MAX_LENGTH } from "../../../services/tasks/limits.js";
import {
  bareClock,
  recurrenceArgsOf,
  scheduleFields,
  scheduleTask,
  type TaskTimeArgs,
  type SaidIn,
} from "../../../services/tasks/taskTimes.js";
import type { ListItem, Task, TaskList, TaskPatch } from "../../../types/tasks.js";
import { t } from "../../../messages/index.js";
import type { CapabilityContext, Executor, ExecutorOutcome } from "../../../types/capability.js";
import { MemoError } from "../../../utils/errors.js";

type Args = Record<string, unknown>;

/** A task as results carry it to the formatter and the templates. */
export interface TaskView {
  id: string;
  text: string;
  category: string | null;
  dueAt: string | null;
  nextFireAt: string | null;
  recurrence: Task["recurrence"];
  reminderOffsetMinutes: number | null;
  completed: boolean;
  subtasks: Task["subtasks"];
  /** The zone its time was named in, when not the user's ("8am PST"). */
  saidIn?: SaidIn;
  /** The group it is shown in, in a listing. */
  group?: TaskGroup;
  /** Another household member gave it: its words are theirs, shown as content (D14). */
  given?: true;
}

/** What a database operation returns as data (the templates' input). */
export type DatabaseData =
  | { kind: "task"; op: string; task: TaskView; removed?: boolean; recurring?: boolean; subtask?: string }
  | { kind: "tasks"; op: string; tasks: TaskView[] }
  | { kind: "taskList"; tasks: TaskView[]; filtered: boolean }
  | {
      kind: "list";
      op: string;
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
    }
  | { kind: "lists"; op: string; lists: TaskList[] };

type RunContext = CapabilityContext & { operationId: string; zone: string };

/** Operations that change nothing: not recorded in the ledger, not re-read on a re-run. */
const READS = new Set(["tasks.get", "tasks.getAll", "lists.get", "lists.getAll"]);

const str = nonEmpty;
const strings = (v: unknown) => (Array.isArray(v) ? v.map(str).filter((s): s is string => !!s) : []);
const records = (v: unknown) => (Array.isArray(v) ? (v as Args[]) : []);

export function taskView(task: Task, group?: TaskGroup): TaskView {
  return {
    id: task.id,
    text: task.text,
    category: task.category,
    dueAt: task.dueAt,
    nextFireAt: task.nextFireAt,
    recurrence: task.recurrence,
    reminderOffsetMinutes: task.reminderOffsetMinutes,
    completed: task.completed,
    subtasks: task.subtasks,
    ...(saidInOf(task) ? { saidIn: saidInOf(task)! } : {}),
    ...(group ? { group } : {}),
    ...(task.assignedByPhone ? { given: true as const } : {}),
  };
}

/** The zone a task's time was named in, from its stored reminder details. */
function saidInOf(task: Task): SaidIn | null {
  const said = task.reminderDetails?.saidIn as Partial<SaidIn> | undefined;
  return typeof said?.zone === "string" && typeof said.label === "string"
    ? { zone: said.zone, label: said.label }
    : null;
}

/** A failure the user caused or can fix, in their language; the operation changes nothing. */
class OperationRefused extends MemoError {
  constructor(readonly outcome: ExecutorOutcome & { errorCode: string }) {
    super(outcome.errorCode, { capability: "database", errorCode: outcome.errorCode });
  }
}

function refuse(errorCode: string, error: string): never {
  throw new OperationRefused({ success: false, errorCode, error });
}

/** Refuses a text longer than its column keeps. */
function checkLength(text: string | undefined, what: keyof typeof MAX_LENGTH, language: "he" | "en"): void {
  const reply = tooLongReply(text, what, language);
  if (reply) refuse("TOO_LONG", reply);
}

function schedule(args: TaskTimeArgs, context: RunContext, timeZone: string, anchorDueAt?: string | null) {
  const result = scheduleTask(args, {
    nowMs: context.now,
    timeZone,
    ...(anchorDueAt ? { anchorDueAt } : {}),
  });
  if (!result.ok) {
    refuse(
      "UNCLEAR_TIME",
      t(context.language, result.problem === "past_time" ? "askPast" : "askWhen", { phrase: result.phrase }),
    );
  }
  return result.schedule;
}

/**
 * database: tasks, reminders and lists over their repositories (spec 002 §12.3; no LLM here).
 * Every change runs in one transaction with its ledger entry, and a refused operation rolls back
 * whatever it had done; creates carry the operation id as a unique key. A turn re-run after a crash
 * reports the first outcome and changes nothing again: its ledger entry is found when the re-run
 * tries to write it (or fails on the way), and the re-run rolls back. So the ledger is read only
 * then, never on the way of a first run, and reads never touch it.
 */
export function createTasksExecutor(
  storage: Storage<DatabaseRepositories>,
  /** How long each change can be taken back with "undo" (default: 10 minutes). */
  undoWindowMs = DEFAULT_UNDO_WINDOW_MS,
): Executor {
  return {
    name: "DatabaseExecutor",
    capability: "database",
    async execute(functionName, args, context) {
      const { phone, operationId } = context;
      const run: RunContext = { ...context, zone: context.state.user.timezone };
      // A name of invisible characters only is refused before anything is read or written.
      const invisible = invisibleNameReply(args, context.language);
      if (invisible) return { success: false, errorCode: "INVISIBLE_NAME", error: invisible };
      if (READS.has(functionName)) {
        const { tasks, lists } = storage.repositories;
        try {
          return await dispatch(functionName, args, tasks, lists, run);
        } catch (error) {
          if (error instanceof OperationRefused) return error.outcome;
          throw error;
        }
      }
      let failure: unknown;
      try {
        return await storage.transaction(async ({ tasks, lists, ledger, journal }) => {
          // The rows this operation can touch, copied before and after: the difference is what undo puts back.
          const undo = new UndoCapture(journal, phone, undoScopes(functionName, args, operationId));
          await undo.before();
          const outcome = await dispatch(functionName, args, tasks, lists, run);
          const data = outcome.success ? (outcome.data as DatabaseData) : undefined;
          const description = undoDescription(data);
          const change = {
            operationId,
            turnId: context.state.traceId,
            now: context.now,
            windowMs: undoWindowMs,
          };
          // Journaled only when something changed (a change to a list another member shares too:
          // its rows are copied like one's own, and undone on the same terms).
          const entry = description ? await undo.entry({ ...change, description }) : null;
          // The ledger entry (with the undo entry, one statement) commits with the change. One
          // already there: this is a re-run of an operation that happened, so everything this run
          // did is rolled back (and its outcome read below).
          if (!(await ledger.record(phone, operationId, outcome, entry ?? undefined)))
            throw new Error(`operation ${operationId} was recorded already`);
          return outcome;
        });
      } catch (error) {
        failure = error;
      }
      // Rolled back. The ledger is read only now: a re-run of a turn whose operation happened
      // (refused or failing this time, its rows being gone or there) reports the first outcome.
      const recorded = await storage.repositories.ledger.get(phone, operationId);
      if (recorded !== undefined) return recorded as ExecutorOutcome;
      if (failure instanceof OperationRefused) return failure.outcome;
      throw failure;
    },
  };
}

/** The rows an operation can change: the tasks or lists (with their items) it names, and those it creates. */
function undoScopes(functionName: string, args: Args, operationId: string): RowScope[] {
  const [kind] = functionName.split(".");
  const created = [operationId];
  const named = (one: string, many: string) =>
    [str(args[one]), ...strings(args[many]), ...records(args.updates).map((u) => str(u[one]))].filter(
      (id): id is string => !!id,
    );
  if (kind === "lists") {
    const lists = named("listId", "listIds");
    return [
      { table: "lists", column: "id", values: lists },
      { table: "lists", column: "created_by_operation", values: created },
      { table: "list_items", column: "list_id", values: lists },
      // The items of a list it makes: undo then sees whether anyone changed them since.
      { table: "list_items", column: "created_by_operation", values: created },
    ];
  }
  return [
    { table: "tasks", column: "id", values: named("taskId", "taskIds") },
    { table: "tasks", column: "created_by_operation", values: created },
  ];
}

/** What each operation did, as undo names it (a tick or an untick is told from the item). */
const ACTIONS: Record<string, UndoAction> = {
  create: "create",
  createMultiple: "create",
  delete: "delete",
  deleteMultiple: "delete",
  deleteAll: "delete",
  deleteItem: "delete",
  complete: "complete",
  completeAll: "complete",
  clear: "clear",
  addItem: "add",
};

/** What an undo of this result names, and what it did; null for results that changed nothing. */
function undoDescription(data: DatabaseData | undefined): UndoDescription | null {
  const action = (op: string): UndoAction => ACTIONS[op] ?? "change";
  const itemsOf = (lists: TaskList[]) => lists.reduce((sum, list) => sum + list.items.length, 0);
  switch (data?.kind) {
    case "task":
      return { kind: "task", text: data.task.text, action: action(data.op) };
    case "tasks":
      return { ...describeChanged("task", data.tasks, (task) => task.text), action: action(data.op) };
    case "list": {
      const list = data.list.name;
      if (data.item) {
        // A toggled item is as the toggle left it: ticked or unticked.
        const toggled = data.op === "toggleItem" ? (data.item.checked ? "tick" : "untick") : null;
        return { kind: "item", text: data.item.text, action: toggled ?? action(data.op), list };
      }
      if (data.cleared)
        return { ...describeChanged("item", data.cleared, (item) => item.text), action: "clear", list };
      // Items added to a list made for them: undoing takes back the list.
      if (data.added && !data.created)
        return { ...describeChanged("item", data.added, (text) => text), action: "add", list };
      return {
        kind: "list",
        text: data.previousName ?? list,
        action: data.created ? "create" : action(data.op),
        ...(data.op === "create" || data.created || data.op === "delete"
          ? { items: data.list.items.length }
          : {}),
      };
    }
    case "lists":
      return {
        ...describeChanged("list", data.lists, (list) => list.name),
        action: action(data.op),
        ...(data.op === "updateMultiple" ? {} : { items: itemsOf(data.lists) }),
      };
    default:
      return null;
  }
}

function dispatch(
  functionName: string,
  args: Args,
  tasks: TaskRepository,
  lists: ListRepository,
  context: RunContext,
): Promise<ExecutorOutcome> {
  const [kind, operation = ""] = functionName.split(".");
  return kind === "lists"
    ? runList(operation, args, lists, context)
    : runTask(operation, args, tasks, context);
}

// ---- tasks ----

function taskAction(action: string, task: TaskView): ExecutorOutcome["latestAction"] {
  return {
    action,
    summary: `task "${task.text}"`,
    ...(task.dueAt ? { when: task.dueAt } : {}),
    externalIds: [task.id],
  };
}

/** A result about one task. */
function oneTask(
  op: string,
  task: TaskView,
  extra: Partial<Extract<DatabaseData, { kind: "task" }>> = {},
): ExecutorOutcome {
  return {
    success: true,
    data: { kind: "task", op, task, ...extra } satisfies DatabaseData,
    latestAction: taskAction(op, task),
  };
}

/** A result about several tasks; `shown` when the reply lists them numbered. */
function manyTasks(op: string, tasks: TaskView[], shown: boolean): ExecutorOutcome {
  return {
    success: true,
    data: { kind: "tasks", op, tasks } satisfies DatabaseData,
    latestAction: {
      action: op,
      summary:
        tasks.length === 1
          ? `task "${tasks[0]!.text}"`
          : `${tasks.length} tasks: ${tasks.map((task) => `"${task.text}"`).join(", ")}`,
      externalIds: tasks.map((task) => task.id),
    },
    ...(shown ? { numbered: { type: "task" as const, ids: tasks.map((task) => task.id) } } : {}),
  };
}

async function runTask(
  operation: string,
  args: Args,
  tasks: TaskRepository,
  context: RunContext,
): Promise<ExecutorOutcome> {
  const { phone, language, zone, operationId } = context;
  const whichTask = () => refuse("NOT_FOUND", t(language, "whichTask"));
  switch (operation) {
    case "create":
    case "createMultiple": {
      const drafts = operation === "create" ? [args] : records(args.tasks);
      const created: TaskView[] = [];
      for (const [i, draft] of drafts.entries()) {
        const text = str(draft.text) ?? refuse("MISSING_TEXT", t(language, "askTaskText"));
        checkLength(text, "task", language);
        checkLength(str(draft.category), "category", language);
        const task = await tasks.create(phone, `${operationId}#${i}`, {
          text,
          timeZone: zone,
          ...(str(draft.category) ? { category: str(draft.category)! } : {}),
          ...scheduleFields(schedule(draft, context, zone)),
        });
        created.push(taskView(task));
      }
      if (created.length === 0) refuse("MISSING_TEXT", t(language, "askTaskText"));
      return operation === "create"
        ? oneTask("create", created[0]!)
        : manyTasks("createMultiple", created, true);
    }
    case "get": {
      const task = (await tasks.get(phone, String(args.taskId))) ?? whichTask();
      return oneTask("get", taskView(task));
    }
    case "getAll":
      return listTasks(args, tasks, context);
    case "update":
    case "updateMultiple":
    case "updateAll": {
      const changes: { taskId: string; change: Args }[] =
        operation === "update"
          ? [{ taskId: String(args.taskId), change: args }]
          : operation === "updateMultiple"
            ? records(args.updates).map((u) => ({ taskId: String(u.taskId), change: u }))
            : strings(args.taskIds).map((taskId) => ({ taskId, change: args }));
      const updated: TaskView[] = [];
      for (const { taskId, change } of changes)
        updated.push(await updateTask(taskId, change, tasks, context));
      if (updated.length === 0) whichTask();
      return operation === "update" ? oneTask("update", updated[0]!) : manyTasks(operation, updated, true);
    }
    case "delete":
    case "deleteMultiple":
    case "deleteAll": {
      const targets = operation === "delete" ? [String(args.taskId)] : strings(args.taskIds);
      const deleted = (await tasks.delete(phone, targets)).map((task) => taskView(task));
      if (deleted.length === 0) whichTask();
      return operation === "delete" ? oneTask("delete", deleted[0]!) : manyTasks(operation, deleted, false);
    }
    case "complete":
    case "completeAll": {
      const targets = operation === "complete" ? [String(args.taskId)] : strings(args.taskIds);
      const done: { task: TaskView; removed: boolean; recurring: boolean }[] = [];
      for (const task of await tasks.getMany(phone, targets))
        done.push(await completeTask(task, tasks, context));
      if (done.length === 0) whichTask();
      if (operation === "complete") {
        const { task, removed, recurring } = done[0]!;
        return oneTask("complete", task, { removed, recurring });
      }
      return manyTasks(
        "completeAll",
        done.map((d) => d.task),
        false,
      );
    }
    case "addSubtask": {
      const subtask = str(args.subtask) ?? refuse("MISSING_TEXT", t(language, "askTaskText"));
      checkLength(subtask, "item", language);
      const task = (await tasks.get(phone, String(args.taskId))) ?? whichTask();
      const updated = await tasks.update(phone, task.id, {
        subtasks: [...task.subtasks, { text: subtask, completed: false }],
      });
      return oneTask("addSubtask", taskView(updated ?? task), { subtask });
    }
    default:
      return refuse("UNKNOWN_OPERATION", t(language, "internalError"));
  }
}

async function updateTask(
  taskId: string,
  change: Args,
  tasks: TaskRepository,
  context: RunContext,
): Promise<TaskView> {
  const { phone, language } = context;
  const task = (await tasks.get(phone, taskId)) ?? refuse("NOT_FOUND", t(language, "whichTask"));
  const patch: TaskPatch = {};
  const newText = str(change.newText);
  checkLength(newText, "task", language);
  checkLength(str(change.category), "category", language);
  if (newText) patch.text = newText;
  if (str(change.category)) patch.category = str(change.category)!;
  const dueWords = str(change.dueDate);
  const newRule = change.reminderRecurrence as TaskTimeArgs["reminderRecurrence"];
  if (dueWords || str(change.reminder) || newRule) {
    const rule = task.recurrence && task.recurrence.type !== "nudge" ? task.recurrence : null;
    const clock = dueWords ? bareClock(dueWords) : null;
    let timeArgs: TaskTimeArgs;
    if (newRule) {
      timeArgs = {
        dueDate: dueWords ?? null,
        reminder: str(change.reminder) ?? task.reminder,
        reminderRecurrence: newRule,
      };
    } else if (rule && clock && !clock.open) {
      // "Move it to 18:00" on a daily reminder moves the repeat, it does not end it.
      timeArgs = {
        reminder: str(change.reminder) ?? task.reminder,
        reminderRecurrence: {
          ...recurrenceArgsOf(rule),
          time: `${clock.hour}:${String(clock.minute).padStart(2, "0")}`,
        },
      };
    } else if (rule && clock) {
      const hour = clock.hour === 12 ? 12 : nearestHalf(clock.hour, rule.time ?? "09:00");
      timeArgs = {
        reminder: str(change.reminder) ?? task.reminder,
        reminderRecurrence: {
          ...recurrenceArgsOf(rule),
          time: `${hour}:${String(clock.minute).padStart(2, "0")}`,
        },
      };
    } else {
      timeArgs = {
        dueDate: dueWords ?? task.dueAt,
        reminder: str(change.reminder) ?? task.reminder,
        // A repeating reminder given a new date keeps repeating, from that date.
        reminderRecurrence: task.recurrence ? recurrenceArgsOf(task.recurrence) : null,
      };
    }
    Object.assign(patch, scheduleFields(schedule(timeArgs, context, task.timeZone, task.dueAt)));
  }
  if (Object.keys(patch).length === 0) refuse("NOTHING_TO_CHANGE", t(language, "askChange"));
  const updated =
    (await tasks.update(phone, task.id, patch)) ?? refuse("NOT_FOUND", t(language, "whichTask"));
  return taskView(updated);
}

/** An open hour (1–11) in the half of the day nearer a rule's "HH:mm". */
function nearestHalf(hour: number, time: string): number {
  const current = Number(time.slice(0, 2));
  return Math.abs(hour - current) <= Math.abs(hour + 12 - current) ? hour : hour + 12;
}

/** Done, as the database service does it, seen as the executor shows tasks. */
async function completeTask(task: Task, tasks: TaskRepository, context: RunContext) {
  const done = await completeTaskRow(tasks, context.phone, task, context.now);
  return { ...done, task: taskView(done.task) };
}

const GROUP_ORDER: TaskGroup[] = ["overdue", "today", "upcoming", "recurring", "undated", "done"];

/** getAll: the user's tasks in display order (overdue, today, coming up, recurring, no date), numbered. */
async function listTasks(args: Args, tasks: TaskRepository, context: RunContext): Promise<ExecutorOutcome> {
  const { phone, now, zone } = context;
  const { tasks: found, narrowed } = await findTasks(tasks, phone, args.filters, now, zone);
  const views = found
    .map((task) => taskView(task, groupOf(task, now, zone)))
    .sort(
      (a, b) =>
        GROUP_ORDER.indexOf(a.group!) - GROUP_ORDER.indexOf(b.group!) ||
        (a.dueAt ?? a.nextFireAt ?? "").localeCompare(b.dueAt ?? b.nextFireAt ?? ""),
    );
  return {
    success: true,
    data: {
      kind: "taskList",
      tasks: views,
      filtered: narrowed,
    } satisfies DatabaseData,
    numbered: { type: "task", ids: views.map((v) => v.id) },
    // For a step of this message that depends on the listing ("find my report tasks and complete them").
    produced: {
      ids: views.map((v) => v.id),
      summary: `${views.length} tasks: ${views.map((v) => `"${v.text}"`).join(", ")}`,
    },
  };
}

// ---- lists ----

function listAction(action: string, list: TaskList): ExecutorOutcome["latestAction"] {
  return { action, summary: `list "${list.name}"`, externalIds: [list.id] };
}

/** A result about one list; `shown` when the reply shows its items numbered. */
function oneList(
  op: string,
  list: TaskList,
  shown: boolean,
  extra: Partial<Extract<DatabaseData, { kind: "list" }>> = {},
): ExecutorOutcome {
  return {
    success: true,
    data: { kind: "list", op, list, ...extra } satisfies DatabaseData,
    latestAction: listAction(op, list),
    ...(shown && list.items.length > 0
      ? { numbered: { type: "list_item" as const, ids: list.items.map((i) => i.id), listId: list.id } }
      : {}),
  };
}

/** Renaming or deleting a list another member shared is refused: it is theirs (docs/HOUSEHOLD.md). */
function notOwner(list: TaskList, language: RunContext["language"]): void {
  if (list.owner) refuse("NOT_OWNER", t(language, "list.notOwner", { name: list.name, owner: list.owner }));
}

async function runList(
  operation: string,
  args: Args,
  lists: ListRepository,
  context: RunContext,
): Promise<ExecutorOutcome> {
  const { phone, language, operationId } = context;
  const whichList = () => refuse("NOT_FOUND", t(language, "whichList"));
  switch (operation) {
    case "create":
    case "createMultiple": {
      const drafts = operation === "create" ? [args] : records(args.lists);
      const created: TaskList[] = [];
      // A second list of the same name could never be told apart in "which list?".
      const taken = new Map(
        (await lists.list(phone)).map((l) => [literalOf(l.name), { name: l.name, owner: l.owner }]),
      );
      for (const [i, draft] of drafts.entries()) {
        const name = str(draft.listName) ?? refuse("MISSING_NAME", t(language, "askListName"));
        checkLength(name, "list", language);
        const same = taken.get(literalOf(name));
        // A member's shared list of that name is theirs: said so, not "you already have".
        if (same?.owner)
          refuse("LIST_EXISTS", t(language, "listExistsShared", { name: same.name, owner: same.owner }));
        if (same !== undefined) refuse("LIST_EXISTS", t(language, "listExists", { name: same.name }));
        taken.set(literalOf(name), { name, owner: undefined });
        const items = strings(draft.items);
        for (const item of items) checkLength(item, "item", language);
        created.push(
          await lists.create(phone, `${operationId}#${i}`, {
            name,
            isChecklist: draft.isChecklist !== false,
            items,
            forHousehold: draft.forHousehold === true,
          }),
        );
      }
      if (operation === "create" && created[0]) return oneList("create", created[0], true);
      return {
        success: true,
        data: { kind: "lists", op: "createMultiple", lists: created } satisfies DatabaseData,
        latestAction: {
          action: "createMultiple",
          summary: created.map((l) => `list "${l.name}"`).join(", "),
          externalIds: created.map((l) => l.id),
        },
      };
    }
    case "get":
      return oneList("get", (await lists.get(phone, String(args.listId))) ?? whichList(), true);
    case "getAll": {
      const all = await lists.list(phone);
      return {
        success: true,
        data: { kind: "lists", op: "getAll", lists: all } satisfies DatabaseData,
        numbered: { type: "list", ids: all.map((l) => l.id) },
      };
    }
    case "update":
    case "updateMultiple": {
      const changes = operation === "update" ? [args] : records(args.updates);
      const updated: { list: TaskList; previousName: string }[] = [];
      for (const change of changes) {
        const before = (await lists.get(phone, String(change.listId))) ?? whichList();
        notOwner(before, language);
        const newName = str(change.newName);
        checkLength(newName, "list", language);
        const after = await lists.update(phone, before.id, {
          ...(newName ? { name: newName } : {}),
          ...(typeof change.isChecklist === "boolean" ? { isChecklist: change.isChecklist } : {}),
        });
        updated.push({ list: after ?? before, previousName: before.name });
      }
      if (operation === "update" && updated[0])
        return oneList("update", updated[0].list, false, { previousName: updated[0].previousName });
      return {
        success: true,
        data: {
          kind: "lists",
          op: "updateMultiple",
          lists: updated.map((u) => u.list),
        } satisfies DatabaseData,
      };
    }
    case "delete":
    case "deleteMultiple": {
      const targets = operation === "delete" ? [String(args.listId)] : strings(args.listIds);
      for (const shared of (await lists.list(phone)).filter((l) => targets.includes(l.id)))
        notOwner(shared, language);
      const deleted = await lists.delete(phone, targets);
      if (deleted.length === 0) whichList();
      if (operation === "delete") return oneList("delete", deleted[0]!, false);
      return {
        success: true,
        data: { kind: "lists", op: "deleteMultiple", lists: deleted } satisfies DatabaseData,
      };
    }
    case "addItem": {
      const texts = [...strings(args.items), ...(str(args.item) ? [str(args.item)!] : [])];
      if (texts.length === 0) refuse("MISSING_ITEMS", t(language, "askItems"));
      for (const text of texts) checkLength(text, "item", language);
      if (args.createList === true && !str(args.listId)) {
        // The resolver found no list by that name: it is made now, with the items.
        const name = str(args.listName) ?? refuse("MISSING_NAME", t(language, "askListName"));
        checkLength(name, "list", language);
        const created = await lists.create(phone, `${operationId}#0`, { name, items: texts });
        return oneList("addItem", created, true, { added: texts, created: true });
      }
      if (!(await lists.addItems(phone, String(args.listId), texts, context.now))) whichList();
      const list = (await lists.get(phone, String(args.listId))) ?? whichList();
      return oneList("addItem", list, true, { added: texts });
    }
    case "toggleItem":
    case "deleteItem": {
      const itemId = String(args.item);
      const list = (await lists.get(phone, String(args.listId))) ?? whichList();
      const before = list.items.find((i) => i.id === itemId) ?? refuse("NOT_FOUND", t(language, "whichItem"));
      const item =
        operation === "toggleItem"
          ? await lists.toggleItem(
              phone,
              itemId,
              typeof args.checked === "boolean" ? args.checked : undefined,
            )
          : (await lists.deleteItems(phone, [itemId]))[0];
      const after = (await lists.get(phone, list.id)) ?? list;
      // The reply names the item only: the numbers last shown stay the ones to use.
      return oneList(operation, after, false, { item: item ?? before });
    }
    case "clear": {
      // Empties the list (or takes its checked items off) and keeps it; undo puts the items back.
      const list = (await lists.get(phone, String(args.listId))) ?? whichList();
      const onlyChecked = args.onlyChecked === true;
      const cleared = await lists.clearItems(phone, list.id, onlyChecked);
      const after = (await lists.get(phone, list.id)) ?? list;
      return oneList("clear", after, false, { cleared, onlyChecked });
    }
    default:
      return refuse("UNKNOWN_OPERATION", t(language, "internalError"));
  }
}
