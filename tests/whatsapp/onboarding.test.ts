// First contact and time zones, through WhatsApp.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isPlanner } from "../support/memoHarness.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  createWhatsAppHarness,
  echoLLM,
  PHONE_NUMBER_ID,
  textMessage,
  waId,
  type WhatsAppHarness,
} from "../support/whatsappHarness.js";

const ISRAELI = "972501110001";
const AMERICAN = "12125550123";

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

type Interactive = {
  type: string;
  body: { text: string };
  action: { button?: string; sections?: { rows: { id: string; title: string }[] }[] };
};

function listReply(phone: string, row: { id: string; title: string }, at: number, context: string) {
  return {
    from: phone,
    id: waId(),
    timestamp: String(Math.floor(at / 1000)),
    type: "interactive",
    interactive: { type: "list_reply", list_reply: row },
    context: { from: "x", id: context },
  };
}

describe("a phone seen for the first time", () => {
  it("becomes a Hebrew-speaking user in Asia/Jerusalem, welcomed in Hebrew; a greeting needs nothing more", async () => {
    h = await createWhatsAppHarness({ llm: server });
    await h.deliver({ ...textMessage(ISRAELI, "שלום", h.clock.now()) });
    await h.graphApi.waitForSent(1);
    await h.idle();
    const texts = h.graphApi.textsTo(ISRAELI);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain("אני Memo");
    expect(texts[0]).toContain("הנה מה שאני יכול לעשות בשבילך");
    expect(server.requests).toHaveLength(0);
    expect(await h.memo.users.get(ISRAELI)).toMatchObject({
      timeZone: "Asia/Jerusalem",
      language: "he",
      calendarSchedule: null,
      sabbathQuiet: false,
      sabbathCity: null,
      hebrewBirthday: null,
      weeklyReviewEnabled: false,
      weeklyReviewDay: null,
      weeklyReviewTime: null,
      voiceReplies: false,
      timeZoneChoices: null,
    });
  });

  it("keeps the WhatsApp profile name", async () => {
    h = await createWhatsAppHarness({ llm: server });
    const res = await h.post({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "W",
          changes: [
            {
              field: "messages",
              value: {
                metadata: { display_phone_number: "15550001111", phone_number_id: PHONE_NUMBER_ID },
                contacts: [{ wa_id: ISRAELI, profile: { name: "Dana" } }],
                messages: [textMessage(ISRAELI, "hi", h.clock.now())],
              },
            },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    await h.graphApi.waitForSent(1);
    expect((await h.memo.users.get(ISRAELI))?.displayName).toBe("Dana");
  });

  it("with a request as the first message: the welcome, then the answer", async () => {
    echoLLM(server);
    h = await createWhatsAppHarness({ llm: server });
    await h.deliver(textMessage(ISRAELI, "remind me to call mom", h.clock.now()));
    await h.graphApi.waitForSent(2);
    await h.idle();
    const texts = h.graphApi.textsTo(ISRAELI);
    expect(texts[0]).toMatch(/I'm Memo/);
    expect(texts[1]).toBe("echo: remind me to call mom");
    expect((await h.memo.users.get(ISRAELI))?.language).toBe("en");
  });

  it("from a country with several zones: asked once, with a list; a tap sets the zone", async () => {
    h = await createWhatsAppHarness({ llm: server });
    await h.deliver(textMessage(AMERICAN, "hello", h.clock.now()));
    const [welcome, question] = await h.graphApi.waitForSent(2);
    await h.idle();
    expect(h.graphApi.textsTo(AMERICAN)[0]).toMatch(/I'm Memo/);
    expect(welcome!.type).toBe("text");
    const list = question!.body.interactive as Interactive;
    expect(list.type).toBe("list");
    expect(list.body.text).toMatch(/time zone/i);
    const rows = list.action.sections!.flatMap((s) => s.rows);
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.length).toBeLessThanOrEqual(10);
    expect(rows.every((r) => r.id.startsWith("tz:"))).toBe(true);
    // The best guess holds until the user answers.
    expect(await h.memo.users.get(AMERICAN)).toMatchObject({ timeZone: "America/New_York" });

    const chicago = rows.find((r) => r.id === "tz:America/Chicago")!;
    await h.deliver(listReply(AMERICAN, chicago, h.clock.now() + 5000, question!.id));
    await h.graphApi.waitForSent(3);
    expect(h.graphApi.textsTo(AMERICAN)[2]).toMatch(/time zone is now Chicago/);
    expect(await h.memo.users.get(AMERICAN)).toMatchObject({
      timeZone: "America/Chicago",
      calendarSchedule: null,
      sabbathQuiet: false,
      sabbathCity: null,
      hebrewBirthday: null,
      weeklyReviewEnabled: false,
      weeklyReviewDay: null,
      weeklyReviewTime: null,
      voiceReplies: false,
      timeZoneChoices: null,
    });
    expect(server.requests).toHaveLength(0);
  });

  it("answering the question with a number works too", async () => {
    h = await createWhatsAppHarness({ llm: server });
    await h.deliver(textMessage(AMERICAN, "hi", h.clock.now()));
    const [, question] = await h.graphApi.waitForSent(2);
    await h.idle();
    const rows = (question!.body.interactive as Interactive).action.sections!.flatMap((s) => s.rows);
    await h.deliver(textMessage(AMERICAN, "2", h.clock.now() + 5000));
    await h.graphApi.waitForSent(3);
    expect((await h.memo.users.get(AMERICAN))?.timeZone).toBe(rows[1]!.id.slice(3));
  });

  it("is asked only once: another message goes on as usual, keeping the guess", async () => {
    echoLLM(server);
    h = await createWhatsAppHarness({ llm: server });
    await h.deliver(textMessage(AMERICAN, "hi", h.clock.now()));
    await h.graphApi.waitForSent(2);
    await h.idle();
    await h.deliver(textMessage(AMERICAN, "what's the capital of France?", h.clock.now() + 5000));
    await h.graphApi.waitForSent(3);
    await h.idle();
    expect(h.graphApi.textsTo(AMERICAN)[2]).toBe("echo: what's the capital of France?");
    expect(await h.memo.users.get(AMERICAN)).toMatchObject({
      timeZone: "America/New_York",
      calendarSchedule: null,
      sabbathQuiet: false,
      sabbathCity: null,
      hebrewBirthday: null,
      weeklyReviewEnabled: false,
      weeklyReviewDay: null,
      weeklyReviewTime: null,
      voiceReplies: false,
      timeZoneChoices: null,
    });
    // "2" later is not taken as an answer to the closed question.
    await h.deliver(textMessage(AMERICAN, "2", h.clock.now() + 10_000));
    await h.graphApi.waitForSent(4);
    expect((await h.memo.users.get(AMERICAN))?.timeZone).toBe("America/New_York");
  });
});

describe("changing the time zone at any time", () => {
  async function known(language: "he" | "en") {
    h = await createWhatsAppHarness({ llm: server });
    await h.knownUser(ISRAELI, language);
  }

  it("in English, to a city", async () => {
    await known("en");
    await h.deliver(textMessage(ISRAELI, "Change my time zone to London", h.clock.now()));
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(ISRAELI)[0]).toMatch(/your time zone is now London/);
    expect((await h.memo.users.get(ISRAELI))?.timeZone).toBe("Europe/London");
    expect(server.requests.filter(isPlanner)).toHaveLength(0);
  });

  it("in Hebrew, to a city with the prefix ל", async () => {
    await known("he");
    await h.deliver(textMessage(ISRAELI, "שנה אזור זמן לניו יורק", h.clock.now()));
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(ISRAELI)[0]).toMatch(/אזור הזמן שלך הוא עכשיו/);
    expect((await h.memo.users.get(ISRAELI))?.timeZone).toBe("America/New_York");
  });

  it("to a place with several zones: a list to choose from", async () => {
    await known("en");
    await h.deliver(textMessage(ISRAELI, "set my timezone to Australia", h.clock.now()));
    const [question] = await h.graphApi.waitForSent(1);
    await h.idle();
    const rows = (question!.body.interactive as Interactive).action.sections!.flatMap((s) => s.rows);
    const perth = rows.find((r) => r.id === "tz:Australia/Perth")!;
    await h.deliver(listReply(ISRAELI, perth, h.clock.now() + 1000, question!.id));
    await h.graphApi.waitForSent(2);
    expect((await h.memo.users.get(ISRAELI))?.timeZone).toBe("Australia/Perth");
  });

  it("an unknown place is said so, and nothing changes", async () => {
    await known("en");
    await h.deliver(textMessage(ISRAELI, "change my time zone to Narnia", h.clock.now()));
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(ISRAELI)[0]).toMatch(/I don't know the place "Narnia"/);
    expect((await h.memo.users.get(ISRAELI))?.timeZone).toBe("Asia/Jerusalem");
  });

  it("asking for it tells the zone and its local time", async () => {
    await known("he");
    await h.deliver(textMessage(ISRAELI, "מה אזור הזמן שלי?", h.clock.now()));
    await h.graphApi.waitForSent(1);
    expect(h.graphApi.textsTo(ISRAELI)[0]).toMatch(/אזור הזמן שלך הוא .*ירושלים/);
  });
});
