/**
 * CalendarRecurrence ↔ RFC 5545 RRULE text, as Google Calendar and iCalendar feeds carry it. Rules are
 * read by the strict reader reminders use (parseRule, src/nlu/recurrenceRule.ts): yearly rules, nth
 * weekdays ("BYDAY=1SU"), BYSETPOS, INTERVAL, the last day of the month (BYMONTHDAY=-1)…; a rule it
 * refuses (BYWEEKNO, hourly, a fifth Monday…) reads back as null, and Memo never rewrites it.
 */
import { formatRule, parseRule } from "../../nlu/recurrenceRule.js";
import { addDays, formatDate } from "../../nlu/zonedTime.js";
import { recurrenceOfParts } from "./calendarRule.js";
import { localDateOf, parseDate, startOfDay } from "./recurrenceExpansion.js";
import type { CalendarRecurrence } from "../../types/calendar.js";

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

/** The RRULE parts of V1's fields; `weekStart` as toRRule takes it. */
function v1Parts(rule: CalendarRecurrence, weekStart: DayCode | null | undefined): string[] {
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
  return parts;
}

/**
 * A rule's text (CalendarRecurrence.rule) in the normal order, its own WKST kept: the rule says
 * exactly which weeks it means (none is RFC 5545's Monday), so a replaced rule's week start does not
 * apply to it.
 */
function ruleLine(text: string): string {
  const parts = parseRule(text);
  if (!parts) throw new RangeError(`Not a rule Memo writes: ${text}`);
  return formatRule(parts);
}

/**
 * The RRULE of a recurrence ("RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=…"). `until` (a local date,
 * inclusive) becomes a date for an all-day series and, for a timed one, the last second of that
 * local day in the series' zone, in UTC (RFC 5545 wants UTC when DTSTART has a zone).
 * `weekStart` is the WKST of the rule this one replaces (weekStartOf), written back as it was;
 * undefined for a new rule, which says WKST=SU when a V1 every-N-weeks rule needs one (D6). A
 * `rule` keeps its own WKST.
 */
export function toRRule(
  rule: CalendarRecurrence,
  series: { allDay: boolean; timeZone: string },
  weekStart?: DayCode | null,
): string {
  const parts = rule.rule !== undefined ? [ruleLine(rule.rule)] : v1Parts(rule, weekStart);
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
 * read in the series' zone, in CalendarRecurrence's normal form (V1's fields when they say it, else
 * `rule`); null when there is none or the strict reader refuses it.
 */
export function parseRRule(
  lines: readonly string[] | null | undefined,
  timeZone: string,
): CalendarRecurrence | null {
  const line = lines?.find(isRuleLine);
  if (!line) return null;
  const fields = ruleFields(line);
  // UNTIL and COUNT are kept beside the rule; the rest is the rule itself.
  const rest = line
    .trim()
    .slice("RRULE:".length)
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "" && !/^(?:UNTIL|COUNT)=/i.test(part));
  const parts = parseRule(rest.join(";"));
  if (!parts) return null;
  const bounds: Pick<CalendarRecurrence, "until" | "count"> = {};
  const until = fields.get("UNTIL");
  if (until !== undefined) {
    const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(until);
    if (!match) return null;
    const [, y, mo, d, h, mi, s, z] = match;
    if (h !== undefined && z === "Z") {
      // A UTC instant: the local date it falls on in the series' zone.
      bounds.until = formatDate(localDateOf(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi!, +s!), timeZone));
    } else {
      bounds.until = `${y}-${mo}-${d}`;
    }
    if (!parseDate(bounds.until)) return null;
  }
  const count = fields.get("COUNT");
  if (count !== undefined) {
    const n = Number(count);
    if (!/^\d+$/.test(count) || !Number.isInteger(n) || n < 1) return null;
    bounds.count = n;
  }
  return recurrenceOfParts(parts, bounds);
}
