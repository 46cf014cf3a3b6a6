import type { CapabilityName } from "../types/index.js";
import { stripCommandWords } from "./commandWords.js";
import { parseTime, type ParsedTime } from "./parseTime.js";

/**
 * A message recognized as a command, as the LLM path would have planned and resolved it: the plan
 * step's action and the resolver's operation, so everything after the planner is shared.
 */
export interface FastCommand {
  capability: CapabilityName;
  /** The plan step's action, as the planner names it ("create_task", "add_list_item"…). */
  action: string;
  /** The resolver's function ("tasks.create", "lists.addItem"…). */
  functionName: string;
  /** The resolver's arguments, in the shape of TaskOperationSchema / ListOperationSchema. */
  args: Record<string, unknown>;
}

/** Words of at most this many are taken as a task's name in "done <text>"; longer is free-form. */
const MAX_NAME_WORDS = 6;

/** Hebrew has no \b: a word ends where no letter or digit follows. */
const E = String.raw`(?![\p{L}\p{N}])`;
const rx = (source: string) => new RegExp(`^(?:${source})$`, "iu");

/** Lower-cased for matching, spaces folded, closing punctuation and emoji dropped. */
function tidy(message: string): string {
  return message
    .replace(/\s+/g, " ")
    .replace(/[\s.!?,;:…\p{Extended_Pictographic}\uFE0F]+$/u, "")
    .trim();
}

const command = (
  capability: CapabilityName,
  action: string,
  functionName: string,
  args: Record<string, unknown>,
): FastCommand => ({ capability, action, functionName, args });

/** The resolver's time fields for a parsed time: a local date-time, or a recurrence rule (D6 stays in code). */
function timeArgs(parsed: ParsedTime): Record<string, unknown> {
  if (parsed.kind === "instant") {
    return { dueDate: parsed.dateOnly ? parsed.local.slice(0, 10) : parsed.local };
  }
  const { type, time, days, dayOfMonth, intervalMinutes, until } = parsed.recurrence;
  return {
    reminderRecurrence: {
      type,
      ...(time ? { time } : {}),
      ...(days ? { days } : {}),
      ...(dayOfMonth ? { dayOfMonth } : {}),
      ...(intervalMinutes ? { interval: `${intervalMinutes} minutes` } : {}),
      ...(until ? { until } : {}),
    },
  };
}

/** "to call mom" → "call mom"; Hebrew infinitives stay ("להתקשר לאמא"). */
function reminderText(text: string): string {
  return stripCommandWords(text)
    .replace(/^(?:to|about|that)\s+/i, "")
    .replace(/^[\s,:\-–]+|[\s,:\-–]+$/g, "")
    .trim();
}

/** A task or reminder named with its time: null when the time is missing, past, or nothing is left to do. */
function reminder(
  message: string,
  nowMs: number,
  timeZone: string,
  requireTime: boolean,
): FastCommand | null {
  const parsed = parseTime(message, nowMs, timeZone);
  if (!parsed) {
    if (requireTime) return null;
    const text = reminderText(message);
    return text ? command("database", "create_task", "tasks.create", { operation: "create", text }) : null;
  }
  // A one-time time already past needs a question, which is the LLM path's to ask.
  if (parsed.kind === "instant" && parsed.at <= nowMs) return null;
  const text = reminderText(parsed.text);
  if (!text || /[?]/.test(text)) return null;
  return command("database", "create_task", "tasks.create", {
    operation: "create",
    text,
    ...timeArgs(parsed),
  });
}

/** "milk, eggs and bread" / "חלב, ביצים ולחם" → the items. */
function items(text: string): string[] {
  return text
    .split(/\s*,\s*|\s+(?:and|&)\s+|\s+ו(?=[\p{L}])/iu)
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A task reference after "done" / "delete task": "#2", "2", or a short name. */
function taskRef(ref: string, question: boolean): Record<string, unknown> | null {
  const number = /^#?(\d{1,3})$/.exec(ref.trim());
  if (number) return { taskId: `#${number[1]}` };
  // A question, a clause or a long sentence is conversation, not the name of a task.
  const words = ref.trim().split(/\s+/);
  if (question || words.length > MAX_NAME_WORDS || /[?,;]/.test(ref)) return null;
  return { text: ref.trim() };
}

// ---- patterns (English, then Hebrew) ----

const REMIND = rx(
  String.raw`(?:(?:please|pls)\s+)?(?:remind\s+me|nudge\s+me|ping\s+me|set\s+(?:a\s+)?reminder)${E}.*`,
);
const REMIND_HE = rx(String.raw`(?:תזכיר|תזכירי)\s+לי${E}.*|(?:נדנד|תנדנד|תציק|תחפור)\s+(?:אותי|לי)${E}.*`);
const ADD_TASK = rx(String.raw`(?:add|new|create)\s+(?:a\s+)?task[:\s]+(.+)`);
const ADD_TASK_HE = rx(String.raw`(?:תוסיף|הוסף|תוסיפי|צור|תיצור)\s+משימה[:\s]+(.+)|משימה\s+חדשה[:\s]+(.+)`);
const MY_TASKS = rx(
  String.raw`(?:(?:show|list|what\s+are|what's|whats)\s+)?(?:me\s+)?(?:my|all\s+my)\s+(?:tasks|to-?dos|reminders)(?:\s+(?:for\s+)?(today|tomorrow))?|(?:tasks|to-?dos)(?:\s+(?:for\s+)?(today|tomorrow))?`,
);
const MY_TASKS_HE = rx(
  String.raw`(?:מה\s+|תראה\s+לי\s+(?:את\s+)?)?(?:ה)?משימות\s+שלי(?:\s+(?:ל)?(היום|מחר))?|(?:מה\s+)?(?:יש\s+לי\s+)?(?:ל)?(היום|מחר)\s+במשימות`,
);
const DONE = rx(
  String.raw`(?:done|finished|completed?)\s+(?:with\s+)?(?:task\s+)?(.+)|mark\s+(?:task\s+)?(.+?)\s+(?:as\s+)?(?:done|complete|completed)`,
);
const DONE_HE = rx(
  String.raw`(?:סיימתי|בוצע|בוצעה)\s+(?:את\s+)?(?:משימה\s+)?(.+)|(?:סמן|תסמן)\s+(?:את\s+)?(?:משימה\s+)?(.+?)\s+כ(?:בוצע|בוצעה|גמור)`,
);
const DELETE_TASK = rx(String.raw`(?:delete|remove|cancel)\s+(?:the\s+)?(?:task|reminder)\s+(.+)`);
const DELETE_TASK_HE = rx(String.raw`(?:תמחק|מחק|תמחקי|תבטל|בטל)\s+(?:את\s+)?(?:ה)?(?:משימה|תזכורת)\s+(.+)`);
const NEW_LIST = rx(
  String.raw`(?:create|new|make|start)\s+(?:a\s+)?(?:new\s+)?list\s+(?:called\s+|named\s+)?(?!of\s|for\s|with\s)(.+)|(?:create|make|start)\s+(?:a\s+)?(?:new\s+)?(.+?)\s+list`,
);
const NEW_LIST_HE = rx(
  String.raw`(?:צור|תיצור|תפתח|פתח)\s+רשימה(?:\s+חדשה)?\s+(?:בשם\s+)?(.+)|רשימה\s+חדשה\s+(?:בשם\s+)?(.+)`,
);
const ADD_TO_LIST = rx(String.raw`(?:add|put)\s+(.+?)\s+(?:to|on)\s+(?:my\s+|the\s+)?(.+?)\s+list`);
const ADD_TO_LIST_HE = rx(
  String.raw`(?:תוסיף|הוסף|תוסיפי|תכניס|תשים)\s+(.+?)\s+ל(?:רשימת|רשימה)\s+(?:ה)?(.+)`,
);
const SHOW_LIST = rx(
  String.raw`(?:show|open|what's\s+on|whats\s+on|what\s+is\s+on)\s+(?:me\s+)?(?:my\s+|the\s+)?(.+?)\s+list`,
);
const SHOW_LIST_HE = rx(
  String.raw`(?:תראה|הראה|תראי)\s+(?:לי\s+)?(?:את\s+)?(?:ה)?(?:רשימת|רשימה)\s+(?:ה)?(.+)|מה\s+(?:יש\s+)?ב(?:רשימת|רשימה)\s+(?:ה)?(.+)`,
);
const MY_LISTS = rx(String.raw`(?:(?:show|what\s+are)\s+)?(?:me\s+)?my\s+lists|lists`);
const MY_LISTS_HE = rx(
  String.raw`(?:תראה\s+לי\s+(?:את\s+)?)?(?:ה)?רשימות\s+(?:שלי)?|(?:מה\s+)?הרשימות\s+שלי`,
);

/**
 * The command a whole message is, or null when it is anything else (the LLM planner's). Only
 * unambiguous forms are taken: a reminder must name a time that is still ahead, "done <text>" a
 * short name without a question, a list command must say "list" / "רשימה".
 */
export function recognizeCommand(message: string, nowMs: number, timeZone: string): FastCommand | null {
  const text = tidy(message);
  const question = /\?\s*\S{0,2}\s*$/u.test(message);
  if (!text || text.length > 300) return null;
  let m: RegExpExecArray | null;

  if (REMIND.test(text) || REMIND_HE.test(text)) return reminder(text, nowMs, timeZone, true);
  if ((m = ADD_TASK.exec(text) ?? ADD_TASK_HE.exec(text)))
    return reminder(m[1] ?? m[2]!, nowMs, timeZone, false);

  if ((m = MY_TASKS.exec(text) ?? MY_TASKS_HE.exec(text))) {
    const day = (m[1] ?? m[2] ?? "").toLowerCase();
    const due =
      day === "today" || day === "היום" ? "today" : day === "tomorrow" || day === "מחר" ? "tomorrow" : null;
    return command("database", "list_tasks", "tasks.getAll", {
      operation: "getAll",
      ...(due ? { filters: { due } } : {}),
    });
  }
  if (MY_LISTS.test(text) || MY_LISTS_HE.test(text)) {
    return command("database", "show_lists", "lists.getAll", { operation: "getAll" });
  }
  if ((m = DELETE_TASK.exec(text) ?? DELETE_TASK_HE.exec(text))) {
    const ref = taskRef(m[1]!, question);
    return ref ? command("database", "delete_task", "tasks.delete", { operation: "delete", ...ref }) : null;
  }
  if ((m = NEW_LIST.exec(text) ?? NEW_LIST_HE.exec(text))) {
    const name = (m[1] ?? m[2])!.trim();
    return command("database", "create_list", "lists.create", { operation: "create", listName: name });
  }
  if ((m = ADD_TO_LIST.exec(text) ?? ADD_TO_LIST_HE.exec(text))) {
    const list = items(m[1]!);
    return list.length > 0
      ? command("database", "add_list_item", "lists.addItem", {
          operation: "addItem",
          listName: m[2]!.trim(),
          items: list,
        })
      : null;
  }
  if ((m = SHOW_LIST.exec(text) ?? SHOW_LIST_HE.exec(text))) {
    return command("database", "show_list", "lists.get", {
      operation: "get",
      listName: (m[1] ?? m[2])!.trim(),
    });
  }
  if ((m = DONE.exec(text) ?? DONE_HE.exec(text))) {
    const ref = taskRef((m[1] ?? m[2])!, question);
    return ref
      ? command("database", "complete_task", "tasks.complete", { operation: "complete", ...ref })
      : null;
  }
  return null;
}
