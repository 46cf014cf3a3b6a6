import type { ReminderService } from "../../src/services/reminder/reminderService.js";
import { afterAll, afterEach, beforeAll } from "vitest";
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { createMemoryJobs } from "../../src/services/memory/memoryJobs.js";
import { PgTaskRepository } from "../../src/db/repositories/taskRepository.js";
import { scheduleTask, type TaskTimeArgs } from "../../src/services/tasks/taskTimes.js";
import { calendarDigestSource } from "../../src/graph/capabilities/calendar/calendarCapability.js";
import type { SchedulerService } from "../../src/services/scheduler/schedulerService.js";
import { GraphApiClient } from "../../src/transport/whatsapp/graphApiClient.js";
import { WhatsAppSender } from "../../src/transport/whatsapp/whatsAppSender.js";
import type { NewTask, Task } from "../../src/types/tasks.js";
import { pgliteBackend, type TestDatabase } from "./db.js";
import { fakeClock, type FakeClock } from "./clock.js";
import { schedulerServicesOn } from "./services.js";
import { createWhatsAppHarness, type WhatsAppHarnessOptions } from "./whatsappHarness.js";

/**
 * Empties every table but the migration records, so the tests of one file can share a database
 * (a fresh PGlite costs a second or more) and still start from nothing.
 */
export async function clearDatabase(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables
      WHERE schemaname = current_schema() AND tablename NOT LIKE '%migrations'`,
  );
  if (rows.length > 0) await pool.query(`TRUNCATE ${rows.map((r) => r.name).join(", ")} CASCADE`);
}

/**
 * One PGlite database for a whole test file (a fresh one costs 1–3 s), emptied after each test
 * once the test's harness (`current()`) is closed. Call at the top of the file.
 */
export function sharedDatabase(current: () => { close(closeDb?: boolean): Promise<void> } | undefined): {
  readonly db: TestDatabase;
} {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await pgliteBackend.create();
  });
  afterEach(async () => {
    await current()?.close(false);
    if (db) await clearDatabase(db.pool);
  });
  afterAll(async () => db?.close());
  return {
    get db() {
      if (!db) throw new Error("sharedDatabase: used outside a test");
      return db;
    },
  };
}

/** Moves a fake clock forward to `atMs` (never back). */
export function clockTo(clock: FakeClock, atMs: number): void {
  if (atMs > clock.now()) clock.advance(atMs - clock.now());
}

/**
 * The WhatsApp harness plus the scheduler on the same fake clock: `pass()` runs one due pass as a
 * cron tick would, and waiting for a send slot moves the clock instead of sleeping.
 */
export async function createSchedulerHarness(
  options: WhatsAppHarnessOptions & { start?: string; instance?: { reminders?: boolean } } = {},
) {
  const clock = options.clock ?? fakeClock(options.start ?? "2026-03-02T07:00:00Z");
  // Household messages go out through this harness's reminder service, as on the server.
  const late: { reminders?: ReminderService } = {};
  const harness = await createWhatsAppHarness({
    ...options,
    clock,
    deliver: (deliveries) => late.reminders?.send(deliveries) ?? Promise.resolve(),
  });
  const { reminders, scheduler } = schedulerServicesOn(
    harness.db.pool,
    {
      sender: harness.whatsapp.sender,
      llm: harness.memo.llm,
      logger: harness.logger,
      clock: clock.now,
      sleepUntil: (atMs) => Promise.resolve(clockTo(clock, atMs)),
      settings: harness.config.scheduler,
    },
    {
      memory: harness.memo.memory,
      logger: harness.logger,
      clock: clock.now,
      retentionDays: harness.config.scheduler.retentionDays,
      memoryJobs: createMemoryJobs(harness.memo.longTerm, harness.memo.notes),
      undoWindowMs: harness.config.undoWindowMinutes * 60_000,
    },
  );
  late.reminders = reminders;
  harness.whatsapp.onDeliveryFailed((update) => reminders.onDeliveryFailed(update));
  // As the server does: today's calendar events join the digest.
  reminders.addDigestSource(calendarDigestSource(harness.memo.calendars));
  const tasks = new PgTaskRepository(harness.db.pool);
  /** Schedulers of the extra instances, stopped by close(). */
  const instances: SchedulerService[] = [];

  return {
    ...harness,
    clock,
    reminders,
    scheduler,
    tasks,
    /**
     * A known user who wrote to Memo just now (inside WhatsApp's 24-hour window), unless
     * `inbound` says when they last wrote (null: never).
     */
    async user(
      phone: string,
      options: { language?: "he" | "en"; timeZone?: string; inbound?: number | null } = {},
    ) {
      const user = await harness.memo.users.getOrCreate(phone, {
        timeZone: options.timeZone ?? "Asia/Jerusalem",
        language: options.language ?? "en",
      });
      const inbound = options.inbound === undefined ? clock.now() : options.inbound;
      if (inbound !== null) await harness.memo.users.recordInbound(phone, new Date(inbound));
      return user;
    },
    /** One due pass, as the minute's cron tick runs it. */
    pass: () => reminders.runDue(),
    /** Sets the clock to an ISO instant or epoch ms (forward only). */
    at(when: string | number) {
      clockTo(clock, typeof when === "string" ? Date.parse(when) : when);
    },
    /** A task stored as is (fields given directly). */
    addTask(phone: string, task: Partial<NewTask> & { text: string }): Promise<Task> {
      return tasks.create(phone, `test:${randomUUID()}`, { timeZone: "Asia/Jerusalem", ...task });
    },
    /** A reminder made from the resolver's time words, the way a conversation makes one. */
    async remind(
      phone: string,
      text: string,
      words: TaskTimeArgs,
      timeZone = "Asia/Jerusalem",
    ): Promise<Task> {
      const scheduled = scheduleTask(words, { nowMs: clock.now(), timeZone });
      if (!scheduled.ok) throw new Error(`unschedulable: ${scheduled.problem} (${scheduled.phrase})`);
      const { dateOnly, ...schedule } = scheduled.schedule;
      return tasks.create(phone, `test:${randomUUID()}`, {
        text,
        timeZone,
        ...schedule,
        ...(dateOnly ? { reminderDetails: { dateOnly: true } } : {}),
      });
    },
    /** What reached `phone`, in order (text, button body or template parameter). */
    sentTo: (phone: string) => harness.graphApi.textsTo(phone),
    /** The delivery ledger rows of `phone`. */
    ledger: (phone: string) => reminders.deliveries.listFor(phone),
    /**
     * Another scheduler instance on this database and fake Graph API: a second process, or this
     * one after a restart. `realTimers`: it waits with real timers (stoppable) instead of moving
     * the fake clock; `clock`: its own clock (e.g. Date.now); `sender`: its own sender (null: none).
     */
    instance(overrides: { clock?: () => number; realTimers?: boolean; sender?: WhatsAppSender | null } = {}) {
      const now = overrides.clock ?? clock.now;
      const { reminders: other, scheduler: otherScheduler } = schedulerServicesOn(
        harness.db.pool,
        {
          sender: overrides.sender === undefined ? harness.whatsapp.sender : overrides.sender,
          llm: harness.memo.llm,
          logger: harness.logger,
          clock: now,
          ...(overrides.realTimers
            ? {}
            : { sleepUntil: (atMs: number) => Promise.resolve(clockTo(clock, atMs)) }),
          settings: harness.config.scheduler,
        },
        {
          memory: harness.memo.memory,
          logger: harness.logger,
          clock: now,
          retentionDays: harness.config.scheduler.retentionDays,
        },
      );
      instances.push(otherScheduler);
      return { reminders: other, scheduler: otherScheduler };
    },
    /**
     * A sender on the same fake Graph API whose client retries without waiting (its backoff
     * sleeps are recorded in `sleeps`), so tests of failing sends take no real time.
     */
    fastRetrySender(sleeps: number[] = []): WhatsAppSender {
      const { whatsapp } = harness.config;
      const client = new GraphApiClient({
        baseUrl: () => harness.graphApi.baseUrl,
        apiVersion: whatsapp.apiVersion,
        phoneNumberId: whatsapp.phoneNumberId,
        accessToken: whatsapp.accessToken,
        timeoutMs: whatsapp.timeoutMs,
        maxRetries: 3,
        logger: harness.logger,
        sleep: (ms) => {
          sleeps.push(ms);
          return Promise.resolve();
        },
      });
      return new WhatsAppSender({
        client,
        outbound: harness.whatsapp.outbound,
        memory: harness.memo.memory,
        logger: harness.logger,
      });
    },
    async close(closeDb = true) {
      for (const other of instances) await other.stop();
      await scheduler.stop();
      await harness.close(closeDb);
    },
  };
}

export type SchedulerHarness = Awaited<ReturnType<typeof createSchedulerHarness>>;
