// The per-phone leases of the inbox (D4) and the group-committed inbox writer, on their own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboxRepository, NewInboxMessage } from "../../src/db/repositories/inboxRepository.js";
import { PgPhoneLeaseRepository } from "../../src/db/repositories/phoneLeaseRepository.js";
import { InboxWriter } from "../../src/transport/whatsapp/inboxWriter.js";
import { PgPhoneLeases } from "../../src/transport/whatsapp/phoneLocks.js";
import { backends, type TestDatabase } from "../support/db.js";
import { captureLogs } from "../support/logs.js";

describe.each(backends)("phone leases on $name", (backend) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await backend.create();
  });
  afterAll(() => db.close());

  const leases = (exclusive = false, ttlSeconds = 30) => {
    const { logger, lines } = captureLogs();
    return {
      locks: new PgPhoneLeases(new PgPhoneLeaseRepository(db.pool), { ttlSeconds, exclusive, logger }),
      lines,
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
