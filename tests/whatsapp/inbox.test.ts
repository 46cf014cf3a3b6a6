// The durable inbox (D4): exactly-once turns, per-phone order, restarts, old messages, failures.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TranscriptionError, type Transcriber } from "../../src/services/media/transcriber.js";
import { backends } from "../support/db.js";
import { isPlanner } from "../support/memoHarness.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  createWhatsAppHarness,
  echoLLM,
  GENERAL_PLAN,
  textMessage,
  webhookBody,
  type WhatsAppHarness,
} from "../support/whatsappHarness.js";

const ALICE = "972501110001";

function voiceNote(from: string, at: number) {
  return {
    from,
    id: `wamid.VOICE${at}`,
    timestamp: String(Math.floor(at / 1000)),
    type: "audio",
    audio: { id: "voice-1", mime_type: "audio/ogg", voice: true },
  };
}

/** A transcriber that fails its first `failures` calls, then hears `heard`. */
function flakyTranscriber(failures: number, heard: string) {
  let n = 0;
  const transcriber: Transcriber = {
    transcribe() {
      n += 1;
      return n <= failures
        ? Promise.reject(new TranscriptionError("Transcription failed"))
        : Promise.resolve(heard);
    },
  };
  return { transcriber, calls: () => n };
}
const BOB = "14155550123";

describe.each(backends)("inbox on $name", (backend) => {
  let server: ScriptedOpenAI;
  let h: WhatsAppHarness | undefined;
  beforeAll(async () => {
    server = await ScriptedOpenAI.start();
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await h?.close();
    h = undefined;
    server.reset();
  });

  async function harness(options: Parameters<typeof createWhatsAppHarness>[0] = {}) {
    h = await createWhatsAppHarness({ db: await backend.create(), llm: server, ...options });
    await h.knownUser(ALICE);
    await h.knownUser(BOB);
    return h;
  }

  it("runs one turn and sends one reply when the same message is posted 5 times at once", async () => {
    echoLLM(server, { delayMs: 30 });
    const h = await harness();
    const message = textMessage(ALICE, "only once please", h.clock.now());
    const body = webhookBody([{ messages: [message] }]);
    const responses = await Promise.all(Array.from({ length: 5 }, () => h.post(body)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: only once please"]);
    expect(server.requests.filter(isPlanner)).toHaveLength(1);
    // It is marked read (with the typing indicator) once.
    expect(h.graphApi.reads.filter((r) => r.messageId === message.id)).toHaveLength(1);
    const row = await h.whatsapp.inbox.get(message.id);
    expect(row).toMatchObject({ status: "done", attempts: 1 });
  });

  it("answers five messages posted back to back in order, none lost", async () => {
    // Later turns are faster than earlier ones: only the per-phone order keeps the replies in order.
    let delay = 150;
    echoLLM(server, { delayMs: () => (delay = Math.max(0, delay - 30)) });
    const h = await harness();
    const start = h.clock.now();
    for (let i = 1; i <= 5; i++) await h.deliver(textMessage(ALICE, `m${i}`, start + i * 1000));
    await h.graphApi.waitForSent(5);
    await h.idle();
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: m1", "echo: m2", "echo: m3", "echo: m4", "echo: m5"]);
  });

  it("orders one phone's messages by WhatsApp timestamp, not by arrival", async () => {
    echoLLM(server);
    const h = await harness({ startWorker: false });
    const start = h.clock.now();
    const [m1, m2, m3] = [1, 2, 3].map((i) => textMessage(ALICE, `m${i}`, start + i * 1000));
    await h.deliver(m3!, m1!);
    await h.deliver(m2!);
    h.whatsapp.worker.start();
    await h.graphApi.waitForSent(3);
    await h.idle();
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: m1", "echo: m2", "echo: m3"]);
  });

  it("works off several phones, each in its own order", async () => {
    echoLLM(server, { delayMs: 100 });
    const h = await harness();
    const start = h.clock.now();
    await h.deliver(
      textMessage(ALICE, "a1", start + 1000),
      textMessage(BOB, "b1", start + 1000),
      textMessage(ALICE, "a2", start + 2000),
      textMessage(BOB, "b2", start + 2000),
    );
    await h.graphApi.waitForSent(4);
    // (That they run at the same time is pinned in reviewRegressions.test.ts, without timing.)
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: a1", "echo: a2"]);
    expect(h.graphApi.textsTo(BOB)).toEqual(["echo: b1", "echo: b2"]);
  });

  it("after a restart, answers each unfinished message once, and never one already answered", async () => {
    echoLLM(server);
    const first = await harness({ startWorker: false });
    const db = first.db;
    const start = first.clock.now();
    const pending = textMessage(ALICE, "never started", start + 1000);
    const interrupted = textMessage(BOB, "cut mid-turn", start + 1000);
    const answered = textMessage(ALICE, "answered, then cut", start + 500);
    await first.deliver(answered, pending, interrupted);
    // The process died: one turn was cut before replying, one after its reply was sent.
    await db.pool.query("UPDATE inbox_messages SET attempts = 1 WHERE wa_message_id = ANY($1)", [
      [interrupted.id, answered.id],
    ]);
    await first.whatsapp.outbound.record({
      waMessageId: "wamid.SENT-BEFORE-CRASH",
      phone: ALICE,
      inReplyTo: answered.id,
      kind: "text",
      body: "echo: answered, then cut",
    });
    await first.close(false);

    const second = await createWhatsAppHarness({ db, llm: server });
    h = second;
    await second.graphApi.waitForSent(2);
    await second.idle();
    expect(second.graphApi.textsTo(ALICE)).toEqual(["echo: never started"]);
    expect(second.graphApi.textsTo(BOB)).toEqual(["echo: cut mid-turn"]);
    for (const m of [pending, interrupted, answered]) {
      expect((await second.whatsapp.inbox.get(m.id))?.status).toBe("done");
    }
  });

  // Issue #20: a reply WhatsApp accepted but the process had not recorded when it died is sent
  // again after the restart. Only one reply is ever in that window, so a crash costs at most one
  // duplicate, however many turns were in flight.
  it("sends one reply at a time: the next reply's Graph API call starts only once the previous one is recorded", async () => {
    echoLLM(server);
    const h = await harness();
    h.graphApi.delayMs = 400;
    const at = h.clock.now();
    await h.deliver(textMessage(ALICE, "first", at), textMessage(BOB, "second", at));
    await h.graphApi.waitForSent(2, 10_000);
    await h.idle();
    const sends = h.graphApi.requests.filter(
      (r) => r.path.endsWith("/messages") && (r.body as { type?: string }).type === "text",
    );
    expect(sends).toHaveLength(2);
    const [first, second] = h.graphApi.sent;
    // The second call reached the Graph API after the first was answered, and the first was recorded.
    expect(sends[1]!.at).toBeGreaterThanOrEqual(first!.at);
    expect(await h.whatsapp.outbound.get(first!.id)).toMatchObject({ status: "accepted" });
    expect(await h.whatsapp.outbound.get(second!.id)).not.toBeNull();
    expect([...h.graphApi.textsTo(ALICE), ...h.graphApi.textsTo(BOB)]).toEqual([
      "echo: first",
      "echo: second",
    ]);
  });

  // Issue 22: the reply is recorded by the statement that ends its message. Should that statement
  // fail, the record is written on its own: the message runs again but is not answered twice.
  it("a reply whose message could not be ended is still recorded, and the message is not answered again", async () => {
    echoLLM(server);
    const h = await harness();
    const inbox = h.whatsapp.inbox;
    const advance = inbox.advance.bind(inbox);
    let failed = 0;
    inbox.advance = (phone, token, step) => {
      if (step.finish && failed === 0) {
        failed += 1;
        return Promise.reject(new Error("connection lost"));
      }
      return advance(phone, token, step);
    };
    const message = textMessage(ALICE, "tell me something", h.clock.now());
    await h.deliver(message);
    const [sent] = await h.graphApi.waitForSent(1);
    await expect
      .poll(() => h.whatsapp.outbound.get(sent!.id), { timeout: 5000 })
      .toMatchObject({ inReplyTo: message.id });
    // The poll runs the message again: its answer is recorded, so it ends without a second reply.
    await expect.poll(async () => (await inbox.get(message.id))?.status, { timeout: 5000 }).toBe("done");
    await h.idle();
    expect(failed).toBe(1);
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: tell me something"]);
  });

  it("records a message older than the limit without answering it", async () => {
    echoLLM(server);
    const h = await harness();
    const old = textMessage(ALICE, "from yesterday", h.clock.now() - 25 * 60 * 60 * 1000);
    const fresh = textMessage(ALICE, "from now", h.clock.now());
    await h.deliver(old, fresh);
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: from now"]);
    expect(await h.whatsapp.inbox.get(old.id)).toMatchObject({ status: "expired" });
    expect(h.logs().some((l) => l.event === "INBOX_EXPIRED")).toBe(true);
  });

  it("retries a failed turn, and succeeds without the user noticing", async () => {
    echoLLM(server);
    const { transcriber, calls } = flakyTranscriber(1, "hello after a hiccup");
    const h = await harness({ transcriber });
    const message = voiceNote(ALICE, h.clock.now());
    h.graphApi.addMedia("voice-1", Buffer.from("OggS"), "audio/ogg");
    await h.deliver(message);
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: hello after a hiccup"]);
    expect(calls()).toBe(2);
    expect(await h.whatsapp.inbox.get(message.id)).toMatchObject({ status: "done", attempts: 2 });
  });

  it("gives up after the last attempt: a short apology, the row failed with its error, never retried again", async () => {
    echoLLM(server);
    const { transcriber, calls } = flakyTranscriber(Infinity, "");
    const h = await harness({ transcriber });
    const message = voiceNote(ALICE, h.clock.now());
    h.graphApi.addMedia("voice-1", Buffer.from("OggS"), "audio/ogg");
    await h.deliver(message);
    await h.graphApi.waitForSent(1);
    await h.idle();
    const [apology] = h.graphApi.textsTo(ALICE);
    expect(apology).toMatch(/^Sorry, I couldn't handle your message "🎤"/);
    // The apology quotes the message it is about.
    expect(h.graphApi.sent[0]!.contextId).toBe(message.id);
    const row = await h.whatsapp.inbox.get(message.id);
    expect(row).toMatchObject({ status: "failed", attempts: 3 });
    expect(row?.lastError).toContain("Transcription failed");
    expect(calls()).toBe(3);
    // A later message is answered normally; the failed one is not tried again.
    await h.deliver(textMessage(ALICE, "next", h.clock.now() + 1000));
    await h.graphApi.waitForSent(2);
    await h.idle();
    expect(h.graphApi.textsTo(ALICE).at(-1)).toBe("echo: next");
    expect(calls()).toBe(3);
  });

  it("apologizes in the user's language", async () => {
    const { transcriber } = flakyTranscriber(Infinity, "");
    const h = await harness({ transcriber });
    await h.memo.users.update(ALICE, { language: "he" });
    h.graphApi.addMedia("voice-1", Buffer.from("OggS"), "audio/ogg");
    await h.deliver(voiceNote(ALICE, h.clock.now()));
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(ALICE)[0]).toMatch(/^מצטער, לא הצלחתי לטפל בהודעה "🎤"/);
  });

  it("a message whose last attempt answered before a crash is marked done, with no apology", async () => {
    const h = await harness({ startWorker: false });
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

  it("a reply carrying a NUL character is recorded with its message's end: answered once, no apology", async () => {
    server.on(isPlanner, { json: GENERAL_PLAN });
    server.on((req) => !isPlanner(req), { text: "before\u0000after" });
    const h = await harness();
    const message = textMessage(ALICE, "say something odd", h.clock.now());
    await h.deliver(message);
    const [sent] = await h.graphApi.waitForSent(1);
    await expect
      .poll(async () => (await h.whatsapp.inbox.get(message.id))?.status, { timeout: 5000 })
      .toBe("done");
    await h.idle();
    expect(await h.whatsapp.outbound.get(sent!.id)).toMatchObject({ inReplyTo: message.id });
    expect(h.graphApi.sent.filter((m) => m.to === ALICE)).toHaveLength(1);
  });

  it("a NUL character in one message does not lose the batch", async () => {
    const h = await harness({ startWorker: false });
    const bad = textMessage(ALICE, "a\u0000b", h.clock.now());
    const good = textMessage(BOB, "fine", h.clock.now());
    const res = await h.post(webhookBody([{ messages: [bad, good] }]));
    expect(res.status).toBe(200);
    expect(await h.whatsapp.inbox.get(bad.id)).toMatchObject({ payload: { text: { body: "ab" } } });
    expect(await h.whatsapp.inbox.get(good.id)).not.toBeNull();
  });

  it("different phones run in parallel: one phone's slow turn does not hold another's", async () => {
    server.on((req) => isPlanner(req) && JSON.stringify(req.body.messages).includes("slow one"), {
      hang: true,
    });
    echoLLM(server);
    const h = await harness();
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
