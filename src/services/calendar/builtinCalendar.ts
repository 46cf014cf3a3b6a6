import type {
  CalendarEventRepository,
  OccurrenceOverride,
  StoredCalendarEvent,
} from "../../db/repositories/calendarEventRepository.js";
import { addDays, formatDate } from "../../nlu/zonedTime.js";
import {
  applyPatch,
  checkEventInput,
  matchesQuery,
  normalizeEventInput,
  rangeBounds,
  seriesPatchFromOccurrence,
  spanOf,
} from "./eventInput.js";
import { type CompleteEventInput } from "../../types/calendar.js";
import {
  expandSeries,
  occurrenceOn,
  parseDate,
  overlaps,
  type Occurrence,
  type SeriesTiming,
} from "./recurrenceExpansion.js";
import { CalendarRequestError } from "./calendarRequestError.js";
import {
  type CalendarEvent,
  type CalendarProvider,
  type EventInput,
  type EventPatch,
  type EventScope,
  type TimeRange,
} from "../../types/calendar.js";

/** An occurrence's id: the series id and the occurrence's local date, "<uuid>_20260305". */
function occurrenceId(seriesId: string, date: string): string {
  return `${seriesId}_${date.replaceAll("-", "")}`;
}

/** "<uuid>_20260305" → the series id and date "2026-03-05"; a plain id → itself and null. */
export function parseEventId(id: string): { baseId: string; date: string | null } {
  const match = /^(.+)_(\d{4})(\d{2})(\d{2})$/.exec(id);
  if (!match) return { baseId: id, date: null };
  const date = `${match[2]}-${match[3]}-${match[4]}`;
  return parseDate(date) ? { baseId: match[1]!, date } : { baseId: id, date: null };
}

const notFound = (id: string) => new CalendarRequestError("not_found", `no event ${id}`);
const invalid = (message: string) => new CalendarRequestError("invalid", message);

/** The stored event's own fields, without its exceptions. */
function baseInput(stored: StoredCalendarEvent): CompleteEventInput {
  const { id: _id, exdates: _exdates, overrides: _overrides, ...input } = stored;
  return input;
}

function timingOf(stored: StoredCalendarEvent): SeriesTiming {
  if (!stored.recurrence) throw new Error(`event ${stored.id} is not a series`);
  return { ...stored, recurrence: stored.recurrence };
}

/** A single event, or a series as itself (seriesId = its own id, start = its first occurrence). */
function eventOf(stored: StoredCalendarEvent): CalendarEvent {
  return {
    id: stored.id,
    seriesId: stored.recurrence ? stored.id : null,
    summary: stored.summary,
    description: stored.description,
    location: stored.location,
    allDay: stored.allDay,
    start: stored.start,
    end: stored.end,
    timeZone: stored.timeZone,
    recurrence: stored.recurrence,
    reminderMinutesBefore: stored.reminderMinutesBefore,
    attendees: stored.attendees,
  };
}

/** One occurrence of a series, its own changes applied. */
function occurrenceOf(stored: StoredCalendarEvent, occurrence: Occurrence): CalendarEvent {
  const override = stored.overrides[occurrence.date] ?? {};
  return {
    ...eventOf(stored),
    id: occurrenceId(stored.id, occurrence.date),
    seriesId: stored.id,
    start: occurrence.start,
    end: occurrence.end,
    ...override,
    summary: override.summary ?? stored.summary,
    description: override.description === undefined ? stored.description : override.description,
    location: override.location === undefined ? stored.location : override.location,
    reminderMinutesBefore:
      override.reminderMinutesBefore === undefined
        ? stored.reminderMinutesBefore
        : override.reminderMinutesBefore,
  };
}

/** Orders events by start instant, then summary. */
function byStart(a: CalendarEvent, b: CalendarEvent): number {
  return (
    spanOf(a).startMs - spanOf(b).startMs || a.summary.localeCompare(b.summary) || a.id.localeCompare(b.id)
  );
}

/**
 * The built-in calendar of one user, stored in Postgres (calendar_events). Series are expanded in
 * code in their own zone (D6); an occurrence's id is "<series id>_<YYYYMMDD>" (its local date), and
 * a change or deletion of one occurrence is kept on the series as an override or an excluded date.
 * A series id given with scope "instance" acts on the whole series (as Google does).
 */
export class BuiltinCalendar implements CalendarProvider {
  readonly kind = "builtin" as const;
  constructor(
    /** Every user's stored events (this calendar reads and changes only `phone`'s). */
    private readonly events: CalendarEventRepository,
    private readonly phone: string,
  ) {}

  async listEvents(range: TimeRange, options: { query?: string } = {}): Promise<CalendarEvent[]> {
    const { fromMs, toMs } = rangeBounds(range);
    const rows = await this.events.listCandidates(this.phone, fromMs, toMs);
    const found: CalendarEvent[] = [];
    for (const row of rows) {
      if (row.recurrence) found.push(...this.occurrencesIn(row, fromMs, toMs));
      else if (this.inRange(eventOf(row), fromMs, toMs)) found.push(eventOf(row));
    }
    return found.filter((event) => matchesQuery(event, options.query)).sort(byStart);
  }

  async getEvent(id: string): Promise<CalendarEvent | null> {
    const found = await this.find(id);
    if (!found) return null;
    return found.occurrence ? occurrenceOf(found.row, found.occurrence) : eventOf(found.row);
  }

  async createEvent(input: EventInput, operationId: string): Promise<CalendarEvent> {
    if (!operationId) throw new Error("createEvent: operationId is required");
    const stored = await this.events.insert(this.phone, operationId, normalizeEventInput(input));
    return eventOf(stored);
  }

  async updateEvent(id: string, patch: EventPatch, scope: EventScope): Promise<CalendarEvent> {
    const found = await this.find(id);
    if (!found) throw notFound(id);
    const { row, occurrence } = found;

    if (occurrence && scope === "instance") {
      if (patch.recurrence !== undefined)
        throw invalid("a rule changes the whole series, not one occurrence");
      const current = occurrenceOf(row, occurrence);
      const fields = stripUndefined({ ...patch, recurrence: undefined, timeZone: undefined });
      // Checked as the occurrence it will become.
      checkEventInput(applyPatch({ ...baseInput(row), ...current, recurrence: null }, fields));
      if (fields.start !== undefined && fields.end === undefined) {
        fields.end = applyPatch({ ...baseInput(row), ...current, recurrence: null }, fields).end;
      }
      const updated = await this.events.overrideOccurrence(this.phone, row.id, occurrence.date, fields);
      if (!updated) throw notFound(id);
      return occurrenceOf(updated, occurrence);
    }

    const base = baseInput(row);
    let seriesPatch = patch;
    let exceptions: { exdates: string[]; overrides: Record<string, OccurrenceOverride> } | undefined;
    if (occurrence) {
      const moved = seriesPatchFromOccurrence(base, occurrence, patch);
      seriesPatch = moved.patch;
      if (moved.dayShift !== 0) exceptions = shiftExceptions(row, moved.dayShift);
    }
    const next = normalizeEventInput(applyPatch(base, seriesPatch));
    const updated = await this.events.replace(this.phone, row.id, next, exceptions);
    if (!updated) throw notFound(id);
    return eventOf(updated);
  }

  async deleteEvent(id: string, scope: EventScope): Promise<void> {
    const found = await this.find(id);
    if (!found) throw notFound(id);
    if (found.occurrence && scope === "instance") {
      if (!(await this.events.excludeOccurrence(this.phone, found.row.id, found.occurrence.date)))
        throw notFound(id);
      return;
    }
    if (!(await this.events.delete(this.phone, found.row.id))) throw notFound(id);
  }

  async truncateSeries(seriesId: string, lastDate: string): Promise<CalendarEvent> {
    const found = await this.find(parseEventId(seriesId).baseId);
    if (!found) throw notFound(seriesId);
    const { row } = found;
    if (!row.recurrence) throw invalid("only a recurring series can be ended");
    if (!parseDate(lastDate)) throw invalid(`not a date: ${lastDate}`);
    const until = row.recurrence.until && row.recurrence.until < lastDate ? row.recurrence.until : lastDate;
    let next: CompleteEventInput;
    try {
      next = normalizeEventInput({ ...baseInput(row), recurrence: { ...row.recurrence, until } });
    } catch (error) {
      if (error instanceof CalendarRequestError) throw invalid("the series would have no occurrence left");
      throw error;
    }
    const updated = await this.events.replace(this.phone, row.id, next);
    if (!updated) throw notFound(seriesId);
    return eventOf(updated);
  }

  async listInstances(seriesId: string, range: TimeRange): Promise<CalendarEvent[]> {
    const { fromMs, toMs } = rangeBounds(range);
    const found = await this.find(parseEventId(seriesId).baseId);
    if (!found) throw notFound(seriesId);
    const { row } = found;
    if (!row.recurrence) return this.inRange(eventOf(row), fromMs, toMs) ? [eventOf(row)] : [];
    return this.occurrencesIn(row, fromMs, toMs).sort(byStart);
  }

  /** The row an id names and, for an occurrence id, that occurrence (only if the series has it). */
  private async find(
    id: string,
  ): Promise<{ row: StoredCalendarEvent; occurrence: Occurrence | null } | null> {
    const { baseId, date } = parseEventId(id);
    const row = await this.events.get(this.phone, baseId);
    if (!row) return null;
    if (date === null) return { row, occurrence: null };
    if (!row.recurrence || row.exdates.includes(date)) return null;
    const occurrence = occurrenceOn(timingOf(row), date);
    return occurrence ? { row, occurrence } : null;
  }

  private inRange(event: CalendarEvent, fromMs: number, toMs: number): boolean {
    const { startMs, endMs } = spanOf(event);
    return overlaps(startMs, endMs, fromMs, toMs);
  }

  /** A series' occurrences overlapping the range, with their changes, including ones moved into it. */
  private occurrencesIn(row: StoredCalendarEvent, fromMs: number, toMs: number): CalendarEvent[] {
    const timing = timingOf(row);
    const seen = new Set<string>();
    const events: CalendarEvent[] = [];
    for (const occurrence of expandSeries(timing, fromMs, toMs)) {
      seen.add(occurrence.date);
      if (row.exdates.includes(occurrence.date)) continue;
      const event = occurrenceOf(row, occurrence);
      if (this.inRange(event, fromMs, toMs)) events.push(event);
    }
    // An occurrence moved into the range from a date outside it.
    for (const [date, override] of Object.entries(row.overrides)) {
      if (seen.has(date) || row.exdates.includes(date) || override.start === undefined) continue;
      const occurrence = occurrenceOn(timing, date);
      if (!occurrence) continue;
      const event = occurrenceOf(row, occurrence);
      if (this.inRange(event, fromMs, toMs)) events.push(event);
    }
    return events;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The series' exceptions re-keyed after its occurrences moved by `days` days. */
function shiftExceptions(
  row: StoredCalendarEvent,
  days: number,
): { exdates: string[]; overrides: Record<string, OccurrenceOverride> } {
  const shift = (date: string) => {
    const parsed = parseDate(date);
    return parsed ? formatDate(addDays(parsed, days)) : date;
  };
  return {
    exdates: row.exdates.map(shift),
    overrides: Object.fromEntries(Object.entries(row.overrides).map(([date, o]) => [shift(date), o])),
  };
}
