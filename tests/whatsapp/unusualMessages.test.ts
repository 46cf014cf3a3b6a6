// Messages off the common path: a new user whose first message is a voice note or a request that needs
// the time-zone question first, a file over the size limit, an interactive message of an unknown kind.
import { describe, expect, it } from "vitest";
import type { Transcriber } from "../../src/services/media/transcriber.js";
import { backends } from "../support/db.js";
import { scriptedHarnesses, echoLLM, textMessage, waId } from "../support/whatsappHarness.js";

const ALICE = "972501110001";
const AMERICAN = "12125550123";

const { server, harness } = scriptedHarnesses();

describe.each(backends)("messages off the common path on $name", (backend) => {
  it("a new user's first voice note is welcomed and then handled, not dropped", async () => {
    echoLLM(server());
    const calls: string[] = [];
    const transcriber: Transcriber = {
      transcribe: () => {
        calls.push("called");
        return Promise.resolve("remind me to water the plants");
      },
    };
    const h = await harness({ db: await backend.create(), transcriber });
    h.graphApi.addMedia("first-voice", Buffer.from("OggS"), "audio/ogg");
    await h.deliver({
      from: ALICE,
      id: waId(),
      timestamp: String(Math.floor(h.clock.now() / 1000)),
      type: "audio",
      audio: { id: "first-voice", mime_type: "audio/ogg", voice: true },
    });
    // The file's first turn also loads what every later turn finds ready: give it time on a busy machine.
    await h.graphApi.waitForSent(2, 10_000);
    await h.idle();
    expect(calls).toHaveLength(1);
    const texts = h.graphApi.textsTo(ALICE);
    expect(texts[0]).toContain("Memo");
    expect(texts.at(-1)).toBe("echo: remind me to water the plants");
  });

  it("a multi-zone first message that is a request keeps the zone question open for the next message", async () => {
    echoLLM(server());
    const h = await harness({ db: await backend.create() });
    await h.deliver(textMessage(AMERICAN, "remind me to call mom tomorrow", h.clock.now()));
    // Welcome, the zone question, the answer.
    await h.graphApi.waitForSent(3);
    await h.idle();
    await h.deliver(textMessage(AMERICAN, "2", h.clock.now() + 5000));
    await h.graphApi.waitForSent(4);
    await h.idle();
    expect(h.graphApi.textsTo(AMERICAN)[3]).toMatch(/your time zone is now/);
    expect((await h.memo.users.get(AMERICAN))?.timeZone).not.toBe("America/New_York");
  });

  it("a file over the size limit is answered with what to do, not retried", async () => {
    const transcriber: Transcriber = { transcribe: () => Promise.resolve("never") };
    const h = await harness({ db: await backend.create(), transcriber });
    await h.knownUser(ALICE);
    h.graphApi.addMedia("huge", Buffer.alloc(10), "audio/ogg", { fileSize: 17 * 1024 * 1024 });
    const message = {
      from: ALICE,
      id: waId(),
      timestamp: String(Math.floor(h.clock.now() / 1000)),
      type: "audio",
      audio: { id: "huge", mime_type: "audio/ogg", voice: true },
    };
    await h.deliver(message);
    await h.graphApi.waitForSent(1);
    await h.idle();
    expect(h.graphApi.textsTo(ALICE)).toEqual([
      "That file is too big for me (over 16 MB). Could you send a smaller one?",
    ]);
    expect(await h.whatsapp.inbox.get(message.id)).toMatchObject({ status: "done", attempts: 1 });
  });

  it("an interactive message that is not a button or list reply gets the polite reply", async () => {
    const h = await harness({ db: await backend.create() });
    await h.knownUser(ALICE);
    await h.deliver({
      from: ALICE,
      id: waId(),
      timestamp: String(Math.floor(h.clock.now() / 1000)),
      type: "interactive",
      interactive: { type: "nfm_reply", nfm_reply: { response_json: "{}" } },
    });
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(ALICE)[0]).toMatch(/text, voice notes, photos and documents/);
  });
});
