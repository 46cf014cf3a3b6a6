import type { CapabilityName } from "../types/index.js";
import { stripCommandWords } from "./commandWords.js";
import { readTime, type ParsedTime, type TimeReading, type UnclearTime } from "./parseTime.js";
import type { CalendarOptions } from "./holidays.js";
import { customOf, namesOwnHebrewBirthday } from "./hebrewDateWords.js";
import { addDays, dayOfWeek, formatClock, formatDate, instantToLocal, type LocalDate } from "./zonedTime.js";

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
      ...(parsed.hebrewDate ? { hebrewDate: parsed.hebrewDate } : {}),
    };
  }
  const { type, time, days, dayOfMonth, intervalMinutes, rule, start, hebrew, eve, until } =
    parsed.recurrence;
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
      // A yearly Hebrew date, as it is (Recurrence's shape).
      ...(hebrew ? { hebrew } : {}),
      ...(eve ? { eve } : {}),
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
  calendar: CalendarOptions = {},
): FastCommand | null {
  const parsed = readTime(message, nowMs, timeZone, { calendar });
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
    if (passed.local.startsWith(formatDate(today)))
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
  /^(?:the|my|a|an|new|this|that|our|list|lists|it|חדשה|חדש|של|שלי|הזאת|הזו|(?:ה)?רשימה|(?:ה)?רשימות)$/iu;

/** Whether words naming a list are only filler ("the", "my list", "it", "הרשימה"): no name at all. */
export function isFillerListName(words: string): boolean {
  return words
    .trim()
    .split(/\s+/u)
    .every((word) => FILLER_NAMES.test(word));
}

/** A list's name from the user's words, or null when it is filler or carries a second clause. */
function listName(raw: string): string | null {
  const name = raw
    .trim()
    .replace(/\s+(?:please|thanks|thank you|בבקשה|תודה|שלי)$/iu, "")
    .trim();
  if (!name || isFillerListName(name) || name.split(/\s+/).length > 4) return null;
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
  // Listings count from 1: "delete 0" names nothing.
  if (number) return Number(number[1]) > 0 ? { taskId: `#${number[1]}` } : null;
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

/** The Hebrew nudge verbs: "נדנד לי", "תציק לי", "תחפור לי" (the nudge words of docs/TASKS.md). */
const NUDGE_HE = String.raw`(?:נדנד|תנדנד|נדנדי|תנדנדי|תציק|תציקי|תחפור|תחפרי)`;
const REMIND_WORDS = String.raw`(?:(?:please|pls)\s+)?(?:remind\s+me|nudge\s+me|ping\s+me|set\s+(?:a\s+)?reminder)`;
const REMIND_WORDS_HE = String.raw`(?:תזכיר|תזכירי)\s+לי|${NUDGE_HE}\s+(?:אותי|לי)`;
const REMIND = rx(String.raw`${REMIND_WORDS}${E}.*`);
const REMIND_HE = rx(String.raw`(?:${REMIND_WORDS_HE})${E}.*`);
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
/** "delete 2", "remove #3", "מחק 2": a task by its number in the listing just shown. */
const DELETE_NUMBERED = rx(
  String.raw`(?:delete|remove|erase)\s+(?:task\s+)?(?:number\s+|no\.?\s*|#)?([1-9]\d{0,2})`,
);
const DELETE_NUMBERED_HE = rx(
  String.raw`(?:מחק|תמחק|תמחקי|מחקי)\s+(?:את\s+)?(?:משימה\s+)?(?:מספר\s+|מס'?\s*)?([1-9]\d{0,2})`,
);
/** "move 2 to Friday", "postpone 3 to tomorrow at 9", "תזיז את 2 ליום שישי": a numbered task to another time. */
const MOVE_NUMBERED = rx(
  String.raw`(?:move|postpone|push|reschedule|defer)\s+(?:task\s+)?(?:number\s+|no\.?\s*|#)?([1-9]\d{0,2})\s+(?:to|till|until)\s+(.+)`,
);
const MOVE_NUMBERED_HE = rx(
  String.raw`(?:תזיז|תזיזי|הזז|תעביר|תעבירי|העבר|תדחה|תדחי|דחה)\s+(?:את\s+)?(?:משימה\s+)?(?:מספר\s+|מס'?\s*)?([1-9]\d{0,2})\s+(?:ל|אל|עד)[-־]?\s*(.+)`,
);
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
/** "clear the checked items from shopping", "remove done items from the shopping list". */
const CLEAR_CHECKED = rx(
  String.raw`(?:clear|remove|delete)\s+(?:all\s+)?(?:the\s+)?(?:checked|ticked|done|completed|crossed[\s-]off)\s+(?:items\s+|ones\s+)?(?:off|from)\s+(?:my\s+|the\s+)?(?:list\s+)?(.+?)(?:\s+list)?`,
);
const CLEAR_CHECKED_HE = rx(
  String.raw`(?:מחק|תמחק|תמחקי|נקה|תנקה|תנקי|הסר|תסיר|תסירי|הורד|תוריד)\s+(?:את\s+)?(?:כל\s+)?(?:ה)?פריטים\s+(?:ה)?(?:מסומנים|שסומנו|שבוצעו)\s+מ(?:ה)?(?:רשימת|רשימה)\s+(?:ה)?(.+)`,
);
/** "clear the shopping list", "clear list shopping", "empty my shopping list", "remove all items from shopping". */
const CLEAR_LIST = rx(
  String.raw`(?:clear|empty)\s+(?:out\s+)?(?:my\s+|the\s+)?(.+?)\s+list|(?:clear|empty)\s+(?:out\s+)?(?:the\s+)?list\s+(.+)|` +
    String.raw`(?:remove|delete|clear)\s+(?:all(?:\s+the)?|every(?:thing)?)\s+(?:items\s+)?(?:from|off)\s+(?:my\s+|the\s+)?(?:list\s+)?(.+?)(?:\s+list)?`,
);
const CLEAR_LIST_HE = rx(
  String.raw`(?:נקה|תנקה|תנקי|רוקן|תרוקן|תרוקני)\s+(?:לי\s+)?(?:את\s+)?(?:ה)?(?:רשימת|רשימה)\s+(?:ה)?(.+)|` +
    String.raw`(?:מחק|תמחק|תמחקי|הסר|תסיר|תסירי|הורד|תוריד)\s+(?:את\s+)?(?:כל\s+(?:ה)?פריטים|הכל|הכול)\s+מ(?:ה)?(?:רשימת|רשימה)\s+(?:ה)?(.+)`,
);
/** "sort the shopping list", "sort list shopping", "alphabetize my shopping list", "sort the shopping list alphabetically". */
const SORT_LIST = rx(
  String.raw`(?:sort|alphabeti[sz]e)\s+(?:my\s+|the\s+)?(.+?)\s+list(?:\s+(?:alphabetically|a-z|a\s+to\s+z|by\s+name))?|` +
    String.raw`(?:sort|alphabeti[sz]e)\s+(?:my\s+|the\s+)?list\s+(.+?)(?:\s+(?:alphabetically|a-z|a\s+to\s+z|by\s+name))?`,
);
/** "סדר את רשימת קניות", "מיין את רשימת הקניות", "תסדר את רשימת הקניות לפי א״ב". */
const SORT_LIST_HE = rx(
  String.raw`(?:סדר|תסדר|סדרי|תסדרי|מיין|תמיין|מייני|תמייני)\s+(?:לי\s+)?(?:את\s+)?(?:ה)?(?:רשימת|רשימה)\s+(?:ה)?(.+?)` +
    String.raw`(?:\s+(?:לפי\s+(?:ה)?(?:א["״']?ב|אלף[\s-]בית)|בסדר\s+אלפביתי|אלפביתית))?`,
);
/** "delete the shopping list", "delete list shopping", "remove my camping list" (the whole list, asked first). */
const DELETE_LIST = rx(
  String.raw`(?:delete|remove|erase)\s+(?:my\s+|the\s+)?(?!(?:all|every|each)${E})(.+?)\s+list|` +
    String.raw`(?:delete|remove|erase)\s+(?:my\s+|the\s+)?list\s+(?:called\s+|named\s+)?(.+)`,
);
const DELETE_LIST_HE = rx(
  String.raw`(?:מחק|תמחק|תמחקי|הסר|תסיר|תסירי)\s+(?:לי\s+)?(?:את\s+)?(?:ה)?(?:רשימת|רשימה)\s+(?:בשם\s+)?(?:ה)?(.+)`,
);
/** Words that make "delete X from the Y list" about an item, not a list: the planner reads those. */
const NOT_A_LIST_NAME = wordsOf("from|off|on|in|to|of|at|all|every|items?|מ|על|של|כל");
const MY_LISTS = rx(String.raw`(?:(?:show|what\s+are)\s+)?(?:me\s+)?my\s+lists|lists`);
const MY_LISTS_HE = rx(
  String.raw`(?:תראה\s+לי\s+(?:את\s+)?)?(?:ה)?רשימות\s+(?:שלי)?|(?:מה\s+)?הרשימות\s+שלי`,
);

// ---- a time first; nudges ----

/**
 * "in 10 minutes remind me to call mom", "מחר ב-9 תזכיר לי להתקשר לבנק": the time first, then the
 * request. Only time words may come before it ("at 5 we met, remind me…" is not taken), and not a
 * day alone: "בראשון לחודש תזכיר לי לשלם" may mean every month, which the planner reads.
 */
const TIME_FIRST = rx(String.raw`(.+?)[\s,]+((?:${REMIND_WORDS}|${REMIND_WORDS_HE})${E}.*)`);

function timeFirst(text: string, nowMs: number, timeZone: string): boolean {
  const m = TIME_FIRST.exec(text);
  const before = m ? readTime(m[1]!, nowMs, timeZone) : null;
  if (!before || /[\p{L}\p{N}]/u.test(before.text)) return false;
  return !(before.kind === "instant" && before.dateOnly);
}

/** "nudge me", "keep nudging me", "נדנד לי", "תציק לי": a reminder that repeats until it is done. */
const NUDGE_VERB = String.raw`(?:(?:please|pls)\s+)?(?:keep\s+)?(?:nudge|nudging)(?:\s+me)?|${NUDGE_HE}(?:\s+(?:לי|אותי))?`;
const NUDGE_FIRST = rx(String.raw`(?:${NUDGE_VERB})${E}.*`);
/** The verb with "me" / "לי" / "אותי": the user asks to be nudged. */
const NUDGE_ME_FIRST = rx(
  String.raw`(?:(?:please|pls)\s+)?(?:keep\s+)?(?:nudge|nudging)\s+me${E}.*|${NUDGE_HE}\s+(?:לי|אותי)${E}.*`,
);
const NUDGE_ONLY = rx(NUDGE_VERB);
/** "remind me to X and nudge me (every 10 minutes)", "תזכיר לי X ותנדנד לי (כל 10 דקות)". */
const AND_NUDGE = rx(
  String.raw`(.+?)[\s,]+(?:and\s+(?:keep\s+)?(?:nudge|nudging)\s+me|ו-?${NUDGE_HE}\s+(?:לי|אותי))${E}(.*)`,
);
/** "until done", "until it's done", "עד שזה ייעשה": what every nudge does anyway. */
const UNTIL_DONE = new RegExp(
  String.raw`(?<![\p{L}])(?:until|till)\s+(?:(?:it's|it\s+is|i'm|i\s+am)\s+)?(?:done|finished|completed?)${E}|` +
    String.raw`(?<![\p{L}])(?:until|till)\s+i\s+(?:do|finish)\s+it${E}|` +
    String.raw`(?<![\p{L}])עד\s+ש(?:זה\s+)?(?:ייעשה|יבוצע|אסיים|אגמור|אעשה(?:\s+את\s+זה)?)${E}`,
  "giu",
);

/**
 * A nudge asked for in words: "nudge me every 10 minutes to drink water", "נדנד לי לשתות מים"
 * (every DEFAULT_NUDGE_MINUTES), "remind me to X and nudge me until done". With nothing to nudge
 * about ("nudge every 10 minutes") it goes on the task of the latest action ("it"), which entity
 * resolution finds or asks about. Undefined when the message asks for no nudge; null when it is
 * one the planner should read.
 */
function nudge(text: string, nowMs: number, timeZone: string): FastCommand | null | undefined {
  const joined = AND_NUDGE.exec(text);
  const reminderFirst = (said: string) =>
    REMIND.test(said) || REMIND_HE.test(said) || timeFirst(said, nowMs, timeZone);
  const untilDone = text.replace(UNTIL_DONE, " ") !== text;
  const asked =
    joined && reminderFirst(joined[1]!)
      ? `${joined[1]} ${joined[2]}`
      : NUDGE_FIRST.test(text) || (untilDone && reminderFirst(text))
        ? text
        : null;
  if (asked === null) return undefined;
  const words = asked.replace(UNTIL_DONE, " ").replace(/\s+/gu, " ").trim();
  const parsed = readTime(words, nowMs, timeZone);
  const left = (parsed ? parsed.text : words).trim();
  if (!left || NUDGE_ONLY.test(left)) return parsed ? nudgeLatestTask(parsed, timeZone) : null;
  // "nudge Dana about the invoice", "נדנד לדנה": without "me" / "לי" the nudge may be for someone
  // else; only "nudge every 10 minutes" (a time and nothing more, handled above) is taken.
  if (asked === text && NUDGE_FIRST.test(text) && !NUDGE_ME_FIRST.test(text)) return null;
  if (!parsed) {
    const what = reminderText(words);
    return what && plain(what)
      ? command("database", "create_task", "tasks.create", {
          operation: "create",
          text: what,
          reminderRecurrence: { type: "nudge" },
        })
      : null;
  }
  // "nudge me tomorrow at 9 to…" stays a reminder at 9, as before; "remind me at 9 to X and nudge
  // me" (a start and a nudge) is the planner's.
  const isNudge =
    parsed.kind === "recurring" ? parsed.recurrence.type === "nudge" : parsed.kind === "unclear";
  if (!isNudge && !NUDGE_FIRST.test(text)) return null;
  return reminder(words, nowMs, timeZone, true);
}

/** "nudge every 10 minutes" alone: the nudge for the latest task; past the horizon, the 10-year question. */
function nudgeLatestTask(parsed: TimeReading, timeZone: string): FastCommand | null {
  const update = command("database", "update_task", "tasks.update", { operation: "update" });
  if (parsed.kind === "unclear")
    return parsed.reason === "too_far" ? { ...update, timeQuestion: timeQuestionOf(parsed, timeZone) } : null;
  return parsed.kind === "recurring" && parsed.recurrence.type === "nudge"
    ? { ...update, args: { ...update.args, ...timeArgs(parsed) } }
    : null;
}

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

/** "my calendar tomorrow" → calendar getEvents on that local day (dates computed here, D6); no day: the next 7 days. */
function calendarDay(day: string, nowMs: number, timeZone: string): FastCommand {
  const now = instantToLocal(nowMs, timeZone);
  const today: LocalDate = { year: now.year, month: now.month, day: now.day };
  const word = day.toLowerCase().replace(/\s+/g, " ");
  const range =
    word === "today" || word === "היום"
      ? { timeMin: formatDate(today) }
      : word === "tomorrow" || word === "מחר"
        ? { timeMin: formatDate(addDays(today, 1)) }
        : word === "this week" || word === "השבוע"
          ? // Through Saturday: the week as the calendar shows it (Sunday first).
            { timeMin: formatDate(today), timeMax: formatDate(addDays(today, 6 - dayOfWeek(today))) }
          : {};
  return command("calendar", "list_events", "calendar.getEvents", { operation: "getEvents", ...range });
}

/**
 * The command a whole message is, or null when it is anything else (the LLM planner's). Only
 * unambiguous forms are taken: a reminder must name a time that is still ahead, "done <text>" a
 * short name without a question, a list command must say "list" / "רשימה".
 */
export function recognizeCommand(
  message: string,
  nowMs: number,
  timeZone: string,
  /** The user's holiday schedule and Hebrew birthday, for the times said (default: the zone's schedule). */
  calendar: CalendarOptions = {},
): FastCommand | null {
  const text = tidy(message);
  const question = /\?\s*\S{0,2}\s*$/u.test(message);
  if (!text || text.length > 300) return null;
  let m: RegExpExecArray | null;

  const nudged = nudge(text, nowMs, timeZone);
  if (nudged !== undefined) return nudged;
  if (REMIND.test(text) || REMIND_HE.test(text) || timeFirst(text, nowMs, timeZone))
    return reminder(text, nowMs, timeZone, true, calendar);
  if ((m = ADD_TASK.exec(text) ?? ADD_TASK_HE.exec(text)))
    return reminder(m[1] ?? m[2]!, nowMs, timeZone, false, calendar);
  // "yahrzeit for grandma on 10 Tevet", "יום הולדת עברי של אבא ב-ג' בניסן": the words are the
  // request, a yearly reminder on the Hebrew date (not "my Hebrew birthday is …", a setting).
  if (!question && customOf(text) && !namesOwnHebrewBirthday(text)) {
    const yearly = readTime(text, nowMs, timeZone, { calendar });
    if (yearly?.kind === "recurring" && yearly.recurrence.type === "hebrew")
      return reminder(text, nowMs, timeZone, true, calendar);
  }

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
  if ((m = DELETE_NUMBERED.exec(text) ?? DELETE_NUMBERED_HE.exec(text)))
    return command("database", "delete_task", "tasks.delete", { operation: "delete", taskId: `#${m[1]}` });
  if ((m = MOVE_NUMBERED.exec(text) ?? MOVE_NUMBERED_HE.exec(text))) {
    // The whole rest must be the new time (D10): anything else is the planner's to read.
    const parsed = readTime(m[2]!, nowMs, timeZone);
    return parsed?.kind === "instant" && !reminderText(parsed.text)
      ? command("database", "update_task", "tasks.update", {
          operation: "update",
          taskId: `#${m[1]}`,
          ...timeArgs(parsed),
        })
      : null;
  }
  if ((m = DELETE_TASK.exec(text) ?? DELETE_TASK_HE.exec(text))) {
    const ref = taskRef(m[1]!, question);
    return ref ? command("database", "delete_task", "tasks.delete", { operation: "delete", ...ref }) : null;
  }
  // Emptying a list keeps it ("delete the shopping list" deletes it); the checked-only form first.
  const checkedOnly = CLEAR_CHECKED.exec(text) ?? CLEAR_CHECKED_HE.exec(text);
  if ((m = checkedOnly ?? CLEAR_LIST.exec(text) ?? CLEAR_LIST_HE.exec(text))) {
    const name = listName(m.slice(1).find((g) => g !== undefined) ?? "");
    return name
      ? command("database", "clear_list", "lists.clear", {
          operation: "clear",
          listName: name,
          ...(checkedOnly ? { onlyChecked: true } : {}),
        })
      : null;
  }
  if ((m = SORT_LIST.exec(text) ?? SORT_LIST_HE.exec(text))) {
    const name = listName(m.slice(1).find((g) => g !== undefined) ?? "");
    return name
      ? command("database", "sort_list", "lists.sort", { operation: "sort", listName: name })
      : null;
  }
  if ((m = DELETE_LIST.exec(text) ?? DELETE_LIST_HE.exec(text))) {
    const name = listName(m.slice(1).find((g) => g !== undefined) ?? "");
    return name && !NOT_A_LIST_NAME.test(name)
      ? command("database", "delete_list", "lists.delete", { operation: "delete", listName: name })
      : null;
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

// ---- undo ----

/**
 * "undo", "undo that", "בטל", "תבטל את זה", "תחזיר"…: the whole message takes back the latest
 * change. "cancel" / "ביטול" are not undo: alone they answer an open question (which is routed
 * before any command) and otherwise go on as today.
 */
const UNDO = rx(
  String.raw`(?:(?:please|pls)\s+)?(?:undo|undelete|revert)(?:\s+(?:that|it|this|the\s+last(?:\s+(?:one|change|action))?|last(?:\s+(?:one|change|action))?))?(?:\s+(?:please|pls))?`,
);
const UNDO_HE = rx(
  String.raw`(?:בבקשה\s+)?(?:בטל|תבטל|תבטלי|תחזיר|תחזירי|החזר)(?:\s+(?:את\s+)?(?:זה|הפעולה\s+האחרונה|האחרון))?(?:\s+בבקשה)?`,
);

/** Whether the whole message asks to undo the latest change. */
export function isUndoCommand(message: string): boolean {
  const text = tidy(message);
  return UNDO.test(text) || UNDO_HE.test(text);
}
