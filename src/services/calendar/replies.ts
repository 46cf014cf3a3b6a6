import { fillTemplate, t } from "../../messages/index.js";
import { withUndoHint } from "../undo/replies.js";
import type { ResponseTemplate } from "../../types/capability.js";
import { formatRule } from "../../nlu/recurrenceRule.js";
import { addDays, dayOfWeek, type LocalDate } from "../../nlu/zonedTime.js";
import { HEBREW_DAYS, pad2, zonedParts } from "../../utils/timeContext.js";
import { rruleWords } from "../database/rruleText.js";
import { partsOf } from "./calendarRule.js";
import { daysBetween, formatDate, parseDate } from "./recurrenceExpansion.js";
import type { ScheduleAnalysis } from "./scheduleAnalysis.js";
import type { CalendarRequestError } from "./calendarRequestError.js";
import type { CalendarEvent, CalendarRecurrence, EventScope, TimeRange } from "../../types/calendar.js";

type Language = "he" | "en";

/**
 * Every fixed sentence of the calendar capability, in English and Hebrew: replies, questions and
 * confirmations. Templates, no LLM.
 */
const MESSAGES = {
  en: {
    created: "📅 Added to your calendar: *{summary}* — {when}",
    createdRecurring: "🔁 Added to your calendar: *{summary}* — {rule}, from {first}",
    createdMany: "📅 Added {count} events to your calendar:",
    updated: "✏️ Updated *{summary}* — {when}",
    updatedSeries: "✏️ Updated every occurrence of *{summary}* — {rule}",
    deleted: "🗑️ Deleted *{summary}* ({when}).",
    deletedSeries: "🗑️ Deleted the series *{summary}* ({rule}).",
    deletedMany: "🗑️ Deleted {count} events.",
    truncated: "✂️ *{summary}* now ends on {date}.",
    reminderBefore: "🔔 Calendar reminder {offset} before",
    allDay: "all day",
    listTitle: "📅 Your calendar, {range}:",
    listTitleDay: "📅 Your calendar, {day}:",
    listTitleMatching: '📅 "{query}" in your calendar, {range}:',
    nothing: "📅 Nothing in your calendar {range}.",
    nothingMatching: '📅 Nothing called "{query}" in your calendar {range}.',
    occurrencesTitle: "🔁 *{summary}* ({rule}), {range}:",
    free: "✅ You're free {when}.",
    conflicts: "⚠️ {when} overlaps:",
    scheduleTitle: "📊 Your schedule, {range}: {events}, {busy} busy.",
    scheduleBusiest: "Busiest: {day}.",
    scheduleDay: "*{day}* — {summary}",
    scheduleDayEvents: "{events}, {busy} busy",
    scheduleDayFree: "a free day",
    scheduleFree: "free {slots}",
    scheduleNoFree: "no free time left",
    oneEvent: "1 event",
    events: "{count} events",
    today: "today",
    tomorrow: "tomorrow",
    yesterday: "yesterday",
    Today: "Today",
    Tomorrow: "Tomorrow",
    rangeDays: "from {from} to {to}",
    rangeNext: "in the next {count} days",
    and: "and",
    everyDay: "every day",
    everyNDays: "every {n} days",
    everyWeek: "every {days}",
    everyNWeeks: "every {n} weeks on {days}",
    everyMonth: "every month on the {days}",
    everyNMonths: "every {n} months on the {days}",
    everyYear: "every year",
    at: "at {time}",
    until: "until {date}",
    times: "{count} times",
    hours: "{n} hours",
    hour: "1 hour",
    minutes: "{n} minutes",
    // Questions
    askSummary: "What should I call the event?",
    askEventTime: 'When is it? I couldn\'t tell the time from "{phrase}".',
    askStart: "When is it?",
    askTimeOfDay: "At what time on {phrase}? (Or is it all day?)",
    askTimeOfDayNoPhrase: "At what time? (Or is it all day?)",
    askPast: '"{phrase}" has already passed. When should it be?',
    askEndBeforeStart: 'It can\'t end before it starts ("{phrase}"). When does it end?',
    askDays: 'On which days does it repeat? I couldn\'t read "{phrase}".',
    askChange: "What should I change in it?",
    askWhichEvent: "Which event do you mean?",
    askRange: 'Which days should I look at? I couldn\'t read "{phrase}".',
    askUntil: "Until when should it go on?",
    // Entity resolution
    entity: "events",
    notFound: 'I couldn\'t find "{query}" in your calendar{range}.',
    notFoundAny: "I couldn't find that event in your calendar.",
    closest: "The closest: {names}.",
    noEvents: "There are no events in your calendar {range}.",
    notRecurring: "*{summary}* doesn't repeat.",
    confirmConflict: "⚠️ That overlaps {conflicts}. Add *{summary}* ({when}) anyway?",
    confirmMoveConflict: "⚠️ At the new time *{summary}* would overlap {conflicts}. Move it anyway?",
    confirmDeleteSeries: "Delete the whole series *{summary}* ({rule})? All its occurrences will go.",
    confirmDeleteMany: "Delete these {count} events?\n{names}",
    confirmDeleteOne: "Delete *{summary}* ({when})?",
    confirmUpdateOne: "Change *{summary}* ({when})?",
    confirmTruncate: "End the series *{summary}* on {date}? Its later occurrences will go.",
    googleLost:
      'I\'ve lost access to your Google Calendar (the permission was revoked or has expired). Say "connect Google" and I\'ll send you a new link, or "disconnect Google" to use my own calendar instead.',
    invalid: "Your calendar refused that: {reason}.",
    unavailable: "Google Calendar isn't answering right now, please try again in a minute.",
    digestTitle: "📅 In your calendar today:",
  },
  he: {
    created: "📅 הוספתי ליומן: *{summary}* — {when}",
    createdRecurring: "🔁 הוספתי ליומן: *{summary}* — {rule}, החל מ{first}",
    createdMany: "📅 הוספתי {count} אירועים ליומן:",
    updated: "✏️ עדכנתי את *{summary}* — {when}",
    updatedSeries: "✏️ עדכנתי את כל המופעים של *{summary}* — {rule}",
    deleted: "🗑️ מחקתי את *{summary}* ({when}).",
    deletedSeries: "🗑️ מחקתי את הסדרה *{summary}* ({rule}).",
    deletedMany: "🗑️ מחקתי {count} אירועים.",
    truncated: "✂️ *{summary}* מסתיים עכשיו ב{date}.",
    reminderBefore: "🔔 התראה ביומן {offset} לפני",
    allDay: "כל היום",
    listTitle: "📅 היומן שלך, {range}:",
    listTitleDay: "📅 היומן שלך, {day}:",
    listTitleMatching: '📅 "{query}" ביומן שלך, {range}:',
    nothing: "📅 אין כלום ביומן {range}.",
    nothingMatching: '📅 אין "{query}" ביומן {range}.',
    occurrencesTitle: "🔁 *{summary}* ({rule}), {range}:",
    free: "✅ אתה פנוי {when}.",
    conflicts: "⚠️ {when} חופף ל:",
    scheduleTitle: "📊 הלו״ז שלך, {range}: {events}, תפוס {busy}.",
    scheduleBusiest: "היום העמוס ביותר: {day}.",
    scheduleDay: "*{day}* — {summary}",
    scheduleDayEvents: "{events}, תפוס {busy}",
    scheduleDayFree: "יום פנוי",
    scheduleFree: "פנוי {slots}",
    scheduleNoFree: "אין זמן פנוי",
    oneEvent: "אירוע אחד",
    events: "{count} אירועים",
    today: "היום",
    tomorrow: "מחר",
    yesterday: "אתמול",
    Today: "היום",
    Tomorrow: "מחר",
    rangeDays: "מ{from} עד {to}",
    rangeNext: "ב-{count} הימים הקרובים",
    and: "ו",
    everyDay: "כל יום",
    everyNDays: "כל {n} ימים",
    everyWeek: "כל יום {days}",
    everyNWeeks: "כל {n} שבועות ביום {days}",
    everyMonth: "כל {days} לחודש",
    everyNMonths: "כל {n} חודשים ב-{days} לחודש",
    everyYear: "כל שנה",
    at: "ב-{time}",
    until: "עד {date}",
    times: "{count} פעמים",
    hours: "{n} שעות",
    hour: "שעה",
    minutes: "{n} דקות",
    askSummary: "איך לקרוא לאירוע?",
    askEventTime: 'מתי זה? לא הצלחתי להבין את הזמן מ-"{phrase}".',
    askStart: "מתי זה?",
    askTimeOfDay: "באיזו שעה {phrase}? (או שזה לכל היום?)",
    askTimeOfDayNoPhrase: "באיזו שעה? (או שזה לכל היום?)",
    askPast: '"{phrase}" כבר עבר. מתי לקבוע?',
    askEndBeforeStart: 'זה לא יכול להסתיים לפני שהתחיל ("{phrase}"). מתי זה נגמר?',
    askDays: 'באילו ימים זה חוזר? לא הצלחתי להבין את "{phrase}".',
    askChange: "מה לשנות בו?",
    askWhichEvent: "לאיזה אירוע התכוונת?",
    askRange: 'על אילו ימים להסתכל? לא הצלחתי להבין את "{phrase}".',
    askUntil: "עד מתי זה ימשיך?",
    entity: "אירועים",
    notFound: 'לא מצאתי את "{query}" ביומן{range}.',
    notFoundAny: "לא מצאתי את האירוע הזה ביומן.",
    closest: "הכי קרובים: {names}.",
    noEvents: "אין אירועים ביומן {range}.",
    notRecurring: "*{summary}* לא חוזר.",
    confirmConflict: "⚠️ זה חופף ל: {conflicts}. להוסיף את *{summary}* ({when}) בכל זאת?",
    confirmMoveConflict: "⚠️ בזמן החדש *{summary}* יחפוף ל{conflicts}. להזיז בכל זאת?",
    confirmDeleteSeries: "למחוק את כל הסדרה *{summary}* ({rule})? כל המופעים שלה יימחקו.",
    confirmDeleteMany: "למחוק את {count} האירועים האלה?\n{names}",
    confirmDeleteOne: "למחוק את *{summary}* ({when})?",
    confirmUpdateOne: "לשנות את *{summary}* ({when})?",
    confirmTruncate: "לסיים את הסדרה *{summary}* ב{date}? המופעים שאחרי יימחקו.",
    googleLost:
      'איבדתי את הגישה ליומן Google שלך (ההרשאה בוטלה או פגה). כתוב "חבר גוגל" ואשלח לך קישור חדש, או "נתק גוגל" כדי להשתמש ביומן שלי במקום.',
    invalid: "היומן סירב: {reason}.",
    unavailable: "יומן Google לא עונה כרגע, נסה שוב בעוד דקה.",
    digestTitle: "📅 ביומן היום:",
  },
} as const;

export type CalendarMessageKey = keyof (typeof MESSAGES)["en"];

/** The calendar sentence `key` in `language`, with `{name}` placeholders filled. */
export function ct(language: Language, key: CalendarMessageKey, vars: Record<string, string> = {}): string {
  return fillTemplate(MESSAGES[language][key], vars);
}

/** What the user reads when the calendar refused a request or did not answer. */
export function refusalText(error: CalendarRequestError, language: Language): string {
  if (error.code === "not_found") return ct(language, "notFoundAny");
  if (error.code === "unavailable") return ct(language, "unavailable");
  return ct(language, "invalid", { reason: error.message });
}

// ---- what the executor hands the templates ----

/** An event as results carry it. */
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
>;

/** Where and when a result is read: the user's zone and local date, so times show as they live them. */
export interface Frame {
  /** The user's IANA zone. */
  zone: string;
  /** The user's local date when the result was made, YYYY-MM-DD. */
  today: string;
}

/** What a calendar operation returns as data (the templates' input). */
export type CalendarData = Frame &
  (
    | { kind: "created"; events: EventView[] }
    | { kind: "updated"; event: EventView; scope: EventScope }
    | { kind: "deleted"; events: EventView[]; scope: EventScope }
    | { kind: "truncated"; event: EventView; lastDate: string }
    | {
        kind: "listing";
        op: string;
        events: EventView[];
        range: TimeRange;
        query?: string;
        /** getRecurringInstances: the series shown. */
        series?: EventView;
      }
    | { kind: "conflicts"; events: EventView[]; range: TimeRange }
    | { kind: "schedule"; analysis: ScheduleAnalysis; range: TimeRange }
  );

/** The frame of a moment: the user's zone and local date then. */
export function frameAt(nowMs: number, zone: string): Frame {
  const p = zonedParts(nowMs, zone);
  return { zone, today: formatDate({ year: p.year, month: p.month, day: p.day }) };
}

export function eventView(event: CalendarEvent): EventView {
  return {
    id: event.id,
    seriesId: event.seriesId,
    summary: event.summary,
    location: event.location,
    allDay: event.allDay,
    start: event.start,
    end: event.end,
    timeZone: event.timeZone,
    recurrence: event.recurrence,
    reminderMinutesBefore: event.reminderMinutesBefore,
  };
}

// ---- words for times ----

const EN_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The local date and clock of an instant in the user's zone. */
function local(iso: string, zone: string) {
  const p = zonedParts(Date.parse(iso), zone);
  return {
    date: { year: p.year, month: p.month, day: p.day },
    clock: `${pad2(p.hour)}:${pad2(p.minute)}`,
  };
}

/** "today", "tomorrow", "Sun 08/03" / "היום", "מחר", "יום ראשון 08/03". */
export function dayText(date: LocalDate, today: string, language: Language, capital = false): string {
  const diff = daysBetween(parseDate(today)!, date);
  if (diff === 0) return ct(language, capital ? "Today" : "today");
  if (diff === 1) return ct(language, capital ? "Tomorrow" : "tomorrow");
  if (diff === -1) return ct(language, "yesterday");
  return dateLabel(date, language);
}

/** "Thu 05/03" / "יום חמישי 05/03". */
function dateLabel(date: LocalDate, language: Language): string {
  const dm = `${pad2(date.day)}/${pad2(date.month)}`;
  const weekday = dayOfWeek(date);
  return language === "he" ? `יום ${HEBREW_DAYS[weekday]} ${dm}` : `${EN_DAYS[weekday]!.slice(0, 3)} ${dm}`;
}

/** The local date an event starts on, in the user's zone (an all-day event's own date). */
function startDate(event: Pick<EventView, "allDay" | "start">, zone: string): LocalDate {
  return event.allDay ? parseDate(event.start)! : local(event.start, zone).date;
}

/** A day heading of a listing: "Today (Thu 05/03)", "Sun 08/03". */
function dayHeading(date: LocalDate, today: string, language: Language, capital = true): string {
  const named = dayText(date, today, language, capital);
  const diff = daysBetween(parseDate(today)!, date);
  if (Math.abs(diff) > 1) return named;
  return `${named} (${dateLabel(date, language)})`;
}

/** When an event happens, in the user's zone: "tomorrow 14:00–15:00", "Fri 06/03 – Sun 08/03 (all day)". */
export function whenText(
  event: Pick<EventView, "allDay" | "start" | "end">,
  frame: Frame,
  language: Language,
): string {
  if (event.allDay) {
    const first = parseDate(event.start)!;
    const last = addDays(parseDate(event.end)!, -1);
    const allDay = ct(language, "allDay");
    return daysBetween(first, last) <= 0
      ? `${dayText(first, frame.today, language)} (${allDay})`
      : `${dateLabel(first, language)} – ${dateLabel(last, language)} (${allDay})`;
  }
  const start = local(event.start, frame.zone);
  const end = local(event.end, frame.zone);
  const day = dayText(start.date, frame.today, language);
  if (event.start === event.end) return `${day} ${start.clock}`;
  if (
    daysBetween(start.date, end.date) === 0 ||
    (daysBetween(start.date, end.date) === 1 && end.clock === "00:00")
  ) {
    return `${day} ${start.clock}–${end.clock}`;
  }
  return `${day} ${start.clock} – ${dayText(end.date, frame.today, language)} ${end.clock}`;
}

/** An all-day event on a listing line: "all day", or its days "Fri 06/03 – Sun 08/03". */
function allDaySpan(event: Pick<EventView, "start" | "end">, language: Language): string {
  const first = parseDate(event.start)!;
  const last = addDays(parseDate(event.end)!, -1);
  return daysBetween(first, last) <= 0
    ? ct(language, "allDay")
    : `${dateLabel(first, language)} – ${dateLabel(last, language)}`;
}

/** The clock span of a timed event on a listing line: "14:00–15:00". */
function clockSpan(event: EventView, zone: string): string {
  const start = local(event.start, zone).clock;
  const end = local(event.end, zone).clock;
  return event.start === event.end ? start : `${start}–${end}`;
}

function joinAnd(parts: string[], language: Language): string {
  if (parts.length <= 1) return parts.join("");
  const and = ct(language, "and");
  const last = parts.at(-1)!;
  return `${parts.slice(0, -1).join(", ")}${language === "he" ? ` ${and}` : ` ${and} `}${last}`;
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

/** Day sets that are a working week or a weekend (Sun–Thu, Mon–Fri, Fri–Sat, Sat–Sun): said as reminders say them. */
const WEEK_PARTS = ["0,1,2,3,4", "1,2,3,4,5", "5,6", "0,6"];

/**
 * The words of a rule beyond V1's plain ones, as reminders say it (rruleText): "every weekday
 * (Sun–Thu)", "on the first Sunday of every month", "every year on March 3", "every other day"; null
 * for V1's own daily, weekly and monthly rules, which keep their calendar wording.
 */
function rfc5545Words(rule: CalendarRecurrence, time: string | null, language: Language): string | null {
  const weekPart =
    rule.rule === undefined &&
    rule.frequency === "weekly" &&
    WEEK_PARTS.includes([...new Set(rule.days ?? [])].sort((a, b) => a - b).join(","));
  if (rule.rule === undefined && !weekPart) return null;
  const parts = partsOf(rule);
  return parts ? rruleWords(formatRule(parts), time, language) : null;
}

/**
 * "every Monday and Wednesday at 19:00–20:00 until Tue 30/06" / "כל יום שני ורביעי ב-19:00–20:00";
 * a weekday, nth-weekday, last-day or yearly rule in reminders' words ("every weekday (Mon–Fri) at
 * 07:00–08:00", "on the first Sunday of every month at 10:00–11:00").
 */
export function ruleText(
  rule: CalendarRecurrence,
  event: Pick<EventView, "allDay" | "start" | "end">,
  frame: Frame,
  language: Language,
): string {
  const n = String(rule.interval ?? 1);
  const repeat = (rule.interval ?? 1) > 1;
  const time = event.allDay ? null : clockSpan(event as EventView, frame.zone);
  let text = rfc5545Words(rule, time, language);
  if (text === null) {
    switch (rule.frequency) {
      case "daily":
        text = ct(language, repeat ? "everyNDays" : "everyDay", { n });
        break;
      case "weekly": {
        const names = (rule.days ?? []).map(
          (d) => (language === "he" ? HEBREW_DAYS[d] : EN_DAYS[d]) ?? String(d),
        );
        text = ct(language, repeat ? "everyNWeeks" : "everyWeek", { n, days: joinAnd(names, language) });
        break;
      }
      case "monthly": {
        const days = (rule.daysOfMonth ?? []).map((d) => (language === "he" ? String(d) : ordinal(d)));
        text = ct(language, repeat ? "everyNMonths" : "everyMonth", { n, days: joinAnd(days, language) });
        break;
      }
      default:
        text = ct(language, "everyYear");
    }
    if (time !== null) text += ` ${ct(language, "at", { time })}`;
  }
  if (rule.until)
    text += ` ${ct(language, "until", { date: dayText(parseDate(rule.until)!, frame.today, language) })}`;
  if (rule.count) text += ` (${ct(language, "times", { count: String(rule.count) })})`;
  return text;
}

/** "30 minutes", "1 hour", "2 hours" / "30 דקות", "שעה", "2 שעות". */
function minutesText(minutes: number, language: Language): string {
  if (minutes === 60) return ct(language, "hour");
  if (minutes % 60 === 0) return ct(language, "hours", { n: String(minutes / 60) });
  return ct(language, "minutes", { n: String(minutes) });
}

/** Busy time, to the half hour: "3 hours", "7.5 hours", "30 minutes". */
function busyText(minutes: number, language: Language): string {
  if (minutes < 60) return ct(language, "minutes", { n: String(minutes) });
  const hours = Math.round(minutes / 30) / 2;
  return hours === 1 ? ct(language, "hour") : ct(language, "hours", { n: String(hours) });
}

function countText(count: number, language: Language): string {
  return count === 1 ? ct(language, "oneEvent") : ct(language, "events", { count: String(count) });
}

/** "today", "from Thu 05/03 to Wed 11/03": the days a range covers (its end is exclusive). */
export function rangeText(range: TimeRange, frame: Frame, language: Language): string {
  const first = local(range.from, frame.zone).date;
  const last = local(new Date(Date.parse(range.to) - 1).toISOString(), frame.zone).date;
  if (daysBetween(first, last) === 0) return dayText(first, frame.today, language);
  return ct(language, "rangeDays", {
    from: dayText(first, frame.today, language),
    to: dayText(last, frame.today, language),
  });
}

// ---- replies ----

function eventDetails(event: EventView, frame: Frame, language: Language): string[] {
  const extra: string[] = [];
  if (event.location) extra.push(`📍 ${event.location}`);
  if (event.reminderMinutesBefore !== null && event.reminderMinutesBefore > 0) {
    extra.push(
      ct(language, "reminderBefore", { offset: minutesText(event.reminderMinutesBefore, language) }),
    );
  }
  void frame;
  return extra;
}

/** One event's line in a summary of several: "*Dentist* — tomorrow 14:00–15:00". */
function eventLine(event: EventView, frame: Frame, language: Language): string {
  const when = event.recurrence
    ? ruleText(event.recurrence, event, frame, language)
    : whenText(event, frame, language);
  return `*${event.summary}* — ${when}`;
}

function created(events: EventView[], frame: Frame, language: Language): string {
  if (events.length === 1) {
    const event = events[0]!;
    const head = event.recurrence
      ? ct(language, "createdRecurring", {
          summary: event.summary,
          rule: ruleText(event.recurrence, event, frame, language),
          first: dayText(startDate(event, frame.zone), frame.today, language),
        })
      : ct(language, "created", { summary: event.summary, when: whenText(event, frame, language) });
    return [head, ...eventDetails(event, frame, language)].join("\n");
  }
  return [
    ct(language, "createdMany", { count: String(events.length) }),
    ...events.map((e) => `• ${eventLine(e, frame, language)}`),
  ].join("\n");
}

/** Events grouped under their local day, in order: "Today (Thu 05/03)\n• 14:00–15:00 Meeting". */
function byDay(
  events: EventView[],
  range: TimeRange,
  frame: Frame,
  language: Language,
  headings: boolean,
): string[] {
  const rangeStart = local(range.from, frame.zone).date;
  const groups = new Map<string, string[]>();
  for (const event of events) {
    // A multi-day event that began before the range shows on the range's first day.
    let day = startDate(event, frame.zone);
    if (daysBetween(rangeStart, day) < 0) day = rangeStart;
    const key = formatDate(day);
    const marks = `${event.recurrence ? " 🔁" : ""}${event.location ? ` 📍 ${event.location}` : ""}`;
    const line = event.allDay
      ? `• ${event.summary} (${allDaySpan(event, language)})${marks}`
      : `• ${clockSpan(event, frame.zone)} ${event.summary}${marks}`;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  const out: string[] = [];
  for (const [key, lines] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (headings) out.push("", `*${dayHeading(parseDate(key)!, frame.today, language)}*`);
    out.push(...lines);
  }
  return out;
}

function listing(data: Extract<CalendarData, { kind: "listing" }>, language: Language): string {
  const range = rangeText(data.range, data, language);
  if (data.series?.recurrence) {
    const title = ct(language, "occurrencesTitle", {
      summary: data.series.summary,
      rule: ruleText(data.series.recurrence, data.series, data, language),
      range,
    });
    return [title, ...byDay(data.events, data.range, data, language, false)].join("\n");
  }
  if (data.events.length === 0) {
    return data.query
      ? ct(language, "nothingMatching", { query: data.query, range })
      : ct(language, "nothing", { range });
  }
  const first = local(data.range.from, data.zone).date;
  const last = local(new Date(Date.parse(data.range.to) - 1).toISOString(), data.zone).date;
  const oneDay = daysBetween(first, last) === 0;
  const title = data.query
    ? ct(language, "listTitleMatching", { query: data.query, range })
    : oneDay
      ? ct(language, "listTitleDay", { day: dayHeading(first, data.today, language, false) })
      : ct(language, "listTitle", { range });
  return [title, ...byDay(data.events, data.range, data, language, !oneDay)].join("\n");
}

function conflicts(data: Extract<CalendarData, { kind: "conflicts" }>, language: Language): string {
  const when = whenText({ allDay: false, start: data.range.from, end: data.range.to }, data, language);
  if (data.events.length === 0) return ct(language, "free", { when });
  return [
    ct(language, "conflicts", { when }),
    ...data.events.map((e) => `• ${eventLine(e, data, language)}`),
  ].join("\n");
}

function schedule(data: Extract<CalendarData, { kind: "schedule" }>, language: Language): string {
  const { analysis } = data;
  const lines = [
    ct(language, "scheduleTitle", {
      range: rangeText(data.range, data, language),
      events: countText(analysis.totalEvents, language),
      busy: busyText(analysis.busyMinutes, language),
    }),
  ];
  if (analysis.busiestDate && analysis.days.length > 1) {
    lines.push(
      ct(language, "scheduleBusiest", {
        day: dayText(parseDate(analysis.busiestDate)!, data.today, language),
      }),
    );
  }
  lines.push("");
  for (const day of analysis.days) {
    const parts = [
      day.events > 0
        ? ct(language, "scheduleDayEvents", {
            events: countText(day.events, language),
            busy: busyText(day.busyMinutes, language),
          })
        : ct(language, "scheduleDayFree"),
    ];
    if (day.allDay.length > 0) parts.push(day.allDay.join(", "));
    const slots = day.freeSlots.map(
      (s) => `${local(s.start, data.zone).clock}–${local(s.end, data.zone).clock}`,
    );
    if (day.events > 0 || slots.length === 0) {
      parts.push(
        slots.length > 0
          ? ct(language, "scheduleFree", { slots: slots.join(", ") })
          : ct(language, "scheduleNoFree"),
      );
    }
    lines.push(
      ct(language, "scheduleDay", {
        day: dayHeading(parseDate(day.date)!, data.today, language),
        summary: parts.join("; "),
      }),
    );
  }
  return lines.join("\n");
}

function render(data: CalendarData, language: Language): string {
  switch (data.kind) {
    case "created":
      return created(data.events, data, language);
    case "updated": {
      const { event } = data;
      if (data.scope === "series" && event.recurrence) {
        return ct(language, "updatedSeries", {
          summary: event.summary,
          rule: ruleText(event.recurrence, event, data, language),
        });
      }
      return [
        ct(language, "updated", { summary: event.summary, when: whenText(event, data, language) }),
        ...eventDetails(event, data, language),
      ].join("\n");
    }
    case "deleted": {
      const only = data.events.length === 1 ? data.events[0]! : null;
      if (only && data.scope === "series" && only.recurrence) {
        return ct(language, "deletedSeries", {
          summary: only.summary,
          rule: ruleText(only.recurrence, only, data, language),
        });
      }
      if (only)
        return ct(language, "deleted", { summary: only.summary, when: whenText(only, data, language) });
      return ct(language, "deletedMany", { count: String(data.events.length) });
    }
    case "truncated":
      return ct(language, "truncated", {
        summary: data.event.summary,
        date: dayText(parseDate(data.lastDate)!, data.today, language),
      });
    case "listing":
      return listing(data, language);
    case "conflicts":
      return conflicts(data, language);
    case "schedule":
      return schedule(data, language);
  }
}

/** Every calendar result in words, with no LLM. */
export const calendarTemplate: ResponseTemplate = (result, language) => {
  // The raw data: the formatter's copy adds `<key>Human` fields these templates do not need.
  const data = result.rawData as CalendarData | undefined;
  if (!data || typeof data !== "object" || !("kind" in data) || !("zone" in data)) return null;
  // A deletion says how to take it back.
  return data.kind === "deleted" ? withUndoHint(render(data, language), language) : render(data, language);
};

/** Lines of today's events for the morning digest: all-day first, then by start. */
export function digestLines(
  events: readonly CalendarEvent[],
  zone: string,
  language: Language,
): { time?: string; text: string }[] {
  const sorted = [...events].sort(
    (a, b) => Number(b.allDay) - Number(a.allDay) || Date.parse(a.start) - Date.parse(b.start),
  );
  return sorted.map((event) =>
    event.allDay
      ? { text: `${event.summary} (${ct(language, "allDay")})` }
      : {
          time: local(event.start, zone).clock,
          text: event.location ? `${event.summary} 📍 ${event.location}` : event.summary,
        },
  );
}

/** The question to ask when time words could not be read (eventTimes' problems). */
export function timeQuestion(
  problem: { problem: string; phrase: string },
  language: Language,
  frame?: Frame,
): string {
  const phrase = frame ? localPhrase(problem.phrase, frame, language) : problem.phrase;
  switch (problem.problem) {
    case "missing_summary":
      return ct(language, "askSummary");
    case "missing_start":
      return ct(language, "askStart");
    case "missing_time":
      return phrase ? ct(language, "askTimeOfDay", { phrase }) : ct(language, "askTimeOfDayNoPhrase");
    case "past_time":
      return ct(language, "askPast", { phrase });
    case "end_before_start":
      return ct(language, "askEndBeforeStart", { phrase });
    case "missing_days":
    case "unclear_days":
      return ct(language, "askDays", { phrase });
    // Repeat words readTime could not settle: the questions reminders ask.
    case "ambiguous_hour":
      return t(language, "askHalfOfDay", { phrase });
    case "unsupported_repeat":
      return t(language, "askRepeat", { phrase });
    default:
      return phrase ? ct(language, "askEventTime", { phrase }) : ct(language, "askStart");
  }
}

/** A local date or date-time the resolver wrote ("2026-03-05T09:00") as the user says it ("today 09:00"); other words as they are. */
function localPhrase(phrase: string, frame: Frame, language: Language): string {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(?::\d{2})?)?$/.exec(phrase.trim());
  const date = match ? parseDate(match[1]!) : null;
  if (!date) return phrase;
  const day = dayText(date, frame.today, language);
  return match![2] ? `${day} ${match![2]}` : day;
}
