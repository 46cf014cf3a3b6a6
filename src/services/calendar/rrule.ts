/**
 * CalendarRecurrence ↔ RFC 5545 RRULE text, as Google Calendar and iCalendar feeds carry it.
 * Only what CalendarRecurrence can say is written; a rule it cannot say (yearly, "first Monday")
 * reads back as null.
 */
import { addDays } from "../../nlu/zonedTime.js";
import { formatDate, localDateOf, parseDate, startOfDay } from "./recurrenceExpansion.js";
import type { CalendarRecurrence } from "./types.js";

/** RFC 5545 day codes, 0 = Sunday … 6 = Saturday (D6 numbering). */
const DAY_CODES = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"] as const;

/** An RFC 5545 day code ("SU" … "SA"). */
export type DayCode = (typeof DAY_CODES)[number];

const isDayCode = (code: string): code is DayCode => (DAY_CODES as readonly string[]).includes(code);

/** Whether a recurrence line is an RRULE line (not EXDATE, RDATE…). */
export const isRuleLine = (line: string) => /^RRULE:/i.test(line.trim());

/** The fields of an RRULE line, keys and values upper-cased. */
function ruleFields(line: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const part of line.trim().slice("RRULE:".length).split(";")) {
    const [key, value] = part.split("=");
    if (key && value !== undefined) fields.set(key.toUpperCase(), value.toUpperCase());
  }
  return fields;
}

/**
 * The week start (WKST) a series' first RRULE line names: a day code, null when it names none
 * (RFC 5545's default, Monday, applies), undefined when there is no RRULE line.
 */
export function weekStartOf(lines: readonly string[] | null | undefined): DayCode | null | undefined {
  const line = lines?.find(isRuleLine);
  if (!line) return undefined;
  const code = ruleFields(line).get("WKST");
  return code && isDayCode(code) ? code : null;
}

/** An instant in RFC 5545's UTC form: 20260305T080000Z. */
export function utcStamp(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** "2026-03-05" → "20260305". */
export const basicDate = (date: string) => date.replaceAll("-", "");

/**
 * The RRULE of a recurrence ("RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=…"). `until` (a local date,
 * inclusive) becomes a date for an all-day series and, for a timed one, the last second of that
 * local day in the series' zone, in UTC (RFC 5545 wants UTC when DTSTART has a zone).
 * `weekStart` is the WKST of the rule this one replaces (weekStartOf), written back as it was;
 * undefined for a new rule, which says WKST=SU when every-N-weeks needs one (D6).
 */
export function toRRule(
  rule: CalendarRecurrence,
  series: { allDay: boolean; timeZone: string },
  weekStart?: DayCode | null,
): string {
  const parts = [`FREQ=${rule.frequency.toUpperCase()}`];
  const interval = rule.interval ?? 1;
  if (interval > 1) parts.push(`INTERVAL=${interval}`);
  if (rule.frequency === "weekly" && rule.days?.length) {
    parts.push(`BYDAY=${rule.days.map((d) => DAY_CODES[d]).join(",")}`);
  }
  if (rule.frequency === "monthly" && rule.daysOfMonth?.length) {
    parts.push(`BYMONTHDAY=${rule.daysOfMonth.join(",")}`);
  }
  if (weekStart !== undefined) {
    // A rule rewritten keeps its own week start: moving it would move which weeks "every other week" means.
    if (weekStart) parts.push(`WKST=${weekStart}`);
  } else if (rule.frequency === "weekly" && rule.days?.length && interval > 1) {
    // Which weeks "every other week" means depends on where a week starts: Sunday here (D6).
    parts.push("WKST=SU");
  }
  if (rule.until !== undefined) {
    const until = parseDate(rule.until);
    if (!until) throw new RangeError(`Not a date: ${rule.until}`);
    parts.push(
      `UNTIL=${series.allDay ? basicDate(rule.until) : utcStamp(startOfDay(addDays(until, 1), series.timeZone) - 1000)}`,
    );
  } else if (rule.count !== undefined) {
    parts.push(`COUNT=${rule.count}`);
  }
  return `RRULE:${parts.join(";")}`;
}

/**
 * The recurrence of a series' RRULE lines (the first RRULE line; EXDATE and RDATE lines are ignored),
 * read in the series' zone; null when there is none or it says more than CalendarRecurrence can.
 */
export function parseRRule(
  lines: readonly string[] | null | undefined,
  timeZone: string,
): CalendarRecurrence | null {
  const line = lines?.find(isRuleLine);
  if (!line) return null;
  const fields = ruleFields(line);
  const frequency = { DAILY: "daily", WEEKLY: "weekly", MONTHLY: "monthly" }[fields.get("FREQ") ?? ""] as
    CalendarRecurrence["frequency"] | undefined;
  if (!frequency) return null;
  // Rules CalendarRecurrence cannot say.
  for (const key of ["BYSETPOS", "BYMONTH", "BYYEARDAY", "BYWEEKNO", "BYHOUR", "BYMINUTE", "BYSECOND"]) {
    if (fields.has(key)) return null;
  }
  // WKST changes nothing CalendarRecurrence says (weekStartOf reads it, toRRule writes it back).
  const weekStart = fields.get("WKST");
  if (weekStart !== undefined && !isDayCode(weekStart)) return null;
  const rule: CalendarRecurrence = { frequency };
  const interval = Number(fields.get("INTERVAL") ?? 1);
  if (!Number.isInteger(interval) || interval < 1) return null;
  if (interval > 1) rule.interval = interval;

  const byDay = fields.get("BYDAY");
  if (byDay) {
    if (frequency !== "weekly") return null;
    const days = byDay.split(",").map((code) => DAY_CODES.indexOf(code as DayCode));
    // "1MO" (ordinal days) and unknown codes are beyond what the rule can say.
    if (days.some((d) => d < 0)) return null;
    rule.days = [...new Set(days)].sort((a, b) => a - b);
  }
  const byMonthDay = fields.get("BYMONTHDAY");
  if (byMonthDay) {
    if (frequency !== "monthly") return null;
    const days = byMonthDay.split(",").map(Number);
    if (!days.every((d) => Number.isInteger(d) && d >= 1 && d <= 31)) return null;
    rule.daysOfMonth = [...new Set(days)].sort((a, b) => a - b);
  }
  const until = fields.get("UNTIL");
  if (until) {
    const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(until);
    if (!match) return null;
    const [, y, mo, d, h, mi, s, z] = match;
    if (h !== undefined && z === "Z") {
      // A UTC instant: the local date it falls on in the series' zone.
      rule.until = formatDate(localDateOf(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi!, +s!), timeZone));
    } else {
      rule.until = `${y}-${mo}-${d}`;
    }
  }
  const count = fields.get("COUNT");
  if (count) {
    const n = Number(count);
    if (!Number.isInteger(n) || n < 1) return null;
    rule.count = n;
  }
  return rule;
}
