import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CLAIM_LEASE_MS } from "../../src/config/lifetimes.js";
import { SchedulerRepository } from "../../src/db/repositories/schedulerRepository.js";
import { MAX_ATTEMPTS } from "../../src/services/reminder/reminderDelivery.js";
import type { ReminderService } from "../../src/services/reminder/reminderService.js";
import type { WhatsAppSender } from "../../src/transport/whatsapp/whatsAppSender.js";
import { fakeClock } from "../support/clock.js";
import { backends, pgliteBackend, type TestBackend, type TestDatabase } from "../support/db.js";
import { FakeGraphApi, textOf } from "../support/fakeGraphApi.js";
import { clearDatabase, createSchedulerHarness, type SchedulerHarness } from "../support/schedulerHarness.js";
import { ACCESS_TOKEN } from "../support/whatsappHarness.js";

/**
 * Issue #7, D8: every occurrence of a reminder reaches the user exactly once, whatever the number
 * of instances ticking together, and after a crash (but for the one documented resend window).
 */

const MINUTE = 60_000;
const PHONE = "972501234567";

/** Harnesses and fakes to close after each test, last opened first. */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** One PGlite database for the single-instance tests of this file, emptied before each. */
let shared: TestDatabase | undefined;
afterAll(async () => shared?.close());

async function harness(): Promise<SchedulerHarness> {
  shared ??= await pgliteBackend.create();
  await clearDatabase(shared.pool);
  const h = await createSchedulerHarness({ db: shared, start: "2026-03-02T07:00:00Z", startWorker: false });
  cleanups.push(() => h.close(false));
  return h;
}

/** The database seen through a pool of its own: what a second process on the same server has. */
function secondConnection(db: TestDatabase): TestDatabase {
  if (db.kind === "pglite") return { ...db, close: () => Promise.resolve() };
  const pool = new pg.Pool({ connectionString: db.pool.options.connectionString, max: 5 });
  pool.on("error", () => undefined);
  return { kind: db.kind, pool, close: () => pool.end() };
}

/**
 * Two instances (own runtime, scheduler and, on Postgres, own connection pool) on one database,
 * one fake Graph API and one clock. Closed in the right order after the test.
 */
async function twoInstances(backend: TestBackend, start: string) {
  const db = await backend.create();
  const graphApi = await FakeGraphApi.start({ accessToken: ACCESS_TOKEN });
  const clock = fakeClock(start);
  const other = secondConnection(db);
  const a = await createSchedulerHarness({ db, graphApi, clock, startWorker: false });
  const b = await createSchedulerHarness({ db: other, graphApi, clock, startWorker: false });
  cleanups.push(async () => {
    await a.close();
    await graphApi.close();
  });
  cleanups.push(() => b.close(db.kind === "postgres"));
  return { db, graphApi, clock, a, b };
}

/** Resolves with `promise`, or fails the test when it has not settled within `ms` (a claim that waited on a lock). */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface LedgerRow {
  key: string;
  user_phone: string;
  kind: string;
  task_id: string | null;
  status: string;
  wa_message_id: string | null;
  part_of: string | null;
}

describe.each(backends)("two instances on one database [$name]", (backend) => {
  it("tick together for an hour: every occurrence of every kind is sent exactly once", async () => {
    // 07:30 in Jerusalem: the morning digests (08:00) fall inside the hour as well.
    const start = Date.parse("2026-03-02T05:30:00Z");
    const end = start + 60 * MINUTE;
    const { db, graphApi, clock, a, b } = await twoInstances(backend, "2026-03-02T05:30:00Z");

    const users = Array.from({ length: 8 }, (_, i) => `97250000100${i}`);
    /** Occurrences each task should have rung in the hour, by task id. */
    const expected = new Map<string, { text: string; times: number }>();
    const expectRings = (task: { id: string; text: string }, times: number) =>
      expected.set(task.id, { text: task.text, times });
    /** Reminders more than a day overdue: gathered into "while I was away" messages. */
    const longOverdue: { id: string; text: string; phone: string }[] = [];
    for (const [i, phone] of users.entries()) {
      await a.user(phone);
      expectRings(await a.remind(phone, `u${i} once`, { dueDate: `in ${3 + i} minutes` }), 1);
      // A lead time: the early ring, then the overdue notice at the due time.
      expectRings(
        await a.remind(phone, `u${i} early`, { dueDate: "in 40 minutes", reminder: "10 minutes" }),
        2,
      );
      expectRings(
        await a.remind(phone, `u${i} daily`, { reminderRecurrence: { type: "daily", time: "08:15" } }),
        1,
      );
      expectRings(
        await a.remind(phone, `u${i} weekly`, {
          reminderRecurrence: { type: "weekly", days: [1], time: "08:20" },
        }),
        1,
      );
      // 07:37, 07:44 … 08:26 local: eight rings, the ninth falls after the hour.
      expectRings(
        await a.remind(phone, `u${i} nudge`, {
          reminderRecurrence: { type: "nudge", interval: "7 minutes" },
        }),
        8,
      );
    }
    // Several due at the same minute for one user: each gets its own send slot.
    expectRings(await a.remind(users[0]!, "u0 also", { dueDate: "in 3 minutes" }), 1);
    expectRings(await a.remind(users[0]!, "u0 third", { dueDate: "in 3 minutes" }), 1);
    for (const phone of users.slice(0, 3)) {
      for (const n of [1, 2]) {
        const task = await a.addTask(phone, {
          text: `${phone.slice(-1)} missed ${n}`,
          dueAt: new Date(start - (48 + n) * 60 * MINUTE).toISOString(),
          nextFireAt: new Date(start - (48 + n) * 60 * MINUTE).toISOString(),
        });
        longOverdue.push({ id: task.id, text: task.text, phone });
      }
    }

    const reports = { a: 0, b: 0 };
    const repo = new SchedulerRepository(db.pool);
    for (let tick = start; tick <= end;) {
      a.at(tick);
      const [ra, rb] = await Promise.all([a.pass(), b.pass()]);
      reports.a += ra.sent;
      reports.b += rb.sent;
      // The next tick: the next minute, or a ring due before it (what the wake timer does).
      const now = clock.now();
      const nextMinute = (Math.floor(now / MINUTE) + 1) * MINUTE;
      tick = (await repo.nextDueBetween(now, nextMinute, CLAIM_LEASE_MS)) ?? nextMinute;
    }

    const { rows } = await db.pool.query<LedgerRow>(
      "SELECT key, user_phone, kind, task_id, status, wa_message_id, part_of FROM reminder_deliveries",
    );
    const sentRows = rows.filter((r) => r.status !== "covered");
    // Nothing failed, nothing left half-sent.
    expect(sentRows.filter((r) => r.status !== "sent")).toEqual([]);

    // The Graph API got exactly one message per ledger row, and nothing else.
    const messages = new Map(graphApi.sent.map((m) => [m.id, m]));
    expect(graphApi.sent).toHaveLength(sentRows.length);
    expect(new Set(sentRows.map((r) => r.wa_message_id))).toEqual(new Set(messages.keys()));
    expect(reports.a + reports.b).toBe(sentRows.length);

    // Each task rang as often as it was due in the hour, each time with its own text, to its owner.
    const rings = new Map<string, number>();
    for (const row of sentRows.filter((r) => r.task_id !== null)) {
      const message = messages.get(row.wa_message_id!)!;
      expect(textOf(message)).toContain(expected.get(row.task_id!)!.text);
      expect(message.to).toBe(row.user_phone);
      rings.set(row.task_id!, (rings.get(row.task_id!) ?? 0) + 1);
    }
    expect(Object.fromEntries([...rings].map(([id, n]) => [expected.get(id)!.text, n]))).toEqual(
      Object.fromEntries([...expected.values()].map((e) => [e.text, e.times])),
    );

    // One morning digest per user.
    const digests = sentRows.filter((r) => r.kind === "digest");
    expect(digests.map((r) => r.user_phone).sort()).toEqual(users);

    // Every long-overdue reminder is told once, inside a "while I was away" message that was sent.
    for (const task of longOverdue) {
      const covered = rows.filter((r) => r.task_id === task.id);
      expect(covered).toHaveLength(1);
      const away = sentRows.find((r) => r.key === covered[0]!.part_of);
      expect(away).toMatchObject({ kind: "away", status: "sent", user_phone: task.phone });
      expect(textOf(messages.get(away!.wa_message_id!)!)).toContain(task.text);
    }
  }, 60_000);

  it.runIf(backend.name === "postgres")(
    "a claim skips the rows another instance holds, without waiting, and takes them once they are free",
    async () => {
      const { db, a, b } = await twoInstances(backend, "2026-03-02T07:00:00Z");
      const busy = "972501110001";
      const free = "972501110002";
      await a.user(busy);
      await a.user(free);
      await a.remind(busy, "held", { dueDate: "in 2 minutes" });
      await a.remind(free, "free", { dueDate: "in 2 minutes" });
      a.at("2026-03-02T07:02:00Z");

      // Another instance is in the middle of claiming the busy user's task.
      const holder = await db.pool.connect();
      try {
        await holder.query("BEGIN");
        await holder.query("SELECT id FROM tasks WHERE user_phone = $1 FOR UPDATE", [busy]);
        const first = await within(b.reminders.claimRings(randomUUID(), 100), 3_000, "a claim");
        expect(first.deliveries.map((d) => d.content)).toMatchObject([{ text: "free" }]);
        await holder.query("ROLLBACK");
      } finally {
        holder.release();
      }
      const second = await b.reminders.claimRings(randomUUID(), 100);
      expect(second.deliveries.map((d) => d.content)).toMatchObject([{ text: "held" }]);
      expect((await b.reminders.claimRings(randomUUID(), 100)).deliveries).toEqual([]);
    },
  );

  it("claiming in small batches side by side: every due ring is claimed by exactly one instance", async () => {
    const { a, b } = await twoInstances(backend, "2026-03-02T07:00:00Z");
    const phones = Array.from({ length: 6 }, (_, i) => `97250222000${i}`);
    for (const phone of phones) {
      await a.user(phone);
      for (let n = 0; n < 5; n++)
        await a.remind(phone, `${phone.slice(-1)}-${n}`, { dueDate: "in 2 minutes" });
    }
    a.at("2026-03-02T07:02:00Z");
    const claimAll = async (reminders: ReminderService) => {
      const keys: string[] = [];
      for (;;) {
        const { locked, deliveries } = await reminders.claimRings(randomUUID(), 2);
        keys.push(...deliveries.map((d) => d.key));
        if (locked === 0) return keys;
      }
    };
    const [fromA, fromB] = await Promise.all([claimAll(a.reminders), claimAll(b.reminders)]);
    const all = [...fromA, ...fromB];
    expect(all).toHaveLength(30);
    expect(new Set(all).size).toBe(30);
  });
});

describe("a crash", () => {
  it("after claiming, before sending: the reminder is sent once, after the claim lease", async () => {
    const h = await harness();
    await h.user(PHONE);
    await h.remind(PHONE, "take the pills", { dueDate: "in 2 minutes" });
    h.at("2026-03-02T07:02:00Z");

    // The crashed instance claimed the occurrence and died before sending it.
    const crashed = h.instance();
    const claim = await crashed.reminders.claimRings(randomUUID(), 100);
    expect(claim.deliveries).toHaveLength(1);

    // The restarted service: the claim may still be alive (a slow instance), so not yet.
    const restarted = h.instance();
    expect(await restarted.reminders.runDue()).toMatchObject({ claimed: 0, sent: 0 });
    h.at(Date.parse("2026-03-02T07:02:00Z") + CLAIM_LEASE_MS - 1_000);
    expect(await restarted.reminders.runDue()).toMatchObject({ sent: 0 });
    expect(h.sentTo(PHONE)).toEqual([]);

    // Past the lease: taken over and sent, saying it comes late.
    h.at(Date.parse("2026-03-02T07:02:00Z") + CLAIM_LEASE_MS + 1_000);
    expect(await restarted.reminders.runDue()).toMatchObject({ reclaimed: 1, sent: 1 });
    for (let i = 0; i < 3; i++) {
      h.at(h.clock.now() + CLAIM_LEASE_MS + MINUTE);
      await restarted.reminders.runDue();
    }
    const texts = h.sentTo(PHONE);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/^⏰ Reminder: take the pills\n\(.*5 minutes late.*\)$/);
    expect(await h.ledger(PHONE)).toMatchObject([{ status: "sent", via: "text", attempts: 1 }]);
  });

  /** A sender that sends, then the process dies: before the ledger heard of it, or right after. */
  function dyingSender(h: SchedulerHarness, when: "before recording" | "after recording"): WhatsAppSender {
    const real = h.whatsapp.sender;
    const dying: Pick<WhatsAppSender, "send" | "sendTemplate"> = {
      async send(phone, content, options) {
        await real.send(
          phone,
          content,
          when === "before recording" ? { ...options, onAccepted: undefined } : options,
        );
        return new Promise<never>(() => undefined);
      },
      sendTemplate: () => new Promise<never>(() => undefined),
    };
    return dying as WhatsAppSender;
  }

  it("between the Graph API accepting and the ledger recording it: resent after the lease (the documented window)", async () => {
    const h = await harness();
    await h.user(PHONE);
    await h.remind(PHONE, "call the bank", { dueDate: "in 2 minutes" });
    h.at("2026-03-02T07:02:00Z");

    const crashed = h.instance({ sender: dyingSender(h, "before recording") });
    void crashed.reminders.runDue();
    await h.graphApi.waitForSent(1);

    const restarted = h.instance();
    expect(await restarted.reminders.runDue()).toMatchObject({ sent: 0 });
    h.at(h.clock.now() + CLAIM_LEASE_MS + 1_000);
    expect(await restarted.reminders.runDue()).toMatchObject({ reclaimed: 1, sent: 1 });
    // The one way a reminder reaches a user twice: the send was never recorded.
    expect(h.sentTo(PHONE)).toHaveLength(2);
    const [row] = await h.ledger(PHONE);
    expect(row).toMatchObject({ status: "sent", waMessageId: h.graphApi.sent[1]!.id });
  });

  it("right after the ledger recorded the send: never resent", async () => {
    const h = await harness();
    await h.user(PHONE);
    await h.remind(PHONE, "call the bank", { dueDate: "in 2 minutes" });
    h.at("2026-03-02T07:02:00Z");

    const crashed = h.instance({ sender: dyingSender(h, "after recording") });
    void crashed.reminders.runDue();
    await h.graphApi.waitForSent(1);
    await expect.poll(async () => (await h.ledger(PHONE))[0]?.status).toBe("sent");

    const restarted = h.instance();
    for (let i = 0; i < 3; i++) {
      h.at(h.clock.now() + CLAIM_LEASE_MS + MINUTE);
      expect(await restarted.reminders.runDue()).toMatchObject({ claimed: 0, sent: 0 });
    }
    expect(h.sentTo(PHONE)).toEqual(["⏰ Reminder: call the bank"]);
    expect(await h.ledger(PHONE)).toMatchObject([{ status: "sent", waMessageId: h.graphApi.sent[0]!.id }]);
  });
});

describe("a failing Graph API", () => {
  /** A harness whose reminders are sent by a client that retries without waiting. */
  async function failing() {
    const h = await harness();
    const sleeps: number[] = [];
    const { reminders } = h.instance({ sender: h.fastRetrySender(sleeps) });
    await h.user(PHONE);
    await h.remind(PHONE, "water the plants", { dueDate: "in 2 minutes" });
    h.at("2026-03-02T07:02:00Z");
    const sends = () => h.graphApi.requests.filter((r) => r.path.endsWith("/messages")).length;
    return { h, reminders, sleeps, sends };
  }

  it("an outage (HTTP 500 after the client's own retries) is retried on later passes, and sent once it ends", async () => {
    const { h, reminders, sleeps, sends } = await failing();
    // Two passes' worth of failures: the client tries four times per pass.
    h.graphApi.failNext(8, { status: 500 });
    expect(await reminders.runDue()).toMatchObject({ sent: 0, failed: 0 });
    expect(sends()).toBe(4);
    expect(sleeps).toHaveLength(3);
    expect(await h.ledger(PHONE)).toMatchObject([
      { status: "sending", attempts: 1, error: expect.stringContaining("HTTP 500") as string },
    ]);

    // Not again at once: a minute later.
    await reminders.runDue();
    expect(sends()).toBe(4);
    h.at(h.clock.now() + MINUTE + 1_000);
    expect(await reminders.runDue()).toMatchObject({ reclaimed: 1, sent: 0 });
    expect(sends()).toBe(8);
    h.at(h.clock.now() + MINUTE + 1_000);
    expect(await reminders.runDue()).toMatchObject({ reclaimed: 1, sent: 1 });
    expect(h.sentTo(PHONE)).toHaveLength(1);
    expect(h.sentTo(PHONE)[0]).toMatch(/^⏰ Reminder: water the plants/);
    expect(await h.ledger(PHONE)).toMatchObject([{ status: "sent", attempts: 3, error: null }]);
  });

  it(`an outage longer than ${MAX_ATTEMPTS} attempts fails the delivery for good`, async () => {
    const { h, reminders, sends } = await failing();
    h.graphApi.failNext(4 * MAX_ATTEMPTS + 4, { status: 500 });
    for (let i = 0; i < MAX_ATTEMPTS + 3; i++) {
      await reminders.runDue();
      h.at(h.clock.now() + MINUTE + 1_000);
    }
    expect(sends()).toBe(4 * MAX_ATTEMPTS);
    expect(await h.ledger(PHONE)).toMatchObject([
      { status: "failed", attempts: MAX_ATTEMPTS, error: expect.stringContaining("HTTP 500") as string },
    ]);
    expect(h.sentTo(PHONE)).toEqual([]);
  });

  it("a refusal (HTTP 400) fails the delivery at once, never retried", async () => {
    const { h, reminders, sends } = await failing();
    h.graphApi.failNext(1, { status: 400, code: 100, message: "(#100) Invalid parameter" });
    expect(await reminders.runDue()).toMatchObject({ sent: 0, failed: 1 });
    for (let i = 0; i < 3; i++) {
      h.at(h.clock.now() + CLAIM_LEASE_MS + MINUTE);
      await reminders.runDue();
    }
    expect(sends()).toBe(1);
    expect(await h.ledger(PHONE)).toMatchObject([
      { status: "failed", attempts: 1, error: expect.stringContaining("HTTP 400") as string },
    ]);
  });
});
