/**
 * The words that make a reminder repeat: "every day", "every Monday and Wednesday", "every 10
 * minutes", "every month on the 10th", "כל יום ראשון", "כל 10 דקות", "כל 10 לחודש"; and the
 * "until …" / "עד …" that ends it. Only the rule's shape is read here; its time comes from the
 * clock mentions around it.
 */
import { HE_WHOLE_INTERVALS } from "./recurrence.js";
import type { Scanner, Span } from "./timeMentions.js";
import {
  EN_COUNTS,
  EN_WEEKDAYS,
  END,
  HE_COUNTS,
  HE_WEEKDAYS,
  START,
  countOf,
  rx,
  words,
  type Period,
} from "./timeWords.js";

/** A repeat rule as said, before its time and end are known. */
export interface RepeatPhrase extends Span {
  type: "daily" | "weekly" | "monthly" | "nudge";
  /** 0 = Sunday … 6 = Saturday; empty for "every week" (the weekday of the first day). */
  days?: number[];
  /** 1–31; undefined for "every month" (the day of the month of the first day). */
  dayOfMonth?: number;
  intervalMinutes?: number;
  /** A part of the day in the rule itself: "every evening", "כל בוקר". */
  period?: Period;
}

type Shape = Omit<RepeatPhrase, "start" | "end">;

const EVERY = String.raw`(?:every|each)`;
const HE_EVERY = String.raw`ו?ב?(?:כל|מדי)`;
/** After a bare "daily"/"weekly"/"monthly": only a time or the end, so "my daily tasks" is no rule. */
const BARE_END = String.raw`(?=\s+(?:at|on)${END}|\s*[,.!]|\s*$)`;
const ORDINAL = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;

const EN_WEEKDAY = String.raw`(?:${words(EN_WEEKDAYS)})s?`;
const EN_WEEKDAY_LIST = String.raw`${EN_WEEKDAY}(?:\s*(?:,|and|&|,\s*and)\s*(?:(?:every|on)\s+)?${EN_WEEKDAY})*`;
/** A Hebrew weekday word, not "שני" as in "שני ימים" (two days). */
const HE_WEEKDAY = String.raw`(?:יום\s+)?(?:${words(HE_WEEKDAYS)})(?![\p{L}\p{N}])(?!\s*(?:ימים|שבועות|חודשים|דקות|שעות))`;
const HE_WEEKDAY_LIST = String.raw`${HE_WEEKDAY}(?:\s*,\s*ו?${HE_WEEKDAY}|\s+ו-?${HE_WEEKDAY})*`;
const HE_PERIODS = new Map<string, Period>([
  ["בוקר", "morning"],
  ["צהריים", "noon"],
  ["ערב", "evening"],
  ["לילה", "night"],
]);

/** Repeats this module cannot express (every other day, every year…): the message is not guessed at. */
const UNSUPPORTED = new RegExp(
  [
    String.raw`${START}${EVERY}\s+(?:other|second|few|\d+|${words(EN_COUNTS.keys())})\s*(?:days?|weeks?|months?|years?)${END}`,
    String.raw`${START}${EVERY}\s+(?:year|weekday|weekend|business\s+day|working\s+day)s?${END}`,
    String.raw`${START}(?:yearly|annually|every\s+other\s+(?:${words(EN_WEEKDAYS)}))${END}`,
    String.raw`${START}${HE_EVERY}\s+(?:יומיים|שבועיים|חודשיים|שנה|(?:\d+|${words(HE_COUNTS.keys())})\s*-?\s*(?:ימים|שבועות|חודשים|שנים))${END}`,
  ].join("|"),
  "u",
);

/** Whether the text asks for a repeat this module cannot express ("every other day", "כל יומיים"). */
export function hasUnsupportedRepeat(text: string): boolean {
  return UNSUPPORTED.test(text);
}

const WEEKDAY_NAME = rx(
  String.raw`(?<!\p{L})(?:ו?ב?)(?:יום\s+)?(${words([...EN_WEEKDAYS, ...HE_WEEKDAYS])})`,
);

/** The weekdays named in a list, sorted: "monday and wednesday" → [1, 3]. */
function weekdaysIn(list: string): number[] {
  const days = [...list.matchAll(WEEKDAY_NAME)].map(([, name]) => {
    const english = EN_WEEKDAYS.indexOf(name ?? "");
    return english >= 0 ? english : HE_WEEKDAYS.indexOf(name ?? "");
  });
  return [...new Set(days)].sort((a, b) => a - b);
}

/** A day of the month as said; undefined when absent, 0 when out of range (impossible). */
function dayOfMonthOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const day = Number(text);
  return day >= 1 && day <= 31 ? day : 0;
}

/** Patterns in the order they are tried, each with how its match becomes a rule shape. */
const REPEATS: [RegExp, (m: RegExpMatchArray) => Shape | undefined][] = [
  // Nudges: every N minutes or hours.
  [
    rx(
      String.raw`${START}${EVERY}\s+(?:(\d+)\s*|(${words(EN_COUNTS.keys())})\s+)?(minutes?|mins?|hours?|hrs?)${END}`,
    ),
    ([, digits, word, unit]) => {
      const count = digits || word ? countOf(digits ?? word ?? "") : 1;
      return count
        ? { type: "nudge", intervalMinutes: unit?.startsWith("h") ? count * 60 : count }
        : undefined;
    },
  ],
  [
    rx(String.raw`${START}${EVERY}\s+(?:(half)\s+(?:an\s+)?|(?:a\s+)?quarter\s+(?:of\s+an?\s+)?)hour${END}`),
    ([, half]) => ({ type: "nudge", intervalMinutes: half ? 30 : 15 }),
  ],
  [
    rx(
      String.raw`${START}${HE_EVERY}\s+(?:(\d+|${words(HE_COUNTS.keys())})\s*-?\s*(דקות|דקה|שעות|שעה)|(${words(HE_WHOLE_INTERVALS.keys())}))${END}`,
    ),
    ([, countText, unit, amount]) => {
      if (amount)
        return { type: "nudge", intervalMinutes: HE_WHOLE_INTERVALS.get(amount.replace(/[\s-]+/gu, " ")) };
      const count = countOf(countText ?? "");
      return count
        ? { type: "nudge", intervalMinutes: unit?.startsWith("ש") ? count * 60 : count }
        : undefined;
    },
  ],
  // Weekly on named days.
  [
    rx(String.raw`${START}(?:on\s+)?${EVERY}\s+(?:week\s+on\s+)?(${EN_WEEKDAY_LIST})${END}`),
    ([, list]) => ({ type: "weekly", days: weekdaysIn(list ?? "") }),
  ],
  [
    // Plural without "every": "on Mondays and Wednesdays".
    rx(
      String.raw`${START}(?:on\s+)?((?:${words(EN_WEEKDAYS)})s(?:\s*(?:,|and|&)\s*(?:${words(EN_WEEKDAYS)})s)*)${END}`,
    ),
    ([, list]) => ({ type: "weekly", days: weekdaysIn(list ?? "") }),
  ],
  [
    rx(String.raw`${START}(?:${HE_EVERY}\s+(?:שבוע\s+ב)?|ו?ב?ימי\s+)(${HE_WEEKDAY_LIST})`),
    ([, list]) => ({ type: "weekly", days: weekdaysIn(list ?? "") }),
  ],
  // Weekly with no day named: the weekday of the first occurrence.
  [
    rx(String.raw`${START}(?:${EVERY}\s+week|once\s+a\s+week)${END}|${START}weekly${BARE_END}`),
    () => ({ type: "weekly", days: [] }),
  ],
  [rx(String.raw`${START}(?:${HE_EVERY}\s+שבוע|פעם\s+בשבוע)${END}`), () => ({ type: "weekly", days: [] })],
  // Monthly.
  [
    rx(
      String.raw`${START}(?:(?:${EVERY}\s+month|monthly)\s+on\s+the\s+${ORDINAL}|(?:on\s+)?the\s+${ORDINAL}\s+(?:day\s+)?of\s+(?:every|each)\s+month|${EVERY}\s+(\d{1,2})(?:st|nd|rd|th)(?:\s+(?:day\s+)?of\s+the\s+month)?)${END}`,
    ),
    ([, a, b, c]) => ({ type: "monthly", dayOfMonth: dayOfMonthOf(a ?? b ?? c) }),
  ],
  [
    rx(
      String.raw`${START}(?:${HE_EVERY}\s+(?:ה-?)?(\d{1,2})\s+[לב]?חודש|ב-?\s*(?:ה-?)?(\d{1,2})\s+[לב]כל\s+חודש)${END}`,
    ),
    ([, a, b]) => ({ type: "monthly", dayOfMonth: dayOfMonthOf(a ?? b) }),
  ],
  [
    // "כל חודש ב-10" is the 10th, unless it reads as a clock time ("ב-10:00", "ב-10 בבוקר").
    rx(
      String.raw`${START}${HE_EVERY}\s+חודש(?:\s+ב-?\s*(?:ה-?)?(\d{1,2})(?:\s+[לב]חודש)?(?![\p{L}\p{N}:.])(?!\s*(?:ו?ב?בוקר|ו?ב?ערב|ו?ב?לילה|ו?ב?צהריים|אחה|אחרי|וחצי|ורבע)))?${END}`,
    ),
    ([, a]) => ({ type: "monthly", dayOfMonth: dayOfMonthOf(a) }),
  ],
  [
    rx(
      String.raw`${START}(?:${EVERY}\s+month|once\s+a\s+month|פעם\s+בחודש)${END}|${START}monthly${BARE_END}`,
    ),
    () => ({ type: "monthly" }),
  ],
  // Daily.
  [
    rx(String.raw`${START}${EVERY}\s+(?:single\s+)?(day|morning|afternoon|evening|night)${END}`),
    ([, word]) => ({ type: "daily", ...(word === "day" ? {} : { period: word as Period }) }),
  ],
  [
    rx(String.raw`${START}once\s+a\s+day${END}|${START}(?:daily|everyday)${BARE_END}`),
    () => ({ type: "daily" }),
  ],
  [
    rx(String.raw`${START}${HE_EVERY}\s+(יום|בוקר|צהריים|ערב|לילה)${END}|${START}פעם\s+ביום${END}`),
    ([, word]) => {
      const period = HE_PERIODS.get(word ?? "");
      return { type: "daily", ...(period ? { period } : {}) };
    },
  ],
];

/** Every repeat phrase in the scanner's text, masked out of it (normally none or one). */
export function takeRepeats(scanner: Scanner): RepeatPhrase[] {
  const phrases: RepeatPhrase[] = [];
  for (const [pattern, read] of REPEATS) {
    for (const { start, end, value } of scanner.take(pattern, read)) phrases.push({ start, end, ...value });
  }
  return phrases;
}

/** "until", "till", "עד" before the end of a repeat; the glue after it ("the", "ה-") is allowed. */
export const UNTIL_MARKER = rx(String.raw`${START}(?:until|till|through|ו?עד)${END}`);
