// Invisible format characters inside inbound words (a zero-width joiner or space pasted from a web
// page): dropped where time words are read, so "Christ\u200dmas" is read as it looks; an emoji
// sequence keeps its joiners; a message with nothing visible is ignored.
import { afterEach, describe, expect, it } from "vitest";
import { withoutInvisibleCharacters } from "../../src/utils/invisibleText.js";
import { readTime } from "../../src/nlu/parseTime.js";
import { fakeClock } from "../support/clock.js";
import { createWhatsAppHarness, textMessage, type WhatsAppHarness } from "../support/whatsappHarness.js";

const PHONE = "972501110001";
const FAMILY = "👨\u200d👩\u200d👧";

let h: WhatsAppHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Sends one text through the webhook and returns Memo's reply to it. */
async function say(hh: WhatsAppHarness, body: string): Promise<string> {
  const before = hh.graphApi.textsTo(PHONE).length;
  await hh.deliver(textMessage(PHONE, body, hh.clock.now()));
  await hh.graphApi.waitForSent(before + 1);
  await hh.idle();
  return hh.graphApi.textsTo(PHONE).at(-1)!;
}

const tasks = async (hh: WhatsAppHarness) =>
  (
    await hh.db.pool.query<{ text: string; next_fire_at: Date | null }>(
      "SELECT text, next_fire_at FROM tasks WHERE user_phone = $1 ORDER BY created_at",
      [PHONE],
    )
  ).rows.map((r) => [r.text, r.next_fire_at?.toISOString() ?? null]);

describe("invisible characters in an inbound message", () => {
  it("reads Christ\u200dmas as the word it looks like", async () => {
    h = await createWhatsAppHarness({
      llm: "none",
      env: { FAST_PATH: "on" },
      clock: fakeClock("2026-03-05T10:00:00Z"),
    });
    await h.knownUser(PHONE);
    const christmas = await say(h, "remind me on Christ\u200dmas at 6 pm to call grandma");
    expect(christmas).toContain("call grandma");
    expect(christmas).not.toContain("Christ");
    // 18:00 on 25 December in Jerusalem is 16:00 UTC.
    expect(await tasks(h)).toEqual([["call grandma", "2026-12-25T16:00:00.000Z"]]);
  });

  it("keeps an emoji sequence's joiners, and a message of invisible characters only is ignored like an empty one", async () => {
    h = await createWhatsAppHarness({
      llm: "none",
      env: { FAST_PATH: "on" },
      clock: fakeClock("2026-03-05T10:00:00Z"),
    });
    await h.knownUser(PHONE);
    const added = await say(h, `add task buy a ${FAMILY} gift`);
    expect(added).toContain(FAMILY);
    expect(await tasks(h)).toEqual([[`buy a ${FAMILY} gift`, null]]);

    const sent = h.graphApi.textsTo(PHONE).length;
    await h.deliver(textMessage(PHONE, "\u200b\u200d\ufeff", h.clock.now()));
    await h.idle();
    expect(h.graphApi.textsTo(PHONE)).toHaveLength(sent);
  });
});

describe("withoutInvisibleCharacters and the time parser", () => {
  it("drops every invisible format character but a joiner inside an emoji sequence", () => {
    expect(
      withoutInvisibleCharacters("a\u200bb\u200cc\u200dd\u200ee\u2060f\ufeffg\u202ah\u2066i\u00adj"),
    ).toBe("abcdefghij");
    expect(withoutInvisibleCharacters(`${FAMILY} ❤️\u200d🔥 👩🏽\u200d💻`)).toBe(
      `${FAMILY} ❤️\u200d🔥 👩🏽\u200d💻`,
    );
    expect(withoutInvisibleCharacters("a\u200d👩")).toBe("a👩");
  });

  it("reads time words with invisible characters inside them (words handed over by a model)", () => {
    const now = Date.parse("2026-03-05T10:00:00Z");
    const reading = readTime("on Christ\u200dmas at 6\u200b pm", now, "Asia/Jerusalem");
    expect(reading).toMatchObject({ kind: "instant", local: "2026-12-25T18:00" });
  });
});
