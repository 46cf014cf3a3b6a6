// Households (issue 23), what they share: a list both members change ("milk — Dana"), the batched
// notice of the other's additions (off by default, never in quiet hours), a reminder for another
// member that rings in her zone "from Yossi" and tells the giver when it is done or still open an
// hour later, tasks given to a member and "our tasks", refusing reminders from a member, leaving
// with "keep a copy", and the erasure of a member. English and Hebrew, through the webhook, with
// the scheduler's passes on a fake clock.
import { describe, expect, it } from "vitest";
import { t } from "../../src/messages/index.js";
import { eraseUserData } from "../../src/db/repositories/userDataRepository.js";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { buttonsOfLast, DANA, received, RINA, say, tap, YOSSI } from "./talk.js";

const MINUTE = 60_000;

let h: SchedulerHarness | undefined;
const shared = sharedDatabase(() => h);

/** Yossi and Dana (and Rina when asked) in one household, each a user inside the 24-hour window. */
async function household(
  options: { language?: "he" | "en"; danaZone?: string; rina?: boolean } = {},
): Promise<SchedulerHarness> {
  h = await createSchedulerHarness({ db: shared.db });
  const language = options.language ?? "en";
  await h.user(YOSSI, { language });
  // The name WhatsApp gives the one who starts the household is the name it knows him by.
  await h.memo.users.update(YOSSI, { displayName: language === "he" ? "יוסי" : "Yossi" });
  await h.user(DANA, { language, timeZone: options.danaZone ?? "Asia/Jerusalem" });
  const invite =
    language === "he" ? "תוסיף את דנה 050-1234567 למשק הבית" : "add Dana 050-1234567 to my household";
  await say(h, YOSSI, invite);
  await say(h, DANA, language === "he" ? "מאשרת" : "accept");
  if (options.rina) {
    await h.user(RINA, { language });
    await say(
      h,
      YOSSI,
      language === "he" ? "תוסיף את רינה 054-1112223 למשק הבית" : "add Rina 054-1112223 to my household",
    );
    await say(h, RINA, language === "he" ? "מאשרת" : "accept");
  }
  return h;
}

describe("a shared list", () => {
  it("both change it, replies say who added what, only its owner renames or deletes it", async () => {
    const h = await household();
    await say(h, YOSSI, "create shopping list");
    await say(h, YOSSI, "add milk, eggs to shopping list");
    // Not shared yet: Dana sees nothing of it.
    expect((await say(h, DANA, "my lists")).join("\n")).not.toContain("shopping");

    const sharing = await received(h, DANA, () => say(h, YOSSI, "share the shopping list with Dana"));
    expect(h.sentTo(YOSSI).at(-1)).toContain("*shopping* is now shared with your household (Dana)");
    expect(sharing).toEqual([expect.stringContaining("Yossi")]);
    expect(sharing[0]).toContain("shared the list *shopping* with the household");

    // His list is not hers to make again: said whose it is.
    expect(await say(h, DANA, "create shopping list")).toEqual([
      '*shopping* is Yossi\'s list, shared with you. To add to it: "add milk to shopping list".',
    ]);
    const added = await say(h, DANA, "add bread to shopping list");
    expect(added[0]).toContain("*shopping* (Yossi's, shared)");
    expect(added[0]).toContain("1. ☐ milk — Yossi\n2. ☐ eggs — Yossi\n3. ☐ bread");
    expect((await say(h, YOSSI, "show shopping list"))[0]).toContain(
      "*shopping* (shared with your household)\n1. ☐ milk\n2. ☐ eggs\n3. ☐ bread — Dana",
    );
    // Dana's change to Yossi's list is hers to undo (issue 31), like a change to her own.
    expect(await say(h, DANA, "undo")).toEqual(["↩️ Removed the item “bread” you added."]);
    expect((await say(h, YOSSI, "show shopping list"))[0]).not.toContain("bread");
    await say(h, DANA, "add bread to shopping list");
    expect((await say(h, YOSSI, "show shopping list"))[0]).toContain("bread — Dana");
    expect((await say(h, YOSSI, "my lists")).join("\n")).toContain(
      "shopping (3 items) (shared with your household)",
    );

    expect(await say(h, YOSSI, "stop sharing the shopping list")).toEqual([
      "*shopping* is no longer shared; it's yours alone again.",
    ]);
    expect((await say(h, DANA, "show shopping list")).join("\n")).not.toContain("milk");
  });

  it("two lists of one name, hers and his shared one: Memo asks which, saying whose", async () => {
    const h = await household();
    await say(h, DANA, "create shopping list");
    await say(h, YOSSI, "create a groceries list for the household");
    await say(h, YOSSI, "add milk to groceries list");
    await h.db.pool.query("UPDATE lists SET name = 'shopping' WHERE name = 'groceries'");
    await say(h, DANA, "add bread to shopping list");
    const question = h.graphApi.sent.filter((m) => m.to.replace(/\D/g, "") === DANA).at(-1)!;
    expect(JSON.stringify(question.body)).toContain('"title":"shopping — Yossi"');
    expect(await h.tasks.list(YOSSI)).toEqual([]);
  });

  it("in Hebrew: a list made for the household, both add to it", async () => {
    const h = await household({ language: "he" });
    const made = await received(h, DANA, () => say(h, YOSSI, "תיצור רשימת קניות למשק הבית"));
    expect(h.sentTo(YOSSI).at(-1)).toContain("יצרתי את הרשימה *קניות*, משותפת עם משק הבית (דנה)");
    expect(made[0]).toContain("שיתף/ה את הרשימה *קניות*");
    await say(h, YOSSI, "תוסיף חלב לרשימת קניות");
    const added = await say(h, DANA, "תוסיף ביצים לרשימת קניות");
    expect(added[0]).toContain("*קניות* (של יוסי, משותפת)");
    expect(added[0]).toContain("☐ חלב — יוסי");
    expect((await say(h, YOSSI, "תראה לי את רשימת קניות"))[0]).toContain("☐ ביצים — דנה");
  });

  it("the batched notice of the other's additions: off by default, gathered, held through quiet hours", async () => {
    const h = await household();
    await say(h, YOSSI, "create a shopping list for the household");
    await say(h, DANA, "add milk to shopping list");
    h.clock.advance(20 * MINUTE);
    expect(await received(h, YOSSI, () => h.pass())).toEqual([]);

    expect(await say(h, YOSSI, "turn on list notices")).toEqual([
      expect.stringContaining("I'll send you a short summary when others add to shared lists"),
    ]);
    await say(h, DANA, "add eggs, bread to shopping list");
    h.clock.advance(5 * MINUTE);
    await say(h, DANA, "add butter to shopping list");
    // Within the batch: nothing yet.
    expect(await received(h, YOSSI, () => h.pass())).toEqual([]);
    h.clock.advance(11 * MINUTE);
    expect(await received(h, YOSSI, () => h.pass())).toEqual([
      "🛒 Shared lists:\n• Dana added 3 items to *shopping*",
    ]);
    // His own additions are not told to him.
    await say(h, YOSSI, "add jam to shopping list");
    h.clock.advance(16 * MINUTE);
    expect(await received(h, YOSSI, () => h.pass())).toEqual([]);

    // Quiet hours (it is 09:xx in Jerusalem): held until they end.
    await say(h, YOSSI, "quiet hours 08:00-12:00");
    await say(h, DANA, "add tea to shopping list");
    h.clock.advance(16 * MINUTE);
    expect(await received(h, YOSSI, () => h.pass())).toEqual([]);
    await say(h, DANA, "add coffee to shopping list");
    h.clock.advance(40 * MINUTE);
    expect(await received(h, YOSSI, () => h.pass())).toEqual([]);
    // One notice when they end, with everything gathered meanwhile.
    h.at("2026-03-02T10:00:30Z");
    expect(await received(h, YOSSI, () => h.pass())).toEqual([
      "🛒 Shared lists:\n• Dana added 2 items to *shopping*",
    ]);
    expect(await say(h, YOSSI, "turn off list notices")).toEqual(["🔕 No more notices about shared lists."]);
  });
});

describe("a reminder for another member", () => {
  it("rings at 17:00 her time, 'from Yossi', Done tells him; one left open is told once, an hour after", async () => {
    const h = await household({ danaZone: "Europe/London" });
    const reply = await say(h, YOSSI, "remind Dana at 17:00 to pick up the kids");
    expect(reply).toEqual([
      "⏰ I'll remind Dana today at 17:00 (Dana's time): “pick up the kids”. I'll tell you when it's done.\nThat's today at 19:00 for you.",
    ]);
    // It is Dana's: in her tasks, not in Yossi's.
    expect((await say(h, DANA, "my tasks")).join("\n")).toContain("pick up the kids");
    expect((await say(h, YOSSI, "my tasks")).join("\n")).not.toContain("pick up the kids");
    expect((await say(h, YOSSI, "our tasks"))[0]).toBe(
      "🏠 Our tasks:\n• pick up the kids — Dana, today at 19:00",
    );

    h.at("2026-03-02T16:59:00Z");
    expect(await received(h, DANA, () => h.pass())).toEqual([]);
    h.at("2026-03-02T17:00:00Z");
    expect(await received(h, DANA, () => h.pass())).toEqual(["⏰ Reminder from Yossi:\n> pick up the kids"]);
    const [done] = buttonsOfLast(h, DANA);
    expect(done).toMatch(/^rem:done:/);
    expect(await tap(h, DANA, done!, "Done ✅")).toEqual(["✅ Done: pick up the kids"]);
    expect(await received(h, YOSSI, () => h.pass())).toEqual(["✅ Dana marked “pick up the kids” done."]);
    expect(await received(h, YOSSI, () => h.pass())).toEqual([]);
    expect(await say(h, YOSSI, "our tasks")).toEqual([expect.stringContaining("No shared tasks are open")]);

    // Another one, left open: told once, an hour after it rang; then Done still tells.
    await say(h, YOSSI, "remind Dana at 18:00 to call grandma");
    h.at("2026-03-02T18:00:00Z");
    expect(await received(h, DANA, () => h.pass())).toEqual(["⏰ Reminder from Yossi:\n> call grandma"]);
    h.at("2026-03-02T18:59:00Z");
    expect(await received(h, YOSSI, () => h.pass())).toEqual([]);
    h.at("2026-03-02T19:00:30Z");
    expect(await received(h, YOSSI, () => h.pass())).toEqual([
      "⏳ Dana hasn't marked “call grandma” done yet (the reminder went today at 20:00).",
    ]);
    h.at("2026-03-02T20:30:00Z");
    expect(await received(h, YOSSI, () => h.pass())).toEqual([]);
    expect(await say(h, DANA, "done call grandma")).toEqual([expect.stringContaining("call grandma")]);
    expect(await received(h, YOSSI, () => h.pass())).toEqual(["✅ Dana marked “call grandma” done."]);
  });

  it("in Hebrew, with a task given by 'משימה לדנה: …', 'המשימות שלנו', and refusing reminders from a member", async () => {
    const h = await household({ language: "he" });
    expect(await say(h, YOSSI, "תזכיר לדנה מחר ב-17:00 לאסוף את הילדים")).toEqual([
      "⏰ אזכיר לדנה מחר ב-17:00 (לפי השעה אצל דנה): “לאסוף את הילדים”. אעדכן אותך כשזה יבוצע.",
    ]);
    const given = await received(h, DANA, () => say(h, YOSSI, "משימה לדנה: להתקשר לאינסטלטור"));
    expect(h.sentTo(YOSSI).at(-1)).toBe(
      "📋 נתתי לדנה את המשימה “להתקשר לאינסטלטור”. אעדכן אותך כשהיא תבוצע.",
    );
    expect(given).toEqual([
      "📋 יוסי נתן/ה לך משימה:\n> להתקשר לאינסטלטור\nאעדכן את יוסי כשתסמן/י שהיא בוצעה.",
    ]);
    expect((await say(h, DANA, "המשימות שלנו"))[0]).toBe(
      "🏠 המשימות שלנו:\n• לאסוף את הילדים — את/ה, מחר ב-17:00 (מיוסי)\n• להתקשר לאינסטלטור — את/ה (מיוסי)",
    );
    expect(await say(h, DANA, "תפסיק תזכורות מיוסי")).toEqual([
      "בסדר, לא יגיעו עוד תזכורות או משימות מיוסי. כתוב/י “תאפשר תזכורות מיוסי” כדי לאפשר שוב.",
    ]);
    expect(await say(h, YOSSI, "תזכיר לדנה מחר ב-8:00 להוציא את הזבל")).toEqual([
      "דנה כיבה/תה תזכורות ומשימות ממך.",
    ]);
    expect(await say(h, DANA, "תאפשר תזכורות מיוסי")).toEqual(["תזכורות ומשימות מיוסי מותרות שוב."]);
    // The task given is Dana's to finish; Yossi is told.
    await say(h, DANA, "בוצע להתקשר לאינסטלטור");
    expect(await received(h, YOSSI, () => h.pass())).toEqual(["✅ דנה סימן/ה ש“להתקשר לאינסטלטור” בוצע."]);
  });

  it("an unclear or repeating time is asked about, a name that is no member goes on to the rest of Memo", async () => {
    const h = await household();
    expect(await say(h, YOSSI, "remind Dana to call the plumber")).toEqual([
      "When should I remind Dana? Say it with a day or a time, like “remind Dana at 17:00 to pick up the kids”.",
    ]);
    expect((await say(h, YOSSI, "remind Dana every day at 8:00 to take her pills"))[0]).toContain(
      "one-time reminders for Dana",
    );
    // "remind Dan…" is not Dana: the ordinary reading (a reminder of Yossi's own, or the help).
    expect(await say(h, YOSSI, "remind Danny at 17:00 to call")).toEqual([t("en", "noLLM")]);
    expect(await h.tasks.list(DANA)).toEqual([]);
  });

  it("a bare 'Dana: …' asks first; Yes gives her the task, No gives nothing; undo after a household change says it cannot", async () => {
    const h = await household();
    await say(h, YOSSI, "add task water the plants");
    const asked = await say(h, YOSSI, "Dana: allergic to peanuts");
    expect(asked).toEqual([
      "Give Dana the task “allergic to peanuts”? I'll tell them, and you when it's done.",
    ]);
    // Asked through the question plane like every other question: Yes / No, and No does nothing.
    const [, keep] = buttonsOfLast(h, YOSSI);
    expect(await tap(h, YOSSI, keep!, "No")).toEqual([t("en", "cancelled")]);
    expect(await h.tasks.list(DANA)).toEqual([]);

    await say(h, YOSSI, "Dana: call the plumber");
    const [give] = buttonsOfLast(h, YOSSI);
    const told = await received(h, DANA, () => tap(h, YOSSI, give!, "Yes"));
    expect(h.sentTo(YOSSI).at(-1)).toBe(
      "📋 Gave Dana the task “call the plumber”. I'll tell you when it's done.",
    );
    expect(told).toEqual([
      "📋 Yossi gave you a task:\n> call the plumber\nI'll let Yossi know when you mark it done.",
    ]);
    expect((await h.tasks.list(DANA)).map((task) => task.text)).toEqual(["call the plumber"]);

    // "undo" now does not reach back to "water the plants".
    expect((await say(h, YOSSI, "undo"))[0]).toContain("I can't undo a household change");
    expect((await h.tasks.list(YOSSI)).map((task) => task.text)).toEqual(["water the plants"]);
  });

  it("bad input: invisible or overlong words, absurd times, someone not in the household", async () => {
    const h = await household();
    expect(await say(h, YOSSI, "task for Dana: \u200b\u200f")).toEqual([expect.stringContaining("a task")]);
    expect((await say(h, YOSSI, `task for Dana: ${"x".repeat(2100)}`))[0]).toContain(
      "up to 2,000 characters",
    );
    expect(await say(h, YOSSI, `Dana: ${"x".repeat(300)}`)).toEqual([
      "To give Dana a task, say “task for Dana: …”.",
    ]);
    expect((await say(h, YOSSI, `create a ${"y".repeat(250)} list for the household`))[0]).toContain(
      "up to 200 characters",
    );
    expect((await say(h, YOSSI, "remind Dana in 9999999999 years to wait"))[0]).toContain(
      "When should I remind Dana?",
    );
    // Not a member: the rest of Memo reads it (here, with no model, the list of what it understands).
    expect(await say(h, YOSSI, "task for Rina: call")).toEqual([t("en", "noLLM")]);
    // A colon after words that are no member's name is no household command either.
    expect(await say(h, YOSSI, "task for tomorrow: call the bank")).toEqual([t("en", "noLLM")]);
    expect(await say(h, YOSSI, "make dinner for the household")).toEqual([t("en", "noLLM")]);
    expect(await say(h, YOSSI, "share my calendar with the family")).toEqual([t("en", "noLLM")]);
    expect((await say(h, YOSSI, "share the gifts list with Dana"))[0]).toBe(
      "You have no list called “gifts”.",
    );
    expect((await say(h, YOSSI, "stop reminders from Rina"))[0]).toContain("There's no “Rina”");
    expect(await h.tasks.list(DANA)).toEqual([]);
  });

  it("a reminder from a member in the holder's quiet hours waits until they end", async () => {
    const h = await household();
    await say(h, DANA, "quiet hours 22:00-07:00");
    expect((await say(h, YOSSI, "remind Dana at 23:00 to lock the door"))[0]).toContain(
      "It falls in Dana's quiet hours, so it will go when they end.",
    );
    h.at("2026-03-02T21:00:00Z");
    expect(await received(h, DANA, () => h.pass())).toEqual([]);
    h.at("2026-03-03T05:00:00Z");
    expect(await received(h, DANA, () => h.pass())).toEqual(["⏰ Reminder from Yossi:\n> lock the door"]);
  });
});

describe("leaving and removing", () => {
  it("lists stay with their owner; who loses one may keep a copy, once, within a week", async () => {
    const h = await household({ rina: true });
    await say(h, YOSSI, "create shopping list");
    await say(h, YOSSI, "add milk, eggs to shopping list");
    await say(h, YOSSI, "share the shopping list with the household");
    await say(h, DANA, "add bread to shopping list");

    expect(await say(h, DANA, "leave the household")).toEqual([
      "You've left the household. Your lists, tasks and notes stay yours.\nYou no longer see shopping. Say “keep a copy” within a week to keep your own copy.",
    ]);
    expect((await say(h, DANA, "my lists")).join("\n")).not.toContain("shopping");
    expect(await say(h, DANA, "keep a copy")).toEqual([
      "📋 Kept your own copy of *shopping*. It's yours alone.",
    ]);
    expect((await say(h, DANA, "show shopping list"))[0]).toBe(
      "*shopping*\n1. ☐ milk\n2. ☐ eggs\n3. ☐ bread",
    );
    expect(await say(h, DANA, "keep a copy")).toEqual([expect.stringContaining("nothing to keep a copy of")]);
    // Yossi's list is his, still shared with Rina; his copy is untouched by Dana's.
    await say(h, DANA, "add jam to shopping list");
    expect((await say(h, YOSSI, "show shopping list"))[0]).not.toContain("jam");
    // Dana is no longer in the household: her name is no longer shown to it.
    expect((await say(h, RINA, "show shopping list"))[0]).toMatch(/3\. ☐ bread$/);

    // Yossi takes Rina out: she loses his list and is told, with the offer.
    const told = await received(h, RINA, () => say(h, YOSSI, "remove Rina from the household"));
    expect(told).toEqual([
      "🏠 Yossi took you out of the household. Everything of yours stays yours.\nYou no longer see shopping. Say “keep a copy” within a week to keep your own copy.",
    ]);
    h.clock.advance(8 * 24 * 60 * MINUTE);
    expect(await say(h, RINA, "keep a copy")).toEqual([expect.stringContaining("nothing to keep a copy of")]);
    expect((await say(h, YOSSI, "show shopping list"))[0]).toMatch(/^\*shopping\*\n/);
  });

  it("the owner leaving takes the list back; the other is told and offered a copy", async () => {
    const h = await household();
    await say(h, YOSSI, "create a shopping list for the household");
    await say(h, DANA, "add milk to shopping list");
    const told = await received(h, DANA, () => say(h, YOSSI, "leave the household"));
    expect(told).toEqual([
      "🏠 Yossi left the household.\nWith only you left, the household has ended.\nYou no longer see shopping. Say “keep a copy” within a week to keep your own copy.",
    ]);
    expect((await say(h, YOSSI, "show shopping list"))[0]).toBe("*shopping*\n1. ☐ milk");
  });

  it("erasing a member takes what they wrote into others' shared things, and nothing of the others", async () => {
    const h = await household();
    await say(h, YOSSI, "create a shopping list for the household");
    await say(h, YOSSI, "add milk to shopping list");
    await say(h, DANA, "add bread to shopping list");
    await say(h, DANA, "task for Yossi: fix the shelf");
    await say(h, YOSSI, "turn on list notices");
    await say(h, DANA, "add jam to shopping list");
    await eraseUserData(h.db.pool, DANA);
    const { rows } = await h.db.pool.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM list_items WHERE added_by_phone = $1)
            + (SELECT count(*) FROM tasks WHERE assigned_by_phone = $1)
            + (SELECT count(*) FROM household_list_changes WHERE actor_phone = $1 OR recipient_phone = $1)
            + (SELECT count(*) FROM household_members WHERE phone = $1) AS n`,
      [DANA],
    );
    expect(Number(rows[0]!.n)).toBe(0);
    // What is Yossi's stays his: the item she added and the task she gave him, no longer naming her.
    expect((await say(h, YOSSI, "show shopping list"))[0]).toBe(
      "*shopping*\n1. ☐ milk\n2. ☐ bread\n3. ☐ jam",
    );
    expect((await h.tasks.list(YOSSI)).map((task) => [task.text, task.assignedByPhone])).toEqual([
      ["fix the shelf", undefined],
    ]);
    expect((await say(h, YOSSI, "my household")).join("\n")).toContain("You're not in a household");
  });
});
