/**
 * Calendar recurrences expanded in code, in the series' own zone (D6), by the expander reminders
 * use (eachRuleDate in src/nlu/recurrenceRule.ts, the `rrule` package in floating local time): every
 * occurrence keeps the series' local wall time across DST changes (a 09:00 weekly meeting is at 09:00
 * local both sides of the change); a wall time that does not exist is moved forward by the gap, a
 * repeated one means its first occurrence (localToInstant). Pure: no clock, no storage.
 */
import { eachRuleDate } from "../../nlu/recurrenceRule.js";
import {
  addDays,
  compareDates,
  daysBetween,
  daysInMonth,
  instantToLocal,
  formatDate,
  localMidnight,
  localToInstant,
  type LocalDate,
} from "../../nlu/zonedTime.js";
import { partsOf } from "./calendarRule.js";
import type { CalendarRecurrence } from "../../types/calendar.js";

/** The timing of a series: its first occurrence and its rule. */
export interface SeriesTiming {
  allDay: boolean;
  /** An ISO instant (timed) or a date YYYY-MM-DD (all-day). */
  start: string;
  /** An ISO instant (timed) or a date, exclusive (all-day). */
  end: string;
  timeZone: string;
  recurrence: CalendarRecurrence;
}

/** One occurrence of a series, before any per-occurrence change. */
export interface Occurrence {
  /** The occurrence's local start date in the series' zone, YYYY-MM-DD: its key (ids, exdates, overrides). */
  date: string;
  /** ISO instant (timed) or date (all-day). */
  start: string;
  end: string;
  /** The occurrence's span as instants, epoch ms (all-day: local midnights in the series' zone). */
  startMs: number;
  endMs: number;
}

const DAY_MS = 86_400_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-03-05" → {year, month, day}; null if not a real date. */
export function parseDate(text: string): LocalDate | null {
  const match = DATE.exec(text);
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysInMonth(date.year, date.month)) {
    return null;
  }
  return date;
}

/** A date string known to be valid (throws otherwise: a programming error, inputs are validated first). */
function date(text: string): LocalDate {
  const parsed = parseDate(text);
  if (!parsed) throw new RangeError(`Not a date: ${text}`);
  return parsed;
}

/** Local midnight of a date in a zone, epoch ms (a midnight in a DST gap moves forward, per D6). */
export function startOfDay(day: string | LocalDate, timeZone: string): number {
  const d = typeof day === "string" ? date(day) : day;
  return localMidnight(d, timeZone);
}

/** The local date of an instant in a zone. */
export function localDateOf(epochMs: number, timeZone: string): LocalDate {
  const { year, month, day } = instantToLocal(epochMs, timeZone);
  return { year, month, day };
}

/**
 * The series' occurrence dates in order, from `from` on (null: from the first), `until` and `count`
 * applied, each passed to `visit` until it returns false. `first` is the series' start (DTSTART): the
 * rule's INTERVAL counts from it and the parts it leaves out are its. A rule that is not one Memo
 * expands, or that can never occur, has none.
 */
function eachSeriesDate(
  rule: CalendarRecurrence,
  first: LocalDate,
  from: LocalDate | null,
  visit: (d: LocalDate) => boolean,
): void {
  const parts = partsOf(rule);
  if (!parts) return;
  const until = rule.until === undefined ? null : date(rule.until);
  // COUNT counts from the first occurrence, so nothing may be skipped when it is set.
  const start = rule.count === undefined && from && compareDates(from, first) > 0 ? from : first;
  let n = 0;
  eachRuleDate(parts, first, start, (d) => {
    if (until && compareDates(d, until) > 0) return false;
    if (rule.count !== undefined && n >= rule.count) return false;
    n++;
    return visit(d);
  });
}

/** How an occurrence on a date is placed: its start and end. */
function placer(series: SeriesTiming): { first: LocalDate; place: (d: LocalDate) => Occurrence } {
  const zone = series.timeZone;
  if (series.allDay) {
    const first = date(series.start);
    const days = daysBetween(first, date(series.end));
    return {
      first,
      place: (d) => {
        const end = addDays(d, days);
        return {
          date: formatDate(d),
          start: formatDate(d),
          end: formatDate(end),
          startMs: startOfDay(d, zone),
          endMs: startOfDay(end, zone),
        };
      },
    };
  }
  const startMs = Date.parse(series.start);
  const durationMs = Date.parse(series.end) - startMs;
  const local = instantToLocal(startMs, zone);
  // Seconds and milliseconds below the minute ride along unchanged.
  const subMinute = ((startMs % 60_000) + 60_000) % 60_000;
  return {
    first: { year: local.year, month: local.month, day: local.day },
    place: (d) => {
      const at = localToInstant({ ...d, hour: local.hour, minute: local.minute }, zone) + subMinute;
      return {
        date: formatDate(d),
        start: new Date(at).toISOString(),
        end: new Date(at + durationMs).toISOString(),
        startMs: at,
        endMs: at + durationMs,
      };
    },
  };
}

/** Whether a span [startMs, endMs) overlaps the range [fromMs, toMs); a zero-length span counts at its instant. */
export function overlaps(startMs: number, endMs: number, fromMs: number, toMs: number): boolean {
  return startMs < toMs && (endMs > fromMs || (endMs === startMs && startMs >= fromMs));
}

/** The occurrences of a series overlapping [fromMs, toMs), in order. */
export function expandSeries(series: SeriesTiming, fromMs: number, toMs: number): Occurrence[] {
  const { first, place } = placer(series);
  const span = place(first);
  // Start from a little before the earliest date whose occurrence could still reach the range.
  const from = localDateOf(fromMs - (span.endMs - span.startMs) - 2 * DAY_MS, series.timeZone);
  const found: Occurrence[] = [];
  eachSeriesDate(series.recurrence, first, from, (d) => {
    const occurrence = place(d);
    if (occurrence.startMs >= toMs) return false;
    if (overlaps(occurrence.startMs, occurrence.endMs, fromMs, toMs)) found.push(occurrence);
    return true;
  });
  return found;
}

/** The occurrence of the series on a local date (YYYY-MM-DD), or null when the series has none that day. */
export function occurrenceOn(series: SeriesTiming, day: string): Occurrence | null {
  const target = parseDate(day);
  if (!target) return null;
  const { first, place } = placer(series);
  let found: Occurrence | null = null;
  eachSeriesDate(series.recurrence, first, target, (d) => {
    const order = compareDates(d, target);
    if (order === 0) found = place(d);
    return order < 0;
  });
  return found;
}

/** The series' first occurrence (which may fall after `start` when start's date does not match the rule), or null if it has none. */
export function firstOccurrence(series: SeriesTiming): Occurrence | null {
  const { first, place } = placer(series);
  let found: Occurrence | null = null;
  eachSeriesDate(series.recurrence, first, null, (d) => {
    found = place(d);
    return false;
  });
  return found;
}

/** The series' last occurrence when it ends (until or count), else null. */
export function lastOccurrence(series: SeriesTiming): Occurrence | null {
  if (series.recurrence.until === undefined && series.recurrence.count === undefined) return null;
  const { first, place } = placer(series);
  let last: LocalDate | null = null;
  eachSeriesDate(series.recurrence, first, null, (d) => {
    last = d;
    return true;
  });
  return last ? place(last) : null;
}
