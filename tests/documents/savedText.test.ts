// "save it" after a forwarded message or a long pasted text (issue 37): the text is stored as a
// note (a document of its own, through DocumentService: searchable, listed, forgettable) and the same
// numbered offer follows; "1" then adds its item. A short message that was no forward is not saved.
// "Now" is Monday 1 March 2027, 10:00 in Asia/Jerusalem; no model.
import { afterEach, describe, expect, it } from "vitest";
import {
  calendarHarness,
  storedEvents,
  type CalendarHarness,
} from "../calendar/capability/calendarScript.js";
import { stores } from "../support/databaseScript.js";
import { fakeClock } from "../support/clock.js";
import { PHONE } from "../support/memoHarness.js";
import { textToSave } from "../../src/services/documents/savedText.js";
import { lastUserMessageOf, systemPromptOf } from "../support/scriptedOpenAI.js";

/** The user's stored documents (DocumentService's table). */
async function storedDocuments(harness: CalendarHarness) {
  const { rows } = await harness.db.pool.query<{
    title: string;
    source: string;
    file_name: string | null;
    text: string;
  }>(
    `SELECT d.title, d.source, d.file_name,
            (SELECT string_agg(n.content, ' ' ORDER BY n.chunk_index) FROM notes n
              WHERE n.document_id = d.id AND n.chunk_index IS NOT NULL) AS text
       FROM documents d WHERE d.user_phone = $1 ORDER BY d.created_at`,
    [PHONE],
  );
  return rows;
}

let h: CalendarHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function memo(language: "he" | "en", withModel = false) {
  h = await calendarHarness({
    ...(withModel ? {} : { llm: "none" as const }),
    env: { FAST_PATH: "on" },
    clock: fakeClock("2027-03-01T08:00:00Z"),
  });
  await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem", language });
  return h;
}

const DENTIST =
  "Dentist appointment for Noa\nTuesday 9 March 2027 at 16:40, Dr. Amir, 5 Weizmann St.\nPlease bring the referral letter.";

describe("save it", () => {
  it("English: a forwarded message saved as a note, offered, and '1' adds the appointment", async () => {
    const harness = await memo("en");
    await harness.say(DENTIST, { forwarded: true });
    const saved = await harness.say("save it");
    expect(saved.text).toBe(
      [
        "📝 Saved “Dentist appointment for Noa” as a note.",
        "",
        "📌 From “Dentist appointment for Noa” — add to your calendar or reminders:",
        "1. Dentist appointment for Noa — Dr. Amir, 5 Weizmann St, Tue 09/03 16:40",
        "Reply with the numbers, “all” or “none”.",
      ].join("\n"),
    );
    const [document] = await storedDocuments(harness);
    expect(document).toMatchObject({
      title: "Dentist appointment for Noa",
      source: "forwarded",
      file_name: null,
    });
    expect(document!.text).toContain("Weizmann St.");
    await harness.say("1");
    const events = await storedEvents(harness);
    expect(events.map((e) => [e.summary, e.start, e.end])).toEqual([
      [
        "Dentist appointment for Noa — Dr. Amir, 5 Weizmann St",
        "2027-03-09T14:40:00.000Z",
        "2027-03-09T15:40:00.000Z",
      ],
    ]);
  });

  it("Hebrew: 'תשמור את זה' after a long pasted text; 'הכל' adds the reminder", async () => {
    const harness = await memo("he");
    const pasted = [
      "עדכון מוועד הכיתה",
      "שלום לכולם, כפי שסיכמנו באסיפה האחרונה אנחנו אוספים כסף למתנה למורה לקראת סוף השנה, ויש גם כמה עדכונים על הטיול והמסיבה.",
      'יש לשלם 50 ש"ח לגזברית עד יום חמישי 18 במרץ 2027.',
      "מי שלא יכול להגיע לפגישת ההורים מתבקש לעדכן את הוועד בהקדם, ונשמח לעזרה בארגון המסיבה ובקניית הכיבוד לכל הילדים בכיתה.",
      "בנוסף, אנחנו מחפשים הורה מתנדב שיעזור בהסעות לטיול ויתאם עם הנהלת בית הספר את רשימת המלווים.",
      "תודה רבה לכולם ושבוע טוב!",
    ].join("\n");
    expect(pasted.length).toBeGreaterThan(400);
    await harness.say(pasted);
    const saved = await harness.say("תשמור את זה");
    expect(saved.text).toContain("📝 שמרתי את „עדכון מוועד הכיתה” כפתק.");
    expect(saved.text).toContain('1. ⏰ יש לשלם 50 ש"ח לגזברית, עד יום חמישי 18/03');
    expect((await storedDocuments(harness)).map((d) => [d.title, d.source])).toEqual([
      ["עדכון מוועד הכיתה", "pasted"],
    ]);
    await harness.say("הכל");
    expect((await stores(harness).tasks()).map((t) => [t.text, t.dueAt])).toEqual([
      ['יש לשלם 50 ש"ח לגזברית', "2027-03-18T07:00:00.000Z"],
    ]);
  });

  it("'undo' after 'save it' takes the note back; a second 'save it' says there is nothing to save", async () => {
    const harness = await memo("en");
    await harness.say(DENTIST, { forwarded: true });
    await harness.say("save it");
    expect((await harness.say("save it")).text).toBe(
      "There's no forwarded message or long text just before this to save.",
    );
    expect(await storedDocuments(harness)).toHaveLength(1);
    await harness.say("undo");
    expect(await storedDocuments(harness)).toEqual([]);
  });

  it("quoting a forwarded message saves it, though other messages came after it", async () => {
    const harness = await memo("en");
    await harness.say(DENTIST, { forwarded: true, whatsappMessageId: "wamid.first" });
    await harness.say("thanks");
    await harness.say("save it", { replyToMessageId: "wamid.first" });
    expect((await storedDocuments(harness)).map((d) => d.title)).toEqual(["Dentist appointment for Noa"]);
  });

  it("a long pasted request Memo carried out is no text to save; quoting a short message is nothing to save", () => {
    const long = "x ".repeat(250);
    const at = (content: string, timestamp: number, extra: object = {}) => ({
      role: "user" as const,
      content,
      timestamp,
      estimatedTokens: 1,
      ...extra,
    });
    const window = [at(long, 1000), at("save it", 2000)];
    expect(textToSave(window, "save it", { actedAfter: (t) => t <= 1500 })).toBeNull();
    expect(textToSave(window, "save it", { actedAfter: () => false })).toEqual({
      text: long,
      source: "pasted",
    });
    expect(textToSave([at("hi", 1000, { whatsappMessageId: "w1" })], "save it", { quoted: "w1" })).toBe(
      "nothing",
    );
  });

  it("a short message that was not forwarded is not saved: 'save it' is read as ever", async () => {
    const harness = await memo("en");
    await harness.say("hello there");
    await harness.say("save it");
    expect(await storedDocuments(harness)).toEqual([]);
  });

  it("with a model: its titles and pairing, its words read in code, its call counted in the turn", async () => {
    const harness = await memo("en", true);
    await harness.memory.load(PHONE);
    await harness.memory.addUserMessage(PHONE, DENTIST, { metadata: { forwarded: true } });
    harness.server!.enqueue({
      json: {
        items: [
          {
            kind: "event",
            title: "Noa's dentist (Dr. Amir)",
            timeWords: "Tuesday 9 March 2027 at 16:40",
            endTimeWords: null,
            sentence: "Tuesday 9 March 2027 at 16:40, Dr. Amir, 5 Weizmann St.",
          },
        ],
      },
    });
    const saved = await harness.say("save it");
    expect(saved.text).toContain("1. Noa's dentist (Dr. Amir), Tue 09/03 16:40");
    const [call] = harness.server!.requests;
    expect(systemPromptOf(call!)).toContain("DATA written by someone else");
    expect(lastUserMessageOf(call!)).toContain("Dentist appointment for Noa");
    const turn = harness.logs().find((l) => l.event === "turn");
    expect(turn?.llmCalls).toBe(1);
    await harness.say("1");
    expect((await storedEvents(harness)).map((e) => [e.summary, e.start])).toEqual([
      ["Noa's dentist (Dr. Amir)", "2027-03-09T14:40:00.000Z"],
    ]);
  });
});
