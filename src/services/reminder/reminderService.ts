import { withTurn } from "../../utils/turnContext.js";
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import type { SchedulerSettings } from "../../config/env.js";
import { CLAIM_LEASE_MS } from "../../config/lifetimes.js";
import type { DeliveryLedger, Delivery, NewDelivery } from "../../db/repositories/deliveryLedger.js";
import type { DigestTask, NoticeReader, ProactiveUser } from "../../db/repositories/schedulerRepository.js";
import type { ReminderRepositories } from "../../db/storage.js";
import type { Storage } from "../../db/transaction.js";
import { nextOccurrence } from "../../nlu/recurrence.js";
import { addDays, instantToLocal, localToInstant, type LocalDate } from "../../nlu/zonedTime.js";
import { digestPolishMessages } from "../../prompts/morningBriefPrompt.js";
import { mapWithConcurrency } from "../../utils/concurrency.js";
import { describeError, WhatsAppApiError } from "../../utils/errors.js";
import { replyLanguage } from "../../utils/language.js";
import type { Logger } from "../../utils/logger.js";
import type { LLMService } from "../../types/llm.js";
import type { ReminderMetrics } from "../metrics/metrics.js";
import type { MessageSender } from "../../types/outbound.js";
import type { PassReport, ReminderJobs } from "../scheduler/jobs.js";
import { buildDigest, type DigestSource } from "./digest.js";
import { ProactivePacer } from "./proactivePacer.js";
import { digestIsEmpty, LATE_AFTER_MS, renderProactive } from "./proactiveText.js";
import {
  type AwayContent,
  type HouseholdContent,
  type ProactiveContent,
  type RingContent,
} from "../../types/proactive.js";
import { inQuietHours, planRing, quietHoursEnd, type QuietHours, type RingPlan } from "./ringPlan.js";

/** Meta error code: the message went outside the 24-hour customer-service window. */
export const OUTSIDE_WINDOW_CODE = 131047;
/** WhatsApp's customer-service window, less a margin so a send does not race its end. */
export const FREE_FORM_WINDOW_MS = 24 * 60 * 60 * 1000 - 5 * 60 * 1000;
/** An occurrence more than this late is gathered into one "while I was away" message. */
export const AWAY_AFTER_MS = 24 * 60 * 60 * 1000;
/** A morning digest more than this late is no morning digest: skipped, not sent at noon. */
export const DIGEST_STALE_MS = 3 * 60 * 60 * 1000;
/** Send attempts of one delivery (a Graph API outage is retried on later ticks). */
export const MAX_ATTEMPTS = 3;
/** A send slot further ahead than this is left to a later pass (deferred), not waited for. */
export const DEFER_AFTER_MS = 30 * 1000;
/** Wait before another attempt at a delivery whose send failed in a way worth retrying. */
const RETRY_AFTER_MS = 60 * 1000;
/** Rows claimed per transaction, and transactions per pass at most. */
const CLAIM_BATCH = 500;
const MAX_BATCHES = 40;
/** Users whose messages are being sent at once. */
const SEND_CONCURRENCY = 64;

export interface ReminderServiceDeps {
  /** Due tasks and digests to claim, and the delivery ledger (db/storage reminderStorage). */
  storage: Storage<ReminderRepositories>;
  /** null: no WhatsApp client at all (nothing can be sent; deliveries fail loudly). */
  sender: MessageSender | null;
  llm: LLMService | null;
  logger: Logger;
  clock: () => number;
  /** Resolves when the clock reaches `atMs` (default: a timer); tests move a fake clock. */
  sleepUntil?: (atMs: number) => Promise<void>;
  settings: SchedulerSettings;
  /** Counts deliveries by kind and outcome, and the late ones (default: not counted). */
  metrics?: ReminderMetrics;
}

const ringKey = (taskId: string, fireAt: number) => `task:${taskId}@${new Date(fireAt).toISOString()}`;

/**
 * Reminders, nudges, overdue notices and morning digests (spec 002 §9, D8). Due rows are claimed
 * in short transactions (FOR UPDATE SKIP LOCKED) that also record each occurrence in the delivery
 * ledger under a unique key and move the task to its next ring; the messages are sent after the
 * commit, each under a claim token, paced per user (in the database) and overall (in process).
 */
export class ReminderService implements ReminderJobs {
  private readonly ledger: DeliveryLedger;
  private readonly pacer: ProactivePacer;
  private readonly sleepUntil: (atMs: number) => Promise<void>;
  /** Capabilities that add to the digest (the calendar). */
  private readonly digestSources: DigestSource[] = [];
  /** Phones already warned about as unreachable (no template), so the log says it once. */
  private readonly warnedUnreachable = new Set<string>();
  /** Set by stop(): waits end, and what is not yet sent is released for the next pass. */
  private stopping = stopController();
  /** When this instance last sent each user a proactive message (entries older than the gap are dropped). */
  private readonly lastSent = new Map<string, number>();

  constructor(private readonly deps: ReminderServiceDeps) {
    this.ledger = deps.storage.repositories.deliveries;
    this.sleepUntil =
      deps.sleepUntil ??
      ((atMs) =>
        delay(Math.max(0, atMs - deps.clock()), undefined, { signal: this.stopping.signal }).catch(
          () => undefined,
        ));
    this.pacer = new ProactivePacer({
      perSecond: deps.settings.maxPerSecond,
      clock: deps.clock,
      sleepUntil: this.sleepUntil,
    });
  }

  /**
   * Stops sending: a pass that is running hands back what it has not sent yet (released for the
   * next pass of any instance, so a restart sends it at once rather than after the claim lease).
   */
  stop(): void {
    this.stopping.abort();
  }

  /** Sends again after stop() (the scheduler started anew). */
  resume(): void {
    if (this.stopping.signal.aborted) this.stopping = stopController();
  }

  /** Adds a section source to the morning digest. */
  addDigestSource(source: DigestSource): void {
    this.digestSources.push(source);
  }

  /**
   * One pass: takes over deliveries a crashed instance left, claims due reminders and digests,
   * and sends what this instance claimed. Resolves when everything claimed has been handled.
   */
  async runDue(): Promise<PassReport> {
    const { clock } = this.deps;
    const token = randomUUID();
    const started = performance.now();
    // No more than the overall pace can send within the pass's horizon: the rest stays due for
    // the next pass (or another instance), so a pass stays short.
    const budget = Math.max(
      CLAIM_BATCH,
      Math.floor((this.deps.settings.maxPerSecond * DEFER_AFTER_MS) / 1000),
    );
    const reclaimed = await this.ledger.reclaim(token, clock(), CLAIM_LEASE_MS, budget);
    const claimed: Delivery[] = [...reclaimed];
    let skipped = 0;
    for (let batch = 0; batch < MAX_BATCHES && claimed.length < budget; batch++) {
      const rings = await this.claimRings(token, Math.min(CLAIM_BATCH, budget - claimed.length));
      claimed.push(...rings.deliveries);
      if (rings.locked < CLAIM_BATCH) break;
    }
    for (let batch = 0; batch < MAX_BATCHES && claimed.length < budget; batch++) {
      const digests = await this.claimDigests(token, Math.min(CLAIM_BATCH, budget - claimed.length));
      claimed.push(...digests.deliveries);
      skipped += digests.skipped;
      if (digests.locked < CLAIM_BATCH) break;
    }
    if (claimed.length < budget)
      claimed.push(...(await this.claimHousehold(token, Math.min(CLAIM_BATCH, budget - claimed.length))));
    const claimMs = performance.now() - started;
    const outcomes = await this.send(claimed);
    const count = (status: string) => outcomes.filter((o) => o === status).length;
    const report: PassReport = {
      claimed: claimed.length,
      sent: count("sent"),
      failed: count("failed"),
      undeliverable: count("undeliverable"),
      skipped: skipped + count("skipped"),
      reclaimed: reclaimed.length,
      deferred: count("deferred"),
      claimMs,
      sendMs: performance.now() - started - claimMs,
    };
    if (report.claimed > 0 || report.skipped > 0)
      this.deps.logger.info({ event: "SCHEDULER_PASS", ...report }, "scheduler pass");
    return report;
  }

  /**
   * Claims up to `limit` due task rings: plans each one (the latest missed occurrence of a
   * repeating reminder, a nudge held by quiet hours, a gathered "while I was away" message),
   * records them in the ledger and moves every task to its next ring, all in one transaction.
   */
  async claimRings(token: string, limit: number): Promise<{ locked: number; deliveries: Delivery[] }> {
    const now = this.deps.clock();
    const { gapMs } = { gapMs: this.deps.settings.userGapMs };
    const planned = await this.deps.storage.transaction(async ({ schedule: repo, deliveries }) => {
      const tasks = await repo.lockDueTasks(now, limit);
      if (tasks.length === 0) return { locked: 0, rows: [] as NewDelivery[] };
      const users = await repo.lockUsers([...new Set(tasks.map((t) => t.phone))].sort());
      // Nudges of users outside WhatsApp's window that already rang there once since they last wrote.
      const held = await repo.nudgesHeldOutsideWindow(
        tasks
          .filter((t) => t.recurrence?.type === "nudge" && outsideWindowSince(users.get(t.phone), now))
          .map((t) => t.id),
      );
      const nextFires: { id: string; nextFireAt: number | null }[] = [];
      const perUser = new Map<string, NewDelivery[]>();
      const away = new Map<string, AwayContent["items"]>();
      /** Each user's away message of this claim, keyed by its first task (unique across claims, even at the same instant). */
      const awayKeys = new Map<string, string>();
      const covered: NewDelivery[] = [];
      for (const task of tasks) {
        const user = users.get(task.phone);
        if (!user) continue;
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
        nextFires.push({ id: task.id, nextFireAt: plan.nextFireAt });
        if (!plan.ring) continue;
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
      const rows = assignSlots(perUser, users, now, gapMs);
      await repo.setNextProactive(nextSlots(rows, gapMs));
      await repo.setNextFire(nextFires);
      const inserted = await deliveries.insert([...rows, ...covered], token, now);
      return { locked: tasks.length, rows: rows.filter((r) => inserted.has(r.key)) };
    });
    return { locked: planned.locked, deliveries: planned.rows.map((r) => asDelivery(r, token)) };
  }

  /**
   * Claims the household's notices (docs/HOUSEHOLD.md): to whoever gave a task or reminder, that
   * it is done or still open an hour after it rang (each once), and each member's batched notice
   * of others' additions to shared lists. A reader in their quiet hours gets it when they end.
   */
  async claimHousehold(token: string, limit: number): Promise<Delivery[]> {
    const now = this.deps.clock();
    const rows = await this.deps.storage.transaction(async ({ schedule: repo, deliveries }) => {
      const told = await repo.lockAssignerNotices(now - STILL_OPEN_AFTER_MS, limit);
      // A reader in their quiet hours keeps gathering: one notice when they end, not one per batch.
      const readers = (await repo.listChangeReaders(now - LIST_NOTICE_BATCH_MS, limit)).filter(
        (reader) => !inQuietHours(now, quietOf(reader)),
      );
      const changes = await repo.takeListChanges(readers.map((reader) => reader.phone));
      if (told.length === 0 && changes.length === 0) return [];
      const out: NewDelivery[] = told.map((n) => {
        // Done again after an undo is another "done": its key names when.
        const key = n.done
          ? `household:done:${n.taskId}@${new Date(n.completedAt ?? now).toISOString()}`
          : `household:open:${n.taskId}`;
        const row = householdNotice(n.giver, key, now, {
          notice: n.done ? "done" : "stillOpen",
          who: n.holder,
          text: n.text,
          ...(n.rangAt !== null ? { rangAt: new Date(n.rangAt).toISOString() } : {}),
        });
        // "Still open" goes with its task: done before it is sent (held by quiet hours), it is not.
        return n.done ? row : { ...row, taskId: n.taskId };
      });

      const perReader = new Map<string, typeof changes>();
      for (const change of changes)
        perReader.set(change.reader.phone, [...(perReader.get(change.reader.phone) ?? []), change]);
      for (const [phone, mine] of perReader) {
        out.push(
          householdNotice(
            mine[0]!.reader,
            `household:lists:${phone}@${new Date(now).toISOString()}/${token}`,
            now,
            {
              notice: "lists",
              who: mine[0]!.actor,
              changes: mine.map((c) => ({ who: c.actor, list: c.list, count: c.items })),
            },
          ),
        );
      }
      await repo.markAssignerTold(told, now);
      const inserted = await deliveries.insert(out, token, now);
      return out.filter((row) => inserted.has(row.key));
    });
    return rows.map((row) => asDelivery(row, token));
  }

  /**
   * Claims due morning digests: computes the next digest instant of users who have none yet,
   * then gathers each due user's day into a digest (skipped when empty or hours late).
   */
  async claimDigests(
    token: string,
    limit: number,
  ): Promise<{ locked: number; deliveries: Delivery[]; skipped: number }> {
    const now = this.deps.clock();
    const gapMs = this.deps.settings.userGapMs;
    return this.deps.storage.transaction(async ({ schedule: repo, deliveries }) => {
      const unscheduled = await repo.lockUnscheduledDigests(limit);
      await repo.setDigestNext(unscheduled.map((u) => ({ phone: u.phone, at: this.nextDigest(u, now) })));
      const due = await repo.lockDueDigests(now, limit);
      // A full batch of either kind: the pass claims again (many users scheduled at once after the migration).
      const locked = Math.max(due.length, unscheduled.length);
      if (due.length === 0) return { locked, deliveries: [], skipped: 0 };
      const tasksOf = new Map<string, DigestTask[]>();
      for (const task of await repo.openTasksOf(due.map((u) => u.phone))) {
        tasksOf.set(task.phone, [...(tasksOf.get(task.phone) ?? []), task]);
      }
      const perUser = new Map<string, NewDelivery[]>();
      const skippedRows: NewDelivery[] = [];
      for (const user of due) {
        const digestAt = user.digestNextAt!;
        const content = buildDigest(user, tasksOf.get(user.phone) ?? [], digestAt);
        const row: NewDelivery = {
          key: `digest:${user.phone}@${content.date}`,
          phone: user.phone,
          kind: "digest",
          taskId: null,
          occurrenceAt: digestAt,
          content,
          sendAfter: now,
        };
        // A digest may still gain a calendar section at send time; without sources an empty one is skipped now.
        const empty = digestIsEmpty(content) && this.digestSources.length === 0;
        if (now - digestAt > DIGEST_STALE_MS || empty) {
          skippedRows.push({ ...row, status: "skipped", error: empty ? "nothing to report" : "too late" });
        } else {
          perUser.set(user.phone, [row]);
        }
      }
      const users = new Map(due.map((u) => [u.phone, u]));
      const rows = assignSlots(perUser, users, now, gapMs);
      await repo.setNextProactive(nextSlots(rows, gapMs));
      await repo.setDigestNext(due.map((u) => ({ phone: u.phone, at: this.nextDigest(u, now) })));
      const inserted = await deliveries.insert([...rows, ...skippedRows], token, now);
      return {
        locked,
        deliveries: rows.filter((r) => inserted.has(r.key)).map((r) => asDelivery(r, token)),
        skipped: skippedRows.filter((r) => inserted.has(r.key)).length,
      };
    });
  }

  /** Sends claimed deliveries: each user's in order, users side by side. Returns each one's outcome. */
  async send(deliveries: readonly Delivery[]): Promise<string[]> {
    const byUser = new Map<string, Delivery[]>();
    for (const d of [...deliveries].sort(
      (a, b) => a.sendAfter - b.sendAfter || a.occurrenceAt - b.occurrenceAt,
    )) {
      const list = byUser.get(d.phone) ?? [];
      list.push(d);
      byUser.set(d.phone, list);
    }
    const { clock, settings, logger } = this.deps;
    for (const [phone, at] of this.lastSent)
      if (at + settings.userGapMs <= clock()) this.lastSent.delete(phone);
    // What is due by then goes in this pass; later slots are handed back (deferred).
    const horizon = clock() + DEFER_AFTER_MS;
    const perUser = await mapWithConcurrency([...byUser.values()], SEND_CONCURRENCY, async (list) => {
      const outcomes: string[] = [];
      for (const delivery of list) {
        // Log lines, LLM calls (a polished digest) and traces of this send carry its key and user.
        const turn = {
          traceId: delivery.key,
          phone: delivery.phone,
          trigger: delivery.kind === "nudge" ? ("nudge" as const) : ("cron" as const),
        };
        const outcome = await withTurn(turn, () => this.deliver(delivery, horizon)).catch(
          (error: unknown) => {
            // Left claimed (the database failed, most likely): taken over after the lease, and the
            // user's other messages still go.
            logger.error(
              { err: error, event: "REMINDER_DELIVERY", key: delivery.key, phone: delivery.phone },
              "reminder delivery failed; retried after the claim lease",
            );
            return "error";
          },
        );
        // Late: gathered after downtime, or sent past the point where its text says "late".
        const late = delivery.kind === "away" || clock() - delivery.occurrenceAt > LATE_AFTER_MS;
        this.deps.metrics?.reminderHandled(delivery.kind, outcome, late);
        outcomes.push(outcome);
      }
      return outcomes;
    });
    return perUser.flat();
  }

  /** Sends one claimed delivery: free-form inside the 24-hour window, the template outside it. */
  async deliver(delivery: Delivery, horizon = this.deps.clock() + DEFER_AFTER_MS): Promise<string> {
    const { logger, clock, sender, settings } = this.deps;
    // The gap holds between actual sends: a message that went late (behind the overall pace)
    // pushes the user's next one back, whatever its slot said.
    const previous = this.lastSent.get(delivery.phone);
    const notBefore = Math.max(
      delivery.sendAfter,
      previous === undefined ? 0 : previous + settings.userGapMs,
    );
    // A slot beyond the pass's horizon (a user with many messages at once) is left to a later
    // pass, so a pass stays short and one busy user never holds up everyone else's reminders.
    if (Math.max(notBefore, this.pacer.nextSlotAt()) > horizon) {
      await this.ledger.defer(
        delivery.key,
        delivery.claimToken,
        Math.max(notBefore, clock()),
        CLAIM_LEASE_MS,
        settings.userGapMs,
      );
      return "deferred";
    }
    if (notBefore > clock()) await this.sleepUntil(notBefore);
    await this.pacer.acquire();
    if (this.stopping.signal.aborted) {
      await this.ledger.release(delivery.key, delivery.claimToken);
      return "released";
    }
    const context = {
      event: "REMINDER_DELIVERY",
      key: delivery.key,
      kind: delivery.kind,
      phone: delivery.phone,
    };
    if (!sender) {
      await this.ledger.finish(delivery.key, delivery.claimToken, "failed", "no WhatsApp client configured");
      logger.error(context, "no WhatsApp client: reminder not sent");
      return "failed";
    }
    // Everything slow (other capabilities' digest sections, the optional polish) happens before
    // the claim is renewed, so the renewal is followed by the send itself.
    const content = await this.complete(delivery.content, delivery.phone);
    if (content.kind === "digest" && digestIsEmpty(content)) {
      await this.ledger.finish(delivery.key, delivery.claimToken, "skipped", "nothing to report");
      return "skipped";
    }
    const message = await this.render(content, clock());
    const attempt = await this.ledger.startAttempt(delivery.key, delivery.claimToken, clock());
    // Another instance took it over (this one stalled past the lease): it is theirs to send.
    if (!attempt) return "lost";
    if (attempt.taskGone) {
      await this.ledger.finish(delivery.key, delivery.claimToken, "skipped", "the task was done or deleted");
      return "skipped";
    }
    if (attempt.attempts > MAX_ATTEMPTS) {
      await this.ledger.finish(
        delivery.key,
        delivery.claimToken,
        "failed",
        delivery.error ?? "too many attempts",
      );
      logger.error({ ...context, attempts: attempt.attempts }, "reminder delivery gave up");
      return "failed";
    }
    const now = clock();
    const inWindow =
      !content.viaTemplate &&
      attempt.lastInboundAt !== null &&
      now - attempt.lastInboundAt < FREE_FORM_WINDOW_MS;
    const via = inWindow ? "text" : "template";
    const template = this.templateFor(content);
    if (via === "template" && !template) {
      await this.ledger.finish(
        delivery.key,
        delivery.claimToken,
        "undeliverable",
        "outside the 24-hour window and no template configured",
      );
      this.warnUnreachable(delivery.phone, context);
      return "undeliverable";
    }
    /** The WhatsApp id of the (first) message the Graph API accepted, once it has. */
    let accepted: string | null = null;
    let recorded = false;
    const onAccepted = async (waMessageId: string) => {
      if (accepted !== null) return;
      accepted = waMessageId;
      const at = clock();
      this.lastSent.set(delivery.phone, at);
      await this.ledger.markSent(delivery.key, delivery.claimToken, via, waMessageId, at);
      recorded = true;
    };
    try {
      if (via === "template") {
        // Only the household template has buttons (Accept / Decline): their payloads go with it.
        const buttons = content.kind === "household" ? message.buttons.map((b) => b.id) : [];
        await sender.sendTemplate(delivery.phone, template!, message.text, {
          onAccepted,
          buttons,
          memory: attempt.isUser ? "append" : "none",
        });
      } else {
        await sender.send(
          delivery.phone,
          {
            text: message.text,
            ...(message.buttons.length > 0
              ? { question: message.text, expectedInput: "single_choice" as const }
              : {}),
            options: message.buttons,
            language: content.language,
          },
          // Appended in one statement: a turn of this user may be running on another instance.
          // Someone invited who is not a user yet has no conversation to keep it in.
          { memory: attempt.isUser ? "append" : "none", onAccepted },
        );
      }
      // A sender without a client logs and sends nothing: not a delivery.
      if (accepted === null) throw new Error("reminder not sent: the WhatsApp client sent nothing");
      logger.info({ ...context, via, lateMs: now - delivery.occurrenceAt }, "reminder sent");
      return "sent";
    } catch (error) {
      // The message is out (what failed came after it: recording it, a second part, the window's
      // append): never retried, or the user would get it twice. A ledger write that fails again
      // leaves the row claimed: the documented resend window.
      if (accepted !== null) {
        if (!recorded) await this.ledger.markSent(delivery.key, delivery.claimToken, via, accepted, clock());
        logger.warn({ ...context, err: error }, "reminder sent; what followed the send failed");
        return "sent";
      }
      return this.failed(delivery, error, attempt.attempts, context);
    }
  }

  /**
   * A status webhook said a message failed. A free-form reminder refused for being outside the
   * 24-hour window (131047) is queued once more, to go as the template on the next pass (paced,
   * and off the webhook's request); other failures are recorded.
   */
  async onDeliveryFailed(update: {
    waMessageId: string;
    errorCode?: number;
    errorTitle?: string;
  }): Promise<void> {
    const reason = `code ${update.errorCode ?? "?"}${update.errorTitle ? `: ${update.errorTitle}` : ""}`;
    if (update.errorCode !== OUTSIDE_WINDOW_CODE) {
      await this.ledger.markFailedByMessage(update.waMessageId, reason);
      return;
    }
    const key = await this.ledger.requeueAsTemplate({ waMessageId: update.waMessageId }, reason);
    // Already retried once, a template itself, or not (yet) recorded as sent: at least on record.
    if (!key) await this.ledger.markFailedByMessage(update.waMessageId, reason);
    if (key)
      this.deps.logger.info({ event: "REMINDER_TEMPLATE_RETRY", key }, "131047: queued again as a template");
  }

  /** The user's next digest instant; null (no digest) for a zone or time this runtime cannot read. */
  private nextDigest(user: ProactiveUser, nowMs: number): number | null {
    try {
      return nextDigestAt(user, nowMs);
    } catch (error) {
      this.deps.logger.error(
        { err: error, event: "DIGEST_UNPLANNABLE", phone: user.phone, timeZone: user.timeZone },
        "morning digest cannot be scheduled for this user",
      );
      return null;
    }
  }

  /** Drops ledger rows older than the retention period; returns how many. */
  prune(beforeMs: number): Promise<number> {
    return this.ledger.prune(beforeMs);
  }

  /** The ledger, for support tools and tests. */
  get deliveries(): DeliveryLedger {
    return this.ledger;
  }

  private async failed(
    delivery: Delivery,
    error: unknown,
    attempts: number,
    context: Record<string, unknown>,
  ): Promise<string> {
    const api = graphErrorOf(error);
    // The window closed between our check and Meta's: the template goes on the next pass.
    if (api?.code === OUTSIDE_WINDOW_CODE && !delivery.content.viaTemplate) {
      const key = await this.ledger.requeueAsTemplate(
        { key: delivery.key, claimToken: delivery.claimToken },
        describeError(api),
      );
      if (key) return "retrying";
    }
    // The Graph API's own words (status, Meta code), not the sender's wrapper ("could not be delivered").
    const reason = describeError(api ?? error);
    // Not the Graph API's refusal (no answer, a database hiccup): worth another attempt.
    const retryable = api?.retryable ?? true;
    if (retryable && attempts < MAX_ATTEMPTS) {
      const now = this.deps.clock();
      await this.ledger.retryLater(
        delivery.key,
        delivery.claimToken,
        reason,
        CLAIM_LEASE_MS,
        now + RETRY_AFTER_MS,
      );
      this.deps.logger.warn({ ...context, err: error, attempts }, "reminder send failed; will retry");
      return "retrying";
    }
    await this.ledger.finish(delivery.key, delivery.claimToken, "failed", reason);
    this.deps.logger.error({ ...context, err: error, attempts }, "reminder send failed");
    return "failed";
  }

  /** The message text: the template text, polished for digests when that is on. */
  private async render(content: ProactiveContent, nowMs: number) {
    const message = renderProactive(content, nowMs);
    const { llm, settings, logger } = this.deps;
    if (content.kind !== "digest" || !settings.digestPolish || !llm) return message;
    try {
      const polished = (
        await llm.text("responseWriter", digestPolishMessages(message.text, content.language))
      ).value.trim();
      // The template is the fallback for anything that does not look like a digest.
      if (polished.length > 0 && polished.length <= 3500) return { ...message, text: polished };
    } catch (error) {
      logger.warn(
        { err: error, event: "DIGEST_POLISH_FAILED" },
        "digest polish failed; sending the template",
      );
    }
    return message;
  }

  /** A digest gains the sections of the digest sources (asked now, at send time). */
  private async complete(content: ProactiveContent, phone: string): Promise<ProactiveContent> {
    if (content.kind !== "digest" || this.digestSources.length === 0) return content;
    const at = Date.parse(content.digestAt);
    const day = dayBounds(at, content.timeZone);
    const sections = await Promise.all(
      this.digestSources.map((source) =>
        source
          .sectionFor({ phone, timeZone: content.timeZone, language: content.language }, day)
          .catch((error: unknown) => {
            this.deps.logger.warn({ err: error, source: source.name }, "digest source failed; left out");
            return null;
          }),
      ),
    );
    return {
      ...content,
      sections: [...content.sections, ...sections.filter((s) => s !== null)],
    };
  }

  private templateFor(content: ProactiveContent): { name: string; languageCode: string } | null {
    const { templates } = this.deps.settings;
    const name =
      content.kind === "digest"
        ? templates.digest
        : content.kind === "household"
          ? templates.household
          : templates.reminder;
    if (!name) return null;
    return {
      name,
      languageCode: content.language === "he" ? templates.languages.he : templates.languages.en,
    };
  }

  private warnUnreachable(phone: string, context: Record<string, unknown>): void {
    const first = !this.warnedUnreachable.has(phone);
    this.warnedUnreachable.add(phone);
    const log = first
      ? this.deps.logger.warn.bind(this.deps.logger)
      : this.deps.logger.debug.bind(this.deps.logger);
    log(
      { ...context, event: "REMINDER_UNDELIVERABLE" },
      "user is outside WhatsApp's 24-hour window and no template is configured (WHATSAPP_REMINDER_TEMPLATE / WHATSAPP_DIGEST_TEMPLATE): recorded as undeliverable",
    );
  }
}

/** An hour after a reminder given within a household rang and is still open, its giver is told once. */
export const STILL_OPEN_AFTER_MS = 60 * 60 * 1000;
/** Additions to shared lists are gathered this long into one notice. */
export const LIST_NOTICE_BATCH_MS = 15 * 60 * 1000;

/** A reader's quiet hours; none (equal bounds) is never quiet. */
function quietOf(reader: Pick<NoticeReader, "quietStart" | "quietEnd" | "timeZone">): QuietHours {
  return reader.quietStart && reader.quietEnd
    ? { start: reader.quietStart, end: reader.quietEnd, timeZone: reader.timeZone }
    : { start: "00:00", end: "00:00", timeZone: reader.timeZone };
}

/** What a household notice says, without whom it is for (their language and zone are added). */
export type HouseholdNoticeBody = DistributiveOmit<HouseholdContent, "kind" | "language" | "timeZone">;

/**
 * A household notice to `reader` (a member: their language, zone and quiet hours), sent now or, in
 * their quiet hours, when those end.
 */
export function householdNotice(
  reader: Omit<NoticeReader, "timeZone"> & { timeZone: string | null },
  key: string,
  now: number,
  body: HouseholdNoticeBody,
): NewDelivery {
  const timeZone = reader.timeZone ?? "UTC";
  const quiet = quietOf({ ...reader, timeZone });
  const content = {
    ...body,
    kind: "household",
    language: replyLanguage(reader.language),
    timeZone,
  } as HouseholdContent;
  return {
    key,
    phone: reader.phone,
    kind: "household",
    taskId: null,
    occurrenceAt: now,
    content,
    sendAfter: inQuietHours(now, quiet) ? quietHoursEnd(now, quiet) : now,
  };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** `away:<phone>@<claim ISO>/<first task>`: two claims at the same millisecond (two instances) never collide. */
/** The stop signal every waiting send listens to (up to SEND_CONCURRENCY at once: no listener limit). */
function stopController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/** Whether the user had not written for the window's length by `atMs` (or never wrote). */
function outsideWindowSince(user: Pick<ProactiveUser, "lastInboundAt"> | undefined, atMs: number): boolean {
  return !!user && (user.lastInboundAt === null || atMs - user.lastInboundAt >= FREE_FORM_WINDOW_MS);
}

const awayKey = (phone: string, nowMs: number, firstTaskId: string) =>
  `away:${phone}@${new Date(nowMs).toISOString()}/${firstTaskId}`;

/** Gives each user's messages send slots: the user's next free slot, then one gap apart. */
function assignSlots(
  perUser: ReadonlyMap<string, NewDelivery[]>,
  users: ReadonlyMap<string, ProactiveUser>,
  nowMs: number,
  gapMs: number,
): NewDelivery[] {
  const out: NewDelivery[] = [];
  for (const [phone, rows] of perUser) {
    const base = Math.max(nowMs, users.get(phone)?.nextProactiveAt ?? nowMs);
    rows
      .sort((a, b) => (a.kind === "away" ? -1 : b.kind === "away" ? 1 : a.occurrenceAt - b.occurrenceAt))
      .forEach((row, i) => out.push({ ...row, sendAfter: base + i * gapMs }));
  }
  return out;
}

/** Each user's next free slot after the messages just given slots. */
function nextSlots(rows: readonly NewDelivery[], gapMs: number): Map<string, number> {
  const slots = new Map<string, number>();
  for (const row of rows) {
    const next = row.sendAfter + gapMs;
    if (next > (slots.get(row.phone) ?? 0)) slots.set(row.phone, next);
  }
  return slots;
}

/** The user's next digest instant after `nowMs`: their local digest time, on the next day it is still ahead. */
export function nextDigestAt(
  user: Pick<ProactiveUser, "timeZone" | "digestLocalTime">,
  nowMs: number,
): number | null {
  return nextOccurrence({ type: "daily", time: user.digestLocalTime }, user.timeZone, nowMs);
}

/** The local day containing `atMs`, from its midnight to the next (23 to 25 hours across DST). */
function dayBounds(atMs: number, timeZone: string): { startMs: number; endMs: number } {
  const { year, month, day } = instantToLocal(atMs, timeZone);
  const midnight = (date: LocalDate) => localToInstant({ ...date, hour: 0, minute: 0 }, timeZone);
  return { startMs: midnight({ year, month, day }), endMs: midnight(addDays({ year, month, day }, 1)) };
}

/** The Graph API error behind a failed send: thrown as is, or as the cause of the sender's DeliveryError. */
function graphErrorOf(error: unknown): WhatsAppApiError | null {
  if (error instanceof WhatsAppApiError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof WhatsAppApiError ? cause : null;
}

/** A row this instance just inserted under `token`, as the delivery it is now to send. */
export function asDelivery(row: NewDelivery, token: string): Delivery {
  return {
    key: row.key,
    phone: row.phone,
    kind: row.kind,
    taskId: row.taskId,
    occurrenceAt: row.occurrenceAt,
    content: row.content,
    sendAfter: row.sendAfter,
    claimToken: token,
    attempts: 0,
    status: "sending",
    via: null,
    waMessageId: null,
    error: null,
    sentAt: null,
    templateRetried: false,
  };
}
