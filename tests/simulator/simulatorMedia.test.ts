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
async function start(limits: { maxMediaBytes?: number; maxMessagesPerPhone?: number } = {}) {
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
    ...limits,
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

/** Memo's upload: multipart form-data with messaging_product, type and file (of `partType`). */
async function upload(
  h: Harness,
  bytes: Buffer,
  mimeType: string,
  filename: string,
  fields: Record<string, string> = { messaging_product: "whatsapp", type: mimeType },
  phoneNumberId = PHONE_NUMBER_ID,
  partType = mimeType,
): Promise<{ status: number; body: Json }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", new Blob([bytes], { type: partType }), filename);
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

    const sent = await send(h, { type: "audio", audio: { id, voice: true } });
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

  it("takes Memo's upload form as it is (type and file part both audio/ogg; codecs=opus), a voice message only when the send says voice: true", async () => {
    const h = await start();
    const ogg = await readFile(new URL("voiceReply.ogg", FIXTURES));
    const opus = "audio/ogg; codecs=opus";
    const first = await upload(h, ogg, opus, "memo.ogg");
    const second = await upload(h, ogg, opus, "memo.ogg");
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await download(h, first.body.id as string)).toEqual({ mimeType: opus, bytes: ogg });

    // Cloud API: without `voice: true` the same Ogg/Opus file is a basic audio message.
    expect((await send(h, { type: "audio", audio: { id: first.body.id, voice: true } })).status).toBe(200);
    expect((await send(h, { type: "audio", audio: { id: second.body.id } })).status).toBe(200);
    const [voice, plain] = await conversation(h);
    expect(voice!.media).toMatchObject({ id: first.body.id, mimeType: opus, voice: true });
    expect(plain!.media).toMatchObject({ id: second.body.id, mimeType: opus, voice: false });
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

describe("WhatsApp simulator: uploads within what WhatsApp and the store keep", () => {
  it("takes the form's type as the file's type, and refuses a file part that says otherwise", async () => {
    const h = await start();
    const pdf = await readFile(new URL("schoolLetterHe.pdf", FIXTURES));
    // A part with no type of its own (sent as application/octet-stream) takes the declared one.
    const untyped = await upload(h, pdf, "application/pdf", "a.pdf", undefined, PHONE_NUMBER_ID, "");
    expect(untyped.status).toBe(200);
    expect((await download(h, untyped.body.id as string)).mimeType).toBe("application/pdf");

    const contradicted = await upload(h, pdf, "application/pdf", "a.pdf", {
      messaging_product: "whatsapp",
      type: "audio/ogg",
    });
    expect(contradicted.status).toBe(400);
    expect(errorOf(contradicted.body)).toMatchObject({
      code: 131053,
      error_data: {
        details: "Param file: its Content-Type application/pdf is not the declared type audio/ogg",
      },
    });
    // Declared text, but the bytes are a PDF: refused as the bytes of any other type are.
    const pdfAsText = await upload(h, pdf, "text/plain", "a.txt");
    expect(errorOf(pdfAsText.body)).toMatchObject({
      code: 131053,
      error_data: {
        details: "Param file: labelled text/plain but the bytes are not text (they look like a PDF file)",
      },
    });
    const txt = await readFile(new URL("dentist.txt", FIXTURES));
    expect((await upload(h, txt, "text/plain", "dentist.txt")).status).toBe(200);
  });

  it("keeps no file over the store's media budget, refusing a larger body unread", async () => {
    const h = await start({ maxMediaBytes: MB });
    const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(MB)]);
    const over = await upload(h, pdf, "application/pdf", "big.pdf");
    expect(over.status).toBe(400);
    expect(errorOf(over.body)).toMatchObject({
      code: 131053,
      error_data: {
        details: `Param file: application/pdf of ${pdf.length} bytes is over the simulator's 1 MB media store (WhatsApp takes document up to 100 MB)`,
      },
    });
    // Past the budget and the form around it, the declared Content-Length is refused before reading.
    const huge = await upload(h, Buffer.concat([pdf, Buffer.alloc(MB)]), "application/pdf", "huge.pdf");
    expect(huge.status).toBe(413);
    expect(errorOf(huge.body)).toMatchObject({
      code: 131053,
      error_data: {
        details: expect.stringMatching(/over the largest file the simulator keeps, 1 MB/) as string,
      },
    });
    // Another number's upload is refused before its body is read, whatever its size.
    const other = await upload(
      h,
      Buffer.concat([pdf, Buffer.alloc(MB)]),
      "application/pdf",
      "a.pdf",
      undefined,
      "999",
    );
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it("names the limit of the parser that refused a body", async () => {
    const h = await start();
    const big = JSON.stringify({ messaging_product: "whatsapp", pad: "x".repeat(5 * MB) });
    for (const path of ["messages", "media"]) {
      const res = await fetch(`${h.graph}/${PHONE_NUMBER_ID}/${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: big,
      });
      expect(res.status).toBe(413);
      expect(errorOf((await res.json()) as Json).message).toBe(
        "(#100) The request body is over the limit (5 MB)",
      );
    }
  });

  it("shows a document sent by id without a filename as untitled, not by the uploaded file's name", async () => {
    const h = await start();
    const pdf = await readFile(new URL("schoolLetterHe.pdf", FIXTURES));
    const { body } = await upload(h, pdf, "application/pdf", "secret-upload-name.pdf");
    expect((await send(h, { type: "document", document: { id: body.id } })).status).toBe(200);
    const [doc] = await conversation(h);
    expect(doc).toMatchObject({ type: "document", media: { id: body.id, mimeType: "application/pdf" } });
    expect(doc!.media!.filename).toBeUndefined();
  });

  it("refuses a link that is not http(s)", async () => {
    const h = await start();
    const sent = await send(h, { type: "document", document: { link: "javascript:alert(1)" } });
    expect(sent.status).toBe(400);
    expect(errorOf(sent.body).error_data?.details).toBe("Param document['link']: must be an http(s) URL");
    expect(await conversation(h)).toEqual([]);
  });

  it("revokes the URL it handed out once Memo deletes the media, and refuses to delete what the user sent", async () => {
    const h = await start();
    const ogg = await readFile(new URL("voiceReply.ogg", FIXTURES));
    const { body } = await upload(h, ogg, "audio/ogg", "reply.ogg");
    const id = body.id as string;
    const { url } = (await (await fetch(`${h.graph}/${id}`)).json()) as { url: string };
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(`${h.graph}/${id}`, { method: "DELETE" })).status).toBe(200);
    expect((await fetch(url)).status).toBe(401);

    const res = await fetch(`${h.sim}/api/messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        phone: PHONE,
        type: "audio",
        media: { base64: ogg.toString("base64"), mimeType: "audio/ogg" },
      }),
    });
    expect(res.status).toBe(200);
    const mine = (await conversation(h)).find((m) => m.direction === "in")!;
    const refused = await fetch(`${h.graph}/${mine.media!.id}`, { method: "DELETE" });
    expect(refused.status).toBe(400);
    expect(errorOf((await refused.json()) as Json)).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await download(h, mine.media!.id)).bytes).toEqual(ogg);
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
