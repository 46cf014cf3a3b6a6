/**
 * Recurring reminders: the next fire time, recomputed in the rule's zone after each fire (D6), and
 * the nudge intervals users type. A rule is one of V1's shapes (daily, weekly, monthly, nudge), still
 * read as they were stored, or an RFC 5545 rule (`rrule`, D10) for everything beyond them; both are
 * expanded by the same code (recurrenceRule.ts), V1's shapes as the RFC 5545 rules they are. A
 * yearly Hebrew date (`hebrew`) is no RFC 5545 rule: its days come from the Hebrew calendar.
 */
import {
  MAX_REPEAT_DAYS,
  formatRule,
  nextRuleOccurrence,
  parseRule,
  type RuleParts,
} from "./recurrenceRule.js";
import { nextObservance } from "./hebrewCalendar.js";
import {
  addDays,
  daysInMonth,
  instantToLocal,
  localToInstant,
  parseClock,
  type LocalDate,
} from "./zonedTime.js";
import type { Recurrence } from "../types/recurrence.js";

/** The longest interval between nudges: ten years of minutes (a longer one is no reminder, D10). */
export const MAX_NUDGE_MINUTES = MAX_REPEAT_DAYS * 24 * 60;

/**
 * The first occurrence strictly after `afterMs`, computed in the zone's wall time (never "+24h");
 * a nudge is afterMs + interval exactly; null once past `until`, or if the rule is incomplete or
 * cannot occur (an RFC 5545 rule that does not parse, an interval beyond ten years).
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
    return interval !== undefined &&
      Number.isFinite(interval) &&
      interval > 0 &&
      interval <= MAX_NUDGE_MINUTES
      ? afterMs + interval * 60_000
      : null;
  }
  const clock = rule.time === undefined ? null : parseClock(rule.time);
  if (rule.type === "hebrew") return clock && rule.hebrew ? nextHebrew(rule, clock, timeZone, afterMs) : null;
  const series = rfc5545Of(rule);
  if (!clock || !series) return null;
  return nextRuleOccurrence(series.parts, series.start, clock, timeZone, afterMs);
}

/**
 * A yearly Hebrew date (its custom for the years that lack it, see hebrewCalendar.ts): at `time` on
 * the Gregorian day it falls on, or with `eve` on the day before, when the Hebrew day begins.
 */
function nextHebrew(
  rule: Recurrence,
  clock: { hour: number; minute: number },
  timeZone: string,
  afterMs: number,
): number | null {
  const { hebrew } = rule;
  if (!hebrew) return null;
  const now = instantToLocal(afterMs, timeZone);
  let from: LocalDate = { year: now.year, month: now.month, day: now.day };
  // Today's may already be past: then the next one after today.
  for (let tries = 0; tries < 3; tries++) {
    const day = nextObservance(hebrew, from, rule.eve === true);
    if (!day) return null;
    const at = localToInstant({ ...day, ...clock }, timeZone);
    if (at > afterMs) return at;
    from = addDays(day, 1);
  }
  return null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-03-10" → a real calendar date, else null. */
function parseLocalDate(text: string | undefined): LocalDate | null {
  const match = text === undefined ? null : DATE.exec(text);
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  const valid =
    date.month >= 1 && date.month <= 12 && date.day >= 1 && date.day <= daysInMonth(date.year, date.month);
  return valid ? date : null;
}

/**
 * Any calendar rule (not a nudge) as RFC 5545 parts and its series start (null when its phase does
 * not matter); null when it is incomplete or not one Memo expands. V1's shapes convert exactly:
 * weekly days are BYDAY, and a monthly day past the 28th is the last of the days 28…N the month has
 * (BYMONTHDAY=28,…,N;BYSETPOS=-1), so "the 31st" is the 30th in April as V1 has it.
 */
export function rfc5545Of(rule: Recurrence): { parts: RuleParts; start: LocalDate | null } | null {
  switch (rule.type) {
    case "daily":
      return { parts: { freq: "DAILY", interval: 1 }, start: null };
    case "weekly": {
      const days = rule.days ?? [];
      if (days.length === 0 || !days.every((d) => Number.isInteger(d) && d >= 0 && d <= 6)) return null;
      const byDay = [...new Set(days)].sort((a, b) => a - b).map((day) => ({ day }));
      return { parts: { freq: "WEEKLY", interval: 1, byDay }, start: null };
    }
    case "monthly": {
      const wanted = rule.dayOfMonth;
      if (wanted === undefined || !Number.isInteger(wanted) || wanted < 1 || wanted > 31) return null;
      const parts: RuleParts =
        wanted <= 28
          ? { freq: "MONTHLY", interval: 1, byMonthDay: [wanted] }
          : {
              freq: "MONTHLY",
              interval: 1,
              byMonthDay: Array.from({ length: wanted - 27 }, (_, i) => 28 + i),
              bySetPos: [-1],
            };
      return { parts, start: null };
    }
    case "rrule": {
      const parts = rule.rule === undefined ? null : parseRule(rule.rule);
      const start = parseLocalDate(rule.start);
      return parts && start ? { parts, start } : null;
    }
    default:
      return null;
  }
}

/** The RFC 5545 text of any calendar rule ("FREQ=DAILY"), or null for a nudge or an incomplete rule. @internal */
export function rfc5545Text(rule: Recurrence): string | null {
  const series = rfc5545Of(rule);
  return series ? formatRule(series.parts) : null;
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
