import type { CapabilityName } from "../types/index.js";
import { stripCommandWords } from "./commandWords.js";
import { readTime, type ParsedTime, type UnclearTime } from "./parseTime.js";
import { addDays, dayOfWeek, formatClock, instantToLocal, type LocalDate } from "./zonedTime.js";
import { pad2 } from "../utils/timeContext.js";

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
  /** A time was named but not completely (D10): Memo asks, and `args` lack the time. */
  timeQuestion?: TimeQuestion;
}

/** What to ask about a time named in a command, and what each answer button stands for. */
export interface TimeQuestion {
  reading: UnclearTime;
  /** ambiguous_hour: per option, its local clock time ("05:00") and its time arguments. */
  choices?: { clock: string; args: Record<string, unknown> }[];
  /** The local day "YYYY-MM-DD" the question is about, when one was named. */
  day?: string;
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
export function timeArgs(parsed: ParsedTime): Record<string, unknown> {
  if (parsed.kind === "instant") {
    // The exact instant, not the wall time: on a fall-back night a wall time names two instants.
    return {
      dueDate: parsed.dateOnly ? parsed.local.slice(0, 10) : new Date(parsed.at).toISOString(),
      ...(parsed.saidIn ? { saidIn: parsed.saidIn } : {}),
    };
  }
  const { type, time, days, dayOfMonth, intervalMinutes, rule, start, until } = parsed.recurrence;
  return {
    reminderRecurrence: {
      type,
      ...(time ? { time } : {}),
      ...(days ? { days } : {}),
      ...(dayOfMonth ? { dayOfMonth } : {}),
      ...(intervalMinutes ? { interval: `${intervalMinutes} minutes` } : {}),
      // An RFC 5545 rule is handed on as it is (recurrenceArgsOf's shape), not read again.
      ...(rule ? { rule } : {}),
      ...(start ? { start } : {}),
      ...(until ? { until } : {}),
    },
  };
}

/** "to call mom" → "call mom"; Hebrew infinitives stay ("להתקשר לאמא"); glue left at the ends goes. */
function reminderText(text: string): string {
  return stripCommandWords(text)
    .replace(/^(?:please\s+|בבקשה\s+)/iu, "")
    .replace(/^(?:to|about|that)\s+/i, "")
    .replace(/(?:\s+(?:by|on|at|ב|עד))+$/iu, "")
    .replace(/^[\s,:\-–]+|[\s,:\-–]+$/g, "")
    .trim();
}

const wordsOf = (list: string) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${list})(?![\\p{L}\\p{N}])`, "iu");

/**
 * Words that make a message more than one plain command: a question, a pronoun that needs the
 * conversation, a condition on the time, an amount. Such messages go to the planner, whose model
 * reads them whole.
 */
const NOT_PLAIN = [
  // Questions.
  wordsOf("what|when|why|how|who|where|which|whether|if|מה|מתי|למה|איך|מי|איפה|כמה|האם"),
  // Pronouns and "again": they refer to the conversation.
  wordsOf("it|this|that|these|those|them|again|me|us|זה|זאת|אותו|אותה|אותם|אותן|שוב|אותי|אותנו"),
  // A condition or alternative on the time.
  wordsOf("before|after|except|or|between|around|until|till|unless|לפני|אחרי|חוץ|או|בין|בערך|עד|אלא"),
  // Abbreviations the parser does not read, and currency.
  wordsOf('tmrw|tmr|2moro|tomorow|tommorow|nis|shekels?|dollars?|euros?|ש"ח|שקל|שקלים|דולר|יורו'),
  /[$₪\d]/u,
];
/** A second request in the same message: ", also …", ". …", "and add…", "ותוסיף…". */
const SECOND_REQUEST =
  /,\s*(?:also|and|plus)\s|[.;]\s+\S|\s(?:and|also)\s+(?:add|remind|delete|remove|create|show|tell|send|set)\b|(?<![\p{L}])ו(?:תוסיף|תזכיר|תמחק|תראה|תגיד|תשלח|תקבע|מה)(?![\p{L}])/iu;

/** Whether words a command left over are plain enough to store as they are. */
function plain(text: string): boolean {
  return !NOT_PLAIN.some((pattern) => pattern.test(text)) && !SECOND_REQUEST.test(text);
}

/** A task or reminder named with its time: null when the time is missing or nothing is left to do. */
function reminder(
  message: string,
  nowMs: number,
  timeZone: string,
  requireTime: boolean,
): FastCommand | null {
  const parsed = readTime(message, nowMs, timeZone);
  if (!parsed) {
    if (requireTime) return null;
    const text = reminderText(message);
    return text && plain(text)
      ? command("database", "create_task", "tasks.create", { operation: "create", text })
      : null;
  }
  if (parsed.kind === "unclear") return timeQuestionCommand(parsed, requireTime, nowMs, timeZone);
  // "every month at 10": on which day is the user's to say.
  if (
    parsed.kind === "recurring" &&
    parsed.recurrence.type === "monthly" &&
    !/\d+(?:st|nd|rd|th)|\d+\s*ל?חודש|ה-?\d+|on the \d+/iu.test(parsed.phrase)
  )
    return null;
  const text = reminderText(parsed.text);
  if (!text || !plain(text)) return null;
  // "add task prepare Monday's presentation": the time belongs to the task's own words.
  const before = message.slice(0, Math.max(0, message.indexOf(parsed.phrase)));
  if (
    !requireTime &&
    (/['’]s(?![\p{L}])|(?<![\p{L}])של$/u.test(text) || /(?<![\p{L}])the\s*$/iu.test(before))
  )
    return null;
  return command("database", "create_task", "tasks.create", {
    operation: "create",
    text,
    ...timeArgs(parsed),
  });
}

/**
 * A reminder whose time was named but not completely: the task without its time and the question
 * to ask (D10). A task due "today" once 09:00 has passed is simply due today: only a reminder
 * would never ring. Null when the words left are not plain (the planner reads those).
 */
function timeQuestionCommand(
  reading: UnclearTime,
  requireTime: boolean,
  nowMs: number,
  timeZone: string,
): FastCommand | null {
  let rest = reading.text;
  for (const words of reading.unread) rest = rest.replace(words, " ");
  const text = reminderText(rest.replace(/\s+/gu, " ").trim());
  if (!text || !plain(text)) return null;
  const args = { operation: "create", text };
  const passed = reading.passed;
  if (reading.reason === "past" && passed?.dateOnly && !requireTime) {
    const today = instantToLocal(nowMs, timeZone);
    if (passed.local.startsWith(`${today.year}-${pad2(today.month)}-${pad2(today.day)}`))
      return command("database", "create_task", "tasks.create", { ...args, ...timeArgs(passed) });
  }
  return {
    ...command("database", "create_task", "tasks.create", args),
    timeQuestion: timeQuestionOf(reading, timeZone),
  };
}

/** What to ask about an unclear reading: its options' clock times and time arguments, and its day. */
export function timeQuestionOf(reading: UnclearTime, timeZone: string): TimeQuestion {
  const choices = reading.choices?.map((choice) => {
    const at = choice.kind === "instant" ? choice.at : choice.firstAt;
    const local = instantToLocal(at, timeZone);
    return { clock: formatClock(local.hour, local.minute), args: timeArgs(choice) };
  });
  const first = reading.choices?.[0];
  const day = first?.kind === "instant" ? first.local.slice(0, 10) : reading.day;
  return { reading, ...(choices ? { choices } : {}), ...(day ? { day } : {}) };
}

/** "milk, eggs, and bread" / "חלב, ביצים ולחם" → the items; null when one is a pronoun or a person. */
function items(text: string): string[] | null {
  const list = text
    .replace(/^(?:לי|את)\s+/u, "")
    .split(/\s*,\s*(?:and\s+|&\s+|ו-?(?=\p{L}))?|\s+(?:and|&)\s+|\s+ו-?(?=\p{L})/iu)
    .map((item) => item.trim())
    .filter(Boolean);
  return list.length > 0 && list.every((item) => plain(item) && !/^(?:את|לי)\s/u.test(item)) ? list : null;
}

/** Words that are not a list's name ("add milk to the list", "create a new list"). */
const FILLER_NAMES =
  /^(?:the|my|a|an|new|this|that|our|list|lists|it|חדשה|חדש|של|שלי|הזאת|הזו|רשימה|רשימות)$/iu;

/** A list's name from the user's words, or null when it is filler or carries a second clause. */
function listName(raw: string): string | null {
  const name = raw
    .trim()
    .replace(/\s+(?:please|thanks|thank you|בבקשה|תודה|שלי)$/iu, "")
    .trim();
  if (!name || FILLER_NAMES.test(name) || name.split(/\s+/).length > 4) return null;
  // "movies and add Dune", "shopping list and eggs to…", "ספרים שהמלצת עליהם", "של מסעדות".
  if (/\slist(?![\p{L}])|\sand\s|רשימת|^של\s|\s(?:ש\p{L}+)/iu.test(name)) return null;
  return plain(name) ? name : null;
}

/** A task reference after "done" / "delete task": "#2", "2", or a short name. */
function taskRef(ref: string, question: boolean): Record<string, unknown> | null {
  const cleaned = ref
    .trim()
    .replace(/^(?:number|no\.?|מספר|מס'?)\s*/iu, "")
    .replace(/^(?:about|על|לגבי)\s+/iu, "");
  const number = /^#?(\d{1,3})$/.exec(cleaned);
  if (number) return { taskId: `#${number[1]}` };
  // A question, a clause, a time, "all", a pronoun or a long sentence is conversation, not a name.
  const count = cleaned.split(/\s+/).length;
  if (question || count > MAX_NAME_WORDS || /[?,;]/.test(cleaned) || !plain(cleaned)) return null;
  return NOT_A_NAME.test(cleaned) ? null : { text: cleaned };
}

/** Words after "done" that are about the day or everything, not one task ("done for today", "סיימתי להיום"). */
const NOT_A_NAME = wordsOf(
  "today|tonight|tomorrow|yesterday|all|everything|deal|work|early|I|the day|the book|the marathon|היום|להיום|הערב|מחר|אתמול|הכל|הכול|כל|לעבוד|לעבודה",
);

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

// ---- calendar ----

const DAY = String.raw`(today|tomorrow|this\s+week)`;
const DAY_HE = String.raw`(היום|מחר|השבוע)`;
const MY_CALENDAR = rx(
  String.raw`(?:(?:show|open|check)\s+(?:me\s+)?)?(?:my|the)\s+(?:calendar|schedule|agenda)(?:\s+(?:for\s+)?${DAY})?|` +
    String.raw`what(?:'s|’s|s|\s+is)\s+(?:on\s+|in\s+)?my\s+(?:calendar|schedule|agenda)(?:\s+(?:for\s+)?${DAY})?|` +
    String.raw`${DAY}(?:'s|’s)?\s+(?:calendar|schedule|agenda)|(?:calendar|schedule|agenda)(?:\s+(?:for\s+)?${DAY})?`,
);
const MY_CALENDAR_HE = rx(
  String.raw`(?:מה\s+)?(?:יש\s+(?:לי\s+)?)?(?:תראה\s+לי\s+(?:את\s+)?)?(?:ב|ה)?יומן(?:\s+שלי)?(?:\s+(?:ל|של\s+)?${DAY_HE})?|` +
    String.raw`(?:מה\s+)?(?:יש\s+לי\s+)?(?:ל)?${DAY_HE}\s+ביומן`,
);

const dateText = (d: LocalDate) => `${d.year}-${pad2(d.month)}-${pad2(d.day)}`;

/** "my calendar tomorrow" → calendar getEvents on that local day (dates computed here, D6); no day: the next 7 days. */
function calendarDay(day: string, nowMs: number, timeZone: string): FastCommand {
  const now = instantToLocal(nowMs, timeZone);
  const today: LocalDate = { year: now.year, month: now.month, day: now.day };
  const word = day.toLowerCase().replace(/\s+/g, " ");
  const range =
    word === "today" || word === "היום"
      ? { timeMin: dateText(today) }
      : word === "tomorrow" || word === "מחר"
        ? { timeMin: dateText(addDays(today, 1)) }
        : word === "this week" || word === "השבוע"
          ? // Through Saturday: the week as the calendar shows it (Sunday first).
            { timeMin: dateText(today), timeMax: dateText(addDays(today, 6 - dayOfWeek(today))) }
          : {};
  return command("calendar", "list_events", "calendar.getEvents", { operation: "getEvents", ...range });
}

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
  if ((m = MY_CALENDAR.exec(text) ?? MY_CALENDAR_HE.exec(text))) {
    return calendarDay(m.slice(1).find((g) => g !== undefined) ?? "", nowMs, timeZone);
  }
  if (MY_LISTS.test(text) || MY_LISTS_HE.test(text)) {
    return command("database", "show_lists", "lists.getAll", { operation: "getAll" });
  }
  if ((m = DELETE_TASK.exec(text) ?? DELETE_TASK_HE.exec(text))) {
    const ref = taskRef(m[1]!, question);
    return ref ? command("database", "delete_task", "tasks.delete", { operation: "delete", ...ref }) : null;
  }
  if ((m = NEW_LIST.exec(text) ?? NEW_LIST_HE.exec(text))) {
    const name = listName((m[1] ?? m[2])!);
    return name
      ? command("database", "create_list", "lists.create", { operation: "create", listName: name })
      : null;
  }
  if ((m = ADD_TO_LIST.exec(text) ?? ADD_TO_LIST_HE.exec(text))) {
    const list = items(m[1]!);
    const name = listName(m[2]!);
    return list && name
      ? command("database", "add_list_item", "lists.addItem", {
          operation: "addItem",
          listName: name,
          items: list,
        })
      : null;
  }
  if ((m = SHOW_LIST.exec(text) ?? SHOW_LIST_HE.exec(text))) {
    const name = listName((m[1] ?? m[2])!);
    return name ? command("database", "show_list", "lists.get", { operation: "get", listName: name }) : null;
  }
  if ((m = DONE.exec(text) ?? DONE_HE.exec(text))) {
    const ref = taskRef((m[1] ?? m[2])!, question);
    return ref
      ? command("database", "complete_task", "tasks.complete", { operation: "complete", ...ref })
      : null;
  }
  return null;
}
