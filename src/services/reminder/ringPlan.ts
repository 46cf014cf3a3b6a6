import type { RingKind } from "../../types/proactive.js";
import { nextOccurrence } from "../../nlu/recurrence.js";
import { instantToLocal, parseClock } from "../../nlu/zonedTime.js";
import type { TaskRecurrence } from "../../types/tasks.js";
import { nextFireAfter } from "../tasks/taskTimes.js";

/**
 * What a due task does when the scheduler reaches it (spec 002 §9, D6, D8), as a pure function of
 * the task, the user's quiet hours and "now": which occurrence rings, and when the task rings next.
 */

/** reminder: one-time; nudge: repeats until done; recurring: any calendar rule (daily … RFC 5545); overdue: due time passed after an early reminder. */

/** The fields of a task the scheduler reads. */
export interface DueTask {
  id: string;
  dueAt: string | null;
  /** The instant it is due to ring (≤ now when the scheduler sees it). */
  nextFireAt: string;
  recurrence: TaskRecurrence | null;
  reminderOffsetMinutes: number | null;
  timeZone: string;
}

/** Local "HH:mm" bounds of a user's quiet hours; start after end spans midnight. */
export interface QuietHours {
  start: string;
  end: string;
  /** The user's zone (quiet hours follow where the user is, not where the task was made). */
  timeZone: string;
}

export interface RingPlan {
  /** What rings now, or null when nothing does (a nudge held by quiet hours). */
  ring: { kind: RingKind; fireAt: number } | null;
  /** Earlier occurrences of a recurring reminder passed over: only the latest missed one rings. */
  skipped: number;
  /** When the task rings next, or null when it never will again. */
  nextFireAt: number | null;
}

/**
 * How far back a recurring reminder's missed occurrences are looked for: longer than a month, so the
 * latest missed occurrence of a daily, weekly or monthly rule is found. A rule with longer periods
 * (every other month, yearly) is passed over only within it: after a longer outage it rings the
 * occurrence it was due for.
 */
const CATCH_UP_WINDOW_MS = 40 * 24 * 60 * 60 * 1000;

/** Whether `atMs` falls in the quiet hours, in the user's local time. */
export function inQuietHours(atMs: number, quiet: QuietHours): boolean {
  const start = parseClock(quiet.start);
  const end = parseClock(quiet.end);
  if (!start || !end) return false;
  const local = instantToLocal(atMs, quiet.timeZone);
  const minute = local.hour * 60 + local.minute;
  const from = start.hour * 60 + start.minute;
  const to = end.hour * 60 + end.minute;
  if (from === to) return false;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

/** The end of the quiet hours that hold `atMs`: the next local `end` after it. */
export function quietHoursEnd(atMs: number, quiet: QuietHours): number {
  return nextOccurrence({ type: "daily", time: quiet.end }, quiet.timeZone, atMs) ?? atMs;
}

const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso));
const fireAfter = (task: DueTask, rule: TaskRecurrence, afterMs: number) =>
  ms(nextFireAfter(rule, task.timeZone, afterMs, task.reminderOffsetMinutes ?? 0));

/**
 * The ring of a due task at `nowMs` and its next fire instant. `fromOther`: a reminder another
 * household member gave, held through the holder's quiet hours like a nudge (they did not set it).
 */
export function planRing(
  task: DueTask,
  nowMs: number,
  quiet: QuietHours | null,
  fromOther = false,
): RingPlan {
  const fireAt = Date.parse(task.nextFireAt);
  const rule = task.recurrence;

  if (rule && rule.type !== "nudge") {
    // Only the latest occurrence that came due is sent; the ones before it are passed over.
    let latest = fireAt;
    let skipped = 0;
    let probe = fireAfter(task, rule, Math.max(fireAt, nowMs - CATCH_UP_WINDOW_MS));
    while (probe !== null && probe <= nowMs) {
      if (probe > latest) {
        latest = probe;
        skipped += 1;
      }
      probe = fireAfter(task, rule, probe);
    }
    return { ring: { kind: "recurring", fireAt: latest }, skipped, nextFireAt: fireAfter(task, rule, nowMs) };
  }

  if (rule) {
    // A nudge: held through quiet hours, then every interval from when it actually went, up to its end.
    const until = rule.until === undefined ? Infinity : Date.parse(rule.until);
    const upToEnd = (next: number | null) => (next !== null && next <= until ? next : null);
    if (quiet && inQuietHours(nowMs, quiet)) {
      return { ring: null, skipped: 0, nextFireAt: upToEnd(quietHoursEnd(nowMs, quiet)) };
    }
    return { ring: { kind: "nudge", fireAt }, skipped: 0, nextFireAt: upToEnd(fireAfter(task, rule, nowMs)) };
  }

  if (fromOther && quiet && inQuietHours(nowMs, quiet)) {
    return { ring: null, skipped: 0, nextFireAt: quietHoursEnd(nowMs, quiet) };
  }
  // One-time. With a lead time ("remind me an hour before"), the due time itself comes next,
  // as an overdue notice, unless it has passed already (then this one message says it all).
  const dueAt = ms(task.dueAt);
  const offset = task.reminderOffsetMinutes ?? 0;
  if (offset > 0 && dueAt !== null && fireAt === dueAt) {
    return { ring: { kind: "overdue", fireAt }, skipped: 0, nextFireAt: null };
  }
  const overdueNext = offset > 0 && dueAt !== null && dueAt > fireAt && dueAt > nowMs ? dueAt : null;
  return { ring: { kind: "reminder", fireAt }, skipped: 0, nextFireAt: overdueNext };
}
