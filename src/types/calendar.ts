/**
 * The calendar contract every provider keeps: Google Calendar for connected users, the built-in
 * calendar (Postgres) for everyone else. One contract test suite runs against both.
 *
 * Times (D6): a timed event's `start`/`end` are ISO instants in UTC ("2026-03-05T08:00:00.000Z");
 * an all-day event's are dates ("2026-03-05"), `end` exclusive (the day after the last day), as
 * Google stores them. `timeZone` is the IANA zone the event lives in; recurrences are expanded in it.
 */

/**
 * A recurrence rule: the same RFC 5545 rules reminders keep (D10, src/nlu/recurrenceRule.ts), said in
 * V1's fields when they can (daily; weekly on days 0 = Sunday … 6 = Saturday; monthly on days of the
 * month) and as `rule` text otherwise (calendarRule.ts gives each rule this one normal form).
 */
export interface CalendarRecurrence {
  frequency: "daily" | "weekly" | "monthly" | "yearly";
  /** Every N days / weeks / months (default 1). */
  interval?: number;
  /** weekly: the days it happens on (V1's weeks start on Sunday for "every N weeks"). */
  days?: number[];
  /** monthly: the days of the month it happens on (a month without that day is skipped, as in RFC 5545). */
  daysOfMonth?: number[];
  /**
   * A rule V1's fields cannot say, as RFC 5545 text without DTSTART, UNTIL or COUNT: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
   * is V1's, but "FREQ=MONTHLY;BYDAY=1SU", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3"
   * and "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=MO" are rules. When set, it is the whole rule (frequency
   * repeats its FREQ; interval, days and daysOfMonth are absent). The series' first occurrence is its
   * DTSTART: INTERVAL counts from it, and parts the rule leaves out (a yearly rule's date) are its.
   */
  rule?: string;
  /** The last local date an occurrence may start on, YYYY-MM-DD, inclusive. */
  until?: string;
  /** At most this many occurrences. */
  count?: number;
}

/**
 * Someone the event is with (spec 002 §15.2, "attendee extraction"): an address the user typed or
 * one of their own contacts, a name alone when no address is known. Google Calendar invites those
 * with an address; the built-in calendar keeps them as text and sends nothing.
 */
export interface Attendee {
  /** The name as the user said it, or as their contact has it; null when only the address was given. */
  name: string | null;
  /** A checked e-mail address; null when none is known (then nobody is invited). */
  email: string | null;
}

/** One event, or one occurrence of a recurring series. */
export interface CalendarEvent {
  /** The event's id; for an occurrence of a series, the occurrence's own id (getEvent/updateEvent/deleteEvent take it). */
  id: string;
  /** The series an occurrence belongs to (a series read as itself has its own id here); null for a single event. */
  seriesId: string | null;
  summary: string;
  description: string | null;
  location: string | null;
  allDay: boolean;
  start: string;
  end: string;
  timeZone: string;
  /** The series' rule (on occurrences and on the series itself); null for a single event. */
  recurrence: CalendarRecurrence | null;
  /** The event's own reminder (a calendar notification), distinct from Memo's reminders. */
  reminderMinutesBefore: number | null;
  /** Who the event is with (the calendar's owner left out); empty when nobody. */
  attendees: Attendee[];
}

/** What a new event is made of. */
export interface EventInput {
  summary: string;
  description?: string | null;
  location?: string | null;
  allDay: boolean;
  start: string;
  end: string;
  timeZone: string;
  recurrence?: CalendarRecurrence | null;
  reminderMinutesBefore?: number | null;
  /** Who it is with; Google Calendar sends an invitation to each one with an address (default: nobody). */
  attendees?: Attendee[];
}

/** The fields an update changes; absent fields stay as they are. */
export type EventPatch = Partial<EventInput>;

/** A half-open range of instants [from, to), ISO. */
export interface TimeRange {
  from: string;
  to: string;
}

/** "instance": only this occurrence; "series": the whole series it belongs to. */
export type EventScope = "instance" | "series";

/** One user's calendar. Every method acts for that user only. */
export interface CalendarProvider {
  readonly kind: "google" | "builtin";
  /** Events and occurrences overlapping the range, series expanded, ordered by start; `query` filters by text. */
  listEvents(range: TimeRange, options?: { query?: string }): Promise<CalendarEvent[]>;
  /** An event or occurrence by id; null when it does not exist (or is not this user's). */
  getEvent(id: string): Promise<CalendarEvent | null>;
  /** Creates an event or series; the same operationId twice creates it once (a re-run turn). */
  createEvent(input: EventInput, operationId: string): Promise<CalendarEvent>;
  /**
   * Changes an event. On an occurrence id: "instance" changes that occurrence alone; "series" changes
   * the whole series, and a new start/end in the patch is that occurrence's new time, so every
   * occurrence moves the same way (same day shift, same new local time; weekly days shift along).
   * On a series' own id, scope is ignored and start/end set the series' first occurrence.
   * Returns the occurrence ("instance") or the series ("series").
   */
  updateEvent(id: string, patch: EventPatch, scope: EventScope): Promise<CalendarEvent>;
  /** Deletes an event; on an occurrence id, "instance" removes that occurrence, "series" the whole series. */
  deleteEvent(id: string, scope: EventScope): Promise<void>;
  /** Ends a series so that no occurrence starts after `lastDate` (YYYY-MM-DD, in the series' zone). */
  truncateSeries(seriesId: string, lastDate: string): Promise<CalendarEvent>;
  /** The occurrences of one series within the range. */
  listInstances(seriesId: string, range: TimeRange): Promise<CalendarEvent[]>;
  /**
   * For undo, a provider that keeps events outside Memo's database: its own record of what a
   * change of `id` with `scope` touches (an occurrence, or its series), as it is now; null when none.
   */
  undoSnapshot?(
    id: string,
    scope: EventScope,
  ): Promise<{ eventId: string; before: Record<string, unknown>; summary: string } | null>;
  /** Puts an event back as `undoSnapshot` recorded it (a deleted one restored); false when it cannot. */
  undoRestore?(eventId: string, before: Record<string, unknown>): Promise<boolean>;
}

/** Picks each user's calendar. */
export interface CalendarProviders {
  /** Google when the user connected it; the built-in calendar otherwise. Throws GoogleConnectionLostError when Google was connected and access is lost. */
  forUser(phone: string): Promise<CalendarProvider>;
}

/** An event input with every field present. */
export type CompleteEventInput = Required<EventInput>;
