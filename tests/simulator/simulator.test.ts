import { createHash, createHmac } from "node:crypto";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import type { IncomingHttpHeaders, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import request from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/env.js";
import { createSimulator, type SimulatorOptions } from "../../src/transport/simulator/index.js";
import { isLoopback } from "../../src/transport/simulator/localOnly.js";
import type { SimMessage } from "../../src/transport/simulator/store.js";
import type { Logger } from "../../src/utils/logger.js";
import { createLogger } from "../../src/utils/logger.js";
import { fakeClock, type FakeClock } from "../support/clock.js";
import { PRODUCTION_ENV } from "../support/env.js";
import { captureLogs } from "../support/logs.js";
import { createWhatsAppHarness } from "../support/whatsappHarness.js";

const PHONE = "972501234567";
const PHONE_NUMBER_ID = "1234567890";
const DISPLAY = "15550001234";
const SECRET = "app-secret-for-tests";
const START = "2026-03-01T09:00:00Z";
const START_SECONDS = String(Date.parse(START) / 1000);

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

interface Received {
  raw: Buffer;
  headers: IncomingHttpHeaders;
  json: WebhookJson;
}

/** The parts of a webhook body the assertions read. */
interface WebhookJson {
  object: string;
  entry: { id: string; changes: { field: string; value: Record<string, unknown> }[] }[];
}

type Json = Record<string, unknown>;

interface Harness {
  base: string;
  sim: string;
  clock: FakeClock;
  received: Received[];
  /** The status the fake webhook answers with. */
  webhookAnswers: { status: number };
  close(): void;
}

const running: { server: Server; close(): void }[] = [];
const scratch: string[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.close();
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
  }
  for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A fresh DATA_DIR, removed after the test. */
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "memo-sim-data-"));
  scratch.push(dir);
  return dir;
}

interface HarnessSetup {
  /** The peer address every request appears to come from (the test server listens on 127.0.0.1). */
  remoteAddress?: string;
  logger?: Logger;
}

/** The simulator mounted as the app mounts it, beside a fake webhook that records raw bodies. */
async function start(options: Partial<SimulatorOptions> = {}, setup: HarnessSetup = {}): Promise<Harness> {
  const clock = fakeClock(START);
  const received: Received[] = [];
  const webhookAnswers = { status: 200 };
  let base = "";
  const app = express();
  app.post("/webhook/whatsapp", express.raw({ type: () => true }), (req, res) => {
    const raw = req.body as Buffer;
    received.push({ raw, headers: req.headers, json: JSON.parse(raw.toString("utf8")) as WebhookJson });
    res.sendStatus(webhookAnswers.status);
  });
  const simulator = createSimulator({
    webhookUrl: () => `${base}/webhook/whatsapp`,
    phoneNumberId: PHONE_NUMBER_ID,
    publicUrl: () => `${base}/dev/whatsapp`,
    logger: setup.logger ?? createLogger("silent"),
    clock: clock.now,
    statusDelayMs: 2,
    ...options,
  });
  if (setup.remoteAddress !== undefined) {
    const remoteAddress = setup.remoteAddress;
    app.use((req, _res, next) => {
      // Shadows net.Socket's getter on this socket only, as a LAN client's connection would read.
      Object.defineProperty(req.socket, "remoteAddress", { value: remoteAddress, configurable: true });
      next();
    });
  }
  app.use("/dev/whatsapp", simulator.router);
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  running.push({ server, close: simulator.close });
  return { base, sim: `${base}/dev/whatsapp`, clock, received, webhookAnswers, close: simulator.close };
}

async function post(url: string, body: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const userSends = (h: Harness, body: Json) => post(`${h.sim}/api/messages`, { phone: PHONE, ...body });
const graphSend = (h: Harness, body: Json) =>
  post(`${h.sim}/graph/v23.0/${PHONE_NUMBER_ID}/messages`, {
    messaging_product: "whatsapp",
    to: PHONE,
    ...body,
  });

async function until<T>(
  find: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 3000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function valueOf(received: Received): Json {
  const value = received.json.entry[0]?.changes[0]?.value;
  if (!value) throw new Error("webhook without entry[0].changes[0].value");
  return value;
}

function messagesIn(h: Harness): Json[] {
  return h.received.flatMap((r) => (valueOf(r).messages as Json[] | undefined) ?? []);
}

function statusesIn(h: Harness): Json[] {
  return h.received.flatMap((r) => (valueOf(r).statuses as Json[] | undefined) ?? []);
}

async function conversation(h: Harness, phone = PHONE): Promise<SimMessage[]> {
  const res = await fetch(`${h.sim}/api/messages?phone=${phone}`);
  return ((await res.json()) as { messages: SimMessage[] }).messages;
}

/** An open /events stream, parsed into events as they come. */
async function events(h: Harness, phone = PHONE) {
  const controller = new AbortController();
  const res = await fetch(`${h.sim}/events?phone=${phone}`, { signal: controller.signal });
  const list: { event: string; data: Json }[] = [];
  let raw = "";
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const done = (async () => {
    try {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) return;
        raw += value;
        let end: number;
        while ((end = raw.indexOf("\n\n")) >= 0) {
          const block = raw.slice(0, end);
          raw = raw.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) list.push({ event, data: JSON.parse(data) as Json });
          else if (block.startsWith(":")) list.push({ event: "comment", data: { text: block } });
        }
      }
    } catch {
      // Aborted by the test.
    }
  })();
  return { res, list, done, close: () => controller.abort() };
}

describe("WhatsApp simulator: the user's messages become Cloud API webhooks", () => {
  it("posts a text message exactly as Meta does, signed over the raw bytes", async () => {
    const h = await start({ appSecret: SECRET });
    const res = await userSends(h, { type: "text", text: "שלום Memo", name: "Dana" });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^wamid\.SIM[0-9A-F]+$/) as string,
      webhookStatus: 200,
    });
    expect(h.received).toHaveLength(1);
    const [hook] = h.received;
    expect(hook!.headers["content-type"]).toBe("application/json");
    const expected = `sha256=${createHmac("sha256", SECRET).update(hook!.raw).digest("hex")}`;
    expect(hook!.headers["x-hub-signature-256"]).toBe(expected);
    expect(hook!.json).toEqual({
      object: "whatsapp_business_account",
      entry: [
        {
          id: expect.any(String) as string,
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { display_phone_number: DISPLAY, phone_number_id: PHONE_NUMBER_ID },
                contacts: [{ profile: { name: "Dana" }, wa_id: PHONE }],
                messages: [
                  {
                    from: PHONE,
                    id: res.body.id,
                    timestamp: START_SECONDS,
                    type: "text",
                    text: { body: "שלום Memo" },
                  },
                ],
              },
            },
          ],
        },
      ],
    });
    // The app took it: two grey ticks.
    expect((await conversation(h))[0]).toMatchObject({
      id: res.body.id,
      direction: "in",
      status: "delivered",
    });
  });

  it("posts unsigned bodies when no app secret is configured", async () => {
    const h = await start();
    await userSends(h, { type: "text", text: "hi" });
    expect(h.received).toHaveLength(1);
    expect(h.received[0]!.headers["x-hub-signature-256"]).toBeUndefined();
  });

  it("sends an image with its caption, and serves the bytes through the Graph API media endpoints", async () => {
    const h = await start({ appSecret: SECRET });
    const res = await userSends(h, {
      type: "image",
      caption: "receipt",
      media: { base64: PNG.toString("base64"), mimeType: "image/png", filename: "r.png" },
    });
    expect(res.body.webhookStatus).toBe(200);
    const [message] = messagesIn(h);
    const sha256 = createHash("sha256").update(PNG).digest("hex");
    expect(message).toEqual({
      from: PHONE,
      id: res.body.id,
      timestamp: START_SECONDS,
      type: "image",
      image: {
        caption: "receipt",
        mime_type: "image/png",
        sha256,
        id: expect.stringMatching(/^[0-9]+$/) as string,
      },
    });

    const mediaId = (message!.image as { id: string }).id;
    const meta = await fetch(`${h.sim}/graph/v23.0/${mediaId}`, { headers: { Authorization: "Bearer x" } });
    expect(meta.status).toBe(200);
    const info = (await meta.json()) as Json;
    expect(info).toEqual({
      messaging_product: "whatsapp",
      url: expect.stringMatching(new RegExp(`^${h.sim}/media/${mediaId}\\?token=[0-9a-f]+$`)) as string,
      mime_type: "image/png",
      sha256,
      file_size: PNG.length,
      id: mediaId,
    });
    const download = await fetch(info.url as string);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);

    expect((await fetch(`${h.sim}/media/999999`)).status).toBe(404);
    expect((await fetch(`${h.sim}/media/${mediaId}?token=wrong`)).status).toBe(401);
    const unknown = await fetch(`${h.sim}/graph/v23.0/424242`);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: Json }).error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it("sends a voice note as audio with voice: true", async () => {
    const h = await start();
    const bytes = Buffer.from("OggS-fake-opus");
    await userSends(h, {
      type: "audio",
      voice: true,
      media: { base64: bytes.toString("base64"), mimeType: "audio/ogg; codecs=opus" },
    });
    expect(messagesIn(h)[0]).toMatchObject({
      type: "audio",
      audio: {
        id: expect.any(String) as string,
        mime_type: "audio/ogg; codecs=opus",
        sha256: createHash("sha256").update(bytes).digest("hex"),
        voice: true,
      },
    });
  });

  it("sends button and list taps as interactive replies quoting the message that offered them", async () => {
    const h = await start();
    await userSends(h, { type: "text", text: "remind me" });
    const offer = await graphSend(h, {
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: "Add it?" },
        action: { buttons: [{ type: "reply", reply: { id: "yes-1", title: "Yes" } }] },
      },
    });
    const offerId = (offer.body.messages as { id: string }[])[0]!.id;
    await userSends(h, {
      type: "interactive",
      interactive: { type: "button_reply", id: "yes-1", title: "Yes" },
    });
    await userSends(h, {
      type: "interactive",
      interactive: { type: "list_reply", id: "row-2", title: "Tomorrow", description: "9:00" },
    });

    const [, button, list] = messagesIn(h);
    expect(button).toMatchObject({
      type: "interactive",
      context: { from: DISPLAY, id: offerId },
      interactive: { type: "button_reply", button_reply: { id: "yes-1", title: "Yes" } },
    });
    expect(list).toMatchObject({
      type: "interactive",
      interactive: {
        type: "list_reply",
        list_reply: { id: "row-2", title: "Tomorrow", description: "9:00" },
      },
    });
    // No message offered row-2, so nothing is quoted.
    expect(list).not.toHaveProperty("context");
  });

  it("shows a template's quick replies as buttons, and sends a tap as a button message quoting it", async () => {
    const h = await start();
    const quickReply = (index: string, payload: string) => ({
      type: "button",
      sub_type: "quick_reply",
      index,
      parameters: [{ type: "payload", payload }],
    });
    // Listed out of order: the buttons show in index order.
    const invitation = await graphSend(h, {
      type: "template",
      template: {
        name: "memo_household",
        language: { code: "he" },
        components: [
          { type: "body", parameters: [{ type: "text", text: "👋 יוסי מזמין/ה אותך למשק בית" }] },
          quickReply("1", "hh:decline:inv-1"),
          quickReply("0", "hh:accept:inv-1"),
        ],
      },
    });
    expect(invitation.status).toBe(200);
    const invitationId = (invitation.body.messages as { id: string }[])[0]!.id;
    expect((await conversation(h)).at(-1)?.template).toEqual({
      name: "memo_household",
      language: "he",
      buttons: [
        { id: "hh:accept:inv-1", title: "אישור" },
        { id: "hh:decline:inv-1", title: "לא תודה" },
      ],
    });
    // Titles are not in the send: any other payload is its own title.
    await graphSend(h, {
      type: "template",
      template: { name: "other", language: { code: "en_US" }, components: [quickReply("0", "snooze:42")] },
    });
    expect((await conversation(h)).at(-1)?.template?.buttons).toEqual([
      { id: "snooze:42", title: "snooze:42" },
    ]);

    const tap = await userSends(h, { type: "button", button: { payload: "hh:accept:inv-1", text: "אישור" } });
    expect(tap.status).toBe(200);
    expect(messagesIn(h).at(-1)).toMatchObject({
      type: "button",
      context: { from: DISPLAY, id: invitationId },
      button: { payload: "hh:accept:inv-1", text: "אישור" },
    });
    expect((await conversation(h)).at(-1)).toMatchObject({
      direction: "in",
      type: "button",
      text: "אישור",
      context: { id: invitationId, direction: "out" },
    });
  });

  it("quotes the replied-to message in context, with its author", async () => {
    const h = await start();
    const first = await userSends(h, { type: "text", text: "first" });
    const memo = await graphSend(h, { type: "text", text: { body: "Hello from Memo" } });
    const memoId = (memo.body.messages as { id: string }[])[0]!.id;

    await userSends(h, { type: "text", text: "about that", replyTo: memoId });
    await userSends(h, { type: "text", text: "and this", replyTo: first.body.id });

    const [, toMemo, toSelf] = messagesIn(h);
    expect(toMemo).toMatchObject({ context: { from: DISPLAY, id: memoId }, text: { body: "about that" } });
    expect(toSelf).toMatchObject({ context: { from: PHONE, id: first.body.id }, text: { body: "and this" } });
    const stored = await conversation(h);
    expect(stored.at(-2)?.context).toEqual({ id: memoId, direction: "out", preview: "Hello from Memo" });

    const unknown = await userSends(h, { type: "text", text: "x", replyTo: "wamid.nope" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/replyTo/);
  });

  it("marks a message forwarded in context.forwarded, as Meta does, and shows it on the page", async () => {
    const h = await start();
    const sent = await userSends(h, { type: "text", text: "Dinner at 8 on Friday?", forwarded: true });
    expect(sent.status).toBe(200);
    await userSends(h, {
      type: "document",
      media: { base64: Buffer.from("Dentist on Monday at 10").toString("base64"), mimeType: "text/plain" },
      caption: "from Dana",
      forwarded: true,
    });
    await userSends(h, { type: "text", text: "my own words" });

    const [text, document, own] = messagesIn(h);
    // A forwarded message quotes nothing: its context holds the flag alone.
    expect(text).toMatchObject({ type: "text", text: { body: "Dinner at 8 on Friday?" } });
    expect(text!.context).toEqual({ forwarded: true });
    expect(document).toMatchObject({ type: "document", context: { forwarded: true } });
    expect(own).not.toHaveProperty("context");
    const stored = await conversation(h);
    expect(stored.map((m) => m.forwarded ?? false)).toEqual([true, true, false]);

    const reaction = await userSends(h, {
      type: "reaction",
      reaction: { messageId: sent.body.id, emoji: "👍" },
      forwarded: true,
    });
    expect(reaction.status).toBe(400);
    expect(reaction.body.message).toMatch(/forwarded: a reaction message cannot be forwarded/);
  });

  it("sends reactions and locations in Meta's shapes", async () => {
    const h = await start();
    const memo = await graphSend(h, { to: "+972 (50) 123-4567", type: "text", text: { body: "Done!" } });
    expect(memo.body.contacts).toEqual([{ input: "+972 (50) 123-4567", wa_id: PHONE }]);
    const memoId = (memo.body.messages as { id: string }[])[0]!.id;
    await userSends(h, { type: "reaction", reaction: { messageId: memoId, emoji: "👍" } });
    await userSends(h, { type: "reaction", reaction: { messageId: memoId, emoji: "" } });
    await userSends(h, {
      type: "location",
      location: { latitude: 32.0853, longitude: 34.7818, name: "Office", address: "Rothschild 1" },
    });
    const [reacted, unreacted, location] = messagesIn(h);
    expect(reacted).toMatchObject({ type: "reaction", reaction: { message_id: memoId, emoji: "👍" } });
    // Meta leaves the emoji out when a reaction is removed.
    expect(unreacted!.reaction).toEqual({ message_id: memoId });
    expect(location).toMatchObject({
      type: "location",
      location: { latitude: 32.0853, longitude: 34.7818, name: "Office", address: "Rothschild 1" },
    });
  });

  it("marks the bubble failed with the webhook's status when the app refuses it", async () => {
    const h = await start();
    h.webhookAnswers.status = 401;
    const res = await userSends(h, { type: "text", text: "hi" });
    expect(res.body).toMatchObject({ webhookStatus: 401, error: expect.stringContaining("401") as string });
    expect((await conversation(h))[0]).toMatchObject({ status: "failed", webhookStatus: 401 });
  });

  it("reports an unreachable webhook without failing the request", async () => {
    const h = await start({ webhookUrl: () => "http://127.0.0.1:1/webhook/whatsapp" });
    const res = await userSends(h, { type: "text", text: "hi" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      webhookStatus: null,
      error: expect.stringMatching(/Webhook failed/) as string,
    });
  });

  it("rejects bad input with a 400 that says what is wrong", async () => {
    const h = await start();
    const cases: [Json, RegExp][] = [
      [{ phone: "+972-50", type: "text", text: "hi" }, /phone: must be 6 to 15 digits/],
      [{ phone: PHONE, type: "text" }, /text: is required/],
      [{ phone: PHONE, type: "fax" }, /type:/],
      [{ phone: PHONE, type: "image" }, /media: is required/],
      [
        { phone: PHONE, type: "image", media: { base64: PNG.toString("base64"), mimeType: "audio/ogg" } },
        /media\.mimeType: must be image\/\*/,
      ],
      [{ phone: PHONE, type: "image", media: { base64: "!!!", mimeType: "image/png" } }, /media\.base64/],
      [
        {
          phone: PHONE,
          type: "document",
          media: { base64: "", mimeType: "text/plain", filename: "empty.txt" },
        },
        /media\.base64: the file is empty \(0 bytes\)/,
      ],
      [
        {
          phone: PHONE,
          type: "document",
          media: { base64: "data:text/plain;base64,", mimeType: "text/plain" },
        },
        /media\.base64: the file is empty \(0 bytes\)/,
      ],
      [{ phone: PHONE, type: "interactive" }, /interactive: is required/],
      [
        { phone: PHONE, type: "reaction", reaction: { messageId: "wamid.x", emoji: "👍" } },
        /reaction\.messageId/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post(`${h.sim}/api/messages`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    const broken = await post(`${h.sim}/api/messages`, "{not json");
    expect(broken.status).toBe(400);
    expect((await fetch(`${h.sim}/events?phone=abc`)).status).toBe(400);
    expect(h.received).toHaveLength(0);
  });
});

describe("WhatsApp simulator: the Graph API stand-in", () => {
  it("accepts a send like Meta, shows it on the page's stream, and reports sent then delivered", async () => {
    const h = await start({ appSecret: SECRET });
    await userSends(h, { type: "text", text: "hi" });
    const stream = await events(h);
    expect(stream.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await until(() => stream.list.find((e) => e.event === "snapshot"), "the snapshot");
    expect((stream.list[0]!.data.messages as SimMessage[]).map((m) => m.text)).toEqual(["hi"]);

    const res = await graphSend(h, { recipient_type: "individual", type: "text", text: { body: "Hello!" } });
    expect(res.status).toBe(200);
    const id = (res.body.messages as { id: string }[])[0]!.id;
    expect(res.body).toEqual({
      messaging_product: "whatsapp",
      contacts: [{ input: PHONE, wa_id: PHONE }],
      messages: [{ id: expect.stringMatching(/^wamid\.SIM/) as string }],
    });
    const live = await until(
      () => stream.list.find((e) => e.event === "message" && e.data.id === id),
      "Memo's message on the stream",
    );
    expect(live.data).toMatchObject({ direction: "out", type: "text", text: "Hello!", phone: PHONE });

    const statuses = await until(
      () => (statusesIn(h).length >= 2 ? statusesIn(h) : undefined),
      "two statuses",
    );
    expect(statuses.map((s) => s.status)).toEqual(["sent", "delivered"]);
    expect(statuses[0]).toMatchObject({
      id,
      recipient_id: PHONE,
      timestamp: START_SECONDS,
      conversation: { origin: { type: "service" } },
      pricing: { billable: true, pricing_model: "CBP", category: "service" },
    });
    const statusHook = h.received.at(-1)!;
    expect(statusHook.headers["x-hub-signature-256"]).toBe(
      `sha256=${createHmac("sha256", SECRET).update(statusHook.raw).digest("hex")}`,
    );
    expect(valueOf(statusHook).metadata).toEqual({
      display_phone_number: DISPLAY,
      phone_number_id: PHONE_NUMBER_ID,
    });
    stream.close();
  });

  it("sends read once the page acknowledges it displayed Memo's message", async () => {
    const h = await start();
    await userSends(h, { type: "text", text: "hi" });
    const res = await graphSend(h, { type: "text", text: { body: "Hello!" } });
    const id = (res.body.messages as { id: string }[])[0]!.id;
    const ack = await post(`${h.sim}/api/read`, { phone: PHONE, ids: [id] });
    expect(ack.body).toEqual({ read: 1 });
    const statuses = await until(
      () => (statusesIn(h).length >= 3 ? statusesIn(h) : undefined),
      "three statuses",
    );
    expect(statuses.map((s) => [s.id, s.status])).toEqual([
      [id, "sent"],
      [id, "delivered"],
      [id, "read"],
    ]);
    expect(statuses[2]).not.toHaveProperty("pricing");
    // A second ack posts nothing more.
    expect((await post(`${h.sim}/api/read`, { phone: PHONE, ids: [id] })).body).toEqual({ read: 0 });
  });

  it("renders buttons and lists for the page", async () => {
    const h = await start();
    await userSends(h, { type: "text", text: "hi" });
    await graphSend(h, {
      type: "interactive",
      interactive: {
        type: "list",
        header: { type: "text", text: "Reminders" },
        body: { text: "Which one?" },
        footer: { text: "Memo" },
        action: {
          button: "Choose",
          sections: [{ title: "Today", rows: [{ id: "r1", title: "Call mom", description: "18:00" }] }],
        },
      },
    });
    const memo = (await conversation(h)).at(-1);
    expect(memo?.interactive).toEqual({
      type: "list",
      header: "Reminders",
      body: "Which one?",
      footer: "Memo",
      list: {
        button: "Choose",
        sections: [{ title: "Today", rows: [{ id: "r1", title: "Call mom", description: "18:00" }] }],
      },
    });
  });

  it("answers Meta-style 400s for messages WhatsApp would refuse", async () => {
    const h = await start();
    const buttons = (...titles: string[]) => ({
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: "Pick" },
        action: { buttons: titles.map((title, i) => ({ type: "reply", reply: { id: `b${i}`, title } })) },
      },
    });
    const list = (rows: Json[], button = "Choose") => ({
      type: "interactive",
      interactive: {
        type: "list",
        body: { text: "Pick" },
        action: { button, sections: [{ title: "S", rows }] },
      },
    });
    const row = (i: number, extra: Json = {}) => ({ id: `r${i}`, title: `Row ${i}`, ...extra });
    const template = (...components: Json[]) => ({
      type: "template",
      template: { name: "memo_household", language: { code: "en" }, components },
    });
    const payload = { type: "payload", payload: "hh:accept:1" };
    const quick = (index: string) => ({
      type: "button",
      sub_type: "quick_reply",
      index,
      parameters: [payload],
    });
    const cases: [Json, RegExp][] = [
      [buttons("This title is far too long"), /Button title length invalid/],
      [buttons("Yes", "Yes"), /must be unique/],
      [buttons("A", "B", "C", "D"), /Too many buttons/],
      [list(Array.from({ length: 11 }, (_, i) => row(i))), /Total row count exceed max allowed count: 10/],
      [list([row(1, { title: "A row title over 24 chars long" })]), /Row title length invalid/],
      [list([row(1, { description: "d".repeat(73) })]), /Row description length invalid/],
      [list([row(1)], "A list label too long"), /Button label length invalid/],
      [{ type: "text", text: { body: "x".repeat(4097) } }, /Message text length invalid/],
      [{ type: "sms", sms: {} }, /unsupported message type/],
      [template({ type: "body", parameters: [{ type: "text", text: "two\nlines" }] }), /new-line/],
      [template({ type: "button", sub_type: "quick_reply", index: "0", parameters: [] }), /one payload/],
      [template({ type: "button", sub_type: "quick_reply", index: "10", parameters: [payload] }), /0 to 9/],
      [template(quick("0"), quick("0")), /indexes must be unique/],
    ];
    for (const [body, details] of cases) {
      const res = await graphSend(h, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const error = res.body.error as Json;
      expect(error).toMatchObject({
        type: "OAuthException",
        code: 100,
        fbtrace_id: expect.any(String) as string,
      });
      expect((error.error_data as Json).details).toMatch(details);
    }
    // Emoji count as one character each, as WhatsApp counts them.
    expect((await graphSend(h, buttons("👍".repeat(20)))).status).toBe(200);

    const missing = await post(`${h.sim}/graph/v23.0/${PHONE_NUMBER_ID}/messages`, {
      to: PHONE,
      text: { body: "x" },
    });
    expect(missing.status).toBe(400);
    expect((missing.body.error as Json).message).toBe("(#100) The parameter messaging_product is required.");
    const wrongNumber = await post(`${h.sim}/graph/v23.0/999/messages`, {
      messaging_product: "whatsapp",
      to: PHONE,
      text: { body: "x" },
    });
    expect(wrongNumber.status).toBe(400);
    expect(wrongNumber.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it("turns the user's messages blue on a read receipt and shows typing until Memo's next message", async () => {
    const h = await start();
    const first = await userSends(h, { type: "text", text: "one" });
    const second = await userSends(h, { type: "text", text: "two" });
    const stream = await events(h);
    await until(() => stream.list.find((e) => e.event === "snapshot"), "the snapshot");

    const receipt = await graphSend(h, {
      to: undefined,
      status: "read",
      message_id: second.body.id,
      typing_indicator: { type: "text" },
    });
    expect(receipt).toEqual({ status: 200, body: { success: true } });
    expect((await conversation(h)).map((m) => [m.id, m.status])).toEqual([
      [first.body.id, "read"],
      [second.body.id, "read"],
    ]);
    await until(() => stream.list.find((e) => e.event === "typing" && e.data.typing === true), "typing on");
    const ticks = stream.list.filter((e) => e.event === "message" && e.data.status === "read");
    expect(ticks.map((e) => e.data.id)).toEqual([first.body.id, second.body.id]);

    await graphSend(h, { type: "text", text: { body: "done" } });
    await until(() => stream.list.find((e) => e.event === "typing" && e.data.typing === false), "typing off");

    const unknown = await graphSend(h, { status: "read", message_id: "wamid.unknown" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 100 });
    stream.close();
  });

  it("stops typing by itself after the timeout", async () => {
    const h = await start({ typingTimeoutMs: 30 });
    const msg = await userSends(h, { type: "text", text: "hi" });
    const stream = await events(h);
    await graphSend(h, { status: "read", message_id: msg.body.id, typing_indicator: { type: "text" } });
    await until(() => stream.list.find((e) => e.event === "typing" && e.data.typing === false), "typing off");
    stream.close();
  });

  it("fails free-form messages outside the 24-hour service window, as Meta does", async () => {
    const h = await start();
    await userSends(h, { type: "text", text: "hi" });
    h.clock.advance(25 * 60 * 60 * 1000);
    const res = await graphSend(h, { type: "text", text: { body: "Reminder!" } });
    expect(res.status).toBe(200);
    const id = (res.body.messages as { id: string }[])[0]!.id;
    const [failed] = await until(() => (statusesIn(h).length ? statusesIn(h) : undefined), "a status");
    expect(failed).toMatchObject({ id, status: "failed", errors: [{ code: 131047 }] });
    expect((await conversation(h)).at(-1)).toMatchObject({
      status: "failed",
      error: expect.any(String) as string,
    });

    // Templates are allowed outside the window.
    await graphSend(h, { type: "template", template: { name: "reminder", language: { code: "en" } } });
    await until(() => statusesIn(h).find((s) => s.status === "delivered"), "the template delivered");
  });

  it("delivers Memo's messages to a phone it has no record of (history deleted, or never kept)", async () => {
    const h = await start();
    h.clock.advance(48 * 60 * 60 * 1000);
    await graphSend(h, { type: "text", text: { body: "Your reminder" } });
    const statuses = await until(
      () => (statusesIn(h).length >= 2 ? statusesIn(h) : undefined),
      "two statuses",
    );
    expect(statuses.map((s) => s.status)).toEqual(["sent", "delivered"]);
  });
});

describe("WhatsApp simulator: page and limits", () => {
  it("serves a self-contained chat page with stable test ids", async () => {
    const h = await start();
    const res = await fetch(`${h.sim}/`);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    for (const id of [
      "composer-input",
      "send-button",
      "phone-select",
      "attach-image",
      "attach-audio",
      "attach-document",
      "forwarded-toggle",
    ]) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    for (const id of [
      "message",
      "message-button",
      "list-open",
      "list-row",
      "ticks",
      "reply-action",
      "message-forwarded",
    ]) {
      expect(html).toContain(`"data-testid", "${id}"`);
    }
    // The paperclip takes the text files Memo reads: Markdown and CSV too.
    expect(html).toMatch(/accept="[^"]*\.md,\.csv[^"]*text\/markdown,text\/csv/);
    // The list sheet's title follows its text's direction (Hebrew labels align right).
    expect(html).toMatch(/<span dir="auto" data-testid="list-title">/);
    // Nothing loaded from elsewhere.
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    expect(html).not.toMatch(/<script[^>]+src=/);
  });

  it("keeps the newest messages per phone and sends heartbeats; close() ends the streams", async () => {
    const h = await start({ maxMessagesPerPhone: 2, heartbeatMs: 20 });
    for (const text of ["one", "two", "three"]) await userSends(h, { type: "text", text });
    expect((await conversation(h)).map((m) => m.text)).toEqual(["two", "three"]);

    const stream = await events(h);
    await until(() => stream.list.find((e) => e.event === "comment"), "a heartbeat");
    h.close();
    await stream.done;
    expect(stream.list[0]).toMatchObject({ event: "snapshot", data: { phone: PHONE, typing: false } });
  });

  it("evicts the oldest media past the byte budget", async () => {
    const h = await start({ maxMediaBytes: PNG.length * 2 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      await userSends(h, { type: "image", media: { base64: PNG.toString("base64"), mimeType: "image/png" } });
      ids.push((messagesIn(h).at(-1)!.image as { id: string }).id);
    }
    const statuses = await Promise.all(
      ids.map(async (id) => (await fetch(`${h.sim}/graph/v23.0/${id}`)).status),
    );
    expect(statuses).toEqual([400, 200, 200]);
  });
});

describe("WhatsApp simulator: history across restarts", () => {
  const listOffer = {
    type: "interactive",
    interactive: {
      type: "list",
      body: { text: "Which city?" },
      action: { button: "Choose", sections: [{ rows: [{ id: "tz-ny", title: "New York" }] }] },
    },
  };

  it("keeps messages, statuses, media and the service window in dataDir after a restart", async () => {
    const dir = await dataDir();
    const before = await start({ dataDir: dir });
    await userSends(before, { type: "text", text: "hi" });
    await userSends(before, {
      type: "image",
      media: { base64: PNG.toString("base64"), mimeType: "image/png" },
    });
    const mediaId = (messagesIn(before).at(-1)!.image as { id: string }).id;
    const offer = await graphSend(before, listOffer);
    const offerId = (offer.body.messages as { id: string }[])[0]!.id;
    await until(() => statusesIn(before).find((s) => s.status === "delivered"), "the list delivered");
    const kept = await conversation(before);
    before.close();

    const after = await start({ dataDir: dir });
    expect(await conversation(after)).toEqual(kept);
    expect(kept.map((m) => [m.type, m.status])).toEqual([
      ["text", "delivered"],
      ["image", "delivered"],
      ["interactive", "delivered"],
    ]);
    // The list from before the restart can still be tapped, and the tap quotes it.
    await userSends(after, {
      type: "interactive",
      interactive: { type: "list_reply", id: "tz-ny", title: "New York" },
    });
    expect(messagesIn(after)[0]).toMatchObject({ context: { id: offerId } });
    // The image is still served through the Graph API media endpoints.
    const meta = await fetch(`${after.sim}/graph/v23.0/${mediaId}`);
    expect(meta.status).toBe(200);
    const download = await fetch(((await meta.json()) as { url: string }).url);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);
    after.close();

    // The user's last message is remembered: a day later, Memo's free-form message fails as on WhatsApp.
    const later = await start({ dataDir: dir });
    later.clock.advance(25 * 60 * 60 * 1000);
    await graphSend(later, { type: "text", text: { body: "Still there?" } });
    const [failed] = await until(
      () => (statusesIn(later).length ? statusesIn(later) : undefined),
      "a status",
    );
    expect(failed).toMatchObject({ status: "failed", errors: [{ code: 131047 }] });
  });

  it("saves on its own shortly after a change, through a temp file", async () => {
    const dir = await dataDir();
    const h = await start({ dataDir: dir, saveDelayMs: 10 });
    await userSends(h, { type: "text", text: "saved without close" });
    const file = path.join(dir, "simulator", "conversations.json");
    const saved = await until(async () => {
      const text = await readFile(file, "utf8").catch(() => "");
      return text.includes("saved without close") ? text : undefined;
    }, "the saved conversation");
    expect((JSON.parse(saved) as { conversations: Json }).conversations).toHaveProperty(PHONE);
    expect((await readdir(path.dirname(file))).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("stays within the message and media bounds, on disk and when loading", async () => {
    const dir = await dataDir();
    const h = await start({ dataDir: dir, maxMediaBytes: PNG.length * 2 });
    for (let i = 0; i < 3; i++) {
      await userSends(h, { type: "image", media: { base64: PNG.toString("base64"), mimeType: "image/png" } });
    }
    await userSends(h, { type: "text", text: "last" });
    h.close();
    const mediaDir = path.join(dir, "simulator", "media");
    await until(async () => ((await readdir(mediaDir)).length === 2 ? true : undefined), "two media files");

    const smaller = await start({ dataDir: dir, maxMessagesPerPhone: 2 });
    expect((await conversation(smaller)).map((m) => m.type)).toEqual(["image", "text"]);
  });

  it("starts empty, keeping the unreadable file aside, when the saved history is corrupt", async () => {
    const dir = await dataDir();
    const folder = path.join(dir, "simulator");
    const first = await start({ dataDir: dir });
    first.close();
    await writeFile(path.join(folder, "conversations.json"), "{ not json");
    const h = await start({ dataDir: dir });
    expect(await conversation(h)).toEqual([]);
    expect((await readdir(folder)).some((f) => f.startsWith("conversations.json.unreadable-"))).toBe(true);
    await userSends(h, { type: "text", text: "hi" });
    expect(await conversation(h)).toHaveLength(1);
  });

  it("keeps everything in memory when no dataDir is given", async () => {
    const h = await start();
    await userSends(h, { type: "text", text: "hi" });
    h.close();
    expect(existsSync(path.join(process.cwd(), "simulator"))).toBe(false);
    const again = await start();
    expect(await conversation(again)).toEqual([]);
  });
});

describe("WhatsApp simulator: this machine only", () => {
  it("refuses requests from other machines with a 403, warning once per address", async () => {
    const { logger, lines } = captureLogs();
    const h = await start({}, { remoteAddress: "192.168.1.20", logger });
    const page = await fetch(`${h.sim}/`);
    expect(page.status).toBe(403);
    expect(await page.json()).toMatchObject({ error: "forbidden" });
    expect((await userSends(h, { type: "text", text: "hi" })).status).toBe(403);
    expect((await graphSend(h, { type: "text", text: { body: "x" } })).status).toBe(403);
    expect((await fetch(`${h.sim}/api/messages?phone=${PHONE}`)).status).toBe(403);
    expect(h.received).toHaveLength(0);
    const warnings = lines().filter((l) => String(l.msg).includes("another machine"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, remoteAddress: "192.168.1.20" });
  });

  it("refuses another host name (DNS rebinding) and another site's posts; its own page and the configured names work", async () => {
    const { logger, lines } = captureLogs();
    const h = await start({ allowedHosts: ["memo.test"] }, { logger });
    const api = () => request(h.sim);
    const say = { phone: PHONE, type: "text", text: "hi" };
    // evil.example resolving to 127.0.0.1: the peer is loopback, the Host is not.
    const page = await api().get("/").set("Host", "evil.example");
    expect(page.status).toBe(403);
    expect(page.body).toMatchObject({ error: "forbidden" });
    expect((await api().get(`/api/messages?phone=${PHONE}`).set("Host", "evil.example:3000")).status).toBe(
      403,
    );
    expect((await api().post("/api/messages").set("Host", "evil.example").send(say)).status).toBe(403);
    // Another site's page posting to the real address.
    expect((await api().post("/api/messages").set("Origin", "http://evil.example").send(say)).status).toBe(
      403,
    );
    expect((await api().post("/api/messages").set("Origin", "null").send(say)).status).toBe(403);
    expect((await api().post("/api/messages").set("Sec-Fetch-Site", "cross-site").send(say)).status).toBe(
      403,
    );
    expect(h.received).toHaveLength(0);
    expect(lines().filter((l) => String(l.msg).includes("another site's page"))).toHaveLength(3);

    // Its own page (same origin), any loopback name and port, a configured name, tools without Origin.
    const origin = h.base;
    expect(
      (await api().post("/api/messages").set("Origin", origin).set("Sec-Fetch-Site", "same-origin").send(say))
        .status,
    ).toBe(200);
    for (const host of ["localhost:3000", "127.0.0.1", "[::1]:8080", "MEMO.test:3000"]) {
      expect((await api().get("/").set("Host", host)).status, host).toBe(200);
    }
    expect((await api().post("/api/messages").set("Origin", "http://localhost:5173").send(say)).status).toBe(
      200,
    );
    expect((await graphSend(h, { type: "text", text: { body: "x" } })).status).toBe(200);
    await until(() => (h.received.length === 2 ? true : undefined), "both messages");
  });

  it("reads the extra host names from SIMULATOR_ALLOWED_HOSTS", () => {
    const base = { NODE_ENV: "test", WHATSAPP_SIMULATOR: "on" };
    expect(loadConfig(base).whatsapp.simulatorAllowedHosts).toEqual([]);
    expect(
      loadConfig({ ...base, SIMULATOR_ALLOWED_HOSTS: " Memo.test, dev.box " }).whatsapp.simulatorAllowedHosts,
    ).toEqual(["memo.test", "dev.box"]);
  });

  it("answers loopback peers, IPv4-mapped ones included", async () => {
    const h = await start({}, { remoteAddress: "::ffff:127.0.0.1" });
    expect((await userSends(h, { type: "text", text: "hi" })).status).toBe(200);
    expect(isLoopback("127.8.9.10")).toBe(true);
    expect(isLoopback("::1")).toBe(true);
    expect(isLoopback("::FFFF:127.0.0.1")).toBe(true);
    for (const address of ["10.0.0.5", "::ffff:192.168.1.20", "fe80::1", "128.0.0.1", undefined]) {
      expect(isLoopback(address), String(address)).toBe(false);
    }
  });
});

describe("WhatsApp simulator: never in production", () => {
  it("is not mounted: the only WhatsApp route is the webhook", async () => {
    const { createWhatsApp } = await import("../../src/app/whatsApp.js");
    const config = loadConfig(PRODUCTION_ENV);
    const h = await createWhatsAppHarness({ llm: "none", startWorker: false });
    try {
      const whatsapp = createWhatsApp({
        config,
        db: h.db,
        memo: h.memo,
        logger: captureLogs().logger,
        serviceUrl: () => "",
      });
      expect(whatsapp.simulator).toBeUndefined();
      expect(whatsapp.routers.map((r) => r.path)).toEqual(["/"]);
    } finally {
      await h.close();
    }
  });
});
