// Issue 22: the database round trips of the inbox path (webhook row, phone lease, attempt count,
// the user's 24-hour window, lease confirmation, outbound record and the turn's LLM usage with the
// end of the message, and no window write for the reply's WhatsApp id), counted through the
// WhatsApp harness; and the looks for work they no longer make after every message.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../support/db.js";
import { countQueries, type QueryCounter } from "../support/queryCounter.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  createWhatsAppHarness,
  echoLLM,
  textMessage,
  type WhatsAppHarness,
  type WhatsAppHarnessOptions,
} from "../support/whatsappHarness.js";

const ALICE = "972501110001";
const BOB = "972501110002";
/** No poll during a test: every look for work is one the worker decided on. */
const NO_POLL = 3_600_000;

/** What a statement of the inbox path is, by the table it works on; null for other areas. */
function inboxStatement(sql: string): string | null {
  // The turn's memory read (it reads the reply ids of the window from outbound_messages) and write.
  if (/^(WITH facts AS|SELECT w\.state|WITH saved AS)/.test(sql)) return null;
  // The reply's WhatsApp id written into the window: read from its record instead.
  if (sql.startsWith("INSERT INTO conversation_windows")) return "window write";
  if (sql.startsWith("INSERT INTO inbox_messages")) return "store message";
  if (sql.startsWith("WITH waiting AS")) return "claim phone, next message, count attempt";
  if (sql.startsWith("WITH lease AS"))
    return sql.includes("INSERT INTO outbound_messages") && sql.includes("INSERT INTO llm_usage_daily")
      ? "record reply and usage, finish message, next or release"
      : "finish message, next or release";
  // The turn's LLM usage written on its own: it rides on the statement that ends the message.
  if (sql.startsWith("INSERT INTO llm_usage_daily")) return "usage write";
  if (/^SELECT 1 FROM inbox_phone_leases/.test(sql)) return "confirm lease";
  if (sql.startsWith("INSERT INTO outbound_messages")) return "record reply";
  if (/^UPDATE users SET last_inbound_at/.test(sql)) return "touch user";
  if (/inbox_messages|inbox_phone_leases|outbound_messages/.test(sql)) return sql.slice(0, 60);
  if (/^SELECT \* FROM users\b|^(INSERT INTO|UPDATE) users\b/.test(sql)) return sql.slice(0, 60);
  return null;
}

describe.each(backends)("inbox statements on $name", (backend) => {
  let server: ScriptedOpenAI;
  let h: WhatsAppHarness | undefined;
  let counter: QueryCounter | undefined;
  beforeAll(async () => {
    server = await ScriptedOpenAI.start();
  });
  afterAll(() => server.close());
  afterEach(async () => {
    counter?.restore();
    counter = undefined;
    await h?.close();
    h = undefined;
    server.reset();
  });

  async function harness(options: WhatsAppHarnessOptions = {}) {
    h = await createWhatsAppHarness({
      db: await backend.create(),
      llm: server,
      pollIntervalMs: NO_POLL,
      ...options,
    });
    await h.knownUser(ALICE);
    await h.knownUser(BOB);
    // The look for work at start-up finds nothing.
    await h.idle();
    return h;
  }

  /** The inbox path's statements while `work` runs and the worker drains. */
  async function inboxStatements(h: WhatsAppHarness, work: () => Promise<unknown>): Promise<string[]> {
    counter = countQueries();
    const from = counter.statements.length;
    await work();
    await h.idle();
    const statements = counter.statements.slice(from);
    counter.restore();
    counter = undefined;
    return statements.map(inboxStatement).filter((s): s is string => s !== null);
  }

  it("a plain text message costs four statements: store, claim, touch user, record and finish", async () => {
    echoLLM(server);
    const h = await harness();
    const message = textMessage(ALICE, "hello there", h.clock.now());
    const statements = await inboxStatements(h, async () => {
      await h.deliver(message);
      await h.graphApi.waitForSent(1);
    });
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: hello there"]);
    expect(statements).toEqual([
      "store message",
      "claim phone, next message, count attempt",
      "touch user",
      // The lease, taken moments ago, is known live without asking (PgPhoneLeases.confirm).
      // The reply's record and the turn's LLM usage commit with the end of the message it answers.
      // Done, nothing else pending: the lease goes in the same statement, and no look follows.
      "record reply and usage, finish message, next or release",
    ]);
    // The planner's and the writer's calls, on the user's day.
    const usage = await h.db.pool.query("SELECT calls FROM llm_usage_daily WHERE user_phone = $1", [ALICE]);
    expect(usage.rows).toEqual([{ calls: 2 }]);
    const row = await h.whatsapp.inbox.get(message.id);
    expect(row).toMatchObject({ status: "done", attempts: 1 });
    const [sent] = h.graphApi.sent;
    expect(await h.whatsapp.outbound.get(sent!.id)).toMatchObject({
      inReplyTo: message.id,
      body: "echo: hello there",
    });
    const leases = await h.db.pool.query("SELECT 1 FROM inbox_phone_leases");
    expect(leases.rows).toHaveLength(0);
  });

  it("a phone's second message is taken by the statement that finishes the first: no look, no lease between", async () => {
    echoLLM(server);
    const h = await harness();
    const at = h.clock.now();
    const statements = await inboxStatements(h, async () => {
      await h.deliver(textMessage(ALICE, "one", at), textMessage(ALICE, "two", at + 1000));
      await h.graphApi.waitForSent(2);
    });
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: one", "echo: two"]);
    const turn = ["touch user", "record reply and usage, finish message, next or release"];
    expect(statements).toEqual([
      "store message",
      "claim phone, next message, count attempt",
      ...turn,
      ...turn,
    ]);
  });

  it("a message stored just after its phone's run let the lease go is answered without waiting for the poll", async () => {
    echoLLM(server);
    const h = await harness();
    const at = h.clock.now();
    const inbox = h.whatsapp.inbox;
    const advance = inbox.advance.bind(inbox);
    let late: Promise<unknown> | undefined;
    // The second message arrives (and its webhook kicks the worker) after the statement that ended
    // the first message found nothing else, but before the run is over.
    inbox.advance = async (...args) => {
      const result = await advance(...args);
      late ??= h.deliver(textMessage(ALICE, "late", at + 1000));
      await late;
      return result;
    };
    await h.deliver(textMessage(ALICE, "first", at));
    await h.graphApi.waitForSent(2, 10_000);
    await h.idle();
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: first", "echo: late"]);
  });

  it("a message that found every slot taken is picked up when a run ends, without waiting for the poll", async () => {
    let planned = 0;
    echoLLM(server, { delayMs: () => (++planned === 1 ? 300 : 0) });
    const h = await harness({ env: { INBOX_CONCURRENCY: "1" } });
    await h.deliver(textMessage(ALICE, "slow", h.clock.now()));
    await expect.poll(() => planned).toBe(1);
    await h.deliver(textMessage(BOB, "waits for a slot", h.clock.now()));
    await h.graphApi.waitForSent(2, 10_000);
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: slow"]);
    expect(h.graphApi.textsTo(BOB)).toEqual(["echo: waits for a slot"]);
  });
});
