import { randomUUID } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ProactivePacer } from "../../src/services/reminder/proactivePacer.js";
import { fakeClock } from "../support/clock.js";
import { backends, pgliteBackend, type TestDatabase } from "../support/db.js";
import {
  clearDatabase,
  clockTo,
  createSchedulerHarness,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";

/**
 * WhatsApp's pace (issue #7): at least PROACTIVE_USER_GAP_SECONDS (6) between proactive messages
 * to the same user, across passes and instances; at most PROACTIVE_MAX_PER_SECOND (80) a second.
 */

const SECOND = 1000;
const START = "2026-03-02T07:00:00Z";
const at = (iso: string) => new Date(Date.parse(iso)).toISOString();

let shared: TestDatabase | undefined;
/** A database of one test's own (a backend leg), closed after it. */
let own: TestDatabase | undefined;
let h: SchedulerHarness | undefined;
afterEach(async () => {
  await h?.close(false);
  h = undefined;
  await own?.close();
  own = undefined;
});
afterAll(async () => shared?.close());

/** A harness on the file's shared database (emptied), or on `db`. */
async function harness(env: Record<string, string> = {}, db?: TestDatabase): Promise<SchedulerHarness> {
  if (!db) {
    shared ??= await pgliteBackend.create();
    await clearDatabase(shared.pool);
  }
  h = await createSchedulerHarness({ db: db ?? shared, start: START, env, startWorker: false });
  return h;
}

/** Gaps between consecutive sends to `phone`, by the scheduler's clock (ms). */
async function gapsOf(h: SchedulerHarness, phone: string): Promise<number[]> {
  const times = (await h.ledger(phone))
    .filter((r) => r.status === "sent")
    .map((r) => r.sentAt!)
    .sort((a, b) => a - b);
  return times.slice(1).map((t, i) => t - times[i]!);
}

describe("the gap between messages to one user", () => {
  it("is at least 6 s, in due order, and other users are not held behind it", async () => {
    const h = await harness();
    const busy = "972501000001";
    const other = "972501000002";
    await h.user(busy);
    await h.user(other);
    for (const [n, second] of ["00", "10", "20", "30"].entries())
      await h.addTask(busy, { text: `busy ${n + 1}`, nextFireAt: at(`2026-03-02T07:02:${second}Z`) });
    await h.addTask(other, { text: "other 1", nextFireAt: at("2026-03-02T07:02:00Z") });
    await h.addTask(other, { text: "other 2", nextFireAt: at("2026-03-02T07:02:05Z") });
    h.at("2026-03-02T07:03:00Z");
    expect(await h.pass()).toMatchObject({ sent: 6 });

    expect(h.sentTo(busy)).toEqual(["busy 1", "busy 2", "busy 3", "busy 4"].map((t) => `⏰ Reminder: ${t}`));
    for (const gap of await gapsOf(h, busy)) expect(gap).toBeGreaterThanOrEqual(6 * SECOND);
    for (const gap of await gapsOf(h, other)) expect(gap).toBeGreaterThanOrEqual(6 * SECOND);
    // The other user's first message went before the busy user's second.
    const order = h.graphApi.sent.map((m) => m.to);
    const busyAt = order.flatMap((to, i) => (to === busy ? [i] : []));
    expect(order.indexOf(other)).toBeLessThan(busyAt[1]!);
  });

  it("a user with many at once never holds up the pass: slots more than 30 s ahead wait for later passes", async () => {
    const h = await harness();
    const busy = "972501000011";
    const other = "972501000012";
    await h.user(busy);
    await h.user(other);
    for (let n = 1; n <= 8; n++)
      await h.addTask(busy, { text: `busy ${n}`, nextFireAt: at("2026-03-02T07:02:00Z") });
    h.at("2026-03-02T07:02:00Z");
    // Slots :00 … :42; those past :30 are handed back, not waited for.
    expect(await h.pass()).toMatchObject({ sent: 6, deferred: 2 });
    expect(h.clock.now()).toBeLessThanOrEqual(Date.parse("2026-03-02T07:02:31Z"));

    // Another user's reminder due meanwhile goes at once, not behind the busy user's queue.
    await h.addTask(other, { text: "other", nextFireAt: at("2026-03-02T07:02:32Z") });
    h.at("2026-03-02T07:02:32Z");
    expect(await h.pass()).toMatchObject({ sent: 1 });
    expect(h.sentTo(other)).toEqual(["⏰ Reminder: other"]);

    // The wake timer (or the next tick) sends the rest in their slots, each once.
    h.at("2026-03-02T07:02:36Z");
    expect(await h.pass()).toMatchObject({ sent: 1, reclaimed: 1 });
    h.at("2026-03-02T07:02:42Z");
    expect(await h.pass()).toMatchObject({ sent: 1, reclaimed: 1 });
    await h.pass();
    expect(h.sentTo(busy)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `⏰ Reminder: busy ${n}`));
    for (const gap of await gapsOf(h, busy)) expect(gap).toBeGreaterThanOrEqual(6 * SECOND);
  });

  it("follows PROACTIVE_USER_GAP_SECONDS", async () => {
    const h = await harness({ PROACTIVE_USER_GAP_SECONDS: "15" });
    const phone = "972501000003";
    await h.user(phone);
    for (let n = 1; n <= 3; n++) await h.remind(phone, `task ${n}`, { dueDate: "in 2 minutes" });
    h.at("2026-03-02T07:02:00Z");
    await h.pass();
    expect(await gapsOf(h, phone)).toEqual([15 * SECOND, 15 * SECOND]);
  });

  it("holds across passes and across instances: the next free slot is kept in the database", async () => {
    const h = await harness();
    const phone = "972501000004";
    await h.user(phone);
    for (let n = 1; n <= 3; n++)
      await h.addTask(phone, { text: `first ${n}`, nextFireAt: at("2026-03-02T07:02:00Z") });
    h.at("2026-03-02T07:02:00Z");
    await h.pass();
    // Sent at :00, :06 and :12; the next slot is :18. One more comes due at :13, claimed by
    // another instance, which never saw those sends.
    await h.addTask(phone, { text: "second", nextFireAt: at("2026-03-02T07:02:13Z") });
    h.at("2026-03-02T07:02:13Z");
    const other = h.instance();
    expect(await other.reminders.runDue()).toMatchObject({ sent: 1 });

    const rows = await h.ledger(phone);
    expect(rows.at(-1)).toMatchObject({ status: "sent", sentAt: Date.parse("2026-03-02T07:02:18Z") });
    for (const gap of await gapsOf(h, phone)) expect(gap).toBeGreaterThanOrEqual(6 * SECOND);
  });

  it("is measured between actual sends: a message held back by the overall pace pushes the user's next one back", async () => {
    // One message a second: the eighth user's first message goes 7 s late, past their second one's slot.
    const h = await harness({ PROACTIVE_MAX_PER_SECOND: "1" });
    const phones = Array.from({ length: 8 }, (_, i) => `97250200000${i}`);
    for (const phone of phones) {
      await h.user(phone);
      await h.remind(phone, "first", { dueDate: "in 2 minutes" });
      await h.remind(phone, "second", { dueDate: "in 2 minutes" });
    }
    h.at("2026-03-02T07:02:00Z");
    const first = await h.pass();
    // At one a second, the last users' second messages fall past the pass's 30 s horizon: handed
    // back, they go on the next pass, still at least the gap after the first.
    expect(first.sent + first.deferred).toBe(16);
    h.at("2026-03-02T07:03:00Z");
    expect((await h.pass()).sent).toBe(first.deferred);
    for (const phone of phones) {
      const gaps = await gapsOf(h, phone);
      expect(gaps).toHaveLength(1);
      expect(gaps[0]).toBeGreaterThanOrEqual(6 * SECOND);
    }
  });
});

describe.each(backends)("two instances claiming one user's reminders at once [$name]", (backend) => {
  it("give them distinct slots, one gap apart", async () => {
    own = await backend.create();
    {
      const h = await harness({}, own);
      const phone = "972501000005";
      await h.user(phone);
      for (let n = 1; n <= 6; n++) await h.remind(phone, `task ${n}`, { dueDate: "in 2 minutes" });
      h.at("2026-03-02T07:02:00Z");
      const other = h.instance();
      const [a, b] = await Promise.all([
        h.reminders.claimRings(randomUUID(), 3),
        other.reminders.claimRings(randomUUID(), 3),
      ]);
      const slots = [...a.deliveries, ...b.deliveries].map((d) => d.sendAfter).sort((x, y) => x - y);
      const start = Date.parse("2026-03-02T07:02:00Z");
      expect(slots).toEqual([0, 6, 12, 18, 24, 30].map((s) => start + s * SECOND));

      await Promise.all([h.reminders.send(a.deliveries), other.reminders.send(b.deliveries)]);
      // The two share one fake clock, so each one's waits push the other's sends back: what went
      // past the pass's horizon was handed back, and the next pass sends it.
      h.at("2026-03-02T07:03:00Z");
      await h.pass();
      expect(h.sentTo(phone).sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `⏰ Reminder: task ${n}`));
    }
  });
});

describe("the overall pace", () => {
  it("never starts more than PROACTIVE_MAX_PER_SECOND sends in any second, and does not burst after a lull", async () => {
    const clock = fakeClock(START);
    const slots: number[] = [];
    const pacer = new ProactivePacer({
      perSecond: 80,
      clock: clock.now,
      sleepUntil: (atMs) => {
        clockTo(clock, atMs);
        return Promise.resolve();
      },
    });
    /** Each send waits for its turn, then notes when it started (the clock moved to its slot). */
    const sendMany = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await pacer.acquire();
        slots.push(clock.now());
      }
    };
    // 400 sends asked for at once, then 100 more after ten quiet seconds.
    await sendMany(400);
    clock.advance(10 * SECOND);
    await sendMany(100);

    expect(slots).toHaveLength(500);
    expect(slots[0]).toBe(Date.parse(START));
    for (let i = 0; i + 80 < slots.length; i++)
      expect(slots[i + 80]! - slots[i]!).toBeGreaterThanOrEqual(SECOND);
    // 400 at 80 a second take five seconds, not more.
    expect(slots[399]! - slots[0]!).toBeLessThan(5 * SECOND);
  });

  it("spaces real sends to the Graph API (PROACTIVE_MAX_PER_SECOND=10)", async () => {
    const h = await harness({ PROACTIVE_MAX_PER_SECOND: "10" });
    const phones = Array.from({ length: 20 }, (_, i) => `9725030000${String(i).padStart(2, "0")}`);
    for (const phone of phones) {
      await h.user(phone, { inbound: Date.now() });
      await h.addTask(phone, { text: "now", nextFireAt: new Date(Date.now() - SECOND).toISOString() });
    }
    const live = h.instance({ clock: Date.now, realTimers: true });
    expect(await live.reminders.runDue()).toMatchObject({ sent: 20 });

    const arrivals = h.graphApi.sent.map((m) => m.at);
    expect(new Set(h.graphApi.sent.map((m) => m.to)).size).toBe(20);
    // 20 sends at 10 a second: about two seconds, never 11 within one (timers may run a little late).
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual(1_800);
    for (let i = 0; i + 10 < arrivals.length; i++)
      expect(arrivals[i + 10]! - arrivals[i]!).toBeGreaterThanOrEqual(900);
  });
});
