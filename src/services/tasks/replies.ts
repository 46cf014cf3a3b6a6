import { formatClock, instantToLocal } from "../../nlu/zonedTime.js";
import type { ResponseTemplate } from "../../types/capability.js";
import type { TaskRecurrence, TaskList } from "../../types/tasks.js";
import { t } from "../../messages/index.js";
import { quotedInline } from "../../utils/quotedText.js";
import { joinAnd, ordinal, rruleText } from "./rruleText.js";
import { withUndoHint } from "../undo/replies.js";

type Language = "he" | "en";

/** A task as the formatter hands it on: the executor's view plus `<field>Human` texts of its instants. */
interface TaskShown {
  id: string;
  text: string;
  dueAt: string | null;
  dueAtHuman?: string;
  nextFireAtHuman?: string;
  recurrence: (TaskRecurrence & { untilHuman?: string }) | null;
  reminderOffsetMinutes: number | null;
  /** The zone the time was named in ("8am PST"), shown beside the user's own time. */
  saidIn?: { zone: string; label: string };
  completed: boolean;
  subtasks: { text: string; completed: boolean }[];
  group?: string;
  /** Another household member gave it: its words are theirs. */
  given?: true;
}

type Shown =
  | { kind: "task"; op: string; task: TaskShown; removed?: boolean; recurring?: boolean; subtask?: string }
  | { kind: "tasks"; op: string; tasks: TaskShown[] }
  | { kind: "taskList"; tasks: TaskShown[]; filtered: boolean }
  | {
      kind: "list";
      op: string;
      list: TaskList;
      added?: string[];
      created?: boolean;
      item?: { text: string; checked: boolean; addedBy?: string };
      previousName?: string;
      cleared?: { text: string }[];
      onlyChecked?: boolean;
    }
  | { kind: "lists"; op: string; lists: TaskList[] };

const DAYS: Record<Language, string[]> = {
  en: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
  he: ["ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת"],
};

/** "10 minutes", "an hour", "2 hours" / "10 דקות", "שעה", "שעתיים". */
export function intervalText(minutes: number, language: Language): string {
  if (language === "he") {
    if (minutes === 1) return "דקה";
    if (minutes === 15) return "רבע שעה";
    if (minutes === 30) return "חצי שעה";
    if (minutes === 60) return "שעה";
    if (minutes === 120) return "שעתיים";
    if (minutes % 60 === 0) return `${minutes / 60} שעות`;
    return `${minutes} דקות`;
  }
  if (minutes === 1) return "minute";
  if (minutes === 60) return "hour";
  if (minutes % 60 === 0) return `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

/** "every day at 08:00", "every Sunday and Wednesday at 18:00", "כל 10 לחודש ב-09:00", "every weekday (Sun–Thu) at 07:00"… @internal */
export function ruleText(rule: TaskRecurrence & { untilHuman?: string }, language: Language): string {
  let text: string;
  switch (rule.type) {
    case "daily":
      text = t(language, "rule.daily", { time: rule.time ?? "" });
      break;
    case "weekly":
      text = t(language, "rule.weekly", {
        days: joinAnd(
          (rule.days ?? []).map((d) => DAYS[language][d] ?? String(d)),
          language,
        ),
        time: rule.time ?? "",
      });
      break;
    case "monthly":
      text = t(language, "rule.monthly", {
        day: language === "he" ? String(rule.dayOfMonth) : ordinal(rule.dayOfMonth ?? 1),
        time: rule.time ?? "",
      });
      break;
    case "nudge":
      text = t(language, "rule.nudge", { interval: intervalText(rule.intervalMinutes ?? 10, language) });
      break;
    case "rrule":
      text = rruleText(rule, language);
      break;
  }
  return rule.untilHuman ? `${text} ${t(language, "rule.until", { date: rule.untilHuman })}` : text;
}

/** When a task is due and how it repeats, e.g. "tomorrow at 09:00" or "every day at 08:00"; "" for neither. */
function taskDetails(task: TaskShown, language: Language): string {
  return [
    task.dueAtHuman,
    task.recurrence && task.recurrence.type !== "nudge" ? ruleText(task.recurrence, language) : undefined,
    task.recurrence?.type === "nudge" ? `🔔 ${ruleText(task.recurrence, language)}` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
}

/** One line of a task in a list: its text, when it is due or how it repeats. */
function taskLine(task: TaskShown, language: Language): string {
  const details = taskDetails(task, language);
  return details ? `${task.text} — ${details}` : task.text;
}

/**
 * "tomorrow at 18:00 your time (08:00 PST)" when the time was named in another zone: both times,
 * so a conversion is never silent (D10).
 */
function whenSaid(task: TaskShown, when: string, language: Language): string {
  const saidIn = task.saidIn;
  if (!task.dueAt || !saidIn) return when;
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

function createdTask(task: TaskShown, language: Language): string {
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
      rule: ruleText(rule, language),
      text: task.text,
    });
  }
  if (rule) return t(language, "task.recurring", { rule: ruleText(rule, language), text: task.text });
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
  if (task.recurrence) lines.push(`🔁 ${ruleText(task.recurrence, language)}`);
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
  // On a shared list, who added an item when it was not the reader: "milk — Dana".
  const items = list.items.map((item) => {
    const text = item.addedBy ? `${itemText(item)} — ${quotedInline(item.addedBy)}` : itemText(item);
    return list.isChecklist ? `${item.checked ? "☑" : "☐"} ${text}` : text;
  });
  return `${title}\n${numbered(items).join("\n")}`;
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

function itemCount(list: TaskList, language: Language): string {
  return t(language, "list.itemCount", { count: list.items.length });
}

function render(data: Shown, language: Language): string {
  switch (data.kind) {
    case "task": {
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
    case "tasks": {
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
    case "taskList":
      return taskListing(data.tasks, data.filtered, language);
    case "list": {
      const { list } = data;
      const name = listName(list);
      switch (data.op) {
        case "create":
          return list.items.length > 0
            ? `${t(language, "list.created", { name })}\n${listDetail(list, language)}`
            : t(language, "list.created", { name });
        case "addItem": {
          const key = data.created ? "list.createdWithItems" : "list.itemsAdded";
          return `${t(language, key, { name, items: (data.added ?? []).join(", ") })}\n\n${listDetail(list, language)}`;
        }
        case "toggleItem":
          return t(language, data.item?.checked ? "list.itemChecked" : "list.itemUnchecked", {
            item: data.item ? itemText(data.item) : "",
            name,
          });
        case "deleteItem":
          return t(language, "list.itemDeleted", { item: data.item ? itemText(data.item) : "", name });
        case "update":
          return data.previousName && data.previousName !== list.name
            ? t(language, "list.renamed", { from: data.previousName, name })
            : t(language, "list.updated", { name });
        case "delete":
          return t(language, "list.deleted", { name });
        case "clear":
          return clearedText(name, data.cleared ?? [], data.onlyChecked === true, language);
        default:
          return listDetail(list, language);
      }
    }
    case "lists": {
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
  }
}

/** Every database result in words, with no LLM: the reply templates of tasks, reminders and lists. */
export const tasksTemplate: ResponseTemplate = (result, language) => {
  const given = result.formattedData as Shown | undefined;
  if (!given || typeof given !== "object" || !("kind" in given)) return null;
  const data = othersWordsQuoted(given);
  const text = render(data, language);
  // A deletion says how to take it back (a clear that removed nothing has nothing to take back).
  const removedNothing = data.kind === "list" && data.op === "clear" && !data.cleared?.length;
  return "op" in data && DELETIONS.has(data.op) && !removedNothing ? withUndoHint(text, language) : text;
};

/** A task another member gave, with its words shown as theirs (quotedInline), wherever a reply names it. */
function shownTask(task: TaskShown): TaskShown {
  return task.given ? { ...task, text: quotedInline(task.text) } : task;
}

function othersWordsQuoted(data: Shown): Shown {
  switch (data.kind) {
    case "task":
      return { ...data, task: shownTask(data.task) };
    case "tasks":
    case "taskList":
      return { ...data, tasks: data.tasks.map(shownTask) };
    default:
      return data;
  }
}

const DELETIONS = new Set(["delete", "deleteMultiple", "deleteAll", "deleteItem", "clear"]);
