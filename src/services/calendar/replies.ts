import { t, type Language } from "../../messages/index.js";
import { formatRule } from "../../nlu/recurrenceRule.js";
import { addDays, dateLabel, daysBetween, type LocalDate, formatDate } from "../../nlu/zonedTime.js";
import { HEBREW_DAYS, pad2, zonedParts } from "../../utils/timeContext.js";
import { joinAnd, ordinal, rruleWords } from "../tasks/rruleText.js";
import { partsOf } from "./calendarRule.js";
import { parseDate } from "./recurrenceExpansion.js";
import type { EventView, Frame } from "../../contracts/calendar.js";
import type { CalendarRequestError } from "./calendarRequestError.js";
import type { CalendarEvent, CalendarRecurrence, TimeRange } from "../../types/calendar.js";

/** What the user reads when the calendar refused a request or did not answer. */
export function refusalText(error: CalendarRequestError, language: Language): string {
  if (error.code === "not_found") return t(language, "calendar.notFoundAny");
  if (error.code === "unavailable") return t(language, "calendar.unavailable");
  return t(language, "calendar.invalid", { reason: error.message });
}

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
    attendees: event.attendees,
  };
}

// ---- words for times ----

const EN_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The local date and clock of an instant in the user's zone. */
export function localMoment(iso: string, zone: string) {
  const p = zonedParts(Date.parse(iso), zone);
  return {
    date: { year: p.year, month: p.month, day: p.day },
    clock: `${pad2(p.hour)}:${pad2(p.minute)}`,
  };
}

/** "today", "tomorrow", "Sun 08/03" / "היום", "מחר", "יום ראשון 08/03". */
export function dayText(date: LocalDate, today: string, language: Language, capital = false): string {
  const diff = daysBetween(parseDate(today)!, date);
  if (diff === 0) return t(language, capital ? "calendar.Today" : "calendar.today");
  if (diff === 1) return t(language, capital ? "calendar.Tomorrow" : "calendar.tomorrow");
  if (diff === -1) return t(language, "calendar.yesterday");
  return dateLabel(date, language);
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
    const allDay = t(language, "calendar.allDay");
    return daysBetween(first, last) <= 0
      ? `${dayText(first, frame.today, language)} (${allDay})`
      : `${dateLabel(first, language)} – ${dateLabel(last, language)} (${allDay})`;
  }
  const start = localMoment(event.start, frame.zone);
  const end = localMoment(event.end, frame.zone);
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

/** The clock span of a timed event on a listing line: "14:00–15:00". */
export function clockSpan(event: EventView, zone: string): string {
  const start = localMoment(event.start, zone).clock;
  const end = localMoment(event.end, zone).clock;
  return event.start === event.end ? start : `${start}–${end}`;
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
        text = t(language, repeat ? "calendar.everyNDays" : "calendar.everyDay", { n });
        break;
      case "weekly": {
        const names = (rule.days ?? []).map(
          (d) => (language === "he" ? HEBREW_DAYS[d] : EN_DAYS[d]) ?? String(d),
        );
        text = t(language, repeat ? "calendar.everyNWeeks" : "calendar.everyWeek", {
          n,
          days: joinAnd(names, language),
        });
        break;
      }
      case "monthly": {
        const days = (rule.daysOfMonth ?? []).map((d) => (language === "he" ? String(d) : ordinal(d)));
        text = t(language, repeat ? "calendar.everyNMonths" : "calendar.everyMonth", {
          n,
          days: joinAnd(days, language),
        });
        break;
      }
      default:
        text = t(language, "calendar.everyYear");
    }
    if (time !== null) text += ` ${t(language, "calendar.at", { time })}`;
  }
  if (rule.until)
    text += ` ${t(language, "calendar.until", { date: dayText(parseDate(rule.until)!, frame.today, language) })}`;
  if (rule.count) text += ` (${t(language, "calendar.times", { count: String(rule.count) })})`;
  return text;
}

/** "today", "from Thu 05/03 to Wed 11/03": the days a range covers (its end is exclusive). */
export function rangeText(range: TimeRange, frame: Frame, language: Language): string {
  const first = localMoment(range.from, frame.zone).date;
  const last = localMoment(new Date(Date.parse(range.to) - 1).toISOString(), frame.zone).date;
  if (daysBetween(first, last) === 0) return dayText(first, frame.today, language);
  return t(language, "calendar.rangeDays", {
    from: dayText(first, frame.today, language),
    to: dayText(last, frame.today, language),
  });
}

/** Lines of today's events for the morning digest: all-day first, then by start. */
export function digestLines(
  events: readonly CalendarEvent[],
  zone: string,
  language: Language,
  /** A week's events (the weekly review): each line names its day too. */
  week = false,
): { time?: string; text: string }[] {
  const sorted = [...events].sort((a, b) =>
    week
      ? Date.parse(a.start) - Date.parse(b.start) || Number(b.allDay) - Number(a.allDay)
      : Number(b.allDay) - Number(a.allDay) || Date.parse(a.start) - Date.parse(b.start),
  );
  return sorted.map((event) => {
    const at = localMoment(event.start, zone);
    // An all-day event's start is its date as written, not an instant to move into the zone.
    const day = week
      ? dateLabel(event.allDay ? parseDate(event.start.slice(0, 10))! : at.date, language, true)
      : "";
    if (event.allDay)
      return week
        ? { time: day, text: event.summary }
        : { text: `${event.summary} (${t(language, "calendar.allDay")})` };
    return {
      time: week ? `${day} ${at.clock}` : at.clock,
      text: event.location ? `${event.summary} 📍 ${event.location}` : event.summary,
    };
  });
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
      return t(language, "calendar.askSummary");
    case "missing_start":
      return t(language, "calendar.askStart");
    case "missing_time":
      return phrase
        ? t(language, "calendar.askTimeOfDay", { phrase })
        : t(language, "calendar.askTimeOfDayNoPhrase");
    case "past_time":
      return t(language, "calendar.askPast", { phrase });
    case "end_before_start":
      return t(language, "calendar.askEndBeforeStart", { phrase });
    case "missing_days":
    case "unclear_days":
      return t(language, "calendar.askDays", { phrase });
    // Repeat words readTime could not settle: the questions reminders ask.
    case "ambiguous_hour":
      return t(language, "askHalfOfDay", { phrase });
    case "unsupported_repeat":
      return t(language, "askRepeat", { phrase });
    default:
      return phrase ? t(language, "calendar.askEventTime", { phrase }) : t(language, "calendar.askStart");
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
