/**
 * Where the calendar resolvers' time words meet code (D6): the LLM names local wall times ("tomorrow
 * 14:00", "2026-03-06T14:00", "Sunday") and these functions turn them into what a provider stores,
 * in the user's zone: instants for timed events, dates (end exclusive) for all-day ones.
 */
import type {
  CalendarMutateOperation,
  EventFields,
  RecurringFields,
  UpdateFields,
} from "../../prompts/calendarMutatePrompt.js";
import type { CalendarOptions } from "../../nlu/holidays.js";
import { readTime, type UnclearReason } from "../../nlu/parseTime.js";
import { nextOccurrence } from "../../nlu/recurrence.js";
import { type Recurrence } from "../../types/recurrence.js";
import { dayIndex } from "../../nlu/timeWords.js";
import { resolveWhen } from "../../nlu/whenPhrase.js";
import {
  addDays,
  daysBetween,
  dayOfWeek,
  instantToLocal,
  localToInstant,
  parseClock,
  type LocalDate,
  formatDate,
} from "../../nlu/zonedTime.js";
import { bareClock } from "../tasks/taskTimes.js";
import { recurrenceOfReminder } from "./calendarRule.js";
import { localDateOf, parseDate, startOfDay } from "./recurrenceExpansion.js";
import type {
  CalendarEvent,
  CalendarRecurrence,
  EventInput,
  EventPatch,
  TimeRange,
} from "../../types/calendar.js";

/** An event named with no end or length lasts this long (default: 60 minutes). */
const DEFAULT_DURATION_MINUTES = 60;
/** A lookup with no range covers the next this many days (default: 7). */
const DEFAULT_RANGE_DAYS = 7;
/** A new event may start this long before now (a meeting that has just begun) without a question. */
const PAST_GRACE_MS = 10 * 60_000;

const MINUTE_MS = 60_000;

/** The times of one event as stored: instants (timed) or dates with an exclusive end (all-day). */
export interface EventTimes {
  allDay: boolean;
  start: string;
  end: string;
  timeZone: string;
}

/** Why time words could not be read; `phrase` is the words in question. */
type EventTimeProblem =
  | "missing_summary"
  | "missing_start"
  | "missing_time"
  | "unclear_time"
  | "past_time"
  | "end_before_start"
  | "missing_days"
  | "unclear_days"
  /** An hour 1–6 with no am/pm in a repeat ("every weekday at 5"): morning or afternoon? */
  | "ambiguous_hour"
  /** A repeat that cannot be expressed exactly ("every few days", "twice a week"). */
  | "unsupported_repeat";

type Problem = { ok: false; problem: EventTimeProblem; phrase: string };
export type Result<T> = ({ ok: true } & T) | Problem;

const problem = (kind: EventTimeProblem, phrase = ""): Problem => ({ ok: false, problem: kind, phrase });
const iso = (ms: number) => new Date(ms).toISOString();
const clean = (text: string | null | undefined) => (typeof text === "string" ? text.trim() : "");

export interface TimeOptions {
  nowMs: number;
  timeZone: string;
  /** A start already past is read as it is, not refused (a free-slot check, an update). */
  allowPast?: boolean;
  /** The user's holiday schedule and Hebrew birthday (default: the zone's schedule). */
  calendar?: CalendarOptions;
}

/** The calendar words' options of a reading, when the user's are known. */
const calendarOf = (options: TimeOptions) => (options.calendar ? { calendar: options.calendar } : {});

/** The local date the words name ("2026-03-06", "Friday", "מחר"), or null. */
export function readDate(words: string, options: TimeOptions): LocalDate | null {
  const { nowMs, timeZone } = options;
  const exact = parseDate(words.trim());
  if (exact) return exact;
  const resolved = resolveWhen(words, nowMs, timeZone, calendarOf(options));
  return resolved ? localDateOf(resolved.at, timeZone) : null;
}

/** A clock time alone ("18:00", "6pm", "ב-18:00") on `day`; an open hour ("6") takes the half nearer `nearMinutes`. */
function clockOn(words: string, day: LocalDate, timeZone: string, nearMinutes: number): number | null {
  const clock = bareClock(words);
  if (!clock) return null;
  const hours = clock.open && clock.hour < 12 ? [clock.hour, clock.hour + 12] : [clock.hour];
  const distance = (h: number) => Math.abs(h * 60 + clock.minute - nearMinutes);
  const hour = hours.reduce((best, h) => (distance(h) < distance(best) ? h : best));
  return localToInstant({ ...day, hour, minute: clock.minute }, timeZone);
}

/** "HH:mm" from a recurring event's startTime / endTime ("9", "09:00", "9pm"), or null. */
export function clockOf(text: string): { hour: number; minute: number } | null {
  const direct = parseClock(text) ?? bareClock(text);
  return direct ? { hour: direct.hour, minute: direct.minute } : null;
}

/** The end of a timed event from its end words or length; a bare clock is on the start's day (or the next, if earlier). */
function timedEnd(
  startMs: number,
  endWords: string,
  durationMinutes: number | null | undefined,
  options: TimeOptions,
): Result<{ endMs: number }> {
  const { timeZone } = options;
  if (!endWords) {
    return { ok: true, endMs: startMs + (durationMinutes ?? DEFAULT_DURATION_MINUTES) * MINUTE_MS };
  }
  const startLocal = instantToLocal(startMs, timeZone);
  const startMinutes = startLocal.hour * 60 + startLocal.minute;
  const onDay = clockOn(endWords, startLocal, timeZone, startMinutes + 60);
  if (onDay !== null) {
    // "22:00 to 01:00": an end clock before the start is on the next day.
    const endMs = onDay > startMs ? onDay : clockOn(endWords, addDays(startLocal, 1), timeZone, startMinutes);
    return endMs === null ? problem("unclear_time", endWords) : { ok: true, endMs };
  }
  const resolved = resolveWhen(endWords, startMs, timeZone, calendarOf(options));
  if (!resolved || resolved.dateOnly) return problem("unclear_time", endWords);
  if (resolved.at <= startMs) return problem("end_before_start", endWords);
  return { ok: true, endMs: resolved.at };
}

/** An all-day span from date words: end exclusive; an end on or before the start means that single day. */
function allDaySpan(
  startWords: string,
  endWords: string,
  options: TimeOptions,
): Result<{ times: EventTimes }> {
  const first = readDate(startWords, options);
  if (!first) return problem("unclear_time", startWords);
  let after = addDays(first, 1);
  if (endWords) {
    const end = readDate(endWords, options);
    if (!end) return problem("unclear_time", endWords);
    const days = daysBetween(first, end);
    if (days < 0) return problem("end_before_start", endWords);
    if (days > 0) after = end;
  }
  return {
    ok: true,
    times: { allDay: true, start: formatDate(first), end: formatDate(after), timeZone: options.timeZone },
  };
}

/** The times of a new event (create, createMultiple), or what stops them being read. Past starts are refused. */
export function eventTimes(
  args: {
    start?: string | null;
    end?: string | null;
    durationMinutes?: number | null;
    allDay?: boolean | null;
  },
  options: TimeOptions,
): Result<{ times: EventTimes }> {
  const { nowMs, timeZone } = options;
  const startWords = clean(args.start);
  const endWords = clean(args.end);
  if (!startWords) return problem("missing_start");
  const bothDates = !!parseDate(startWords) && (!endWords || !!parseDate(endWords));
  if (args.allDay || (bothDates && endWords && endWords !== startWords)) {
    const span = allDaySpan(startWords, endWords, options);
    if (!span.ok) return span;
    const today = localDateOf(nowMs, timeZone);
    if (!options.allowPast && daysBetween(today, parseDate(span.times.start)!) < 0)
      return problem("past_time", startWords);
    return span;
  }
  const resolved = resolveWhen(startWords, nowMs, timeZone, calendarOf(options));
  if (!resolved) return problem("unclear_time", startWords);
  // A day without a time: the user has to say when (or that it is all day).
  if (resolved.dateOnly) return problem("missing_time", startWords);
  if (!options.allowPast && resolved.at < nowMs - PAST_GRACE_MS) return problem("past_time", startWords);
  const end = timedEnd(resolved.at, endWords, args.durationMinutes, options);
  if (!end.ok) return end;
  return { ok: true, times: { allDay: false, start: iso(resolved.at), end: iso(end.endMs), timeZone } };
}

/** Weekly days (names) or monthly days (numeric strings) of a recurring event as a rule. */
function ruleOf(args: RecurringFields, firstDay: LocalDate): Result<{ rule: CalendarRecurrence }> {
  const days = (args.days ?? []).map((d) => String(d).trim()).filter(Boolean);
  const numeric = days.length > 0 && days.every((d) => /^\d{1,2}$/.test(d));
  const frequency = args.frequency ?? (days.length === 0 ? "daily" : numeric ? "monthly" : "weekly");
  const base: CalendarRecurrence = {
    frequency,
    ...(args.interval && args.interval > 1 ? { interval: args.interval } : {}),
  };
  if (frequency === "daily") return { ok: true, rule: base };
  if (frequency === "weekly") {
    if (days.length === 0) return { ok: true, rule: { ...base, days: [dayOfWeek(firstDay)] } };
    const numbers = days.map(dayIndex);
    if (numbers.some((n) => n === null)) return problem("unclear_days", days.join(", "));
    return { ok: true, rule: { ...base, days: [...new Set(numbers as number[])].sort((a, b) => a - b) } };
  }
  if (days.length === 0) return { ok: true, rule: { ...base, daysOfMonth: [firstDay.day] } };
  const numbers = days.map(Number);
  if (!numeric || numbers.some((n) => n < 1 || n > 31)) return problem("unclear_days", days.join(", "));
  return { ok: true, rule: { ...base, daysOfMonth: [...new Set(numbers)].sort((a, b) => a - b) } };
}

type SeriesTimes = Result<{ times: EventTimes & { recurrence: CalendarRecurrence } }>;

/** Why readTime could not read repeat words, as the problem the resolver asks about. */
const UNCLEAR_PROBLEM: Partial<Record<UnclearReason, EventTimeProblem>> = {
  ambiguous_hour: "ambiguous_hour",
  unsupported: "unsupported_repeat",
};

/** A wall time no repeat words say, to tell whether they name a time of their own. */
const PROBE_CLOCK = "13:37";

/**
 * The user's repeat words read in code (readTime, D6/D10), the same reading reminders get: "every
 * weekday at 7", "the first Sunday of every month at 10am", "כל יום חול ב-7". A clock time the
 * resolver gave apart from them (startTime) counts only where the words name none; words with no
 * time make an all-day series when the event is all-day, else Memo asks the time. The series
 * starts on the rule's first occurrence (on or after startDate, when the resolver named one).
 */
function seriesFromWords(phrase: string, args: RecurringFields, options: TimeOptions): SeriesTimes {
  const { nowMs, timeZone } = options;
  const read = (words: string) => {
    const reading = readTime(words, nowMs, timeZone, calendarOf(options));
    return reading?.kind === "recurring" && reading.recurrence.type !== "nudge" ? reading : null;
  };
  const startWords = clean(args.startTime);
  const given = startWords ? clockOf(startWords) : null;
  if (startWords && !given) return problem("unclear_time", startWords);
  // The words name a time of their own unless a time said before them is read as theirs (said
  // before: one said after an "until" would be the end's).
  const timeNamed = read(`at ${PROBE_CLOCK} ${phrase}`)?.recurrence.time !== PROBE_CLOCK;
  const givenClock = given && !timeNamed ? `${pad(given.hour)}:${pad(given.minute)}` : null;
  let reading = givenClock ? read(`at ${givenClock} ${phrase}`) : null;
  if (!reading) {
    const alone = readTime(phrase, nowMs, timeZone, calendarOf(options));
    if (alone?.kind !== "recurring" || alone.recurrence.type === "nudge") {
      const reason = alone?.kind === "unclear" ? UNCLEAR_PROBLEM[alone.reason] : undefined;
      return problem(alone?.kind === "recurring" ? "unsupported_repeat" : (reason ?? "unclear_time"), phrase);
    }
    reading = alone;
  }
  const allDay = !!args.allDay && !timeNamed && !given;
  if (!allDay && !timeNamed && !given) return problem("missing_time", phrase);

  let recurrence: Recurrence = reading.recurrence;
  let firstAt = reading.firstAt;
  const startDateWords = clean(args.startDate);
  if (startDateWords) {
    const named = readDate(startDateWords, options);
    if (!named) return problem("unclear_time", startDateWords);
    if (daysBetween(localDateOf(firstAt, timeZone), named) > 0) {
      // The rule's first occurrence on or after that day, in the rule's own rhythm.
      const later = nextOccurrence(recurrence, timeZone, startOfDay(named, timeZone) - 1);
      if (later === null) return problem("unclear_time", startDateWords);
      firstAt = later;
    }
  }
  const first = localDateOf(firstAt, timeZone);
  if (recurrence.type === "rrule") recurrence = { ...recurrence, start: formatDate(first) };
  const rule = recurrenceOfReminder(recurrence, timeZone);
  if (!rule) return problem("unsupported_repeat", phrase);
  if (rule.until === undefined) {
    const ended = withEnd(rule, first, args, options);
    if (ended) return ended;
  } else if (args.count) rule.count = args.count;
  if (allDay) return allDaySeries(first, rule, timeZone);
  const clock = parseClock(recurrence.time ?? "");
  if (!clock) return problem("unclear_time", phrase);
  return seriesAt(first, clock, rule, args, options);
}

/**
 * The series' end from the "until" words and its count (both optional), set on `rule`; a problem
 * when the end cannot be read or comes before the first day, else null.
 */
function withEnd(
  rule: CalendarRecurrence,
  first: LocalDate,
  args: RecurringFields,
  options: TimeOptions,
): SeriesTimes | null {
  const untilWords = clean(args.until);
  if (untilWords) {
    const until = readDate(untilWords, options);
    if (!until) return problem("unclear_time", untilWords);
    if (daysBetween(first, until) < 0) return problem("end_before_start", untilWords);
    rule.until = formatDate(until);
  }
  if (args.count) rule.count = args.count;
  return null;
}

/** An all-day series from `first`: each occurrence is that one day. */
function allDaySeries(first: LocalDate, rule: CalendarRecurrence, timeZone: string): SeriesTimes {
  return {
    ok: true,
    times: {
      allDay: true,
      start: formatDate(first),
      end: formatDate(addDays(first, 1)),
      timeZone,
      recurrence: rule,
    },
  };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A timed series' first occurrence on `first` at `clock`, its end from endTime or its length. */
function seriesAt(
  first: LocalDate,
  clock: { hour: number; minute: number },
  rule: CalendarRecurrence,
  args: RecurringFields,
  options: TimeOptions,
): SeriesTimes {
  const { timeZone } = options;
  const startMs = localToInstant({ ...first, ...clock }, timeZone);
  const endWords = clean(args.endTime);
  let endMs = startMs + (args.durationMinutes ?? DEFAULT_DURATION_MINUTES) * MINUTE_MS;
  if (endWords) {
    const endClock = clockOf(endWords);
    if (!endClock) return problem("unclear_time", endWords);
    endMs = localToInstant({ ...first, ...endClock }, timeZone);
    if (endMs <= startMs) endMs = localToInstant({ ...addDays(first, 1), ...endClock }, timeZone);
  }
  return {
    ok: true,
    times: { allDay: false, start: iso(startMs), end: iso(endMs), timeZone, recurrence: rule },
  };
}

/**
 * The first occurrence and rule of a new series. The user's repeat words (repeatPhrase), when given,
 * are read in code and win over the other rule fields; otherwise V1's fields: the series starts on
 * `startDate` (default today; tomorrow when today's start time has passed), the provider moves it
 * to the rule's first day.
 * @internal
 */
export function recurringEventTimes(args: RecurringFields, options: TimeOptions): SeriesTimes {
  const { nowMs, timeZone } = options;
  const phrase = clean(args.repeatPhrase);
  if (phrase) return seriesFromWords(phrase, args, options);
  const startWords = clean(args.startTime);
  const clock = startWords ? clockOf(startWords) : null;
  if (startWords && !clock) return problem("unclear_time", startWords);
  if (!clock && !args.allDay) return problem("missing_time");

  let first = localDateOf(nowMs, timeZone);
  const startDateWords = clean(args.startDate);
  if (startDateWords) {
    const named = readDate(startDateWords, options);
    if (!named) return problem("unclear_time", startDateWords);
    if (daysBetween(first, named) > 0) first = named;
  } else if (clock && localToInstant({ ...first, ...clock }, timeZone) <= nowMs) {
    first = addDays(first, 1);
  }

  const built = ruleOf(args, first);
  if (!built.ok) return built;
  const rule = built.rule;
  const ended = withEnd(rule, first, args, options);
  if (ended) return ended;
  if (!clock) return allDaySeries(first, rule, timeZone);
  return seriesAt(first, clock, rule, args, options);
}

/**
 * The time fields of an update, read against the event's own times: "18:00" keeps its day, "Sunday"
 * keeps its wall time, a new start alone keeps its length. Empty when the update changes no time.
 */
export function patchTimes(
  fields: Pick<UpdateFields, "start" | "end" | "durationMinutes" | "allDay">,
  event: Pick<CalendarEvent, "allDay" | "start" | "end" | "timeZone">,
  options: TimeOptions,
): Result<{ patch: EventPatch }> {
  const { timeZone } = options;
  const startWords = clean(fields.start);
  const endWords = clean(fields.end);
  const toAllDay = fields.allDay === true && !event.allDay;
  const toTimed = fields.allDay === false && event.allDay;
  if (!startWords && !endWords && !fields.durationMinutes && !toAllDay && !toTimed)
    return { ok: true, patch: {} };

  if (event.allDay ? !toTimed : toAllDay) {
    // All-day, staying or becoming so: dates, end exclusive.
    const currentFirst = event.allDay
      ? event.start
      : formatDate(localDateOf(Date.parse(event.start), timeZone));
    const currentDays = event.allDay ? daysBetween(parseDate(event.start)!, parseDate(event.end)!) : 1;
    const first = startWords ? readDate(startWords, options) : parseDate(currentFirst);
    if (!first) return problem("unclear_time", startWords);
    let after = addDays(first, currentDays);
    if (endWords) {
      const end = readDate(endWords, options);
      if (!end) return problem("unclear_time", endWords);
      const days = daysBetween(first, end);
      if (days < 0) return problem("end_before_start", endWords);
      after = days === 0 ? addDays(first, 1) : end;
    }
    return {
      ok: true,
      patch: { ...(toAllDay ? { allDay: true } : {}), start: formatDate(first), end: formatDate(after) },
    };
  }

  // Timed, staying or becoming so.
  const oldStartMs = event.allDay ? startOfDay(event.start, timeZone) : Date.parse(event.start);
  const lengthMs = event.allDay ? DEFAULT_DURATION_MINUTES * MINUTE_MS : Date.parse(event.end) - oldStartMs;
  const old = instantToLocal(oldStartMs, timeZone);
  let startMs = oldStartMs;
  if (startWords) {
    const onDay = clockOn(startWords, old, timeZone, old.hour * 60 + old.minute);
    if (onDay !== null) {
      startMs = onDay;
    } else {
      const resolved = resolveWhen(startWords, options.nowMs, timeZone, calendarOf(options));
      if (!resolved) return problem("unclear_time", startWords);
      if (resolved.dateOnly && event.allDay) return problem("missing_time", startWords);
      // A day alone ("move it to Sunday") keeps the event's wall time.
      startMs = resolved.dateOnly
        ? localToInstant(
            { ...localDateOf(resolved.at, timeZone), hour: old.hour, minute: old.minute },
            timeZone,
          )
        : resolved.at;
    }
  } else if (toTimed) {
    return problem("missing_time");
  }
  let endMs = startMs + lengthMs;
  if (endWords || fields.durationMinutes) {
    const end = timedEnd(startMs, endWords, fields.durationMinutes, options);
    if (!end.ok) return end;
    endMs = end.endMs;
  }
  return {
    ok: true,
    patch: { ...(toTimed ? { allDay: false } : {}), start: iso(startMs), end: iso(endMs) },
  };
}

/**
 * The range of a lookup: a day named alone is that whole day; a period's last date is included;
 * nothing named is from now through the whole DEFAULT_RANGE_DAYS-th day after today (the day a
 * listing's heading names, so an event that evening is not left out).
 */
export function readRange(
  timeMin: string | null | undefined,
  timeMax: string | null | undefined,
  options: TimeOptions & { defaultDays?: number },
): Result<{ range: TimeRange }> {
  const { nowMs, timeZone } = options;
  const minWords = clean(timeMin);
  const maxWords = clean(timeMax);
  const edge = (words: string, end: boolean): Result<{ ms: number; day: LocalDate; dateOnly: boolean }> => {
    const date = parseDate(words);
    const resolved = date ? null : resolveWhen(words, nowMs, timeZone, calendarOf(options));
    if (!date && !resolved) return problem("unclear_time", words);
    const dateOnly = !!date || !!resolved?.dateOnly;
    const day = date ?? localDateOf(resolved!.at, timeZone);
    // A date as the end of a range includes that day.
    const ms = dateOnly ? startOfDay(end ? addDays(day, 1) : day, timeZone) : resolved!.at;
    return { ok: true, ms, day, dateOnly };
  };
  let fromMs = nowMs;
  let toMs: number | null = null;
  if (minWords) {
    const from = edge(minWords, false);
    if (!from.ok) return from;
    fromMs = from.ms;
    // A day alone, or a time on it: to the end of that day.
    if (!maxWords) toMs = startOfDay(addDays(from.day, 1), timeZone);
  }
  if (maxWords) {
    const to = edge(maxWords, true);
    if (!to.ok) return to;
    toMs = to.ms;
  }
  toMs ??= startOfDay(
    addDays(localDateOf(fromMs, timeZone), (options.defaultDays ?? DEFAULT_RANGE_DAYS) + 1),
    timeZone,
  );
  if (toMs <= fromMs) return problem("end_before_start", maxWords);
  return { ok: true, range: { from: iso(fromMs), to: iso(toMs) } };
}

/** The events a create operation makes, times read in the user's zone, or the first thing that stops one. */
export function buildEventInputs(
  op: Pick<CalendarMutateOperation, "operation" | "events" | "recurringEvents"> &
    RecurringFields &
    EventFields,
  options: TimeOptions,
): Result<{ inputs: EventInput[] }> {
  const single = op.operation === "create" || op.operation === "createRecurring";
  const recurring = op.operation === "createRecurring" || op.operation === "createMultipleRecurring";
  const drafts: (EventFields & RecurringFields)[] = single
    ? [op]
    : ((recurring ? op.recurringEvents : op.events) ?? []);
  if (drafts.length === 0) return problem("missing_summary");
  const inputs: EventInput[] = [];
  for (const draft of drafts) {
    const summary = clean(draft.summary);
    if (!summary) return problem("missing_summary");
    const times = recurring ? recurringEventTimes(draft, options) : eventTimes(draft, options);
    if (!times.ok) return times;
    inputs.push({
      summary,
      ...times.times,
      ...(clean(draft.location) ? { location: clean(draft.location) } : {}),
      ...(clean(draft.description) ? { description: clean(draft.description) } : {}),
      ...(typeof draft.reminderMinutesBefore === "number"
        ? { reminderMinutesBefore: draft.reminderMinutesBefore }
        : {}),
      // As the user named them; the entity resolver checks addresses and finds the missing ones.
      ...(draft.attendees?.length
        ? {
            attendees: draft.attendees.map((a) => ({
              name: clean(a.name) || null,
              email: clean(a.email) || null,
            })),
          }
        : {}),
    });
  }
  return { ok: true, inputs };
}
