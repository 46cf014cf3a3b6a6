import { calendarOptionsOfMessage } from "../../../nlu/hebrewDateWords.js";
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
import { findTasks, groupOf } from "../../../services/tasks/taskFilters.js";
import { completeTaskRow } from "../../../services/tasks/completeTask.js";
import { invisibleNameReply } from "../../../services/tasks/visibleNames.js";
import { isHeld } from "../../../services/reminder/sabbathQuiet.js";
import { tooLongReply, type MAX_LENGTH } from "../../../services/tasks/limits.js";
import {
  bareClock,
  recurrenceArgsOf,
  scheduleFields,
  scheduleTask,
  type TaskTimeArgs,
} from "../../../services/tasks/taskTimes.js";
import type { ListItem, Task, TaskList, TaskPatch } from "../../../types/tasks.js";
import { t } from "../../../messages/index.js";
import type { CapabilityContext, Executor, ExecutorOutcome } from "../../../types/capability.js";
import { MemoError } from "../../../utils/errors.js";
import type { OutcomeOf } from "../../../contracts/contract.js";
import {
  tasksContract,
  type ListResult,
  type ListsResult,
  type SaidIn,
  type TaskGroup,
  type TaskResult,
  type TasksArgs,
  type TasksData,
  type TasksFunction,
  type TasksOperation,
  type TasksResult,
  type TasksResults,
  type TaskView,
} from "../../../contracts/tasks.js";
import { typedExecutor } from "../typedExecutor.js";

type RunContext = CapabilityContext & { operationId: string; zone: string };

/** The repositories an operation runs on (in its transaction, for a change), and its context. */
interface Run {
  tasks: TaskRepository;
  lists: ListRepository;
  context: RunContext;
}

const str = nonEmpty;
/** The visible names of a list of words ("  milk " → "milk"; blank ones dropped). */
const names = (words: readonly string[] | null | undefined) =>
  (words ?? []).map(str).filter((s): s is string => !!s);

function taskView(task: Task, group?: TaskGroup): TaskView {
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
    ...(hebrewDateOf(task) ? { hebrewDate: hebrewDateOf(task)! } : {}),
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

/** The Hebrew date a task's day was named by, from its stored reminder details. */
function hebrewDateOf(task: Task): TaskView["hebrewDate"] | null {
  const stored = task.reminderDetails?.hebrewDate as Record<string, unknown> | undefined;
  const number = (v: unknown): v is number => typeof v === "number";
  if (!stored || !number(stored.year) || !number(stored.month) || !number(stored.day)) return null;
  const said = stored.said as Record<string, unknown> | undefined;
  return {
    year: stored.year,
    month: stored.month,
    day: stored.day,
    ...(said && number(said.month) && number(said.day) ? { said: { month: said.month, day: said.day } } : {}),
  };
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
  const user = context.state.authContext?.user;
  const result = scheduleTask(args, {
    nowMs: context.now,
    timeZone,
    ...(anchorDueAt ? { anchorDueAt } : {}),
    calendar: calendarOptionsOfMessage(user, context.state.input.message),
  });
  if (!result.ok) {
    refuse(
      "UNCLEAR_TIME",
      t(context.language, result.problem === "past_time" ? "askPast" : "askWhen", { phrase: result.phrase }),
    );
  }
  return result.schedule;
}

/** Operations that change nothing: not recorded in the ledger, not re-read on a re-run. */
const READS = new Set<string>(
  Object.entries(tasksContract.operations)
    .filter(([, spec]) => "reads" in spec && spec.reads)
    .map(([functionName]) => functionName),
);

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
  return typedExecutor(tasksContract, {
    name: "DatabaseExecutor",
    async execute(op, context) {
      const { phone, operationId } = context;
      const run: RunContext = { ...context, zone: context.state.user.timezone };
      // A name of invisible characters only is refused before anything is read or written.
      const invisible = invisibleNameReply(op.args, context.language);
      if (invisible) return { success: false, errorCode: "INVISIBLE_NAME", error: invisible };
      if (READS.has(op.functionName)) {
        const { tasks, lists } = storage.repositories;
        try {
          return await dispatch(op, { tasks, lists, context: run });
        } catch (error) {
          if (error instanceof OperationRefused) return error.outcome;
          throw error;
        }
      }
      let failure: unknown;
      try {
        return await storage.transaction(async ({ tasks, lists, ledger, journal }) => {
          // The rows this operation can touch, copied before and after: the difference is what undo puts back.
          const undo = new UndoCapture(journal, phone, undoScopes(op, operationId));
          await undo.before();
          const outcome = await dispatch(op, { tasks, lists, context: run });
          const description = outcome.success ? undoDescription(outcome.data) : null;
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
  });
}

/** The ids an operation names, whatever its kind: what its undo scope copies. */
interface Named {
  [field: string]: unknown;
  taskId?: string | null;
  taskIds?: readonly string[] | null;
  listId?: string | null;
  listIds?: readonly string[] | null;
  updates?: readonly { taskId?: string | null; listId?: string | null }[] | null;
}

/** The rows an operation can change: the tasks or lists (with their items) it names, and those it creates. */
function undoScopes(op: TasksOperation, operationId: string): RowScope[] {
  const args: Named = op.args;
  const created = [operationId];
  const named = (one: "taskId" | "listId", many: "taskIds" | "listIds") =>
    [args[one], ...(args[many] ?? []), ...(args.updates ?? []).map((u) => u[one])].filter(
      (id): id is string => !!id,
    );
  if (op.functionName.startsWith("lists.")) {
    const lists = named("listId", "listIds");
    return [
      { table: "lists", column: "id", values: lists },
      { table: "lists", column: "created_by_operation", values: created },
      { table: "list_items", column: "list_id", values: lists },
      // The items of a list it makes: undo then sees whether anyone changed them since.
      { table: "list_items", column: "created_by_operation", values: created },
    ];
  }
  const tasks = named("taskId", "taskIds");
  return [
    { table: "tasks", column: "id", values: tasks },
    { table: "tasks", column: "created_by_operation", values: created },
    // A completion's record: undo of "done" removes it with the task it puts back.
    { table: "task_completions", column: "task_id", values: tasks },
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
function undoDescription(data: TasksData | undefined): UndoDescription | null {
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

/** What runs each operation of the contract: a new operation fails `tsc` here until it has one. */
type Handlers = {
  [F in TasksFunction]: (args: TasksArgs<F>, run: Run) => Promise<OutcomeOf<TasksResults[F]>>;
};

/** Runs one operation with its handler (the union and the handler map agree on the function). */
function dispatch<F extends TasksFunction>(
  op: { functionName: F; args: TasksArgs<F> },
  run: Run,
): Promise<OutcomeOf<TasksResults[F]>> {
  const handler: Handlers[F] = HANDLERS[op.functionName];
  return handler(op.args, run);
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
function oneTask<Op extends string>(
  op: Op,
  task: TaskView,
  extra: Partial<Pick<TaskResult, "removed" | "recurring" | "subtask">> = {},
): OutcomeOf<TaskResult<Op>> {
  return {
    success: true,
    data: { kind: "task", op, task, ...extra },
    latestAction: taskAction(op, task),
  };
}

/** A result about several tasks; `shown` when the reply lists them numbered. */
function manyTasks<Op extends string>(op: Op, tasks: TaskView[], shown: boolean): OutcomeOf<TasksResult<Op>> {
  return {
    success: true,
    data: { kind: "tasks", op, tasks },
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

const whichTask = (language: RunContext["language"]) => refuse("NOT_FOUND", t(language, "whichTask"));

/** The ids a task operation names, refused as "which task?" when it names none. */
function taskIdsOf(ids: readonly (string | null | undefined)[], language: RunContext["language"]): string[] {
  const present = ids.filter((id): id is string => !!id);
  return present.length > 0 ? present : whichTask(language);
}

/** create, createMultiple: each draft made a task, its time read in code (D6). */
async function createTasks(
  drafts: TasksArgs<"tasks.create">[],
  { tasks, context }: Run,
): Promise<TaskView[]> {
  const { phone, language, zone, operationId } = context;
  const created: TaskView[] = [];
  for (const [i, draft] of drafts.entries()) {
    const text = str(draft.text) ?? refuse("MISSING_TEXT", t(language, "askTaskText"));
    const category = str(draft.category);
    checkLength(text, "task", language);
    checkLength(category, "category", language);
    const task = await tasks.create(phone, `${operationId}#${i}`, {
      text,
      timeZone: zone,
      ...(category ? { category } : {}),
      ...scheduleFields(schedule(draft, context, zone)),
    });
    created.push({ ...taskView(task), ...heldUntilOf(task, context) });
  }
  if (created.length === 0) refuse("MISSING_TEXT", t(language, "askTaskText"));
  return created;
}

/**
 * The havdalah a new reminder's first ring waits for, when the user keeps Shabbat quiet and it
 * falls inside a rest window (the scheduler holds it until then): said when it is set.
 */
function heldUntilOf(task: Task, context: RunContext): { heldUntil?: string } {
  const user = context.state.authContext?.user;
  if (!user || !task.nextFireAt) return {};
  const window = isHeld(user, Date.parse(task.nextFireAt));
  return window ? { heldUntil: new Date(window.end).toISOString() } : {};
}

/** What an update may change on one task. */
type TaskChange = Omit<TasksArgs<"tasks.update">, "taskId">;

/** update, updateMultiple, updateAll: each task changed; none named asks "which task?". */
async function updateTasks(
  changes: { taskId: string | null | undefined; change: TaskChange }[],
  { tasks, context }: Run,
): Promise<TaskView[]> {
  const updated: TaskView[] = [];
  for (const { taskId, change } of changes) updated.push(await updateTask(taskId, change, tasks, context));
  if (updated.length === 0) whichTask(context.language);
  return updated;
}

async function deleteTasks(ids: readonly (string | null | undefined)[], { tasks, context }: Run) {
  const targets = taskIdsOf(ids, context.language);
  const deleted = (await tasks.delete(context.phone, targets)).map((task) => taskView(task));
  return deleted.length > 0 ? deleted : whichTask(context.language);
}

async function completeTasks(ids: readonly (string | null | undefined)[], { tasks, context }: Run) {
  const targets = taskIdsOf(ids, context.language);
  const done: { task: TaskView; removed: boolean; recurring: boolean }[] = [];
  for (const task of await tasks.getMany(context.phone, targets))
    done.push(await completeTask(task, tasks, context));
  return done.length > 0 ? done : whichTask(context.language);
}

async function updateTask(
  taskId: string | null | undefined,
  change: TaskChange,
  tasks: TaskRepository,
  context: RunContext,
): Promise<TaskView> {
  const { phone, language } = context;
  const task = (taskId ? await tasks.get(phone, taskId) : null) ?? whichTask(language);
  const patch: TaskPatch = {};
  const newText = str(change.newText);
  const category = str(change.category);
  const reminder = str(change.reminder);
  checkLength(newText, "task", language);
  checkLength(category, "category", language);
  if (newText) patch.text = newText;
  if (category) patch.category = category;
  const dueWords = str(change.dueDate);
  const newRule = change.reminderRecurrence;
  if (dueWords || reminder || newRule) {
    const rule = task.recurrence && task.recurrence.type !== "nudge" ? task.recurrence : null;
    const clock = dueWords ? bareClock(dueWords) : null;
    let timeArgs: TaskTimeArgs;
    if (newRule) {
      timeArgs = {
        dueDate: dueWords ?? null,
        reminder: reminder ?? task.reminder,
        reminderRecurrence: newRule,
      };
    } else if (rule && clock && !clock.open) {
      // "Move it to 18:00" on a daily reminder moves the repeat, it does not end it.
      timeArgs = {
        reminder: reminder ?? task.reminder,
        reminderRecurrence: {
          ...recurrenceArgsOf(rule),
          time: `${clock.hour}:${String(clock.minute).padStart(2, "0")}`,
        },
      };
    } else if (rule && clock) {
      const hour = clock.hour === 12 ? 12 : nearestHalf(clock.hour, rule.time ?? "09:00");
      timeArgs = {
        reminder: reminder ?? task.reminder,
        reminderRecurrence: {
          ...recurrenceArgsOf(rule),
          time: `${hour}:${String(clock.minute).padStart(2, "0")}`,
        },
      };
    } else {
      timeArgs = {
        dueDate: dueWords ?? task.dueAt,
        reminder: reminder ?? task.reminder,
        // A repeating reminder given a new date keeps repeating, from that date.
        reminderRecurrence: task.recurrence ? recurrenceArgsOf(task.recurrence) : null,
      };
    }
    Object.assign(patch, scheduleFields(schedule(timeArgs, context, task.timeZone, task.dueAt)));
  }
  if (Object.keys(patch).length === 0) refuse("NOTHING_TO_CHANGE", t(language, "askChange"));
  const updated = (await tasks.update(phone, task.id, patch)) ?? whichTask(language);
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
async function listTasks(
  args: TasksArgs<"tasks.getAll">,
  { tasks, context }: Run,
): Promise<OutcomeOf<TasksResults["tasks.getAll"]>> {
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
    data: { kind: "taskList", tasks: views, filtered: narrowed },
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
function oneList<Op extends string>(
  op: Op,
  list: TaskList,
  shown: boolean,
  extra: Partial<Omit<ListResult, "kind" | "op" | "list">> = {},
): OutcomeOf<ListResult<Op>> {
  return {
    success: true,
    data: { kind: "list", op, list, ...extra },
    latestAction: listAction(op, list),
    ...(shown && list.items.length > 0
      ? { numbered: { type: "list_item" as const, ids: list.items.map((i) => i.id), listId: list.id } }
      : {}),
  };
}

/** A result about several lists. */
function manyLists<Op extends string>(
  op: Op,
  lists: TaskList[],
  extra: Omit<ExecutorOutcome, "success" | "data"> = {},
): OutcomeOf<ListsResult<Op>> {
  return { success: true, data: { kind: "lists", op, lists }, ...extra };
}

/** Renaming or deleting a list another member shared is refused: it is theirs (docs/HOUSEHOLD.md). */
function notOwner(list: TaskList, language: RunContext["language"]): void {
  if (list.owner) refuse("NOT_OWNER", t(language, "list.notOwner", { name: list.name, owner: list.owner }));
}

const whichList = (language: RunContext["language"]) => refuse("NOT_FOUND", t(language, "whichList"));

/** The user's list of a resolved id, or "which list?". */
async function listOf(listId: string | null | undefined, { lists, context }: Run): Promise<TaskList> {
  return (listId ? await lists.get(context.phone, listId) : null) ?? whichList(context.language);
}

/** create, createMultiple: each draft made a list, refused when one of that name exists. */
async function createLists(
  drafts: TasksArgs<"lists.create">[],
  { lists, context }: Run,
): Promise<TaskList[]> {
  const { phone, language, operationId } = context;
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
    const items = names(draft.items);
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
  return created;
}

/** update, updateMultiple: each list renamed or made (not) a checklist, by its owner only. */
async function updateLists(changes: TasksArgs<"lists.update">[], run: Run) {
  const { phone, language } = run.context;
  const updated: { list: TaskList; previousName: string }[] = [];
  for (const change of changes) {
    const before = await listOf(change.listId, run);
    notOwner(before, language);
    const newName = str(change.newName);
    checkLength(newName, "list", language);
    const after = await run.lists.update(phone, before.id, {
      ...(newName ? { name: newName } : {}),
      ...(typeof change.isChecklist === "boolean" ? { isChecklist: change.isChecklist } : {}),
    });
    updated.push({ list: after ?? before, previousName: before.name });
  }
  return updated;
}

/** delete, deleteMultiple: the lists named, by their owner only; none deleted asks "which list?". */
async function deleteLists(ids: readonly (string | null | undefined)[], { lists, context }: Run) {
  const { phone, language } = context;
  const targets = ids.filter((id): id is string => !!id);
  for (const shared of (await lists.list(phone)).filter((l) => targets.includes(l.id)))
    notOwner(shared, language);
  const deleted = targets.length > 0 ? await lists.delete(phone, targets) : [];
  return deleted.length > 0 ? deleted : whichList(language);
}

/** toggleItem, deleteItem: the list's item, before the change, or "which item?". */
async function itemOf(args: { listId?: string | null; item?: string | null }, run: Run) {
  const list = await listOf(args.listId, run);
  const item =
    list.items.find((i) => i.id === args.item) ?? refuse("NOT_FOUND", t(run.context.language, "whichItem"));
  return { list, item };
}

const HANDLERS: Handlers = {
  "tasks.create": async (args, run) => oneTask("create", (await createTasks([args], run))[0]!),
  "tasks.createMultiple": async (args, run) =>
    manyTasks("createMultiple", await createTasks(args.tasks ?? [], run), true),
  "tasks.get": async (args, { tasks, context }) =>
    oneTask(
      "get",
      taskView(
        (args.taskId ? await tasks.get(context.phone, args.taskId) : null) ?? whichTask(context.language),
      ),
    ),
  "tasks.getAll": listTasks,
  "tasks.update": async (args, run) =>
    oneTask("update", (await updateTasks([{ taskId: args.taskId, change: args }], run))[0]!),
  "tasks.updateMultiple": async (args, run) =>
    manyTasks(
      "updateMultiple",
      await updateTasks(
        (args.updates ?? []).map((u) => ({ taskId: u.taskId, change: u })),
        run,
      ),
      true,
    ),
  "tasks.updateAll": async (args, run) =>
    manyTasks(
      "updateAll",
      await updateTasks(
        (args.taskIds ?? []).map((taskId) => ({ taskId, change: args })),
        run,
      ),
      true,
    ),
  "tasks.complete": async (args, run) => {
    const { task, removed, recurring } = (await completeTasks([args.taskId], run))[0]!;
    return oneTask("complete", task, { removed, recurring });
  },
  "tasks.completeAll": async (args, run) =>
    manyTasks(
      "completeAll",
      (await completeTasks(args.taskIds ?? [], run)).map((d) => d.task),
      false,
    ),
  "tasks.delete": async (args, run) => oneTask("delete", (await deleteTasks([args.taskId], run))[0]!),
  "tasks.deleteMultiple": async (args, run) =>
    manyTasks("deleteMultiple", await deleteTasks(args.taskIds ?? [], run), false),
  "tasks.deleteAll": async (args, run) =>
    manyTasks("deleteAll", await deleteTasks(args.taskIds ?? [], run), false),
  "tasks.addSubtask": async (args, { tasks, context }) => {
    const { phone, language } = context;
    const subtask = str(args.subtask) ?? refuse("MISSING_TEXT", t(language, "askTaskText"));
    checkLength(subtask, "item", language);
    const task = (args.taskId ? await tasks.get(phone, args.taskId) : null) ?? whichTask(language);
    const updated = await tasks.update(phone, task.id, {
      subtasks: [...task.subtasks, { text: subtask, completed: false }],
    });
    return oneTask("addSubtask", taskView(updated ?? task), { subtask });
  },

  "lists.create": async (args, run) => oneList("create", (await createLists([args], run))[0]!, true),
  "lists.createMultiple": async (args, run) => {
    const created = await createLists(args.lists ?? [], run);
    return manyLists("createMultiple", created, {
      latestAction: {
        action: "createMultiple",
        summary: created.map((l) => `list "${l.name}"`).join(", "),
        externalIds: created.map((l) => l.id),
      },
    });
  },
  "lists.get": async (args, run) => oneList("get", await listOf(args.listId, run), true),
  "lists.getAll": async (_args, { lists, context }) => {
    const all = await lists.list(context.phone);
    return manyLists("getAll", all, { numbered: { type: "list", ids: all.map((l) => l.id) } });
  },
  "lists.addItem": async (args, run) => {
    const { phone, language, operationId, now } = run.context;
    const texts = [...names(args.items), ...names([args.item ?? ""])];
    if (texts.length === 0) refuse("MISSING_ITEMS", t(language, "askItems"));
    for (const text of texts) checkLength(text, "item", language);
    if (args.createList === true && !str(args.listId)) {
      // The resolver found no list by that name: it is made now, with the items.
      const name = str(args.listName) ?? refuse("MISSING_NAME", t(language, "askListName"));
      checkLength(name, "list", language);
      const created = await run.lists.create(phone, `${operationId}#0`, { name, items: texts });
      return oneList("addItem", created, true, { added: texts, created: true });
    }
    if (!args.listId || !(await run.lists.addItems(phone, args.listId, texts, now))) whichList(language);
    return oneList("addItem", await listOf(args.listId, run), true, { added: texts });
  },
  "lists.toggleItem": async (args, run) => {
    const { list, item: before } = await itemOf(args, run);
    const item = await run.lists.toggleItem(run.context.phone, before.id, args.checked ?? undefined);
    const after = (await run.lists.get(run.context.phone, list.id)) ?? list;
    // The reply names the item only: the numbers last shown stay the ones to use.
    return oneList("toggleItem", after, false, { item: item ?? before });
  },
  "lists.deleteItem": async (args, run) => {
    const { list, item: before } = await itemOf(args, run);
    const item = (await run.lists.deleteItems(run.context.phone, [before.id]))[0];
    const after = (await run.lists.get(run.context.phone, list.id)) ?? list;
    return oneList("deleteItem", after, false, { item: item ?? before });
  },
  "lists.update": async (args, run) => {
    const [updated] = await updateLists([args], run);
    return oneList("update", updated!.list, false, { previousName: updated!.previousName });
  },
  "lists.updateMultiple": async (args, run) =>
    manyLists(
      "updateMultiple",
      (await updateLists(args.updates ?? [], run)).map((u) => u.list),
    ),
  "lists.delete": async (args, run) => oneList("delete", (await deleteLists([args.listId], run))[0]!, false),
  "lists.deleteMultiple": async (args, run) =>
    manyLists("deleteMultiple", await deleteLists(args.listIds ?? [], run)),
  "lists.clear": async (args, run) => {
    // Empties the list (or takes its checked items off) and keeps it; undo puts the items back.
    const list = await listOf(args.listId, run);
    const onlyChecked = args.onlyChecked === true;
    const cleared = await run.lists.clearItems(run.context.phone, list.id, onlyChecked);
    const after = (await run.lists.get(run.context.phone, list.id)) ?? list;
    return oneList("clear", after, false, { cleared, onlyChecked });
  },
  "lists.sort": async (args, run) => {
    // Alphabetical in the user's language (numbers by value); ticks stay; undo puts the old order back.
    const { phone, language } = run.context;
    const list = await listOf(args.listId, run);
    const sorted = alphabetical(list.items, language);
    if (sorted.every((item, i) => item.id === list.items[i]?.id))
      return oneList("sort", list, true, { unchanged: true });
    await run.lists.reorderItems(
      phone,
      list.id,
      sorted.map((item) => item.id),
    );
    return oneList("sort", (await run.lists.get(phone, list.id)) ?? list, true);
  },
};

/**
 * Items in alphabetical order as the user's language has it (Hebrew's collation puts Hebrew before
 * Latin, English's the reverse), case and accents aside, numbers by value ("2 eggs" before "10
 * eggs"); items that compare equal keep their order.
 */
function alphabetical(items: readonly ListItem[], language: RunContext["language"]): ListItem[] {
  const collator = new Intl.Collator(language, { numeric: true, sensitivity: "base" });
  return [...items].sort((a, b) => collator.compare(a.text, b.text) || a.position - b.position);
}
