import { t, type Language } from "../../../messages/index.js";
import { addDays, daysBetween, type LocalDate, formatDate, dateLabel } from "../../../nlu/zonedTime.js";
import { assertNever, declares } from "../../../contracts/contract.js";
import {
  calendarContract,
  type CalendarFunction,
  type CalendarResults,
  type Conflicts,
  type Deleted,
  type EventView,
  type Frame,
  type Listing,
  type Schedule,
  type Updated,
} from "../../../contracts/calendar.js";
import type { ResponseTemplate } from "../../../types/capability.js";
import type { Attendee, TimeRange } from "../../../types/calendar.js";
import { parseDate } from "../../../services/calendar/recurrenceExpansion.js";
import {
  clockSpan,
  dayText,
  localMoment,
  rangeText,
  ruleText,
  whenText,
} from "../../../services/calendar/replies.js";
import { withUndoHint } from "../../../services/undo/replies.js";

/** One operation's result as the template reads it, by function. */
type Shown = { [F in CalendarFunction]: { functionName: F; data: CalendarResults[F] } }[CalendarFunction];

/** The local date an event starts on, in the user's zone (an all-day event's own date). */
function startDate(event: Pick<EventView, "allDay" | "start">, zone: string): LocalDate {
  return event.allDay ? parseDate(event.start)! : localMoment(event.start, zone).date;
}

/** A day heading of a listing: "Today (Thu 05/03)", "Sun 08/03". */
function dayHeading(date: LocalDate, today: string, language: Language, capital = true): string {
  const named = dayText(date, today, language, capital);
  const diff = daysBetween(parseDate(today)!, date);
  if (Math.abs(diff) > 1) return named;
  return `${named} (${dateLabel(date, language)})`;
}

/** An all-day event on a listing line: "all day", or its days "Fri 06/03 – Sun 08/03". */
function allDaySpan(event: Pick<EventView, "start" | "end">, language: Language): string {
  const first = parseDate(event.start)!;
  const last = addDays(parseDate(event.end)!, -1);
  return daysBetween(first, last) <= 0
    ? t(language, "calendar.allDay")
    : `${dateLabel(first, language)} – ${dateLabel(last, language)}`;
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

/** "Dana (dana@example.com), avi@example.com". */
function peopleText(attendees: Attendee[]): string {
  return attendees
    .map((a) => (a.name && a.email ? `${a.name} (${a.email})` : (a.email ?? a.name ?? "")))
    .join(", ");
}

/**
 * Who the events are with: on Google, who was invited and who could not be (no address); on the
 * built-in calendar, the people kept with the event (nothing is sent).
 */
function peopleLines(
  events: EventView[],
  result: { invites: boolean; invited?: Attendee[]; notInvited: string[] },
  language: Language,
): string[] {
  const attendees = events.flatMap((e) => e.attendees);
  if (!result.invites) {
    return attendees.length > 0 ? [t(language, "calendar.with", { people: peopleText(attendees) })] : [];
  }
  const invited = result.invited ?? attendees.filter((a) => a.email !== null);
  return [
    ...(invited.length > 0 ? [t(language, "calendar.invited", { people: peopleText(invited) })] : []),
    ...(result.notInvited.length > 0
      ? [t(language, "calendar.notInvited", { names: result.notInvited.join(", ") })]
      : []),
  ];
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
  const rangeStart = localMoment(range.from, frame.zone).date;
  const groups = new Map<string, string[]>();
  for (const event of events) {
    // A multi-day event that began before the range shows on the range's first day.
    let day = startDate(event, frame.zone);
    if (daysBetween(rangeStart, day) < 0) day = rangeStart;
    const key = formatDate(day);
    const people = event.attendees.length > 0 ? ` 👥 ${peopleText(event.attendees)}` : "";
    const marks = `${event.recurrence ? " 🔁" : ""}${event.location ? ` 📍 ${event.location}` : ""}${people}`;
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

function listing(data: Listing, language: Language): string {
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
  const first = localMoment(data.range.from, data.zone).date;
  const last = localMoment(new Date(Date.parse(data.range.to) - 1).toISOString(), data.zone).date;
  const oneDay = daysBetween(first, last) === 0;
  const title = data.query
    ? t(language, "calendar.listTitleMatching", { query: data.query, range })
    : oneDay
      ? t(language, "calendar.listTitleDay", { day: dayHeading(first, data.today, language, false) })
      : t(language, "calendar.listTitle", { range });
  return [title, ...byDay(data.events, data.range, data, language, !oneDay)].join("\n");
}

function conflicts(data: Conflicts, language: Language): string {
  const when = whenText({ allDay: false, start: data.range.from, end: data.range.to }, data, language);
  if (data.events.length === 0) return t(language, "calendar.free", { when });
  return [
    t(language, "calendar.conflicts", { when }),
    ...data.events.map((e) => `• ${eventLine(e, data, language)}`),
  ].join("\n");
}

function schedule(data: Schedule, language: Language): string {
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
      (s) => `${localMoment(s.start, data.zone).clock}–${localMoment(s.end, data.zone).clock}`,
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

function updated(data: Updated, language: Language): string {
  const { event } = data;
  if (data.scope === "series" && event.recurrence) {
    return [
      t(language, "calendar.updatedSeries", {
        summary: event.summary,
        rule: ruleText(event.recurrence, event, data, language),
      }),
      ...peopleLines([event], data, language),
    ].join("\n");
  }
  return [
    t(language, "calendar.updated", { summary: event.summary, when: whenText(event, data, language) }),
    ...eventDetails(event, data, language),
    ...peopleLines([event], data, language),
  ].join("\n");
}

function deleted(data: Deleted, language: Language): string {
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

/** The reply to one operation: a new operation of the contract fails `tsc` here until it has one. */
function render(shown: Shown, language: Language): string {
  switch (shown.functionName) {
    case "calendar.create":
    case "calendar.createMultiple":
    case "calendar.createRecurring":
    case "calendar.createMultipleRecurring":
      return [
        created(shown.data.events, shown.data, language),
        ...peopleLines(shown.data.events, shown.data, language),
      ].join("\n");
    case "calendar.update":
      return updated(shown.data, language);
    case "calendar.delete":
    case "calendar.deleteBySummary": {
      // A deletion says how to take it back, where undo can.
      const text = deleted(shown.data, language);
      return shown.data.untracked ? text : withUndoHint(text, language);
    }
    case "calendar.truncateRecurring":
      return t(language, "calendar.truncated", {
        summary: shown.data.event.summary,
        date: dayText(parseDate(shown.data.lastDate)!, shown.data.today, language),
      });
    case "calendar.get":
    case "calendar.getEvents":
    case "calendar.getRecurringInstances":
      return listing(shown.data, language);
    case "calendar.checkConflicts":
      return conflicts(shown.data, language);
    case "calendar.analyzeSchedule":
      return schedule(shown.data, language);
    default:
      return assertNever(shown);
  }
}

/** Every calendar result in words, with no LLM. */
export const calendarTemplate: ResponseTemplate = (result, language) => {
  // The raw data: the formatter's copy adds `<key>Human` fields these templates do not need.
  const data: unknown = result.rawData;
  if (!declares(calendarContract, result.operation)) return null;
  if (!data || typeof data !== "object" || !("kind" in data) || !("zone" in data)) return null;
  // The executor's result for this operation (CalendarResults).
  return render({ functionName: result.operation, data } as Shown, language);
};
