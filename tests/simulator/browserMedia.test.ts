// Documents and voice replies in the simulator, in real headless Chromium against the whole
// service: the user attaches a file with the paperclip and it reaches Memo as a Cloud API
// `document` webhook whose bytes Memo can download; a voice reply uploaded to the simulator's
// Graph API, as Memo uploads it, plays in the page between the text replies; and Memo itself,
// asked to answer by voice, speaks (a scripted speech model), uploads and sends a voice note the
// page plays.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService } from "../../src/app/server.js";
import { chromiumAvailable, launchChromium } from "../support/browser.js";
import { startLocalService, type LocalService } from "../support/localService.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";

const PHONE = "972501234567";
const PHONE_NUMBER_ID = "106540352242922";
const FIXTURES = new URL("../fixtures/documents/", import.meta.url);

/** What the test reads of an <audio> element (tests compile without the DOM library). */
interface AudioElement {
  src: string;
  currentSrc: string;
  duration: number;
  currentTime: number;
  paused: boolean;
  ended: boolean;
  muted: boolean;
  dataset: Record<string, string>;
  canPlayType(type: string): string;
  play(): Promise<void>;
}

describe.skipIf(!chromiumAvailable)("documents and voice replies in the simulator, in Chromium", () => {
  let llm: ScriptedOpenAI | undefined;
  let local: LocalService | undefined;
  let service: RunningService;
  let browser: Browser;
  let page: Page;
  let graph: string;

  beforeAll(async () => {
    // A speech model on an OpenAI-compatible stand-in, so Memo can answer by voice.
    llm = await ScriptedOpenAI.start();
    local = await startLocalService("sim-media", {
      WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
      OPENAI_BASE_URL: llm.baseUrl,
      LLM_SPEECH_MODEL: "gpt-4o-mini-tts",
      // Summaries and facts by rules; a model call nothing scripted fails at once.
      MEMORY_MODE: "rules",
      LLM_MAX_RETRIES: "0",
    });
    service = local.service;
    graph = `${service.simulatorUrl!}/graph/v23.0`;
    browser = await launchChromium();
    page = await browser.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await local?.stop();
    await llm?.close();
  });

  const open = async (phone: string) => {
    await page.goto(`${service.simulatorUrl!}?phone=${phone}`);
    await expect.poll(() => page.getByTestId("chat-status").getAttribute("data-state")).toBe("online");
  };

  /** The bytes behind a media id, as Memo's client downloads them (lookup, then the URL it gives). */
  const download = async (id: string) => {
    const info = (await (await fetch(`${graph}/${id}`)).json()) as { url: string; mime_type: string };
    const res = await fetch(info.url);
    return { mimeType: info.mime_type, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it("sends an attached text file as a document with its name and caption, downloadable by Memo", async () => {
    await open(PHONE);
    const file = fileURLToPath(new URL("dentist.txt", FIXTURES));
    await page.getByTestId("attach-document").setInputFiles(file);
    await expect.poll(() => page.getByTestId("attachment-name").innerText()).toContain("dentist.txt");
    await page.getByTestId("composer-input").fill("when is it?");
    await page.keyboard.press("Enter");

    const bubble = page.locator('[data-testid="message"][data-from="user"][data-type="document"]');
    await expect.poll(() => bubble.count(), { timeout: 15_000 }).toBe(1);
    expect(await bubble.getByTestId("document-name").innerText()).toBe("dentist.txt");
    expect(await bubble.getByTestId("message-text").innerText()).toBe("when is it?");
    await expect.poll(() => page.getByTestId("attachment-bar").isHidden()).toBe(true);

    // What Memo's webhook took in: a document message, its bytes behind the media endpoint.
    const { rows } = await service.db.pool.query<{ payload: { document: Record<string, string> } }>(
      "SELECT payload FROM inbox_messages WHERE phone = $1 AND type = 'document'",
      [PHONE],
    );
    expect(rows).toHaveLength(1);
    const document = rows[0]!.payload.document;
    expect(document).toMatchObject({
      filename: "dentist.txt",
      mime_type: "text/plain",
      caption: "when is it?",
    });
    expect(await download(document.id!)).toEqual({
      mimeType: "text/plain",
      bytes: await readFile(new URL("dentist.txt", FIXTURES)),
    });
  });

  it("attaches a PDF the same way, named on its bubble", async () => {
    await page
      .getByTestId("attach-document")
      .setInputFiles(fileURLToPath(new URL("schoolLetterHe.pdf", FIXTURES)));
    await page.getByTestId("send-button").click();
    const bubble = page.locator('[data-testid="message"][data-from="user"][data-type="document"]').last();
    await expect
      .poll(() => bubble.getByTestId("document-name").innerText(), { timeout: 15_000 })
      .toBe("schoolLetterHe.pdf");
    const { rows } = await service.db.pool.query<{ payload: { document: Record<string, string> } }>(
      "SELECT payload FROM inbox_messages WHERE phone = $1 AND type = 'document' ORDER BY seq",
      [PHONE],
    );
    expect(rows.at(-1)?.payload.document).toMatchObject({
      filename: "schoolLetterHe.pdf",
      mime_type: "application/pdf",
    });
  });

  it("plays a voice reply Memo uploaded, in order with the text replies", async () => {
    // A phone Memo has no turns for, so only these sends appear.
    const phone = "972509990001";
    await open(phone);
    const ogg = await readFile(new URL("voiceReply.ogg", FIXTURES));
    const form = new FormData();
    form.append("messaging_product", "whatsapp");
    form.append("type", "audio/ogg");
    form.append("file", new Blob([ogg], { type: "audio/ogg" }), "reply.ogg");
    const uploaded = await fetch(`${graph}/${PHONE_NUMBER_ID}/media`, { method: "POST", body: form });
    expect(uploaded.status).toBe(200);
    const { id } = (await uploaded.json()) as { id: string };

    const send = async (body: Record<string, unknown>) => {
      const res = await fetch(`${graph}/${PHONE_NUMBER_ID}/messages`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ messaging_product: "whatsapp", to: phone, ...body }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { messages: { id: string }[] }).messages[0]!.id;
    };
    await send({ type: "text", text: { body: "Your reminder is set for tomorrow at 09:00." } });
    const voiceId = await send({ type: "audio", audio: { id, voice: true } });
    await send({ type: "text", text: { body: "Reply 'undo' to take it back." } });

    const memo = page.locator('[data-testid="message"][data-from="memo"]');
    await expect.poll(() => memo.count(), { timeout: 15_000 }).toBe(3);
    expect(
      await memo.evaluateAll((rows: unknown[]) =>
        rows.map((r) => (r as { getAttribute(name: string): string | null }).getAttribute("data-type")),
      ),
    ).toEqual(["text", "audio", "text"]);
    const voice = memo.nth(1);
    expect(await voice.innerText()).toContain("Voice message");
    const audio = voice.getByTestId("message-audio");
    expect(await audio.getAttribute("controls")).not.toBeNull();
    expect(await audio.getAttribute("aria-label")).toBe("Memo's voice message");

    // Its source serves the uploaded Ogg bytes.
    const src = await audio.evaluate((a) => (a as AudioElement).currentSrc || (a as AudioElement).src);
    const served = await fetch(src);
    expect(served.headers.get("content-type")).toBe("audio/ogg");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(ogg);

    // Chromium decodes it: it knows the duration, and playing (muted, as autoplay allows) moves time on.
    expect(
      await audio.evaluate((a: unknown) => (a as AudioElement).canPlayType("audio/ogg; codecs=opus")),
    ).not.toBe("");
    await expect
      .poll(() => audio.evaluate((a: unknown) => (a as AudioElement).duration), { timeout: 10_000 })
      .toBeGreaterThan(1);
    expect(Number.isFinite(await audio.evaluate((a: unknown) => (a as AudioElement).duration))).toBe(true);
    await audio.evaluate(async (a: unknown) => {
      const el = a as AudioElement;
      el.dataset.playing = "since the test pressed play";
      el.muted = true;
      await el.play();
    });
    // A change to the bubble (here a reaction; ticks do the same) must not restart or stop it.
    await send({ type: "reaction", reaction: { message_id: voiceId, emoji: "👍" } });
    await expect.poll(() => voice.getByTestId("reaction").count(), { timeout: 10_000 }).toBe(1);
    expect(await audio.getAttribute("data-playing")).toBe("since the test pressed play");
    await expect
      .poll(() => audio.evaluate((a: unknown) => (a as AudioElement).currentTime), { timeout: 10_000 })
      .toBeGreaterThan(0.2);
    expect(
      await audio.evaluate((a: unknown) => (a as AudioElement).paused && !(a as AudioElement).ended),
    ).toBe(false);
  });

  it("Memo itself answers by voice once asked: spoken, uploaded to the simulator, played in the page", async () => {
    const phone = "972509990002";
    await open(phone);
    const memo = page.locator('[data-testid="message"][data-from="memo"]');
    const type = async (text: string) => {
      await page.getByTestId("composer-input").fill(text);
      await page.keyboard.press("Enter");
    };
    // The setting is confirmed in text.
    await type("answer me by voice");
    await expect
      .poll(() => memo.last().innerText(), { timeout: 15_000 })
      .toContain("From now on I answer you by voice");
    const voice = page.locator('[data-testid="message"][data-from="memo"][data-type="audio"]');
    expect(await voice.count()).toBe(0);
    const before = await memo.count();

    const ogg = await readFile(new URL("voiceReply.ogg", FIXTURES));
    llm!.enqueueSpeech({ audio: ogg });
    await type("what can you do?");
    await expect.poll(() => voice.count(), { timeout: 15_000 }).toBe(1);
    // The capabilities are a list: the voice note first, then the text to read.
    await expect.poll(() => memo.count(), { timeout: 15_000 }).toBe(before + 2);
    expect(await memo.nth(before).getAttribute("data-type")).toBe("audio");
    expect(await memo.last().innerText()).toContain("Here's what I can do for you");
    expect(llm!.speeches).toEqual([
      expect.objectContaining({ model: "gpt-4o-mini-tts", responseFormat: "opus" }),
    ]);
    expect(llm!.speeches[0]!.input).toContain("Here's what I can do for you");

    expect(await voice.innerText()).toContain("Voice message");
    const audio = voice.getByTestId("message-audio");
    const src = await audio.evaluate((a) => (a as AudioElement).currentSrc || (a as AudioElement).src);
    const served = await fetch(src);
    expect(served.headers.get("content-type")).toBe("audio/ogg");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(ogg);
    await expect
      .poll(() => audio.evaluate((a: unknown) => (a as AudioElement).duration), { timeout: 10_000 })
      .toBeGreaterThan(1);
    expect(Number.isFinite(await audio.evaluate((a: unknown) => (a as AudioElement).duration))).toBe(true);

    // What the simulator recorded: Memo's upload as Ogg/Opus, sent as an audio message with voice: true.
    const { messages } = (await (
      await fetch(`${service.simulatorUrl!}/api/messages?phone=${phone}`)
    ).json()) as { messages: { direction: string; type: string; media?: Record<string, unknown> }[] };
    const sent = messages.filter((m) => m.direction === "out" && m.type === "audio");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.media).toMatchObject({
      mimeType: "audio/ogg",
      voice: true,
      fileSize: ogg.length,
    });
    expect(await download(String(sent[0]!.media!.id))).toEqual({
      mimeType: "audio/ogg",
      bytes: ogg,
    });
  });
});
