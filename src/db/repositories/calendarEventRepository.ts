import type { Queryable } from "../transaction.js";
import type { CompleteEventInput } from "../../types/calendar.js";
import type { Attendee, CalendarRecurrence, EventInput } from "../../types/calendar.js";
import { isUuid } from "./taskRepository.js";

/** What one occurrence of a series changed on its own (the fields it has replace the series' ones). */
export type OccurrenceOverride = Partial<Omit<EventInput, "recurrence">>;

/** A row of the built-in calendar: an event, or a series with its exceptions. */
export interface StoredCalendarEvent extends CompleteEventInput {
  id: string;
  /** Occurrence dates (YYYY-MM-DD, series' zone) removed from the series. */
  exdates: string[];
  /** Occurrence date (YYYY-MM-DD) → what that occurrence changed. */
  overrides: Record<string, OccurrenceOverride>;
}

/** Storage of built-in calendar events. Every method takes the owner's phone and touches only that owner's rows. */
export interface CalendarEventRepository {
  /** Stores a new event; a second call with the same operationId stores nothing and returns the first one's event. */
  insert(phone: string, operationId: string, event: CompleteEventInput): Promise<StoredCalendarEvent>;
  get(phone: string, id: string): Promise<StoredCalendarEvent | null>;
  /**
   * Every series of the owner, and the single events that may overlap [fromMs, toMs) (a margin of two
   * days around all-day dates, which callers check exactly in the event's zone).
   */
  listCandidates(phone: string, fromMs: number, toMs: number): Promise<StoredCalendarEvent[]>;
  /** Every event of the owner, by start (the iCalendar feed). */
  listAll(phone: string): Promise<StoredCalendarEvent[]>;
  /** Replaces the event's fields (and, when given, its exceptions); null when the owner has no such event. */
  replace(
    phone: string,
    id: string,
    event: CompleteEventInput,
    exceptions?: { exdates: string[]; overrides: Record<string, OccurrenceOverride> },
  ): Promise<StoredCalendarEvent | null>;
  /** Merges `fields` into the override of one occurrence date (atomically); null when no such event. */
  overrideOccurrence(
    phone: string,
    id: string,
    date: string,
    fields: OccurrenceOverride,
  ): Promise<StoredCalendarEvent | null>;
  /** Removes one occurrence date from a series (atomically); null when no such event. */
  excludeOccurrence(phone: string, id: string, date: string): Promise<StoredCalendarEvent | null>;
  /** Deletes the event or series; false when the owner has no such event. */
  delete(phone: string, id: string): Promise<boolean>;
}

interface CalendarEventRow {
  id: string;
  summary: string;
  description: string | null;
  location: string | null;
  all_day: boolean;
  start_at: Date | null;
  end_at: Date | null;
  start_date: string | null;
  end_date: string | null;
  time_zone: string;
  recurrence: CalendarRecurrence | null;
  exdates: string[];
  overrides: Record<string, OccurrenceOverride>;
  reminder_minutes_before: number | null;
  attendees: Attendee[];
}

// Dates as text: node-postgres would read a `date` as local midnight of the process's zone.
const COLUMNS = `id, summary, description, location, all_day, start_at, end_at,
  to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(end_date, 'YYYY-MM-DD') AS end_date,
  time_zone, recurrence, exdates, overrides, reminder_minutes_before, attendees`;

function toStored(row: CalendarEventRow): StoredCalendarEvent {
  return {
    id: row.id,
    summary: row.summary,
    description: row.description,
    location: row.location,
    allDay: row.all_day,
    start: row.all_day ? row.start_date! : row.start_at!.toISOString(),
    end: row.all_day ? row.end_date! : row.end_at!.toISOString(),
    timeZone: row.time_zone,
    recurrence: row.recurrence,
    reminderMinutesBefore: row.reminder_minutes_before,
    attendees: row.attendees,
    exdates: row.exdates,
    overrides: row.overrides,
  };
}

/**
 * An event's columns summary … attendees, in the order insert and replace bind them
 * ($3 to $14): the timing as instants for a timed event, as dates for an all-day one.
 */
function eventValues(event: CompleteEventInput): unknown[] {
  const timing = event.allDay ? [null, null, event.start, event.end] : [event.start, event.end, null, null];
  return [
    event.summary,
    event.description,
    event.location,
    event.allDay,
    ...timing,
    event.timeZone,
    event.recurrence ? JSON.stringify(event.recurrence) : null,
    event.reminderMinutesBefore,
    JSON.stringify(event.attendees),
  ];
}

/** CalendarEventRepository in plain SQL, on the pool or on a transaction's client. */
export class PgCalendarEventRepository implements CalendarEventRepository {
  constructor(private readonly db: Queryable) {}

  async insert(phone: string, operationId: string, event: CompleteEventInput): Promise<StoredCalendarEvent> {
    const inserted = await this.db.query<CalendarEventRow>(
      `INSERT INTO calendar_events (user_phone, created_by_operation, summary, description, location,
         all_day, start_at, end_at, start_date, end_date, time_zone, recurrence, reminder_minutes_before,
         attendees)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14::jsonb)
       ON CONFLICT (user_phone, created_by_operation) DO NOTHING
       RETURNING ${COLUMNS}`,
      [phone, operationId, ...eventValues(event)],
    );
    if (inserted.rows[0]) return toStored(inserted.rows[0]);
    const existing = await this.db.query<CalendarEventRow>(
      `SELECT ${COLUMNS} FROM calendar_events WHERE user_phone = $1 AND created_by_operation = $2`,
      [phone, operationId],
    );
    if (!existing.rows[0])
      throw new Error(`calendar event of operation ${operationId} vanished during its insert`);
    return toStored(existing.rows[0]);
  }

  async get(phone: string, id: string): Promise<StoredCalendarEvent | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.db.query<CalendarEventRow>(
      `SELECT ${COLUMNS} FROM calendar_events WHERE user_phone = $1 AND id = $2`,
      [phone, id],
    );
    return rows[0] ? toStored(rows[0]) : null;
  }

  async listCandidates(phone: string, fromMs: number, toMs: number): Promise<StoredCalendarEvent[]> {
    const { rows } = await this.db.query<CalendarEventRow>(
      `SELECT ${COLUMNS} FROM calendar_events
       WHERE user_phone = $1
         AND (recurrence IS NOT NULL
           OR (NOT all_day AND start_at <= $3 AND end_at >= $2)
           OR (all_day AND start_date <= ($3::timestamptz AT TIME ZONE 'UTC')::date + 2
                       AND end_date >= ($2::timestamptz AT TIME ZONE 'UTC')::date - 2))
       ORDER BY coalesce(start_at, start_date::timestamp AT TIME ZONE 'UTC'), id`,
      [phone, new Date(fromMs).toISOString(), new Date(toMs).toISOString()],
    );
    return rows.map(toStored);
  }

  async listAll(phone: string): Promise<StoredCalendarEvent[]> {
    const { rows } = await this.db.query<CalendarEventRow>(
      `SELECT ${COLUMNS} FROM calendar_events WHERE user_phone = $1
       ORDER BY coalesce(start_at, start_date::timestamp AT TIME ZONE 'UTC'), id`,
      [phone],
    );
    return rows.map(toStored);
  }

  async replace(
    phone: string,
    id: string,
    event: CompleteEventInput,
    exceptions?: { exdates: string[]; overrides: Record<string, OccurrenceOverride> },
  ): Promise<StoredCalendarEvent | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.db.query<CalendarEventRow>(
      `UPDATE calendar_events SET summary = $3, description = $4, location = $5, all_day = $6,
         start_at = $7, end_at = $8, start_date = $9, end_date = $10, time_zone = $11,
         recurrence = $12::jsonb, reminder_minutes_before = $13, attendees = $14::jsonb,
         exdates = coalesce($15::jsonb, exdates), overrides = coalesce($16::jsonb, overrides),
         updated_at = now()
       WHERE user_phone = $1 AND id = $2
       RETURNING ${COLUMNS}`,
      [
        phone,
        id,
        ...eventValues(event),
        exceptions ? JSON.stringify(exceptions.exdates) : null,
        exceptions ? JSON.stringify(exceptions.overrides) : null,
      ],
    );
    return rows[0] ? toStored(rows[0]) : null;
  }

  async overrideOccurrence(
    phone: string,
    id: string,
    date: string,
    fields: OccurrenceOverride,
  ): Promise<StoredCalendarEvent | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.db.query<CalendarEventRow>(
      `UPDATE calendar_events
          SET overrides = overrides || jsonb_build_object($3::text, coalesce(overrides -> $3::text, '{}'::jsonb) || $4::jsonb),
              updated_at = now()
        WHERE user_phone = $1 AND id = $2
        RETURNING ${COLUMNS}`,
      [phone, id, date, JSON.stringify(fields)],
    );
    return rows[0] ? toStored(rows[0]) : null;
  }

  async excludeOccurrence(phone: string, id: string, date: string): Promise<StoredCalendarEvent | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.db.query<CalendarEventRow>(
      `UPDATE calendar_events
          SET exdates = CASE WHEN exdates @> jsonb_build_array($3::text) THEN exdates ELSE exdates || jsonb_build_array($3::text) END,
              overrides = overrides - $3::text,
              updated_at = now()
        WHERE user_phone = $1 AND id = $2
        RETURNING ${COLUMNS}`,
      [phone, id, date],
    );
    return rows[0] ? toStored(rows[0]) : null;
  }

  async delete(phone: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { rowCount } = await this.db.query(
      "DELETE FROM calendar_events WHERE user_phone = $1 AND id = $2",
      [phone, id],
    );
    return (rowCount ?? 0) > 0;
  }
}
