// "undo" after other messages (issue 31): when the user said something since their last change, Memo
// names that change and asks before taking it back, through the HITL gate (Yes/No buttons, a typed
// answer, across a restart); right after the change it undoes at once. Deleting a list by name works
// without a model, asks first, and undo brings the list back with its items. A refused command never
// takes the undo slot. English and Hebrew, with no model.
import { describe, expect, it } from "vitest";
import { createHarness, PHONE, type Harness } from "../support/memoHarness.js";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { buttonsOfLast, say, tap } from "../household/talk.js";
import { stores } from "../support/databaseScript.js";
import { t } from "../../src/messages/index.js";

const HINT = "Reply *undo* to bring it back.";
const HINT_HE = "ענו *בטל* כדי להחזיר.";

/** The harness the running test talks to (closed, its database emptied, after each test). */
let current: Harness | SchedulerHarness | undefined;
const shared = sharedDatabase(() => current);

async function noLLM(options: Parameters<typeof createHarness>[0] = {}): Promise<Harness> {
  const h = await createHarness({ llm: "none", env: { FAST_PATH: "on" }, db: shared.db, ...options });
  current = h;
  return h;
}

/** The lists and items of the test user, as stored (ids, ticks, order). */
async function rows(h: Harness) {
  const lists = await h.db.pool.query("SELECT id, name FROM lists ORDER BY seq");
  const items = await h.db.pool.query(
    "SELECT id, list_id, text, checked, position FROM list_items ORDER BY position",
  );
  return { lists: lists.rows, items: items.rows };
}

describe("undo after other messages asks first", () => {
  it("names the list made two messages ago; No keeps it, Yes takes it back (buttons, through the webhook)", async () => {
    const h = await createSchedulerHarness({ db: shared.db });
    current = h;
    await h.user(PHONE);
    await say(h, PHONE, "add tent, stove, lamp to camping list");
    h.clock.advance(60_000);
    expect(await say(h, PHONE, "shuffle the shopping list")).toEqual([t("en", "noLLM")]);
    h.clock.advance(60_000);
    expect(await say(h, PHONE, "undo")).toEqual([
      "Your last change was creating the list “camping” (3 items), 2 messages ago. Undo it?",
    ]);
    expect(buttonsOfLast(h, PHONE)).toEqual(["yes", "no"]);
    expect(await tap(h, PHONE, "no", "No")).toEqual([t("en", "cancelled")]);
    const { rows: kept } = await h.db.pool.query<{ text: string }>(
      "SELECT text FROM list_items ORDER BY position",
    );
    expect(kept.map((r) => r.text)).toEqual(["tent", "stove", "lamp"]);

    h.clock.advance(60_000);
    expect((await say(h, PHONE, "undo"))[0]).toMatch(
      /^Your last change was creating the list “camping” \(3 items\), \d+ messages ago\. Undo it\?$/,
    );
    expect(await tap(h, PHONE, "yes", "Yes")).toEqual(["↩️ Removed the list “camping” you added."]);
    expect((await h.db.pool.query("SELECT 1 FROM lists")).rows).toEqual([]);
    expect((await h.db.pool.query("SELECT 1 FROM list_items")).rows).toEqual([]);
  });

  it("Hebrew: 'בטל' after a message not understood asks; the question survives a restart and 'כן' takes the list back", async () => {
    let m = await noLLM();
    await m.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem", language: "he" });
    await m.say("תוסיף אוהל, גזייה, פנס לרשימת קמפינג");
    m.clock.advance(60_000);
    expect((await m.say("תערבב לי את רשימת קניות")).text).toBe(t("he", "noLLM"));
    m.clock.advance(60_000);
    const asked = await m.say("בטל");
    expect(asked.status).toBe("waiting");
    expect(asked.text).toBe(
      "השינוי האחרון שלך היה יצירת הרשימה „קמפינג” (3 פריטים), לפני 2 הודעות. לבטל אותו?",
    );
    expect((await rows(m)).items).toHaveLength(3);

    // A new runtime on the same database: the question is still open, and its answer resumes it.
    const { clock } = m;
    await m.close(false);
    m = await noLLM({ clock });
    m.clock.advance(60_000);
    expect((await m.say("כן")).text).toBe("↩️ הסרתי את הרשימה „קמפינג” שהוספת.");
    expect(await rows(m)).toEqual({ lists: [], items: [] });
  });

  it("right after the change, with nothing said between, undo takes it back at once", async () => {
    const m = await noLLM();
    await m.say("add tent, stove to camping list");
    m.clock.advance(60_000);
    expect((await m.say("undo")).text).toBe("↩️ Removed the list “camping” you added.");
  });

  it("a refused command took no undo slot: undo names the deletion before it, asks, and brings it back", async () => {
    const m = await noLLM();
    await m.say("remind me tomorrow at 9am to call mom");
    const before = await stores(m).tasks();
    m.clock.advance(60_000);
    expect((await m.say("delete the reminder call mom")).text).toBe(`🗑️ Deleted: *call mom*\n${HINT}`);
    m.clock.advance(60_000);
    // Refused: there is no such task, nothing changed.
    expect((await m.say("delete task water the plants")).text).toContain("water the plants");
    m.clock.advance(60_000);
    expect((await m.say("undo")).text).toBe(
      "Your last change was deleting the task “call mom”, 2 messages ago. Undo it?",
    );
    expect((await m.say("yes")).text).toBe("↩️ Undone — back as it was: the task “call mom”.");
    expect(await stores(m).tasks()).toEqual(before);
  });
});

describe("a setting that changes nothing takes no undo slot", () => {
  it("'quiet hours off' with none set, between a deletion and 'undo': undo still reaches the deletion (English and Hebrew)", async () => {
    const h = await createSchedulerHarness({ db: shared.db });
    current = h;
    await h.user(PHONE);
    await say(h, PHONE, "remind me tomorrow at 9am to call mom");
    const before = await h.tasks.list(PHONE);
    h.clock.advance(60_000);
    await say(h, PHONE, "delete the reminder call mom");
    h.clock.advance(60_000);
    expect(await say(h, PHONE, "quiet hours off")).toEqual([t("en", "quiet.off")]);
    h.clock.advance(60_000);
    const asked = await say(h, PHONE, "undo");
    expect(asked[0]).toMatch(
      /^Your last change was deleting the task “call mom”, \d messages ago\. Undo it\?$/,
    );
    expect(await tap(h, PHONE, "yes", "Yes")).toEqual(["↩️ Undone — back as it was: the task “call mom”."]);
    expect(await h.tasks.list(PHONE)).toEqual(before);

    // A setting that does change something is still said to be beyond undo.
    h.clock.advance(60_000);
    await say(h, PHONE, "quiet hours 22:00-07:00");
    expect((await say(h, PHONE, "undo"))[0]).toContain("I can't undo a settings change");
    // Quiet hours set again as they are: no change, so "בטל" reaches the reminder made before it.
    await h.memo.users.update(PHONE, { language: "he" });
    h.clock.advance(60_000);
    await say(h, PHONE, "תזכיר לי מחר ב-9 להתקשר לבנק");
    h.clock.advance(60_000);
    await say(h, PHONE, "שעות שקט 22:00-07:00");
    h.clock.advance(60_000);
    expect((await say(h, PHONE, "בטל"))[0]).toMatch(
      /^השינוי האחרון שלך היה יצירת המשימה „להתקשר לבנק”, לפני \d הודעות\. לבטל אותו\?$/,
    );
  });
});

describe("deleting a list by name, without a model", () => {
  it("asks first, deletes, and undo brings the list back with its items, ids and ticks", async () => {
    const m = await noLLM();
    await m.say("add tent, stove, lamp to camping list");
    await m.say("show camping list");
    await m.say("done 2");
    const before = await rows(m);
    m.clock.advance(60_000);
    const asked = await m.say("delete the camping list");
    expect(asked.status).toBe("waiting");
    expect(asked.text).toBe("Delete the list *camping* with its 3 items?");
    m.clock.advance(60_000);
    expect((await m.say("no")).text).toBe(t("en", "cancelled"));
    expect(await rows(m)).toEqual(before);

    m.clock.advance(60_000);
    expect((await m.say("delete list camping")).status).toBe("waiting");
    m.clock.advance(60_000);
    expect((await m.say("yes")).text).toBe(`🗑️ Deleted the list *camping*\n${HINT}`);
    expect(await rows(m)).toEqual({ lists: [], items: [] });
    m.clock.advance(60_000);
    // The "yes" was the deletion's own answer: nothing came between, so undo acts at once.
    expect((await m.say("undo")).text).toBe("↩️ Undone — back as it was: the list “camping”.");
    expect(await rows(m)).toEqual(before);
  });

  it("Hebrew: 'תמחק את רשימת קמפינג' asks, 'כן' deletes, 'בטל' brings it back", async () => {
    const m = await noLLM();
    await m.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem", language: "he" });
    await m.say("תוסיף אוהל, גזייה לרשימת קמפינג");
    const before = await rows(m);
    m.clock.advance(60_000);
    const asked = await m.say("תמחק את רשימת קמפינג");
    expect(asked.text).toBe("למחוק את הרשימה *קמפינג* עם 2 הפריטים שבה?");
    m.clock.advance(60_000);
    expect((await m.say("כן")).text).toBe(`🗑️ מחקתי את הרשימה *קמפינג*\n${HINT_HE}`);
    expect(await rows(m)).toEqual({ lists: [], items: [] });
    m.clock.advance(60_000);
    expect((await m.say("בטל")).text).toBe("↩️ בוטל — חזר למצב הקודם: הרשימה „קמפינג”.");
    expect(await rows(m)).toEqual(before);
  });
});
