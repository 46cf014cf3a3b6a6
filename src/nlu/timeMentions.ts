/**
 * Finds the time mentions in normalized text (a relative offset, a date or day word, a weekday, a
 * clock time, a part of the day, an ISO date-time), each with where it was found. Each mention
 * found is masked out of the text so that the next pattern cannot reuse it.
 */
import {
  DAY_WORDS,
  EN_COUNTS,
  EN_MONTHS,
  EN_WEEKDAYS,
  HE_AMOUNTS,
  HE_COUNTS,
  HE_HOURS,
  HE_MINUTES,
  HE_MINUTES_TO,
  HE_MONTHS,
  HE_WEEKDAYS,
  MINUTE_MS,
  PATTERNS,
  calendar,
  countOf,
  duration,
  words,
  type Clock,
  type Period,
  type Relative,
} from "./timeWords.js";
import { addDays, daysInMonth, isValidLocalDateTime, localToInstant, type LocalDate } from "./zonedTime.js";

/** One thing a text said about time. */
export type Mention =
  | { kind: "instant"; at: number }
  | { kind: "relative"; relative: Relative }
  | { kind: "date"; date: LocalDate; impliedPeriod?: Period }
  | { kind: "weekday"; day: number; strictlyAfterToday: boolean }
  | { kind: "clock"; clock: Clock }
  /** `standalone`: it can name a time on its own ("in the evening", "בערב"), unlike "evening". */
  | { kind: "period"; period: Period; standalone: boolean }
  /**
   * Read as time but impossible ("February 30", "25:00", "in 1.5 days"), or a time that cannot be
   * told safely ("3/4", "on the 10th", "next week", "at 3-4", "at 5 or 6").
   */
  | { kind: "impossible" };

/** A range of the normalized text, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** A mention and where it was found. */
export interface Found extends Span {
  mention: Mention;
}

/** Text from which each accepted match is masked out, so that later patterns cannot reuse it. */
export class Scanner {
  constructor(public text: string) {}

  /** Every match that `read` accepts (does not return undefined for), masked out of the text. */
  take<T>(pattern: RegExp, read: (m: RegExpMatchArray) => T | undefined): (Span & { value: T })[] {
    const taken: (Span & { value: T })[] = [];
    for (const m of this.text.matchAll(pattern)) {
      const value = read(m);
      if (value === undefined) continue;
      const start = m.index ?? 0;
      taken.push({ start, end: start + m[0].length, value });
    }
    for (const { start, end } of taken) this.mask(start, end);
    return taken;
  }

  /** Replaces a range with a separator of the same length, so positions keep their meaning. */
  mask(start: number, end: number): void {
    const length = end - start;
    const mask = length >= 3 ? ` ${"|".repeat(length - 2)} ` : "|".repeat(length);
    this.text = this.text.slice(0, start) + mask + this.text.slice(end);
  }
}

/** Whether only spaces and commas lie between two spans of `text`. */
export function adjacent(a: Span, b: Span, text: string): boolean {
  const [first, second] = a.start <= b.start ? [a, b] : [b, a];
  return second.start >= first.end && /^[\s,]*$/u.test(text.slice(first.end, second.start));
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

/**
 * A clock time from its digits and the Hebrew minute words after them ("ועשרים", "וחצי", "פחות
 * רבע"); null when past 23:59 or when both digits and words give the minutes.
 */
function clockOf(hourText: string, minuteText: string | undefined, minuteWords?: string): Clock | null {
  const said = Number(hourText);
  let hour = said;
  let minute = minuteText !== undefined ? Number(minuteText) : 0;
  if (minuteWords !== undefined) {
    if (minuteText !== undefined) return null;
    const key = minuteWords.replace(/[\s-]+/gu, " ");
    const past = HE_MINUTES.get(key);
    const before = HE_MINUTES_TO.get(key);
    if (past !== undefined) minute = past;
    else if (before !== undefined) {
      if (said < 1) return null;
      // "אחת פחות רבע" is 12:45 (or 00:45 at night), as "one" is the hour after twelve.
      hour = said === 1 ? 12 : said - 1;
      minute = 60 - before;
    } else return null;
  }
  if (said > 23 || minute > 59) return null;
  // "09:00" and "17" are 24h; "9" and "9:30" could be morning or evening.
  const exact = said === 0 || said > 12 || (hourText.length === 2 && hourText.startsWith("0"));
  return { hour, minute, kind: exact ? "exact" : "open" };
}

/** Count words a clock time can be chosen against: "at 5 or six", "ב-8 או תשע" ("a", "an" are not). */
const COUNT_WORDS = words([...EN_COUNTS.keys(), ...HE_COUNTS.keys()].filter((w) => w !== "a" && w !== "an"));
/** A number right after a clock time: a range "at 3-4", a choice "at 5 or 6", "ב-8 ו-20", "ב-8 או תשע". */
const OTHER_NUMBER_AFTER = new RegExp(
  String.raw`^(?:\s*-\s*\d|\s+(?:or|and|או)\s+(?:(?:at|@)\s*|ו?(?:בשעה|ב)\s*-?\s*)?(?:\d|(?:${COUNT_WORDS})(?![\p{L}\p{N}]))|\s+ו-?\s*(?:(?:בשעה|ב)\s*-?\s*)?(?:\d|(?:${COUNT_WORDS})(?![\p{L}\p{N}])))`,
  "u",
);
/** A number right before a clock time: "3-4pm", "5 or 6pm". */
const OTHER_NUMBER_BEFORE = /(?<![\p{N}:])\d{1,2}(?::\d{2})?(?:\s*-\s*|\s+(?:or|או)\s+)$/u;

/**
 * An ISO date-time: with Z or an offset, that instant; without, wall time in the zone; null when it
 * names an impossible date or time.
 */
function isoInstantOf(m: RegExpMatchArray, timeZone: string): number | null {
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

/**
 * Finds the mentions left in the scanner's text; `today` anchors day words and dates without a year.
 * Order matters: counts and dates go first so that "בעוד 3 שעות" or "ב-3 באפריל" is not read as
 * "at 3"; clock times go before parts of the day so that "8 בערב" still sees its "בערב". A part of
 * the day that cannot stand alone ("morning") counts only next to another mention or an `anchor`
 * ("tomorrow morning"), so "good morning" is not a time.
 */
export function scanMentions(s: Scanner, today: LocalDate, timeZone: string, anchors: Span[] = []): Found[] {
  const found: Found[] = [];
  /** Takes every match `read` accepts, as the mention `toMention` makes of it. */
  const take = <T>(
    pattern: RegExp,
    read: (m: RegExpMatchArray) => T | undefined,
    toMention: (value: T) => Mention,
  ) => {
    for (const { start, end, value } of s.take(pattern, read)) {
      found.push({ start, end, mention: toMention(value) });
    }
  };
  const impossible: Mention = { kind: "impossible" };
  const relative = (r: Relative | null): Mention => (r ? { kind: "relative", relative: r } : impossible);
  const date = (d: LocalDate | null, impliedPeriod?: Period): Mention =>
    d ? { kind: "date", date: d, ...(impliedPeriod ? { impliedPeriod } : {}) } : impossible;
  const clock = (c: Clock | null): Mention => (c ? { kind: "clock", clock: c } : impossible);
  const period = (p: Period, standalone: boolean): Mention => ({ kind: "period", period: p, standalone });

  take(
    PATTERNS.isoDateTime,
    (m) => isoInstantOf(m, timeZone),
    (at) => (at === null ? impossible : { kind: "instant", at }),
  );
  take(PATTERNS.enHalfHour, () => duration(30), relative);
  take(PATTERNS.enQuarterHour, () => duration(15), relative);
  take(
    PATTERNS.enRelative,
    ([, digits, word, unit, andAHalf]) => {
      const count = countOf(digits ?? word ?? "");
      return count === null || !unit ? null : relativeOf(count + (andAHalf ? 0.5 : 0), unit);
    },
    relative,
  );
  take(
    PATTERNS.heRelative,
    ([, countText, unit, andAHalf, amount]) => {
      if (amount) return HE_AMOUNTS.get(amount.replace(/[\s-]+/gu, " ")) ?? undefined;
      const count = countOf(countText ?? "");
      return count === null || !unit ? null : relativeOf(count + (andAHalf ? 0.5 : 0), unit);
    },
    relative,
  );

  take(
    PATTERNS.isoDate,
    ([, y, m, d]) => (Number(m) >= 1 && Number(m) <= 12 ? dateOf(today, Number(m), Number(d), y) : null),
    date,
  );
  const monthDay = (months: Map<string, number>) => (month?: string, day?: string, year?: string) =>
    dateOf(today, months.get(month ?? "") ?? 0, Number(day), year);
  take(PATTERNS.enMonthDay, ([, month, day, year]) => monthDay(EN_MONTHS)(month, day, year), date);
  take(PATTERNS.enDayMonth, ([, day, month, year]) => monthDay(EN_MONTHS)(month, day, year), date);
  take(PATTERNS.heDayMonth, ([, day, month, year]) => monthDay(HE_MONTHS)(month, day, year), date);
  // Dates and spans that are not resolved here, so that a clock time beside them is not read as today.
  for (const pattern of [PATTERNS.numericDate, PATTERNS.dayOfMonthOnly, PATTERNS.vagueSpan]) {
    take(
      pattern,
      () => impossible,
      (m: Mention) => m,
    );
  }

  take(
    PATTERNS.enNoonMidnight,
    ([, word]): Clock =>
      word === "midnight" ? { hour: 0, minute: 0, kind: "midnight" } : { hour: 12, minute: 0, kind: "exact" },
    clock,
  );
  take(PATTERNS.heMidnight, (): Clock => ({ hour: 0, minute: 0, kind: "midnight" }), clock);

  const dayWord = ([, word]: RegExpMatchArray) => DAY_WORDS.get((word ?? "").replace(/\s+/gu, " "));
  const dayWordMention = (entry: { days: number; period?: Period }) =>
    date(addDays(today, entry.days), entry.period);
  take(PATTERNS.enDayWord, dayWord, dayWordMention);
  take(PATTERNS.heDayWord, dayWord, dayWordMention);

  const weekday = (day: number, strictlyAfterToday: boolean): Mention => ({
    kind: "weekday",
    day,
    strictlyAfterToday,
  });
  take(
    PATTERNS.enWeekday,
    ([, next, day]) => weekday(EN_WEEKDAYS.indexOf(day ?? ""), next === "next"),
    (m) => m,
  );
  take(
    PATTERNS.heWeekday,
    ([, prefix, yom, day, after, nextWord]) => {
      if (!yom && !prefix?.includes("ב") && !after) return undefined;
      // "בשני מקומות" is "in two places": "שני" before a plural noun is a count.
      if (day === "שני" && !yom && !after && /^[^בלו]\p{L}*(?:ים|ות)$/u.test(nextWord ?? ""))
        return undefined;
      return weekday(HE_WEEKDAYS.indexOf(day ?? ""), after === "הבא");
    },
    (m) => m,
  );

  take(
    PATTERNS.enAmPm,
    ([, h, m, ap]): Clock | null => {
      const hour = Number(h);
      const minute = Number(m ?? 0);
      if (hour < 1 || hour > 12 || minute > 59) return null;
      return { hour, minute, kind: ap === "a" ? "am" : "pm" };
    },
    clock,
  );
  take(
    PATTERNS.heWordClock,
    ([, word, minuteWords]) => {
      const hour = HE_HOURS.get((word ?? "").replace(/[\s-]+/gu, " "));
      return hour === undefined ? undefined : clockOf(String(hour), undefined, minuteWords);
    },
    clock,
  );
  take(PATTERNS.heDigitClock, ([, h, m, minuteWords]) => clockOf(h ?? "", m, minuteWords), clock);
  take(PATTERNS.enAtClock, ([, h, m]) => clockOf(h ?? "", m), clock);
  take(PATTERNS.colonClock, ([, h, m]) => clockOf(h ?? "", m), clock);
  take(PATTERNS.periodClock, ([, h]) => clockOf(h ?? "", undefined), clock);
  // A clock time next to another number is a range or a choice, not one time.
  for (const f of found) {
    if (f.mention.kind !== "clock") continue;
    if (OTHER_NUMBER_AFTER.test(s.text.slice(f.end)) || OTHER_NUMBER_BEFORE.test(s.text.slice(0, f.start)))
      f.mention = impossible;
  }

  const periods: Found[] = [];
  const addPeriods = (pattern: RegExp, read: (m: RegExpMatchArray) => Mention) => {
    for (const { start, end, value } of s.take(pattern, read)) periods.push({ start, end, mention: value });
  };
  addPeriods(PATTERNS.heAfternoon, () => period("afternoon", true));
  addPeriods(PATTERNS.heNoon, ([, b]) => period("noon", b !== undefined));
  addPeriods(PATTERNS.heMorning, ([, b]) => period("morning", b !== undefined));
  addPeriods(PATTERNS.heEvening, ([, b]) => period("evening", b !== undefined));
  addPeriods(PATTERNS.heNight, ([, b]) => period("night", b !== undefined));
  addPeriods(PATTERNS.enPeriod, ([, inThe, p]) => period(p as Period, inThe !== undefined));
  addPeriods(PATTERNS.enNight, ([, at]) => period("night", at !== undefined));

  const neighbours: Span[] = [...found, ...anchors];
  for (const p of periods) {
    const standalone = p.mention.kind === "period" && p.mention.standalone;
    if (standalone || neighbours.some((n) => adjacent(n, p, s.text))) found.push(p);
  }
  return found.sort((a, b) => a.start - b.start);
}
