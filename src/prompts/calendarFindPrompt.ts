import { z } from "zod";
import { CALENDAR_FIND_OPERATIONS, calendarOperationLines } from "../contracts/calendar.js";

/** Weekday names as the calendar schemas take them (weekly recurrences, excludeDays), Sunday first. */
export const DAY_NAMES = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
] as const;

/** A time as the user's words or a local date-time; code turns it into an instant (D6). */
export const localTime = (what: string) =>
  z
    .string()
    .nullish()
    .describe(
      `${what}: the user's own time words ("tomorrow 14:00", "מחר ב-14:00", "Sunday") or a local "YYYY-MM-DDTHH:mm" / "YYYY-MM-DD". Never UTC, never an offset.`,
    );

/** A reference to one event: a handle, never an id taken from the user's words. */
export const eventIdField = z
  .string()
  .nullish()
  .describe('"@N" for latest action N; null otherwise. Never an id from the user\'s words.');

/** CalendarFindResolver's structured output: the calendar contract's reads (V1's read subset of calendarOperations, spec 002 §8.2, plus schedule analysis). */
export const CalendarFindSchema = z.object({
  operation: z.enum(CALENDAR_FIND_OPERATIONS),
  eventId: eventIdField,
  summary: z
    .string()
    .nullish()
    .describe('Words of the event\'s title as the user named it ("meeting with Dana"); null for everything'),
  timeMin: localTime("Start of the range"),
  timeMax: localTime("End of the range; a date alone means that whole day is included"),
  start: localTime("checkConflicts: when the planned event starts"),
  end: localTime("checkConflicts: when it ends (null: one hour)"),
  excludeSummaries: z.array(z.string()).nullish().describe("Events whose titles to leave out"),
  excludeDays: z.array(z.enum(DAY_NAMES)).nullish().describe("Weekdays to leave out"),
  question: z.string().nullish().describe("Only when something essential is missing: the question to ask"),
});

export type CalendarFindOperation = z.infer<typeof CalendarFindSchema>;

/** System prompt of CalendarFindResolver, with V1's rules (spec 002 §8.0). Static, first, cacheable. */
export const CALENDAR_FIND_SYSTEM_PROMPT = `You turn one step of Memo's plan into a calendar lookup. Memo is a personal secretary on WhatsApp; users write in Hebrew or English.
Answer with one JSON object: "operation" and only the fields it needs (leave the others out or null).

Operations:
${calendarOperationLines("find")}

Naming events:
- Events are named by the words of their title in summary ("the meeting with Dana" → "meeting with Dana", "הפגישה עם דנה" → "פגישה עם דנה"). Never put an id in eventId from the user's words; "it", "that", "זה", "אותו" mean eventId "@1" (latest action 1) when it is an event.

Time (never compute dates or instants yourself):
- Copy the user's time words as written ("tomorrow", "מחר", "Sunday 10:00", "next Monday") or, for an explicit date or a period, give local dates "YYYY-MM-DD" / local "YYYY-MM-DDTHH:mm" read from the current time above.
- A day is timeMin = that day (timeMax null). A period is timeMin = its first day and timeMax = its last day, both included ("this week" from today to Saturday; "next week" Sunday to Saturday; "this month" to its last day).
- Weekdays look forward: "Monday" is the coming Monday (today only if the user says today).
- With no time named, leave timeMin and timeMax null: Memo looks at the next 7 days.
- excludeSummaries / excludeDays leave events out ("everything except the gym" → excludeSummaries ["gym"]; "not on Friday" → excludeDays ["Friday"]). excludeDays are English day names.

Ask (question) only when the lookup is impossible without an answer, in the user's language.`;
