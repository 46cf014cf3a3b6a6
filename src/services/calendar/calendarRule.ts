/**
 * A calendar series' rule as the RFC 5545 parts reminders use (D10): the built-in calendar, Google
 * Calendar and reminders keep the same rules, read, written and expanded by the same code
 * (src/nlu/recurrenceRule.ts). A CalendarRecurrence says its rule in V1's fields when they can
 * (daily; weekly on days; monthly on days of the month) and as RFC 5545 text (`rule`) otherwise
 * ("FREQ=MONTHLY;BYDAY=1SU", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3"): one normal form for each rule, so
 * a rule written to Google reads back equal.
 */
import { rfc5545Of } from "../../nlu/recurrence.js";
import { type Recurrence } from "../../types/recurrence.js";
import { MAX_INTERVAL, formatRule, parseRule, type RuleParts } from "../../nlu/recurrenceRule.js";
import { instantToLocal, type LocalDate } from "../../nlu/zonedTime.js";
import type { CalendarRecurrence } from "../../types/calendar.js";

const FREQUENCY_NAME = {
  DAILY: "daily",
  WEEKLY: "weekly",
  MONTHLY: "monthly",
  YEARLY: "yearly",
} as const satisfies Record<RuleParts["freq"], CalendarRecurrence["frequency"]>;

const FREQUENCY_OF = {
  daily: "DAILY",
  weekly: "WEEKLY",
  monthly: "MONTHLY",
  yearly: "YEARLY",
} as const satisfies Record<CalendarRecurrence["frequency"], RuleParts["freq"]>;

const sortedUnique = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);

/**
 * The RFC 5545 parts of a series' rule (without until and count); null when it is not one Memo
 * expands. V1's weekly rules count their weeks from Sunday (WKST=SU, D6), as they always have.
 */
export function partsOf(rule: CalendarRecurrence): RuleParts | null {
  if (rule.rule !== undefined) return parseRule(rule.rule);
  const freq = FREQUENCY_OF[rule.frequency] as RuleParts["freq"] | undefined;
  if (!freq) return null;
  const interval = rule.interval ?? 1;
  if (!Number.isInteger(interval) || interval < 1 || interval > MAX_INTERVAL[freq]) return null;
  const parts: RuleParts = { freq, interval };
  if (freq === "WEEKLY") {
    if (rule.days?.length) parts.byDay = sortedUnique(rule.days).map((day) => ({ day }));
    parts.weekStart = 0;
  }
  if (freq === "MONTHLY" && rule.daysOfMonth?.length) parts.byMonthDay = sortedUnique(rule.daysOfMonth);
  return parts;
}

/** V1's fields for parts they say exactly, else null. */
function v1Of(parts: RuleParts): CalendarRecurrence | null {
  const { freq, interval, byDay, byMonthDay, byMonth, bySetPos, weekStart } = parts;
  if (byMonth || bySetPos) return null;
  const base = interval > 1 ? { interval } : {};
  switch (freq) {
    case "DAILY":
      return byDay || byMonthDay ? null : { frequency: "daily", ...base };
    case "WEEKLY":
      if (byMonthDay || byDay?.some((d) => d.nth !== undefined)) return null;
      // V1 counts weeks from Sunday: where the week start decides which weeks are meant, only a
      // Sunday week is V1's (no WKST is RFC 5545's Monday).
      if (interval > 1 && (byDay?.length ?? 0) > 1 && weekStart !== 0) return null;
      return { frequency: "weekly", ...base, ...(byDay ? { days: byDay.map((d) => d.day) } : {}) };
    case "MONTHLY":
      if (byDay || byMonthDay?.some((d) => d < 1)) return null;
      return { frequency: "monthly", ...base, ...(byMonthDay ? { daysOfMonth: byMonthDay } : {}) };
    default:
      return null;
  }
}

/** Parts as a CalendarRecurrence in its normal form: V1's fields when they say it, else the rule's text. */
export function recurrenceOfParts(
  parts: RuleParts,
  bounds: Pick<CalendarRecurrence, "until" | "count"> = {},
): CalendarRecurrence {
  const rule = v1Of(parts) ?? { frequency: FREQUENCY_NAME[parts.freq], rule: formatRule(parts) };
  if (bounds.until !== undefined) rule.until = bounds.until;
  if (bounds.count !== undefined) rule.count = bounds.count;
  return rule;
}

/**
 * A reminder's rule (readTime's Recurrence) as a calendar series' rule, in `timeZone`: its `until`
 * instant becomes the local date it falls on. Null for a nudge or a rule that cannot be expanded.
 * The series' first occurrence must be the reminder's first (its anchor).
 */
export function recurrenceOfReminder(rule: Recurrence, timeZone: string): CalendarRecurrence | null {
  const series = rfc5545Of(rule);
  if (!series) return null;
  let until: string | undefined;
  if (rule.until !== undefined) {
    const ms = Date.parse(rule.until);
    if (Number.isNaN(ms)) return null;
    const l = instantToLocal(ms, timeZone);
    until = formatLocalDate(l);
  }
  return recurrenceOfParts(series.parts, until === undefined ? {} : { until });
}

function formatLocalDate(date: LocalDate): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/**
 * The rule of a series whose occurrences all move by `dayShift` days, one of them to `newDate`
 * (weekly days and days of the month move along, a yearly date becomes the new one); null when the
 * rule names days that cannot move that way (a day of the month past 31, the last day of the month).
 * A rule whose days come from its start moves with the start and is returned as it is.
 */
export function shiftedRecurrence(
  rule: CalendarRecurrence,
  dayShift: number,
  newDate: LocalDate,
): CalendarRecurrence | null {
  if (dayShift === 0) return rule;
  const parts = partsOf(rule);
  if (!parts) return null;
  const { until, count } = rule;
  const bounds = { ...(until !== undefined ? { until } : {}), ...(count !== undefined ? { count } : {}) };
  const moved: RuleParts = { ...parts };
  if (parts.byDay) {
    if (parts.freq === "YEARLY" && parts.byMonth) return null;
    moved.byDay = parts.byDay
      .map((d) => ({ ...d, day: (((d.day + dayShift) % 7) + 7) % 7 }))
      .sort((a, b) => a.day - b.day || (a.nth ?? 0) - (b.nth ?? 0));
  }
  if (parts.byMonthDay) {
    if (parts.bySetPos) return null;
    if (parts.freq === "YEARLY") {
      if (parts.byMonthDay.length !== 1 || parts.byMonth?.length !== 1) return null;
      moved.byMonth = [newDate.month];
      moved.byMonthDay = [newDate.day];
    } else {
      const days = parts.byMonthDay.map((d) => d + dayShift);
      if (!parts.byMonthDay.every((d) => d > 0) || !days.every((d) => d >= 1 && d <= 31)) return null;
      moved.byMonthDay = sortedUnique(days);
    }
  } else if (parts.byMonth) {
    return null;
  }
  if (rule.rule === undefined && !(rule.days?.length || rule.daysOfMonth?.length)) return rule;
  return recurrenceOfParts(moved, bounds);
}
