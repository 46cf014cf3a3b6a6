/**
 * Turns what the resolver LLM named ("tomorrow at 9", "בעוד שעתיים", "2026-04-03T09:00") into an
 * instant, in code and in the user's zone (D6). Hebrew and English.
 *
 * The phrase is scanned for mentions (a relative offset, a date or day word, a weekday, a clock time,
 * a part of the day); each mention found is cut out of the text so that the next scan cannot reuse
 * it. The mentions are then combined into one instant, or null when they are missing or disagree.
 */
import {
  addDays,
  addMonths,
  dayOfWeek,
  daysInMonth,
  instantToLocal,
  isValidLocalDateTime,
  localToInstant,
  parseClock,
  type LocalDate,
} from "./zonedTime.js";

export interface ResolvedWhen {
  /** Epoch ms. */
  at: number;
  /** Only a date was named (no clock time); `at` is that date at `defaultTime`. */
  dateOnly: boolean;
}

export interface ResolveWhenOptions {
  /** Local "HH:mm" used when only a date is named (default: "09:00"). */
  defaultTime?: string;
}

type Period = "morning" | "noon" | "afternoon" | "evening" | "night";

/** A clock time as said: certain 24h, am, pm, open (1–12 with no am/pm) or midnight. */
interface Clock {
  hour: number;
  minute: number;
  kind: "exact" | "am" | "pm" | "open" | "midnight";
}

/** A wall time on the named day, or (dayOffset 1) just after it: "tonight at 1", midnight. */
interface Slot {
  dayOffset: number;
  hour: number;
  minute: number;
}

type Relative = { kind: "duration"; ms: number } | { kind: "calendar"; days: number; months: number };

/** Everything a phrase mentioned, before it becomes an instant. */
interface Mentions {
  /** A mention could not be read ("February 30", "25:00", "in 1.5 days"): the phrase is unresolvable. */
  impossible: boolean;
  relatives: Relative[];
  /** Concrete dates: "tomorrow", "April 3", "2026-04-03". */
  dates: LocalDate[];
  weekdays: { day: number; strictlyAfterToday: boolean }[];
  clocks: Clock[];
  /** Parts of the day said outright ("in the evening", "בערב"); `standalone` if it can stand alone. */
  periods: { period: Period; standalone: boolean }[];
  /** Parts of the day implied by a day word: "tonight" → night. */
  impliedPeriods: Period[];
}

const MINUTE_MS = 60_000;

/** The wall time a part of the day means when no clock time is given ("tonight" → 20:00). */
const PERIOD_DEFAULT: Record<Period, Slot> = {
  morning: { dayOffset: 0, hour: 9, minute: 0 },
  noon: { dayOffset: 0, hour: 12, minute: 0 },
  afternoon: { dayOffset: 0, hour: 16, minute: 0 },
  evening: { dayOffset: 0, hour: 20, minute: 0 },
  night: { dayOffset: 0, hour: 20, minute: 0 },
};

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

// prettier-ignore
const EN_COUNTS = new Map([
  ["a", 1], ["an", 1], ["one", 1], ["two", 2], ["three", 3], ["four", 4], ["five", 5], ["six", 6],
  ["seven", 7], ["eight", 8], ["nine", 9], ["ten", 10], ["eleven", 11], ["twelve", 12], ["fifteen", 15],
  ["twenty", 20], ["thirty", 30], ["forty", 40], ["forty-five", 45], ["fifty", 50],
]);

/** Hebrew hours on the clock (feminine, as hours are said): "בשמונה", "באחת עשרה". */
// prettier-ignore
const HE_HOURS = new Map([
  ["אחת", 1], ["שתיים", 2], ["שתים", 2], ["שלוש", 3], ["ארבע", 4], ["חמש", 5], ["שש", 6], ["שבע", 7],
  ["שמונה", 8], ["תשע", 9], ["עשר", 10], ["אחת עשרה", 11], ["שתים עשרה", 12], ["שתיים עשרה", 12],
]);

/** Hebrew counts of units, both genders: "חמש דקות", "שלושה ימים". */
// prettier-ignore
const HE_COUNTS = new Map([
  ...HE_HOURS,
  ["אחד", 1], ["שתי", 2], ["שני", 2], ["שלושה", 3], ["ארבעה", 4], ["חמישה", 5], ["שישה", 6], ["שבעה", 7],
  ["תשעה", 9], ["עשרה", 10], ["עשרים", 20], ["שלושים", 30], ["ארבעים", 40], ["חמישים", 50],
]);

/** Hebrew amounts said in one word or phrase: "שעתיים", "רבע שעה", "שבועיים". */
// prettier-ignore
const HE_AMOUNTS = new Map<string, Relative>([
  ["דקה", duration(1)], ["דקותיים", duration(2)], ["רבע שעה", duration(15)], ["חצי שעה", duration(30)],
  ["שלושת רבעי שעה", duration(45)], ["שעה", duration(60)], ["שעה ורבע", duration(75)],
  ["שעה וחצי", duration(90)], ["שעתיים", duration(120)],
  ["יום", calendar(1, 0)], ["יומיים", calendar(2, 0)], ["שבוע", calendar(7, 0)], ["שבועיים", calendar(14, 0)],
  ["חודש", calendar(0, 1)], ["חודשיים", calendar(0, 2)],
]);

// prettier-ignore
const EN_MONTHS = new Map([
  ["january", 1], ["jan", 1], ["february", 2], ["feb", 2], ["march", 3], ["mar", 3], ["april", 4], ["apr", 4],
  ["may", 5], ["june", 6], ["jun", 6], ["july", 7], ["jul", 7], ["august", 8], ["aug", 8], ["september", 9],
  ["sept", 9], ["sep", 9], ["october", 10], ["oct", 10], ["november", 11], ["nov", 11], ["december", 12],
  ["dec", 12],
]);

// prettier-ignore
const HE_MONTHS = new Map([
  ["ינואר", 1], ["פברואר", 2], ["מרץ", 3], ["מרס", 3], ["אפריל", 4], ["מאי", 5], ["יוני", 6], ["יולי", 7],
  ["אוגוסט", 8], ["ספטמבר", 9], ["אוקטובר", 10], ["נובמבר", 11], ["דצמבר", 12],
]);

const EN_WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const HE_WEEKDAYS = ["ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת"];

/** Day words: days after today, and the part of the day they imply. */
// prettier-ignore
const DAY_WORDS = new Map<string, { days: number; period?: Period }>([
  ["day after tomorrow", { days: 2 }], ["tomorrow", { days: 1 }], ["today", { days: 0 }],
  ["tonight", { days: 0, period: "night" }], ["this morning", { days: 0, period: "morning" }],
  ["this afternoon", { days: 0, period: "afternoon" }], ["this evening", { days: 0, period: "evening" }],
  ["מחרתיים", { days: 2 }], ["מחר", { days: 1 }], ["היום", { days: 0 }], ["הבוקר", { days: 0, period: "morning" }],
  ["הערב", { days: 0, period: "evening" }], ["הלילה", { days: 0, period: "night" }],
]);

function duration(minutes: number): Relative {
  return { kind: "duration", ms: minutes * MINUTE_MS };
}

function calendar(days: number, months: number): Relative {
  return { kind: "calendar", days, months };
}

// ---------------------------------------------------------------------------------------------
// Patterns. \b does not see Hebrew letters, so word edges are explicit Unicode lookarounds.
// ---------------------------------------------------------------------------------------------

/** Not inside a word or number. */
const START = String.raw`(?<![\p{L}\p{N}])`;
const END = String.raw`(?![\p{L}\p{N}])`;
/** Words that make a number a count, not a clock time ("ב-3 ימים"). */
const COUNT_UNITS = String.raw`minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|דקות|דקה|שעות|ימים|יום|שבועות|שבוע|חודשים|חודש|שנים|שנה`;
/** After a clock time: not a date like 3/4 or 3.4, not a count, not a percentage. */
const TIME_END = String.raw`(?![\p{L}\p{N}])(?![/.,:]\p{N})(?!\s*-?\s*[בל]?-?(?:${COUNT_UNITS})(?!\p{L}))(?!\s*%)`;
/** "ב-", "ב", "ב " and "בשעה" before a Hebrew clock time, with an optional "ו" (and). */
const HE_AT = String.raw`ו?(?:בשעה|ב)\s*-?\s*`;

/** An alternation of words, longest first; a space inside a phrase matches any spaces or a hyphen. */
function words(list: Iterable<string>): string {
  return [...list]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/ /gu, String.raw`[\s-]+`))
    .join("|");
}

const rx = (source: string) => new RegExp(source, "gu");

const EN_UNIT = String.raw`minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?`;
const HE_UNIT = String.raw`דקות|דקה|שעות|שעה|ימים|יום|שבועות|שבוע|חודשים|חודש`;

const PATTERNS = {
  isoDateTime: new RegExp(
    String.raw`(?<![\p{N}-])(\d{4})-(\d{2})-(\d{2})[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(z|[+-]\d{2}(?::?\d{2})?)?(?![\p{N}:])`,
    "u",
  ),
  isoDate: rx(String.raw`(?<![\p{N}-])(\d{4})-(\d{2})-(\d{2})(?![\p{N}-])`),
  enRelative: rx(
    String.raw`${START}in\s+(?:(\d+(?:\.\d+)?)\s*|(${words(EN_COUNTS.keys())})\s+)(${EN_UNIT})(\s+and\s+a\s+half)?${END}`,
  ),
  enHalfHour: rx(String.raw`${START}in\s+(?:half\s+an?|a\s+half)\s+hour${END}`),
  enQuarterHour: rx(String.raw`${START}in\s+(?:a\s+)?quarter\s+(?:of\s+an?\s+)?hour${END}`),
  heRelative: rx(
    String.raw`${START}ו?ב?עוד\s+(?:(\d+(?:\.\d+)?|${words(HE_COUNTS.keys())})\s*-?\s*(${HE_UNIT})(\s+וחצי)?|(${words(HE_AMOUNTS.keys())}))${END}`,
  ),
  enMonthDay: rx(
    String.raw`${START}(?:on\s+)?(${words(EN_MONTHS.keys())})\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?(?![\p{L}\p{N}:/.])`,
  ),
  enDayMonth: rx(
    String.raw`${START}(?:on\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(${words(EN_MONTHS.keys())})\.?(?:,?\s+(\d{4}))?${END}`,
  ),
  heDayMonth: rx(
    String.raw`(?<![\p{N}/.:])(\d{1,2})\s*(?:[בל]\s*-?\s*)?(${words(HE_MONTHS.keys())})(?:\s+(\d{4}))?${END}`,
  ),
  enNoonMidnight: rx(String.raw`${START}(?:at\s+)?(noon|midday|midnight)${END}`),
  heMidnight: rx(String.raw`${START}ו?ב?חצות(?:\s+הלילה)?${END}`),
  enDayWord: rx(
    String.raw`${START}(?:the\s+)?(day\s+after\s+tomorrow|tomorrow|today|tonight|this\s+(?:morning|afternoon|evening))${END}`,
  ),
  heDayWord: rx(String.raw`${START}[ולמ]{0,2}(מחרתיים|מחר|היום|הבוקר|הערב|הלילה)${END}`),
  enWeekday: rx(
    String.raw`${START}(?:on\s+)?(?:(next|this|this\s+coming|coming)\s+)?(${words(EN_WEEKDAYS)})${END}`,
  ),
  // A bare weekday word is often something else ("שני" is also "two"), so it needs "יום", a "ב"
  // prefix or "הבא"/"הקרוב" after it; the reader checks which.
  heWeekday: rx(
    String.raw`${START}([ובל]{0,2})(?:(יום)\s+)?(${words(HE_WEEKDAYS)})(?:\s+(הבא|הקרוב|הזה))?${END}`,
  ),
  enAmPm: rx(String.raw`(?<![\p{L}\p{N}:.])(?:at\s+|@\s*)?(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?(?!\p{L})`),
  heWordClock: rx(String.raw`${START}${HE_AT}(${words(HE_HOURS.keys())})(?:\s+(וחצי|ורבע))?${END}`),
  heDigitClock: rx(String.raw`${START}${HE_AT}(\d{1,2})(?::(\d{2}))?(?:\s+(וחצי|ורבע))?${TIME_END}`),
  enAtClock: rx(String.raw`${START}(?:at|@)\s*(\d{1,2})(?::(\d{2}))?(?:\s*o'?clock)?${TIME_END}`),
  colonClock: rx(String.raw`(?<![\p{L}\p{N}:/.])(\d{1,2}):(\d{2})${TIME_END}`),
  // A bare hour is a time only next to a part of the day: "9 in the evening", "8 בערב".
  periodClock: rx(
    String.raw`(?<![\p{L}\p{N}:/.])(\d{1,2})(?=\s+(?:in\s+the\s+(?:morning|afternoon|evening)|at\s+night|ו?(?:בבוקר|בצהר|אחה|אחר|בערב|בלילה)))`,
  ),
  heAfternoon: rx(String.raw`${START}ו?ב?(?:אחה"?צ|אחרי?\s+ה?צהרי?ים)${END}`),
  heNoon: rx(String.raw`${START}ו?(ב)?ה?צהרי?ים${END}`),
  heMorning: rx(String.raw`${START}ו?(ב)?בוקר${END}`),
  heEvening: rx(String.raw`${START}ו?(ב)?ערב${END}`),
  heNight: rx(String.raw`${START}ו?(ב)?לילה${END}`),
  enPeriod: rx(String.raw`${START}(in\s+the\s+)?(morning|afternoon|evening)${END}`),
  enNight: rx(String.raw`${START}(at\s+)?night${END}`),
};

// ---------------------------------------------------------------------------------------------
// Scanning
// ---------------------------------------------------------------------------------------------

/** Lower case, one kind of dash and quote, no bidi marks, single spaces. */
function normalize(text: string): string {
  return text
    .normalize("NFC")
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, "")
    .replace(/[\u05be\u2010-\u2015\u2212]/gu, "-")
    .replace(/[\u05f4\u201c\u201d]/gu, '"')
    .replace(/[\u05f3\u2018\u2019`]/gu, "'")
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .trim();
}

/** Text from which each accepted mention is cut out, so that later patterns cannot reuse it. */
class Scanner {
  constructor(private text: string) {}

  /** Every match that `read` accepts (does not return undefined for), cut out of the text. */
  take<T>(pattern: RegExp, read: (m: RegExpMatchArray) => T | undefined): T[] {
    const found: T[] = [];
    let rest = "";
    let last = 0;
    for (const m of this.text.matchAll(pattern)) {
      const value = read(m);
      if (value === undefined) continue;
      found.push(value);
      const start = m.index ?? 0;
      // A separator, so that the words on either side do not join into a new mention.
      rest += `${this.text.slice(last, start)} | `;
      last = start + m[0].length;
    }
    this.text = rest + this.text.slice(last);
    return found;
  }
}

/** "3", "three", "שלושה" → 3. */
function countOf(word: string): number | null {
  if (/^\d/u.test(word)) return Number(word);
  return EN_COUNTS.get(word) ?? HE_COUNTS.get(word.replace(/[\s-]+/gu, " ")) ?? null;
}

/** A count of a unit as a relative offset; days, weeks and months must be whole. */
function relativeOf(count: number, unit: string): Relative | null {
  if (/^(?:min|דק)/u.test(unit)) return duration(count);
  if (/^(?:h|שע)/u.test(unit)) return duration(count * 60);
  const calendarCount = /^(?:week|שבוע)/u.test(unit) ? count * 7 : count;
  if (!Number.isInteger(calendarCount)) return null;
  return /^(?:month|חודש)/u.test(unit) ? calendar(0, calendarCount) : calendar(calendarCount, 0);
}

/** A month and day, in `year` if given, else this year or (if already past) next year. */
function dateOf(today: LocalDate, month: number, day: number, year?: string): LocalDate | null {
  let y = year ? Number(year) : today.year;
  if (!year && (month < today.month || (month === today.month && day < today.day))) y += 1;
  return day >= 1 && day <= daysInMonth(y, month) ? { year: y, month, day } : null;
}

/** A clock time from its digits (and "וחצי"/"ורבע"); null when past 23:59. */
function clockOf(hourText: string, minuteText: string | undefined, half?: string): Clock | null {
  const hour = Number(hourText);
  const minute =
    minuteText !== undefined ? Number(minuteText) : half === "וחצי" ? 30 : half === "ורבע" ? 15 : 0;
  if (hour > 23 || minute > 59) return null;
  // "09:00" and "17" are 24h; "9" and "9:30" could be morning or evening.
  const exact = hour === 0 || hour > 12 || (hourText.length === 2 && hourText.startsWith("0"));
  return { hour, minute, kind: exact ? "exact" : "open" };
}

const notNull = <T>(value: T | null): value is T => value !== null;

/**
 * Finds the mentions in normalized text; `today` anchors day words and dates without a year.
 * Order matters: counts and dates go first so that "בעוד 3 שעות" or "ב-3 באפריל" is not read as
 * "at 3"; clock times go before parts of the day so that "8 בערב" still sees its "בערב".
 */
function scan(text: string, today: LocalDate): Mentions {
  const s = new Scanner(text);
  const period = (p: Period, standalone: boolean) => ({ period: p, standalone });

  const relatives = [
    ...s.take(PATTERNS.enHalfHour, () => duration(30)),
    ...s.take(PATTERNS.enQuarterHour, () => duration(15)),
    ...s.take(PATTERNS.enRelative, ([, digits, word, unit, andAHalf]) => {
      const count = countOf(digits ?? word ?? "");
      return count === null || !unit ? null : relativeOf(count + (andAHalf ? 0.5 : 0), unit);
    }),
    ...s.take(PATTERNS.heRelative, ([, countText, unit, andAHalf, amount]) => {
      if (amount) return HE_AMOUNTS.get(amount.replace(/[\s-]+/gu, " ")) ?? undefined;
      const count = countOf(countText ?? "");
      return count === null || !unit ? null : relativeOf(count + (andAHalf ? 0.5 : 0), unit);
    }),
  ];

  const impliedPeriods: Period[] = [];
  const dayWord = (word: string) => {
    const entry = DAY_WORDS.get(word.replace(/\s+/gu, " "));
    if (!entry) return undefined;
    if (entry.period) impliedPeriods.push(entry.period);
    return addDays(today, entry.days);
  };
  const dates: (LocalDate | null)[] = [
    ...s.take(PATTERNS.isoDate, ([, y, m, d]) =>
      Number(m) >= 1 && Number(m) <= 12 ? dateOf(today, Number(m), Number(d), y) : null,
    ),
    ...s.take(PATTERNS.enMonthDay, ([, month, day, year]) =>
      dateOf(today, EN_MONTHS.get(month ?? "") ?? 0, Number(day), year),
    ),
    ...s.take(PATTERNS.enDayMonth, ([, day, month, year]) =>
      dateOf(today, EN_MONTHS.get(month ?? "") ?? 0, Number(day), year),
    ),
    ...s.take(PATTERNS.heDayMonth, ([, day, month, year]) =>
      dateOf(today, HE_MONTHS.get(month ?? "") ?? 0, Number(day), year),
    ),
  ];

  const clocks: (Clock | null)[] = [
    ...s.take(PATTERNS.enNoonMidnight, ([, word]): Clock =>
      word === "midnight" ? { hour: 0, minute: 0, kind: "midnight" } : { hour: 12, minute: 0, kind: "exact" },
    ),
    ...s.take(PATTERNS.heMidnight, (): Clock => ({ hour: 0, minute: 0, kind: "midnight" })),
  ];

  dates.push(
    ...s.take(PATTERNS.enDayWord, ([, word]) => dayWord(word ?? "")),
    ...s.take(PATTERNS.heDayWord, ([, word]) => dayWord(word ?? "")),
  );

  const weekdays = [
    ...s.take(PATTERNS.enWeekday, ([, next, day]) => ({
      day: EN_WEEKDAYS.indexOf(day ?? ""),
      strictlyAfterToday: next === "next",
    })),
    ...s.take(PATTERNS.heWeekday, ([, prefix, yom, day, after]) =>
      yom || prefix?.includes("ב") || after
        ? { day: HE_WEEKDAYS.indexOf(day ?? ""), strictlyAfterToday: after === "הבא" }
        : undefined,
    ),
  ];

  clocks.push(
    ...s.take(PATTERNS.enAmPm, ([, h, m, ap]): Clock | null => {
      const hour = Number(h);
      const minute = Number(m ?? 0);
      if (hour < 1 || hour > 12 || minute > 59) return null;
      return { hour, minute, kind: ap === "a" ? "am" : "pm" };
    }),
    ...s.take(PATTERNS.heWordClock, ([, word, half]) => {
      const hour = HE_HOURS.get((word ?? "").replace(/[\s-]+/gu, " "));
      return hour === undefined ? undefined : clockOf(String(hour), undefined, half);
    }),
    ...s.take(PATTERNS.heDigitClock, ([, h, m, half]) => clockOf(h ?? "", m, half)),
    ...s.take(PATTERNS.enAtClock, ([, h, m]) => clockOf(h ?? "", m)),
    ...s.take(PATTERNS.colonClock, ([, h, m]) => clockOf(h ?? "", m)),
    ...s.take(PATTERNS.periodClock, ([, h]) => clockOf(h ?? "", undefined)),
  );

  const periods = [
    ...s.take(PATTERNS.heAfternoon, () => period("afternoon", true)),
    ...s.take(PATTERNS.heNoon, ([, b]) => period("noon", b !== undefined)),
    ...s.take(PATTERNS.heMorning, ([, b]) => period("morning", b !== undefined)),
    ...s.take(PATTERNS.heEvening, ([, b]) => period("evening", b !== undefined)),
    ...s.take(PATTERNS.heNight, ([, b]) => period("night", b !== undefined)),
    ...s.take(PATTERNS.enPeriod, ([, inThe, p]) => period(p as Period, inThe !== undefined)),
    ...s.take(PATTERNS.enNight, ([, at]) => period("night", at !== undefined)),
  ];

  return {
    impossible: [relatives, dates, clocks].some((list) => list.includes(null)),
    relatives: relatives.filter(notNull),
    dates: dates.filter(notNull),
    weekdays,
    clocks: clocks.filter(notNull),
    periods,
    impliedPeriods,
  };
}

// ---------------------------------------------------------------------------------------------
// Resolving
// ---------------------------------------------------------------------------------------------

/** The wall times a clock time can mean on the named day, earliest first. */
function slotsOf(clock: Clock, period: Period | undefined): Slot[] {
  const { hour, minute } = clock;
  const at = (h: number, dayOffset = 0): Slot[] => [{ dayOffset, hour: h, minute }];
  switch (clock.kind) {
    case "midnight":
      return at(0, 1); // the midnight that ends the named day
    case "exact":
      return at(hour);
    case "am":
      return at(hour % 12);
    case "pm":
      return at((hour % 12) + 12);
    case "open":
      break;
  }
  switch (period) {
    case "morning":
      return at(hour % 12);
    case "noon":
      return at(hour >= 11 ? hour : hour + 12);
    case "afternoon":
      return at((hour % 12) + 12);
    case "evening":
      return hour === 12 ? at(0, 1) : at(hour + 12);
    case "night":
      // "at 2 at night" is the small hours after the named day; "at 10 at night" is 22:00.
      if (hour === 12) return at(0, 1);
      return hour <= 4 ? at(hour, 1) : at(hour + 12);
    default:
      // No am/pm: either reading; the caller takes the first still ahead.
      return hour === 12 ? at(12) : [...at(hour), ...at(hour + 12)];
  }
}

function sameDate(a: LocalDate, b: LocalDate): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

/**
 * One function turning what the resolver LLM named (a local date-time or the user's own phrase) into
 * an instant, in code (D6). Returns null when it cannot tell.
 */
export function resolveWhen(
  expression: string,
  nowMs: number,
  timeZone: string,
  options: ResolveWhenOptions = {},
): ResolvedWhen | null {
  const defaultClock = parseClock(options.defaultTime ?? "09:00");
  if (!defaultClock) throw new RangeError(`defaultTime is not "HH:mm": ${options.defaultTime}`);
  const text = normalize(expression);
  const iso = isoInstant(text, timeZone);
  if (iso !== undefined) return iso === null ? null : { at: iso, dateOnly: false };

  const now = instantToLocal(nowMs, timeZone);
  const today: LocalDate = { year: now.year, month: now.month, day: now.day };
  const found = scan(text, today);
  if (found.impossible) return null;

  const { relatives, weekdays, clocks } = found;
  const dates = found.dates.filter((d, i) => found.dates.findIndex((e) => sameDate(d, e)) === i);
  const explicitPeriods = [...new Set(found.periods.map((p) => p.period))];
  if (relatives.length > 1 || clocks.length > 1 || dates.length > 1 || weekdays.length > 1) return null;
  if (explicitPeriods.length > 1) return null;

  const relative = relatives[0];
  const clock = clocks[0];
  const weekday = weekdays[0];
  const period = explicitPeriods[0] ?? found.impliedPeriods[0];
  const date = dates[0];

  if (relative?.kind === "duration") {
    const alone = !clock && !date && !weekday && !period;
    return alone ? { at: nowMs + relative.ms, dateOnly: false } : null;
  }
  if (relative && (date || weekday)) return null;
  if (weekday && date) {
    if (dayOfWeek(date) !== weekday.day) return null;
  }
  const standalonePeriod = found.periods.some((p) => p.standalone) || found.impliedPeriods.length > 0;
  if (!relative && !date && !weekday && !clock && !standalonePeriod) return null;

  // The wall times asked for; none means only a date was named.
  const slots = clock ? slotsOf(clock, period) : period ? [PERIOD_DEFAULT[period]] : null;
  const timesOn = (day: LocalDate, wanted: Slot[]) =>
    wanted.map((s) =>
      localToInstant({ ...addDays(day, s.dayOffset), hour: s.hour, minute: s.minute }, timeZone),
    );
  /** The first wall time still ahead on `day`, else (unless `aheadOnly`) the last one. */
  const pick = (day: LocalDate, wanted: Slot[], aheadOnly: boolean): number | null => {
    const times = timesOn(day, wanted);
    return times.find((t) => t > nowMs) ?? (aheadOnly ? null : (times.at(-1) ?? null));
  };
  const result = (at: number | null, dateOnly: boolean) => (at === null ? null : { at, dateOnly });
  const defaultSlot: Slot = { dayOffset: 0, ...defaultClock };

  if (relative) {
    const target = addMonths(addDays(today, relative.days), relative.months);
    if (slots) return result(pick(target, slots, false), false);
    // Days, weeks and months keep the wall time, to the millisecond (D6).
    const sameWallTime = localToInstant({ ...target, hour: now.hour, minute: now.minute }, timeZone);
    return result(sameWallTime + (((nowMs % MINUTE_MS) + MINUTE_MS) % MINUTE_MS), false);
  }
  if (date) return result(pick(date, slots ?? [defaultSlot], false), !slots);
  if (weekday) {
    for (let offset = weekday.strictlyAfterToday ? 1 : 0; offset <= 7; offset++) {
      const day = addDays(today, offset);
      if (dayOfWeek(day) !== weekday.day) continue;
      const at = pick(day, slots ?? [defaultSlot], true);
      if (at !== null) return result(at, !slots);
    }
    return null;
  }
  if (!slots) return null;
  // A bare time: today if still ahead, else tomorrow.
  return result(pick(today, slots, true) ?? pick(addDays(today, 1), slots, false), false);
}

/**
 * An ISO date-time anywhere in the text: with Z or an offset, that instant; without, wall time in the
 * zone. undefined when there is none; null when it names an impossible date or time.
 */
function isoInstant(text: string, timeZone: string): number | null | undefined {
  const m = PATTERNS.isoDateTime.exec(text);
  if (!m) return undefined;
  const field = (i: number) => Number(m[i] ?? 0);
  const local = { year: field(1), month: field(2), day: field(3), hour: field(4), minute: field(5) };
  const second = field(6);
  const millis = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  if (!isValidLocalDateTime(local) || second > 59) return null;
  const zone = m[8];
  if (zone === undefined) return localToInstant(local, timeZone) + second * 1000 + millis;
  const wallAsUtc = Date.UTC(
    local.year,
    local.month - 1,
    local.day,
    local.hour,
    local.minute,
    second,
    millis,
  );
  if (zone === "z") return wallAsUtc;
  const [, sign, hours, minutes] = /^([+-])(\d{2}):?(\d{2})?$/u.exec(zone) ?? [];
  const offsetMs = (Number(hours) * 60 + Number(minutes ?? 0)) * MINUTE_MS;
  return sign === "-" ? wallAsUtc + offsetMs : wallAsUtc - offsetMs;
}
