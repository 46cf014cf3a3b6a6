/**
 * Finds the time mentions in normalized text (a relative offset, a date or day word, a weekday, a
 * clock time, a part of the day, an ISO date-time), each with where it was found. Each mention
 * found is masked out of the text so that the next pattern cannot reuse it.
 */
import type { YearlyDay } from "./holidays.js";
import { userWeek } from "./week.js";
import {
  DAY_WORDS,
  EN_AMOUNT_WORDS,
  EN_COUNTS,
  EN_HOUR_WORDS,
  EN_NTH_DAYS,
  EN_ORDINAL_DAYS,
  EN_MONTHS,
  EN_WEEKDAYS,
  HE_AMOUNTS,
  HE_HOURS,
  HE_ALL_MINUTES,
  HE_MINUTES_TO,
  HE_MONTHS,
  HE_NUMBERS,
  HE_WEEKDAYS,
  MINUTE_MS,
  PATTERNS,
  SEASON_ZONES,
  ZONE_NAMES,
  calendar,
  countOf,
  duration,
  words,
  type Clock,
  type Period,
  type Relative,
  HE_WEEKDAY_LETTERS,
} from "./timeWords.js";
import {
  addDays,
  addMonths,
  dayOfWeek,
  daysInMonth,
  isValidLocalDateTime,
  localToInstant,
  type LocalDate,
} from "./zonedTime.js";
import type { HebrewDaySaid } from "./hebrewCalendar.js";

/** One thing a text said about time. */
type Mention =
  | { kind: "instant"; at: number }
  | { kind: "relative"; relative: Relative }
  /**
   * `yearly`: a day named by its holiday or Hebrew date, and how "every year" keeps it (holidays.ts);
   * `hebrew`: the Hebrew date a day named by its Hebrew date falls on, shown with a one-off reminder.
   */
  | { kind: "date"; date: LocalDate; impliedPeriod?: Period; yearly?: YearlyDay; hebrew?: HebrewDaySaid }
  | { kind: "weekday"; day: number; strictlyAfterToday: boolean }
  | { kind: "clock"; clock: Clock }
  /** `standalone`: it can name a time on its own ("in the evening", "בערב"), unlike "evening". */
  | { kind: "period"; period: Period; standalone: boolean }
  /**
   * Read as time but impossible ("February 30", "25:00", "in 1.5 days"), or a time that cannot be
   * told safely ("3/4", "on the 10th", "next week", "at 3-4", "at 5 or 6").
   */
  | { kind: "impossible" }
  /**
   * An explicit zone the wall time is in ("8am PST", "שעון ישראל"): an IANA name; for an abbreviation
   * of one season ("EDT"), its fixed offset and the place whose season it must be (`season`).
   */
  | { kind: "zone"; zone: string; label: string; season?: string }
  /** "at the same time", "באותה שעה": now's wall time, on the day named with it. */
  | { kind: "sameTime" }
  /** A number too large to be a time, or a time beyond the horizon ("in 99999999 days"). */
  | { kind: "too_far" }
  /** "now": a one-off reminder needs a time ahead of it. */
  | { kind: "now" };

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
  /** The text as given, for `unmask`. */
  private readonly source: string;

  constructor(public text: string) {
    this.source = text;
  }

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

  /** Gives a masked range its words back: words held aside while the rest was read (holidays as content). */
  unmask({ start, end }: Span): void {
    this.text = this.text.slice(0, start) + this.source.slice(start, end) + this.text.slice(end);
  }
}

/** Whether only spaces and commas lie between two spans of `text`. */
function adjacent(a: Span, b: Span, text: string): boolean {
  const [first, second] = a.start <= b.start ? [a, b] : [b, a];
  return second.start >= first.end && /^[\s,]*$/u.test(text.slice(first.end, second.start));
}

/** Offsets beyond this many days are past the horizon (ten years and a day to spare). */
const MAX_OFFSET_DAYS = 3653;

/** A count of a unit as a relative offset; days, weeks and months must be whole; "too_far" past the horizon. */
function relativeOf(count: number, unit: string): Relative | null | "too_far" {
  const days = /^(?:min|דק)/u.test(unit)
    ? count / 1440
    : /^(?:h|שע)/u.test(unit)
      ? count / 24
      : /^(?:week|שבוע)/u.test(unit)
        ? count * 7
        : /^(?:month|חודש)/u.test(unit)
          ? count * 30.5
          : /^(?:year|yr|שנ)/u.test(unit)
            ? count * 365.25
            : count;
  if (!Number.isFinite(days) || days > MAX_OFFSET_DAYS) return "too_far";
  if (/^(?:year|yr|שנ)/u.test(unit)) return Number.isInteger(count) ? calendar(0, count * 12) : null;
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
  let saidHour: number | undefined;
  let minute = minuteText !== undefined ? Number(minuteText) : 0;
  if (minuteWords !== undefined) {
    if (minuteText !== undefined) return null;
    const key = minuteWords.replace(/[\s-]+/gu, " ");
    const past = HE_ALL_MINUTES.get(key);
    const before = HE_MINUTES_TO.get(key);
    if (past !== undefined) minute = past;
    else if (before !== undefined) {
      if (said < 1) return null;
      // "אחת פחות רבע" is 12:45 (or 00:45 at night), as "one" is the hour after twelve.
      hour = said === 1 ? 12 : said - 1;
      minute = 60 - before;
      saidHour = said;
    } else return null;
  }
  if (said > 23 || minute > 59) return null;
  // "09:00" and "17" are 24h; "9" and "9:30" could be morning or evening.
  const exact = said === 0 || said > 12 || (hourText.length === 2 && hourText.startsWith("0"));
  return {
    hour,
    minute,
    kind: exact ? "exact" : "open",
    ...(saidHour !== undefined ? { said: saidHour } : {}),
  };
}

/** Count words a clock time can be chosen against: "at 5 or six", "ב-8 או תשע" ("a", "an" are not). */
const COUNT_WORDS = words([...EN_COUNTS.keys(), ...HE_NUMBERS.keys()].filter((w) => w !== "a" && w !== "an"));
/** A number right after a clock time: a range "at 3-4", a choice "at 5 or 6", "ב-8 ו-20", "ב-8 או תשע". */
const OTHER_NUMBER_AFTER = new RegExp(
  String.raw`^(?:\s*-\s*\d|\s+(?:or|and|או)\s+(?:(?:at|@)\s*|ו?(?:בשעה|ב)\s*-?\s*)?(?:\d|(?:${COUNT_WORDS})(?![\p{L}\p{N}]))|\s+ו-?\s*(?:(?:בשעה|ב)\s*-?\s*)?(?:\d|(?:${COUNT_WORDS})(?![\p{L}\p{N}])))`,
  "u",
);
/** A number right before a clock time: "3-4pm", "5 or 6pm". */
const OTHER_NUMBER_BEFORE = /(?<![\p{N}:])\d{1,2}(?::\d{2})?(?:\s*-\s*|\s+(?:or|and|או)\s+|\s+ו-?)$/u;

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
  const relative = (r: Relative | null | "too_far"): Mention =>
    r === "too_far" ? { kind: "too_far" } : r ? { kind: "relative", relative: r } : impossible;
  const date = (d: LocalDate | null | "too_far", impliedPeriod?: Period): Mention =>
    d === "too_far"
      ? { kind: "too_far" }
      : d
        ? { kind: "date", date: d, ...(impliedPeriod ? { impliedPeriod } : {}) }
        : impossible;
  const clock = (c: Clock | null): Mention => (c ? { kind: "clock", clock: c } : impossible);
  const period = (p: Period, standalone: boolean): Mention => ({ kind: "period", period: p, standalone });
  const week = userWeek(timeZone);

  take(
    PATTERNS.isoDateTime,
    (m) => isoInstantOf(m, timeZone),
    (at) => (at === null ? impossible : { kind: "instant", at }),
  );
  take(
    PATTERNS.zone,
    (m) => zoneOf(m),
    (z) => (z ? { kind: "zone", ...z } : impossible),
  );
  take(
    PATTERNS.sameTime,
    ([, enSpan, heSpan]) => enSpan ?? heSpan ?? "",
    (span): Mention =>
      // "same time next week" is a week from now to the minute, not next week's first day.
      span === ""
        ? { kind: "sameTime" }
        : relative(
            /year|שנה/u.test(span)
              ? calendar(0, 12)
              : /month|חודש/u.test(span)
                ? calendar(0, 1)
                : calendar(7, 0),
          ),
  );
  take(PATTERNS.enHalfHour, () => duration(30), relative);
  take(PATTERNS.enQuarterHour, () => duration(15), relative);
  take(PATTERNS.enThreeQuarterHour, () => duration(45), relative);
  take(
    PATTERNS.enRelative,
    ([, inWord, digits, word, halfBefore, unit, andAHalf, fromNow]) => {
      // "2 hours" alone is an amount, not a time: it needs "in", or "from now" / "hence" / "later".
      if (!inWord && !fromNow) return undefined;
      const count = digits
        ? fractionOf(digits)
        : (EN_AMOUNT_WORDS.get(normalWords(word)) ?? countOf(word ?? ""));
      if (halfBefore && andAHalf) return null;
      return count === null || !unit ? null : relativeOf(count + (andAHalf || halfBefore ? 0.5 : 0), unit);
    },
    relative,
  );
  take(
    PATTERNS.heRelative,
    ([, countText, unit, andAHalf, amount]) => {
      if (amount) return HE_AMOUNTS.get(normalWords(amount)) ?? undefined;
      // "בעוד כמה דקות": a few, as in English (3).
      const count = countText === "כמה" ? 3 : countOf(countText ?? "");
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
  take(PATTERNS.enNthWeekday, (m) => nthWeekdayOf(m, today), date);
  take(PATTERNS.enMonthDay, ([, month, day, year]) => monthDay(EN_MONTHS)(month, day, year), date);
  take(
    PATTERNS.enDayMonth,
    ([, day, month, year]) =>
      monthDay(EN_MONTHS)(month, String(EN_ORDINAL_DAYS.get(normalWords(day)) ?? day), year),
    date,
  );
  take(PATTERNS.heDayMonth, ([, day, month, year]) => monthDay(HE_MONTHS)(month, day, year), date);
  take(PATTERNS.heMonthDay, ([, month, day, year]) => monthDay(HE_MONTHS)(month, day, year), date);
  take(
    PATTERNS.enOrdinalDay,
    ([, digits, word, which]) =>
      // "the last" / "the first" alone are not days ("the last 3 pages"): only "…of the month".
      word && !which
        ? undefined
        : ordinalDayOf(today, digits ?? word ?? "", which === "next" ? 1 : which === "this" ? 0 : null),
    date,
  );
  take(
    PATTERNS.heOrdinalDay,
    ([, day, which, lastWhich]) => {
      if (day === undefined) return ordinalDayOf(today, "last", lastWhich === "הבא" ? 1 : 0);
      return ordinalDayOf(today, day, which === "הבא" ? 1 : which ? 0 : null);
    },
    date,
  );
  take(
    PATTERNS.enCalendarWord,
    ([, which, span, endOf]) => calendarWordOf(today, week, which, span, endOf),
    date,
  );
  take(
    PATTERNS.heCalendarWord,
    ([, next, weekend, monthEnd]) =>
      next
        ? calendarWordOf(today, week, "next", next.includes("שבוע") ? "week" : "month")
        : weekend
          ? calendarWordOf(today, week, "this", "weekend")
          : monthEnd
            ? calendarWordOf(today, week, undefined, undefined, "month")
            : undefined,
    date,
  );
  take(PATTERNS.enAtDotClock, ([, h, m]) => clockOf(h ?? "", m), clock);
  take(PATTERNS.dotClock, (m) => dotClockOf(m), clock);
  take(PATTERNS.heNthWeekday, (m) => heNthWeekdayOf(m, today), date);
  // Dates and spans that are not resolved here, so that a clock time beside them is not read as today.
  for (const pattern of [PATTERNS.numericDate, PATTERNS.dayOfMonthOnly, PATTERNS.vagueSpan]) {
    take(
      pattern,
      () => impossible,
      (m: Mention) => m,
    );
  }

  take(
    PATTERNS.now,
    () => true,
    (): Mention => ({ kind: "now" }),
  );
  take(PATTERNS.enMinutesAround, (m) => minutesAroundOf(m), clock);
  take(PATTERNS.oclock, ([, h, ap]) => withMeridiem(clockOf(h ?? "", undefined), ap), clock);
  take(PATTERNS.heMinutesAround, (m) => heMinutesAroundOf(m), clock);
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
    PATTERNS.enWeekdayShort,
    ([, next, common, rare]) => weekday(shortWeekdayIndex(common ?? rare ?? ""), next === "next"),
    (m) => m,
  );
  take(
    PATTERNS.heWeekdayLetter,
    ([, letter]) => weekday(HE_WEEKDAY_LETTERS.indexOf(letter ?? ""), false),
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
    (m): Clock | null | undefined => {
      // Group 3 is the seconds (named, read by secondOf).
      const [, h, minuteText, , ap, letter] = m;
      const hour = Number(h);
      const minute = Number(minuteText ?? 0);
      // "at 3 15 pm": the minutes of a spaced clock, read by spacedClock.
      if (!minuteText && hour > 12 && /\d\s+$/u.test((m.input ?? "").slice(0, m.index))) return undefined;
      if (hour < 1 || hour > 12 || minute > 59) return null;
      return { hour, minute, kind: (ap ?? letter) === "a" ? "am" : "pm", ...secondOf(m) };
    },
    clock,
  );
  take(
    PATTERNS.militaryClock,
    ([, h, m]): Clock => ({ hour: Number(h), minute: Number(m), kind: "exact" }),
    clock,
  );
  take(
    PATTERNS.hClock,
    ([, h, m]) => {
      const hour = Number(h);
      // "2h" is two hours; "19h" and "9h30" are clock times.
      if (m === undefined && hour < 13) return undefined;
      return { hour, minute: Number(m ?? 0), kind: "exact" } satisfies Clock;
    },
    clock,
  );
  take(
    PATTERNS.spacedClock,
    ([, h1, m1, ap1, h2, m2, ap2]) => withMeridiem(clockOf(h1 ?? h2 ?? "", m1 ?? m2), ap1 ?? ap2),
    clock,
  );
  take(PATTERNS.enSpelledClock, (m) => spelledClockOf(m), clock);
  take(PATTERNS.heWordClockBare, heWordClockOf, clock);
  take(PATTERNS.heWordClock, heWordClockOf, clock);
  take(
    PATTERNS.heCompactClock,
    ([, hourWord, prefix, h, m]) => {
      const digits = `${h}${m}`;
      // "ב-1930" may be the year 1930, "ל-1700" a number to call: only "בשעה" makes such a number a
      // clock time, and a leading zero ("ל-0800"), which neither has.
      if (
        !hourWord &&
        ((prefix === "ב" && /^(?:19|20)/u.test(digits)) || (prefix === "ל" && !digits.startsWith("0")))
      )
        return null;
      return clockOf(h ?? "", m);
    },
    clock,
  );
  take(PATTERNS.heDigitClock, (m) => withSeconds(clockOf(m[1] ?? "", m[2], m[4]), m), clock);
  take(PATTERNS.enAtClock, (m) => withSeconds(clockOf(m[1] ?? "", m[2]), m), clock);
  take(PATTERNS.colonClock, (m) => withSeconds(clockOf(m[1] ?? "", m[2]), m), clock);
  take(
    PATTERNS.periodClock,
    ([, h]) => clockOf(String(EN_HOUR_WORDS.get(h ?? "") ?? HE_HOURS.get(normalWords(h)) ?? h), undefined),
    clock,
  );
  takeNumbersByDays(s, found);
  // A clock time next to another number is a range or a choice, not one time.
  for (const f of found) {
    if (f.mention.kind === "relative" && /^\s+(?:or|או)\s/u.test(s.text.slice(f.end))) f.mention = impossible;
    if (f.mention.kind !== "clock") continue;
    if (
      OTHER_NUMBER_AFTER.test(s.text.slice(f.end)) ||
      OTHER_NUMBER_BEFORE.test(s.text.slice(Math.max(0, f.start - 24), f.start))
    )
      f.mention = impossible;
  }

  const beforePeriods = s.text;
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
    // A part of the day not taken stays in the text, where it counts as unread ("by evening").
    else s.text = s.text.slice(0, p.start) + beforePeriods.slice(p.start, p.end) + s.text.slice(p.end);
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Words folded for a map lookup: single spaces, hyphens as spaces. */
function normalWords(text: string | undefined): string {
  return (text ?? "").trim().replace(/[\s-]+/gu, " ");
}

/** "3", "1.5", "1/4" → the number. */
function fractionOf(text: string): number | null {
  const [top, bottom] = text.split("/");
  const value = bottom === undefined ? Number(top) : Number(top) / Number(bottom);
  return Number.isFinite(value) ? value : null;
}

/** "mon" → 1, "thurs" → 4. */
function shortWeekdayIndex(word: string): number {
  return EN_WEEKDAYS.findIndex((day) => day.startsWith(word.slice(0, 3)));
}

/** The seconds a clock pattern captured ("15:23:24"), as a Clock field. */
function secondOf(m: RegExpMatchArray): { second?: number } {
  const second = m.groups?.second;
  return second === undefined ? {} : { second: Number(second) };
}

function withSeconds(clock: Clock | null, m: RegExpMatchArray): Clock | null {
  return clock && { ...clock, ...secondOf(m) };
}

/**
 * "19.30", "בשעה 9.30": a clock time when "בשעה" says so or when the pair cannot be a date either
 * way (no month 19 nor 30), and it is glued to "ב"/"ל" or opens the clause or follows a day
 * ("tomorrow 19.30", as a bare hour by a day); otherwise undefined, and numericDate takes it as a
 * number not guessed at ("pay 15.50 tomorrow" may be money).
 */
function dotClockOf(m: RegExpMatchArray): Clock | null | undefined {
  const [, hourWord, h, minuteText] = m;
  const [first, second] = [Number(h), Number(minuteText)];
  const couldBeDate = (first <= 12 && second <= 31) || (second <= 12 && first <= 31);
  if (!hourWord) {
    const before = (m.input ?? "").slice(0, m.index);
    if (couldBeDate || !(HE_PREFIX_BEFORE.test(before) || DAY_OR_CLAUSE_BEFORE.test(before)))
      return undefined;
  }
  return clockOf(h ?? "", minuteText);
}

/** "ב-", "ל" written onto a number. */
const HE_PREFIX_BEFORE = /(?<!\p{L})[ובלה]{1,3}-?$/u;
/** The start of a clause or a day's words right before a number: "tomorrow 19.30", "19.30 מחר". */
const DAY_OR_CLAUSE_BEFORE = new RegExp(
  String.raw`(?:^|[,.;:!?]|(?<![\p{L}\p{N}])(?:${words([...DAY_WORDS.keys(), ...EN_WEEKDAYS, ...HE_WEEKDAYS])}))\s*$`,
  "u",
);

/** A clock time with "am"/"pm" said after it ("3 15 pm"). */
function withMeridiem(clock: Clock | null, ap: string | undefined): Clock | null {
  if (!clock || ap === undefined) return clock;
  if (clock.hour < 1 || clock.hour > 12) return null;
  return { hour: clock.hour, minute: clock.minute, kind: ap === "a" ? "am" : "pm" };
}

/** An hour the words name: "7", "seven", "noon" (12, exact), "midnight" (0). */
function hourOf(word: string): { hour: number; exact: boolean } | null {
  if (word === "noon") return { hour: 12, exact: true };
  if (word === "midnight") return { hour: 0, exact: true };
  const hour = /^\d/u.test(word)
    ? Number(word)
    : (EN_HOUR_WORDS.get(word) ?? HE_HOURS.get(normalWords(word)));
  return hour === undefined || hour > 23 ? null : { hour, exact: hour === 0 || hour > 12 };
}

/**
 * Minutes before or after an hour: "quarter to 8" is 7:45, "half past 7" 7:30, "ten past noon"
 * 12:10. The clock keeps the hour said, so the am/pm rule looks at "8", not 7.
 */
function clockAround(minutes: number, before: boolean, target: string, ap?: string): Clock | null {
  const hour = hourOf(target);
  if (!hour || minutes < 1 || minutes > 59) return null;
  const total = (hour.hour * 60 + (before ? -minutes : minutes) + 24 * 60) % (24 * 60);
  const h24 = Math.floor(total / 60);
  const minute = total % 60;
  if (ap !== undefined) {
    if (hour.exact || hour.hour > 12) return null;
    const said = hour.hour % 12;
    const base = (ap === "p" ? 12 : 0) + said;
    const t = (base * 60 + (before ? -minutes : minutes) + 24 * 60) % (24 * 60);
    return { hour: Math.floor(t / 60), minute: t % 60, kind: "exact" };
  }
  if (target === "midnight")
    return before ? { hour: h24, minute, kind: "exact" } : { hour: 0, minute, kind: "midnight" };
  if (hour.exact) return { hour: h24, minute, kind: "exact" };
  // "quarter to 1" is 12:45: the hour before one is twelve.
  const open = h24 === 0 ? 12 : h24;
  return { hour: open, minute, kind: "open", said: hour.hour };
}

function minutesAroundOf([, half, quarter, count, relation, target, ap]: RegExpMatchArray): Clock | null {
  const minutes = half ? 30 : quarter ? 15 : /^\d/u.test(count ?? "") ? Number(count) : countOf(count ?? "");
  if (minutes === null || !relation || !target) return null;
  if (half && !/^(?:past|after)$/u.test(relation)) return null;
  return clockAround(minutes, /^(?:to|till|til|before|of)$/u.test(relation), target, ap);
}

function heMinutesAroundOf([, amount, minutesWord, to, after, target]: RegExpMatchArray):
  Clock | null | undefined {
  // "3 ל-5" is a range; minutes in digits need "דקות" ("10 דקות ל-8").
  if (/^\d/u.test(amount ?? "") && !minutesWord) return undefined;
  const minutes =
    amount === "רבע"
      ? 15
      : amount === "חצי"
        ? 30
        : /^\d/u.test(amount ?? "")
          ? Number(amount)
          : HE_NUMBERS.get(normalWords(amount));
  if (minutes === undefined || !target || (!to && !after)) return null;
  if (amount === "חצי" && to) return null;
  return clockAround(minutes, to !== undefined, target);
}

/** A Hebrew hour word and its minute words: "שמונה ועשרים", "בשלוש וחצי"; undefined when the word is no hour. */
function heWordClockOf([, word, minuteWords]: RegExpMatchArray): Clock | null | undefined {
  const hour = HE_HOURS.get(normalWords(word));
  return hour === undefined ? undefined : clockOf(String(hour), undefined, minuteWords);
}

/** "ten thirty", "seven o'clock", "at seven", "nine am"; a lone hour word needs "at", "o'clock" or am/pm. */
function spelledClockOf([, at, hourWord, minuteWords, oclock, ap]: RegExpMatchArray):
  Clock | null | undefined {
  if (!at && !minuteWords && !oclock && !ap) return undefined;
  const hour = EN_HOUR_WORDS.get(hourWord ?? "");
  if (hour === undefined) return undefined;
  let minute = 0;
  if (minuteWords) {
    const oh = /^oh\s+(\S+)$/u.exec(minuteWords);
    const value = oh
      ? EN_HOUR_WORDS.get(oh[1] ?? "")
      : (EN_COUNTS.get(normalWords(minuteWords).replace(" ", "-")) ??
        EN_COUNTS.get(normalWords(minuteWords)));
    if (value === undefined || value > 59) return null;
    minute = value;
  }
  if (ap) return { hour, minute, kind: ap === "a" ? "am" : "pm" };
  return { hour, minute, kind: "open" };
}

/** A zone named with a time, as an IANA name and the words said. */
function zoneOf(m: RegExpMatchArray): { zone: string; label: string; season?: string } | null {
  const [said, utc, sign, hours, abbreviation, city, hebrew] = m;
  const label = (said ?? "").trim();
  if (utc) {
    if (!sign) return { zone: "UTC", label };
    const offset = Number(hours);
    // Etc/GMT names have the sign reversed: UTC+2 is Etc/GMT-2.
    return offset <= 14 ? { zone: `Etc/GMT${sign === "+" ? "-" : "+"}${offset}`, label } : null;
  }
  const season = SEASON_ZONES.get(abbreviation ?? "");
  // Its own fixed offset ("EDT" is UTC−4); Etc/GMT names have the sign reversed.
  if (season)
    return {
      zone: `Etc/GMT${season.offset > 0 ? "-" : "+"}${Math.abs(season.offset)}`,
      label,
      season: season.place,
    };
  const zone =
    ZONE_NAMES.get(abbreviation ?? "") ??
    ZONE_NAMES.get(normalWords(city)) ??
    ZONE_NAMES.get(normalWords(hebrew));
  return zone ? { zone, label } : null;
}

/** "the first Monday of March": that date this year, or next year once past. */
function nthWeekdayOf(
  [, nth, dayName, which, monthName, year]: RegExpMatchArray,
  today: LocalDate,
): LocalDate | null {
  const weekdayIndex = EN_WEEKDAYS.indexOf(dayName ?? "");
  const month = (y: number, m: number) => {
    if (nth === "last") {
      const last = daysInMonth(y, m);
      for (let d = last; d > last - 7; d--)
        if (dayOfWeek({ year: y, month: m, day: d }) === weekdayIndex) return { year: y, month: m, day: d };
      return null;
    }
    const n = EN_NTH_DAYS.get(nth ?? "") ?? 0;
    for (let d = 1; d <= 7; d++) {
      if (dayOfWeek({ year: y, month: m, day: d }) === weekdayIndex) {
        const day = d + (n - 1) * 7;
        return day <= daysInMonth(y, m) ? { year: y, month: m, day } : null;
      }
    }
    return null;
  };
  const onOrAfterToday = (d: LocalDate | null) =>
    d !== null &&
    (d.year > today.year ||
      (d.year === today.year && (d.month > today.month || (d.month === today.month && d.day >= today.day))));
  if (which) {
    const first = which === "next" ? addMonths({ ...today, day: 1 }, 1) : today;
    const d = month(first.year, first.month);
    if (which === "next" || onOrAfterToday(d)) return d;
    const following = addMonths({ ...today, day: 1 }, 1);
    return month(following.year, following.month);
  }
  const m = EN_MONTHS.get(monthName ?? "");
  if (m === undefined) return null;
  if (year) return month(Number(year), m);
  const thisYear = month(today.year, m);
  return onOrAfterToday(thisYear) ? thisYear : month(today.year + 1, m);
}

const HE_ORDINALS = new Map([
  ["ראשון", "first"],
  ["שני", "second"],
  ["שלישי", "third"],
  ["רביעי", "fourth"],
  ["אחרון", "last"],
]);

/** "ביום שני הראשון של יוני", "יום ראשון האחרון של החודש": as "the first Monday of June". */
function heNthWeekdayOf(
  [, day, nth, thisMonth, nextMonth, monthName, year]: RegExpMatchArray,
  today: LocalDate,
) {
  const english = [
    "",
    HE_ORDINALS.get(nth ?? "") ?? "",
    EN_WEEKDAYS[HE_WEEKDAYS.indexOf(day ?? "")] ?? "",
    nextMonth ? "next" : thisMonth ? "this" : undefined,
    [...EN_MONTHS.entries()].find(([, m]) => m === HE_MONTHS.get(monthName ?? ""))?.[0],
    year,
  ] as unknown as RegExpMatchArray;
  return nthWeekdayOf(english, today);
}

/**
 * "the 15th" / "ב-15 לחודש": the next such day of a month (this month while ahead or today);
 * `monthOffset` 0 or 1 pins "this" or "next" month. "last" is the month's last day. A day the month
 * does not have ("the 31st" in April) cannot be told.
 */
function ordinalDayOf(today: LocalDate, said: string, monthOffset: number | null): LocalDate | null {
  const day =
    said === "first" || said === "ראשון" || said === "אחד"
      ? 1
      : said === "last" || said === "אחרון"
        ? -1
        : Number(said);
  const inMonth = (offset: number): LocalDate | null => {
    const { year, month } = addMonths({ ...today, day: 1 }, offset);
    const last = daysInMonth(year, month);
    const d = day === -1 ? last : day;
    return d >= 1 && d <= last ? { year, month, day: d } : null;
  };
  if (monthOffset !== null) return inMonth(monthOffset);
  if (day !== -1 && (day < 1 || day > 31)) return null;
  const thisMonth = inMonth(0);
  if (thisMonth && thisMonth.day >= today.day) return thisMonth;
  return inMonth(1);
}

/**
 * The calendar words' documented dates: "next week" is its first working day, "this weekend" the
 * first day of the coming weekend (today when today is a weekend day), "end of the week" its last
 * working day, "next month" its 1st, "end of the month" its last day (the user's week, D10).
 */
function calendarWordOf(
  today: LocalDate,
  week: { workdays: number[]; weekend: number[]; firstDay: number },
  which: string | undefined,
  span: string | undefined,
  endOf?: string,
): LocalDate | null | undefined {
  const todayIndex = dayOfWeek(today);
  const daysUntil = (weekday: number) => (weekday - todayIndex + 7) % 7;
  if (endOf === "month") return { ...today, day: daysInMonth(today.year, today.month) };
  if (endOf === "week") {
    const last = week.workdays.at(-1) ?? 5;
    // Past the week's last working day, its end is behind: kept as is, so Memo says it passed.
    const sinceStart = (todayIndex - week.firstDay + 7) % 7;
    const lastOffset = (last - week.firstDay + 7) % 7;
    return addDays(today, lastOffset - sinceStart);
  }
  if (span === "weekend") {
    if (which === "next") return null;
    if (week.weekend.includes(todayIndex)) return today;
    return addDays(today, daysUntil(week.weekend[0] ?? 6));
  }
  if (which !== "next") return undefined;
  if (span === "week") {
    const untilStart = daysUntil(week.firstDay) || 7;
    return addDays(today, untilStart);
  }
  if (span === "month") return addMonths({ ...today, day: 1 }, 1);
  return undefined;
}

/**
 * A bare number right beside a day ("tomorrow 9", "9 tomorrow evening", "Friday 1530"): a clock
 * time, as nothing else is said by it there. Numbers before a word ("tomorrow 5 apples") are left.
 */
function takeNumbersByDays(s: Scanner, found: Found[]): void {
  const days = found.filter((f) => f.mention.kind === "date" || f.mention.kind === "weekday");
  if (days.length === 0) return;
  const pattern =
    /(?<![\p{L}\p{N}:/.'-])(\d{1,4})(?![\p{L}\p{N}:/.%$₪€£-])(?!\s*(?:\p{L}{2,}(?<!\b(?:in|at|on|and|or|to|am|pm))|ש"ח))/gu;
  for (const m of s.text.matchAll(pattern)) {
    const start = m.index ?? 0;
    const span = { start, end: start + m[0].length };
    const dayAfter = days.some((d) => d.start >= span.end && adjacent(d, span, s.text));
    const dayBefore = days.some((d) => d.end <= span.start && adjacent(d, span, s.text));
    // "9 tomorrow", "at 9 tomorrow" but not "list 3 tonight"; "tomorrow 9" but not "tomorrow 5 apples".
    const before = s.text.slice(Math.max(0, span.start - 24), span.start);
    const opensClause = /(?:^|[,.;:!?]|(?<![\p{L}\p{N}])(?:at|by|@|ב|and|ו|me|us|לי|אותי|לנו))\s*$/u.test(
      before,
    );
    if (!(dayAfter && opensClause) && !dayBefore) continue;
    const digits = m[1] ?? "";
    const c =
      digits.length <= 2 ? clockOf(digits, undefined) : clockOf(digits.slice(0, -2), digits.slice(-2));
    found.push({
      ...span,
      mention:
        c && (digits.length <= 2 || digits.length === 4 || c.hour < 10)
          ? { kind: "clock", clock: c }
          : { kind: "impossible" },
    });
    s.mask(span.start, span.end);
  }
}
