import type { SchedulerSettings } from "../../config/env.js";
import type { Delivery, NewDelivery } from "../../db/repositories/deliveryLedger.js";
import type { ReminderRepositories } from "../../db/storage.js";
import type { Storage } from "../../db/transaction.js";
import type { AwayContent, RingContent } from "../../types/proactive.js";
import { replyLanguage } from "../../utils/language.js";
import type { Logger } from "../../utils/logger.js";
import { asDelivery, assignSlots, nextSlots } from "./deliveryRows.js";
import { planRing, type QuietHours, type RingPlan } from "./ringPlan.js";
import { isHeld } from "./sabbathQuiet.js";
import { nextFireAfter } from "../tasks/taskTimes.js";
import type { DueTaskRow } from "../../db/repositories/schedulerRepository.js";
import { outsideWindow } from "./whatsAppWindow.js";

/** A held occurrence is passed over when the next one comes this soon after havdalah. */
const HELD_SKIP_WITHIN_MS = 60 * 60 * 1000;

/** An occurrence more than this late is gathered into one "while I was away" message. */
const AWAY_AFTER_MS = 24 * 60 * 60 * 1000;

export interface RingClaimsDeps {
  /** Due tasks to lock and the ledger their rings are recorded in. */
  storage: Storage<ReminderRepositories>;
  logger: Logger;
  clock: () => number;
  settings: Pick<SchedulerSettings, "userGapMs">;
}

/** What one claim of rings did: tasks locked (a full batch means claim again) and rings to send. */
export interface RingClaim {
  locked: number;
  deliveries: Delivery[];
}

/**
 * The claim side of reminders, nudges and overdue notices: due task rings become ledger rows under
 * a claim token, in one transaction that also moves each task to its next ring.
 */
export class RingClaims {
  constructor(private readonly deps: RingClaimsDeps) {}

  /**
   * Claims up to `limit` due task rings: plans each one (the latest missed occurrence of a
   * repeating reminder, a nudge held by quiet hours, a gathered "while I was away" message),
   * records them in the ledger and moves every task to its next ring, all in one transaction.
   */
  async claim(token: string, limit: number): Promise<RingClaim> {
    const now = this.deps.clock();
    const gapMs = this.deps.settings.userGapMs;
    const planned = await this.deps.storage.transaction(async ({ schedule: repo, deliveries }) => {
      const tasks = await repo.lockDueTasks(now, limit);
      if (tasks.length === 0) return { locked: 0, rows: [] as NewDelivery[] };
      const users = await repo.lockUsers([...new Set(tasks.map((t) => t.phone))].sort());
      // Nudges of users outside WhatsApp's window that already rang there once since they last wrote.
      const held = await repo.nudgesHeldOutsideWindow(
        tasks
          .filter((t) => {
            const user = users.get(t.phone);
            return t.recurrence?.type === "nudge" && !!user && outsideWindow(user.lastInboundAt, now);
          })
          .map((t) => t.id),
      );
      const nextFires: { id: string; nextFireAt: number | null }[] = [];
      const perUser = new Map<string, NewDelivery[]>();
      const away = new Map<string, AwayContent["items"]>();
      /** Each user's away message of this claim, keyed by its first task (unique across claims, even at the same instant). */
      const awayKeys = new Map<string, string>();
      const covered: NewDelivery[] = [];
      /** Users in a Shabbat or yom tov window now: their rings go at havdalah (the window's end). */
      const heldUntil = new Map<string, number>();
      for (const task of tasks) {
        const user = users.get(task.phone);
        if (!user) continue;
        // Computed only for users with the setting (isHeld returns at once otherwise).
        const window = isHeld(user, now);
        if (window) heldUntil.set(task.phone, window.end);
        if (window && task.recurrence?.type === "nudge") {
          // A nudge pauses until havdalah, then goes on every interval (up to its end).
          const until = task.recurrence.until === undefined ? Infinity : Date.parse(task.recurrence.until);
          nextFires.push({ id: task.id, nextFireAt: window.end <= until ? window.end : null });
          continue;
        }
        const quiet: QuietHours | null =
          user.quietStart && user.quietEnd
            ? { start: user.quietStart, end: user.quietEnd, timeZone: user.timeZone }
            : null;
        let plan: RingPlan;
        try {
          plan = planRing(task, now, quiet, task.fromName !== null);
        } catch (error) {
          // One unreadable task (a zone this runtime lacks) must not hold up everyone's reminders.
          this.deps.logger.error(
            { err: error, event: "REMINDER_UNPLANNABLE", taskId: task.id, phone: task.phone },
            "task cannot be scheduled; its reminder is stopped",
          );
          nextFires.push({ id: task.id, nextFireAt: null });
          continue;
        }
        const nextFireAt = heldNext(task, plan, window?.end ?? null);
        nextFires.push({ id: task.id, nextFireAt });
        if (!plan.ring) continue;
        // A repeating reminder due again soon after havdalah (daily at 19:30, havdalah 19:24): that
        // occurrence rings, not the held one minutes before it as well.
        if (
          window &&
          plan.ring.kind === "recurring" &&
          nextFireAt !== null &&
          nextFireAt - window.end <= HELD_SKIP_WITHIN_MS
        )
          continue;
        const { kind, fireAt } = plan.ring;
        // Outside WhatsApp's window a nudge goes once (as the template) and then waits for the
        // user to write: never a paid template, or an undeliverable row, every few minutes.
        if (kind === "nudge" && held.has(task.id)) continue;
        const offsetMs = (task.reminderOffsetMinutes ?? 0) * 60_000;
        const content: RingContent = {
          kind,
          language: replyLanguage(user.language),
          timeZone: user.timeZone,
          taskId: task.id,
          text: task.text,
          fireAt: new Date(fireAt).toISOString(),
          // A repeating reminder rung ahead ("30 minutes before") shows the time it is ahead of.
          dueAt:
            kind === "recurring" && offsetMs > 0 ? new Date(fireAt + offsetMs).toISOString() : task.dueAt,
          ...(task.recurrence?.intervalMinutes ? { intervalMinutes: task.recurrence.intervalMinutes } : {}),
          ...(task.fromName ? { from: task.fromName } : {}),
          // Rung at havdalah, saying what it waited for (the ledger key stays the occurrence's).
          ...(window ? { heldFor: window.names[replyLanguage(user.language)] } : {}),
        };
        const row: NewDelivery = {
          key: ringKey(task.id, fireAt),
          phone: task.phone,
          kind,
          taskId: task.id,
          occurrenceAt: fireAt,
          content,
          sendAfter: now,
        };
        if (now - fireAt > AWAY_AFTER_MS) {
          // Long overdue: one message for all of them, never a flood.
          const items = away.get(task.phone) ?? [];
          // Listed at the time it was due (an early ring's due time, not the ring's).
          const dueAt = content.dueAt && Date.parse(content.dueAt) > fireAt ? content.dueAt : content.fireAt;
          items.push({ text: task.text, fireAt: dueAt });
          away.set(task.phone, items);
          if (!awayKeys.has(task.phone)) awayKeys.set(task.phone, awayKey(task.phone, now, task.id));
          covered.push({ ...row, status: "covered", partOf: awayKeys.get(task.phone)! });
        } else {
          const list = perUser.get(task.phone) ?? [];
          list.push(row);
          perUser.set(task.phone, list);
        }
      }
      for (const [phone, items] of away) {
        const user = users.get(phone)!;
        const list = perUser.get(phone) ?? [];
        list.unshift({
          key: awayKeys.get(phone)!,
          phone,
          kind: "away",
          taskId: null,
          occurrenceAt: now,
          content: { kind: "away", language: replyLanguage(user.language), timeZone: user.timeZone, items },
          sendAfter: now,
        });
        perUser.set(phone, list);
      }
      const rows = assignSlots(perUser, users, now, gapMs, heldUntil);
      await repo.setNextProactive(nextSlots(rows, gapMs));
      await repo.setNextFire(nextFires);
      const inserted = await deliveries.insert([...rows, ...covered], token, now);
      return { locked: tasks.length, rows: rows.filter((r) => inserted.has(r.key)) };
    });
    return { locked: planned.locked, deliveries: planned.rows.map((r) => asDelivery(r, token)) };
  }
}

/**
 * A repeating reminder held through a window rings once for it: its next ring is its first
 * occurrence from havdalah on, not every occurrence inside (three days of yom tov and Shabbat).
 * A reminder rung ahead of a due time that is also inside the window has no overdue notice: both
 * would go at havdalah, and the one message says it all (planRing's rule once the due time passed).
 */
function heldNext(task: DueTaskRow, plan: RingPlan, heldUntil: number | null): number | null {
  const rule = task.recurrence;
  if (heldUntil !== null && !rule && plan.ring?.kind === "reminder" && plan.nextFireAt !== null)
    return plan.nextFireAt < heldUntil ? null : plan.nextFireAt;
  if (heldUntil === null || !rule || plan.nextFireAt === null || plan.nextFireAt >= heldUntil)
    return plan.nextFireAt;
  const next = nextFireAfter(rule, task.timeZone, heldUntil - 1, task.reminderOffsetMinutes ?? 0);
  return next === null ? null : Date.parse(next);
}

const ringKey = (taskId: string, fireAt: number) => `task:${taskId}@${new Date(fireAt).toISOString()}`;

/** `away:<phone>@<claim ISO>/<first task>`: two claims at the same millisecond (two instances) never collide. */
const awayKey = (phone: string, nowMs: number, firstTaskId: string) =>
  `away:${phone}@${new Date(nowMs).toISOString()}/${firstTaskId}`;
