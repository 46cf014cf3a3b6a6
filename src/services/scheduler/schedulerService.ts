import cron, { type ScheduledTask } from "node-cron";
import { CLAIM_LEASE_MS, CONVERSATION_MAX_AGE_MS } from "../../config/lifetimes.js";
import type { Housekeeping } from "../../db/repositories/housekeeping.js";
import { OPERATION_RETENTION_MS } from "../../db/repositories/operationLedger.js";
import type { SchedulerRepository } from "../../db/repositories/schedulerRepository.js";
import type { Logger } from "../../utils/logger.js";
import { DEFAULT_UNDO_WINDOW_MS } from "../undo/undoJournal.js";
import type { MemoryJobs, PassReport, ReminderJobs, WindowCache } from "./jobs.js";

/** Every minute: due reminders, nudges, overdue notices and digests (spec 002 §9.2). */
const DUE_SCHEDULE = "* * * * *";
/** Every hour: idle conversation windows, expired disambiguation snapshots, week-old ledger entries. */
const HOURLY_SCHEDULE = "7 * * * *";
/** Every day: records past the retention period. */
const DAILY_SCHEDULE = "37 3 * * *";
/** A ring due within this much of a pass is woken for on time, not at the next minute's tick. */
const WAKE_AHEAD_MS = 60 * 1000;

export interface SchedulerServiceDeps {
  /** Clears expired conversations and undo entries, prunes old records. */
  housekeeping: Housekeeping;
  /** When the next ring is due, to wake for it on time. */
  schedule: SchedulerRepository;
  /** The due pass and the delivery records' prune (the reminder service). */
  reminders: ReminderJobs;
  /** The window cache the hourly job empties of idle users (the memory service). */
  memory: WindowCache;
  logger: Logger;
  clock: () => number;
  retentionDays: number;
  /** Long-term memory's periodic work (default: none). */
  memoryJobs?: MemoryJobs;
  /** How long a change can be undone (UNDO_WINDOW_MINUTES; default 10 minutes): expired entries go a window later. */
  undoWindowMs?: number;
}

/**
 * The cron side of D8: node-cron only triggers work; what is due and who sends it is decided in
 * the database. Passes never overlap within a process; several processes may run this together.
 */
export class SchedulerService {
  private tasks: ScheduledTask[] = [];
  private wake: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  /** Every job running now (stop() waits for them before the pool closes). */
  private readonly jobs = new Set<Promise<unknown>>();
  private stopped = true;
  /** A pass was asked for while one ran: another follows it at once. */
  private again = false;
  /** stop() was called: no further pass follows. */
  private halted = false;

  constructor(private readonly deps: SchedulerServiceDeps) {}

  /** Starts the cron jobs and runs a first pass now (what came due while the service was down). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.halted = false;
    this.deps.reminders.resume();
    const job = (name: string, expression: string, run: () => Promise<unknown>) =>
      cron.schedule(expression, () => void run(), { name, noOverlap: true });
    this.tasks = [
      job("memo-due", DUE_SCHEDULE, () => this.runDue()),
      job("memo-hourly", HOURLY_SCHEDULE, () => this.runHourly()),
      job("memo-daily", DAILY_SCHEDULE, () => this.runDaily()),
    ];
    void this.runDue();
  }

  /** Stops the jobs and waits for a pass that is running to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.halted = true;
    clearTimeout(this.wake);
    this.deps.reminders.stop();
    await Promise.all(this.tasks.map(async (task) => task.destroy()));
    this.tasks = [];
    await Promise.all([...this.jobs]);
  }

  /**
   * One due pass (reminders, nudges, digests), unless one is running; then arms a timer for a
   * ring due before the next tick, so "in 2 minutes" rings at its second, not up to a minute late.
   */
  async runDue(): Promise<PassReport | null> {
    if (this.running) {
      // Something came due while a pass runs (a wake, a tick): one more pass right after it.
      this.again = true;
      return null;
    }
    const pass = this.track(async () => {
      let report: PassReport | null;
      do {
        this.again = false;
        report = await this.guard("due", () => this.deps.reminders.runDue());
      } while (this.again && !this.halted);
      await this.guard("undo-purge", () => this.purgeUndo());
      if (!this.stopped) await this.armWake();
      return report;
    });
    this.running = pass;
    try {
      return await pass;
    } finally {
      this.running = undefined;
    }
  }

  /**
   * Undo journal entries expired a window ago go (each minute, so within a minute of that): till
   * then "undo" can still say it is too late for the change, and after it no copy is kept.
   */
  private async purgeUndo(): Promise<void> {
    const windowMs = this.deps.undoWindowMs ?? DEFAULT_UNDO_WINDOW_MS;
    const purged = await this.deps.housekeeping.purgeUndo(this.deps.clock() - windowMs);
    if (purged > 0)
      this.deps.logger.info({ event: "UNDO_PURGED", entries: purged }, "expired undo entries dropped");
  }

  /**
   * Hourly: the window cache and table forget idle conversations and expired questions, the
   * operation ledger its entries older than a week; long-term memory catches up.
   */
  async runHourly(): Promise<void> {
    await this.track(() =>
      this.guard("hourly", async () => {
        const now = this.deps.clock();
        this.deps.memory.cleanup();
        const expired = await this.deps.housekeeping.expireConversations(now - CONVERSATION_MAX_AGE_MS, now);
        const operations = await this.deps.housekeeping.pruneOperations(now - OPERATION_RETENTION_MS);
        this.deps.logger.info(
          { event: "SCHEDULER_HOURLY", ...expired, operations },
          "expired conversations cleared",
        );
      }),
    );
    const { memoryJobs } = this.deps;
    if (memoryJobs) {
      await this.track(() =>
        this.guard("memory-sweep", async () => {
          const swept = await memoryJobs.sweep();
          this.deps.logger.info({ event: "MEMORY_SWEEP", ...swept }, "long-term memory caught up");
        }),
      );
    }
  }

  /** Daily: answered inbox rows, sent-message records and reminder deliveries past the retention period; memory consolidation. */
  async runDaily(): Promise<void> {
    await this.track(() =>
      this.guard("daily", async () => {
        const before = this.deps.clock() - this.deps.retentionDays * 24 * 60 * 60 * 1000;
        const messages = await this.deps.housekeeping.pruneMessages(before);
        const deliveries = await this.deps.reminders.prune(before);
        this.deps.logger.info({ event: "SCHEDULER_PRUNE", ...messages, deliveries }, "old records pruned");
      }),
    );
    const { memoryJobs } = this.deps;
    if (memoryJobs) {
      await this.track(() =>
        this.guard("memory-consolidation", async () => {
          const consolidated = await memoryJobs.consolidate(this.deps.clock());
          this.deps.logger.info(
            { event: "MEMORY_CONSOLIDATION", ...consolidated },
            "remembered facts consolidated",
          );
        }),
      );
    }
  }

  /** Runs `job`, known to stop() until it settles. */
  private track<T>(job: () => Promise<T>): Promise<T> {
    const running = job();
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    this.jobs.add(settled);
    void settled.then(() => this.jobs.delete(settled));
    return running;
  }

  /** Runs a job; its errors are logged with context and never escape (a tick must not crash the process). */
  private async guard<T>(job: string, run: () => Promise<T>): Promise<T | null> {
    try {
      return await run();
    } catch (error) {
      this.deps.logger.error({ err: error, event: "SCHEDULER_JOB_FAILED", job }, "scheduler job failed");
      return null;
    }
  }

  private async armWake(): Promise<void> {
    clearTimeout(this.wake);
    const now = this.deps.clock();
    const next = await this.guard("wake", () =>
      this.deps.schedule.nextDueBetween(now, now + WAKE_AHEAD_MS, CLAIM_LEASE_MS),
    );
    if (next === null || this.stopped) return;
    this.wake = setTimeout(() => void this.runDue(), Math.max(0, next - this.deps.clock()));
    this.wake.unref();
  }
}
