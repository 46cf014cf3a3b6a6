/**
 * "What does my week look like?": busy hours per day and free slots within waking hours, computed
 * from the events in code, in the user's zone. Pure: the caller brings the events and the clock.
 */
import { addDays, daysBetween, dayOfWeek, localToInstant, formatDate } from "../../nlu/zonedTime.js";
import { localDateOf, startOfDay } from "./recurrenceExpansion.js";
import type { CalendarEvent, TimeRange } from "../../types/calendar.js";
import type { DaySchedule, ScheduleAnalysis, Slot } from "../../contracts/calendar.js";

/** Free time is looked for from this local time… (default: 08:00). */
const WAKING_START = { hour: 8, minute: 0 };
/** …to this one (default: 22:00). */
const WAKING_END = { hour: 22, minute: 0 };
/** Gaps shorter than this are not offered as free time (default: 30 minutes). */
const MIN_FREE_MINUTES = 30;
/** At most this many days are analysed (a month). */
const MAX_DAYS = 31;

export interface ScheduleOptions {
  timeZone: string;
  nowMs: number;
  wakingStart?: { hour: number; minute: number };
  wakingEnd?: { hour: number; minute: number };
  minFreeMinutes?: number;
}

type Span = { startMs: number; endMs: number };

/** Overlapping spans merged, in order. */
function merge(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.startMs - b.startMs);
  const out: Span[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last && span.startMs <= last.endMs) last.endMs = Math.max(last.endMs, span.endMs);
    else out.push({ ...span });
  }
  return out;
}

/** Busy minutes and free slots of each local day the range touches. */
export function analyzeSchedule(
  events: readonly CalendarEvent[],
  range: TimeRange,
  options: ScheduleOptions,
): ScheduleAnalysis {
  const { timeZone, nowMs } = options;
  const wakingStart = options.wakingStart ?? WAKING_START;
  const wakingEnd = options.wakingEnd ?? WAKING_END;
  const minFreeMs = (options.minFreeMinutes ?? MIN_FREE_MINUTES) * 60_000;
  const fromMs = Date.parse(range.from);
  const toMs = Date.parse(range.to);
  const firstDay = localDateOf(fromMs, timeZone);
  // The range's end is exclusive: a range ending at midnight does not touch the next day.
  const lastDay = localDateOf(toMs - 1, timeZone);
  const dayCount = Math.min(MAX_DAYS, daysBetween(firstDay, lastDay) + 1);

  const timed: Span[] = events
    .filter((e) => !e.allDay)
    .map((e) => ({ startMs: Date.parse(e.start), endMs: Date.parse(e.end) }));

  const days: DaySchedule[] = [];
  for (let i = 0; i < dayCount; i++) {
    const day = addDays(firstDay, i);
    const date = formatDate(day);
    const dayStart = startOfDay(day, timeZone);
    const dayEnd = startOfDay(addDays(day, 1), timeZone);
    const clipped = timed
      .filter((s) => s.startMs < dayEnd && s.endMs > dayStart && s.endMs > s.startMs)
      .map((s) => ({ startMs: Math.max(s.startMs, dayStart), endMs: Math.min(s.endMs, dayEnd) }));
    // A zero-length event (a deadline marker) counts as an event but takes no time.
    const touching = timed.filter(
      (s) =>
        (s.startMs < dayEnd && s.endMs > dayStart) ||
        (s.startMs === s.endMs && s.startMs >= dayStart && s.startMs < dayEnd),
    ).length;
    const busy = merge(clipped);
    const busyMinutes = Math.round(busy.reduce((sum, s) => sum + (s.endMs - s.startMs), 0) / 60_000);

    const windowStart = Math.max(localToInstant({ ...day, ...wakingStart }, timeZone), fromMs, nowMs);
    const windowEnd = Math.min(localToInstant({ ...day, ...wakingEnd }, timeZone), toMs);
    const freeSlots: Slot[] = [];
    let cursor = windowStart;
    for (const span of busy) {
      if (span.endMs <= cursor) continue;
      if (span.startMs >= windowEnd) break;
      if (span.startMs - cursor >= minFreeMs) freeSlots.push(slot(cursor, span.startMs));
      cursor = Math.max(cursor, span.endMs);
    }
    if (windowEnd - cursor >= minFreeMs) freeSlots.push(slot(cursor, windowEnd));

    const allDay = events.filter((e) => e.allDay && e.start <= date && e.end > date).map((e) => e.summary);
    days.push({
      date,
      dayOfWeek: dayOfWeek(day),
      events: touching,
      busyMinutes,
      freeSlots,
      allDay,
    });
  }

  const busyMinutes = days.reduce((sum, d) => sum + d.busyMinutes, 0);
  const freeMinutes = days.reduce(
    (sum, d) => sum + d.freeSlots.reduce((s, f) => s + (Date.parse(f.end) - Date.parse(f.start)) / 60_000, 0),
    0,
  );
  const busiest = days.reduce<DaySchedule | null>(
    (best, d) => (d.busyMinutes > (best?.busyMinutes ?? 0) ? d : best),
    null,
  );
  return {
    days,
    totalEvents: timed.length,
    busyMinutes,
    freeMinutes: Math.round(freeMinutes),
    busiestDate: busiest?.date ?? null,
  };
}

function slot(startMs: number, endMs: number): Slot {
  return { start: new Date(startMs).toISOString(), end: new Date(endMs).toISOString() };
}
