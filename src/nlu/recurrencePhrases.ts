/**
 * The words that make a reminder repeat: "every day", "every Monday and Wednesday", "every 10
 * minutes", "every month on the 10th", "every weekday", "every other Tuesday", "the first Sunday of
 * every month", "the last day of every month", "every year on March 3", "כל יום ראשון", "כל 10 דקות",
 * "כל 10 לחודש", "כל יום חול", "כל סופ\"ש", "כל שבועיים ביום שלישי", "ביום ראשון הראשון של כל
 * חודש", "כל שנה ב-3 במרץ"; and the "until …" / "עד …" that ends it. Only the rule's shape is read
 * here; its time, first day and the user's week come from around it (parseTime).
 */
import { HE_WHOLE_INTERVALS } from "./recurrence.js";
import type { RuleDay } from "./recurrenceRule.js";
import type { Scanner, Span } from "./timeMentions.js";
import {
  EN_NTH_DAYS,
  EN_MONTHS,
  EN_NUMBER_WORDS,
  EN_WEEKDAYS,
  END,
  HE_NUMBER_WORDS,
  HE_MONTHS,
  HE_WEEKDAYS,
  START,
  countOf,
  rx,
  words,
  type Period,
} from "./timeWords.js";

/** A repeat rule as said, before its time and end are known. */
export interface RepeatPhrase extends Span {
  type: "daily" | "weekly" | "monthly" | "yearly" | "nudge";
  /** 0 = Sunday … 6 = Saturday; empty for "every week" (the weekday of the first day). */
  days?: number[];
  /**
   * 1–31, or -1 for the month's last day; undefined for "every month" (the day of the month of the
   * first day); 0 when the number said is no day of a month.
   */
  dayOfMonth?: number;
  /**
   * Ordinal weekdays of the month: "the first Sunday" [{day 0, nth 1}], "the 2nd and 4th Tuesday"
   * [{day 2, nth 2}, {day 2, nth 4}], "the last Friday" [{day 5, nth -1}].
   */
  nthDays?: RuleDay[];
  /** Every `interval` days, weeks, months or years (default 1); 0 when the count said is none. */
  interval?: number;
  /** "every weekday" / "every weekend": the days of the user's week (userWeek). */
  weekPart?: "workdays" | "weekend";
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

const EN_NTH = EN_NTH_DAYS;
const HE_NTH = new Map([
  ["ראשון", 1],
  ["שני", 2],
  ["שלישי", 3],
  ["רביעי", 4],
  ["אחרון", -1],
]);
/** "every other day", "every third week", "every couple of months": the count of periods. */
const EN_EVERY_NTH = new Map([
  ["other", 2],
  ["second", 2],
  ["third", 3],
  ["fourth", 4],
  ["a couple of", 2],
  ["couple of", 2],
]);
/** Count words before a unit, "a"/"an" left out ("every a day" is no repeat). */
const EN_COUNT_WORDS = EN_NUMBER_WORDS;
const EN_NTH_WORDS = words(EN_NTH.keys());
const HE_NTH_WORDS = words(HE_NTH.keys());
/** "first", "1st and 3rd", "second, fourth and last". */
const EN_NTH_LIST = String.raw`(?:${EN_NTH_WORDS})(?:\s*(?:,|and|&|,\s*and)\s*(?:the\s+)?(?:${EN_NTH_WORDS}))*`;
/** "הראשון", "השני והרביעי", "השני, הרביעי והאחרון". */
const HE_NTH_LIST = String.raw`ה?(?:${HE_NTH_WORDS})(?:\s*,\s*ו?ה?(?:${HE_NTH_WORDS})|\s+וה?(?:${HE_NTH_WORDS}))*`;
/** One ordinal word inside such a list, without its "ו"/"ה". */
const NTH_WORD = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:ו?ה?)(${words([...EN_NTH.keys(), ...HE_NTH.keys()])})(?![\p{L}\p{N}])`,
  "gu",
);
/** The ordinals that say "of the month" on their own: "every first Monday", "every last Friday". */
const OWN_MONTH_NTH = new Set(["first", "1st", "last"]);
const EN_WEEKDAY_ONE = words(EN_WEEKDAYS);
const HE_WEEKDAY_ONE = words(HE_WEEKDAYS);
const EN_MONTH_WORDS = words(EN_MONTHS.keys());
const HE_MONTH_WORDS = words(HE_MONTHS.keys());
/** "of every month", "of each month". */
const OF_EVERY_MONTH = String.raw`of\s+(?:every|each)\s+month`;
/** "של כל חודש", "בכל חודש". */
const HE_OF_EVERY_MONTH = String.raw`(?:של\s+|ב)כל\s+חודש`;
/** "של החודש", "בחודש". */
const HE_OF_THE_MONTH = String.raw`(?:של\s+ה|ב)חודש`;

/**
 * Repeats that cannot be expressed exactly, so the message is not guessed at (D10): a vague count
 * ("every few days", "כל כמה ימים"), a number of times per period ("twice a week", "פעמיים בשבוע"),
 * "every other weekday", and words that mean two things ("biweekly": twice a week or every two weeks).
 */
const UNSUPPORTED = new RegExp(
  [
    String.raw`${START}${EVERY}\s+(?:(?:a\s+)?few|several|some)\s+(?:minutes?|hours?|days?|weeks?|months?|years?)${END}`,
    String.raw`${START}${EVERY}\s+(?:other|second|third|\d+(?:st|nd|rd|th)?)\s+(?:week\s*day|work\s*day|working\s+day|business\s+day)s?${END}`,
    String.raw`${START}(?:bi-?weekly|bi-?monthly|semi-?monthly|bi-?annually|semi-?annually|bi-?yearly)${END}`,
    // "every second Tuesday": every other Tuesday, or the second Tuesday of the month?
    String.raw`${START}${EVERY}\s+(?:second|2nd|third|3rd|fourth|4th)\s+(?:${EN_WEEKDAY_ONE})s?${END}(?!\s+(?:of|in)\s+(?:the|every|each)\s+month)(?!\s*(?:,|and\s|&))`,
    // Shorter than a minute.
    String.raw`${START}${EVERY}\s+(?:\d+\s*|(?:${EN_COUNT_WORDS})\s+)?(?:seconds?|secs?)${END}(?!\s*(?:,|&|and\s|day|week|month|year|weekend|time|(?:${EN_WEEKDAY_ONE})))`,
    String.raw`${START}${HE_EVERY}\s+(?:(?:\d+|${HE_NUMBER_WORDS})\s*-?\s*)?(?:שניות|שנייה|שניה)${END}`,
    String.raw`${START}(?:twice|thrice|(?:\d+|${EN_COUNT_WORDS})\s+times)\s+(?:a|an|per|each|every)\s+(?:day|week|month|year)${END}`,
    String.raw`${START}${HE_EVERY}\s+כמה\s+(?:דקות|שעות|ימים|שבועות|חודשים|שנים)${END}`,
    String.raw`${START}(?:פעמיים|(?:\d+|${HE_NUMBER_WORDS})\s+פעמים)\s+ב(?:יום|שבוע|חודש|שנה)${END}`,
  ].join("|"),
  "u",
);

/** Whether the text asks for a repeat that cannot be expressed exactly ("every few days", "twice a week"). */
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

/** The count of periods said: "2", "2nd", "other", "three", "שלושה"; 0 when it is none. */
function everyCount(digits: string | undefined, word: string | undefined): number {
  if (digits !== undefined) return Number(digits);
  const key = (word ?? "").replace(/\s+/gu, " ");
  return EN_EVERY_NTH.get(key) ?? countOf(key) ?? 0;
}

const UNIT_TYPES: [RegExp, RepeatPhrase["type"]][] = [
  [/^(?:day|יומ|ימים)/u, "daily"],
  [/^(?:week|fortnight|שבוע)/u, "weekly"],
  [/^(?:month|חודש)/u, "monthly"],
  [/^(?:year|שנ)/u, "yearly"],
];

/** The repeat type of a unit word: "days", "שבועיים", "חודשים", "שנתיים". */
function typeOfUnit(unit: string): RepeatPhrase["type"] {
  return UNIT_TYPES.find(([pattern]) => pattern.test(unit))?.[1] ?? "daily";
}

/** Ordinal weekdays: "first and third" "monday" → [{day 1, nth 1}, {day 1, nth 3}]; "השני והרביעי" "שלישי" alike. */
function nthDaysOf(list: string | undefined, dayName: string | undefined): Shape {
  const name = (dayName ?? "").replace(/s$/u, "");
  const english = EN_WEEKDAYS.indexOf(name);
  const day = english >= 0 ? english : HE_WEEKDAYS.indexOf(name);
  const nths = [...(list ?? "").matchAll(NTH_WORD)].map(
    ([, word]) => EN_NTH.get(word ?? "") ?? HE_NTH.get(word ?? "") ?? 0,
  );
  // In month order: first … fourth, then the last.
  const unique = [...new Set(nths)].sort((x, y) => (x < 0 ? 5 : x) - (y < 0 ? 5 : y));
  return { type: "monthly", nthDays: unique.map((nth) => ({ day, nth })) };
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
      String.raw`${START}${EVERY}\s+(?:(\d+)\s*|(${EN_NUMBER_WORDS}|an|a)\s+)?(minutes?|mins?|hours?|hrs?)${END}`,
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
      String.raw`${START}${HE_EVERY}\s+(?:(\d+|${HE_NUMBER_WORDS})\s*-?\s*(דקות|דקה|שעות|שעה)|(${words(HE_WHOLE_INTERVALS.keys())}))${END}`,
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
  // Monthly on ordinal weekdays: "the first Sunday of every month", "every 2nd and 4th Tuesday of the
  // month", "every last Friday", "ביום ראשון הראשון של כל חודש", "ביום שלישי השני והרביעי בכל חודש".
  [
    rx(
      String.raw`${START}(?:on\s+)?(?:the\s+)?(${EN_NTH_LIST})\s+(${EN_WEEKDAY_ONE})s?\s+(?:of|in)\s+(?:every|each)\s+month${END}|${START}(?:on\s+)?${EVERY}\s+(${EN_NTH_LIST})\s+(${EN_WEEKDAY_ONE})s?(\s+(?:of|in)\s+(?:the|every|each)\s+month)?${END}|${START}(?:${EVERY}\s+month|monthly)\s+on\s+the\s+(${EN_NTH_LIST})\s+(${EN_WEEKDAY_ONE})s?${END}`,
    ),
    ([, l1, d1, l2, d2, ofMonth, l3, d3]) => {
      // "every second Tuesday" alone may be every other Tuesday: only "first", "last" or a list say the month.
      if (l2 !== undefined && !ofMonth && !/and|&|,/u.test(l2) && !OWN_MONTH_NTH.has(l2)) return undefined;
      return nthDaysOf(l1 ?? l2 ?? l3, d1 ?? d2 ?? d3);
    },
  ],
  [
    rx(
      String.raw`${START}ו?ב?(?:יום\s+)?(${HE_WEEKDAY_ONE})\s+(${HE_NTH_LIST})\s+${HE_OF_EVERY_MONTH}${END}|${START}${HE_EVERY}\s+(?:יום\s+)?(${HE_WEEKDAY_ONE})\s+(${HE_NTH_LIST})\s+${HE_OF_THE_MONTH}${END}|${START}${HE_EVERY}\s+חודש\s+ב-?(?:יום\s+)?(${HE_WEEKDAY_ONE})\s+(${HE_NTH_LIST})(?:\s+${HE_OF_THE_MONTH})?${END}`,
    ),
    ([, d1, l1, d2, l2, d3, l3]) => nthDaysOf(l1 ?? l2 ?? l3, d1 ?? d2 ?? d3),
  ],
  // Monthly on the last day: "the last day of every month", "ביום האחרון של כל חודש", "בסוף כל חודש".
  [
    rx(
      String.raw`${START}(?:on\s+)?(?:the\s+)?last\s+day\s+${OF_EVERY_MONTH}${END}|${START}(?:on\s+)?${EVERY}\s+last\s+day\s+of\s+the\s+month${END}|${START}(?:${EVERY}\s+month|monthly)\s+on\s+the\s+last\s+day(?:\s+of\s+the\s+month)?${END}|${START}(?:at\s+)?the\s+end\s+${OF_EVERY_MONTH}${END}`,
    ),
    () => ({ type: "monthly", dayOfMonth: -1 }),
  ],
  [
    rx(
      String.raw`${START}ו?ב?יום\s+ה?אחרון\s+${HE_OF_EVERY_MONTH}${END}|${START}${HE_EVERY}\s+יום\s+אחרון\s+${HE_OF_THE_MONTH}${END}|${START}ו?ב?סוף\s+כל\s+חודש${END}|${START}${HE_EVERY}\s+סוף\s+חודש${END}|${START}${HE_EVERY}\s+חודש\s+ב-?יום\s+ה?אחרון(?:\s+${HE_OF_THE_MONTH})?${END}`,
    ),
    () => ({ type: "monthly", dayOfMonth: -1 }),
  ],
  // The user's week: "every weekday", "on weekends", "every other weekend", "כל יום חול", "כל סופ"ש".
  [
    rx(
      String.raw`${START}(?:on\s+)?${EVERY}\s+(?:single\s+)?(?:week\s*day|work\s*day|working\s+day|business\s+day)(?:\s+(morning|afternoon|evening|night))?${END}|${START}(?:on\s+)?(?:week\s*days|work\s*days|working\s+days|business\s+days)${END}(?=\s+(?:at|@|from|until|till)${END}|\s*[,.!]|\s*$)`,
    ),
    ([, period]) => ({
      type: "weekly",
      weekPart: "workdays",
      ...(period ? { period: period as Period } : {}),
    }),
  ],
  [
    rx(
      String.raw`${START}(?:on\s+)?${EVERY}\s+(?:(other|second)\s+)?weekend(?:\s+days?)?${END}|${START}on\s+(?:the\s+)?weekends${END}|${START}weekends${END}(?=\s+(?:at|@|from|until|till)${END}|\s*[,.!]|\s*$)`,
    ),
    ([, other]) => ({ type: "weekly", weekPart: "weekend", ...(other ? { interval: 2 } : {}) }),
  ],
  [
    rx(
      String.raw`${START}(?:${HE_EVERY}\s+יום\s+(?:חול|עבודה)|ו?ב?ימי\s+(?:ה?חול|ה?עבודה)|ו?ב?ימות\s+ה?חול)${END}`,
    ),
    () => ({ type: "weekly", weekPart: "workdays" }),
  ],
  [
    rx(
      String.raw`${START}(?:${HE_EVERY}\s+(?:סופ"ש|סופש|סוף[\s-]+שבוע)|ו?ב?סופי[\s-]+שבוע|ו?ב?סופ"שים)${END}`,
    ),
    () => ({ type: "weekly", weekPart: "weekend" }),
  ],
  // A range of weekdays: "every Monday to Friday", "each day from Sunday through Thursday", "כל יום
  // מראשון עד חמישי".
  [
    rx(
      String.raw`${START}(?:on\s+)?${EVERY}\s+(?:day\s+)?(?:from\s+)?(${EN_WEEKDAY_ONE})\s+(?:to|through|thru|till|until|-|–)\s+(${EN_WEEKDAY_ONE})${END}|${START}${HE_EVERY}\s+(?:יום\s+)?מ-?(?:יום\s+)?(${HE_WEEKDAY_ONE})\s+ו?עד\s+(?:יום\s+)?(${HE_WEEKDAY_ONE})${END}`,
    ),
    ([, e1, e2, h1, h2]) => {
      const from = e1 ? EN_WEEKDAYS.indexOf(e1) : HE_WEEKDAYS.indexOf(h1 ?? "");
      const to = e2 ? EN_WEEKDAYS.indexOf(e2) : HE_WEEKDAYS.indexOf(h2 ?? "");
      if (from < 0 || to < 0 || from === to) return undefined;
      const days = Array.from({ length: ((to - from + 7) % 7) + 1 }, (_, i) => (from + i) % 7);
      return { type: "weekly", days: days.sort((a, b) => a - b) };
    },
  ],
  // "כל שבוע שני": every second week.
  [rx(String.raw`${START}${HE_EVERY}\s+שבוע\s+שני${END}`), () => ({ type: "weekly", interval: 2 })],
  // Every other named weekday: "every other Tuesday", "every other Monday and Thursday".
  [
    rx(String.raw`${START}(?:on\s+)?${EVERY}\s+other\s+(${EN_WEEKDAY_LIST})${END}`),
    ([, list]) => ({ type: "weekly", interval: 2, days: weekdaysIn(list ?? "") }),
  ],
  // Every N days, weeks (on named days), months (on a day) or years.
  [
    rx(
      String.raw`${START}(?:once\s+)?${EVERY}\s+(?:(\d+)(?:st|nd|rd|th)?\s*|(other|second|third|fourth|(?:a\s+)?couple\s+of|${EN_COUNT_WORDS})\s+)(?:(days?)|(weeks?)(?:\s+on\s+(${EN_WEEKDAY_LIST}))?|(months?)(?:\s+on\s+the\s+(?:${ORDINAL}(?:\s+(?:day\s+)?of\s+the\s+month)?|(last)\s+day(?:\s+of\s+the\s+month)?))?|(years?))${END}|${START}(?:(?:once\s+)?${EVERY}\s+fortnight|fortnightly)(?:\s+on\s+(${EN_WEEKDAY_LIST}))?${END}`,
    ),
    ([, digits, word, day, week, weekDays, month, monthDay, last, year, fortnightDays]) => {
      if (digits === undefined && word === undefined) {
        return { type: "weekly", interval: 2, days: weekdaysIn(fortnightDays ?? "") };
      }
      const interval = everyCount(digits, word);
      const type = typeOfUnit(day ?? week ?? month ?? year ?? "");
      return {
        type,
        interval,
        ...(week ? { days: weekdaysIn(weekDays ?? "") } : {}),
        ...(last ? { dayOfMonth: -1 } : monthDay ? { dayOfMonth: dayOfMonthOf(monthDay) } : {}),
      };
    },
  ],
  [
    rx(
      String.raw`${START}(?:${HE_EVERY}\s+|פעם\s+ב-?)(?:(\d+|${HE_NUMBER_WORDS})\s*-?\s*)?(?:(יומיים|ימים)|(שבועיים|שבועות)(?:\s+ב-?\s*(${HE_WEEKDAY_LIST}))?|(חודשיים|חודשים)(?:\s+ב-?\s*(?:ה-?)?(\d{1,2})\s+[לב]חודש|\s+ב-?יום\s+ה?(אחרון)(?:\s+${HE_OF_THE_MONTH})?)?|(שנתיים|שנים))${END}`,
    ),
    ([, countText, day, week, weekDays, month, monthDay, last, year]) => {
      const unit = day ?? week ?? month ?? year ?? "";
      const dual = /יים$/u.test(unit);
      // "כל יומיים" is two days; a count goes with the plural ("כל 3 ימים"), not with the dual.
      if ((countText === undefined) !== dual) return undefined;
      return {
        type: typeOfUnit(unit),
        interval: dual ? 2 : (countOf(countText ?? "") ?? 0),
        ...(week ? { days: weekdaysIn(weekDays ?? "") } : {}),
        ...(last ? { dayOfMonth: -1 } : monthDay ? { dayOfMonth: dayOfMonthOf(monthDay) } : {}),
      };
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
      String.raw`${START}(?:(?:${EVERY}\s+month|monthly)\s+on\s+the\s+${ORDINAL}|(?:on\s+)?the\s+${ORDINAL}\s+(?:day\s+)?of\s+(?:every|each)\s+month|${EVERY}\s+(\d{1,2})(?:st|nd|rd|th)(?:\s+(?:day\s+)?of\s+the\s+month)?)${END}(?!\s*(?:,|and\s|&|or\s)|\s+(?:${EN_WEEKDAY_ONE}))`,
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
  // Yearly, on the date said with it ("every year on March 3", "every March 3", "כל שנה ב-3 במרץ").
  [
    rx(
      String.raw`${START}(?:(?:once\s+)?${EVERY}\s+year|once\s+a\s+year)${END}|${START}(?:yearly|annually)${BARE_END}|${START}${EVERY}(?=\s+(?:the\s+)?(?:(?:${EN_MONTH_WORDS})\.?\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:${EN_MONTH_WORDS}))${END})`,
    ),
    () => ({ type: "yearly" }),
  ],
  [
    rx(
      String.raw`${START}(?:${HE_EVERY}\s+שנה|פעם\s+בשנה)${END}|${START}${HE_EVERY}(?=\s+(?:ה-?)?\d{1,2}\s*(?:[בל]\s*-?\s*)?(?:${HE_MONTH_WORDS})${END})`,
    ),
    () => ({ type: "yearly" }),
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
