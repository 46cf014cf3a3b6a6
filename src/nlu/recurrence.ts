/**
 * Recurring reminders: the next fire time, recomputed in the rule's zone after each fire (D6),
 * and the nudge intervals users type.
 */
import {
  addDays,
  addMonths,
  dayOfWeek,
  daysInMonth,
  instantToLocal,
  localToInstant,
  parseClock,
  type LocalDate,
} from "./zonedTime.js";

export type RecurrenceType = "daily" | "weekly" | "monthly" | "nudge";

export interface Recurrence {
  type: RecurrenceType;
  /** Local "HH:mm" (daily, weekly, monthly). */
  time?: string;
  /** 0 = Sunday … 6 = Saturday (weekly). */
  days?: number[];
  /** 1–31 (monthly); in a shorter month, the month's last day. */
  dayOfMonth?: number;
  /** Minutes between nudges (nudge). */
  intervalMinutes?: number;
  /** ISO instant; no occurrence after it. */
  until?: string;
}

/**
 * The first occurrence strictly after `afterMs`, computed in the zone's wall time (never "+24h");
 * a nudge is afterMs + interval exactly; null once past `until` or if the rule is incomplete.
 */
export function nextOccurrence(rule: Recurrence, timeZone: string, afterMs: number): number | null {
  const until = rule.until === undefined ? Infinity : Date.parse(rule.until);
  if (Number.isNaN(until)) return null;
  const next = firstAfter(rule, timeZone, afterMs);
  return next !== null && next <= until ? next : null;
}

function firstAfter(rule: Recurrence, timeZone: string, afterMs: number): number | null {
  if (rule.type === "nudge") {
    const interval = rule.intervalMinutes;
    return interval !== undefined && Number.isFinite(interval) && interval > 0
      ? afterMs + interval * 60_000
      : null;
  }
  const clock = rule.time === undefined ? null : parseClock(rule.time);
  if (!clock) return null;
  const now = instantToLocal(afterMs, timeZone);
  const today: LocalDate = { year: now.year, month: now.month, day: now.day };
  const at = (date: LocalDate) => localToInstant({ ...date, ...clock }, timeZone);

  // Each loop looks one period ahead: enough, since every period has an occurrence.
  switch (rule.type) {
    case "daily":
      for (let offset = 0; offset <= 2; offset++) {
        const instant = at(addDays(today, offset));
        if (instant > afterMs) return instant;
      }
      return null;
    case "weekly": {
      const days = rule.days ?? [];
      if (days.length === 0 || !days.every((d) => Number.isInteger(d) && d >= 0 && d <= 6)) return null;
      for (let offset = 0; offset <= 8; offset++) {
        const date = addDays(today, offset);
        if (!days.includes(dayOfWeek(date))) continue;
        const instant = at(date);
        if (instant > afterMs) return instant;
      }
      return null;
    }
    case "monthly": {
      const wanted = rule.dayOfMonth;
      if (wanted === undefined || !Number.isInteger(wanted) || wanted < 1 || wanted > 31) return null;
      for (let offset = 0; offset <= 2; offset++) {
        const { year, month } = addMonths({ ...today, day: 1 }, offset);
        const instant = at({ year, month, day: Math.min(wanted, daysInMonth(year, month)) });
        if (instant > afterMs) return instant;
      }
      return null;
    }
    default:
      return null;
  }
}

const EN_COUNT = new Map([
  ["a", 1],
  ["an", 1],
  ["one", 1],
  ["two", 2],
  ["three", 3],
  ["five", 5],
  ["ten", 10],
  ["fifteen", 15],
  ["twenty", 20],
  ["thirty", 30],
]);

/** Hebrew whole-interval words: a unit on its own, or its dual form (minutes). */
export const HE_WHOLE_INTERVALS = new Map([
  ["דקה", 1],
  ["דקותיים", 2],
  ["רבע שעה", 15],
  ["חצי שעה", 30],
  ["שלושת רבעי שעה", 45],
  ["שעה", 60],
  ["שעה ורבע", 75],
  ["שעה וחצי", 90],
  ["שעתיים", 120],
]);

/**
 * "10 minutes", "15 min", "1 hour", "an hour", "half an hour", "10 דקות", "דקה", "רבע שעה", "חצי שעה",
 * "שעה", "שעתיים", "3 שעות", "20" (bare number = minutes) -> minutes; null when not an interval.
 * A leading "every" / "כל" is allowed; the result is a positive whole number of minutes.
 */
export function parseIntervalMinutes(text: string): number | null {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .replace(/^(?:every|כל) /u, "");
  const positive = (minutes: number) =>
    Number.isFinite(minutes) && minutes > 0 ? Math.round(minutes) : null;

  if (/^\d+$/u.test(t)) return positive(Number(t));
  const hebrewWhole = HE_WHOLE_INTERVALS.get(t);
  if (hebrewWhole !== undefined) return hebrewWhole;
  if (/^(?:half an hour|half hour|a half hour)$/u.test(t)) return 30;
  if (/^(?:a )?quarter (?:of an )?hour$/u.test(t)) return 15;
  if (/^an hour and a half$/u.test(t)) return 90;

  const english = /^(\d+(?:\.\d+)?|[a-z]+) ?(minutes?|mins?|hours?|hrs?)$/u.exec(t);
  if (english?.[1] && english[2]) {
    const count = /^\d/u.test(english[1]) ? Number(english[1]) : EN_COUNT.get(english[1]);
    if (count === undefined) return null;
    return positive(english[2].startsWith("h") ? count * 60 : count);
  }
  const hebrew = /^(\d+(?:\.\d+)?) ?(דקות|דקה|שעות|שעה)$/u.exec(t);
  if (hebrew?.[1] && hebrew[2]) {
    const count = Number(hebrew[1]);
    return positive(hebrew[2].startsWith("ש") ? count * 60 : count);
  }
  return null;
}
