// Logs: one JSON line per event, with the turn's trace id; phone numbers tagged, bodies,
// email content and credentials never written (the pino redaction list).
import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/utils/logger.js";
import { phoneTag, scrubIdentifiers } from "../../src/utils/phone.js";
import { withTurn } from "../../src/utils/turnContext.js";
import { captureLogs } from "../support/logs.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  createWhatsAppHarness,
  echoLLM,
  textMessage,
  type WhatsAppHarness,
} from "../support/whatsappHarness.js";

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

describe("a conversation's logs", () => {
  let llm: ScriptedOpenAI;
  let wa: WhatsAppHarness;

  beforeAll(async () => {
    llm = await ScriptedOpenAI.start();
    echoLLM(llm);
    wa = await createWhatsAppHarness({ llm });
    await wa.knownUser(PHONE);
  });

  afterAll(async () => {
    await wa.close();
    await llm.close();
  });

  it("hold neither the number nor the words, and tie every line of the turn to its message id", async () => {
    const message = textMessage(PHONE, SECRET_WORDS, wa.clock.now());
    await wa.deliver(message);
    await wa.graphApi.waitForSent(1, 10_000);
    await wa.idle();
    const lines = wa.logs();
    const raw = JSON.stringify(lines);
    expect(raw).not.toContain(PHONE);
    expect(raw).not.toContain("4417");
    expect(raw).not.toContain("A1234567");
    const turn = lines.find((l) => l.event === "turn");
    expect(turn).toBeDefined();
    expect(turn).toMatchObject({ traceId: scrubIdentifiers(message.id), user: phoneTag(PHONE) });
    // Every line written while the message was handled names it.
    const during = lines.filter((l) => l.user === phoneTag(PHONE));
    expect(during.length).toBeGreaterThan(1);
    for (const line of during) expect(line.traceId).toBe(scrubIdentifiers(message.id));
  });
});

describe("captureLogs", () => {
  it("uses the production redaction (tests see what production logs)", () => {
    const { logger, lines } = captureLogs();
    logger.info({ phone: PHONE }, "x");
    expect(lines()[0]!.phone).toBe(phoneTag(PHONE));
  });
});
