import { t, type Language } from "../../messages/index.js";
import { withUndoHint } from "../undo/replies.js";
import type { ResponseTemplate } from "../../types/capability.js";
import { formatRule } from "../../nlu/recurrenceRule.js";
import { addDays, dayOfWeek, type LocalDate } from "../../nlu/zonedTime.js";
import { HEBREW_DAYS, pad2, zonedParts } from "../../utils/timeContext.js";
import { joinAnd, ordinal, rruleWords } from "../tasks/rruleText.js";
import { partsOf } from "./calendarRule.js";
import { daysBetween, formatDate, parseDate } from "./recurrenceExpansion.js";
import type { ScheduleAnalysis } from "./scheduleAnalysis.js";
import type { CalendarRequestError } from "./calendarRequestError.js";
import type { CalendarEvent, CalendarRecurrence, EventScope, TimeRange } from "../../types/calendar.js";

/** What the user reads when the calendar refused a request or did not answer. */
export function refusalText(error: CalendarRequestError, language: Language): string {
  if (error.code === "not_found") return t(language, "calendar.notFoundAny");
  if (error.code === "unavailable") return t(language, "calendar.unavailable");
  return t(language, "calendar.invalid", { reason: error.message });
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
    | {
        kind: "deleted";
        events: EventView[];
        scope: EventScope;
        /** Its earlier state could not be copied: undo cannot bring it back, so the reply does not offer it. */
        untracked?: true;
      }
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
  if (diff === 0) return t(language, capital ? "calendar.Today" : "calendar.today");
  if (diff === 1) return t(language, capital ? "calendar.Tomorrow" : "calendar.tomorrow");
  if (diff === -1) return t(language, "calendar.yesterday");
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
    const allDay = t(language, "calendar.allDay");
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
    ? t(language, "calendar.allDay")
    : `${dateLabel(first, language)} – ${dateLabel(last, language)}`;
}

/** The clock span of a timed event on a listing line: "14:00–15:00". */
function clockSpan(event: EventView, zone: string): string {
  const start = local(event.start, zone).clock;
  const end = local(event.end, zone).clock;
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

/** "30 minutes", "1 hour", "2 hours" / "30 דקות", "שעה", "שעתיים". */
function minutesText(minutes: number, language: Language): string {
  if (minutes % 60 === 0) return t(language, "duration.hours", { count: minutes / 60 });
  return t(language, "duration.minutes", { count: minutes });
}

/** Busy time, to the half hour: "3 hours", "7.5 hours", "30 minutes". */
function busyText(minutes: number, language: Language): string {
  if (minutes < 60) return t(language, "duration.minutes", { count: minutes });
  return t(language, "duration.hours", { count: Math.round(minutes / 30) / 2 });
}

function countText(count: number, language: Language): string {
  return t(language, "calendar.events", { count });
}

/** "today", "from Thu 05/03 to Wed 11/03": the days a range covers (its end is exclusive). */
export function rangeText(range: TimeRange, frame: Frame, language: Language): string {
  const first = local(range.from, frame.zone).date;
  const last = local(new Date(Date.parse(range.to) - 1).toISOString(), frame.zone).date;
  if (daysBetween(first, last) === 0) return dayText(first, frame.today, language);
  return t(language, "calendar.rangeDays", {
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
      t(language, "calendar.reminderBefore", { offset: minutesText(event.reminderMinutesBefore, language) }),
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
      ? t(language, "calendar.createdRecurring", {
          summary: event.summary,
          rule: ruleText(event.recurrence, event, frame, language),
          first: dayText(startDate(event, frame.zone), frame.today, language),
        })
      : t(language, "calendar.created", { summary: event.summary, when: whenText(event, frame, language) });
    return [head, ...eventDetails(event, frame, language)].join("\n");
  }
  return [
    t(language, "calendar.createdMany", { count: String(events.length) }),
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
    const title = t(language, "calendar.occurrencesTitle", {
      summary: data.series.summary,
      rule: ruleText(data.series.recurrence, data.series, data, language),
      range,
    });
    return [title, ...byDay(data.events, data.range, data, language, false)].join("\n");
  }
  if (data.events.length === 0) {
    return data.query
      ? t(language, "calendar.nothingMatching", { query: data.query, range })
      : t(language, "calendar.nothing", { range });
  }
  const first = local(data.range.from, data.zone).date;
  const last = local(new Date(Date.parse(data.range.to) - 1).toISOString(), data.zone).date;
  const oneDay = daysBetween(first, last) === 0;
  const title = data.query
    ? t(language, "calendar.listTitleMatching", { query: data.query, range })
    : oneDay
      ? t(language, "calendar.listTitleDay", { day: dayHeading(first, data.today, language, false) })
      : t(language, "calendar.listTitle", { range });
  return [title, ...byDay(data.events, data.range, data, language, !oneDay)].join("\n");
}

function conflicts(data: Extract<CalendarData, { kind: "conflicts" }>, language: Language): string {
  const when = whenText({ allDay: false, start: data.range.from, end: data.range.to }, data, language);
  if (data.events.length === 0) return t(language, "calendar.free", { when });
  return [
    t(language, "calendar.conflicts", { when }),
    ...data.events.map((e) => `• ${eventLine(e, data, language)}`),
  ].join("\n");
}

function schedule(data: Extract<CalendarData, { kind: "schedule" }>, language: Language): string {
  const { analysis } = data;
  const lines = [
    t(language, "calendar.scheduleTitle", {
      range: rangeText(data.range, data, language),
      events: countText(analysis.totalEvents, language),
      busy: busyText(analysis.busyMinutes, language),
    }),
  ];
  if (analysis.busiestDate && analysis.days.length > 1) {
    lines.push(
      t(language, "calendar.scheduleBusiest", {
        day: dayText(parseDate(analysis.busiestDate)!, data.today, language),
      }),
    );
  }
  lines.push("");
  for (const day of analysis.days) {
    const parts = [
      day.events > 0
        ? t(language, "calendar.scheduleDayEvents", {
            events: countText(day.events, language),
            busy: busyText(day.busyMinutes, language),
          })
        : t(language, "calendar.scheduleDayFree"),
    ];
    if (day.allDay.length > 0) parts.push(day.allDay.join(", "));
    const slots = day.freeSlots.map(
      (s) => `${local(s.start, data.zone).clock}–${local(s.end, data.zone).clock}`,
    );
    if (day.events > 0 || slots.length === 0) {
      parts.push(
        slots.length > 0
          ? t(language, "calendar.scheduleFree", { slots: slots.join(", ") })
          : t(language, "calendar.scheduleNoFree"),
      );
    }
    lines.push(
      t(language, "calendar.scheduleDay", {
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
        return t(language, "calendar.updatedSeries", {
          summary: event.summary,
          rule: ruleText(event.recurrence, event, data, language),
        });
      }
      return [
        t(language, "calendar.updated", { summary: event.summary, when: whenText(event, data, language) }),
        ...eventDetails(event, data, language),
      ].join("\n");
    }
    case "deleted": {
      const only = data.events.length === 1 ? data.events[0]! : null;
      if (only && data.scope === "series" && only.recurrence) {
        return t(language, "calendar.deletedSeries", {
          summary: only.summary,
          rule: ruleText(only.recurrence, only, data, language),
        });
      }
      if (only)
        return t(language, "calendar.deleted", {
          summary: only.summary,
          when: whenText(only, data, language),
        });
      return t(language, "calendar.deletedMany", { count: String(data.events.length) });
    }
    case "truncated":
      return t(language, "calendar.truncated", {
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
  // A deletion says how to take it back, where undo can.
  return data.kind === "deleted" && !data.untracked
    ? withUndoHint(render(data, language), language)
    : render(data, language);
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
      ? { text: `${event.summary} (${t(language, "calendar.allDay")})` }
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
