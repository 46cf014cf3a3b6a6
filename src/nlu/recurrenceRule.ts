/**
 * RFC 5545 recurrence rules as Memo stores them ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", D10): a strict
 * reader and writer of the parts Memo uses, and their expansion with the `rrule` package in floating
 * local time. The rule is expanded on wall-clock dates (a UTC Date whose fields are the local date and
 * time), and each occurrence's wall time becomes an instant in the rule's zone with localToInstant
 * (D6: a wall time in a gap moves forward by the gap, a repeated one is the first), so every
 * occurrence keeps its wall time across DST changes.
 *
 * Only rules that have an occurrence at least once every twelve of their periods are read, so an
 * expansion always ends quickly: a rule that could never occur ("every February 30") is refused.
 */
import * as rruleModule from "rrule";
import type { Options, Weekday } from "rrule";
import {
  addDays,
  addMonths,
  dayOfWeek,
  daysInMonth,
  instantToLocal,
  localToInstant,
  type LocalDate,
  daysBetween,
} from "./zonedTime.js";

// rrule ships a UMD bundle: Node's ESM loader shows its exports only as the default export, a CommonJS
// loader (tsx outside an ESM package) as named exports. Either way, the same classes.
const { RRule } = (rruleModule as unknown as { default?: typeof rruleModule }).default ?? rruleModule;

/** The frequencies a stored rule may have (shorter ones are nudges, which have their own type). */
export type Frequency = "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";

/** A BYDAY entry: a weekday (0 = Sunday … 6 = Saturday) and, in a month or year, its ordinal (1 first, -1 last). */
export interface RuleDay {
  day: number;
  nth?: number;
}

/** The parts of a rule, as RFC 5545 names them; lists sorted, without duplicates. */
export interface RuleParts {
  freq: Frequency;
  /** Every `interval` periods (default 1). */
  interval: number;
  byDay?: RuleDay[];
  /** 1–31, or -1 (the last day) … -31. */
  byMonthDay?: number[];
  byMonth?: number[];
  bySetPos?: number[];
  /** The day a week starts on (WKST), 0–6; RFC 5545's default is Monday. */
  weekStart?: number;
}

/** The longest a repeat may wait between occurrences: ten years, as the time horizon (D10). */
export const MAX_REPEAT_DAYS = 3653;

/** The largest INTERVAL of each frequency: ten years' worth. */
export const MAX_INTERVAL: Record<Frequency, number> = {
  DAILY: MAX_REPEAT_DAYS,
  WEEKLY: Math.floor(MAX_REPEAT_DAYS / 7),
  MONTHLY: 120,
  YEARLY: 10,
};

/** RFC 5545 day codes, 0 = Sunday … 6 = Saturday (D6 numbering). */
const DAY_CODES = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"] as const;

const FREQUENCIES: readonly Frequency[] = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"];
const KNOWN_PARTS = new Set(["FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "BYMONTH", "BYSETPOS", "WKST"]);
/** An ordinal weekday exists in every month only up to the fourth (or the fourth from the end). */
const MAX_NTH = 4;
/** Days every month has. */
const ALWAYS_IN_MONTH = 28;
/** A bound on the occurrences looked at in one expansion (never reached by a valid rule). */
const MAX_STEPS = 5000;

const sortedUnique = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);
const isNumberIn = (value: number, min: number, max: number) =>
  Number.isInteger(value) && value !== 0 && Math.abs(value) >= min && Math.abs(value) <= max;

/** A comma list of a part, each item read by `read`; null if any item is not. */
function listOf<T>(text: string | undefined, read: (item: string) => T | null): T[] | null | undefined {
  if (text === undefined) return undefined;
  const items = text.split(",").map(read);
  return items.some((item) => item === null) ? null : (items as T[]);
}

const signedNumber = (item: string) => (/^[+-]?\d{1,3}$/.test(item) ? Number(item) : null);

/**
 * The parts of a rule ("FREQ=MONTHLY;BYDAY=1SU"), or null when it is not one Memo can expand: an
 * unknown or repeated part, a frequency other than daily, weekly, monthly or yearly, an INTERVAL that
 * is not a whole number from 1 to ten years' worth, UNTIL/COUNT/DTSTART (kept beside the rule), or a
 * combination that is not certain to occur (see `feasible`).
 */
export function parseRule(text: string): RuleParts | null {
  const fields = new Map<string, string>();
  for (const part of text.trim().toUpperCase().split(";")) {
    const match = /^([A-Z]+)=([A-Z0-9,+-]+)$/.exec(part);
    if (!match?.[1] || !match[2] || fields.has(match[1]) || !KNOWN_PARTS.has(match[1])) return null;
    fields.set(match[1], match[2]);
  }
  const freq = FREQUENCIES.find((f) => f === fields.get("FREQ"));
  if (!freq) return null;
  const intervalText = fields.get("INTERVAL") ?? "1";
  if (!/^\d{1,6}$/.test(intervalText)) return null;
  const interval = Number(intervalText);
  if (interval < 1 || interval > MAX_INTERVAL[freq]) return null;

  const byDay = listOf(fields.get("BYDAY"), (item): RuleDay | null => {
    const match = /^([+-]?\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/.exec(item);
    if (!match) return null;
    const day = DAY_CODES.indexOf(match[2] as (typeof DAY_CODES)[number]);
    if (match[1] === undefined) return { day };
    const nth = Number(match[1]);
    return isNumberIn(nth, 1, MAX_NTH) ? { day, nth } : null;
  });
  const byMonthDay = listOf(fields.get("BYMONTHDAY"), (item) => {
    const day = signedNumber(item);
    return day !== null && isNumberIn(day, 1, 31) ? day : null;
  });
  const byMonth = listOf(fields.get("BYMONTH"), (item) => {
    const month = signedNumber(item);
    return month !== null && month >= 1 && month <= 12 ? month : null;
  });
  const bySetPos = listOf(fields.get("BYSETPOS"), (item) => {
    const pos = signedNumber(item);
    return pos !== null && isNumberIn(pos, 1, 366) ? pos : null;
  });
  const weekStartCode = fields.get("WKST");
  const weekStart =
    weekStartCode === undefined ? undefined : DAY_CODES.indexOf(weekStartCode as (typeof DAY_CODES)[number]);
  if (byDay === null || byMonthDay === null || byMonth === null || bySetPos === null || weekStart === -1) {
    return null;
  }

  const parts: RuleParts = { freq, interval };
  if (byDay) {
    const seen = new Set<string>();
    parts.byDay = byDay
      .filter((d) => !seen.has(`${d.nth ?? 0}${d.day}`) && seen.add(`${d.nth ?? 0}${d.day}`))
      .sort((a, b) => a.day - b.day || (a.nth ?? 0) - (b.nth ?? 0));
  }
  if (byMonthDay) parts.byMonthDay = sortedUnique(byMonthDay);
  if (byMonth) parts.byMonth = sortedUnique(byMonth);
  if (bySetPos) parts.bySetPos = sortedUnique(bySetPos);
  if (weekStart !== undefined) parts.weekStart = weekStart;
  return wellFormed(parts) ? parts : null;
}

/** Whether the parts combine in a way this module expands (independent of the start date). */
function wellFormed(parts: RuleParts): boolean {
  const { freq, byDay, byMonthDay, byMonth, bySetPos } = parts;
  const ordinals = byDay?.some((d) => d.nth !== undefined) ?? false;
  if (byDay && byMonthDay) return false;
  switch (freq) {
    case "DAILY":
      return !byDay && !byMonthDay && !byMonth && !bySetPos;
    case "WEEKLY":
      return !ordinals && !byMonthDay && !byMonth && !bySetPos;
    case "MONTHLY": {
      if (byMonth) return false;
      if (!bySetPos) return true;
      // BYSETPOS picks among the days each month is sure to have.
      const sure = byDay
        ? ordinals
          ? 0
          : MAX_NTH * byDay.length
        : (byMonthDay ?? []).filter((d) => Math.abs(d) <= ALWAYS_IN_MONTH).length;
      return bySetPos.every((pos) => Math.abs(pos) <= sure);
    }
    case "YEARLY":
      return !bySetPos && (!ordinals || byMonth !== undefined);
  }
}

/** The rule as RFC 5545 text, parts in a fixed order: FREQ, INTERVAL, BYMONTH, BYMONTHDAY, BYDAY, BYSETPOS, WKST. */
export function formatRule(parts: RuleParts): string {
  const out = [`FREQ=${parts.freq}`];
  if (parts.interval > 1) out.push(`INTERVAL=${parts.interval}`);
  if (parts.byMonth?.length) out.push(`BYMONTH=${parts.byMonth.join(",")}`);
  if (parts.byMonthDay?.length) out.push(`BYMONTHDAY=${parts.byMonthDay.join(",")}`);
  if (parts.byDay?.length) {
    out.push(`BYDAY=${parts.byDay.map((d) => `${d.nth ?? ""}${DAY_CODES[d.day]}`).join(",")}`);
  }
  if (parts.bySetPos?.length) out.push(`BYSETPOS=${parts.bySetPos.join(",")}`);
  if (parts.weekStart !== undefined) out.push(`WKST=${DAY_CODES[parts.weekStart]}`);
  return out.join(";");
}

/** The parts RFC 5545 takes from the start date when the rule leaves them out, made explicit. */
function explicitParts(parts: RuleParts, start: LocalDate): RuleParts {
  if (parts.byDay || parts.byMonthDay) return parts;
  switch (parts.freq) {
    case "WEEKLY":
      return { ...parts, byDay: [{ day: dayOfWeek(start) }] };
    case "MONTHLY":
      return { ...parts, byMonthDay: [start.day] };
    case "YEARLY":
      return { ...parts, byMonth: parts.byMonth ?? [start.month], byMonthDay: [start.day] };
    default:
      return parts;
  }
}

/** The longest each month can be, February counted as 28 days (a rule on the 29th must not wait for a leap year). */
const longest = (month: number) => (month === 2 ? ALWAYS_IN_MONTH : daysInMonth(2001, month));

/**
 * Whether explicit parts occur within twelve periods of any start: a day of the month that the
 * months the rule visits have (February counted as 28 days), ordinal weekdays up to the fourth.
 */
function feasible(parts: RuleParts, start: LocalDate): boolean {
  const { freq, byMonthDay } = parts;
  if ((freq !== "MONTHLY" && freq !== "YEARLY") || !byMonthDay) return true;
  let months: number[];
  if (freq === "YEARLY") months = parts.byMonth ?? [start.month];
  else months = Array.from({ length: 12 }, (_, i) => ((start.month - 1 + i * parts.interval) % 12) + 1);
  return months.some((month) => byMonthDay.some((day) => Math.abs(day) <= longest(month)));
}

/**
 * A start date moved forward by whole multiples of the rule's period, to no later than `from`: the
 * same occurrences from `from` on, with less to iterate. Parts must be explicit (explicitParts).
 */
function nearStart(parts: RuleParts, start: LocalDate, from: LocalDate): LocalDate {
  const days = daysBetween(start, from);
  if (days <= 0) return start;
  const { freq, interval } = parts;
  if (freq === "DAILY") return addDays(start, Math.floor(days / interval) * interval);
  if (freq === "WEEKLY") return addDays(start, Math.floor(days / (7 * interval)) * 7 * interval);
  if (freq === "YEARLY") {
    const skip = Math.floor((from.year - start.year) / interval) * interval;
    return skip > 0 ? { year: start.year + skip, month: 1, day: 1 } : start;
  }
  const months = (from.year - start.year) * 12 + (from.month - start.month);
  const skip = Math.floor(months / interval) * interval;
  // The first day of a month the rule's period starts on: every day of it is on or after the start.
  return skip > 0 ? addMonths({ year: start.year, month: start.month, day: 1 }, skip) : start;
}

const RRULE_DAYS = [RRule.SU, RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR, RRule.SA];
const RRULE_FREQUENCY = {
  DAILY: RRule.DAILY,
  WEEKLY: RRule.WEEKLY,
  MONTHLY: RRule.MONTHLY,
  YEARLY: RRule.YEARLY,
};

/** A wall date-time as a Date whose UTC fields are its fields (floating time). */
function floating(date: LocalDate, clock: { hour: number; minute: number }): Date {
  const d = new Date(0);
  d.setUTCFullYear(date.year, date.month - 1, date.day);
  d.setUTCHours(clock.hour, clock.minute, 0, 0);
  return d;
}

/** The wall date of a floating Date. */
const dateOf = (wall: Date): LocalDate => ({
  year: wall.getUTCFullYear(),
  month: wall.getUTCMonth() + 1,
  day: wall.getUTCDate(),
});

const MIDNIGHT = { hour: 0, minute: 0 };

/**
 * The dates of a rule whose series starts on `start` (its first possible day; null for a rule whose
 * phase does not matter, INTERVAL 1 with explicit parts, which is then anchored on `from`), from
 * `from` on, in order: each is passed to `visit` until it returns false. Nothing when the rule
 * cannot occur (an infeasible rule); at most MAX_STEPS dates from `from`'s period are looked at.
 * The one expander of rules: reminders (nextRuleOccurrence) and calendar series place each date at
 * their own wall time with localToInstant.
 */
export function eachRuleDate(
  rule: RuleParts,
  start: LocalDate | null,
  from: LocalDate,
  visit: (date: LocalDate) => boolean,
): void {
  const anchor = start ?? from;
  const parts = explicitParts(rule, anchor);
  if (!feasible(parts, anchor)) return;
  const dtstart = nearStart(parts, anchor, from);
  const options: Partial<Options> = {
    freq: RRULE_FREQUENCY[parts.freq],
    interval: parts.interval,
    dtstart: floating(dtstart, MIDNIGHT),
  };
  if (parts.byDay) {
    options.byweekday = parts.byDay.map(({ day, nth }): Weekday => {
      const weekday = RRULE_DAYS[day]!;
      return nth === undefined ? weekday : weekday.nth(nth);
    });
  }
  if (parts.byMonthDay) options.bymonthday = parts.byMonthDay;
  if (parts.byMonth) options.bymonth = parts.byMonth;
  if (parts.bySetPos) options.bysetpos = parts.bySetPos;
  if (parts.weekStart !== undefined) options.wkst = RRULE_DAYS[parts.weekStart]!;

  const fromWall = floating(from, MIDNIGHT).getTime();
  new RRule(options, true).all((wall, count) => {
    if (wall.getTime() >= fromWall && !visit(dateOf(wall))) return false;
    return count < MAX_STEPS;
  });
}

/**
 * The first occurrence strictly after `afterMs` of a rule whose series starts on `start` (its first
 * possible day; null for a rule whose phase does not matter, INTERVAL 1 with explicit parts) at the
 * local `clock`, in `timeZone`; null when it has none (an infeasible rule).
 */
export function nextRuleOccurrence(
  rule: RuleParts,
  start: LocalDate | null,
  clock: { hour: number; minute: number },
  timeZone: string,
  afterMs: number,
): number | null {
  const after = instantToLocal(afterMs, timeZone);
  // Two days back covers any zone's offset change between the search point and an occurrence.
  const from = addDays({ year: after.year, month: after.month, day: after.day }, -2);
  let found: number | null = null;
  eachRuleDate(rule, start, from, (date) => {
    const at = localToInstant({ ...date, ...clock }, timeZone);
    if (at > afterMs) found = at;
    return found === null;
  });
  return found;
}
