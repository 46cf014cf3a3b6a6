// Every kind of WhatsApp message, through the webhook, the inbox, the graph and the Graph API.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTranscriber, type Transcriber } from "../../src/services/media/transcriber.js";
import { fakeClock } from "../support/clock.js";
import { FakeGraphApi } from "../support/fakeGraphApi.js";
import { captureLogs } from "../support/logs.js";
import { isPlanner, plan, step } from "../support/memoHarness.js";
import { ScriptedOpenAI, lastUserMessageOf, systemPromptOf } from "../support/scriptedOpenAI.js";
import {
  ACCESS_TOKEN,
  createWhatsAppHarness,
  echoLLM,
  textMessage,
  waId,
  type WaMessage,
  type WhatsAppHarness,
} from "../support/whatsappHarness.js";

const PHONE = "972501110001";

/** A transcriber that hears what it is told and records what it was asked. */
function fakeTranscriber(heard: string) {
  const calls: { bytes: number; mimeType: string; language: string | undefined }[] = [];
  const transcriber: Transcriber = {
    transcribe(audio, language) {
      calls.push({ bytes: audio.data.length, mimeType: audio.mimeType, language });
      return Promise.resolve(heard);
    },
  };
  return { transcriber, calls };
}

function message(
  type: string,
  content: Record<string, unknown>,
  at: number,
  extra: Partial<WaMessage> = {},
): WaMessage {
  return { from: PHONE, id: waId(), timestamp: String(Math.floor(at / 1000)), type, ...content, ...extra };
}

let server: ScriptedOpenAI;
let h: WhatsAppHarness;
beforeAll(async () => {
  server = await ScriptedOpenAI.start();
});
afterAll(() => server.close());
afterEach(async () => {
  await h?.close();
  server.reset();
});

async function harness(
  options: Parameters<typeof createWhatsAppHarness>[0] = {},
  language: "he" | "en" = "en",
) {
  h = await createWhatsAppHarness({ llm: server, ...options });
  await h.knownUser(PHONE, language);
  return h;
}

describe("text", () => {
  beforeEach(() => echoLLM(server));

  it("goes to the graph, and the reply goes back; the message is marked read with the typing indicator", async () => {
    await harness();
    const m = textMessage(PHONE, "tell me something, Memo", h.clock.now());
    await h.deliver(m);
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(PHONE)).toEqual(["echo: tell me something, Memo"]);
    expect(h.graphApi.reads).toEqual([{ messageId: m.id, typing: true }]);
  });

  it("records the sent message and gives its id to the conversation window, so a reply to it finds it", async () => {
    await harness();
    const m = textMessage(PHONE, "first", h.clock.now());
    await h.deliver(m);
    const [sent] = await h.graphApi.waitForSent(1);
    await h.idle();
    expect(await h.whatsapp.outbound.get(sent!.id)).toMatchObject({
      phone: PHONE,
      inReplyTo: m.id,
      kind: "text",
      body: "echo: first",
      status: "accepted",
    });
    await h.memo.memory.load(PHONE);
    expect(h.memo.memory.getRepliedToMessage(PHONE, sent!.id)?.content).toBe("echo: first");

    // context.id → replyToMessageId: the planner sees which message is being answered.
    await h.deliver(textMessage(PHONE, "what did you mean?", h.clock.now() + 1000, { replyTo: sent!.id }));
    await h.graphApi.waitForSent(2);
    const planner = server.requests.filter(isPlanner).at(-1)!;
    expect(JSON.stringify(planner.body.messages)).toContain("echo: first");
  });

  it("a reply to Memo's message quotes it after a restart, though the window was not written when it was sent", async () => {
    const graphApi = await FakeGraphApi.start({ accessToken: ACCESS_TOKEN });
    try {
      await harness({ graphApi });
      const m = textMessage(PHONE, "first", h.clock.now());
      await h.deliver(m);
      const [sent] = await h.graphApi.waitForSent(1);
      await h.idle();
      // The stored window keeps the reply as the turn stored it: the id is in its outbound record.
      const stored = await h.db.pool.query<{
        state: { messages: { content: string; whatsappMessageId?: string }[] };
      }>("SELECT state FROM conversation_windows WHERE user_phone = $1", [PHONE]);
      const reply = stored.rows[0]!.state.messages.find((x) => x.content === "echo: first");
      expect(reply).toBeDefined();
      expect(reply!.whatsappMessageId).toBeUndefined();
      const { db, clock } = h;
      await h.close(false);

      // Another instance (a restart) takes the user's reply quoting Memo's message.
      h = await createWhatsAppHarness({ llm: server, db, clock, graphApi });
      await h.deliver(textMessage(PHONE, "what did you mean?", h.clock.now() + 1000, { replyTo: sent!.id }));
      await h.graphApi.waitForSent(2);
      await h.idle();
      const planner = server.requests.filter(isPlanner).at(-1)!;
      // reply_context found the quoted message by its WhatsApp id (not only as recent conversation).
      expect(JSON.stringify(planner.body.messages)).toContain(
        `[added by Memo: Replying to Memo's message: \\"echo: first\\"]`,
      );
      // The turn's own save keeps the id in the window from then on.
      await h.memo.memory.load(PHONE);
      expect(h.memo.memory.getRepliedToMessage(PHONE, sent!.id)?.content).toBe("echo: first");
      const after = await h.db.pool.query<{
        state: { messages: { content: string; whatsappMessageId?: string }[] };
      }>("SELECT state FROM conversation_windows WHERE user_phone = $1", [PHONE]);
      expect(after.rows[0]!.state.messages.find((x) => x.content === "echo: first")?.whatsappMessageId).toBe(
        sent!.id,
      );
    } finally {
      await graphApi.close();
    }
  });

  it("splits a reply longer than 4096 characters", async () => {
    server.reset();
    server.on(isPlanner, {
      json: plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }).json,
    });
    const paragraph = "word ".repeat(300).trim();
    server.on((req) => !isPlanner(req), { text: Array.from({ length: 6 }, () => paragraph).join("\n\n") });
    await harness();
    await h.deliver(textMessage(PHONE, "tell me a lot", h.clock.now()));
    await h.graphApi.waitForSent(3);
    await h.idle();
    const texts = h.graphApi.textsTo(PHONE);
    // 6 paragraphs of ~1500 characters: two per message, cut between paragraphs.
    expect(texts).toEqual(Array.from({ length: 3 }, () => `${paragraph}\n\n${paragraph}`));
    expect(texts.join("\n\n")).toBe(Array.from({ length: 6 }, () => paragraph).join("\n\n"));
  });
});

describe("a very long message", () => {
  beforeEach(() => echoLLM(server));

  it.each([
    ["en", "word ", "Your message was long; I read the first 4,000 characters."],
    ["he", "מילה ", "ההודעה שלך ארוכה; קראתי את 4,000 התווים הראשונים."],
  ])(
    "(%s) reaches the model cut at 4,000 characters, and the reply says what was read",
    async (_, word, note) => {
      await harness();
      const long = word.repeat(13_000); // 64 KB and more
      await h.deliver(textMessage(PHONE, long, h.clock.now()));
      const [sent] = await h.graphApi.waitForSent(1);
      await h.idle();
      const reply = h.graphApi.textsTo(PHONE).join("\n\n");
      expect(reply.startsWith(`${note}\n\n`)).toBe(true);
      // The window keeps the reply without the note, and the sender still gives it its WhatsApp id.
      await h.memo.memory.load(PHONE);
      const linked = h.memo.memory.getRepliedToMessage(PHONE, sent!.id);
      expect(linked?.role).toBe("assistant");
      expect(reply.endsWith(linked!.content)).toBe(true);
      expect(server.requests.length).toBeGreaterThan(0);
      for (const request of server.requests) {
        const sent = JSON.stringify(request.body.messages);
        expect(sent).toContain(long.slice(0, 4000));
        expect(sent).not.toContain(long.slice(0, 4001));
      }
      const stored = await h.db.pool.query<{ content: string }>(
        "SELECT content FROM conversation_messages WHERE user_phone = $1 AND role = 'user'",
        [PHONE],
      );
      expect(stored.rows.map((r) => r.content.length)).toEqual([4000]);
    },
  );
});

describe("button taps", () => {
  it("a reply-button tap answers the pending question by its option id", async () => {
    await harness();
    server.enqueue(plan({ riskLevel: "high", steps: [step("s1", "general", "answer_question")] }));
    await h.deliver(textMessage(PHONE, "delete everything", h.clock.now()));
    const [question] = await h.graphApi.waitForSent(1);
    await h.idle();
    const interactive = question!.body.interactive as {
      type: string;
      action: { buttons: { reply: { id: string; title: string } }[] };
    };
    expect(interactive.type).toBe("button");
    const yes = interactive.action.buttons.find((b) => b.reply.id === "yes")!;

    server.enqueue({ text: "Done, all gone." });
    await h.deliver(
      message(
        "interactive",
        { interactive: { type: "button_reply", button_reply: yes.reply } },
        h.clock.now() + 1000,
        {
          context: { from: "x", id: question!.id },
        },
      ),
    );
    await h.graphApi.waitForSent(2);
    expect(h.graphApi.textsTo(PHONE).at(-1)).toBe("Done, all gone.");
    // The tap resumed the question: no new plan was made.
    expect(server.requests.filter(isPlanner)).toHaveLength(1);
  });

  it("a template quick-reply button is taken as its payload text", async () => {
    echoLLM(server);
    await harness();
    await h.deliver(
      message("button", { button: { text: "Snooze", payload: "snooze 10 minutes" } }, h.clock.now()),
    );
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(PHONE)).toEqual(["echo: snooze 10 minutes"]);
  });
});

describe("voice notes", () => {
  it("are transcribed with the user's language as a hint and handled as text; what was heard is shown when it leads to a question", async () => {
    const { transcriber, calls } = fakeTranscriber("תזכיר לי מחר בתשע");
    await harness({ transcriber }, "he");
    h.graphApi.addMedia("media-audio-1", Buffer.from("OggS fake opus"), "audio/ogg; codecs=opus");
    server.enqueue(
      plan({
        confidence: 0.4,
        clarificationQuestion: "למה להזכיר?",
        steps: [step("s1", "general", "answer_question")],
      }),
    );
    await h.deliver(
      message(
        "audio",
        { audio: { id: "media-audio-1", mime_type: "audio/ogg; codecs=opus", voice: true } },
        h.clock.now(),
      ),
    );
    await h.graphApi.waitForSent(2);
    expect(calls).toEqual([{ bytes: 14, mimeType: "audio/ogg; codecs=opus", language: "he" }]);
    expect(lastUserMessageOf(server.requests[0]!)).toContain("תזכיר לי מחר בתשע");
    const texts = h.graphApi.textsTo(PHONE);
    expect(texts[0]).toBe('🎤 שמעתי: "תזכיר לי מחר בתשע"');
    expect(texts[1]).toContain("למה להזכיר?");
    // The media was fetched with the access token, right before downloading.
    expect(
      h.graphApi.requests
        .filter((r) => r.path.includes("media-audio-1"))
        .every((r) => r.authorization === "Bearer test-access-token"),
    ).toBe(true);
  });

  it("what was heard is shown when it leads to an action", async () => {
    const { transcriber } = fakeTranscriber("remind me in 10 minutes to call the bank");
    await harness({ transcriber, llm: "none", env: { FAST_PATH: "on" } });
    h.graphApi.addMedia("media-audio-3", Buffer.from("x"), "audio/ogg");
    await h.deliver(
      message(
        "audio",
        { audio: { id: "media-audio-3", mime_type: "audio/ogg", voice: true } },
        h.clock.now(),
      ),
    );
    await h.graphApi.waitForSent(2);
    await h.idle();
    const texts = h.graphApi.textsTo(PHONE);
    expect(texts[0]).toBe('🎤 I heard: "remind me in 10 minutes to call the bank"');
    expect(texts[1]).toContain("call the bank");
  });

  it("a plain conversational voice note is answered without repeating it back", async () => {
    const { transcriber } = fakeTranscriber("how are you today");
    echoLLM(server);
    await harness({ transcriber });
    h.graphApi.addMedia("media-audio-2", Buffer.from("x"), "audio/ogg");
    await h.deliver(
      message(
        "audio",
        { audio: { id: "media-audio-2", mime_type: "audio/ogg", voice: true } },
        h.clock.now(),
      ),
    );
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(h.graphApi.textsTo(PHONE)).toEqual(["echo: how are you today"]);
  });

  it("without a speech model, the user is told so in their language", async () => {
    await harness({ llm: "none" }, "he");
    await h.deliver(
      message("audio", { audio: { id: "m", mime_type: "audio/ogg", voice: true } }, h.clock.now()),
    );
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(PHONE)[0]).toContain("הודעות קוליות");
  });

  it("is transcribed through OpenAI's transcription API when configured", async () => {
    server.enqueueTranscription({ text: "remind me to call mom" });
    await harness();
    // The harness passes no transcriber by default; build the configured one for this test.
    const real = createTranscriber(h.config, captureLogs().logger);
    expect(real).not.toBeNull();
    expect(
      await real!.transcribe({ data: Buffer.from("audio bytes"), mimeType: "audio/ogg; codecs=opus" }, "en"),
    ).toBe("remind me to call mom");
    expect(server.transcriptions[0]).toMatchObject({
      model: "gpt-4o-mini-transcribe",
      language: "en",
      filename: "voice.ogg",
    });
    expect(server.transcriptions[0]!.bytes.toString()).toBe("audio bytes");
  });
});

describe("images", () => {
  const analysis = {
    imageType: "structured",
    description: "A handwritten shopping list.",
    tasks: [],
    events: [],
    items: ["milk", "eggs", "bread"],
    extractedText: "milk\neggs\nbread",
  };

  it("without a caption: analysed, kept as image context, and answered with what was found and what Memo can do", async () => {
    await harness();
    h.graphApi.addMedia("media-img-1", Buffer.from("\x89PNG fake"), "image/png");
    server.on((req) => (systemPromptOf(req) ?? "").includes("You look at one image"), { json: analysis });
    await h.deliver(
      message("image", { image: { id: "media-img-1", mime_type: "image/png" } }, h.clock.now()),
    );
    await h.graphApi.waitForSent(1);
    await h.idle();
    const [reply] = h.graphApi.textsTo(PHONE);
    expect(reply).toContain("A handwritten shopping list.");
    expect(reply).toContain("• milk");
    expect(reply).toContain("save this as a list");
    // The vision model got the image itself.
    const vision = server.requests.find((r) => (systemPromptOf(r) ?? "").includes("You look at one image"))!;
    expect(JSON.stringify(vision.body.messages)).toContain("data:image/png;base64,");
    await h.memo.memory.load(PHONE);
    expect(h.memo.memory.getLastImageContext(PHONE)).toMatchObject({
      imageId: "media-img-1",
      imageType: "structured",
      analysisResult: { extractedData: { items: ["milk", "eggs", "bread"] } },
    });

    // A follow-up within minutes is planned with the image in view.
    echoLLM(server);
    await h.deliver(textMessage(PHONE, "save this as a list", h.clock.now() + 60_000));
    await h.graphApi.waitForSent(2);
    const planner = server.requests.filter(isPlanner).at(-1)!;
    expect(JSON.stringify(planner.body.messages)).toContain("shopping list");
  });

  it("with a caption: the caption is the request about the image", async () => {
    await harness();
    h.graphApi.addMedia("media-img-2", Buffer.from("jpeg"), "image/jpeg");
    server.on((req) => (systemPromptOf(req) ?? "").includes("You look at one image"), { json: analysis });
    echoLLM(server);
    await h.deliver(
      message(
        "image",
        { image: { id: "media-img-2", mime_type: "image/jpeg", caption: "what's on it?" } },
        h.clock.now(),
      ),
    );
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(PHONE)[0]).toMatch(/^echo: /);
    const planner = server.requests.find(isPlanner)!;
    expect(JSON.stringify(planner.body.messages)).toContain("shopping list");
  });
});

describe("other message types", () => {
  it("a reaction is recorded and starts no turn", async () => {
    echoLLM(server);
    await harness();
    const reaction = message("reaction", { reaction: { message_id: "wamid.X", emoji: "👍" } }, h.clock.now());
    await h.deliver(reaction, textMessage(PHONE, "after the reaction", h.clock.now() + 1000));
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(h.graphApi.textsTo(PHONE)).toEqual(["echo: after the reaction"]);
    expect(await h.whatsapp.inbox.get(reaction.id)).toMatchObject({ status: "recorded", attempts: 0 });
  });

  it.each([
    ["location", { location: { latitude: 32.08, longitude: 34.78 } }, "locations"],
    ["sticker", { sticker: { id: "s1", mime_type: "image/webp" } }, "stickers"],
    ["video", { video: { id: "v1", mime_type: "video/mp4" } }, "videos"],
    ["contacts", { contacts: [{ name: { formatted_name: "Dana" } }] }, "contact cards"],
    ["unsupported", { errors: [{ code: 131051, title: "Message type unknown" }] }, "this kind of message"],
    ["something_new", {}, "this kind of message"],
  ])("a %s gets a short polite reply saying what Memo can take", async (type, content, kind) => {
    await harness({ llm: "none" });
    await h.deliver(message(type, content, h.clock.now()));
    await h.graphApi.waitForSent(1);
    await h.idle();
    const [reply] = h.graphApi.textsTo(PHONE);
    expect(reply).toContain(kind);
    expect(reply).toMatch(/text, voice notes, photos and documents/);
  });

  it("answers in Hebrew to a Hebrew user", async () => {
    await harness({ llm: "none" }, "he");
    await h.deliver(message("sticker", { sticker: { id: "s1" } }, h.clock.now()));
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(PHONE)[0]).toContain("מדבקות");
  });
});

describe("a message timestamp far in the future", () => {
  it("is treated as sent now: the reminder is relative to now, the 24-hour window and the order are not moved", async () => {
    await harness({ llm: "none", env: { FAST_PATH: "on" }, clock: fakeClock("2026-03-05T10:00:00Z") });
    const now = h.clock.now();
    const fiveYears = 5 * 365 * 24 * 3_600_000;
    const future = textMessage(PHONE, "remind me in 10 minutes to call the bank", now + fiveYears);
    await h.deliver(future);
    await h.graphApi.waitForSent(1);
    await h.idle();
    const [reply] = h.graphApi.textsTo(PHONE);
    expect(reply).toContain("call the bank");
    const tasks = await h.db.pool.query<{ next_fire_at: Date }>(
      "SELECT next_fire_at FROM tasks WHERE user_phone = $1",
      [PHONE],
    );
    expect(tasks.rows.map((r) => r.next_fire_at.getTime())).toEqual([now + 10 * 60_000]);
    expect((await h.whatsapp.inbox.get(future.id))?.sentAt.getTime()).toBe(now);
    expect((await h.memo.users.get(PHONE))?.lastInboundAt).toBe(new Date(now).toISOString());
    // Within the clock skew a timestamp is believed.
    const skewed = textMessage(PHONE, "my tasks", now + 60_000);
    await h.deliver(skewed);
    expect((await h.whatsapp.inbox.get(skewed.id))?.sentAt.getTime()).toBe(now + 60_000);
  });
});
