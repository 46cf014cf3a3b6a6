// Two Memo instances behind a load balancer, on one Postgres: every message answered once, in order,
// and a turn whose phone lease was taken over neither answers nor marks its message.
import { scrubIdentifiers } from "../../src/utils/phone.js";
import { describe, expect, it } from "vitest";
import { backends, testDatabaseUrl } from "../support/db.js";
import { isPlanner } from "../support/memoHarness.js";
import { scriptedHarnesses, echoLLM, textMessage, type WhatsAppHarness } from "../support/whatsappHarness.js";

const ALICE = "972501110001";
const BOB = "972501110002";
const AMERICAN = "12125550123";

const { server, harness } = scriptedHarnesses();

describe.skipIf(!testDatabaseUrl)("two instances on one Postgres", () => {
  const postgres = backends.find((b) => b.name === "postgres")!;

  it("answer every message once, each phone in order", async () => {
    echoLLM(server(), { delayMs: 20 });
    const db = await postgres.create();
    const a = await harness({ db });
    const b = await harness({ db, graphApi: a.graphApi });
    for (const phone of [ALICE, BOB, AMERICAN]) await a.knownUser(phone);
    const start = a.clock.now();
    // Deliveries land on both instances, as behind a load balancer: every phone at once, each
    // phone's messages back to back (the next posted once the previous one is stored), alternating.
    // (Order is WhatsApp timestamp order among the messages stored when a turn starts: a message
    // posted at the same instant as a later one may arrive after that one has started.)
    await Promise.all(
      [ALICE, BOB, AMERICAN].map(async (phone, p) => {
        for (const i of [1, 2, 3]) {
          const message = textMessage(phone, `${phone.slice(-1)}-${i}`, start + i * 1000);
          await ((p + i) % 2 ? a : b).deliver(message);
        }
      }),
    );
    await a.graphApi.waitForSent(9, 15_000);
    await Promise.all([a.idle(), b.idle()]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const phone of [ALICE, BOB, AMERICAN]) {
      const tag = phone.slice(-1);
      expect(a.graphApi.textsTo(phone)).toEqual([`echo: ${tag}-1`, `echo: ${tag}-2`, `echo: ${tag}-3`]);
    }
    // Every row ended done, exactly once.
    const workers = await db.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM inbox_messages WHERE status = 'done'",
    );
    expect(Number(workers.rows[0]!.n)).toBe(9);
  });

  it("a worker that lost its lease mid-turn neither answers nor marks the message; the new holder does", async () => {
    let planned = 0;
    // The first turn takes long enough for its lease to be taken from it.
    echoLLM(server(), { delayMs: () => (++planned === 1 ? 1500 : 0) });
    const db = await postgres.create();
    // A's process stalls past its lease: its own clock jumps a minute, and the lease expires.
    let stalledMs = 0;
    const a = await harness({ db, leaseClock: () => performance.now() + stalledMs });
    await a.knownUser(ALICE);
    const start = a.clock.now();
    await a.deliver(textMessage(ALICE, "one", start + 1000), textMessage(ALICE, "two", start + 2000));
    await expect.poll(() => server().requests.filter(isPlanner).length).toBe(1);
    stalledMs = 60_000;
    await db.pool.query("UPDATE inbox_phone_leases SET expires_at = now() - interval '1 second'");
    const b = await harness({ db, graphApi: a.graphApi });
    await a.graphApi.waitForSent(2, 10_000);
    await Promise.all([a.idle(), b.idle()]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(a.graphApi.textsTo(ALICE)).toEqual(["echo: one", "echo: two"]);
    expect(a.logs().some((l) => l.event === "INBOX_LEASE_LOST")).toBe(true);
    // B ran both turns; A's turn of "one" ended without a reply.
    const turns = (h: WhatsAppHarness) =>
      h
        .logs()
        .filter((l) => l.event === "turn")
        .map((l) => l.traceId);
    const ids = (
      await db.pool.query<{ id: string }>("SELECT wa_message_id AS id FROM inbox_messages ORDER BY seq")
    ).rows;
    // Log lines carry message ids with the phone inside replaced by its tag.
    expect(turns(b)).toEqual(ids.map((r) => scrubIdentifiers(r.id)));
    const rows = await db.pool.query<{ status: string }>("SELECT status FROM inbox_messages ORDER BY seq");
    expect(rows.rows.map((r) => r.status)).toEqual(["done", "done"]);
  });
});
