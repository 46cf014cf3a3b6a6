import type { ReminderRecurrenceArgs, SaidIn } from "../../contracts/tasks.js";
import { readTime, type UnclearReason } from "../../nlu/parseTime.js";
import { isHebrewDayMonth, type HebrewDaySaid } from "../../nlu/hebrewCalendar.js";
import type { CalendarOptions } from "../../nlu/holidays.js";
import { MAX_NUDGE_MINUTES, nextOccurrence, parseIntervalMinutes, rfc5545Of } from "../../nlu/recurrence.js";
import { readWhen, resolveWhen } from "../../nlu/whenPhrase.js";
import { formatClock, instantToLocal, localToInstant, parseClock } from "../../nlu/zonedTime.js";
import type { TaskPatch, TaskRecurrence } from "../../types/tasks.js";

/** The time words of a task as the resolver named them (D6: words or local times, never instants it computed). */
export interface TaskTimeArgs {
  dueDate?: string | null;
  reminder?: string | null;
  reminderRecurrence?: ReminderRecurrenceArgs | null;
  /** Set in code only (the fast path): the zone the user named with the time ("8am PST"). */
  saidIn?: SaidIn | null;
  /** Set in code only (the fast path): the Hebrew date the day was named by. */
  hebrewDate?: HebrewDaySaid | null;
}

/** When a task is due and when its reminder rings, as stored. */
export interface TaskSchedule {
  dueAt: string | null;
  /** Only a date was named; the due time is DATE_ONLY_TIME. */
  dateOnly: boolean;
  /** The time was said in another zone than the user's. */
  saidIn?: SaidIn;
  /** The day was named by its Hebrew date ("on 10 Tevet"). */
  hebrewDate?: HebrewDaySaid;
  reminder: string | null;
  reminderOffsetMinutes: number | null;
  recurrence: TaskRecurrence | null;
  nextFireAt: string | null;
}

/** Why time words could not be turned into a schedule; `phrase` is the words in question. */
export type ScheduleProblem =
  | "past_time"
  | "unclear_time"
  /** An hour 1–6 with no am/pm in a repeat ("every day at 5"): morning or afternoon? */
  | "ambiguous_hour"
  /** A repeat that cannot be expressed exactly ("every few days", "twice a week"). */
  | "unsupported_repeat"
  /** Beyond the ten-year horizon, or a number too large to be a time. */
  | "too_far"
  | "unclear_interval"
  | "missing_time"
  | "missing_days"
  | "missing_day_of_month";

export type ScheduleResult =
  { ok: true; schedule: TaskSchedule } | { ok: false; problem: ScheduleProblem; phrase: string };

/** A reminder named by date only rings at this local time. */
const DATE_ONLY_TIME = "09:00";
/** A nudge with no interval named repeats every this many minutes. */
const DEFAULT_NUDGE_MINUTES = 10;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const BARE_CLOCK =
  /^\s*(?:(?:at|to|for)\s+|ב-?|בשעה\s+|ל-?(?:שעה\s+)?)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\s*$/i;

/** A clock time with nothing else: "18:00", "6pm", "at 9", "to 18:00", "ב-18:00", "ל-6". */
export interface BareClock {
  hour: number;
  minute: number;
  /** No am/pm and an hour of 1–12 not written "0x": it could be either half of the day. */
  open: boolean;
}

/** "18:00", "6pm", "to 9", "ל-18:00" → hours and minutes, for moving a task within its own day. */
export function bareClock(text: string): BareClock | null {
  const match = BARE_CLOCK.exec(text);
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  const meridiem = match[3]?.toLowerCase();
  if (meridiem === "pm" && hour < 12) hour += 12;
  if (meridiem === "am" && hour === 12) hour = 0;
  if (hour >= 24 || minute >= 60) return null;
  return { hour, minute, open: !meridiem && hour >= 1 && hour <= 12 && !match[1]!.startsWith("0") };
}

/** The clock on the anchor's own day; an open hour takes the half of the day nearer the anchor ("6" for a 17:00 task is 18:00). */
function onAnchorDay(clock: BareClock, anchorMs: number, timeZone: string): number {
  const day = instantToLocal(anchorMs, timeZone);
  const anchorMinutes = day.hour * 60 + day.minute;
  const hours = clock.open && clock.hour < 12 ? [clock.hour, clock.hour + 12] : [clock.hour];
  const distance = (h: number) => Math.abs(h * 60 + clock.minute - anchorMinutes);
  const hour = hours.reduce((best, h) => (distance(h) < distance(best) ? h : best));
  return localToInstant(
    { year: day.year, month: day.month, day: day.day, hour, minute: clock.minute },
    timeZone,
  );
}

/** A recurrence's local "HH:mm" from the resolver's words ("9", "09:00", "9pm"). */
function clockOf(text: string): string | null {
  const direct = parseClock(text) ?? bareClock(text);
  return direct ? formatClock(direct.hour, direct.minute) : null;
}

/**
 * Turns the resolver's time words into the instants and rule a task stores, in the user's zone.
 * `anchorDueAt` is the task's current due time when an update names only a clock time ("move it
 * to 18:00" keeps the task's day). This one function is where time words meet code; the
 * time-parser issue replaces what is behind it.
 */
export function scheduleTask(
  args: TaskTimeArgs,
  options: {
    nowMs: number;
    timeZone: string;
    anchorDueAt?: string | null;
    /** The user's holiday schedule and Hebrew birthday, for holidays and Hebrew dates (default: the zone's schedule). */
    calendar?: CalendarOptions;
  },
): ScheduleResult {
  const { nowMs, timeZone } = options;
  const calendar = options.calendar ?? {};
  let dueMs: number | null = null;
  let dateOnly = false;
  let saidIn: SaidIn | undefined = args.saidIn ?? undefined;
  let hebrewDate: HebrewDaySaid | undefined = args.hebrewDate ?? undefined;
  let dueWords = args.dueDate?.trim();
  let recurrence: TaskRecurrence | null = null;
  // The first occurrence the user's own repeat words named ("every day at 8 starting Friday").
  let firstAt: number | null = null;
  // A yahrzeit or a Hebrew birthday the message names, on a Hebrew date the model gave as a due
  // date ("on 10 Tevet"): kept every year by its custom, not once.
  if (dueWords && calendar.custom && !args.reminderRecurrence) {
    const yearly = readTime(dueWords, nowMs, timeZone, { calendar });
    if (yearly?.kind === "recurring" && yearly.recurrence.type === "hebrew") {
      recurrence = yearly.recurrence;
      firstAt = yearly.firstAt;
      dueWords = undefined;
    }
  }
  if (dueWords) {
    const clock = options.anchorDueAt ? bareClock(dueWords) : null;
    const anchored =
      clock && options.anchorDueAt ? onAnchorDay(clock, Date.parse(options.anchorDueAt), timeZone) : null;
    // Moving an overdue task to "18:00" means the next 18:00, not the one on its past day.
    if (anchored !== null && anchored > nowMs) {
      dueMs = anchored;
    } else {
      const reading = readWhen(dueWords, nowMs, timeZone, { defaultTime: DATE_ONLY_TIME, calendar });
      if (reading.kind !== "at") {
        return { ok: false, problem: UNCLEAR_PROBLEM[reading.reason] ?? "unclear_time", phrase: dueWords };
      }
      dueMs = reading.at;
      dateOnly = reading.dateOnly;
      saidIn = reading.saidIn ?? saidIn;
      hebrewDate = reading.hebrewDate ?? hebrewDate;
    }
  }

  let reminderOffsetMinutes: number | null = null;
  const reminderWords = args.reminder?.trim();
  if (reminderWords) {
    reminderOffsetMinutes = parseIntervalMinutes(reminderWords);
    if (reminderOffsetMinutes === null)
      return { ok: false, problem: "unclear_interval", phrase: reminderWords };
    // A lead time past the horizon would put the ring before any date can be written (it threw).
    if (reminderOffsetMinutes > MAX_NUDGE_MINUTES)
      return { ok: false, problem: "too_far", phrase: reminderWords };
  }

  const rule = args.reminderRecurrence;
  if (rule) {
    const built = buildRecurrence(rule, nowMs, timeZone, calendar);
    if (!built.ok) return built;
    recurrence = built.recurrence;
    firstAt = built.firstAt ?? null;
  }

  const offsetMs = (reminderOffsetMinutes ?? 0) * 60_000;
  let nextFire: number | null;
  if (recurrence?.type === "nudge") {
    nextFire = dueMs ?? firstAt ?? nowMs + (recurrence.intervalMinutes ?? DEFAULT_NUDGE_MINUTES) * 60_000;
  } else if (recurrence) {
    // A start date given with the rule: the first occurrence on or after it; a lead time rings before each.
    const occurrence = nextOccurrence(
      recurrence,
      timeZone,
      Math.max(nowMs + offsetMs, (dueMs ?? nowMs) - 60_000, (firstAt ?? nowMs) - 1),
    );
    nextFire = occurrence === null ? null : occurrence - offsetMs;
  } else if (dueMs !== null) {
    // A one-time time already past would never ring: ask rather than store it silently.
    if (dueMs <= nowMs) return { ok: false, problem: "past_time", phrase: dueWords ?? "" };
    nextFire = dueMs - offsetMs;
  } else {
    nextFire = null;
  }
  if (nextFire !== null && nextFire <= nowMs) nextFire = null;

  return {
    ok: true,
    schedule: {
      dueAt: iso(dueMs),
      dateOnly,
      ...(saidIn && dueMs !== null ? { saidIn } : {}),
      ...(hebrewDate && dueMs !== null ? { hebrewDate } : {}),
      reminder: reminderWords ?? null,
      reminderOffsetMinutes,
      recurrence,
      nextFireAt: iso(nextFire),
    },
  };
}

type BuiltRecurrence =
  | { ok: true; recurrence: TaskRecurrence; firstAt?: number }
  | { ok: false; problem: ScheduleProblem; phrase: string };

/**
 * The rule of the resolver's recurrence fields. The user's own repeat words (`phrase`) are read in
 * code (readTime, D6) and win over the V1 fields; a clock time the resolver gave apart from them
 * ("time": "08:00" with "every other Tuesday") is added when the words name none. Without words, the
 * V1 fields as before; a stored RFC 5545 rule (`rule`, `start`) is kept as it is.
 */
function buildRecurrence(
  rule: ReminderRecurrenceArgs,
  nowMs: number,
  timeZone: string,
  calendar: CalendarOptions = {},
): BuiltRecurrence {
  let until: string | undefined;
  if (rule.until?.trim()) {
    const end = resolveWhen(rule.until, nowMs, timeZone, { defaultTime: "23:59" });
    if (!end) return { ok: false, problem: "unclear_time", phrase: rule.until };
    until = new Date(end.at).toISOString();
  }
  const base = until ? { until } : {};
  const phrase = rule.phrase?.trim();
  if (phrase) return recurrenceOfWords(phrase, rule, nowMs, timeZone, until, calendar);
  if (rule.type === "nudge") {
    const minutes = rule.interval?.trim() ? parseIntervalMinutes(rule.interval) : DEFAULT_NUDGE_MINUTES;
    if (minutes === null || minutes <= 0)
      return { ok: false, problem: "unclear_interval", phrase: rule.interval ?? "" };
    // "every 99999999 minutes" would never ring, and a few more digits could not be written as a date.
    if (minutes > MAX_NUDGE_MINUTES) return { ok: false, problem: "too_far", phrase: rule.interval ?? "" };
    return { ok: true, recurrence: { type: "nudge", intervalMinutes: minutes, ...base } };
  }
  const time = rule.time ? clockOf(rule.time) : null;
  if (!time)
    return { ok: false, problem: rule.time ? "unclear_time" : "missing_time", phrase: rule.time ?? "" };
  if (rule.type === "daily") return { ok: true, recurrence: { type: "daily", time, ...base } };
  if (rule.type === "weekly") {
    const days = [...new Set(rule.days ?? [])].sort((a, b) => a - b);
    if (days.length === 0) return { ok: false, problem: "missing_days", phrase: "" };
    return { ok: true, recurrence: { type: "weekly", time, days, ...base } };
  }
  if (rule.type === "rrule") {
    const recurrence: TaskRecurrence = {
      type: "rrule",
      rule: rule.rule ?? "",
      time,
      start: rule.start ?? "",
      ...base,
    };
    // A rule that cannot be expanded is not stored (it would never ring).
    if (rfc5545Of(recurrence) === null)
      return { ok: false, problem: "unsupported_repeat", phrase: rule.rule ?? "" };
    return { ok: true, recurrence };
  }
  if (rule.type === "hebrew") {
    const hebrew = rule.hebrew;
    if (!hebrew || !isHebrewDayMonth(hebrew.month, hebrew.day))
      return { ok: false, problem: "unclear_time", phrase: "" };
    return {
      ok: true,
      recurrence: { type: "hebrew", time, hebrew, ...(rule.eve ? { eve: true } : {}), ...base },
    };
  }
  if (!rule.dayOfMonth) return { ok: false, problem: "missing_day_of_month", phrase: "" };
  return { ok: true, recurrence: { type: "monthly", time, dayOfMonth: rule.dayOfMonth, ...base } };
}

/** Why readTime could not read repeat words, as the question the resolver asks. */
const UNCLEAR_PROBLEM: Partial<Record<UnclearReason, ScheduleProblem>> = {
  ambiguous_hour: "ambiguous_hour",
  unsupported: "unsupported_repeat",
  too_far: "too_far",
};

/** The rule the user's repeat words say, read in code; `until` (from the resolver's own field) applies when the words name no end. */
function recurrenceOfWords(
  phrase: string,
  rule: ReminderRecurrenceArgs,
  nowMs: number,
  timeZone: string,
  until: string | undefined,
  calendar: CalendarOptions = {},
): BuiltRecurrence {
  let reading = readTime(phrase, nowMs, timeZone, { calendar });
  const time = rule.type !== "nudge" && rule.time ? clockOf(rule.time) : null;
  if (time) {
    // Two clock times would make the words unclear: the separate time counts only where the words name none.
    const withTime = readTime(`${phrase} at ${time}`, nowMs, timeZone, { calendar });
    if (withTime?.kind === "recurring") reading = withTime;
  }
  if (reading?.kind !== "recurring") {
    const problem = (reading?.kind === "unclear" && UNCLEAR_PROBLEM[reading.reason]) || "unclear_time";
    return { ok: false, problem, phrase };
  }
  const recurrence: TaskRecurrence = { ...reading.recurrence };
  if (recurrence.until === undefined && until !== undefined) recurrence.until = until;
  return { ok: true, recurrence, firstAt: reading.firstAt };
}

/** A stored recurrence as resolver words again, so an update that keeps it can be rescheduled. */
export function recurrenceArgsOf(recurrence: TaskRecurrence): ReminderRecurrenceArgs {
  return {
    type: recurrence.type,
    ...(recurrence.time ? { time: recurrence.time } : {}),
    ...(recurrence.days ? { days: recurrence.days } : {}),
    ...(recurrence.dayOfMonth ? { dayOfMonth: recurrence.dayOfMonth } : {}),
    ...(recurrence.intervalMinutes ? { interval: `${recurrence.intervalMinutes} minutes` } : {}),
    ...(recurrence.rule ? { rule: recurrence.rule } : {}),
    ...(recurrence.start ? { start: recurrence.start } : {}),
    ...(recurrence.hebrew ? { hebrew: recurrence.hebrew } : {}),
    ...(recurrence.eve ? { eve: recurrence.eve } : {}),
    ...(recurrence.until ? { until: recurrence.until } : {}),
  };
}

/** The next ring of a recurring task after `afterMs`, `offsetMinutes` before its occurrence. */
export function nextFireAfter(
  recurrence: TaskRecurrence,
  timeZone: string,
  afterMs: number,
  offsetMinutes = 0,
): string | null {
  if (recurrence.type === "nudge")
    return iso(afterMs + (recurrence.intervalMinutes ?? DEFAULT_NUDGE_MINUTES) * 60_000);
  const occurrence = nextOccurrence(recurrence, timeZone, afterMs + offsetMinutes * 60_000);
  return iso(occurrence === null ? null : occurrence - offsetMinutes * 60_000);
}

/** The schedule fields of a task, from a computed schedule. */
export function scheduleFields(schedule: TaskSchedule): TaskPatch {
  return {
    dueAt: schedule.dueAt,
    reminder: schedule.reminder,
    reminderOffsetMinutes: schedule.reminderOffsetMinutes,
    recurrence: schedule.recurrence,
    nextFireAt: schedule.nextFireAt,
    reminderDetails:
      schedule.dateOnly || schedule.saidIn || schedule.hebrewDate
        ? {
            ...(schedule.dateOnly ? { dateOnly: true } : {}),
            ...(schedule.saidIn ? { saidIn: schedule.saidIn } : {}),
            ...(schedule.hebrewDate ? { hebrewDate: schedule.hebrewDate } : {}),
          }
        : null,
  };
}
