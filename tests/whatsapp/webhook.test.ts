import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Metrics } from "../../src/services/metrics/metrics.js";
import { signBody, verifySignature } from "../../src/transport/whatsapp/signature.js";
import { backends } from "../support/db.js";
import {
  APP_SECRET,
  PHONE_NUMBER_ID,
  VERIFY_TOKEN,
  createWhatsAppHarness,
  textMessage,
  waId,
  webhookBody,
  type WhatsAppHarness,
} from "../support/whatsappHarness.js";

describe("webhook signature", () => {
  it("matches a known vector (body, secret, header)", () => {
    const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
    const header = "sha256=b9ed68b7ce4a8e37c88a8b174500e5e12413c2d45c28ee76bb911f7b1f43272c";
    expect(signBody(body, "It is a secret")).toBe(header);
    expect(verifySignature(body, header, "It is a secret")).toBe(true);
    expect(verifySignature(body, header.toUpperCase().replace("SHA256", "sha256"), "It is a secret")).toBe(
      true,
    );
    expect(verifySignature(body, header, "another secret")).toBe(false);
    expect(verifySignature(Buffer.concat([body, Buffer.from(" ")]), header, "It is a secret")).toBe(false);
  });

  it("rejects malformed headers without throwing", () => {
    const body = Buffer.from("{}");
    for (const header of [
      undefined,
      "",
      "sha256=",
      "sha256=abc",
      "sha1=" + "a".repeat(40),
      "a".repeat(64),
      "sha256=" + "z".repeat(64),
      "sha256=" + "a".repeat(66),
    ]) {
      expect(verifySignature(body, header, APP_SECRET)).toBe(false);
    }
  });
});

/** `body` with every change addressed to the business number `phoneNumberId`. */
function addressedTo(body: Record<string, unknown>, phoneNumberId: string): Record<string, unknown> {
  const entries = body.entry as { changes: { value: { metadata: Record<string, unknown> } }[] }[];
  for (const entry of entries) {
    for (const change of entry.changes)
      change.value.metadata = { ...change.value.metadata, phone_number_id: phoneNumberId };
  }
  return body;
}

describe.each(backends)("webhook on $name", (backend) => {
  let h: WhatsAppHarness;
  let metrics: Metrics;
  beforeAll(async () => {
    metrics = new Metrics({ processMetrics: false });
    // Storage only: no turns run in this file.
    h = await createWhatsAppHarness({ db: await backend.create(), startWorker: false, metrics });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.db.pool.query("DELETE FROM inbox_messages");
    await h.db.pool.query("DELETE FROM outbound_messages");
  });
  const inboxIds = async () =>
    (
      await h.db.pool.query<{ wa_message_id: string }>(
        "SELECT wa_message_id FROM inbox_messages ORDER BY seq",
      )
    ).rows.map((r) => r.wa_message_id);

  describe("verification (GET)", () => {
    it("echoes the challenge for the right token", async () => {
      const res = await request(h.app)
        .get("/webhook/whatsapp")
        .query({ "hub.mode": "subscribe", "hub.verify_token": VERIFY_TOKEN, "hub.challenge": "1158201444" });
      expect(res.status).toBe(200);
      expect(res.text).toBe("1158201444");
    });

    it.each([
      ["a wrong token", { "hub.mode": "subscribe", "hub.verify_token": "nope", "hub.challenge": "1" }],
      ["a wrong mode", { "hub.mode": "unsubscribe", "hub.verify_token": VERIFY_TOKEN, "hub.challenge": "1" }],
      ["no token", { "hub.mode": "subscribe", "hub.challenge": "1" }],
      ["nothing", {}],
    ])("refuses %s with 403", async (_name, query) => {
      const res = await request(h.app).get("/webhook/whatsapp").query(query);
      expect(res.status).toBe(403);
      expect(res.text).not.toContain("1158201444");
    });
  });

  describe("notifications (POST)", () => {
    it("stores a signed message and answers 200", async () => {
      const message = textMessage("972501112233", "hello", Date.now());
      const res = await h.post(webhookBody([{ messages: [message] }]));
      expect(res.status).toBe(200);
      expect(await inboxIds()).toEqual([message.id]);
    });

    it("hashes the raw bytes: Hebrew and emoji exactly as sent", async () => {
      const message = textMessage("972501112233", "תזכיר לי לקנות חלב 🥛 ✅", Date.now());
      // Meta sends non-ASCII as-is; a server that re-serialized JSON (or \u-escaped it) would compute another HMAC.
      const raw = JSON.stringify(webhookBody([{ messages: [message] }]));
      const res = await h.post(raw, signBody(Buffer.from(raw, "utf8"), APP_SECRET));
      expect(res.status).toBe(200);
      const escaped = raw.replace(
        /[\u0080-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
      );
      expect(JSON.parse(escaped)).toEqual(JSON.parse(raw));
      const res2 = await h.post(escaped, signBody(Buffer.from(raw, "utf8"), APP_SECRET));
      expect(res2.status).toBe(401);
      const stored = await h.db.pool.query<{ payload: { text: { body: string } } }>(
        "SELECT payload FROM inbox_messages",
      );
      expect(stored.rows.map((r) => r.payload.text.body)).toEqual(["תזכיר לי לקנות חלב 🥛 ✅"]);
    });

    it.each([
      ["no signature", false as const],
      ["a wrong signature", `sha256=${"0".repeat(64)}`],
      ["a signature of another body", signBody(Buffer.from("{}"), APP_SECRET)],
      ["a signature under another secret", "other"],
    ])("answers 401 to %s and stores nothing", async (_name, sign) => {
      const body = webhookBody([{ messages: [textMessage("972501112233", "hi", Date.now())] }]);
      const header = sign === "other" ? signBody(Buffer.from(JSON.stringify(body)), "not-the-secret") : sign;
      const res = await h.post(body, header);
      expect(res.status).toBe(401);
      expect(await inboxIds()).toEqual([]);
    });

    it.each([
      ["invalid JSON", "{not json"],
      ["an empty body", ""],
      ["another object type", JSON.stringify({ object: "page", entry: [] })],
      ["no entry", JSON.stringify({ object: "whatsapp_business_account" })],
      ["a JSON array", "[]"],
    ])("answers 400 to %s", async (_name, raw) => {
      const res = await h.post(raw, signBody(Buffer.from(raw), APP_SECRET));
      expect(res.status).toBe(400);
      expect(await inboxIds()).toEqual([]);
    });

    it("answers 413 to a body over 3 MB", async () => {
      const raw = JSON.stringify({
        object: "whatsapp_business_account",
        entry: [],
        pad: "x".repeat(3 * 1024 * 1024),
      });
      const res = await h.post(raw, signBody(Buffer.from(raw), APP_SECRET));
      expect(res.status).toBe(413);
    });

    it("stores every message of a batch split across entries, changes and messages, from several users", async () => {
      const now = Date.now();
      const a1 = textMessage("972501110001", "a1", now);
      const a2 = textMessage("972501110001", "a2", now);
      const b1 = textMessage("14155550123", "b1", now);
      const c1 = textMessage("447911123456", "c1", now);
      // Two entries; the first with two changes, the first change with two messages.
      const body = {
        object: "whatsapp_business_account",
        entry: [
          ...(webhookBody([{ messages: [a1, a2] }, { messages: [b1] }]).entry as unknown[]),
          ...(webhookBody([{ messages: [c1] }]).entry as unknown[]),
        ],
      };
      const res = await h.post(body);
      expect(res.status).toBe(200);
      expect((await inboxIds()).sort()).toEqual([a1.id, a2.id, b1.id, c1.id].sort());
      const phones = await h.db.pool.query<{ phone: string; n: string }>(
        "SELECT phone, count(*) AS n FROM inbox_messages GROUP BY phone ORDER BY phone",
      );
      expect(phones.rows.map((r) => [r.phone, Number(r.n)])).toEqual([
        ["14155550123", 1],
        ["447911123456", 1],
        ["972501110001", 2],
      ]);
    });

    it("drops redeliveries and ignores unknown fields", async () => {
      const message = { ...textMessage("972501112233", "once", Date.now()), brand_new_field: { x: 1 } };
      const body = { ...webhookBody([{ messages: [message], future_thing: [1, 2] } as never]), extra: true };
      for (let i = 0; i < 3; i++) expect((await h.post(body)).status).toBe(200);
      expect(await inboxIds()).toEqual([message.id]);
    });

    it("skips one malformed message without losing the rest of the batch", async () => {
      const good = textMessage("972501112233", "good", Date.now());
      const res = await h.post(
        webhookBody([
          { messages: [{ id: waId(), type: "text" }, good, { ...good, id: waId(), from: "not-a-phone" }] },
        ]),
      );
      expect(res.status).toBe(200);
      expect(await inboxIds()).toEqual([good.id]);
      expect(h.logs().some((l) => l.event === "WEBHOOK_ITEM_SKIPPED")).toBe(true);
    });

    it("stores reactions as recorded (no turn) and other types as pending", async () => {
      const now = String(Math.floor(Date.now() / 1000));
      const from = "972501112233";
      const messages = [
        {
          from,
          id: waId(),
          timestamp: now,
          type: "reaction",
          reaction: { message_id: "wamid.X", emoji: "👍" },
        },
        {
          from,
          id: waId(),
          timestamp: now,
          type: "audio",
          audio: { id: "m1", mime_type: "audio/ogg; codecs=opus", voice: true },
        },
        {
          from,
          id: waId(),
          timestamp: now,
          type: "image",
          image: { id: "m2", mime_type: "image/jpeg", caption: "add these" },
        },
        {
          from,
          id: waId(),
          timestamp: now,
          type: "interactive",
          interactive: { type: "button_reply", button_reply: { id: "yes", title: "Yes" } },
        },
        { from, id: waId(), timestamp: now, type: "location", location: { latitude: 32.1, longitude: 34.8 } },
        {
          from,
          id: waId(),
          timestamp: now,
          type: "unsupported",
          errors: [{ code: 131051, title: "Message type unknown" }],
        },
      ];
      expect((await h.post(webhookBody([{ messages }]))).status).toBe(200);
      const rows = await h.db.pool.query<{ type: string; status: string }>(
        "SELECT type, status FROM inbox_messages ORDER BY seq",
      );
      expect(rows.rows).toEqual([
        { type: "reaction", status: "recorded" },
        { type: "audio", status: "pending" },
        { type: "image", status: "pending" },
        { type: "interactive", status: "pending" },
        { type: "location", status: "pending" },
        { type: "unsupported", status: "pending" },
      ]);
    });

    it("moves outbound statuses forward only, and keeps the error of a failure", async () => {
      await h.whatsapp.outbound.record({
        waMessageId: "wamid.OUT1",
        phone: "972501112233",
        kind: "text",
        body: "hi",
      });
      const ts = (s: number) => String(Math.floor(Date.now() / 1000) + s);
      const status = (id: string, s: string, t: string, errors?: unknown[]) => ({
        id,
        status: s,
        timestamp: t,
        recipient_id: "972501112233",
        ...(errors ? { errors } : {}),
      });
      await h.post(
        webhookBody([
          { statuses: [status("wamid.OUT1", "sent", ts(0)), status("wamid.OUT1", "read", ts(2))] },
        ]),
      );
      await h.post(webhookBody([{ statuses: [status("wamid.OUT1", "delivered", ts(1))] }]));
      expect(await h.whatsapp.outbound.get("wamid.OUT1")).toMatchObject({ status: "read", body: "hi" });

      // A status can beat the record of the send; the record then fills in the content.
      await h.post(
        webhookBody([
          {
            statuses: [
              status("wamid.OUT2", "failed", ts(0), [{ code: 131047, title: "Re-engagement message" }]),
              status("wamid.OUT3", "deleted", ts(0)),
            ],
          },
        ]),
      );
      await h.whatsapp.outbound.record({
        waMessageId: "wamid.OUT2",
        phone: "972501112233",
        kind: "text",
        body: "late",
      });
      expect(await h.whatsapp.outbound.get("wamid.OUT2")).toMatchObject({
        status: "failed",
        errorCode: 131047,
        errorTitle: "Re-engagement message",
        body: "late",
      });
      expect(await h.whatsapp.outbound.get("wamid.OUT3")).toBeNull();
      expect(h.logs().some((l) => l.event === "WHATSAPP_DELIVERY_FAILED" && l.code === 131047)).toBe(true);
    });

    it("ignores and counts messages and statuses for another business number; its own number's are read", async () => {
      const foreignCount = async () =>
        (await metrics.registry.getSingleMetric("memo_webhook_foreign_entries_total")?.get())?.values[0]
          ?.value ?? 0;
      const before = await foreignCount();
      await h.whatsapp.outbound.record({
        waMessageId: "wamid.OUT9",
        phone: "972501112233",
        kind: "text",
        body: "hi",
      });
      const recorded = (await h.whatsapp.outbound.get("wamid.OUT9"))?.status;
      expect(recorded).not.toBe("read");
      const theirs = textMessage("972501112233", "for staging", Date.now());
      const receipt = {
        id: "wamid.OUT9",
        status: "read",
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: "972501112233",
      };
      const staging = addressedTo(
        webhookBody([{ messages: [theirs] }, { statuses: [receipt] }]),
        "999000111222",
      );
      const res = await h.post(staging);
      // 200: Meta must not redeliver it; the other number's own webhook answers it.
      expect(res.status).toBe(200);
      expect(await inboxIds()).toEqual([]);
      expect((await h.whatsapp.outbound.get("wamid.OUT9"))?.status).toBe(recorded);
      expect(await foreignCount()).toBe(before + 2);
      // No metadata at all cannot show the change is ours either.
      const unaddressed = webhookBody([{ messages: [textMessage("972501112233", "who?", Date.now())] }]);
      delete (unaddressed.entry as { changes: { value: Record<string, unknown> }[] }[])[0]!.changes[0]!.value
        .metadata;
      expect((await h.post(unaddressed)).status).toBe(200);
      expect(await inboxIds()).toEqual([]);
      expect(await foreignCount()).toBe(before + 3);
      expect(h.logs().filter((l) => l.event === "WEBHOOK_FOREIGN_NUMBER")).toHaveLength(2);

      // The configured number's (PHONE_NUMBER_ID) are read.
      const ours = textMessage("972501112233", "for production", Date.now());
      await h.post(
        addressedTo(webhookBody([{ messages: [ours] }, { statuses: [receipt] }]), PHONE_NUMBER_ID),
      );
      expect(await inboxIds()).toEqual([ours.id]);
      expect(await h.whatsapp.outbound.get("wamid.OUT9")).toMatchObject({ status: "read" });
      expect(await foreignCount()).toBe(before + 3);
    });

    it("logs errors[] with their codes", async () => {
      await h.post(
        webhookBody([
          { errors: [{ code: 131026, title: "Message undeliverable", error_data: { details: "x" } }] },
        ]),
      );
      expect(h.logs().find((l) => l.event === "WHATSAPP_ERROR")).toMatchObject({
        code: 131026,
        title: "Message undeliverable",
      });
    });
  });
});

describe("webhook without an app secret (development)", () => {
  it("accepts unsigned bodies and warns once", async () => {
    const h = await createWhatsAppHarness({ env: { WHATSAPP_APP_SECRET: "" }, startWorker: false });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await h.post(
          webhookBody([{ messages: [textMessage("972501112233", "hi", Date.now())] }]),
          false,
        );
        expect(res.status).toBe(200);
      }
      expect(h.logs().filter((l) => String(l.msg).includes("WHATSAPP_APP_SECRET is not set"))).toHaveLength(
        1,
      );
    } finally {
      await h.close();
    }
  });
});
