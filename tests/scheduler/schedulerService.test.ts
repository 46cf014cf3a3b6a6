import cron from "node-cron";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { pgliteBackend, type TestDatabase } from "../support/db.js";
import { clearDatabase, createSchedulerHarness, type SchedulerHarness } from "../support/schedulerHarness.js";
import { PgUndoRepository } from "../../src/db/repositories/undoRepository.js";

/**
 * The cron side of the scheduler (issue #7): jobs started with the server and stopped on
 * shutdown, a first pass at start, the wake timer for rings due before the next tick, the hourly
 * and daily clean-up, and errors that are logged but never escape.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PHONE = "972501234567";
const START = "2026-03-02T07:00:00Z";
const DUE = "2026-03-02T07:02:00Z";

let shared: TestDatabase | undefined;
let h: SchedulerHarness | undefined;
afterEach(async () => {
  await h?.close(false);
  h = undefined;
});
afterAll(async () => shared?.close());

async function harness(env: Record<string, string> = {}): Promise<SchedulerHarness> {
  shared ??= await pgliteBackend.create();
  await clearDatabase(shared.pool);
  h = await createSchedulerHarness({ db: shared, start: START, env, startWorker: false });
  return h;
}

/** Memo's cron jobs registered in this process: name and schedule. */
const memoJobs = () =>
  [...cron.getTasks().values()]
    .filter((task) => task.name?.startsWith("memo-"))
    .map((task) => ({ name: task.name, pattern: task.getPattern() }));

const logsOf = (h: SchedulerHarness, event: string) => h.logs().filter((l) => l.event === event);

describe("start and stop", () => {
  it("start runs a first pass at once and schedules the three jobs; stop removes them", async () => {
    const h = await harness();
    await h.user(PHONE);
    await h.remind(PHONE, "stretch", { dueDate: "in 2 minutes" });
    h.at(DUE);

    h.scheduler.start();
    h.scheduler.start();
    // What came due while the service was down goes now, not at the next minute's tick.
    await h.graphApi.waitForSent(1);
    expect(h.sentTo(PHONE)).toEqual(["⏰ Reminder: stretch"]);
    expect(memoJobs()).toEqual([
      { name: "memo-due", pattern: "* * * * *" },
      { name: "memo-hourly", pattern: "7 * * * *" },
      { name: "memo-daily", pattern: "37 3 * * *" },
    ]);

    await h.scheduler.stop();
    expect(memoJobs()).toEqual([]);
  });

  it("each job runs its work when its tick comes", async () => {
    const h = await harness();
    await h.user(PHONE);
    await h.remind(PHONE, "stretch", { dueDate: "in 2 minutes" });
    h.scheduler.start();
    // Once the first pass (nothing due yet) is over, the clock moves to the reminder's time.
    await expect.poll(() => h.scheduler.runDue()).not.toBeNull();
    h.at(DUE);

    const job = (name: string) => [...cron.getTasks().values()].find((task) => task.name === name)!;
    await job("memo-due").execute();
    await h.graphApi.waitForSent(1);
    await job("memo-hourly").execute();
    await expect.poll(() => logsOf(h, "SCHEDULER_HOURLY").length).toBe(1);
    await job("memo-daily").execute();
    await expect.poll(() => logsOf(h, "SCHEDULER_PRUNE").length).toBe(1);
    expect(h.sentTo(PHONE)).toEqual(["⏰ Reminder: stretch"]);
  });

  it("a scheduler started again after stop sends again", async () => {
    const h = await harness();
    await h.user(PHONE);
    const live = h.instance({ realTimers: true });
    live.scheduler.start();
    await live.scheduler.stop();
    await h.remind(PHONE, "stretch", { dueDate: "in 2 minutes" });
    h.at(DUE);
    live.scheduler.start();
    await h.graphApi.waitForSent(1);
    await live.scheduler.stop();
    expect(await h.ledger(PHONE)).toMatchObject([{ status: "sent" }]);
  });

  it("stop hands back what it has not sent yet, and the next pass sends it at once", async () => {
    const h = await harness();
    await h.user(PHONE);
    for (const text of ["one", "two", "three"]) await h.remind(PHONE, text, { dueDate: "in 2 minutes" });
    h.at(DUE);
    // Real waits: the second message waits 6 s for its slot when the service is told to stop.
    const live = h.instance({ realTimers: true });
    live.scheduler.start();
    await h.graphApi.waitForSent(1);

    const stopping = performance.now();
    await live.scheduler.stop();
    expect(performance.now() - stopping).toBeLessThan(2_000);
    expect((await h.ledger(PHONE)).map((r) => r.status).sort()).toEqual(["sending", "sending", "sent"]);

    // The restarted service, at the same moment: no 5-minute wait for a lease.
    const next = h.instance();
    expect(await next.reminders.runDue()).toMatchObject({ reclaimed: 2, sent: 2 });
    expect(h.sentTo(PHONE)).toEqual(["one", "two", "three"].map((t) => `⏰ Reminder: ${t}`));
  });
});

describe("the wake timer", () => {
  it("rings a reminder due in 2 seconds within a second of its time (real clock)", async () => {
    const h = await harness();
    await h.user(PHONE, { inbound: Date.now() });
    const due = Date.now() + 2_000;
    await h.addTask(PHONE, { text: "stand up", nextFireAt: new Date(due).toISOString() });
    const live = h.instance({ clock: Date.now, realTimers: true });
    live.scheduler.start();
    try {
      const [message] = await h.graphApi.waitForSent(1, 5_000);
      expect(message!.at).toBeGreaterThanOrEqual(due);
      expect(message!.at - due).toBeLessThan(1_000);
      expect(h.sentTo(PHONE)).toEqual(["⏰ Reminder: stand up"]);
    } finally {
      await live.scheduler.stop();
    }
  });
});

describe("the hourly clean-up", () => {
  it("forgets conversations idle for 12 hours and clears expired disambiguation snapshots", async () => {
    const h = await harness();
    const now = h.clock.now();
    const window = (messageAt: number, expiresAt?: number) => ({
      messages: [{ role: "user", content: "hi", timestamp: messageAt }],
      latestActions: [],
      disambiguation:
        expiresAt === undefined
          ? null
          : {
              type: "task",
              query: "dentist",
              candidates: [
                { id: "t1", displayText: "Dentist Monday" },
                { id: "t2", displayText: "Dentist Friday" },
              ],
              createdAt: expiresAt - 5 * MINUTE,
              expiresAt,
            },
      recentTasks: [],
    });
    const rows: [string, ReturnType<typeof window>, number][] = [
      ["972500000001", window(now - 13 * HOUR), now - 13 * HOUR],
      ["972500000002", window(now - 11 * HOUR), now - 11 * HOUR],
      ["972500000003", window(now - 10 * MINUTE, now - MINUTE), now - 6 * MINUTE],
      ["972500000004", window(now - 2 * MINUTE, now + 3 * MINUTE), now - 2 * MINUTE],
    ];
    for (const [phone, state, updatedAt] of rows) {
      await h.db.pool.query(
        "INSERT INTO conversation_windows (user_phone, state, updated_at) VALUES ($1, $2, $3)",
        [phone, JSON.stringify(state), new Date(updatedAt)],
      );
    }

    await h.scheduler.runHourly();

    const { rows: left } = await h.db.pool.query<{ user_phone: string; state: ReturnType<typeof window> }>(
      "SELECT user_phone, state FROM conversation_windows ORDER BY user_phone",
    );
    expect(left.map((r) => r.user_phone)).toEqual(["972500000002", "972500000003", "972500000004"]);
    const byPhone = new Map(left.map((r) => [r.user_phone, r.state]));
    expect(byPhone.get("972500000003")).toMatchObject({
      disambiguation: null,
      messages: [{ content: "hi" }],
    });
    expect(byPhone.get("972500000004")!.disambiguation).toMatchObject({ query: "dentist" });
    expect(logsOf(h, "SCHEDULER_HOURLY")).toMatchObject([{ windows: 1, disambiguations: 1 }]);
  });
});

describe("the operation ledger's clean-up", () => {
  it("hourly: drops ledger entries older than a week (no turn does it), keeping the newer ones", async () => {
    const h = await harness();
    await h.user(PHONE);
    const now = h.clock.now();
    for (const [id, age] of [
      ["old", 7 * DAY + HOUR],
      ["recent", 6 * DAY],
    ] as const) {
      await h.db.pool.query(
        "INSERT INTO database_operations (user_phone, operation_id, outcome, created_at) VALUES ($1, $2, '{}', $3)",
        [PHONE, id, new Date(now - age)],
      );
    }
    await h.scheduler.runHourly();
    const { rows } = await h.db.pool.query<{ operation_id: string }>(
      "SELECT operation_id FROM database_operations WHERE user_phone = $1",
      [PHONE],
    );
    expect(rows.map((r) => r.operation_id)).toEqual(["recent"]);
    expect(logsOf(h, "SCHEDULER_HOURLY")).toMatchObject([{ operations: 1 }]);
  });
});

describe("the daily clean-up", () => {
  it("prunes records past RETENTION_DAYS, keeping unanswered inbox messages and unfinished deliveries", async () => {
    const h = await harness({ RETENTION_DAYS: "7" });
    const now = h.clock.now();
    const old = new Date(now - 8 * DAY);
    const recent = new Date(now - 6 * DAY);
    const inbox = async (id: string, status: string, receivedAt: Date) =>
      h.db.pool.query(
        `INSERT INTO inbox_messages (wa_message_id, phone, type, sent_at, received_at, payload, status)
         VALUES ($1, $2, 'text', $3, $3, '{}', $4)`,
        [id, PHONE, receivedAt, status],
      );
    await inbox("old-done", "done", old);
    await inbox("old-pending", "pending", old);
    await inbox("recent-done", "done", recent);
    for (const [id, createdAt] of [
      ["old-out", old],
      ["recent-out", recent],
    ] as const) {
      await h.db.pool.query(
        "INSERT INTO outbound_messages (wa_message_id, phone, created_at) VALUES ($1, $2, $3)",
        [id, PHONE, createdAt],
      );
    }
    for (const [key, status, createdAt] of [
      ["old-sent", "sent", old],
      ["old-failed", "failed", old],
      ["old-sending", "sending", old],
      ["recent-sent", "sent", recent],
    ] as const) {
      await h.db.pool.query(
        `INSERT INTO reminder_deliveries (key, user_phone, kind, occurrence_at, content, send_after, status, created_at)
         VALUES ($1, $2, 'reminder', $3, '{}', $3, $4, $3)`,
        [key, PHONE, createdAt, status],
      );
    }

    await h.scheduler.runDaily();

    const ids = async (sql: string) =>
      (await h.db.pool.query<{ id: string }>(sql)).rows.map((r) => r.id).sort();
    expect(await ids("SELECT wa_message_id AS id FROM inbox_messages")).toEqual([
      "old-pending",
      "recent-done",
    ]);
    expect(await ids("SELECT wa_message_id AS id FROM outbound_messages")).toEqual(["recent-out"]);
    expect(await ids("SELECT key AS id FROM reminder_deliveries")).toEqual(["old-sending", "recent-sent"]);
    expect(logsOf(h, "SCHEDULER_PRUNE")).toMatchObject([{ inbox: 1, outbound: 1, deliveries: 2 }]);
  });
});

describe("the undo journal's clean-up", () => {
  it("each due pass drops entries expired a window ago (UNDO_WINDOW_MINUTES), with the text they copied", async () => {
    const h = await harness({ UNDO_WINDOW_MINUTES: "10" });
    await h.user(PHONE);
    const at = h.clock.now();
    const journal = new PgUndoRepository(h.db.pool);
    const note = { id: "n1", user_phone: PHONE, content: "wifi password HappyCat42" };
    await journal.record(PHONE, {
      operationId: "op-forget",
      description: { kind: "note", text: "wifi password HappyCat42" },
      images: [{ table: "notes", id: "n1", before: note, after: null }],
      now: at,
      windowMs: 10 * MINUTE,
    });
    const entries = async () => (await h.db.pool.query("SELECT operation_id FROM undo_journal")).rowCount;

    // Expired at +10 min, still there to say "too late" until a window after that.
    h.at(at + 19 * MINUTE);
    await h.scheduler.runDue();
    expect(await entries()).toBe(1);
    h.at(at + 20 * MINUTE + 1);
    await h.scheduler.runDue();
    expect(await entries()).toBe(0);
    expect(logsOf(h, "UNDO_PURGED")).toMatchObject([{ entries: 1 }]);
  });
});

describe("passes asked for while one runs", () => {
  it("are not dropped: one more pass follows at once", async () => {
    const h = await harness();
    const passes = vi.spyOn(h.reminders, "runDue");
    const [first, second] = await Promise.all([h.scheduler.runDue(), h.scheduler.runDue()]);
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    expect(passes).toHaveBeenCalledTimes(2);
  });
});

describe("errors", () => {
  it("a failing job is logged with its name, never thrown, and the next run recovers", async () => {
    const h = await harness();
    await h.user(PHONE);
    await h.remind(PHONE, "stretch", { dueDate: "in 2 minutes" });
    h.at(DUE);
    const rename = async (from: string, to: string) => h.db.pool.query(`ALTER TABLE ${from} RENAME TO ${to}`);
    await rename("reminder_deliveries", "reminder_deliveries_gone");
    await rename("conversation_windows", "conversation_windows_gone");

    await expect(h.scheduler.runDue()).resolves.toBeNull();
    await expect(h.scheduler.runHourly()).resolves.toBeUndefined();
    await expect(h.scheduler.runDaily()).resolves.toBeUndefined();
    // Started: the first pass fails in the background, and nothing escapes.
    const live = h.instance();
    live.scheduler.start();
    // The wake-up lookup after each pass reads the ledger too, and fails the same way.
    const jobFailures = () => logsOf(h, "SCHEDULER_JOB_FAILED").filter((l) => l.job !== "wake");
    await expect.poll(() => jobFailures().length).toBe(4);
    await live.scheduler.stop();
    const failures = logsOf(h, "SCHEDULER_JOB_FAILED");
    expect(jobFailures().map((l) => l.job)).toEqual(["due", "hourly", "daily", "due"]);
    expect(failures.every((l) => l.level === 50 && typeof l.err === "object")).toBe(true);
    expect(h.graphApi.sent).toEqual([]);

    await rename("reminder_deliveries_gone", "reminder_deliveries");
    await rename("conversation_windows_gone", "conversation_windows");
    expect(await h.scheduler.runDue()).toMatchObject({ sent: 1 });
    expect(h.sentTo(PHONE)).toEqual(["⏰ Reminder: stretch"]);
  });
});

describe("long-term memory jobs", () => {
  it("hourly: a user's unfinished chunks and facts are caught up (an instance stopped before its background work)", async () => {
    const h = await harness();
    await h.user(PHONE);
    const start = h.clock.now() - 2 * HOUR;
    const lines = [
      "I prefer morning meetings",
      "ok",
      "my sister Dana lives in Haifa",
      "thanks",
      // 20 messages: 10 leave the window of 10, a chunk's worth.
      ...Array.from({ length: 16 }, (_, i) => `message number ${i} about the garden`),
    ];
    for (const [i, content] of lines.entries()) {
      await h.db.pool.query(
        "INSERT INTO conversation_messages (user_phone, role, content, created_at) VALUES ($1, $2, $3, $4)",
        [PHONE, i % 2 === 0 ? "user" : "assistant", content, new Date(start + i * MINUTE)],
      );
    }

    await h.scheduler.runHourly();

    const { rows: facts } = await h.db.pool.query<{ content: string }>(
      "SELECT content FROM memories WHERE user_phone = $1",
      [PHONE],
    );
    expect(facts.map((f) => f.content).join(" | ")).toMatch(/morning meetings/i);
    const { rows: chunks } = await h.db.pool.query<{ summary: string }>(
      "SELECT summary FROM conversation_chunks WHERE user_phone = $1",
      [PHONE],
    );
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.summary).toMatch(/morning meetings/i);
    expect(logsOf(h, "MEMORY_SWEEP")).toMatchObject([{ users: 1 }]);
  });

  it("daily: decay is recomputed and old low-value facts are archived (004 consolidation)", async () => {
    const h = await harness();
    await h.user(PHONE);
    const now = h.clock.now();
    const fact = async (content: string, importance: number, ageDays: number) =>
      h.db.pool.query(
        `INSERT INTO memories (user_phone, type, content, search_text, importance, created_at, last_accessed_at)
         VALUES ($1, 'fact', $2, $2, $3, $4, $4)`,
        [PHONE, content, importance, new Date(now - ageDays * DAY)],
      );
    await fact("Has a blue bicycle", 0.5, 90);
    await fact("Goal: run a marathon", 0.8, 90);
    await fact("Likes jazz", 0.5, 2);

    await h.scheduler.runDaily();

    const { rows } = await h.db.pool.query<{ content: string; status: string; decay_factor: number }>(
      "SELECT content, status, decay_factor FROM memories WHERE user_phone = $1 ORDER BY content",
      [PHONE],
    );
    expect(rows.map((r) => [r.content, r.status])).toEqual([
      ["Goal: run a marathon", "archived"],
      ["Has a blue bicycle", "archived"],
      ["Likes jazz", "active"],
    ]);
    // 90 days unaccessed: 0.5^3 = 0.125.
    expect(rows[1]!.decay_factor).toBeCloseTo(0.125, 3);
    expect(logsOf(h, "MEMORY_CONSOLIDATION")).toMatchObject([{ archived: 2 }]);
  });
});
