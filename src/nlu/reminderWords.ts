/**
 * The words that make a request a reminder ("remind me", "תזכירי לי", "nudge me") and those that
 * make it a calendar thing ("meeting", "פגישה", "יומן"), in English and Hebrew: read by the
 * note-or-reminder rule (noteCommands.ts) and by the planner's policies in code
 * (graph/plan/planPolicy.ts). Whole words only where a short Hebrew word could hide in another.
 */

/** "remind", "reminder", "nudge me", "תזכיר", "תזכירי", "להזכיר לי", "תזכורת", "נדנד"… */
const REMIND = /remind|nudge me|תזכיר|להזכיר לי|תזכורת|נדנד/iu;

/** A letter or digit on either side: a Hebrew word's edges (\b does not see Hebrew letters). */
const EDGE_BEFORE = String.raw`(?<![\p{L}\p{N}])`;
const EDGE_AFTER = String.raw`(?![\p{L}\p{N}])`;

/**
 * A meeting, an appointment, an event or the calendar: "meeting", "appt", "פגישה", "אירוע",
 * "ביומן", "תור לרופא" (with ה/ב/ל/ו/מ/ש in front in Hebrew).
 */
const CALENDAR_THING = new RegExp(
  [
    String.raw`\b(?:meetings?|appointments?|appts?|events?|calendar|calendars|zoom call|invites?)\b`,
    String.raw`${EDGE_BEFORE}(?:ו|ש)?(?:ה|ב|ל|מ|וב|ול|שב|של)?(?:פגישה|פגישת|פגישות|פגישתי|אירוע|אירועים|יומן|תור|תורים|זימון)${EDGE_AFTER}`,
  ].join("|"),
  "iu",
);

/**
 * Words that put something in the calendar whatever it is called ("schedule dinner", "book a
 * haircut", "put the concert in my diary", "קבע ארוחת ערב", "תשריין"), or that time the reminder
 * from it ("remind me an hour before", "the day before", "שעה לפני"): the reminder is then the
 * event's own.
 */
const SCHEDULES = new RegExp(
  [
    String.raw`\b(?:schedule|scheduled|book|booked|diary|agenda)\b(?!-)`,
    String.raw`\b(?:\d+|an?|one|two|three|half an?|the)\s*(?:minutes?|mins?|hours?|hrs?|days?|weeks?)\s+before\b`,
    String.raw`\bthe (?:day|night|evening|morning) before\b`,
    String.raw`${EDGE_BEFORE}(?:ו|ש)?(?:קבע|קבעי|תקבע|תקבעי|לקבוע|שריין|שרייני|תשריין|תשרייני|לשריין)${EDGE_AFTER}`,
    String.raw`${EDGE_BEFORE}(?:\d+\s*)?(?:דקות|דקה|שעה|שעתיים|שעות|יום|יומיים|ימים|שבוע|ערב)\s+(?:לפני|קודם)${EDGE_AFTER}`,
  ].join("|"),
  "iu",
);

/** Whether the words schedule something or time a reminder from it: a calendar thing, though unnamed. */
export function schedulesSomething(text: string): boolean {
  return SCHEDULES.test(text);
}

/** Whether the words ask to be reminded or nudged ("remind me at 5…", "תזכירי לי…", "נדנד אותי…"). */
export function asksToBeReminded(text: string): boolean {
  return REMIND.test(text);
}

/** Whether the words name a meeting, an appointment, an event or the calendar itself. */
export function namesCalendarThing(text: string): boolean {
  return CALENDAR_THING.test(text);
}
