import type pg from "pg";
import { PgListRepository, type ListRepository } from "../../db/repositories/ListRepository.js";
import { PgOperationLedger } from "../../db/repositories/OperationLedger.js";
import { PgTaskRepository, type TaskRepository } from "../../db/repositories/TaskRepository.js";
import { withTransaction } from "../../db/transaction.js";
import type { ListItem, Task, TaskList, TaskPatch } from "../../types/tasks.js";
import { localDayNumber } from "../../utils/timeContext.js";
import { t } from "../../utils/userMessages.js";
import { decideMatch } from "../../services/resolution/fuzzyMatch.js";
import {
  nextFireAfter,
  recurrenceArgsOf,
  scheduleTask,
  type TaskSchedule,
  type TaskTimeArgs,
} from "../../services/database/taskTimes.js";
import type { CapabilityContext, Executor, ExecutorOutcome } from "../registry.js";

type Args = Record<string, unknown>;

/** How a task is shown: display group in a listing, as the executor saw "now". */
export type TaskGroup = "overdue" | "today" | "upcoming" | "recurring" | "undated" | "done";

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
  group?: TaskGroup;
}

/** What a database operation returns as data (the templates' input). */
export type DatabaseData =
  | { kind: "task"; op: string; task: TaskView; removed?: boolean; recurring?: boolean; subtask?: string }
  | { kind: "tasks"; op: string; tasks: TaskView[] }
  | { kind: "taskList"; tasks: TaskView[]; filtered: boolean }
  | { kind: "list"; op: string; list: TaskList; added?: string[]; item?: ListItem; previousName?: string }
  | { kind: "lists"; op: string; lists: TaskList[] };

interface Stores {
  tasks: TaskRepository;
  lists: ListRepository;
}

type RunContext = CapabilityContext & { operationId: string; zone: string };

/** Operations that change nothing: not recorded in the ledger, not re-read on a re-run. */
const READS = new Set(["tasks.get", "tasks.getAll", "lists.get", "lists.getAll"]);

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const strings = (v: unknown) => (Array.isArray(v) ? v.map(str).filter((s): s is string => !!s) : []);
const ids = (v: unknown) => strings(v);

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
    ...(group ? { group } : {}),
  };
}

/** A user error found while executing: a failed outcome with a message in their language. */
function failure(errorCode: string, error: string): ExecutorOutcome {
  return { success: false, errorCode, error };
}

/** The schedule fields of a task, from a computed schedule. */
function scheduleFields(
  schedule: TaskSchedule,
): Pick<
  TaskPatch,
  "dueAt" | "reminder" | "reminderOffsetMinutes" | "recurrence" | "nextFireAt" | "reminderDetails"
> {
  return {
    dueAt: schedule.dueAt,
    reminder: schedule.reminder,
    reminderOffsetMinutes: schedule.reminderOffsetMinutes,
    recurrence: schedule.recurrence,
    nextFireAt: schedule.nextFireAt,
    reminderDetails: schedule.dateOnly ? { dateOnly: true } : null,
  };
}

/**
 * database: tasks, reminders and lists over their repositories (spec 002 §12.3; no LLM here).
 * Every change runs in one transaction with its ledger entry, and creates carry the operation id
 * as a unique key, so a turn re-run after a crash reports the first outcome and creates nothing new.
 */
export function createDatabaseExecutor(pool: pg.Pool): Executor {
  return {
    name: "DatabaseExecutor",
    capability: "database",
    async execute(functionName, args, context) {
      const { phone, operationId } = context;
      const reads = READS.has(functionName);
      if (!reads) {
        const recorded = await new PgOperationLedger(pool).get(phone, operationId);
        if (recorded !== undefined) return recorded as ExecutorOutcome;
      }
      const run: RunContext = { ...context, zone: context.state.user.timezone };
      if (reads)
        return dispatch(
          functionName,
          args,
          { tasks: new PgTaskRepository(pool), lists: new PgListRepository(pool) },
          run,
        );
      return withTransaction(pool, async (client) => {
        const outcome = await dispatch(
          functionName,
          args,
          { tasks: new PgTaskRepository(client), lists: new PgListRepository(client) },
          run,
        );
        if (outcome.success) await new PgOperationLedger(client).record(phone, operationId, outcome);
        return outcome;
      });
    },
  };
}

function dispatch(
  functionName: string,
  args: Args,
  stores: Stores,
  context: RunContext,
): Promise<ExecutorOutcome> {
  const [kind, operation = ""] = functionName.split(".");
  return kind === "lists"
    ? runList(operation, args, stores.lists, context)
    : runTask(operation, args, stores.tasks, context);
}

// ---- tasks ----

function taskAction(
  action: string,
  task: Task | TaskView,
  extra: string[] = [],
): ExecutorOutcome["latestAction"] {
  return {
    action,
    summary: `task "${task.text}"`,
    ...(task.dueAt ? { when: task.dueAt } : {}),
    externalIds: [task.id, ...extra],
  };
}

function manyAction(action: string, tasks: TaskView[]): ExecutorOutcome["latestAction"] {
  return {
    action,
    summary:
      tasks.length === 1
        ? `task "${tasks[0]!.text}"`
        : `${tasks.length} tasks: ${tasks.map((t) => `"${t.text}"`).join(", ")}`,
    externalIds: tasks.map((t) => t.id),
  };
}

async function runTask(
  operation: string,
  args: Args,
  tasks: TaskRepository,
  context: RunContext,
): Promise<ExecutorOutcome> {
  const { phone, language, zone, now, operationId } = context;
  switch (operation) {
    case "create":
    case "createMultiple": {
      const drafts =
        operation === "create" ? [args] : Array.isArray(args.tasks) ? (args.tasks as Args[]) : [];
      const created: TaskView[] = [];
      for (const [i, draft] of drafts.entries()) {
        const text = str(draft.text);
        if (!text) return failure("MISSING_TEXT", t(language, "askTaskText"));
        const schedule = scheduleTask(draft, { nowMs: now, timeZone: zone });
        if (!schedule.ok) return failure("UNCLEAR_TIME", t(language, "askWhen", { phrase: schedule.phrase }));
        const task = await tasks.create(phone, `${operationId}#${i}`, {
          text,
          timeZone: zone,
          ...(str(draft.category) ? { category: str(draft.category)! } : {}),
          ...scheduleFields(schedule.schedule),
        });
        created.push(taskView(task));
      }
      if (created.length === 0) return failure("MISSING_TEXT", t(language, "askTaskText"));
      if (operation === "create") {
        return {
          success: true,
          data: { kind: "task", op: "create", task: created[0]! } satisfies DatabaseData,
          latestAction: taskAction("create", created[0]!),
        };
      }
      return {
        success: true,
        data: { kind: "tasks", op: "createMultiple", tasks: created } satisfies DatabaseData,
        latestAction: manyAction("createMultiple", created),
        numbered: { type: "task", ids: created.map((c) => c.id) },
      };
    }
    case "get": {
      const task = await tasks.get(phone, String(args.taskId));
      if (!task) return failure("NOT_FOUND", t(language, "whichTask"));
      return {
        success: true,
        data: { kind: "task", op: "get", task: taskView(task) } satisfies DatabaseData,
      };
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
            ? (Array.isArray(args.updates) ? (args.updates as Args[]) : []).map((u) => ({
                taskId: String(u.taskId),
                change: u,
              }))
            : ids(args.taskIds).map((taskId) => ({ taskId, change: args }));
      const updated: TaskView[] = [];
      for (const { taskId, change } of changes) {
        const result = await updateTask(taskId, change, tasks, context);
        if ("error" in result) return result.error;
        updated.push(result.task);
      }
      if (operation === "update" && updated[0]) {
        return {
          success: true,
          data: { kind: "task", op: "update", task: updated[0] } satisfies DatabaseData,
          latestAction: taskAction("update", updated[0]),
        };
      }
      return {
        success: true,
        data: { kind: "tasks", op: operation, tasks: updated } satisfies DatabaseData,
        latestAction: manyAction(operation, updated),
      };
    }
    case "delete":
    case "deleteMultiple":
    case "deleteAll": {
      const targets = operation === "delete" ? [String(args.taskId)] : ids(args.taskIds);
      const deleted = (await tasks.delete(phone, targets)).map((task) => taskView(task));
      if (deleted.length === 0) return failure("NOT_FOUND", t(language, "whichTask"));
      if (operation === "delete") {
        return {
          success: true,
          data: { kind: "task", op: "delete", task: deleted[0]! } satisfies DatabaseData,
          latestAction: taskAction("delete", deleted[0]!),
        };
      }
      return {
        success: true,
        data: { kind: "tasks", op: operation, tasks: deleted } satisfies DatabaseData,
        latestAction: manyAction(operation, deleted),
      };
    }
    case "complete":
    case "completeAll": {
      const targets = operation === "complete" ? [String(args.taskId)] : ids(args.taskIds);
      const done: { task: TaskView; removed: boolean; recurring: boolean }[] = [];
      for (const task of await tasks.getMany(phone, targets))
        done.push(await completeTask(task, tasks, context));
      if (done.length === 0) return failure("NOT_FOUND", t(language, "whichTask"));
      if (operation === "complete") {
        const { task, removed, recurring } = done[0]!;
        return {
          success: true,
          data: { kind: "task", op: "complete", task, removed, recurring } satisfies DatabaseData,
          latestAction: taskAction("complete", task),
        };
      }
      const views = done.map((d) => d.task);
      return {
        success: true,
        data: { kind: "tasks", op: "completeAll", tasks: views } satisfies DatabaseData,
        latestAction: manyAction("completeAll", views),
      };
    }
    case "addSubtask": {
      const subtask = str(args.subtask) ?? str(args.newText);
      if (!subtask) return failure("MISSING_TEXT", t(language, "askTaskText"));
      const task = await tasks.get(phone, String(args.taskId));
      if (!task) return failure("NOT_FOUND", t(language, "whichTask"));
      const updated = await tasks.update(phone, task.id, {
        subtasks: [...task.subtasks, { text: subtask, completed: false }],
      });
      const view = taskView(updated ?? task);
      return {
        success: true,
        data: { kind: "task", op: "addSubtask", task: view, subtask } satisfies DatabaseData,
        latestAction: taskAction("addSubtask", view),
      };
    }
    default:
      return failure("UNKNOWN_OPERATION", t(language, "internalError"));
  }
}

async function updateTask(
  taskId: string,
  change: Args,
  tasks: TaskRepository,
  context: RunContext,
): Promise<{ task: TaskView } | { error: ExecutorOutcome }> {
  const { phone, language, now } = context;
  const task = await tasks.get(phone, taskId);
  if (!task) return { error: failure("NOT_FOUND", t(language, "whichTask")) };
  const patch: TaskPatch = {};
  const newText = str(change.newText);
  if (newText) patch.text = newText;
  if (str(change.category)) patch.category = str(change.category)!;
  const timeChanged = !!(str(change.dueDate) || str(change.reminder) || change.reminderRecurrence);
  if (timeChanged) {
    const rule = change.reminderRecurrence as TaskTimeArgs["reminderRecurrence"];
    const schedule = scheduleTask(
      {
        dueDate: str(change.dueDate) ?? task.dueAt,
        reminder: str(change.reminder) ?? task.reminder,
        // A new due time replaces a rule; a new rule replaces the old one; otherwise the rule stays.
        reminderRecurrence:
          rule ?? (str(change.dueDate) || !task.recurrence ? null : recurrenceArgsOf(task.recurrence)),
      },
      { nowMs: now, timeZone: task.timeZone, anchorDueAt: task.dueAt },
    );
    if (!schedule.ok)
      return { error: failure("UNCLEAR_TIME", t(language, "askWhen", { phrase: schedule.phrase })) };
    Object.assign(patch, scheduleFields(schedule.schedule));
  }
  if (Object.keys(patch).length === 0)
    return { error: failure("NOTHING_TO_CHANGE", t(language, "askChange")) };
  const updated = await tasks.update(phone, task.id, patch);
  return updated ? { task: taskView(updated) } : { error: failure("NOT_FOUND", t(language, "whichTask")) };
}

/**
 * Done: a reminder (one-time or nudge) is deleted, as V1 did; a daily, weekly or monthly
 * reminder stays and moves to its next time; a plain task is marked completed.
 */
async function completeTask(task: Task, tasks: TaskRepository, context: RunContext) {
  const { phone, now } = context;
  const rule = task.recurrence;
  if (rule && rule.type !== "nudge") {
    const updated = await tasks.update(phone, task.id, {
      nextFireAt: nextFireAfter(rule, task.timeZone, now),
    });
    return { task: taskView(updated ?? task), removed: false, recurring: true };
  }
  if (rule || task.dueAt || task.nextFireAt) {
    await tasks.delete(phone, [task.id]);
    return { task: taskView(task), removed: true, recurring: false };
  }
  const updated = await tasks.update(phone, task.id, {
    completed: true,
    completedAt: new Date(now).toISOString(),
  });
  return { task: taskView(updated ?? task), removed: false, recurring: false };
}

const GROUP_ORDER: TaskGroup[] = ["overdue", "today", "upcoming", "recurring", "undated", "done"];

/** The group a task is shown in, seen from `now` in the user's zone. */
export function groupOf(task: Task, now: number, zone: string): TaskGroup {
  if (task.completed) return "done";
  if (task.recurrence && task.recurrence.type !== "nudge") return "recurring";
  if (!task.dueAt) return task.recurrence ? "today" : "undated";
  const due = Date.parse(task.dueAt);
  if (due < now) return "overdue";
  return localDayNumber(due, zone) === localDayNumber(now, zone) ? "today" : "upcoming";
}

/** getAll: the user's tasks in display order (overdue, today, upcoming, recurring, undated), numbered. */
async function listTasks(args: Args, tasks: TaskRepository, context: RunContext): Promise<ExecutorOutcome> {
  const { phone, now, zone } = context;
  const filters = (args.filters ?? {}) as Args;
  const completed = typeof filters.completed === "boolean" ? filters.completed : false;
  let found = await tasks.list(phone, {
    completed,
    ...(str(filters.category) ? { category: str(filters.category)! } : {}),
  });
  const query = str(filters.query);
  if (query) {
    const decision = decideMatch(query, found, (task) => task.text);
    found =
      decision.kind === "one"
        ? [decision.match.item]
        : decision.kind === "several"
          ? decision.matches.map((m) => m.item)
          : [];
  }
  const due = str(filters.due);
  if (due) {
    found = found.filter((task) => {
      const group = groupOf(task, now, zone);
      if (due === "none") return group === "undated";
      if (!task.dueAt) return false;
      const diff = localDayNumber(Date.parse(task.dueAt), zone) - localDayNumber(now, zone);
      if (due === "overdue") return group === "overdue";
      if (due === "today") return diff === 0;
      if (due === "tomorrow") return diff === 1;
      if (due === "week") return diff >= 0 && diff < 7;
      return Date.parse(task.dueAt) >= now;
    });
  }
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
      filtered: !!(query || due || str(filters.category) || completed),
    } satisfies DatabaseData,
    numbered: { type: "task", ids: views.map((v) => v.id) },
  };
}

// ---- lists ----

function listAction(action: string, list: TaskList): ExecutorOutcome["latestAction"] {
  return { action, summary: `list "${list.name}"`, externalIds: [list.id] };
}

function listResult(
  op: string,
  list: TaskList,
  extra: Partial<Extract<DatabaseData, { kind: "list" }>> = {},
): ExecutorOutcome {
  return {
    success: true,
    data: { kind: "list", op, list, ...extra } satisfies DatabaseData,
    latestAction: listAction(op, list),
    numbered: { type: "list_item", ids: list.items.map((i) => i.id), listId: list.id },
  };
}

async function runList(
  operation: string,
  args: Args,
  lists: ListRepository,
  context: RunContext,
): Promise<ExecutorOutcome> {
  const { phone, language, operationId } = context;
  const notFound = failure("NOT_FOUND", t(language, "whichList"));
  switch (operation) {
    case "create":
    case "createMultiple": {
      const drafts =
        operation === "create" ? [args] : Array.isArray(args.lists) ? (args.lists as Args[]) : [];
      const created: TaskList[] = [];
      for (const [i, draft] of drafts.entries()) {
        const name = str(draft.listName);
        if (!name) return failure("MISSING_NAME", t(language, "askListName"));
        created.push(
          await lists.create(phone, `${operationId}#${i}`, {
            name,
            isChecklist: draft.isChecklist !== false,
            items: strings(draft.items),
          }),
        );
      }
      if (operation === "create" && created[0]) return listResult("create", created[0]);
      return {
        success: true,
        data: { kind: "lists", op: "createMultiple", lists: created } satisfies DatabaseData,
        latestAction: {
          action: "createMultiple",
          summary: created.map((l) => `list "${l.name}"`).join(", "),
          externalIds: created.map((l) => l.id),
        },
        numbered: { type: "list", ids: created.map((l) => l.id) },
      };
    }
    case "get": {
      const list = await lists.get(phone, String(args.listId));
      return list ? { ...listResult("get", list), latestAction: listAction("get", list) } : notFound;
    }
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
      const changes =
        operation === "update" ? [args] : Array.isArray(args.updates) ? (args.updates as Args[]) : [];
      const updated: { list: TaskList; previousName: string }[] = [];
      for (const change of changes) {
        const before = await lists.get(phone, String(change.listId));
        if (!before) return notFound;
        const after = await lists.update(phone, before.id, {
          ...(str(change.newName) ? { name: str(change.newName)! } : {}),
          ...(typeof change.isChecklist === "boolean" ? { isChecklist: change.isChecklist } : {}),
        });
        updated.push({ list: after ?? before, previousName: before.name });
      }
      if (operation === "update" && updated[0])
        return listResult("update", updated[0].list, { previousName: updated[0].previousName });
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
      const targets = operation === "delete" ? [String(args.listId)] : ids(args.listIds);
      const deleted = await lists.delete(phone, targets);
      if (deleted.length === 0) return notFound;
      if (operation === "delete")
        return {
          success: true,
          data: { kind: "list", op: "delete", list: deleted[0]! } satisfies DatabaseData,
          latestAction: listAction("delete", deleted[0]!),
        };
      return {
        success: true,
        data: { kind: "lists", op: "deleteMultiple", lists: deleted } satisfies DatabaseData,
      };
    }
    case "addItem": {
      const texts = [...strings(args.items), ...(str(args.item) ? [str(args.item)!] : [])];
      if (texts.length === 0) return failure("MISSING_ITEMS", t(language, "askItems"));
      const added = await lists.addItems(phone, String(args.listId), texts);
      const list = added && (await lists.get(phone, String(args.listId)));
      return list ? listResult("addItem", list, { added: texts }) : notFound;
    }
    case "toggleItem":
    case "deleteItem": {
      const itemId = String(args.item);
      const list = await lists.get(phone, String(args.listId));
      const before = list?.items.find((i) => i.id === itemId);
      if (!list || !before) return failure("NOT_FOUND", t(language, "whichItem"));
      const item =
        operation === "toggleItem"
          ? await lists.toggleItem(
              phone,
              itemId,
              typeof args.checked === "boolean" ? args.checked : undefined,
            )
          : (await lists.deleteItems(phone, [itemId]))[0];
      const after = await lists.get(phone, list.id);
      return listResult(operation, after ?? list, { item: item ?? before });
    }
    default:
      return failure("UNKNOWN_OPERATION", t(language, "internalError"));
  }
}
