import { randomUUID } from "node:crypto";
import { PgTaskRepository } from "../../src/db/repositories/TaskRepository.js";
import { scheduleTask, type TaskTimeArgs } from "../../src/services/database/taskTimes.js";
import { ReminderService } from "../../src/services/reminder/ReminderService.js";
import { SchedulerService } from "../../src/services/scheduler/SchedulerService.js";
import type { NewTask, Task } from "../../src/types/tasks.js";
import { fakeClock, type FakeClock } from "./clock.js";
import { createWhatsAppHarness, type WhatsAppHarnessOptions } from "./whatsappHarness.js";

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
  const harness = await createWhatsAppHarness({ ...options, clock });
  const reminders = new ReminderService({
    pool: harness.db.pool,
    sender: harness.whatsapp.sender,
    memory: harness.memo.memory,
    llm: harness.memo.llm,
    logger: harness.logger,
    clock: clock.now,
    sleepUntil: (atMs) => Promise.resolve(clockTo(clock, atMs)),
    settings: harness.config.scheduler,
  });
  harness.whatsapp.onDeliveryFailed((update) => reminders.onDeliveryFailed(update));
  const scheduler = new SchedulerService({
    pool: harness.db.pool,
    reminders,
    memory: harness.memo.memory,
    logger: harness.logger,
    clock: clock.now,
    retentionDays: harness.config.scheduler.retentionDays,
  });
  const tasks = new PgTaskRepository(harness.db.pool);

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
    async close(closeDb = true) {
      await scheduler.stop();
      await harness.close(closeDb);
    },
  };
}

export type SchedulerHarness = Awaited<ReturnType<typeof createSchedulerHarness>>;
