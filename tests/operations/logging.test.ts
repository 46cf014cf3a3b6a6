// Logs: one JSON line per event, with the turn's trace id; phone numbers tagged, bodies,
// email content and credentials never written (the pino redaction list).
import { createHash, createHmac } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/utils/logger.js";
import { phoneTag, scrubIdentifiers, setPhoneTagKey } from "../../src/utils/phone.js";
import { withTurn } from "../../src/utils/turnContext.js";
import { captureLogs, phoneIn } from "../support/logs.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import { isPlanner, plan, step } from "../support/memoHarness.js";
import { recordingCapability } from "../support/recordingCapability.js";
import { createSchedulerHarness, type SchedulerHarness } from "../support/schedulerHarness.js";
import { echoReply, GENERAL_PLAN, textMessage, webhookBody } from "../support/whatsappHarness.js";

const PHONE = "972501239876";
const SECRET_WORDS = "my bank PIN is 4417 and my passport is A1234567";

function linesOf(options: { redact?: boolean } = {}) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: createLogger("debug", stream, options), lines };
}

describe("the redaction list", () => {
  it("tags phone numbers, drops bodies, email content and credentials, keeps counts", () => {
    const { logger, lines } = linesOf();
    logger.info(
      {
        phone: PHONE,
        threadId: PHONE,
        to: `+${PHONE}`,
        text: SECRET_WORDS,
        body: SECRET_WORDS,
        subject: "Your lab results",
        snippet: "HbA1c 6.1",
        message: { text: SECRET_WORDS, from: PHONE },
        accessToken: "ya29.secret",
        refreshToken: "1//refresh",
        apiKey: "sk-live",
        messages: 12,
        chars: SECRET_WORDS.length,
      },
      "event",
    );
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).not.toContain(PHONE);
    for (const leaked of ["4417", "A1234567", "lab results", "HbA1c", "ya29", "1//refresh", "sk-live"])
      expect(line).not.toContain(leaked);
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed.phone).toBe(phoneTag(PHONE));
    expect(parsed.threadId).toBe(phoneTag(PHONE));
    expect(parsed.text).toBe("[redacted]");
    expect((parsed.message as Record<string, unknown>).from).toBe(phoneTag(PHONE));
    expect(parsed.accessToken).toBe("[redacted]");
    // A count says nothing anyone wrote.
    expect(parsed.messages).toBe(12);
    expect(parsed.chars).toBe(SECRET_WORDS.length);
  });

  it("tags are keyed: not a plain hash of the number, the same for every line about a user", () => {
    const plain = createHash("sha256").update(PHONE).digest("hex").slice(0, 12);
    expect(phoneTag(PHONE)).not.toBe(plain);
    expect(phoneTag(PHONE)).toBe(phoneTag(PHONE));
    expect(phoneTag(PHONE)).not.toBe(phoneTag("972501239877"));
  });

  it("tags the phone inside ids: WhatsApp message ids (base64 of the number) and delivery keys", () => {
    const { logger, lines } = linesOf();
    // A real wamid's body is protobuf-ish bytes with the sender's number in them.
    const wamid = `wamid.${Buffer.from(`\x1c\x18\x0c${PHONE}\x15\x02\x00\x12\x18\x14`).toString("base64")}`;
    expect(Buffer.from(wamid.slice(6), "base64").toString("latin1")).toContain(PHONE);
    logger.info({ messageId: wamid, key: `digest:${PHONE}@2026-11-23` }, "event");
    withTurn({ traceId: wamid, phone: PHONE, trigger: "user" }, () => logger.info("inside"));
    const raw = lines.join("\n");
    expect(raw).not.toContain(PHONE);
    expect(raw).not.toContain(wamid.slice(6));
    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first!.messageId).toBe(`wamid:${phoneTag(wamid)}`);
    expect(first!.key).toBe(`digest:[phone:${phoneTag(PHONE)}]@2026-11-23`);
    expect(second!.traceId).toBe(first!.messageId);
  });

  it("tags base64 of the number that starts mid-group (an id cut after a '/', '_' or '+')", () => {
    const encoded = Buffer.from(`\x01\x02\x03${PHONE}\x04`).toString("base64");
    for (const cut of [0, 1, 2, 3]) {
      const line = scrubIdentifiers(`op ${encoded.slice(cut)}`);
      expect(phoneIn(line, PHONE), `cut ${cut}: ${line}`).toBeUndefined();
    }
  });

  it("a tag never reads as a phone number, so scrubbing a line twice keeps it", () => {
    const key = Buffer.alloc(32, 7);
    setPhoneTagKey(key);
    // A number whose keyed hash starts with 12 decimal digits (about one in 300).
    let phone = 972500000000;
    while (!/^\d{12}/.test(createHmac("sha256", key).update(String(phone)).digest("hex"))) phone++;
    const tag = phoneTag(String(phone));
    expect(tag).toMatch(/^[0-9a-f]{12}$/);
    expect(tag).toMatch(/[a-f]/);
    expect(scrubIdentifiers(`user ${tag}`)).toBe(`user ${tag}`);
  });

  it("tags by value, whatever the field: operation ids, nested fields, base64 of the number, the message", () => {
    const { logger, lines } = linesOf();
    const wamid = cloudApiWamid(PHONE, 7);
    logger
      .child({ delivery: `reminder:${PHONE}` })
      .warn(
        { operationId: `${wamid}:s1`, job: { args: [{ encoded: Buffer.from(PHONE).toString("base64") }] } },
        `no reply to ${wamid.slice(6)}`,
      );
    const line = lines[0]!;
    expect(phoneIn(line, PHONE)).toBeUndefined();
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed.operationId).toBe(`wamid:${phoneTag(wamid)}:s1`);
    expect(parsed.delivery).toBe(`reminder:[phone:${phoneTag(PHONE)}]`);
  });

  it("logs errors by what broke, never the row or words they carry", () => {
    const { logger, lines } = linesOf();
    // What node-postgres throws for a failed insert: detail quotes the failing row.
    const error = Object.assign(new Error(`insert failed for ${PHONE}`), {
      code: "23503",
      table: "memories",
      detail: `Failing row contains (${PHONE}, ${SECRET_WORDS}).`,
      where: `SQL statement with ${SECRET_WORDS}`,
      context: { phone: PHONE, text: SECRET_WORDS, node: "memory" },
    });
    logger.error({ err: error }, "could not record");
    const raw = lines[0]!;
    expect(raw).not.toContain(PHONE);
    expect(raw).not.toContain("4417");
    const err = (JSON.parse(raw) as { err: Record<string, unknown> }).err;
    expect(err).toMatchObject({
      type: "Error",
      code: "23503",
      table: "memories",
      message: `insert failed for [phone:${phoneTag(PHONE)}]`,
      context: { phone: phoneTag(PHONE), node: "memory" },
    });
    expect(err.detail).toBeUndefined();
    expect(typeof err.stack).toBe("string");
  });

  it("LOG_REDACT=off shows bodies and numbers for local debugging, never credentials", () => {
    const { logger, lines } = linesOf({ redact: false });
    logger.info({ phone: PHONE, text: "hello", apiKey: "sk-live" }, "event");
    const parsed = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(parsed.phone).toBe(PHONE);
    expect(parsed.text).toBe("hello");
    expect(parsed.apiKey).toBe("[redacted]");
  });

  it("every line inside a turn carries its trace id, trigger and the user's tag", async () => {
    const { logger, lines } = linesOf();
    logger.info("before");
    await withTurn({ traceId: "trace-1", phone: PHONE, trigger: "user" }, async () => {
      logger.info({ step: 1 }, "inside");
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.warn("after an await");
    });
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed[0]!.traceId).toBeUndefined();
    for (const line of parsed.slice(1)) {
      expect(line).toMatchObject({ traceId: "trace-1", trigger: "user", user: phoneTag(PHONE) });
    }
  });
});

/**
 * A WhatsApp message id as the Cloud API writes it: "wamid.HBgM" and the base64 of bytes that
 * spell the sender's number (0x1c 0x18 <length> <number> 0x15 0x02 0x00 0x12 0x18 0x14 <20 hex>).
 */
function cloudApiWamid(phone: string, n: number): string {
  const bytes = Buffer.concat([
    Buffer.from([0x1c, 0x18, phone.length]),
    Buffer.from(phone),
    Buffer.from([0x15, 0x02, 0x00, 0x12, 0x18, 0x14]),
    Buffer.from(`3EB0${String(n).padStart(16, "0")}`),
  ]);
  return `wamid.${bytes.toString("base64")}`;
}

describe("a whole run's logs (LOG_REDACT on)", () => {
  let llm: ScriptedOpenAI;
  let h: SchedulerHarness;
  const planner: { json: unknown }[] = [];
  const db = recordingCapability({
    fails: ["explode"],
    ask: { q1: { question: "Which one?", options: ["Red", "Blue"] } },
  });

  beforeAll(async () => {
    llm = await ScriptedOpenAI.start();
    llm.on(isPlanner, () => planner.shift() ?? { json: GENERAL_PLAN });
    llm.on((req) => !isPlanner(req), echoReply);
    h = await createSchedulerHarness({ llm, capabilities: db.register, start: "2026-03-02T07:00:00Z" });
    await h.user(PHONE);
  });

  afterAll(async () => {
    await h.close();
    await llm.close();
  });

  /** Delivers `text` as a message with a Cloud API id, and waits for Memo's answer. */
  async function say(text: string, n: number, extra: { replyTo?: string } = {}) {
    const id = cloudApiWamid(PHONE, n);
    const before = h.graphApi.sent.length;
    await h.deliver(textMessage(PHONE, text, h.clock.now(), { id, ...extra }));
    await h.graphApi.waitForSent(before + 1, 10_000);
    await h.idle();
    return { id, answer: h.graphApi.sent.at(-1)! };
  }

  it("hold the number in no form, in no line: turns, a failing executor, the idempotency path, a question, a reminder", async () => {
    expect(cloudApiWamid(PHONE, 1).startsWith("wamid.HBgM")).toBe(true);
    expect(phoneIn(cloudApiWamid(PHONE, 1), PHONE)).toBeDefined();

    // A plain turn, with words that must not be logged.
    const first = await say(SECRET_WORDS, 1);

    // An executor that throws, with the operation id (message id : step) in its error.
    planner.push(plan({ steps: [step("s1", "database", "explode")] }));
    await say("do the risky thing", 2);
    expect(db.executed.map((e) => e.functionName)).toContain("explode");

    // A question, answered by a reply to it.
    planner.push(plan({ steps: [step("q1", "database", "archive")] }));
    const asked = await say("archive it", 3);
    expect(JSON.stringify(asked.answer.body)).toContain("Which one?");
    await say("Blue", 4, { replyTo: asked.answer.id });
    expect(db.executed.map((e) => e.functionName)).toContain("archive");

    // The idempotency path: the ledger holds the step, its result is gone (a resumed turn).
    const resumed = cloudApiWamid(PHONE, 5);
    const operationId = `${resumed}:s1`;
    planner.push(plan({ steps: [step("s1", "database", "archive")] }));
    await withTurn({ traceId: resumed, phone: PHONE, trigger: "user" }, () =>
      h.memo.graph.invoke(
        {
          threadId: PHONE,
          traceId: resumed,
          input: {
            message: "archive it again",
            triggerType: "user",
            userPhone: PHONE,
            whatsappMessageId: resumed,
          },
          executedOperations: {
            [operationId]: {
              operationId,
              stepId: "s1",
              capability: "database",
              functionName: "archive",
              success: true,
              at: h.clock.now(),
            },
          },
        },
        { configurable: { thread_id: `idempotency-${PHONE}` } },
      ),
    );

    // A delivery receipt for Memo's first answer, and a reminder through the scheduler.
    await h.post(
      webhookBody([
        {
          statuses: [
            {
              id: first.answer.id,
              status: "read",
              timestamp: String(h.clock.now() / 1000),
              recipient_id: PHONE,
            },
          ],
        },
      ]),
    );
    await h.remind(PHONE, "call the bank", { dueDate: "in 2 minutes" });
    h.at(Date.parse("2026-03-02T07:03:00Z"));
    await h.pass();
    expect(h.sentTo(PHONE).at(-1)).toContain("call the bank");
    await h.idle();

    const lines = h.logs().map((l) => JSON.stringify(l));
    // The paths under test wrote their lines.
    const events = h.logs().map((l) => `${String(l.event)} ${String(l.msg)}`);
    expect(events.some((e) => e.includes("executor failed"))).toBe(true);
    expect(events.some((e) => e.startsWith("IDEMPOTENCY_MISSING_RESULT"))).toBe(true);
    expect(lines.length).toBeGreaterThan(10);
    const leaks = lines.flatMap((line) => {
      const form = phoneIn(line, PHONE);
      return form ? [`${form}: ${line}`] : [];
    });
    expect(leaks).toEqual([]);
    for (const words of ["4417", "A1234567"]) expect(lines.join("\n")).not.toContain(words);
    // Every line of the first turn names it, by its tag.
    const turn = h.logs().find((l) => l.event === "turn" && l.traceId === scrubIdentifiers(first.id));
    expect(turn).toMatchObject({ user: phoneTag(PHONE) });
  });
});

describe("captureLogs", () => {
  it("uses the production redaction (tests see what production logs)", () => {
    const { logger, lines } = captureLogs();
    logger.info({ phone: PHONE }, "x");
    expect(lines()[0]!.phone).toBe(phoneTag(PHONE));
  });
});
