// Defects found in review of the WhatsApp transport, each pinned by the scenario that showed it.
import { scrubIdentifiers } from "../../src/utils/phone.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/env.js";
import type { Transcriber } from "../../src/services/media/transcriber.js";
import { backends, testDatabaseUrl } from "../support/db.js";
import { captureLogs } from "../support/logs.js";
import { isPlanner } from "../support/memoHarness.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  createWhatsAppHarness,
  echoLLM,
  textMessage,
  waId,
  webhookBody,
  type WhatsAppHarness,
} from "../support/whatsappHarness.js";
import { PRODUCTION_ENV } from "../support/env.js";

const ALICE = "972501110001";
const BOB = "972501110002";
const AMERICAN = "12125550123";

let server: ScriptedOpenAI;
const open: WhatsAppHarness[] = [];
beforeAll(async () => {
  server = await ScriptedOpenAI.start();
});
afterAll(() => server.close());
afterEach(async () => {
  const harnesses = open.splice(0).reverse();
  for (const h of harnesses) await h.close(false);
  for (const db of new Set(harnesses.map((h) => h.db))) await db.close();
  server.reset();
});

async function harness(options: Parameters<typeof createWhatsAppHarness>[0] = {}) {
  const h = await createWhatsAppHarness({ llm: server, ...options });
  open.push(h);
  return h;
}

describe.skipIf(!testDatabaseUrl)("two instances on one Postgres", () => {
  const postgres = backends.find((b) => b.name === "postgres")!;

  it("answer every message once, each phone in order", async () => {
    echoLLM(server, { delayMs: 20 });
    const db = await postgres.create();
    const a = await harness({ db });
    const b = await harness({ db, graphApi: a.graphApi });
    for (const phone of [ALICE, BOB, AMERICAN]) await a.knownUser(phone);
    const start = a.clock.now();
    const bodies = [ALICE, BOB, AMERICAN].flatMap((phone) =>
      [1, 2, 3].map((i) => textMessage(phone, `${phone.slice(-1)}-${i}`, start + i * 1000)),
    );
    // Deliveries land on both instances, as behind a load balancer.
    await Promise.all(bodies.map((m, i) => (i % 2 ? a : b).deliver(m)));
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
    echoLLM(server, { delayMs: () => (++planned === 1 ? 1500 : 0) });
    const db = await postgres.create();
    const a = await harness({ db });
    await a.knownUser(ALICE);
    const start = a.clock.now();
    await a.deliver(textMessage(ALICE, "one", start + 1000), textMessage(ALICE, "two", start + 2000));
    await expect.poll(() => server.requests.filter(isPlanner).length).toBe(1);
    // A stalls past its lease (simulated by expiring it); B takes the phone over.
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

describe.each(backends)("review regressions on $name", (backend) => {
  it("a new user's first voice note is welcomed and then handled, not dropped", async () => {
    echoLLM(server);
    const calls: string[] = [];
    const transcriber: Transcriber = {
      transcribe: () => {
        calls.push("called");
        return Promise.resolve("remind me to water the plants");
      },
    };
    const h = await harness({ db: await backend.create(), transcriber });
    h.graphApi.addMedia("first-voice", Buffer.from("OggS"), "audio/ogg");
    await h.deliver({
      from: ALICE,
      id: waId(),
      timestamp: String(Math.floor(h.clock.now() / 1000)),
      type: "audio",
      audio: { id: "first-voice", mime_type: "audio/ogg", voice: true },
    });
    await h.graphApi.waitForSent(2);
    await h.idle();
    expect(calls).toHaveLength(1);
    const texts = h.graphApi.textsTo(ALICE);
    expect(texts[0]).toContain("Memo");
    expect(texts.at(-1)).toBe("echo: remind me to water the plants");
  });

  it("a multi-zone first message that is a request keeps the zone question open for the next message", async () => {
    echoLLM(server);
    const h = await harness({ db: await backend.create() });
    await h.deliver(textMessage(AMERICAN, "remind me to call mom tomorrow", h.clock.now()));
    // Welcome, the zone question, the answer.
    await h.graphApi.waitForSent(3);
    await h.idle();
    await h.deliver(textMessage(AMERICAN, "2", h.clock.now() + 5000));
    await h.graphApi.waitForSent(4);
    await h.idle();
    expect(h.graphApi.textsTo(AMERICAN)[3]).toMatch(/your time zone is now/);
    expect((await h.memo.users.get(AMERICAN))?.timeZone).not.toBe("America/New_York");
  });

  it("a message whose last attempt answered before a crash is marked done, with no apology", async () => {
    const h = await harness({ db: await backend.create(), startWorker: false });
    await h.knownUser(ALICE);
    const message = textMessage(ALICE, "answered just before the crash", h.clock.now());
    await h.deliver(message);
    await h.db.pool.query("UPDATE inbox_messages SET attempts = 3 WHERE wa_message_id = $1", [message.id]);
    await h.whatsapp.outbound.record({
      waMessageId: "wamid.ANSWERED",
      phone: ALICE,
      inReplyTo: message.id,
      kind: "text",
      body: "the answer",
    });
    h.whatsapp.worker.start();
    await expect.poll(async () => (await h.whatsapp.inbox.get(message.id))?.status).toBe("done");
    await h.idle();
    expect(h.graphApi.sent).toHaveLength(0);
  });

  it("a NUL character in one message does not lose the batch", async () => {
    const h = await harness({ db: await backend.create(), startWorker: false });
    const bad = textMessage(ALICE, "a\u0000b", h.clock.now());
    const good = textMessage(BOB, "fine", h.clock.now());
    const res = await h.post(webhookBody([{ messages: [bad, good] }]));
    expect(res.status).toBe(200);
    expect(await h.whatsapp.inbox.get(bad.id)).toMatchObject({ payload: { text: { body: "ab" } } });
    expect(await h.whatsapp.inbox.get(good.id)).not.toBeNull();
  });

  it("a file over the size limit is answered with what to do, not retried", async () => {
    const transcriber: Transcriber = { transcribe: () => Promise.resolve("never") };
    const h = await harness({ db: await backend.create(), transcriber });
    await h.knownUser(ALICE);
    h.graphApi.addMedia("huge", Buffer.alloc(10), "audio/ogg", { fileSize: 17 * 1024 * 1024 });
    const message = {
      from: ALICE,
      id: waId(),
      timestamp: String(Math.floor(h.clock.now() / 1000)),
      type: "audio",
      audio: { id: "huge", mime_type: "audio/ogg", voice: true },
    };
    await h.deliver(message);
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(h.graphApi.textsTo(ALICE)).toEqual([
      "That file is too big for me (over 16 MB). Could you send a smaller one?",
    ]);
    expect(await h.whatsapp.inbox.get(message.id)).toMatchObject({ status: "done", attempts: 1 });
  });

  it("an interactive message that is not a button or list reply gets the polite reply", async () => {
    const h = await harness({ db: await backend.create() });
    await h.knownUser(ALICE);
    await h.deliver({
      from: ALICE,
      id: waId(),
      timestamp: String(Math.floor(h.clock.now() / 1000)),
      type: "interactive",
      interactive: { type: "nfm_reply", nfm_reply: { response_json: "{}" } },
    });
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(ALICE)[0]).toMatch(/text, voice notes and photos/);
  });

  it("different phones run in parallel: one phone's slow turn does not hold another's", async () => {
    server.on((req) => isPlanner(req) && JSON.stringify(req.body.messages).includes("slow one"), {
      hang: true,
    });
    echoLLM(server);
    const h = await harness({ db: await backend.create() });
    await h.knownUser(ALICE);
    await h.knownUser(BOB);
    await h.deliver(
      textMessage(ALICE, "slow one", h.clock.now()),
      textMessage(BOB, "quick one", h.clock.now()),
    );
    // Bob is answered while Alice's turn still hangs in the planner.
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(BOB)).toEqual(["echo: quick one"]);
    expect(h.graphApi.textsTo(ALICE)).toEqual([]);
  });
});

describe("production", () => {
  it("never mounts the simulator's routes", async () => {
    const { createWhatsApp } = await import("../../src/app/whatsApp.js");
    const config = loadConfig(PRODUCTION_ENV);
    const h = await harness({ startWorker: false });
    const whatsapp = createWhatsApp({
      config,
      db: h.db,
      memo: h.memo,
      logger: captureLogs().logger,
      serviceUrl: () => "",
    });
    expect(whatsapp.simulator).toBeUndefined();
    expect(whatsapp.routers.map((r) => r.path)).toEqual(["/"]);
  });
});
