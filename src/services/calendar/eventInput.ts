/**
 * Checks and normal forms of what providers are asked to store, shared by every provider so that
 * they accept and refuse the same things.
 */
import { MAX_INTERVAL, parseRule, type RuleParts } from "../../nlu/recurrenceRule.js";
import { addDays, daysBetween, instantToLocal, localToInstant, formatDate } from "../../nlu/zonedTime.js";
import { partsOf, recurrenceOfParts, shiftedRecurrence } from "./calendarRule.js";
import {
  firstOccurrence,
  lastOccurrence,
  localDateOf,
  parseDate,
  startOfDay,
} from "./recurrenceExpansion.js";
import { CalendarRequestError } from "./calendarRequestError.js";
import { isValidTimeZone } from "../../utils/timeContext.js";
import { z } from "zod";
import type {
  Attendee,
  CalendarRecurrence,
  CompleteEventInput,
  EventInput,
  EventPatch,
} from "../../types/calendar.js";
import { foldForMatching } from "../../utils/searchText.js";

const invalid = (message: string) => new CalendarRequestError("invalid", message);

const FREQUENCIES = ["daily", "weekly", "monthly", "yearly"];

/**
 * A rule checked and in its normal form (calendarRule.ts): V1's fields, or an RFC 5545 `rule` the
 * strict reader accepts (the same rules reminders keep); throws CalendarRequestError("invalid").
 */
function checkRecurrence(rule: CalendarRecurrence): CalendarRecurrence {
  let parts: RuleParts | null;
  if (rule.rule !== undefined && rule.rule !== null) {
    parts = typeof rule.rule === "string" ? parseRule(rule.rule) : null;
    if (!parts) throw invalid(`not a recurrence rule Memo keeps: "${String(rule.rule)}"`);
  } else {
    if (!FREQUENCIES.includes(rule.frequency)) {
      throw invalid(`unknown recurrence frequency "${String(rule.frequency)}"`);
    }
    const v1: CalendarRecurrence = { frequency: rule.frequency };
    if (rule.interval !== undefined && rule.interval !== 1) {
      if (!Number.isInteger(rule.interval) || rule.interval < 1 || rule.interval > 999) {
        throw invalid("recurrence interval must be a whole number from 1");
      }
      v1.interval = rule.interval;
    }
    if (rule.frequency === "weekly" && rule.days?.length) {
      if (!rule.days.every((d) => Number.isInteger(d) && d >= 0 && d <= 6)) {
        throw invalid("weekly days are 0 (Sunday) to 6 (Saturday)");
      }
      v1.days = rule.days;
    }
    if (rule.frequency === "monthly" && rule.daysOfMonth?.length) {
      if (!rule.daysOfMonth.every((d) => Number.isInteger(d) && d >= 1 && d <= 31)) {
        throw invalid("days of the month are 1 to 31");
      }
      v1.daysOfMonth = rule.daysOfMonth;
    }
    parts = partsOf(v1);
    // Ten years at most between occurrences (D10), as for reminders.
    if (!parts) throw invalid("the recurrence repeats less often than once in ten years");
  }
  if (parts.interval > MAX_INTERVAL[parts.freq]) {
    throw invalid("the recurrence repeats less often than once in ten years");
  }
  const out = recurrenceOfParts(parts);
  if (rule.until !== undefined && rule.until !== null) {
    if (!parseDate(rule.until))
      throw invalid(`recurrence until must be a date YYYY-MM-DD, not "${rule.until}"`);
    out.until = rule.until;
  }
  if (rule.count !== undefined && rule.count !== null) {
    if (!Number.isInteger(rule.count) || rule.count < 1 || rule.count > 5000) {
      throw invalid("recurrence count must be a whole number from 1");
    }
    out.count = rule.count;
  }
  return out;
}

/** At most this many people on one event. */
const MAX_ATTENDEES = 50;

/** An attendee's name is at most this many characters (default: 200, as the contacts table keeps). */
export const MAX_NAME = 200;

const EMAIL = z.email();

/** Whether text is an e-mail address Memo accepts (zod's check: one @, a dotted domain, no spaces). */
export function isEmailAddress(text: string): boolean {
  return EMAIL.safeParse(text).success;
}

/**
 * Attendees checked: names trimmed, addresses lower-cased and valid, each address once; throws
 * CalendarRequestError("invalid") for an address that is not one, or too many people. People the
 * calendar already keeps (`kept`: read from it) are taken as it has them: Google holds addresses
 * zod's check refuses (josé@example.com) and long names, and an event it holds must stay changeable.
 */
function checkAttendees(attendees: Attendee[] | undefined, kept: readonly Attendee[] = []): Attendee[] {
  const out: Attendee[] = [];
  const seen = new Set<string>();
  const keptKey = (a: Attendee) => a.email?.trim().toLowerCase() ?? `name:${a.name?.trim() ?? ""}`;
  const known = new Set(kept.map(keptKey));
  let added = 0;
  for (const attendee of attendees ?? []) {
    const name = attendee.name?.trim() || null;
    const email = attendee.email?.trim().toLowerCase() || null;
    const key = email ?? `name:${name?.toLowerCase() ?? ""}`;
    if ((!name && !email) || seen.has(key)) continue;
    if (!known.has(keptKey({ name, email }))) {
      if (email !== null && !isEmailAddress(email)) throw invalid(`not an e-mail address: "${email}"`);
      if ((name?.length ?? 0) > MAX_NAME) throw invalid("an attendee's name is too long");
      added++;
    }
    seen.add(key);
    out.push({ name, email });
  }
  if (added > 0 && out.length > MAX_ATTENDEES)
    throw invalid(`an event has at most ${MAX_ATTENDEES} attendees`);
  return out;
}

/**
 * Checks the fields of an event (a summary, a real zone, dates or instants in order); throws
 * CalendarRequestError("invalid"). `kept`: the people the calendar already has on it (default: none).
 */
export function checkEventInput(input: EventInput, kept?: readonly Attendee[]): CompleteEventInput {
  const summary = typeof input.summary === "string" ? input.summary.trim() : "";
  if (summary.length === 0) throw invalid("an event needs a summary");
  if (summary.length > 500) throw invalid("the summary is too long");
  if ((input.description?.length ?? 0) > 8000) throw invalid("the description is too long");
  if ((input.location?.length ?? 0) > 500) throw invalid("the location is too long");
  if (typeof input.timeZone !== "string" || !isValidTimeZone(input.timeZone)) {
    throw invalid(`unknown time zone "${String(input.timeZone)}"`);
  }
  let start: string;
  let end: string;
  if (input.allDay) {
    const first = parseDate(input.start);
    const after = parseDate(input.end);
    if (!first || !after) throw invalid("an all-day event's start and end are dates YYYY-MM-DD");
    if (daysBetween(first, after) < 1) throw invalid("an all-day event ends at least a day after it starts");
    start = input.start;
    end = input.end;
  } else {
    const startMs = Date.parse(input.start);
    const endMs = Date.parse(input.end);
    // A bare date is not an instant here: it would silently mean UTC midnight.
    if (
      !Number.isFinite(startMs) ||
      !Number.isFinite(endMs) ||
      parseDate(input.start) ||
      parseDate(input.end)
    ) {
      throw invalid("a timed event's start and end are ISO instants");
    }
    if (endMs < startMs) throw invalid("the event ends before it starts");
    start = new Date(startMs).toISOString();
    end = new Date(endMs).toISOString();
  }
  const reminder = input.reminderMinutesBefore ?? null;
  if (reminder !== null && (!Number.isInteger(reminder) || reminder < 0 || reminder > 40320)) {
    throw invalid("an event reminder is 0 to 40320 minutes before");
  }
  return {
    summary,
    description: input.description?.trim() || null,
    location: input.location?.trim() || null,
    allDay: Boolean(input.allDay),
    start,
    end,
    timeZone: input.timeZone,
    recurrence: input.recurrence ? checkRecurrence(input.recurrence) : null,
    reminderMinutesBefore: reminder,
    attendees: checkAttendees(input.attendees, kept),
  };
}

/**
 * A checked event in its normal form: a series starts on its first occurrence (a weekly Monday rule
 * given a Sunday start begins the next day), and a rule with both `count` and `until` keeps only
 * `until` (RFC 5545 allows one of them), set to the earlier end. Throws when the rule has no occurrence.
 */
export function normalizeEventInput(input: EventInput, kept?: readonly Attendee[]): CompleteEventInput {
  const event = checkEventInput(input, kept);
  if (!event.recurrence) return event;
  let rule = event.recurrence;
  const timing = { ...event, recurrence: rule };
  const first = firstOccurrence(timing);
  if (!first) throw invalid("the recurrence has no occurrence");
  if (rule.count !== undefined && rule.until !== undefined) {
    const { until, ...countOnly } = rule;
    const { count: _count, ...untilOnly } = rule;
    const byCount = lastOccurrence({ ...timing, recurrence: countOnly });
    rule = { ...untilOnly, until: byCount && byCount.date < until ? byCount.date : until };
  }
  return { ...event, start: first.start, end: first.end, recurrence: rule };
}

/** The event with the patch applied (absent fields unchanged); switching allDay needs a new start and end. */
export function applyPatch(event: CompleteEventInput, patch: EventPatch): CompleteEventInput {
  if (patch.allDay !== undefined && patch.allDay !== event.allDay && (!patch.start || !patch.end)) {
    throw invalid("changing between all-day and timed needs a new start and end");
  }
  const next: CompleteEventInput = { ...event };
  for (const key of Object.keys(patch) as (keyof EventPatch)[]) {
    if (patch[key] !== undefined) (next as Record<string, unknown>)[key] = patch[key];
  }
  // A new start alone keeps the event's length.
  if (patch.start !== undefined && patch.end === undefined && next.allDay === event.allDay) {
    next.end = shiftedEnd(event, patch.start);
  }
  return next;
}

/** The end that keeps `event`'s length when it starts at `start` instead. */
function shiftedEnd(event: CompleteEventInput, start: string): string {
  if (event.allDay) {
    const from = parseDate(start);
    const first = parseDate(event.start);
    const after = parseDate(event.end);
    if (!from || !first || !after) return event.end;
    return formatDate(addDays(from, daysBetween(first, after)));
  }
  const startMs = Date.parse(start);
  if (!Number.isFinite(startMs)) return event.end;
  return new Date(startMs + Date.parse(event.end) - Date.parse(event.start)).toISOString();
}

/**
 * A series moved the way one of its occurrences is being moved: `patch.start` / `patch.end` are the
 * occurrence's new times; the series' first occurrence moves by the same number of days to the same
 * new wall time (in the series' zone), weekly days and monthly days move along, and the result keeps
 * the new length. Returns the patch to apply to the series, and the day shift (for exception keys).
 */
export function seriesPatchFromOccurrence(
  series: CompleteEventInput,
  occurrence: { date: string; start: string; end: string },
  patch: EventPatch,
): { patch: EventPatch; dayShift: number } {
  if (patch.start === undefined && patch.end === undefined) return { patch, dayShift: 0 };
  const allDay = patch.allDay ?? series.allDay;
  const zone = patch.timeZone ?? series.timeZone;
  const occurrenceStart = patch.start ?? occurrence.start;
  const occurrenceEnd =
    patch.end ?? shiftedEnd({ ...series, start: occurrence.start, end: occurrence.end }, occurrenceStart);
  const newDate = allDay ? parseDate(occurrenceStart) : localDateOf(Date.parse(occurrenceStart), zone);
  const oldDate = parseDate(occurrence.date);
  const firstDate = series.allDay
    ? parseDate(series.start)
    : localDateOf(Date.parse(series.start), series.timeZone);
  if (!newDate || !oldDate || !firstDate) throw invalid("the new start is not a date or an instant");
  const dayShift = daysBetween(oldDate, newDate);
  const movedFirst = addDays(firstDate, dayShift);

  let start: string;
  let end: string;
  if (allDay) {
    const length = daysBetween(parseDate(occurrenceStart)!, parseDate(occurrenceEnd) ?? newDate);
    start = formatDate(movedFirst);
    end = formatDate(addDays(movedFirst, length));
  } else {
    const newStartMs = Date.parse(occurrenceStart);
    const wall = instantToLocal(newStartMs, zone);
    const startMs =
      localToInstant({ ...movedFirst, hour: wall.hour, minute: wall.minute }, zone) +
      (((newStartMs % 60_000) + 60_000) % 60_000);
    start = new Date(startMs).toISOString();
    end = new Date(startMs + Date.parse(occurrenceEnd) - newStartMs).toISOString();
  }

  const out: EventPatch = { ...patch, start, end };
  const rule = patch.recurrence ?? series.recurrence;
  if (rule && patch.recurrence === undefined && dayShift !== 0) {
    // Weekly days, days of the month and a yearly date move along with the occurrence.
    const moved = shiftedRecurrence(rule, dayShift, newDate);
    if (moved) out.recurrence = moved;
    else if (rule.rule !== undefined)
      throw invalid("this series repeats in a way that cannot move to that day");
  }
  return { patch: out, dayShift };
}

/** A span as instants: all-day dates are local midnights in the event's zone. */
export function spanOf(event: { allDay: boolean; start: string; end: string; timeZone: string }): {
  startMs: number;
  endMs: number;
} {
  if (event.allDay)
    return { startMs: startOfDay(event.start, event.timeZone), endMs: startOfDay(event.end, event.timeZone) };
  return { startMs: Date.parse(event.start), endMs: Date.parse(event.end) };
}

/** A range's bounds as epoch ms; throws CalendarRequestError("invalid") for a malformed or reversed range. */
export function rangeBounds(range: { from: string; to: string }): { fromMs: number; toMs: number } {
  const fromMs = Date.parse(range.from);
  const toMs = Date.parse(range.to);
  if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || toMs < fromMs) {
    throw invalid(`not a time range: ${range.from} – ${range.to}`);
  }
  return { fromMs, toMs };
}

/** Whether every word of `query` occurs in the summary, description or location (case-insensitive). */
export function matchesQuery(
  event: { summary: string; description: string | null; location: string | null },
  query: string | undefined,
): boolean {
  const words = foldForMatching(query ?? "")
    .split(" ")
    .filter(Boolean);
  if (words.length === 0) return true;
  const haystack = foldForMatching([event.summary, event.description ?? "", event.location ?? ""].join("\n"));
  return words.every((word) => haystack.includes(word));
}
