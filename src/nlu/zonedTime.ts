/**
 * Exact wall-clock arithmetic in an IANA time zone (D6), with Intl only.
 * Nothing here reads the system time zone: every conversion names its zone.
 */
import { HEBREW_DAYS, pad2, zonedParts } from "../utils/timeContext.js";

/** A calendar date; month 1–12. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/** A wall-clock date and time, to the minute. */
export interface LocalDateTime extends LocalDate {
  hour: number;
  minute: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The wall-clock fields read as if they were UTC (years below 100 included, unlike Date.UTC). */
function wallAsUtc(local: LocalDateTime): number {
  const d = new Date(0);
  d.setUTCFullYear(local.year, local.month - 1, local.day);
  d.setUTCHours(local.hour, local.minute, 0, 0);
  return d.getTime();
}

/** The zone's offset from UTC at an instant, in ms (minute precision, as Intl reports it). */
function offsetAt(epochMs: number, timeZone: string): number {
  const p = zonedParts(epochMs, timeZone);
  const minuteStart = Math.floor(epochMs / MINUTE_MS) * MINUTE_MS;
  return wallAsUtc(p) - minuteStart;
}

function isInt(n: number, min: number, max: number): boolean {
  return Number.isInteger(n) && n >= min && n <= max;
}

/** Whether the fields name a real calendar date (month 1–12) and a 24h time to the minute. */
export function isValidLocalDateTime(local: LocalDateTime): boolean {
  return (
    Number.isInteger(local.year) &&
    isInt(local.month, 1, 12) &&
    isInt(local.day, 1, daysInMonth(local.year, local.month)) &&
    isInt(local.hour, 0, 23) &&
    isInt(local.minute, 0, 59)
  );
}

/**
 * The instant of a wall-clock time in `timeZone`. A time that does not exist (spring forward) is
 * shifted forward by the gap (02:30 -> 03:30); a time that occurs twice (fall back) means its first
 * occurrence. Throws a RangeError for an impossible date or time, or an unknown zone.
 */
export function localToInstant(local: LocalDateTime, timeZone: string): number {
  if (!isValidLocalDateTime(local)) throw new RangeError(`Not a local date-time: ${JSON.stringify(local)}`);
  const wall = wallAsUtc(local);
  // The offsets a day either side bracket any transition near this wall time.
  const offsetBefore = offsetAt(wall - DAY_MS, timeZone);
  const offsetAfter = offsetAt(wall + DAY_MS, timeZone);
  const matches = [offsetBefore, offsetAfter]
    .map((offset) => wall - offset)
    .filter((instant) => offsetAt(instant, timeZone) === wall - instant)
    .sort((a, b) => a - b);
  // No match: the time falls in a gap; reading it with the earlier offset moves it forward by the gap.
  return matches[0] ?? wall - offsetBefore;
}

/** The wall-clock date, time and weekday (0 = Sunday) of an instant in `timeZone`. */
export function instantToLocal(epochMs: number, timeZone: string): LocalDateTime & { dayOfWeek: number } {
  const p = zonedParts(epochMs, timeZone);
  return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute, dayOfWeek: p.dayOfWeek };
}

/** {year, month, day} → "2026-03-05". */
export function formatDate(date: LocalDate): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** The instant local midnight starts `date` in `timeZone` (a midnight in a DST gap moves forward, per D6). */
export function localMidnight(date: LocalDate, timeZone: string): number {
  return localToInstant({ ...date, hour: 0, minute: 0 }, timeZone);
}

/** Whole days from `a` to `b` (negative when `b` is earlier). */
export function daysBetween(a: LocalDate, b: LocalDate): number {
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS);
}

/** The order of two dates: negative when `a` is earlier, 0 on the same day, positive when later. */
export function compareDates(a: LocalDate, b: LocalDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** The date `days` whole days after (or before, if negative) `date`; pure calendar arithmetic. */
export function addDays(date: LocalDate, days: number): LocalDate {
  if (!Number.isInteger(days)) throw new RangeError(`Not a whole number of days: ${days}`);
  const d = new Date(wallAsUtc({ ...date, hour: 0, minute: 0 }) + days * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The same day `months` months later, clamped to the last day of a shorter month (Jan 31 + 1 → Feb 28). */
export function addMonths(date: LocalDate, months: number): LocalDate {
  if (!Number.isInteger(months)) throw new RangeError(`Not a whole number of months: ${months}`);
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/** The weekday of a calendar date, 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: LocalDate): number {
  return new Date(wallAsUtc({ ...date, hour: 0, minute: 0 })).getUTCDay();
}

/** The number of days in a month (month 1–12), leap years included. */
export function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/** "9", "09:00", "9:30", "21:05" -> {hour, minute}; null if not a valid 24h time. */
export function parseClock(text: string): { hour: number; minute: number } | null {
  const match = /^\s*(\d{1,2})(?::(\d{2}))?\s*$/.exec(text);
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

const EN_SHORT_DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/**
 * A day as the user reads it: "Thu 05/03" / "יום חמישי 05/03"; `bare` leaves out Hebrew's "יום"
 * ("חמישי 05/03"), as the weekly review's lines say it.
 */
export function dateLabel(date: LocalDate, language: "he" | "en", bare = false): string {
  const dm = `${pad2(date.day)}/${pad2(date.month)}`;
  const weekday = dayOfWeek(date);
  if (language === "en") return `${EN_SHORT_DAYS[weekday]} ${dm}`;
  return `${bare ? "" : "יום "}${HEBREW_DAYS[weekday]} ${dm}`;
}

/** A 24h clock time as "HH:mm": (9, 0) → "09:00". */
export function formatClock(hour: number, minute: number): string {
  return `${pad2(hour)}:${pad2(minute)}`;
}
