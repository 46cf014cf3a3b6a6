// Answers by voice (issue 37): a voice note is answered by a voice note, spoken by the speech model
// (a scripted OpenAI-compatible server), uploaded to the fake Cloud API, which accepts it only by
// WhatsApp's documented media rules; the text of what must be read or tapped still follows; the
// per-user setting in both languages; no speech model; a failed upload; the cost in the budget.
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { modelConfigOf, speechCostUsd } from "../../src/config/llmConfig.js";
import { costUsd } from "../../src/services/llm/cost.js";
import type { Transcriber } from "../../src/services/media/transcriber.js";
import type { GraphApiClient } from "../../src/transport/whatsapp/graphApiClient.js";
import { needsText, speakable, VoiceReplies } from "../../src/transport/whatsapp/voiceReplies.js";
import { DeliveryError, type WhatsAppSender } from "../../src/transport/whatsapp/whatsAppSender.js";
import type { ReplyContent } from "../../src/types/outbound.js";
import { createLogger } from "../../src/utils/logger.js";
import { isOggOpus } from "../../src/utils/oggOpus.js";
import type { SentMessage } from "../support/fakeGraphApi.js";
import { isPlanner } from "../support/memoHarness.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  createWhatsAppHarness,
  echoReply,
  GENERAL_PLAN,
  textMessage,
  waId,
  webhookBody,
  type WhatsAppHarness,
  type WhatsAppHarnessOptions,
} from "../support/whatsappHarness.js";

const PHONE = "972501110007";
/** A real Ogg/Opus voice note (opusenc; tests/fixtures/documents/provenance.md). */
const OGG = readFileSync(new URL("../fixtures/documents/voiceReply.ogg", import.meta.url));
/** A WAV file's first bytes: what a speech server answering in the wrong format sends. */
const WAV = Buffer.concat([
  Buffer.from("RIFF"),
  Buffer.from([0x24, 0x08, 0, 0]),
  Buffer.from("WAVEfmt "),
  Buffer.alloc(64, 1),
]);
/** An MP3 file's first bytes (an ID3 tag, then a frame). */
const MP3 = Buffer.concat([
  Buffer.from("ID3"),
  Buffer.from([3, 0, 0, 0, 0, 0, 0x21]),
  Buffer.alloc(64, 0xff),
]);

/** A transcriber that hears `heard`. */
function hearing(heard: string): Transcriber {
  return { transcribe: () => Promise.resolve(heard) };
}

function voiceNote(at: number) {
  return {
    from: PHONE,
    id: waId(),
    timestamp: String(Math.floor(at / 1000)),
    type: "audio",
    audio: { id: "media-in-1", mime_type: "audio/ogg; codecs=opus", voice: true },
  };
}

/** The planner plans one general step; the general step answers `reply` (or the echo). */
function answering(
  server: ScriptedOpenAI,
  reply?: string,
  usage?: { prompt_tokens: number; completion_tokens: number },
) {
  server.on(isPlanner, { json: GENERAL_PLAN, ...(usage ? { usage } : {}) });
  server.on(
    (req) => !isPlanner(req),
    (req) => ({ ...(reply !== undefined ? { text: reply } : echoReply(req)), ...(usage ? { usage } : {}) }),
  );
}

const audios = (h: WhatsAppHarness): SentMessage[] => h.graphApi.sent.filter((m) => m.type === "audio");
let server: ScriptedOpenAI;
let h: WhatsAppHarness;
beforeAll(async () => {
  server = await ScriptedOpenAI.start();
});
afterAll(() => server.close());
/** The test's open harness, closed after it. */
let opened: WhatsAppHarness | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
  server.reset();
});

async function harness(options: WhatsAppHarnessOptions = {}, language: "he" | "en" = "en") {
  h = await createWhatsAppHarness({ llm: server, speaker: "configured", ...options });
  opened = h;
  await h.knownUser(PHONE, language);
  h.graphApi.addMedia("media-in-1", OGG, "audio/ogg; codecs=opus");
  return h;
}

/** The webhook of a "failed" delivery status for a sent message (a media error reported later). */
const failedStatus = (id: string) =>
  webhookBody([
    {
      statuses: [
        {
          id,
          status: "failed",
          timestamp: String(Math.floor(h.clock.now() / 1000)),
          recipient_id: PHONE,
          errors: [{ code: 131053, title: "Media upload error" }],
        },
      ],
    },
  ]);

describe("a voice note", () => {
  it("is answered by a voice note: spoken as Ogg/Opus, uploaded and accepted by the media rules, sent as a voice message, kept in the window", async () => {
    await harness({ transcriber: hearing("how are you today") });
    answering(server);
    server.enqueueSpeech({ audio: OGG });
    await h.deliver(voiceNote(h.clock.now()));
    const [sent] = await h.graphApi.waitForSent(1);
    await h.idle();

    expect(server.speeches).toEqual([
      expect.objectContaining({
        model: "gpt-4o-mini-tts",
        voice: "coral",
        input: "echo: how are you today.",
        responseFormat: "opus",
        instructions: expect.stringContaining("English") as unknown,
      }),
    ]);
    // The upload: the speech model's bytes, as Ogg/Opus, accepted by the fake's media rules.
    expect(h.graphApi.refusedUploads).toEqual([]);
    expect(h.graphApi.uploads).toHaveLength(1);
    const upload = h.graphApi.uploads[0]!;
    // The type as Meta's table of supported media types writes it, in the form and on the file part.
    expect(upload.mimeType).toBe("audio/ogg");
    expect(upload.fileType).toBe("audio/ogg");
    expect(upload.data.equals(OGG)).toBe(true);
    expect(h.graphApi.requests.find((r) => r.path.endsWith("/media"))?.authorization).toBe(
      "Bearer test-access-token",
    );
    // One message only: a plain sentence needs no text.
    expect(h.graphApi.sent).toHaveLength(1);
    expect(sent!.type).toBe("audio");
    expect(sent!.body.audio).toEqual({ id: upload.id, voice: true });
    // Recorded with what it says, and the window's reply (its text) knows the voice note's id.
    expect(await h.whatsapp.outbound.get(sent!.id)).toMatchObject({
      kind: "audio",
      body: "echo: how are you today.",
    });
    await h.memo.memory.load(PHONE);
    expect(h.memo.memory.getRepliedToMessage(PHONE, sent!.id)?.content).toBe("echo: how are you today");
  });

  it("with a list and a link: the voice note reads the list as a sentence and says 'the link below', then the text follows", async () => {
    await harness({ transcriber: hearing("what do I need for the trip") });
    answering(
      server,
      "🎒 For the trip you need:\n• a hat\n• water\n• sandwiches\nThe letter: https://school.example/trip",
    );
    server.enqueueSpeech({ audio: OGG });
    await h.deliver(voiceNote(h.clock.now()));
    const sent = await h.graphApi.waitForSent(2);
    await h.idle();
    expect(server.speeches[0]!.input).toBe(
      "For the trip you need: a hat, water and sandwiches. The letter: the link below.",
    );
    expect(sent.map((m) => m.type)).toEqual(["audio", "text"]);
    expect(h.graphApi.textsTo(PHONE)[1]).toContain("https://school.example/trip");
    expect(h.graphApi.textsTo(PHONE)[1]).toContain("• a hat");
    // The text carries the window's message: quoting it (or tapping) finds the reply.
    await h.memo.memory.load(PHONE);
    expect(h.memo.memory.getRepliedToMessage(PHONE, sent[1]!.id)?.content).toContain("• a hat");
  });

  it("in Hebrew: spoken with the Hebrew voice and told to speak Hebrew", async () => {
    await harness({ transcriber: hearing("מה שלומך היום"), env: { LLM_SPEECH_VOICE_HE: "nova" } }, "he");
    answering(server, "✅ הכול טוב, תודה!");
    server.enqueueSpeech({ audio: OGG });
    await h.deliver(voiceNote(h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(server.speeches[0]).toMatchObject({ voice: "nova", input: "הכול טוב, תודה!" });
    expect(server.speeches[0]!.instructions).toContain("Hebrew");
    expect(audios(h)).toHaveLength(1);
  });

  it("whose upload fails (500 after the retries) is answered by the text, once", async () => {
    await harness({ transcriber: hearing("how are you today") });
    answering(server);
    server.enqueueSpeech({ audio: OGG });
    h.graphApi.failNextUpload(4, { status: 500, code: 2 });
    await h.deliver(voiceNote(h.clock.now()));
    await h.graphApi.waitForSent(1, 10_000);
    await h.idle();
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["text"]);
    expect(h.graphApi.textsTo(PHONE)).toEqual(["echo: how are you today"]);
    expect(h.logs().filter((l) => l.event === "VOICE_REPLY_FAILED")).toEqual([
      expect.objectContaining({ step: "upload" }),
    ]);
  }, 30_000);

  it("whose speech call fails is answered by the text, once", async () => {
    await harness({ transcriber: hearing("how are you today") });
    answering(server);
    server.enqueueSpeech({ status: 400 });
    await h.deliver(voiceNote(h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["text"]);
    expect(h.graphApi.uploads).toEqual([]);
    expect(h.logs().filter((l) => l.event === "VOICE_REPLY_FAILED")).toEqual([
      expect.objectContaining({ step: "speech" }),
    ]);
  });

  it.each([
    ["a WAV file", WAV],
    ["an MP3 file", MP3],
  ])(
    "spoken as %s (a server ignoring response_format) is refused by Memo's own check, and the text goes instead",
    async (_name, bytes) => {
      await harness({ transcriber: hearing("how are you today") });
      // The fake takes any bytes: only Memo's check stands between the WAV and the user.
      h.graphApi.checkMediaBytes = false;
      answering(server);
      server.enqueueSpeech({ audio: bytes });
      await h.deliver(voiceNote(h.clock.now()));
      await h.graphApi.waitForSent(1);
      await h.idle();
      expect(server.speeches).toHaveLength(1);
      expect(h.graphApi.uploads).toEqual([]);
      expect(h.graphApi.refusedUploads).toEqual([]);
      expect(h.graphApi.sent.map((m) => m.type)).toEqual(["text"]);
      expect(h.graphApi.textsTo(PHONE)).toEqual(["echo: how are you today"]);
      expect(h.logs().filter((l) => l.event === "VOICE_REPLY_FAILED")).toEqual([
        expect.objectContaining({ step: "speech" }),
      ]);
    },
  );

  it("whose send fails (500 after the retries) is answered by the text, exactly once", async () => {
    await harness({ transcriber: hearing("how are you today") });
    answering(server);
    server.enqueueSpeech({ audio: OGG });
    h.graphApi.failNext(4, { status: 500, code: 2 });
    await h.deliver(voiceNote(h.clock.now()));
    await h.graphApi.waitForSent(1, 10_000);
    await h.idle();
    expect(h.graphApi.uploads).toHaveLength(1);
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["text"]);
    expect(h.graphApi.textsTo(PHONE)).toEqual(["echo: how are you today"]);
    expect(h.logs().filter((l) => l.event === "VOICE_REPLY_FAILED")).toEqual([
      expect.objectContaining({ step: "send" }),
    ]);
  }, 30_000);

  it("followed by a text that fails: the voice note is not sent again, and no text is doubled", async () => {
    await harness({ transcriber: hearing("what do I need") });
    answering(server, "You need:\n• a hat\n• water");
    server.enqueueSpeech({ audio: OGG });
    // The voice note goes; the text after it fails on every try.
    h.graphApi.failNext(4, { status: 500, code: 2 }, "text");
    await h.deliver(voiceNote(h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    // Message sends (not read receipts): the voice note, then the text's four tries.
    const sends = h.graphApi.requests.filter(
      (r) => r.path.endsWith("/messages") && !(r.body as { status?: string }).status,
    );
    expect(sends.slice(0, 5).map((r) => (r.body as { type: string }).type)).toEqual([
      "audio",
      "text",
      "text",
      "text",
      "text",
    ]);
    // The voice note went once; what follows is the inbox's apology, not the reply a second time.
    expect(audios(h)).toHaveLength(1);
    expect(h.graphApi.uploads).toHaveLength(1);
    expect(server.speeches).toHaveLength(1);
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["audio", "text"]);
    expect(h.graphApi.textsTo(PHONE)[1]).toContain("problem on my side");
    expect(h.logs().filter((l) => l.event === "VOICE_REPLY_FAILED")).toEqual([]);
  }, 30_000);

  it("with a text after it: the voice note's record answers nothing, the text's answers the message", async () => {
    await harness({ transcriber: hearing("what do I need") });
    answering(server, "You need:\n• a hat\n• water");
    server.enqueueSpeech({ audio: OGG });
    const note = voiceNote(h.clock.now());
    await h.deliver(note);
    const [audio, text] = await h.graphApi.waitForSent(2);
    await h.idle();
    expect(await h.whatsapp.outbound.get(audio!.id)).toMatchObject({ kind: "audio", inReplyTo: null });
    expect(await h.whatsapp.outbound.get(text!.id)).toMatchObject({ kind: "text", inReplyTo: note.id });
  });

  it("too long to speak (over 1,500 characters spoken) goes as text, and no speech is made", async () => {
    await harness({ transcriber: hearing("tell me everything") });
    const long = Array.from(
      { length: 40 },
      (_, i) => `This is sentence number ${i + 1} of a long answer.`,
    ).join(" ");
    expect(long.length).toBeGreaterThan(1500);
    answering(server, long);
    await h.deliver(voiceNote(h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(server.speeches).toEqual([]);
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["text"]);
    expect(h.logs().filter((l) => l.event === "VOICE_REPLY_SKIPPED")).toHaveLength(1);
  });

  it("whose audio is over 512 KB (no play button in WhatsApp) goes as text, not uploaded", async () => {
    await harness({ transcriber: hearing("how are you today") });
    answering(server);
    // A valid Ogg/Opus stream, padded past 512 KB.
    server.enqueueSpeech({ audio: Buffer.concat([OGG, Buffer.alloc(512 * 1024)]) });
    await h.deliver(voiceNote(h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(h.graphApi.uploads).toEqual([]);
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["text"]);
    expect(h.logs().filter((l) => l.event === "VOICE_REPLY_FAILED")).toEqual([
      expect.objectContaining({ step: "size" }),
    ]);
  });

  it("that WhatsApp accepted and later reported failed is answered by its text, once", async () => {
    await harness({ transcriber: hearing("how are you today") });
    answering(server);
    server.enqueueSpeech({ audio: OGG });
    const note = voiceNote(h.clock.now());
    await h.deliver(note);
    const [audio] = await h.graphApi.waitForSent(1);
    await h.idle();
    const failed = failedStatus(audio!.id);
    expect((await h.post(failed)).status).toBe(200);
    expect((await h.post(failed)).status).toBe(200);
    await h.graphApi.waitForSent(2);
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["audio", "text"]);
    expect(h.graphApi.sent[1]!.body.text).toEqual({ body: "echo: how are you today." });
    expect(await h.whatsapp.outbound.get(h.graphApi.sent[1]!.id)).toMatchObject({ inReplyTo: note.id });
  });

  it("followed by its text, reported failed: nothing more is sent (the text carries the answer)", async () => {
    await harness({ transcriber: hearing("what do I need") });
    answering(server, "You need:\n• a hat\n• water");
    server.enqueueSpeech({ audio: OGG });
    await h.deliver(voiceNote(h.clock.now()));
    const [audio] = await h.graphApi.waitForSent(2);
    await h.idle();
    const failed = failedStatus(audio!.id);
    expect((await h.post(failed)).status).toBe(200);
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["audio", "text"]);
  });

  it("costs what the speech model charges, counted with the turn's LLM calls in the user's day", async () => {
    const tokens = { prompt_tokens: 1200, completion_tokens: 80 };
    await harness({ transcriber: hearing("how are you today") });
    answering(server, undefined, tokens);
    server.enqueueSpeech({ audio: OGG });
    await h.deliver(voiceNote(h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    await h.memo.budget.idle();
    const { rows } = await h.db.pool.query<{ calls: number; cost_usd: number }>(
      "SELECT calls, cost_usd FROM llm_usage_daily WHERE user_phone = $1",
      [PHONE],
    );
    const spoken = server.speeches[0]!.input;
    const speech = speechCostUsd("gpt-4o-mini-tts", spoken.length);
    expect(speech).toBeGreaterThan(0);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.calls).toBe(3);
    expect(rows[0]!.cost_usd).toBeCloseTo(
      2 * costUsd(modelConfigOf("gpt-4o-mini").config, 1200, 80) + speech,
      9,
    );
  });

  it("is answered in text once the user's daily budget is spent (no speech is made)", async () => {
    await harness({ transcriber: hearing("how are you today"), env: { LLM_DAILY_BUDGET_USD: "0.01" } });
    await h.db.pool.query(
      "INSERT INTO llm_usage_daily (user_phone, day, calls, input_tokens, output_tokens, cost_usd) VALUES ($1, (now() AT TIME ZONE 'Asia/Jerusalem')::date, 1, 0, 0, 1)",
      [PHONE],
    );
    answering(server);
    await h.deliver(voiceNote(h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(server.speeches).toEqual([]);
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["text"]);
  });
});

describe("the setting 'answer me by voice'", () => {
  it.each([
    ["en", "answer me by voice", "From now on I answer you by voice", "how are you", "stop voice answers"],
    ["he", "תענה לי בקול", "מעכשיו אני עונה לך בהקלטה", "מה שלומך", "תפסיק לענות בקול"],
  ] as const)(
    "(%s) makes a text message get a voice reply, until it is turned off",
    async (language, on, confirmed, asked, off) => {
      await harness({}, language);
      answering(server);
      await h.deliver(textMessage(PHONE, on, h.clock.now()));
      await h.graphApi.waitForSent(1);
      await h.idle();
      expect(h.graphApi.textsTo(PHONE)[0]).toContain(confirmed);
      expect((await h.memo.users.get(PHONE))?.voiceReplies).toBe(true);

      server.enqueueSpeech({ audio: OGG });
      await h.deliver(textMessage(PHONE, asked, h.clock.now() + 1_000));
      await h.graphApi.waitForSent(2);
      await h.idle();
      expect(h.graphApi.sent[1]!.type).toBe("audio");
      expect(server.speeches[0]!.input).toBe(`echo: ${asked}.`);

      await h.deliver(textMessage(PHONE, off, h.clock.now() + 2_000));
      await h.graphApi.waitForSent(3);
      await h.idle();
      expect((await h.memo.users.get(PHONE))?.voiceReplies).toBe(false);
      await h.deliver(textMessage(PHONE, asked, h.clock.now() + 3_000));
      await h.graphApi.waitForSent(4);
      await h.idle();
      expect(h.graphApi.sent.map((m) => m.type)).toEqual(["text", "audio", "text", "text"]);
      expect(h.graphApi.textsTo(PHONE)[3]).toBe(`echo: ${asked}`);
      expect(server.speeches).toHaveLength(1);
    },
  );

  it("'voice answers?' says whether it is on", async () => {
    await harness();
    await h.deliver(textMessage(PHONE, "voice answers?", h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    await h.deliver(textMessage(PHONE, "reply with voice", h.clock.now() + 1_000));
    await h.graphApi.waitForSent(2);
    await h.idle();
    await h.deliver(textMessage(PHONE, "voice answers?", h.clock.now() + 2_000));
    await h.graphApi.waitForSent(3);
    const [before, , after] = h.graphApi.textsTo(PHONE);
    expect(before).toContain("Answers by voice: off");
    expect(after).toContain("Answers by voice: on");
  });

  it("without a speech model is stored, says so, and replies stay text", async () => {
    await harness({ speaker: null });
    answering(server);
    await h.deliver(textMessage(PHONE, "answer me by voice", h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(h.graphApi.textsTo(PHONE)[0]).toContain("no speech model is configured");
    expect((await h.memo.users.get(PHONE))?.voiceReplies).toBe(true);
    await h.deliver(textMessage(PHONE, "how are you", h.clock.now() + 1_000));
    await h.graphApi.waitForSent(2);
    await h.idle();
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["text", "text"]);
    expect(h.graphApi.textsTo(PHONE)[1]).toBe("echo: how are you");
    expect(server.speeches).toEqual([]);
    expect(h.graphApi.uploads).toEqual([]);
    // Turned off, it does not promise that a voice note is answered by voice: none is.
    await h.deliver(textMessage(PHONE, "stop voice answers", h.clock.now() + 2_000));
    await h.graphApi.waitForSent(3);
    await h.idle();
    await h.deliver(textMessage(PHONE, "voice answers?", h.clock.now() + 3_000));
    await h.graphApi.waitForSent(4);
    const [, , off, state] = h.graphApi.textsTo(PHONE);
    expect(off).toBe("OK, answers by voice are off: I answer in text.");
    expect(state).toContain("no speech model is configured");
    expect(`${off} ${state}`).not.toContain("answered by voice");
  });

  it("with LLM_SPEECH_MODEL=off, a voice note is answered in text", async () => {
    await harness({ transcriber: hearing("how are you today"), env: { LLM_SPEECH_MODEL: "off" } });
    answering(server);
    await h.deliver(voiceNote(h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["text"]);
    expect(server.speeches).toEqual([]);
  });
});

describe("what is spoken", () => {
  it("drops emoji and formatting, reads a numbered list with its numbers, says links are below", () => {
    expect(speakable("✅ *Done!* Added 3 items 🛒", "en")).toBe("Done! Added 3 items.");
    expect(speakable("Your tasks:\n1. Call mom\n2) Pay the bill 💸", "en")).toBe(
      "Your tasks: 1: Call mom and 2: Pay the bill.",
    );
    expect(speakable("הרשימה:\n• חלב\n• ביצים", "he")).toBe("הרשימה: חלב וביצים.");
    // ו is not glued to a number (or a Latin word): "ו-2".
    expect(speakable("המשימות:\n1. לקנות חלב\n2. לשלם חשבון", "he")).toBe(
      "המשימות: 1: לקנות חלב ו-2: לשלם חשבון.",
    );
    expect(speakable("צריך:\n• חלב\n• WhatsApp", "he")).toBe("צריך: חלב ו-WhatsApp.");
    expect(speakable("Open www.example.com/x now", "en")).toBe("Open the link below now.");
    expect(speakable("👍", "en")).toBe("");
  });

  it("sends the text too when there is something to read or tap", () => {
    const content = (text: string) => ({ text, options: [], language: "en" as const });
    expect(needsText(content("Sure, I will."))).toBe(false);
    expect(needsText(content("• milk\n• eggs"))).toBe(true);
    expect(needsText(content("See https://example.com"))).toBe(true);
    expect(needsText(content("Call 03-555-1234"))).toBe(true);
    // A code is read, not heard: four digits are enough.
    expect(needsText(content("קוד האימות: 4821"))).toBe(true);
    expect(needsText(content("In 2 days, at 10:30."))).toBe(false);
    expect(needsText({ ...content("Which one?"), options: [{ id: "1", label: "A" }] })).toBe(true);
  });

  it("speech is priced by model, a dated snapshot as its model", () => {
    expect(speechCostUsd("gpt-4o-mini-tts-2025-12-15", 1000)).toBe(speechCostUsd("gpt-4o-mini-tts", 1000));
    expect(speechCostUsd("tts-1-1106", 1000)).toBe(0.015);
    expect(speechCostUsd("tts-1-hd-1106", 1000)).toBe(0.03);
    expect(speechCostUsd("tts-1-hd", 1000)).toBe(0.03);
    expect(speechCostUsd("tts-10", 1000)).toBe(0);
  });

  it("Memo's Ogg/Opus check: the real Ogg/Opus passes, WAV and MP3 do not", () => {
    expect(isOggOpus(OGG)).toBe(true);
    expect(isOggOpus(WAV)).toBe(false);
    expect(isOggOpus(MP3)).toBe(false);
  });
});

describe("a voice note's send that fails", () => {
  /** VoiceReplies over a sender whose sendVoice throws `error`; the texts it was asked to send. */
  function failingWith(error: Error) {
    const texts: string[] = [];
    const sender = {
      sendVoice: () => Promise.reject(error),
      send: (_phone: string, content: ReplyContent) => {
        texts.push(content.text);
        return Promise.resolve(["wamid.text"]);
      },
    } as unknown as WhatsAppSender;
    const voice = new VoiceReplies({
      speaker: {
        speak: (text) =>
          Promise.resolve({
            audio: OGG,
            mimeType: "audio/ogg",
            usage: { model: "gpt-4o-mini-tts", characters: text.length, costUsd: 0, durationMs: 1 },
          }),
      },
      client: { uploadMedia: () => Promise.resolve("media-1") } as unknown as GraphApiClient,
      sender,
      outbound: { get: () => Promise.resolve(null) },
      users: { get: () => Promise.resolve(null) },
      budget: { exhausted: () => Promise.resolve(false), countSpeech: () => undefined },
      logger: createLogger("silent"),
    });
    const send = () =>
      voice.send(
        PHONE,
        { text: "All good.", options: [], language: "en" },
        { inReplyTo: "wamid.in", memory: "add" },
      );
    return { send, texts };
  }

  it("before WhatsApp accepted it (a DeliveryError) falls back to the text", async () => {
    const { send, texts } = failingWith(new DeliveryError("Reply could not be delivered"));
    await send();
    expect(texts).toEqual(["All good."]);
  });

  it("after WhatsApp accepted it (the window's update failed) is rethrown, and no text goes", async () => {
    const { send, texts } = failingWith(new Error("window write failed"));
    await expect(send()).rejects.toThrow("window write failed");
    expect(texts).toEqual([]);
  });
});
