// The simulator's Graph API takes media as Meta does: uploads checked against WhatsApp's media
// rules (types, sizes, bytes that are what they say), and audio, document and image messages that
// send them by id, shown in the conversation with their media.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createSimulator } from "../../src/transport/simulator/index.js";
import type { SimMessage } from "../../src/transport/simulator/store.js";
import { createLogger } from "../../src/utils/logger.js";

const PHONE = "972501234567";
const PHONE_NUMBER_ID = "1234567890";
const FIXTURES = new URL("../fixtures/documents/", import.meta.url);
const MB = 1024 * 1024;

type Json = Record<string, unknown>;

const running: { server: Server; close(): void }[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) {
    r.close();
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
  }
});

/** The simulator mounted as the app mounts it, beside a webhook that records message types. */
async function start() {
  const webhookTypes: string[] = [];
  let base = "";
  const app = express();
  app.post("/webhook/whatsapp", express.json(), (req, res) => {
    const value = (req.body as { entry: { changes: { value: { messages?: { type: string }[] } }[] }[] })
      .entry[0]?.changes[0]?.value;
    for (const m of value?.messages ?? []) webhookTypes.push(m.type);
    res.sendStatus(200);
  });
  const simulator = createSimulator({
    webhookUrl: () => `${base}/webhook/whatsapp`,
    phoneNumberId: PHONE_NUMBER_ID,
    publicUrl: () => `${base}/dev/whatsapp`,
    logger: createLogger("silent"),
    statusDelayMs: 2,
  });
  app.use("/dev/whatsapp", simulator.router);
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  running.push({ server, close: simulator.close });
  const sim = `${base}/dev/whatsapp`;
  return { sim, graph: `${sim}/graph/v23.0`, webhookTypes };
}

type Harness = Awaited<ReturnType<typeof start>>;

/** Memo's upload: multipart form-data with messaging_product, type and file. */
async function upload(
  h: Harness,
  bytes: Buffer,
  mimeType: string,
  filename: string,
  fields: Record<string, string> = { messaging_product: "whatsapp", type: mimeType },
  phoneNumberId = PHONE_NUMBER_ID,
): Promise<{ status: number; body: Json }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", new Blob([bytes], { type: mimeType }), filename);
  const res = await fetch(`${h.graph}/${phoneNumberId}/media`, {
    method: "POST",
    headers: { Authorization: "Bearer simulator" },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function send(h: Harness, body: Json): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${h.graph}/${PHONE_NUMBER_ID}/messages`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ messaging_product: "whatsapp", to: PHONE, ...body }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function conversation(h: Harness): Promise<SimMessage[]> {
  const res = await fetch(`${h.sim}/api/messages?phone=${PHONE}`);
  return ((await res.json()) as { messages: SimMessage[] }).messages;
}

/** The bytes behind a media id, through the Graph API lookup and the URL it hands out. */
async function download(h: Harness, id: string): Promise<{ mimeType: string; bytes: Buffer }> {
  const info = (await (await fetch(`${h.graph}/${id}`)).json()) as { url: string; mime_type: string };
  const res = await fetch(info.url);
  expect(res.status).toBe(200);
  return { mimeType: info.mime_type, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A real 16-bit mono WAV of `samples` samples of silence: what a TTS returns when asked for wav. */
function wav(samples: number): Buffer {
  const data = samples * 2;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + data, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

const errorOf = (body: Json) =>
  body.error as { code: number; message: string; error_data?: { details: string } };

describe("WhatsApp simulator: media Memo uploads", () => {
  it("takes a voice reply (Ogg/Opus) and an audio message by its id, shown as a voice message that serves the bytes", async () => {
    const h = await start();
    const ogg = await readFile(new URL("voiceReply.ogg", FIXTURES));
    const uploaded = await upload(h, ogg, "audio/ogg", "reply.ogg");
    expect(uploaded).toEqual({ status: 200, body: { id: expect.stringMatching(/^[0-9]+$/) as string } });
    const id = uploaded.body.id as string;
    expect(await download(h, id)).toEqual({ mimeType: "audio/ogg", bytes: ogg });

    const sent = await send(h, { type: "audio", audio: { id } });
    expect(sent.status).toBe(200);
    const [memo] = await conversation(h);
    expect(memo).toMatchObject({
      direction: "out",
      type: "audio",
      media: {
        id,
        mimeType: "audio/ogg",
        fileSize: ogg.length,
        sha256: createHash("sha256").update(ogg).digest("hex"),
        voice: true,
      },
    });
    // The page's <audio> reads it by byte ranges (its duration, seeking).
    const range = await fetch(`${h.sim}/${memo!.media!.path!}`, { headers: { Range: "bytes=0-3" } });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toBe(`bytes 0-3/${ogg.length}`);
    expect(Buffer.from(await range.arrayBuffer()).toString("latin1")).toBe("OggS");

    // Memo may delete it once sent: gone from the Graph API, still playing in the chat.
    const deleted = await fetch(`${h.graph}/${id}`, { method: "DELETE" });
    expect(await deleted.json()).toEqual({ success: true });
    expect((await fetch(`${h.graph}/${id}`)).status).toBe(400);
    expect((await send(h, { type: "audio", audio: { id } })).status).toBe(400);
    expect((await fetch(`${h.graph}/${id}`, { method: "DELETE" })).status).toBe(400);
    expect((await fetch(`${h.sim}/${memo!.media!.path!}`)).status).toBe(200);
  });

  it("takes a document with its name and caption, and an image by link", async () => {
    const h = await start();
    const pdf = await readFile(new URL("schoolLetterHe.pdf", FIXTURES));
    const { body } = await upload(h, pdf, "application/pdf", "upload.pdf");
    const doc = await send(h, {
      type: "document",
      document: { id: body.id, filename: "school-letter.pdf", caption: "Your letter" },
    });
    expect(doc.status).toBe(200);
    const image = await send(h, { type: "image", image: { link: "https://example.com/a.png" } });
    expect(image.status).toBe(200);
    const [document, linked] = await conversation(h);
    expect(document).toMatchObject({
      type: "document",
      text: "Your letter",
      media: {
        id: body.id,
        filename: "school-letter.pdf",
        mimeType: "application/pdf",
        fileSize: pdf.length,
      },
    });
    expect(linked).toMatchObject({ type: "image", media: { link: "https://example.com/a.png" } });
    expect((await download(h, body.id as string)).bytes).toEqual(pdf);
  });

  it("refuses what WhatsApp refuses: a WAV labelled audio/ogg, Ogg without Opus, a type it does not take", async () => {
    const h = await start();
    const wavAsOgg = await upload(h, wav(1600), "audio/ogg", "reply.ogg");
    expect(wavAsOgg.status).toBe(400);
    expect(errorOf(wavAsOgg.body)).toMatchObject({
      code: 131053,
      message: "(#131053) Media upload error",
      error_data: {
        details:
          "Param file: labelled audio/ogg but the bytes are not Ogg audio with the Opus codec (they look like WAV audio)",
      },
    });
    const vorbis = Buffer.concat([
      Buffer.from("OggS\0\u0002", "latin1"),
      Buffer.alloc(22),
      Buffer.from("\u0001\u001e\u0001vorbis", "latin1"),
    ]);
    expect(errorOf((await upload(h, vorbis, "audio/ogg", "v.ogg")).body).error_data?.details).toMatch(
      /not Ogg audio with the Opus codec \(they look like Ogg Vorbis audio\)/,
    );
    const wavType = await upload(h, wav(16), "audio/wav", "reply.wav");
    expect(wavType.status).toBe(400);
    expect(errorOf(wavType.body)).toMatchObject({ code: 100 });
    expect(errorOf(wavType.body).message).toMatch(
      /^\(#100\) Param file must be a file with one of the following types: audio\/aac, .*audio\/ogg, .*application\/pdf, .*Received file of type 'audio\/wav'\.$/,
    );
    const pdfAsDocx = await upload(
      h,
      Buffer.from("%PDF-1.7\n"),
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "letter.docx",
    );
    expect(errorOf(pdfAsDocx.body).error_data?.details).toMatch(
      /not a DOCX file \(they look like a PDF file\)/,
    );
  });

  it("refuses files over WhatsApp's size for their kind: audio 16 MB, images 5 MB", async () => {
    const h = await start();
    const ogg = await readFile(new URL("voiceReply.ogg", FIXTURES));
    // Still an Ogg/Opus stream at its start: only the size is wrong.
    const bigOgg = Buffer.concat([ogg, Buffer.alloc(16 * MB + 1 - ogg.length)]);
    const audio = await upload(h, bigOgg, "audio/ogg", "long.ogg");
    expect(audio.status).toBe(400);
    expect(errorOf(audio.body)).toMatchObject({
      code: 131053,
      error_data: {
        details: `Param file: audio/ogg of ${16 * MB + 1} bytes is over WhatsApp's 16 MB limit for audio`,
      },
    });
    const exactly = await upload(h, bigOgg.subarray(0, 16 * MB), "audio/ogg", "long.ogg");
    expect(exactly.status).toBe(200);

    const jpeg = await readFile(new URL("invoicePhoto.jpg", FIXTURES));
    const bigJpeg = Buffer.concat([jpeg, Buffer.alloc(5 * MB + 1 - jpeg.length)]);
    const image = await upload(h, bigJpeg, "image/jpeg", "big.jpg");
    expect(errorOf(image.body).error_data?.details).toMatch(/over WhatsApp's 5 MB limit for image/);
  });

  it("answers missing fields, another number and a mismatched send as Meta does", async () => {
    const h = await start();
    const ogg = await readFile(new URL("voiceReply.ogg", FIXTURES));
    const noProduct = await upload(h, ogg, "audio/ogg", "a.ogg", { type: "audio/ogg" });
    expect(errorOf(noProduct.body).message).toBe("(#100) The parameter messaging_product is required.");
    const noType = await upload(h, ogg, "audio/ogg", "a.ogg", { messaging_product: "whatsapp" });
    expect(errorOf(noType.body).message).toBe("(#100) The parameter type is required.");
    const json = await fetch(`${h.graph}/${PHONE_NUMBER_ID}/media`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ messaging_product: "whatsapp", type: "audio/ogg" }),
    });
    expect(errorOf((await json.json()) as Json).message).toBe("(#100) The parameter file is required.");
    const other = await upload(h, ogg, "audio/ogg", "a.ogg", undefined, "999");
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ code: 100, error_subcode: 33 });

    const jpeg = await readFile(new URL("invoicePhoto.jpg", FIXTURES));
    const photo = await upload(h, jpeg, "image/jpeg", "photo.jpg");
    const asAudio = await send(h, { type: "audio", audio: { id: photo.body.id } });
    expect(asAudio.status).toBe(400);
    expect(errorOf(asAudio.body).error_data?.details).toBe(
      `Param audio['id']: media ${String(photo.body.id)} is image/jpeg, which cannot be sent as audio`,
    );
    const unknown = await send(h, { type: "audio", audio: { id: "424242" } });
    expect(errorOf(unknown.body).error_data?.details).toMatch(/unknown media id 424242/);
    expect(await conversation(h)).toEqual([]);
  });
});

describe("WhatsApp simulator: the user's documents", () => {
  it("posts a document webhook with its file name and caption, its bytes behind the media endpoint", async () => {
    const h = await start();
    const txt = await readFile(new URL("dentist.txt", FIXTURES));
    const res = await fetch(`${h.sim}/api/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        phone: PHONE,
        type: "document",
        text: "when is it?",
        media: { base64: txt.toString("base64"), mimeType: "text/plain", filename: "dentist.txt" },
      }),
    });
    expect(res.status).toBe(200);
    expect(h.webhookTypes).toEqual(["document"]);
    const [mine] = await conversation(h);
    expect(mine).toMatchObject({
      type: "document",
      text: "when is it?",
      media: { filename: "dentist.txt", mimeType: "text/plain" },
    });
    expect(await download(h, mine!.media!.id)).toEqual({ mimeType: "text/plain", bytes: txt });
  });
});
