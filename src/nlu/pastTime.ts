/**
 * Past periods said in words ("last week", "in March", "two years ago", "בשבוע שעבר", "במרץ",
 * "לפני שנתיים"), read in code at the moment they were said, in the user's zone (D6). Long-term
 * memory uses them twice: a fact said with one ("I moved to Haifa last week") becomes true from
 * that period, and a question with one ("where did I live in March?") is answered from what was
 * true then. Under D10 a period is read whole or not at all: vague words ("recently", "a few
 * weeks ago", "לאחרונה") give no period, and the caller keeps the user's words as they were.
 */
import { weekStartOf } from "./week.js";
import {
  addDays,
  addMonths,
  daysInMonth,
  instantToLocal,
  localToInstant,
  type LocalDate,
} from "./zonedTime.js";
import {
  END,
  EN_COUNTS,
  EN_MONTHS,
  EN_NUMBER_WORDS,
  HE_MONTHS,
  HE_NUMBERS,
  HE_NUMBER_WORDS,
  START,
  words,
} from "./timeWords.js";

/** How finely a period was said. */
export type PastPrecision = "day" | "week" | "month" | "year";

/** A past period read from words. */
export interface PastPeriod {
  /** Its first instant (epoch ms). */
  from: number;
  /** The first instant after it (epoch ms); never later than the moment it was said. */
  to: number;
  precision: PastPrecision;
  /** Where its words are in the text, to take them out. */
  start: number;
  end: number;
}

type Unit = PastPrecision;

/** The first local day of the period of `unit` holding `date`. */
function periodStart(date: LocalDate, unit: Unit, timeZone: string): LocalDate {
  switch (unit) {
    case "day":
      return date;
    case "week":
      return weekStartOf(date, timeZone);
    case "month":
      return { ...date, day: 1 };
    case "year":
      return { year: date.year, month: 1, day: 1 };
  }
}

function periodAfter(start: LocalDate, unit: Unit): LocalDate {
  switch (unit) {
    case "day":
      return addDays(start, 1);
    case "week":
      return addDays(start, 7);
    case "month":
      return addMonths(start, 1);
    case "year":
      return addMonths(start, 12);
  }
}

const midnight = (date: LocalDate, timeZone: string) =>
  localToInstant({ ...date, hour: 0, minute: 0 }, timeZone);

/** The period of `unit` that is `back` units before the one holding `now`. */
function unitsBack(now: number, timeZone: string, unit: Unit, back: number): { from: number; to: number } {
  const today = instantToLocal(now, timeZone);
  const shifted =
    unit === "day"
      ? addDays(today, -back)
      : unit === "week"
        ? addDays(today, -7 * back)
        : addMonths(today, unit === "month" ? -back : -12 * back);
  const start = periodStart(shifted, unit, timeZone);
  return { from: midnight(start, timeZone), to: Math.min(now, midnight(periodAfter(start, unit), timeZone)) };
}

/** A month said without a year: the latest such month not after now (March said in November is this year's). */
function pastMonth(
  now: number,
  timeZone: string,
  month: number,
  year?: number,
  thisYearOnly = false,
): { from: number; to: number } {
  const today = instantToLocal(now, timeZone);
  // Said without a year, a later month than this one is last year's; for a fact's start
  // (`thisYearOnly`) only within half a year ("started in December" said in January), never
  // eleven months back ("in December" said in November names the coming one).
  const lastYear = !thisYearOnly || today.month + 12 - month <= 6;
  const y = year ?? (month <= today.month || !lastYear ? today.year : today.year - 1);
  const start = { year: y, month, day: 1 };
  return { from: midnight(start, timeZone), to: Math.min(now, midnight(addMonths(start, 1), timeZone)) };
}

function wholeYear(now: number, timeZone: string, year: number): { from: number; to: number } {
  const start = { year, month: 1, day: 1 };
  return { from: midnight(start, timeZone), to: Math.min(now, midnight(addMonths(start, 12), timeZone)) };
}

const EN_UNITS: Record<string, Unit> = { day: "day", week: "week", month: "month", year: "year" };
const HE_UNIT_PLURALS: Record<string, Unit> = { ימים: "day", שבועות: "week", חודשים: "month", שנים: "year" };
/** Hebrew amounts of one unit in one word: "שבועיים" is two weeks. */
const HE_UNIT_WORDS: Record<string, [Unit, number]> = {
  יום: ["day", 1],
  יומיים: ["day", 2],
  שבוע: ["week", 1],
  שבועיים: ["week", 2],
  חודש: ["month", 1],
  חודשיים: ["month", 2],
  שנה: ["year", 1],
  שנתיים: ["year", 2],
};

const EN_COUNT = `\\d{1,3}|${EN_NUMBER_WORDS}|an|a`;
const HE_COUNT = `\\d{1,3}|${HE_NUMBER_WORDS}`;
const EN_MONTH = words(EN_MONTHS.keys());
const HE_MONTH = words(HE_MONTHS.keys());
const YEAR = "(?:19|20)\\d\\d";

/**
 * How a reading may go: `thisYearOnly` reads a month without a year as this year's, or last
 * year's only within half a year back (a fact's start, where a later month is the coming one).
 */
interface ReadOptions {
  thisYearOnly?: boolean;
}

type Reader = {
  pattern: RegExp;
  read: (
    m: RegExpExecArray,
    now: number,
    timeZone: string,
    options: ReadOptions,
  ) => { from: number; to: number; precision: Unit } | null;
};

const back = (unit: Unit, n: number) => (_m: RegExpExecArray, now: number, zone: string) => ({
  ...unitsBack(now, zone, unit, n),
  precision: unit,
});

const count = (word: string, table: Map<string, number>): number | null =>
  /^\d+$/u.test(word)
    ? Number(word)
    : (table.get(word.toLowerCase().replace(/[\s-]+/gu, " ")) ?? table.get(word) ?? null);

// Longest phrases first within each language: the first reader that matches wins at a position.
const READERS: Reader[] = [
  { pattern: /the\s+day\s+before\s+yesterday/iu, read: back("day", 2) },
  { pattern: /yesterday/iu, read: back("day", 1) },
  { pattern: /(?:earlier\s+)?today|this\s+morning/iu, read: back("day", 0) },
  {
    pattern: /(?:last|previous|this\s+past)\s+(week|month|year)/iu,
    read: (m, now, zone) => {
      const unit = EN_UNITS[m[1]!.toLowerCase()]!;
      return { ...unitsBack(now, zone, unit, 1), precision: unit };
    },
  },
  {
    pattern: /(?:earlier\s+)?this\s+(week|month|year)/iu,
    read: (m, now, zone) => {
      const unit = EN_UNITS[m[1]!.toLowerCase()]!;
      return { ...unitsBack(now, zone, unit, 0), precision: unit };
    },
  },
  {
    pattern: new RegExp(`(${EN_COUNT})\\s+(day|week|month|year)s?\\s+ago`, "iu"),
    read: (m, now, zone) => {
      const n = count(m[1]!, EN_COUNTS);
      const unit = EN_UNITS[m[2]!.toLowerCase()]!;
      return n === null || n > 200 ? null : { ...unitsBack(now, zone, unit, n), precision: unit };
    },
  },
  {
    pattern: new RegExp(
      `(?:(?:(?:back\\s+)?in|since|during|on)\\s+|(?:(?:at|in|by)\\s+)?(?:the\\s+)?(?:start|beginning|middle|end)\\s+of\\s+|(?:in\\s+)?(?:early|mid|late)[\\s-]+)(${EN_MONTH})(?:\\s+(\\d{1,2})(?:st|nd|rd|th)?)?(?:,?\\s+(?:of\\s+)?(${YEAR}))?`,
      "iu",
    ),
    read: (m, now, zone, options) => {
      const month = EN_MONTHS.get(m[1]!.toLowerCase())!;
      const year = m[3] ? Number(m[3]) : undefined;
      const period = pastMonth(now, zone, month, year, options.thisYearOnly);
      if (period.from >= now) return null;
      if (m[2] === undefined) return { ...period, precision: "month" };
      // "on March 5": that day, or nothing when there is no such day (complete or absent).
      const first = instantToLocal(period.from, zone);
      const day = Number(m[2]);
      if (day < 1 || day > daysInMonth(first.year, first.month)) return null;
      const date = { year: first.year, month: first.month, day };
      const from = midnight(date, zone);
      return from >= now
        ? null
        : { from, to: Math.min(now, midnight(addDays(date, 1), zone)), precision: "day" };
    },
  },
  {
    pattern: new RegExp(`(?:(?:back\\s+)?in|since|during)\\s+(${YEAR})`, "iu"),
    read: (m, now, zone) => {
      const period = wholeYear(now, zone, Number(m[1]));
      return period.from >= now ? null : { ...period, precision: "year" };
    },
  },
  { pattern: /שלשום/u, read: back("day", 2) },
  { pattern: /אתמול/u, read: back("day", 1) },
  { pattern: /היום|הבוקר/u, read: back("day", 0) },
  {
    pattern: /(?:ב|ה)?(שבוע|חודש)\s+(?:שעבר|הקודם|האחרון)|(?:ב|ה)?שנה\s+(?:שעברה|הקודמת|האחרונה)/u,
    read: (m, now, zone) => {
      const unit: Unit = m[1] === "שבוע" ? "week" : m[1] === "חודש" ? "month" : "year";
      return { ...unitsBack(now, zone, unit, 1), precision: unit };
    },
  },
  {
    pattern: /(?:ב)?(השבוע|החודש|השנה)/u,
    read: (m, now, zone) => {
      const unit: Unit = m[1] === "השבוע" ? "week" : m[1] === "החודש" ? "month" : "year";
      return { ...unitsBack(now, zone, unit, 0), precision: unit };
    },
  },
  {
    pattern: new RegExp(
      `לפני\\s+(?:(${HE_COUNT})\\s+(ימים|שבועות|חודשים|שנים)|(${words(Object.keys(HE_UNIT_WORDS))}))`,
      "u",
    ),
    read: (m, now, zone) => {
      if (m[3]) {
        const [unit, n] = HE_UNIT_WORDS[m[3]]!;
        return { ...unitsBack(now, zone, unit, n), precision: unit };
      }
      const n = count(m[1]!, HE_NUMBERS);
      const unit = HE_UNIT_PLURALS[m[2]!]!;
      return n === null || n > 200 ? null : { ...unitsBack(now, zone, unit, n), precision: unit };
    },
  },
  {
    pattern: new RegExp(
      `(?:ב(?:תחילת|אמצע|סוף)\\s+|ב|מאז\\s+|מ)-?(?:חודש\\s+)?(${HE_MONTH})(?:\\s+(${YEAR}))?`,
      "u",
    ),
    read: (m, now, zone, options) => {
      const month = HE_MONTHS.get(m[1]!)!;
      const period = pastMonth(now, zone, month, m[2] ? Number(m[2]) : undefined, options.thisYearOnly);
      return period.from >= now ? null : { ...period, precision: "month" };
    },
  },
  {
    pattern: new RegExp(`(?:ב|מאז\\s+|בשנת\\s+)-?(${YEAR})`, "u"),
    read: (m, now, zone) => {
      const period = wholeYear(now, zone, Number(m[1]));
      return period.from >= now ? null : { ...period, precision: "year" };
    },
  },
];

const COMPILED = READERS.map((r) => ({
  ...r,
  pattern: new RegExp(`${START}(?:${r.pattern.source})${END}`, `${r.pattern.flags}g`),
}));

/**
 * The past period the text names, read at `now` in `timeZone`, or null when it names none it can
 * read whole. A period that would start after `now` is never returned: "in 2030" reads as nothing,
 * and "in December" said in November with no year as last December (with `thisYearOnly`, as
 * nothing: a fact that "started in December" is not dated a year back). With several, the first.
 */
export function readPastPeriod(
  text: string,
  now: number,
  timeZone: string,
  options: ReadOptions = {},
): PastPeriod | null {
  let best: PastPeriod | null = null;
  for (const { pattern, read } of COMPILED) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      if (best && m.index >= best.start) break;
      const period = read(m, now, timeZone, options);
      if (period && period.from < now) best = { ...period, start: m.index, end: m.index + m[0].length };
      if (period) break;
    }
  }
  return best;
}

/** The text without the period's words, spaces and dangling punctuation tidied. */
export function withoutPeriod(text: string, period: Pick<PastPeriod, "start" | "end">): string {
  return `${text.slice(0, period.start)} ${text.slice(period.end)}`
    .replace(/\s+([,.;!?])/gu, "$1")
    .replace(/\s{2,}/gu, " ")
    .replace(/[\s,;-]+$/u, "")
    .trim();
}
