/**
 * The calendar capability's contract: every calendar.* operation its executor runs, with the
 * arguments it receives after entity resolution and the result it returns. Reads (CalendarFind-
 * Resolver's) are marked `reads`; every other operation is a change (CalendarMutateResolver's).
 */
import { z } from "zod";
import type {
  Attendee,
  CalendarEvent,
  CalendarRecurrence,
  EventInput,
  EventScope,
  TimeRange,
} from "../types/calendar.js";
import {
  defineContract,
  type ArgsOf,
  type FunctionOf,
  type OperationName,
  type OperationOf,
  type Same,
} from "./contract.js";

// ---- what the executor is handed ----

const RecurrenceSchema = z.object({
  frequency: z.enum(["daily", "weekly", "monthly", "yearly"]),
  interval: z.number().int().optional(),
  days: z.array(z.number().int()).optional(),
  daysOfMonth: z.array(z.number().int()).optional(),
  rule: z.string().optional(),
  until: z.string().optional(),
  count: z.number().int().optional(),
}) satisfies z.ZodType<CalendarRecurrence>;

/**
 * Someone a new event is with: an address here was typed by the user (and checked) or came from
 * their contacts, so it is a checked e-mail address (Google invites it).
 */
const AttendeeSchema = z
  .object({ name: z.string().min(1).nullable(), email: z.email().nullable() })
  .refine(
    (a) => a.name !== null || a.email !== null,
    "an attendee needs a name or an address",
  ) satisfies z.ZodType<Attendee>;

/**
 * Someone an event is with as a calendar keeps them: Google returns addresses zod's check refuses
 * (josé@example.com, a@b.xn--p1ai) and empty names, so any non-empty address is taken as it is and
 * an empty name is none. Events read from a provider (results, a deletion's args, an update's
 * patch that keeps the people already invited) carry these.
 */
const KeptAttendeeSchema = z
  .object({
    name: z
      .string()
      .nullish()
      .transform((n) => (n?.trim() ? n : null)),
    email: z.string().min(1).nullable(),
  })
  .refine(
    (a) => a.name !== null || a.email !== null,
    "an attendee needs a name or an address",
  ) satisfies z.ZodType<Attendee, unknown>;

/** A new event as code read it (instants in UTC, dates for all-day events, D6). */
const EventInputSchema = z.object({
  summary: z.string(),
  description: z.string().nullish(),
  location: z.string().nullish(),
  allDay: z.boolean(),
  start: z.string(),
  end: z.string(),
  timeZone: z.string(),
  recurrence: RecurrenceSchema.nullish(),
  reminderMinutesBefore: z.number().nullish(),
  attendees: z.array(AttendeeSchema).optional(),
}) satisfies z.ZodType<EventInput>;

/** An update's fields: its people are those the event has (as the calendar keeps them) plus new ones. */
const EventPatchSchema = EventInputSchema.extend({
  attendees: z.array(KeptAttendeeSchema).optional(),
}).partial() satisfies z.ZodType<Partial<EventInput>, unknown>;

const RangeSchema = z.object({ from: z.string(), to: z.string() }) satisfies z.ZodType<TimeRange>;
const ScopeSchema = z.enum(["instance", "series"]) satisfies z.ZodType<EventScope>;

/** An event as results (and a deletion's args, which name what is gone) carry it. */
export type EventView = Pick<
  CalendarEvent,
  | "id"
  | "seriesId"
  | "summary"
  | "location"
  | "allDay"
  | "start"
  | "end"
  | "timeZone"
  | "recurrence"
  | "reminderMinutesBefore"
  | "attendees"
>;

const EventViewSchema = z.object({
  id: z.string(),
  seriesId: z.string().nullable(),
  summary: z.string(),
  location: z.string().nullable(),
  allDay: z.boolean(),
  start: z.string(),
  end: z.string(),
  timeZone: z.string(),
  recurrence: RecurrenceSchema.nullable(),
  reminderMinutesBefore: z.number().nullable(),
  attendees: z.array(KeptAttendeeSchema),
}) satisfies z.ZodType<EventView, unknown>;

/**
 * A change's ids are absent only in the args a turn re-run after the change hands on as the
 * resolver wrote them (the executor then reports the first outcome from its ledger): so they are
 * optional here, and the executor refuses a first run without them.
 */
const id = z.string().nullish();

/**
 * The addresses the user typed for this change, with the name said for each: kept among the user's
 * contacts once the change is made (not before: a "no" keeps nothing).
 */
const typed = z.array(z.object({ email: z.email(), name: z.string().nullable() })).nullish();

/** The events a create makes, read in code from the resolver's words (absent: a re-run, see `id`). */
const creates = z.object({ inputs: z.array(EventInputSchema).nullish(), typed });

/** The events a delete removes, each with its scope, and what the reply names once they are gone. */
const deletes = z.object({
  targets: z.array(z.object({ id: z.string(), scope: ScopeSchema })).nullish(),
  events: z.array(EventViewSchema).nullish(),
});

/** A listing's range and its narrowing: title words (fuzzy), titles and weekdays left out. */
const listing = z.object({
  range: RangeSchema,
  query: z.string().nullish(),
  excludeSummaries: z.array(z.string()).nullish(),
  /** English weekday names ("Friday"). */
  excludeDays: z.array(z.string()).nullish(),
});

/** The operations of the calendar capability, in the order the prompts and the planner list them. */
export const calendarContract = defineContract("calendar", {
  "calendar.create": {
    args: creates,
    creates: true,
    produces: "events",
    actions: [{ name: "create_event", hint: "also several at once, all-day events and trips" }],
    description:
      "one event. summary, start, and end or durationMinutes (none: one hour), location, description, reminderMinutesBefore, attendees (the people it is with).",
  },
  "calendar.createMultiple": {
    args: creates,
    creates: true,
    produces: "events",
    description: 'several events at once in "events", each like create.',
  },
  "calendar.createRecurring": {
    args: creates,
    creates: true,
    produces: "events",
    actions: [{ name: "create_recurring_event" }],
    description:
      "a repeating event: summary, repeatPhrase, frequency, days, startTime, endTime (or durationMinutes), startDate, until or count.",
  },
  "calendar.createMultipleRecurring": {
    args: creates,
    creates: true,
    produces: "events",
    description: 'several repeating events in "recurringEvents", each like createRecurring.',
  },
  "calendar.getEvents": {
    args: listing,
    reads: true,
    produces: "events",
    actions: [{ name: "list_events", hint: "what's on a day or range", reads: true }],
    description:
      'the events in a range ("what\'s on tomorrow", "my meetings this week", "מה יש לי ביומן מחר"). summary narrows it to events with those words in the title.',
  },
  "calendar.get": {
    args: z.object({ eventIds: z.array(z.string()) }),
    reads: true,
    produces: "events",
    actions: [{ name: "find_event", reads: true }],
    description:
      'one event the user names ("when is my meeting with Dana?") by summary, optionally within timeMin/timeMax.',
  },
  "calendar.checkConflicts": {
    args: z.object({ range: RangeSchema }),
    reads: true,
    actions: [{ name: "check_conflicts", reads: true }],
    description:
      'whether a planned time is free ("am I free tomorrow at 14:00?", "is Sunday 10-12 taken?"): start and end.',
  },
  "calendar.getRecurringInstances": {
    args: z.object({ seriesId: z.string().min(1), range: RangeSchema }),
    reads: true,
    description:
      'the dates of a repeating event ("when are my yoga classes this month?"): summary, optionally timeMin/timeMax.',
  },
  "calendar.analyzeSchedule": {
    args: listing,
    reads: true,
    actions: [
      {
        name: "analyze_schedule",
        hint: 'busy hours, free time, "what does my week look like"',
        reads: true,
      },
    ],
    description:
      'how busy a period is, busy hours and free time ("what does my week look like?", "when am I free this week?", "איך נראה השבוע שלי?").',
  },
  "calendar.update": {
    args: z.object({
      eventId: id,
      scope: ScopeSchema.nullish(),
      patch: EventPatchSchema.nullish(),
      typed,
    }),
    produces: "events",
    actions: [{ name: "update_event", hint: "move, rename, change, invite someone" }],
    description:
      'searchCriteria finds the event, updateFields holds ONLY the new values ("move the meeting with Dana to 18:00" → searchCriteria {summary "meeting with Dana"}, updateFields {start "18:00"}). Never put new values in searchCriteria or old ones in updateFields.',
  },
  "calendar.delete": {
    args: deletes,
    actions: [{ name: "delete_event", hint: "also several, or a series" }],
    description: "one event (searchCriteria).",
  },
  "calendar.deleteBySummary": {
    args: deletes,
    description:
      'every event matching searchCriteria in its range ("clear my calendar tomorrow", "delete all the meetings with Dana this week"), with excludeSummaries / excludeDays for those to keep ("except the dentist" → excludeSummaries ["dentist"]).',
  },
  "calendar.truncateRecurring": {
    args: z.object({ seriesId: id, lastDate: id }),
    produces: "events",
    actions: [{ name: "end_recurring_event", hint: "stop a series from a date" }],
    description:
      'stop a repeating event after a date: searchCriteria names it, until = the last day it keeps ("no more yoga after March" → until "2026-03-31").',
  },
});

type CalendarContract = typeof calendarContract;
export type CalendarFunction = FunctionOf<CalendarContract>;
/** One calendar operation with its arguments, as the executor switches on it. */
export type CalendarOperation = OperationOf<CalendarContract>;
export type CalendarArgs<F extends CalendarFunction> = ArgsOf<CalendarContract, F>;
/** "create", "getEvents", … */
export type CalendarOperationName = OperationName<CalendarFunction, "calendar">;

/** The operations that only read: CalendarFindResolver's. */
type ReadFunction = {
  [F in CalendarFunction]: CalendarContract["operations"][F] extends { reads: true } ? F : never;
}[CalendarFunction];
type CalendarFindOperationName = OperationName<ReadFunction, "calendar">;
type CalendarMutateOperationName = Exclude<CalendarOperationName, CalendarFindOperationName>;

/** The operations that read (`find`) or change (`mutate`), with their specs, in declaration order. */
function specsOf(side: "find" | "mutate") {
  return Object.entries(calendarContract.operations)
    .filter(([, spec]) => ("reads" in spec && spec.reads === true) === (side === "find"))
    .map(([functionName, spec]) => ({ name: functionName.slice("calendar.".length), spec }));
}

/** The names of the read operations: CalendarFindResolver's operation enum. */
export const CALENDAR_FIND_OPERATIONS = specsOf("find").map((o) => o.name) as [
  CalendarFindOperationName,
  ...CalendarFindOperationName[],
];

/** The names of the changes: CalendarMutateResolver's operation enum. */
export const CALENDAR_MUTATE_OPERATIONS = specsOf("mutate").map((o) => o.name) as [
  CalendarMutateOperationName,
  ...CalendarMutateOperationName[],
];

/** A resolver prompt's "Operations:" lines of the reads or of the changes: "- getEvents: the events…". */
export function calendarOperationLines(side: "find" | "mutate"): string {
  return specsOf(side)
    .map(({ name, spec }) => `- ${name}: ${spec.description}`)
    .join("\n");
}

// ---- what it returns ----

/** Where and when a result is read: the user's zone and local date, so times show as they live them. */
export interface Frame {
  /** The user's IANA zone. */
  zone: string;
  /** The user's local date when the result was made, YYYY-MM-DD. */
  today: string;
}

/** A span of instants, ISO. */
export interface Slot {
  start: string;
  end: string;
}

/** One day of a schedule analysis. */
export interface DaySchedule {
  /** The local date, YYYY-MM-DD. */
  date: string;
  /** 0 = Sunday … 6 = Saturday. */
  dayOfWeek: number;
  /** Timed events that touch the day. */
  events: number;
  /** Minutes of the day covered by at least one timed event. */
  busyMinutes: number;
  /** Free time within waking hours, from now on, at least MIN_FREE_MINUTES long. */
  freeSlots: Slot[];
  /** Titles of the all-day events on the day (trips, holidays): shown, not counted as busy. */
  allDay: string[];
}

/** analyzeSchedule: busy hours per day and free slots within waking hours. */
export interface ScheduleAnalysis {
  days: DaySchedule[];
  /** Timed events in the range (all-day ones are listed per day, not counted). */
  totalEvents: number;
  busyMinutes: number;
  freeMinutes: number;
  /** The day with the most busy minutes, or null when nothing is busy. */
  busiestDate: string | null;
}

/** Events created. */
interface Created extends Frame {
  kind: "created";
  events: EventView[];
  /** The calendar sent invitations to attendees with an address (Google); false: kept as text (built-in). */
  invites: boolean;
  /** With `invites`: the names asked for that had no address, so nobody was invited for them. */
  notInvited: string[];
}

/** One event (or its series) changed. */
export interface Updated extends Frame {
  kind: "updated";
  event: EventView;
  scope: EventScope;
  /** As Created's. */
  invites: boolean;
  /**
   * With `invites`: the people with an address this change added, the only ones the reply says were
   * invited (the guests the event had are not named again; absent in results recorded before it).
   */
  invited?: Attendee[];
  /** As Created's. */
  notInvited: string[];
}

/** Events deleted. */
export interface Deleted extends Frame {
  kind: "deleted";
  events: EventView[];
  scope: EventScope;
  /** Its earlier state could not be copied: undo cannot bring it back, so the reply does not offer it. */
  untracked?: true;
}

/** A series ended after a date. */
interface Truncated extends Frame {
  kind: "truncated";
  event: EventView;
  lastDate: string;
}

/** Events of a range (get: the whole days of the events found). */
export interface Listing<Op extends CalendarFindOperationName = CalendarFindOperationName> extends Frame {
  kind: "listing";
  op: Op;
  events: EventView[];
  range: TimeRange;
  query?: string;
  /** getRecurringInstances: the series shown. */
  series?: EventView;
}

/** The timed events overlapping a planned time. */
export interface Conflicts extends Frame {
  kind: "conflicts";
  events: EventView[];
  range: TimeRange;
}

/** How busy a range is. */
export interface Schedule extends Frame {
  kind: "schedule";
  analysis: ScheduleAnalysis;
  range: TimeRange;
}

/** What each operation returns as data (the reply template's input). */
export interface CalendarResults {
  "calendar.create": Created;
  "calendar.createMultiple": Created;
  "calendar.createRecurring": Created;
  "calendar.createMultipleRecurring": Created;
  "calendar.getEvents": Listing<"getEvents">;
  "calendar.get": Listing<"get">;
  "calendar.checkConflicts": Conflicts;
  "calendar.getRecurringInstances": Listing<"getRecurringInstances">;
  "calendar.analyzeSchedule": Schedule;
  "calendar.update": Updated;
  "calendar.delete": Deleted;
  "calendar.deleteBySummary": Deleted;
  "calendar.truncateRecurring": Truncated;
}

/** Any result of the calendar capability. */
export type CalendarData = CalendarResults[CalendarFunction];

// Every operation has a result type, and every result type an operation.
const _resultsCoverOperations: Same<keyof CalendarResults, CalendarFunction> = true;
void _resultsCoverOperations;
