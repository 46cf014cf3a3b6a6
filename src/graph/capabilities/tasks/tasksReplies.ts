import { hebrewDaySaidText, hebrewYearText } from "../../../nlu/hebrewCalendar.js";
import { formatClock, instantToLocal } from "../../../nlu/zonedTime.js";
import { assertNever, declares } from "../../../contracts/contract.js";
import {
  tasksContract,
  type ListResult,
  type ListsResult,
  type TaskResult,
  type TasksFunction,
  type TasksResult,
  type TasksResults,
  type TaskView,
} from "../../../contracts/tasks.js";
import type { ResponseTemplate } from "../../../types/capability.js";
import type { TaskRecurrence, TaskList } from "../../../types/tasks.js";
import { t } from "../../../messages/index.js";
import { quotedInline } from "../../../utils/quotedText.js";
import { intervalText, ruleText } from "../../../services/tasks/replies.js";
import { withUndoHint } from "../../../services/undo/replies.js";

type Language = "he" | "en";

/** A task as the formatter hands it on: the executor's view plus `<field>Human` texts of its instants. */
type TaskShown = Omit<TaskView, "recurrence"> & {
  dueAtHuman?: string;
  nextFireAtHuman?: string;
  heldUntilHuman?: string;
  recurrence: (TaskRecurrence & { untilHuman?: string }) | null;
};

/** A result as the formatter hands it on: every task in it with its humanized times. */
type Humanized<T> = T extends TaskView
  ? TaskShown
  : T extends (infer U)[]
    ? Humanized<U>[]
    : T extends object
      ? { [K in keyof T]: Humanized<T[K]> }
      : T;

/** One operation's result as the template reads it, by function. */
type Shown = { [F in TasksFunction]: { functionName: F; data: Humanized<TasksResults[F]> } }[TasksFunction];

/** When a task is due and how it repeats, e.g. "tomorrow at 09:00" or "every day at 08:00"; "" for neither. */
function taskDetails(task: TaskShown, language: Language): string {
  return [
    task.dueAtHuman ? withHebrewDate(task, task.dueAtHuman, language) : undefined,
    task.recurrence && task.recurrence.type !== "nudge"
      ? ruleShown(task, task.recurrence, language)
      : undefined,
    task.recurrence?.type === "nudge" ? `🔔 ${ruleText(task.recurrence, language)}` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
}

/**
 * A task's rule as shown; a yearly Hebrew date also names its next Gregorian day ("every year on 10
 * Tevet (Hebrew calendar) at 09:00, next: Sun 20/12 at 09:00"), so both calendars are in view.
 */
function ruleShown(
  task: TaskShown,
  rule: TaskRecurrence & { untilHuman?: string },
  language: Language,
): string {
  const text = ruleText(rule, language);
  return rule.type === "hebrew" && task.nextFireAtHuman
    ? `${text}, ${t(language, "rule.hebrew.next", { when: task.nextFireAtHuman })}`
    : text;
}

/** One line of a task in a list: its text, when it is due or how it repeats. */
function taskLine(task: TaskShown, language: Language): string {
  const details = taskDetails(task, language);
  return details ? `${task.text} — ${details}` : task.text;
}

/** "Sun 20/12 at 09:00 (10 Tevet)": a day named by its Hebrew date shows it beside the Gregorian one. */
function withHebrewDate(task: TaskShown, when: string, language: Language): string {
  const hebrew = task.hebrewDate;
  if (!hebrew || !task.dueAt) return when;
  const date = hebrewDaySaidText(hebrew, language);
  // "30 Cheshvan" in a year without it: the day it falls on, and why.
  const shown = hebrew.said
    ? t(language, "task.hebrewDateMissing", {
        date,
        said: hebrewDaySaidText({ year: hebrew.year, ...hebrew.said }, language),
        year: hebrewYearText(hebrew.year, language),
      })
    : date;
  return `${when} (${shown})`;
}

/**
 * "tomorrow at 18:00 your time (08:00 PST)" when the time was named in another zone: both times,
 * so a conversion is never silent (D10).
 */
function whenSaid(task: TaskShown, when: string, language: Language): string {
  const saidIn = task.saidIn;
  if (!task.dueAt || !saidIn) return withHebrewDate(task, when, language);
  let local;
  try {
    local = instantToLocal(Date.parse(task.dueAt), saidIn.zone);
  } catch {
    return when;
  }
  const label =
    saidIn.label.length <= 5
      ? saidIn.label.toUpperCase()
      : saidIn.label.replace(/(?<![\p{L}])\p{Ll}/gu, (c) => c.toUpperCase());
  return t(language, "time.otherZone", {
    local: when,
    said: `${formatClock(local.hour, local.minute)} ${label}`,
  });
}

/** A new reminder's confirmation, with the Shabbat-quiet line when its first ring is held. */
function createdTask(task: TaskShown, language: Language): string {
  const text = createdTaskText(task, language);
  return task.heldUntilHuman
    ? `${text}\n${t(language, "task.heldForShabbat", { when: task.heldUntilHuman })}`
    : text;
}

function createdTaskText(task: TaskShown, language: Language): string {
  const rule = task.recurrence;
  if (rule?.type === "nudge") {
    const interval = intervalText(rule.intervalMinutes ?? 10, language);
    return task.dueAtHuman
      ? t(language, "task.nudgeFrom", { when: task.dueAtHuman, interval, text: task.text })
      : t(language, "task.nudge", { interval, text: task.text });
  }
  if (rule && task.reminderOffsetMinutes) {
    return t(language, "task.recurringBefore", {
      offset: intervalText(task.reminderOffsetMinutes, language),
      rule: ruleShown(task, rule, language),
      text: task.text,
    });
  }
  if (rule) return t(language, "task.recurring", { rule: ruleShown(task, rule, language), text: task.text });
  if (task.dueAtHuman && task.reminderOffsetMinutes) {
    return t(language, "task.reminderBefore", {
      text: task.text,
      when: task.dueAtHuman,
      offset: intervalText(task.reminderOffsetMinutes, language),
    });
  }
  if (task.dueAtHuman)
    return t(language, "task.reminderSet", {
      when: whenSaid(task, task.dueAtHuman, language),
      text: task.text,
    });
  return t(language, "task.created", { text: task.text });
}

/** A task on its own: its text, time, rule and subtasks. */
function taskDetail(task: TaskShown, language: Language): string {
  const lines = [`*${task.text}*`];
  if (task.dueAtHuman) lines.push(`⏰ ${task.dueAtHuman}`);
  if (task.recurrence) lines.push(`🔁 ${ruleShown(task, task.recurrence, language)}`);
  if (task.subtasks.length > 0) {
    lines.push(
      t(language, "task.subtasks"),
      ...task.subtasks.map((s) => `${s.completed ? "☑" : "☐"} ${s.text}`),
    );
  }
  return lines.join("\n");
}

const numbered = (lines: string[]) => lines.map((line, i) => `${i + 1}. ${line}`);

/** The user's tasks grouped (overdue, today, coming up, recurring, no date), numbered across groups. */
function taskListing(tasks: TaskShown[], filtered: boolean, language: Language): string {
  if (tasks.length === 0) return t(language, filtered ? "noMatchingTasks" : "noOpenTasks");
  const out = [t(language, filtered ? "task.listTitleFiltered" : "task.listTitle")];
  let group: string | undefined;
  tasks.forEach((task, i) => {
    if (task.group && task.group !== group) {
      group = task.group;
      out.push("", t(language, `group.${group}` as Parameters<typeof t>[1]));
    }
    out.push(`${i + 1}. ${taskLine(task, language)}`);
  });
  // The example names a number the list has.
  out.push("", t(language, "task.listHint", { n: String(Math.min(2, tasks.length)) }));
  return out.join("\n");
}

/** A list's name as shown: the words of whoever named it, quoted when that is another member (D14). */
function listName(list: TaskList): string {
  return list.owner ? quotedInline(list.name) : list.name;
}

/** An item's text as shown: quoted when someone else added it (a member, or one who has left since). */
function itemText(item: { text: string; addedBy?: string; othersWords?: true }): string {
  return item.addedBy || item.othersWords ? quotedInline(item.text) : item.text;
}

function listDetail(list: TaskList, language: Language): string {
  const title = `*${listName(list)}*${sharing(list, language)}`;
  if (list.items.length === 0) return `${title}\n${t(language, "list.empty")}`;
  return `${title}\n${itemLines(list).join("\n")}`;
}

/** A list's items, numbered, ticked or not; on a shared list, who added an item when it was not the reader: "milk — Dana". */
function itemLines(list: TaskList): string[] {
  const items = list.items.map((item) => {
    const text = item.addedBy ? `${itemText(item)} — ${quotedInline(item.addedBy)}` : itemText(item);
    return list.isChecklist ? `${item.checked ? "☑" : "☐"} ${text}` : text;
  });
  return numbered(items);
}

/** A list's name as a choice among lists: another member's shared list says whose ("shopping — Yossi"). */
export function listLabel(list: TaskList): string {
  return list.owner ? `${listName(list)} — ${quotedInline(list.owner)}` : list.name;
}

/** " (Dana's, shared)" / " (shared with your household)" after a shared list's name; "" otherwise. */
function sharing(list: TaskList, language: Language): string {
  if (list.owner) return ` (${t(language, "list.sharedBy", { owner: list.owner })})`;
  return list.shared ? ` (${t(language, "list.sharedMine")})` : "";
}

/** "🧹 Cleared *shopping* (5 items)." / "🧹 ניקיתי את *קניות* (5 פריטים)."; nothing removed says why. */
function clearedText(name: string, cleared: unknown[], onlyChecked: boolean, language: Language): string {
  const count = cleared.length;
  if (count === 0) return t(language, onlyChecked ? "list.noneChecked" : "list.alreadyEmpty", { name });
  return t(language, onlyChecked ? "list.clearedChecked" : "list.cleared", { name, count });
}

/**
 * "🔤 Sorted *shopping*:" and its items in their new order; a list of one item or none says there
 * was nothing to sort.
 */
function sortedText(data: ListResult, language: Language): string {
  const { list } = data;
  const name = listName(list);
  if (list.items.length === 0) return t(language, "list.nothingToSort", { name });
  if (list.items.length === 1)
    return t(language, "list.oneItemToSort", { name, item: itemText(list.items[0]!) });
  const key = data.unchanged ? "list.alreadySorted" : "list.sorted";
  return `${t(language, key, { name })}\n${itemLines(list).join("\n")}`;
}

function itemCount(list: TaskList, language: Language): string {
  return t(language, "list.itemCount", { count: list.items.length });
}

/** One task's result: created, changed, deleted, done, given a subtask, or shown. */
function taskText(data: Humanized<TaskResult>, language: Language): string {
  const { task } = data;
  switch (data.op) {
    case "create":
      return createdTask(task, language);
    case "update":
      return [t(language, "task.updated", { text: task.text }), taskDetails(task, language)]
        .filter(Boolean)
        .join(" — ");
    case "delete":
      return t(language, "task.deleted", { text: task.text });
    case "complete":
      return data.recurring && task.nextFireAtHuman
        ? t(language, "task.completedRecurring", { text: task.text, when: task.nextFireAtHuman })
        : t(language, "task.completed", { text: task.text });
    case "addSubtask":
      return t(language, "task.subtaskAdded", { text: task.text, subtask: data.subtask ?? "" });
    default:
      return taskDetail(task, language);
  }
}

/** Several tasks' result: made, changed, done or deleted. */
function tasksText(data: Humanized<TasksResult>, language: Language): string {
  const count = String(data.tasks.length);
  const lines = numbered(data.tasks.map((task) => taskLine(task, language))).join("\n");
  const only = data.tasks.length === 1 ? data.tasks[0]! : null;
  // One task: the same words as the single operation ("Deleted: *x*", not "Deleted 1 tasks").
  if (only && data.op !== "createMultiple") {
    if (data.op === "completeAll") return t(language, "task.completed", { text: only.text });
    if (data.op === "deleteMultiple" || data.op === "deleteAll")
      return t(language, "task.deleted", { text: only.text });
    return [t(language, "task.updated", { text: only.text }), taskDetails(only, language)]
      .filter(Boolean)
      .join(" — ");
  }
  if (only) return createdTask(only, language);
  switch (data.op) {
    case "createMultiple":
      return `${t(language, "task.createdMany", { count })}\n${lines}`;
    case "completeAll":
      return t(language, "task.completedMany", { count });
    case "deleteMultiple":
    case "deleteAll":
      return t(language, "task.deletedMany", { count });
    default:
      return `${t(language, "task.updatedMany", { count })}\n${lines}`;
  }
}

/** Several lists' result: made, deleted, changed, or all of them shown. */
function listsText(data: ListsResult, language: Language): string {
  const names = data.lists.map((l) => `*${listName(l)}*`).join(", ");
  const only = data.lists.length === 1 ? data.lists[0]! : null;
  if (only && data.op === "createMultiple") return t(language, "list.created", { name: only.name });
  if (only && data.op === "deleteMultiple") return t(language, "list.deleted", { name: only.name });
  if (only && data.op === "updateMultiple") return t(language, "list.updated", { name: only.name });
  switch (data.op) {
    case "createMultiple":
      return t(language, "list.createdMany", { count: String(data.lists.length), names });
    case "deleteMultiple":
      return t(language, "list.deletedMany", { count: String(data.lists.length), names });
    case "updateMultiple":
      return t(language, "list.updatedMany", { count: String(data.lists.length) });
    default:
      if (data.lists.length === 0) return t(language, "noLists");
      return `${t(language, "list.allTitle")}\n${numbered(data.lists.map((l) => `${listName(l)} (${itemCount(l, language)})${sharing(l, language)}`)).join("\n")}`;
  }
}

/** A list's item as the reply names it ("" when the result names none). */
const itemOf = (data: ListResult) => (data.item ? itemText(data.item) : "");

/**
 * Every operation's result in words, by function: a new operation of the contract fails `tsc` here
 * until it has its reply. A deletion says how to take it back.
 */
function render(shown: Shown, language: Language): string {
  const undoable = (text: string) => withUndoHint(text, language);
  switch (shown.functionName) {
    case "tasks.create":
    case "tasks.get":
    case "tasks.update":
    case "tasks.complete":
    case "tasks.addSubtask":
      return taskText(shown.data, language);
    case "tasks.delete":
      return undoable(taskText(shown.data, language));
    case "tasks.createMultiple":
    case "tasks.updateMultiple":
    case "tasks.updateAll":
    case "tasks.completeAll":
      return tasksText(shown.data, language);
    case "tasks.deleteMultiple":
    case "tasks.deleteAll":
      return undoable(tasksText(shown.data, language));
    case "tasks.getAll":
      return taskListing(shown.data.tasks, shown.data.filtered, language);
    case "lists.create": {
      const { list } = shown.data;
      const name = listName(list);
      return list.items.length > 0
        ? `${t(language, "list.created", { name })}\n${listDetail(list, language)}`
        : t(language, "list.created", { name });
    }
    case "lists.get":
      return listDetail(shown.data.list, language);
    case "lists.addItem": {
      const { data } = shown;
      const key = data.created ? "list.createdWithItems" : "list.itemsAdded";
      return `${t(language, key, { name: listName(data.list), items: (data.added ?? []).join(", ") })}\n\n${listDetail(data.list, language)}`;
    }
    case "lists.toggleItem":
      return t(language, shown.data.item?.checked ? "list.itemChecked" : "list.itemUnchecked", {
        item: itemOf(shown.data),
        name: listName(shown.data.list),
      });
    case "lists.deleteItem":
      return undoable(
        t(language, "list.itemDeleted", { item: itemOf(shown.data), name: listName(shown.data.list) }),
      );
    case "lists.update": {
      const { data } = shown;
      const name = listName(data.list);
      return data.previousName && data.previousName !== data.list.name
        ? t(language, "list.renamed", { from: data.previousName, name })
        : t(language, "list.updated", { name });
    }
    case "lists.delete":
      return undoable(t(language, "list.deleted", { name: listName(shown.data.list) }));
    case "lists.clear": {
      const { data } = shown;
      const cleared = data.cleared ?? [];
      const text = clearedText(listName(data.list), cleared, data.onlyChecked === true, language);
      // A clear that removed nothing has nothing to take back.
      return cleared.length > 0 ? undoable(text) : text;
    }
    case "lists.sort":
      return sortedText(shown.data, language);
    case "lists.getAll":
    case "lists.createMultiple":
    case "lists.updateMultiple":
      return listsText(shown.data, language);
    case "lists.deleteMultiple":
      return undoable(listsText(shown.data, language));
    default:
      return assertNever(shown);
  }
}

/** Every database result in words, with no LLM: the reply templates of tasks, reminders and lists. */
export const tasksTemplate: ResponseTemplate = (result, language) => {
  const given: unknown = result.formattedData;
  if (!declares(tasksContract, result.operation)) return null;
  if (!given || typeof given !== "object" || !("kind" in given)) return null;
  // The formatter hands on what the executor returned for this operation (TasksResults), humanized.
  const shown = { functionName: result.operation, data: given } as Shown;
  return render(othersWordsQuoted(shown), language);
};

/** A task another member gave, with its words shown as theirs (quotedInline), wherever a reply names it. */
function shownTask(task: TaskShown): TaskShown {
  return task.given ? { ...task, text: quotedInline(task.text) } : task;
}

function othersWordsQuoted(shown: Shown): Shown {
  const data: unknown = shown.data;
  if (typeof data !== "object" || data === null) return shown;
  const quoted =
    "task" in data
      ? { ...data, task: shownTask(data.task as TaskShown) }
      : "tasks" in data
        ? { ...data, tasks: (data.tasks as TaskShown[]).map(shownTask) }
        : data;
  return { ...shown, data: quoted } as Shown;
}
