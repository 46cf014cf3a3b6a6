import { z } from "zod";
import { CALENDAR_MUTATE_OPERATIONS, calendarOperationLines } from "../contracts/calendar.js";
import { FROM_STEP_FIELD } from "./resolverMessagesPrompt.js";
import { DAY_NAMES, eventIdField, localTime } from "./calendarFindPrompt.js";

const reminderMinutesBefore = z
  .number()
  .int()
  .min(0)
  .max(40320)
  .nullish()
  .describe("The event's own calendar notification, minutes before it starts (not a Memo reminder)");

/** The people an event is with, as the user named them (code finds addresses; never the model). */
const attendees = z
  .array(
    z.object({
      name: z.string().nullish().describe('Their name as the user said it ("Dana", "דנה")'),
      email: z
        .string()
        .nullish()
        .describe("Their e-mail address only when the user wrote it in this message, copied exactly"),
    }),
  )
  .nullish()
  .describe(
    'People the event is with or the user invites ("meeting with Dana", "with dana@example.com", "invite Dana"). Never invent an address.',
  );

/** One event to create. */
const eventFields = {
  summary: z.string().nullish().describe("The event's title, without the time words"),
  start: localTime("When it starts; all-day: the first date YYYY-MM-DD"),
  end: localTime("When it ends; all-day: the day AFTER the last day, YYYY-MM-DD"),
  durationMinutes: z
    .number()
    .int()
    .min(1)
    .max(20160)
    .nullish()
    .describe("Instead of end, when given as a length"),
  allDay: z.boolean().nullish().describe("A whole-day or multi-day event (trip, holiday, birthday)"),
  location: z.string().nullish(),
  description: z.string().nullish(),
  reminderMinutesBefore,
  attendees,
};

/** One repeating event to create. */
const recurringFields = {
  summary: eventFields.summary,
  repeatPhrase: z
    .string()
    .nullish()
    .describe(
      'The user\'s own repeat words with their time and end, as written: "every weekday at 7", "the first Sunday of every month at 10am", "כל יום חול ב-7"',
    ),
  frequency: z.enum(["daily", "weekly", "monthly"]).nullish(),
  days: z
    .array(z.string())
    .nullish()
    .describe('weekly: day NAMES ["Monday", "Wednesday"]; monthly: days of the month as STRINGS ["10"]'),
  interval: z.number().int().min(1).max(99).nullish().describe("Every N weeks / months / days (default 1)"),
  startTime: z.string().nullish().describe('Local "HH:mm"; null for all-day'),
  endTime: z.string().nullish().describe('Local "HH:mm"'),
  durationMinutes: eventFields.durationMinutes,
  allDay: eventFields.allDay,
  startDate: localTime("The first day it may happen, when the user named one"),
  until: localTime("The last day it may happen, when the user named one"),
  count: z.number().int().min(1).max(500).nullish().describe("How many times, when the user said"),
  location: eventFields.location,
  description: eventFields.description,
  reminderMinutesBefore,
  attendees,
};

/** How to find the events an update, delete or truncate is about. */
const SearchCriteriaSchema = z.object({
  summary: z.string().nullish().describe("Words of the event's title as the user named it"),
  timeMin: localTime("The day or start of the range the event is in, when the user said"),
  timeMax: localTime("End of that range (a date alone includes that whole day)"),
  dayOfWeek: z.enum(DAY_NAMES).nullish().describe("The weekday the user named for it"),
  startTime: z.string().nullish().describe('Its local time "HH:mm", when the user named it'),
});

/** The new values of an update; absent fields stay as they are. */
const UpdateFieldsSchema = z.object({
  summary: z.string().nullish().describe("New title"),
  start: localTime('New start ("18:00" keeps the day; "Sunday" keeps the time)'),
  end: localTime("New end"),
  durationMinutes: eventFields.durationMinutes,
  allDay: eventFields.allDay,
  location: z.string().nullish(),
  description: z.string().nullish(),
  reminderMinutesBefore,
  attendees: attendees.describe("People to add to the event (invite), as for a new event"),
});

/** CalendarMutateResolver's structured output: the calendar contract's changes (V1's write subset of calendarOperations, spec 002 §8.2). */
export const CalendarMutateSchema = z.object({
  operation: z.enum(CALENDAR_MUTATE_OPERATIONS),
  ...FROM_STEP_FIELD,
  eventId: eventIdField,
  // create
  ...eventFields,
  // createRecurring
  repeatPhrase: recurringFields.repeatPhrase,
  frequency: recurringFields.frequency,
  days: recurringFields.days,
  interval: recurringFields.interval,
  startTime: recurringFields.startTime,
  endTime: recurringFields.endTime,
  startDate: recurringFields.startDate,
  until: localTime("createRecurring: its last day; truncateRecurring: the last day the series keeps"),
  count: recurringFields.count,
  events: z.array(z.object(eventFields)).nullish().describe("createMultiple"),
  recurringEvents: z.array(z.object(recurringFields)).nullish().describe("createMultipleRecurring"),
  // update, delete, deleteBySummary, truncateRecurring
  searchCriteria: SearchCriteriaSchema.nullish(),
  updateFields: UpdateFieldsSchema.nullish(),
  isRecurring: z
    .boolean()
    .nullish()
    .describe("true: the whole repeating series; false: only the one occurrence; null: the user did not say"),
  excludeSummaries: z.array(z.string()).nullish().describe("deleteBySummary: titles to keep"),
  excludeDays: z.array(z.enum(DAY_NAMES)).nullish().describe("deleteBySummary: weekdays to keep"),
  question: z.string().nullish().describe("Only when something essential is missing: the question to ask"),
});

export type CalendarMutateOperation = z.infer<typeof CalendarMutateSchema>;
export type EventFields = z.infer<z.ZodObject<typeof eventFields>>;
export type RecurringFields = z.infer<z.ZodObject<typeof recurringFields>>;
export type SearchCriteria = z.infer<typeof SearchCriteriaSchema>;
export type UpdateFields = z.infer<typeof UpdateFieldsSchema>;

/** System prompt of CalendarMutateResolver, with V1's rules (spec 002 §8.0). Static, first, cacheable. */
export const CALENDAR_MUTATE_SYSTEM_PROMPT = `You turn one step of Memo's plan into a calendar change. Memo is a personal secretary on WhatsApp; users write in Hebrew or English.
Answer with one JSON object: "operation" and only the fields it needs (leave the others out or null).

Operations:
${calendarOperationLines("mutate")}
- isRecurring: true when the change is for the whole series ("every", "all the", "always", "כל", "תמיד"), false for one occurrence ("this Monday's", "just tomorrow's"), null when the user did not say.

Naming events:
- searchCriteria.summary is the words of the title as the user said them ("the meeting with Dana" → "meeting with Dana", "הפגישה עם דנה" → "פגישה עם דנה"), plus timeMin / dayOfWeek / startTime when the user named when it is ("Sunday's meeting" → dayOfWeek "Sunday").
- Never take an eventId from the user's words. "it", "that", "זה", "אותו", "אותה" mean the event an earlier step of this message found or made when the message lists such steps (set fromStep to its id), otherwise eventId "@1" (latest action 1), unless the message names the event.

Time (never compute instants; code reads these in the user's time zone):
- start / end / timeMin are the user's own time words as written ("tomorrow at 14:00", "מחר ב-14:00", "Sunday 10:00", "18:00", holidays and Hebrew dates too: "on Pesach at 20:00", "בערב ראש השנה") or local "YYYY-MM-DDTHH:mm" / "YYYY-MM-DD" read from the current time above. Never UTC, never an offset.
- Weekdays look forward: "on Monday" is the coming Monday, never a past one.
- A time that is only a length ("for two hours") goes in durationMinutes.
- All-day and multi-day events (a trip, a holiday, a day off, "all day"): allDay true, start = the first day "YYYY-MM-DD", end = the day AFTER the last day ("trip to Eilat Friday to Sunday" with Friday 2026-03-06 → start "2026-03-06", end "2026-03-09"; a single day → end = the next day).
- Event reminders: "remind me 30 minutes before" inside an event request is reminderMinutesBefore 30, the event's own notification; a "remind me" request with no event is not yours.
- Recurring: repeatPhrase is the user's repeat words with their time and end, copied as written ("every weekday at 7", "the last day of every month", "כל יום חול ב-7"); code reads the rule from them. For a repeat the fields below cannot say (every weekday or weekend, every other day, every 2 weeks, the first Sunday or last day of the month, every year on a date), repeatPhrase is all that counts. Weekly "days" are day NAMES in English ("every Monday and Wednesday" / "כל שני ורביעי" → frequency "weekly", days ["Monday", "Wednesday"]); monthly "days" are days of the month as STRINGS ("every 10th of the month" → frequency "monthly", days ["10"]); daily has no days. startTime / endTime are local "HH:mm". "until June" → until the last day, e.g. "2026-06-30"; "for 8 weeks" → count 8.

People: "meeting with Dana", "with dana@example.com", "invite Dana", "פגישה עם דנה" → attendees [{name "Dana"}] / [{email "dana@example.com"}]; a name and an address written together ("Dana dana@example.com") are one attendee. An address goes in email only when the user wrote it in this message; otherwise the name alone (code finds the address or asks). The title still names them ("Meeting with Dana").

Write titles in the user's language, as they would ("Meeting with Dana", "פגישה עם דנה"). Ask (question) only when the change is impossible without an answer, in the user's language.`;
