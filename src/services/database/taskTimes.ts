import type { ReminderRecurrenceArgs } from "../../prompts/DatabaseTaskPrompt.js";
import { nextOccurrence, parseIntervalMinutes } from "../../nlu/recurrence.js";
import { resolveWhen } from "../../nlu/resolveWhen.js";
import { formatClock, instantToLocal, localToInstant, parseClock } from "../../nlu/zonedTime.js";
import type { TaskRecurrence } from "../../types/tasks.js";

/** The time words of a task as the resolver named them (D6: words or local times, never instants it computed). */
export interface TaskTimeArgs {
  dueDate?: string | null;
  reminder?: string | null;
  reminderRecurrence?: ReminderRecurrenceArgs | null;
}

/** When a task is due and when its reminder rings, as stored. */
export interface TaskSchedule {
  dueAt: string | null;
  /** Only a date was named; the due time is DATE_ONLY_TIME. */
  dateOnly: boolean;
  reminder: string | null;
  reminderOffsetMinutes: number | null;
  recurrence: TaskRecurrence | null;
  nextFireAt: string | null;
}

/** Why time words could not be turned into a schedule; `phrase` is the words in question. */
export type ScheduleProblem =
  "unclear_time" | "unclear_interval" | "missing_time" | "missing_days" | "missing_day_of_month";

export type ScheduleResult =
  { ok: true; schedule: TaskSchedule } | { ok: false; problem: ScheduleProblem; phrase: string };

/** A reminder named by date only rings at this local time. */
export const DATE_ONLY_TIME = "09:00";
/** A nudge with no interval named repeats every this many minutes. */
export const DEFAULT_NUDGE_MINUTES = 10;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const BARE_CLOCK = /^\s*(?:at\s+|ב-?|בשעה\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\s*$/i;

/** "18:00", "6pm", "at 9", "ב-18:00" → hours and minutes, for moving a task within its own day. */
function bareClock(text: string): { hour: number; minute: number } | null {
  const match = BARE_CLOCK.exec(text);
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  const meridiem = match[3]?.toLowerCase();
  if (meridiem === "pm" && hour < 12) hour += 12;
  if (meridiem === "am" && hour === 12) hour = 0;
  return hour < 24 && minute < 60 ? { hour, minute } : null;
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
  options: { nowMs: number; timeZone: string; anchorDueAt?: string | null },
): ScheduleResult {
  const { nowMs, timeZone } = options;
  let dueMs: number | null = null;
  let dateOnly = false;
  const dueWords = args.dueDate?.trim();
  if (dueWords) {
    const clock = options.anchorDueAt ? bareClock(dueWords) : null;
    if (clock && options.anchorDueAt) {
      const day = instantToLocal(Date.parse(options.anchorDueAt), timeZone);
      dueMs = localToInstant({ ...day, ...clock }, timeZone);
    } else {
      const resolved = resolveWhen(dueWords, nowMs, timeZone, { defaultTime: DATE_ONLY_TIME });
      if (!resolved) return { ok: false, problem: "unclear_time", phrase: dueWords };
      dueMs = resolved.at;
      dateOnly = resolved.dateOnly;
    }
  }

  let reminderOffsetMinutes: number | null = null;
  const reminderWords = args.reminder?.trim();
  if (reminderWords) {
    reminderOffsetMinutes = parseIntervalMinutes(reminderWords);
    if (reminderOffsetMinutes === null)
      return { ok: false, problem: "unclear_interval", phrase: reminderWords };
  }

  let recurrence: TaskRecurrence | null = null;
  const rule = args.reminderRecurrence;
  if (rule) {
    const built = buildRecurrence(rule, nowMs, timeZone);
    if (!built.ok) return built;
    recurrence = built.recurrence;
  }

  let nextFire: number | null;
  if (recurrence?.type === "nudge") {
    nextFire = dueMs ?? nowMs + (recurrence.intervalMinutes ?? DEFAULT_NUDGE_MINUTES) * 60_000;
  } else if (recurrence) {
    // A start date given with the rule: the first occurrence on or after it.
    nextFire = nextOccurrence(recurrence, timeZone, Math.max(nowMs, (dueMs ?? nowMs) - 60_000));
  } else if (dueMs !== null) {
    nextFire = dueMs - (reminderOffsetMinutes ?? 0) * 60_000;
  } else {
    nextFire = null;
  }
  if (nextFire !== null && nextFire <= nowMs) nextFire = null;

  return {
    ok: true,
    schedule: {
      dueAt: iso(dueMs),
      dateOnly,
      reminder: reminderWords ?? null,
      reminderOffsetMinutes,
      recurrence,
      nextFireAt: iso(nextFire),
    },
  };
}

function buildRecurrence(
  rule: ReminderRecurrenceArgs,
  nowMs: number,
  timeZone: string,
): { ok: true; recurrence: TaskRecurrence } | { ok: false; problem: ScheduleProblem; phrase: string } {
  let until: string | undefined;
  if (rule.until?.trim()) {
    const end = resolveWhen(rule.until, nowMs, timeZone, { defaultTime: "23:59" });
    if (!end) return { ok: false, problem: "unclear_time", phrase: rule.until };
    until = new Date(end.at).toISOString();
  }
  const base = until ? { until } : {};
  if (rule.type === "nudge") {
    const minutes = rule.interval?.trim() ? parseIntervalMinutes(rule.interval) : DEFAULT_NUDGE_MINUTES;
    if (minutes === null || minutes <= 0)
      return { ok: false, problem: "unclear_interval", phrase: rule.interval ?? "" };
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
  if (!rule.dayOfMonth) return { ok: false, problem: "missing_day_of_month", phrase: "" };
  return { ok: true, recurrence: { type: "monthly", time, dayOfMonth: rule.dayOfMonth, ...base } };
}

/** A stored recurrence as resolver words again, so an update that keeps it can be rescheduled. */
export function recurrenceArgsOf(recurrence: TaskRecurrence): ReminderRecurrenceArgs {
  return {
    type: recurrence.type,
    ...(recurrence.time ? { time: recurrence.time } : {}),
    ...(recurrence.days ? { days: recurrence.days } : {}),
    ...(recurrence.dayOfMonth ? { dayOfMonth: recurrence.dayOfMonth } : {}),
    ...(recurrence.intervalMinutes ? { interval: `${recurrence.intervalMinutes} minutes` } : {}),
    ...(recurrence.until ? { until: recurrence.until } : {}),
  };
}

/** The next ring of a recurring task after `afterMs` (a done daily reminder moves to its next day). */
export function nextFireAfter(recurrence: TaskRecurrence, timeZone: string, afterMs: number): string | null {
  if (recurrence.type === "nudge")
    return iso(afterMs + (recurrence.intervalMinutes ?? DEFAULT_NUDGE_MINUTES) * 60_000);
  return iso(nextOccurrence(recurrence, timeZone, afterMs));
}
