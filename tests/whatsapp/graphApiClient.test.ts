import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GraphApiClient, type GraphApiClientOptions } from "../../src/transport/whatsapp/graphApiClient.js";
import { WhatsAppApiError } from "../../src/utils/errors.js";
import type { OutboundPayload } from "../../src/transport/whatsapp/outboundFormat.js";
import { FakeGraphApi } from "../support/fakeGraphApi.js";
import { captureLogs } from "../support/logs.js";

const TOKEN = "EAAG-test-token-never-logged";
const TO = "972501234567";
const SECRET_TEXT = "my bank PIN is 4321";
const hello: OutboundPayload = { to: TO, type: "text", text: { body: SECRET_TEXT } };

let graph: FakeGraphApi;

beforeAll(async () => {
  graph = await FakeGraphApi.start({ accessToken: TOKEN });
});
beforeEach(() => graph.reset());
afterAll(() => graph.close());

/** A client on the fake, with waits recorded instead of slept and logs captured. */
function setup(overrides: Partial<GraphApiClientOptions> = {}) {
  const delays: number[] = [];
  const logs = captureLogs();
  const client = new GraphApiClient({
    baseUrl: () => graph.baseUrl,
    apiVersion: "v23.0",
    phoneNumberId: "1234567890",
    accessToken: TOKEN,
    timeoutMs: 2_000,
    maxRetries: 3,
    logger: logs.logger,
    sleep: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
    ...overrides,
  });
  return { client, delays, logs };
}

/** The rejection of `promise`, which must be a WhatsAppApiError. */
async function failureOf(promise: Promise<unknown>): Promise<WhatsAppApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof WhatsAppApiError))
    throw new Error(`expected a WhatsAppApiError, got ${String(error)}`);
  return error;
}

describe("sendMessage", () => {
  it("posts the payload with messaging_product, recipient_type and the bearer token, and returns the wamid", async () => {
    const { client } = setup();
    const { id } = await client.sendMessage({ ...hello, context: { message_id: "wamid.IN1" } });

    const [sent] = await graph.waitForSent(1);
    expect(id).toBe(sent!.id);
    expect(id).toMatch(/^wamid\.FAKE/);
    expect(sent!.contextId).toBe("wamid.IN1");
    expect(graph.requests).toEqual([
      {
        method: "POST",
        path: "/v23.0/1234567890/messages",
        authorization: `Bearer ${TOKEN}`,
        at: expect.any(Number) as number,
        body: {
          messaging_product: "whatsapp",
          recipient_type: "individual",
          to: TO,
          type: "text",
          context: { message_id: "wamid.IN1" },
          text: { body: SECRET_TEXT },
        },
      },
    ]);
    expect(graph.textsTo(TO)).toEqual([SECRET_TEXT]);
  });

  it("reads the base URL on every request", async () => {
    const other = await FakeGraphApi.start({ accessToken: TOKEN });
    try {
      let base = graph.baseUrl;
      const { client } = setup({ baseUrl: () => base });
      await client.sendMessage(hello);
      base = `${other.baseUrl}/`;
      await client.sendMessage(hello);
      expect(graph.sent).toHaveLength(1);
      expect(other.sent).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it("retries HTTP 500 with growing, jittered backoff and then succeeds", async () => {
    const { client, delays, logs } = setup();
    graph.failNext(2, { status: 500, code: 1, message: "An unknown error occurred" });

    await client.sendMessage(hello);

    expect(graph.sent).toHaveLength(1);
    expect(graph.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(250);
    expect(delays[0]).toBeLessThanOrEqual(500);
    expect(delays[1]).toBeGreaterThanOrEqual(500);
    expect(delays[1]).toBeLessThanOrEqual(1000);
    const retries = logs.lines().filter((l) => l.event === "WHATSAPP_RETRY");
    expect(retries.map((l) => [l.level, l.status, l.retry])).toEqual([
      [40, 500, 1],
      [40, 500, 2],
    ]);
  });

  it("retries the throughput limit (130429) and then succeeds", async () => {
    const { client, delays } = setup();
    graph.failNext(1, { status: 400, code: 130429, message: "(#130429) Rate limit hit" });

    await client.sendMessage(hello);

    expect(graph.sent).toHaveLength(1);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeLessThanOrEqual(500);
  });

  it("waits much longer before retrying the per-user rate limit (131056)", async () => {
    const { client, delays } = setup();
    graph.failNext(2, { status: 400, code: 131056, message: "(#131056) Pair rate limit hit" });

    await client.sendMessage(hello);

    expect(graph.sent).toHaveLength(1);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(6_000);
    expect(delays[1]).toBeGreaterThanOrEqual(12_000);
    expect(delays[1]).toBeLessThanOrEqual(31_000);
  });

  it("gives up after maxRetries retries with the last error", async () => {
    const { client, delays } = setup({ maxRetries: 2 });
    graph.failNext(5, { status: 503, code: 2, message: "Service temporarily unavailable" });

    const error = await failureOf(client.sendMessage(hello));

    expect(error).toMatchObject({ kind: "api", status: 503, code: 2, retryable: true });
    expect(error.fbtraceId).toMatch(/^FAKE/);
    expect(graph.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
    expect(graph.sent).toEqual([]);
  });

  it("does not retry other 4xx errors, and carries Meta's code, subcode and message", async () => {
    const { client, delays } = setup();
    graph.failNext(1, { status: 400, code: 131047, subcode: 2494010, message: "Re-engagement message" });

    const error = await failureOf(client.sendMessage(hello));

    expect(error).toMatchObject({ status: 400, code: 131047, subcode: 2494010, retryable: false });
    expect(error.message).toContain("Re-engagement message");
    expect(graph.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("rejects a payload WhatsApp would reject (400, code 100) without retrying", async () => {
    const { client } = setup();
    const error = await failureOf(client.sendMessage({ to: TO, type: "text", text: { body: "" } }));
    expect(error).toMatchObject({ status: 400, code: 100, retryable: false });
    expect(graph.requests).toHaveLength(1);
  });

  it("does not retry an expired token (190) and tells the operator once, loudly, to replace it", async () => {
    const { client, delays, logs } = setup();
    graph.failNext(1, { status: 401, code: 190, subcode: 463, message: "Error validating access token" });

    const error = await failureOf(client.sendMessage(hello));

    expect(error).toMatchObject({ status: 401, code: 190, subcode: 463, retryable: false });
    expect(graph.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    const errors = logs.lines().filter((l) => l.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ event: "WHATSAPP_TOKEN_INVALID", code: 190, subcode: 463 });
    expect(errors[0]!.msg).toContain("Replace WHATSAPP_ACCESS_TOKEN");
  });

  it("reports a wrong token the same way, once per failed call", async () => {
    const { client, logs } = setup({ accessToken: "EAAG-wrong" });
    await failureOf(client.sendMessage(hello));
    await failureOf(client.markRead("wamid.IN1"));
    const errors = logs.lines().filter((l) => l.event === "WHATSAPP_TOKEN_INVALID");
    expect(errors.map((l) => [l.level, l.operation])).toEqual([
      [50, "sendMessage"],
      [50, "markRead"],
    ]);
    expect(JSON.stringify(logs.lines())).not.toContain("EAAG-wrong");
  });

  it("times out a slow attempt, retries, and succeeds once the API answers in time", async () => {
    graph.delayMs = 500;
    const { client, delays } = setup({
      timeoutMs: 100,
      sleep: (ms) => {
        delays.push(ms);
        graph.delayMs = 0;
        return Promise.resolve();
      },
    });

    await client.sendMessage(hello);

    expect(delays).toHaveLength(1);
    expect(graph.requests).toHaveLength(2);
    // The timed-out attempt may still be delivered by Meta (here, after 500 ms): at-least-once.
    expect(graph.sent.length).toBeGreaterThanOrEqual(1);
  });

  it("fails with a retryable timeout error when every attempt is too slow", async () => {
    graph.delayMs = 500;
    const { client, delays } = setup({ timeoutMs: 50, maxRetries: 1 });

    const error = await failureOf(client.sendMessage(hello));

    expect(error).toMatchObject({ kind: "timeout", retryable: true, status: undefined });
    expect(error.message).toContain("timed out after 50 ms");
    expect(delays).toHaveLength(1);
  });

  it("retries when nothing listens, then fails with a network error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { client, delays } = setup({ baseUrl: () => `http://127.0.0.1:${port}`, maxRetries: 2 });

    const error = await failureOf(client.sendMessage(hello));

    expect(error).toMatchObject({ kind: "network", retryable: true });
    expect(delays).toHaveLength(2);
  });

  it("does not retry a success answer it cannot read (the message may have gone out)", async () => {
    let calls = 0;
    const { client } = setup({
      fetch: () => {
        calls++;
        return Promise.resolve(Response.json({ messaging_product: "whatsapp", messages: [] }));
      },
    });
    const error = await failureOf(client.sendMessage(hello));
    expect(error).toMatchObject({ kind: "invalid_response", retryable: false, status: 200 });
    expect(calls).toBe(1);
  });

  it("never logs the token, the message text or the phone number", async () => {
    const { client, logs } = setup();
    graph.failNext(1, { status: 500 });
    graph.failNext(1, { status: 400, code: 131026, message: "Message undeliverable" });
    await failureOf(client.sendMessage(hello));
    const logged = JSON.stringify(logs.lines());
    expect(logs.lines().length).toBeGreaterThan(0);
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain(SECRET_TEXT);
    expect(logged).not.toContain(TO);
  });
});

describe("markRead", () => {
  it("marks the message read and shows the typing indicator by default", async () => {
    const { client } = setup();
    await client.markRead("wamid.IN1");

    expect(graph.requests[0]?.body).toEqual({
      messaging_product: "whatsapp",
      status: "read",
      message_id: "wamid.IN1",
      typing_indicator: { type: "text" },
    });
    expect(graph.reads).toEqual([{ messageId: "wamid.IN1", typing: true }]);
    expect(graph.sent).toEqual([]);
  });

  it("only marks read when typing is false", async () => {
    const { client } = setup();
    await client.markRead("wamid.IN2", false);
    expect(graph.requests[0]?.body).toEqual({
      messaging_product: "whatsapp",
      status: "read",
      message_id: "wamid.IN2",
    });
    expect(graph.reads).toEqual([{ messageId: "wamid.IN2", typing: false }]);
  });
});

describe("media", () => {
  const photo = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));

  it("looks up the media URL, then downloads it with the bearer token", async () => {
    graph.addMedia("111", photo, "image/jpeg");
    const { client } = setup();

    expect(await client.getMedia("111")).toEqual({
      url: `${graph.baseUrl}/media/111`,
      mimeType: "image/jpeg",
      fileSize: 5000,
    });
    const { data, mimeType } = await client.downloadMedia("111", 10_000);

    expect(mimeType).toBe("image/jpeg");
    expect(data.equals(photo)).toBe(true);
    const download = graph.requests.find((r) => r.path === "/media/111");
    expect(download?.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("fails without retrying when the media URL has expired", async () => {
    graph.addMedia("222", photo, "audio/ogg");
    graph.expireMedia("222");
    const { client, delays } = setup();

    const error = await failureOf(client.downloadMedia("222", 10_000));

    expect(error).toMatchObject({ kind: "api", status: 404, retryable: false });
    expect(graph.requests.filter((r) => r.path === "/media/222")).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("fails with Meta's error for a media id that no longer exists", async () => {
    const { client } = setup();
    const error = await failureOf(client.downloadMedia("333", 10_000));
    expect(error).toMatchObject({ status: 400, code: 100, subcode: 33, retryable: false });
  });

  it("refuses media larger than maxBytes before downloading it", async () => {
    graph.addMedia("444", photo, "video/mp4");
    const { client } = setup();

    const error = await failureOf(client.downloadMedia("444", 4_999));

    expect(error).toMatchObject({ kind: "too_large", retryable: false });
    expect(graph.requests.some((r) => r.path === "/media/444")).toBe(false);
  });

  it("refuses on Content-Length when Meta understated the size", async () => {
    graph.addMedia("555", photo, "video/mp4", { fileSize: 10 });
    const { client } = setup();
    const error = await failureOf(client.downloadMedia("555", 1_000));
    expect(error).toMatchObject({ kind: "too_large", retryable: false });
    expect(error.message).toContain("5000 bytes");
  });

  it("stops reading a stream without Content-Length once it passes maxBytes", async () => {
    graph.addMedia("666", photo, "video/mp4", { fileSize: 10, chunked: true });
    const { client } = setup();
    const error = await failureOf(client.downloadMedia("666", 2_000));
    expect(error).toMatchObject({ kind: "too_large", retryable: false });

    graph.addMedia("777", photo, "image/png", { chunked: true });
    const { data } = await client.downloadMedia("777", 5_000);
    expect(data.equals(photo)).toBe(true);
  });

  it("does not send the token to a plain-HTTP URL on another host", async () => {
    const urls: string[] = [];
    const { client } = setup({
      fetch: (input) => {
        urls.push(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
        return Promise.resolve(
          Response.json({ url: "http://files.example.net/x", mime_type: "image/jpeg", file_size: 10 }),
        );
      },
    });

    const error = await failureOf(client.downloadMedia("888", 1_000));

    expect(error).toMatchObject({ kind: "invalid_response", retryable: false });
    expect(urls).toEqual([`${graph.baseUrl}/v23.0/888`]);
  });
});

describe("uploadMedia", () => {
  const ogg = readFileSync(new URL("../fixtures/documents/voiceReply.ogg", import.meta.url));

  it("posts the file as multipart (messaging_product, type, file) with the bearer token and returns the media id", async () => {
    const { client } = setup();
    const id = await client.uploadMedia(ogg, "audio/ogg; codecs=opus");
    // The type as Meta's table writes it (no parameters), in the form and on the file part.
    expect(graph.uploads).toEqual([
      expect.objectContaining({ id, mimeType: "audio/ogg", fileType: "audio/ogg", fileName: "memo.ogg" }),
    ]);
    expect(graph.uploads[0]!.data.equals(ogg)).toBe(true);
    const upload = graph.requests.find((r) => r.path === "/v23.0/1234567890/media");
    expect(upload?.authorization).toBe(`Bearer ${TOKEN}`);
    // The upload can be sent and downloaded by its id, as WhatsApp's can.
    expect((await client.downloadMedia(id, 100_000)).data.equals(ogg)).toBe(true);
  });

  it("retries HTTP 500 and then succeeds", async () => {
    graph.failNextUpload(2, { status: 500 });
    const { client, delays } = setup();
    expect(await client.uploadMedia(ogg, "audio/ogg")).toMatch(/^media\./);
    expect(delays).toHaveLength(2);
  });

  it("does not retry a file WhatsApp refuses (not Ogg/Opus), and says why", async () => {
    const { client, delays } = setup();
    const error = await failureOf(client.uploadMedia(Buffer.from("RIFF....WAVEfmt "), "audio/ogg"));
    expect(error).toMatchObject({ kind: "api", retryable: false, status: 400 });
    expect(error.message).toContain("OPUS");
    expect(delays).toEqual([]);
  });
});
