// Debug forwarding (spec 002 §3.4, DebugForwarderService): the webhooks of the phones in
// DEBUG_FORWARD_PHONES also go to a developer's endpoint, signed with DEBUG_FORWARD_SECRET the way
// Meta signs, so a local Memo can run on real traffic of test phones. The webhook's 200 and the
// user's own turn never wait for it, nor fail with it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/env.js";
import { DebugForwarderService } from "../../src/transport/whatsapp/debugForwarder.js";
import { verifySignature } from "../../src/transport/whatsapp/signature.js";
import { captureLogs } from "../support/logs.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  createWhatsAppHarness,
  echoLLM,
  textMessage,
  webhookBody,
  type WhatsAppHarness,
} from "../support/whatsappHarness.js";

const SECRET = "debug-forward-secret-0123";
const DEBUG_PHONE = "972501110001";
const OTHER_PHONE = "972501110002";

/** What the developer's endpoint received: the raw bytes and whether their signature held. */
interface Received {
  body: string;
  signed: boolean;
}

/** A developer's Memo stand-in on a free port: it checks each body's signature as a Memo would. */
async function receiver(
  options: { hang?: boolean } = {},
): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    // A stuck endpoint: reads nothing, answers nothing.
    if (options.hang) return;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const signed = verifySignature(raw, req.headers["x-hub-signature-256"] as string | undefined, SECRET);
      received.push({ body: raw.toString("utf8"), signed });
      res.writeHead(signed ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook/whatsapp`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("debug forwarding", () => {
  let llm: ScriptedOpenAI;
  let h: WhatsAppHarness | undefined;
  beforeAll(async () => {
    llm = await ScriptedOpenAI.start();
    echoLLM(llm);
  });
  afterAll(async () => llm.close());
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /** The app with forwarding of DEBUG_PHONE (written "+972 50-111-0001", as an operator might) to `url`. */
  const harness = async (url: string) => {
    h = await createWhatsAppHarness({
      llm,
      env: {
        DEBUG_FORWARD_URL: url,
        DEBUG_FORWARD_PHONES: "+972 50-111-0001, +1 415 555 0100",
        DEBUG_FORWARD_SECRET: SECRET,
      },
    });
    await h.knownUser(DEBUG_PHONE);
    await h.knownUser(OTHER_PHONE);
    return h;
  };

  it("forwards the debug phone's webhook, signed over its exact bytes, and its turn runs as usual", async () => {
    const dev = await receiver();
    try {
      const memo = await harness(dev.url);
      const raw = JSON.stringify(
        webhookBody([{ messages: [textMessage(DEBUG_PHONE, "שלום, what's up?", memo.clock.now())] }]),
      );
      expect((await memo.post(raw)).status).toBe(200);
      await expect.poll(() => dev.received.length).toBe(1);
      // Byte for byte what Meta sent (Hebrew included), and the developer's Memo accepts the signature.
      expect(dev.received[0]).toEqual({ body: raw, signed: true });
      await memo.graphApi.waitForSent(1);
      expect(memo.graphApi.textsTo(DEBUG_PHONE).join("\n")).toContain("echo:");
    } finally {
      await dev.close();
    }
  });

  it("forwards nothing of another phone, and only the debug phone's part of a shared body", async () => {
    const dev = await receiver();
    try {
      const memo = await harness(dev.url);
      const now = memo.clock.now();
      await memo.deliver(textMessage(OTHER_PHONE, "not for the developer", now));
      await memo.graphApi.waitForSent(1);
      expect(memo.graphApi.textsTo(OTHER_PHONE).join("\n")).toContain("echo:");

      await memo.deliver(
        textMessage(OTHER_PHONE, "private words", now),
        textMessage(DEBUG_PHONE, "test words", now),
      );
      await expect.poll(() => dev.received.length).toBe(1);
      expect(dev.received[0]!.signed).toBe(true);
      expect(dev.received[0]!.body).toContain("test words");
      expect(dev.received[0]!.body).not.toContain("private words");
      expect(dev.received[0]!.body).not.toContain(OTHER_PHONE);
      await memo.graphApi.waitForSent(3);
      // Both users got their answers.
      expect(memo.graphApi.textsTo(OTHER_PHONE)).toHaveLength(2);
      expect(memo.graphApi.textsTo(DEBUG_PHONE)).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(dev.received).toHaveLength(1);
    } finally {
      await dev.close();
    }
  });

  it("still answers 200 and runs the turn when the developer's endpoint is down, and logs why", async () => {
    const dev = await receiver();
    await dev.close();
    const memo = await harness(dev.url);
    const res = await memo.deliver(textMessage(DEBUG_PHONE, "are you there?", memo.clock.now()));
    expect(res.status).toBe(200);
    await memo.graphApi.waitForSent(1);
    expect(memo.graphApi.textsTo(DEBUG_PHONE).join("\n")).toContain("echo: are you there?");
    const failed = () => memo.logs().find((line) => line.event === "DEBUG_FORWARD_FAILED");
    await expect.poll(failed).toMatchObject({ msg: "debug forward failed" });
    expect(String(failed()!.cause)).toContain("ECONNREFUSED");
  });
});

describe("DEBUG_FORWARD_* settings", () => {
  it("are all required together", () => {
    expect(() => loadConfig({ DEBUG_FORWARD_URL: "http://127.0.0.1:3001/webhook/whatsapp" })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ DEBUG_FORWARD_PHONES: "not a phone" })).toThrow(/DEBUG_FORWARD_PHONES/);
    const config = loadConfig({
      DEBUG_FORWARD_URL: "http://127.0.0.1:3001/webhook/whatsapp",
      DEBUG_FORWARD_PHONES: "+972 50-111-0001",
      DEBUG_FORWARD_SECRET: SECRET,
    });
    expect(config.whatsapp.debugForward).toEqual({
      url: "http://127.0.0.1:3001/webhook/whatsapp",
      phones: [DEBUG_PHONE],
      secret: SECRET,
    });
    expect(loadConfig({}).whatsapp.debugForward).toBeUndefined();
  });

  it("refuse a plain-http endpoint in production: test phones' messages are real traffic", () => {
    const given = {
      DEBUG_FORWARD_URL: "http://dev.example.com/webhook/whatsapp",
      DEBUG_FORWARD_PHONES: "+972 50-111-0001",
      DEBUG_FORWARD_SECRET: SECRET,
    };
    const production = {
      NODE_ENV: "production",
      DATABASE_URL: "postgresql://memo@db.example.com/memo",
      WHATSAPP_APP_SECRET: "app-secret",
      WHATSAPP_ACCESS_TOKEN: "token",
      WHATSAPP_VERIFY_TOKEN: "verify",
      WHATSAPP_PHONE_NUMBER_ID: "123",
      OPENAI_API_KEY: "sk-test",
      TOKEN_ENCRYPTION_KEY: "07".repeat(32),
    };
    expect(() => loadConfig({ ...production, ...given })).toThrow(/must be an https URL/);
    const https = { ...given, DEBUG_FORWARD_URL: "https://dev.example.com/webhook/whatsapp" };
    expect(loadConfig({ ...production, ...https }).whatsapp.debugForward?.url).toBe(https.DEBUG_FORWARD_URL);
    expect(loadConfig(given).whatsapp.debugForward?.url).toBe(given.DEBUG_FORWARD_URL);
  });
});

describe("DebugForwarderService", () => {
  it("gives up on an endpoint that does not answer within its timeout, and says so", async () => {
    const dev = await receiver({ hang: true });
    const { logger, lines } = captureLogs();
    try {
      const forwarder = new DebugForwarderService({
        url: dev.url,
        phones: [DEBUG_PHONE],
        secret: SECRET,
        logger,
        timeoutMs: 200,
      });
      const started = performance.now();
      forwarder.forward(
        Buffer.from(JSON.stringify(webhookBody([{ messages: [textMessage(DEBUG_PHONE, "hi", 0)] }]))),
      );
      // forward returned at once; the send ends within its timeout.
      expect(performance.now() - started).toBeLessThan(50);
      await forwarder.idle();
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(lines().find((line) => line.event === "DEBUG_FORWARD_FAILED")).toMatchObject({ timeoutMs: 200 });
    } finally {
      await dev.close();
    }
  });
});
