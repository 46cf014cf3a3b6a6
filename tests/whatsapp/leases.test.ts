// The per-phone leases of the inbox (D4) and the group-committed inbox writer, on their own.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  PgInboxRepository,
  type InboxRepository,
  type NewInboxMessage,
} from "../../src/db/repositories/inboxRepository.js";
import { PgPhoneLeaseRepository } from "../../src/db/repositories/phoneLeaseRepository.js";
import { InboxWriter } from "../../src/transport/whatsapp/inboxWriter.js";
import { PgPhoneLeases } from "../../src/transport/whatsapp/phoneLocks.js";
import { backends, type TestDatabase } from "../support/db.js";
import { captureLogs } from "../support/logs.js";
import { countQueries } from "../support/queryCounter.js";

describe.each(backends)("phone leases on $name", (backend) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await backend.create();
  });
  afterAll(() => db.close());

  const leases = (exclusive = false, ttlSeconds = 30) => {
    const { logger, lines } = captureLogs();
    // The leases' own monotonic clock; `stall` moves it as if the process had been paused.
    let stalledMs = 0;
    return {
      locks: new PgPhoneLeases(new PgPhoneLeaseRepository(db.pool), {
        ttlSeconds,
        exclusive,
        logger,
        elapsed: () => performance.now() + stalledMs,
      }),
      lines,
      stall: (ms: number) => {
        stalledMs += ms;
      },
    };
  };

  it("gives a phone to one holder at a time, and to the next once released", async () => {
    const a = leases().locks;
    const b = leases().locks;
    const lease = await a.tryAcquire("972500000001");
    expect(lease).not.toBeNull();
    expect(await b.tryAcquire("972500000001")).toBeNull();
    expect(await b.tryAcquire("972500000002")).not.toBeNull();
    await a.release(lease!);
    const taken = await b.tryAcquire("972500000001");
    expect(taken).not.toBeNull();
    expect(taken!.token).not.toBe(lease!.token);
    await a.close();
    await b.close();
  });

  it("lets an expired lease be taken over; the old holder learns it lost it and cannot delete the new one", async () => {
    const a = leases();
    const b = leases();
    const old = (await a.locks.tryAcquire("972500000003"))!;
    // A stalls for its lease's lifetime, which expires meanwhile.
    a.stall(31_000);
    await db.pool.query(
      "UPDATE inbox_phone_leases SET expires_at = now() - interval '1 second' WHERE phone = $1",
      ["972500000003"],
    );
    const fresh = await b.locks.tryAcquire("972500000003");
    expect(fresh).not.toBeNull();
    expect(await old.confirm()).toBe(false);
    expect(old.held()).toBe(false);
    expect(a.lines().some((l) => l.event === "INBOX_LEASE_LOST")).toBe(true);
    await a.locks.release(old);
    expect(await fresh!.confirm()).toBe(true);
    await a.locks.close();
    await b.locks.close();
  });

  it("confirms a lease taken or renewed less than half its lifetime ago without asking the database", async () => {
    const { locks, stall } = leases(false, 30);
    const lease = (await locks.tryAcquire("972500000007"))!;
    const counter = countQueries();
    const statements = () => counter.statements.filter((q) => q.includes("inbox_phone_leases")).length;
    try {
      stall(14_000);
      expect(await lease.confirm()).toBe(true);
      expect(statements()).toBe(0);
      // Past half its lifetime without a renewal, it asks; still live, so trusted again.
      stall(2_000);
      expect(await lease.confirm()).toBe(true);
      expect(statements()).toBe(1);
      expect(await lease.confirm()).toBe(true);
      expect(statements()).toBe(1);
      // A renewal restarts the trusted half.
      stall(20_000);
      await locks.renew();
      expect(statements()).toBe(2);
      expect(await lease.confirm()).toBe(true);
      expect(statements()).toBe(2);
      // A machine that slept: the monotonic clock stood still, the wall clock jumped; it asks, and
      // a lease taken over meanwhile is found lost.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 20_000 });
      await db.pool.query("DELETE FROM inbox_phone_leases WHERE phone = $1", ["972500000007"]);
      expect(await lease.confirm()).toBe(false);
      expect(statements()).toBe(4);
      expect(lease.held()).toBe(false);
    } finally {
      vi.useRealTimers();
      counter.restore();
    }
    await locks.close();
  });

  it("a renewal keeps leases alive, and never marks lost a lease taken while it ran", async () => {
    const { locks, lines } = leases(false, 2);
    const first = (await locks.tryAcquire("972500000004"))!;
    const renewing = locks.renew();
    const second = (await locks.tryAcquire("972500000005"))!;
    await renewing;
    expect(first.held()).toBe(true);
    expect(second.held()).toBe(true);
    expect(await second.confirm()).toBe(true);
    expect(lines().some((l) => l.event === "INBOX_LEASE_LOST")).toBe(false);
    // Renewed halfway, it still holds past its original two seconds.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await locks.renew();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await first.confirm()).toBe(true);
    await locks.close();
  });

  it("close lets every lease of the process go; an exclusive start clears leases left by a crash", async () => {
    const a = leases().locks;
    await a.tryAcquire("972500000006");
    await a.close();
    const b = leases().locks;
    expect(await b.tryAcquire("972500000006")).not.toBeNull();
    // b "crashes" (no close): its lease stays until it expires…
    const c = leases().locks;
    expect(await c.tryAcquire("972500000006")).toBeNull();
    // …unless the database belongs to this process alone (PGlite), which clears it at start.
    const d = leases(true).locks;
    await d.prepare();
    expect(await d.tryAcquire("972500000006")).not.toBeNull();
    await d.close();
    await c.close();
  });
});

describe.each(backends)("the inbox's claim and advance statements on $name", (backend) => {
  let db: TestDatabase;
  let inbox: InboxRepository;
  beforeAll(async () => {
    db = await backend.create();
    inbox = new PgInboxRepository(db.pool);
  });
  afterAll(() => db.close());

  let n = 0;
  const message = (phone: string, at: number): NewInboxMessage => ({
    waMessageId: `wamid.CLAIM${++n}`,
    phone,
    type: "text",
    sentAt: new Date(at),
    payload: { n },
  });
  const claim = (owner: string, limit = 8, exclude: string[] = []) =>
    inbox.claim({ owner, ttlSeconds: 30, limit, exclude });

  it("takes each waiting phone's lease with its earliest message, the attempt counted; a second claimer gets none", async () => {
    const t = Date.parse("2026-11-20T10:00:00Z");
    const [late, early, other] = [
      message("972500000101", t + 2000),
      message("972500000101", t + 1000),
      message("972500000102", t + 500),
    ];
    await inbox.insert([late, early, other]);
    const first = await claim("owner-a");
    expect(first.more).toBe(false);
    const byPhone = new Map(first.phones.map((p) => [p.phone, p]));
    expect(byPhone.get("972500000101")?.message).toMatchObject({
      waMessageId: early.waMessageId,
      attempts: 1,
    });
    expect(byPhone.get("972500000102")?.message).toMatchObject({
      waMessageId: other.waMessageId,
      attempts: 1,
    });
    expect(await claim("owner-b")).toEqual({ phones: [], more: false });
    expect((await inbox.get(late.waMessageId))?.attempts).toBe(0);

    // Ending a message takes the phone's next one, attempt counted, in the same statement.
    const a = byPhone.get("972500000101")!;
    const step = await inbox.advance(a.phone, a.token, {
      finish: { waMessageId: early.waMessageId, status: "done" },
      then: "next",
    });
    expect(step).toMatchObject({
      finished: true,
      released: false,
      next: { waMessageId: late.waMessageId, attempts: 1 },
    });
    expect((await inbox.get(early.waMessageId))?.status).toBe("done");
    // A stale token (a lease another worker took over) changes nothing.
    const stale = await inbox.advance(a.phone, String(Number(a.token) + 1_000_000), {
      finish: { waMessageId: late.waMessageId, status: "done" },
      then: "next",
    });
    expect(stale).toEqual({ finished: false, next: null, released: false });
    expect((await inbox.get(late.waMessageId))?.status).toBe("pending");
    // The last message: the lease goes with it, and the phone can be claimed again.
    const last = await inbox.advance(a.phone, a.token, {
      finish: { waMessageId: late.waMessageId, status: "done" },
      then: "next",
    });
    expect(last).toEqual({ finished: true, next: null, released: true });
    const leases = await db.pool.query("SELECT phone FROM inbox_phone_leases WHERE phone = $1", [a.phone]);
    expect(leases.rows).toEqual([]);

    // "hold" ends a message and keeps the lease (the apology still has to go out); "release" lets it go.
    const b = byPhone.get("972500000102")!;
    const held = await inbox.advance(b.phone, b.token, {
      finish: { waMessageId: other.waMessageId, status: "failed", error: "boom" },
      then: "hold",
    });
    expect(held).toEqual({ finished: true, next: null, released: false });
    expect(await inbox.get(other.waMessageId)).toMatchObject({ status: "failed", lastError: "boom" });
    expect(await inbox.advance(b.phone, b.token, { then: "release" })).toEqual({
      finished: false,
      next: null,
      released: true,
    });
  });

  it("leaves out phones being worked off, says when phones were left waiting, and takes back an attempt that never ran", async () => {
    const t = Date.parse("2026-11-20T11:00:00Z");
    const phones = ["972500000201", "972500000202", "972500000203"];
    const rows = phones.map((phone, i) => message(phone, t + i * 1000));
    await inbox.insert(rows);
    const one = await claim("owner-c", 1, ["972500000201"]);
    // The longest-waiting phone not left out; one more is waiting.
    expect(one.phones.map((p) => p.phone)).toEqual(["972500000202"]);
    expect(one.more).toBe(true);
    const [taken] = one.phones;
    await inbox.giveBackAttempt(taken!.message!.waMessageId, taken!.token);
    expect((await inbox.get(taken!.message!.waMessageId))?.attempts).toBe(0);
    const rest = await claim("owner-c", 8, ["972500000202"]);
    expect(rest.phones.map((p) => p.phone).sort()).toEqual(["972500000201", "972500000203"]);
    expect(rest.more).toBe(false);
  });
});

describe("the inbox writer (group commit)", () => {
  /** An inbox whose first insert waits until released, recording every statement. */
  function slowInbox(fail?: (rows: NewInboxMessage[]) => Error | undefined) {
    const statements: string[][] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const seen = new Set<string>();
    const inbox: Pick<InboxRepository, "insert"> = {
      async insert(rows) {
        statements.push(rows.map((r) => r.waMessageId));
        if (statements.length === 1) await gate;
        const error = fail?.(rows);
        if (error instanceof Error) throw error;
        return rows.map((r) => r.waMessageId).filter((id) => !seen.has(id) && seen.add(id));
      },
    };
    return { inbox: inbox as InboxRepository, statements, open };
  }
  const row = (id: string): NewInboxMessage => ({
    waMessageId: id,
    phone: "972500000001",
    type: "text",
    sentAt: new Date(),
    payload: {},
  });

  it("writes calls that arrive during an insert together, and tells each caller its own new rows", async () => {
    const { inbox, statements, open } = slowInbox();
    const writer = new InboxWriter(inbox);
    const first = writer.insert([row("a")]);
    const second = writer.insert([row("b"), row("c")]);
    const third = writer.insert([row("c"), row("d")]);
    open();
    expect(await first).toEqual(["a"]);
    expect(await second).toEqual(["b", "c"]);
    // "c" was new for the call that sent it first only.
    expect(await third).toEqual(["d"]);
    expect(statements).toEqual([["a"], ["b", "c", "c", "d"]]);
  });

  it("a data error fails only the call that brought it; an outage fails them all", async () => {
    const bad = Object.assign(new Error("invalid byte sequence"), { code: "22021" });
    const { inbox, open } = slowInbox((rows) =>
      rows.some((r) => r.waMessageId === "bad") ? bad : undefined,
    );
    const writer = new InboxWriter(inbox);
    const first = writer.insert([row("x")]);
    const good = writer.insert([row("y")]);
    const broken = writer.insert([row("bad")]);
    open();
    await first;
    expect(await good).toEqual(["y"]);
    await expect(broken).rejects.toBe(bad);

    const down = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const outage = slowInbox(() => down);
    const writer2 = new InboxWriter(outage.inbox);
    const calls = [writer2.insert([row("p")]), writer2.insert([row("q")]), writer2.insert([row("r")])];
    outage.open();
    for (const call of calls) await expect(call).rejects.toBe(down);
    expect(outage.statements).toEqual([["p"], ["q", "r"]]);
  });
});
