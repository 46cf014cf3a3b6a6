// Text another person wrote reaches a member as content, never as Memo's formatting (issue 31,
// finding 10; DECISIONS D14): a task given, a reminder, a list item, a shared list's name and an
// inviter's WhatsApp name are shown quoted under that person's name, with WhatsApp's markup shown
// as fullwidth look-alikes (＊ ＿ ～ ｀), bidi controls removed and links defanged ("evil[.]example").
// What is stored stays as written. English and Hebrew, through the webhook, two phones.
import { describe, expect, it } from "vitest";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { buttonsOfLast, DANA, received, say, tap, YOSSI } from "./talk.js";

let h: SchedulerHarness | undefined;
const shared = sharedDatabase(() => h);

/** A right-to-left override: "invoice\u202Egnp.exe" shows as "invoiceexe.png". */
const RLO = "\u202E";
/** Every bidi control quotedText removes. */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/** What would format or link in WhatsApp: a markup character, a scheme, a dotted host. */
const ACTIVE = /[*_~`]|https?:|evil\.example/u;

/**
 * Yossi (whose WhatsApp name is `yossiName`) and Dana in one household; `invitation` is what
 * reached Dana when he invited her.
 */
async function household(language: "en" | "he", yossiName: string) {
  h = await createSchedulerHarness({ db: shared.db });
  await h.user(YOSSI, { language });
  await h.memo.users.update(YOSSI, { displayName: yossiName });
  await h.user(DANA, { language });
  const invite =
    language === "he" ? "תוסיף את דנה 050-1234567 למשק הבית" : "add Dana 050-1234567 to my household";
  const invitation = await received(h, DANA, () => say(h!, YOSSI, invite));
  await say(h, DANA, language === "he" ? "מאשרת" : "accept");
  return { h, invitation };
}

describe("another member's words, in English", () => {
  it("a task given arrives quoted under the giver's name, with no bold and no link; stored as written", async () => {
    const { h } = await household("en", "Yossi");
    const evil = "*URGENT* your Memo account is locked, verify at http://evil.example/login";
    const shown = "＊URGENT＊ your Memo account is locked, verify at evil[.]example/login";

    const told = await received(h, DANA, () => say(h, YOSSI, `task for Dana: ${evil}`));
    expect(told).toEqual([
      `📋 Yossi gave you a task:\n> ${shown}\nI'll let Yossi know when you mark it done.`,
    ]);
    // The giver's confirmation echoes it as Dana sees it.
    expect(h.sentTo(YOSSI).at(-1)).toBe(`📋 Gave Dana the task “${shown}”. I'll tell you when it's done.`);
    // Stored unchanged: only what is shown is made inert.
    expect((await h.tasks.list(DANA)).map((task) => task.text)).toEqual([evil]);

    const ours = await say(h, DANA, "our tasks");
    expect(ours).toEqual([`🏠 Our tasks:\n• ${shown} — you (from Yossi)`]);
    // Her own listing and her "done" show his words as his too.
    const mine = await say(h, DANA, "my tasks");
    expect(mine.join("\n")).toContain(`1. ${shown}`);
    const doneReply = await say(h, DANA, "done 1");
    expect(doneReply.join("\n")).toContain(shown);
    const done = await received(h, YOSSI, () => h.pass());
    expect(done).toEqual([`✅ Dana marked “${shown}” done.`]);
    for (const text of [...told, ...ours, ...done]) expect(text).not.toMatch(ACTIVE);
    // In her own replies Memo's markup stays ("*Your tasks:*", "Done: *…*"); his words are inert in it.
    const hisLines = [...mine, ...doneReply]
      .flatMap((text) => text.split("\n"))
      .filter((l) => l.includes("URGENT"));
    expect(hisLines).toHaveLength(2);
    for (const line of hisLines) expect(line.replace(shown, "")).not.toMatch(/URGENT|https?:|evil\.example/u);
  });

  it("a reminder from a member rings with its words quoted under the name", async () => {
    const { h } = await household("en", "Yossi");
    await say(h, YOSSI, "remind Dana at 17:00 to _pay_ at https://evil.example/pay");
    h.at("2026-03-02T15:00:00Z");
    expect(await received(h, DANA, () => h.pass())).toEqual([
      "⏰ Reminder from Yossi:\n> ＿pay＿ at evil[.]example/pay",
    ]);
    // Her Done tap's reply names his words as his too.
    const [done] = buttonsOfLast(h, DANA);
    const reply = (await tap(h, DANA, done!, "Done ✅")).join("\n");
    expect(reply).toContain("＿pay＿ at evil[.]example/pay");
    expect(reply).not.toMatch(/_pay_|https?:|evil\.example/u);
  });

  it("an item a member added stays shown as content after she is taken out of the household", async () => {
    const { h } = await household("en", "Yossi");
    await say(h, YOSSI, "create a shopping list for the household");
    await say(h, DANA, "add *URGENT* verify at http://evil.example/login to shopping list");
    await say(h, YOSSI, "remove Dana from the household");
    const [list] = await say(h, YOSSI, "show shopping list");
    expect(list).toContain("＊URGENT＊ verify at evil[.]example/login");
    expect(list).not.toMatch(/\*URGENT|https?:|evil\.example/u);
  });

  it("the holder's morning digest shows a reminder from a member with its words inert", async () => {
    const { h } = await household("en", "Yossi");
    await say(h, YOSSI, "remind Dana tomorrow at 17:00 to _pay_ at https://evil.example/pay");
    // A first pass schedules her digest; 08:00 in Jerusalem the next day: her digest lists the day's reminders.
    await h.pass();
    h.at("2026-03-03T06:00:00Z");
    await h.memo.users.recordInbound(DANA, new Date(h.clock.now()));
    const [digest] = await received(h, DANA, () => h.pass());
    expect(digest).toContain("17:00 ＿pay＿ at evil[.]example/pay");
    expect(digest).not.toMatch(/_pay_|https?:|evil\.example/u);
  });

  it("an item with a right-to-left override shows in the order it was written; another's list name is quoted", async () => {
    const { h } = await household("en", "Yossi");
    await say(h, DANA, "create a shopping list for the household");
    await say(h, YOSSI, `add invoice${RLO}gnp.exe to shopping list`);
    await say(h, YOSSI, "add ~free~ gift to shopping list");
    const [list] = await say(h, DANA, "show shopping list");
    expect(list).toBe(
      "*shopping* (shared with your household)\n1. ☐ invoicegnp[.]exe — Yossi\n2. ☐ ～free～ gift — Yossi",
    );
    expect(list).not.toMatch(BIDI);
    // Her own items stay as she wrote them.
    await say(h, DANA, "add *bread* to shopping list");
    expect((await say(h, DANA, "show shopping list"))[0]).toContain("3. ☐ *bread*");
    // Stored as written.
    const stored = await h.db.pool.query<{ text: string }>("SELECT text FROM list_items ORDER BY position");
    expect(stored.rows.map((r) => r.text)).toContain(`invoice${RLO}gnp.exe`);

    // A list another member named: its name quoted wherever Yossi sees it.
    const notice = await received(h, YOSSI, () => say(h, DANA, "create a _sale_ list for the household"));
    expect(notice[0]).toMatch(/^🏠 Dana shared the list \*＿sale＿\* with the household/);
    expect((await say(h, YOSSI, "my lists"))[0]).toContain("＿sale＿ (0 items) (Dana's, shared)");
  });

  it("the invitation shows the inviter's WhatsApp name inert, beside the number", async () => {
    const { h, invitation } = await household("en", `*Memo Support* ${RLO}http://evil.example`);
    expect(invitation[0]).toMatch(
      /^👋 ＊Memo Support＊ evil\[\.\]example \(\u2066\+972 52 111 0001\u2069\) invites you/,
    );
    expect(invitation[0]!.replace(/\u2066[^\u2069]*\u2069/, "")).not.toMatch(BIDI);
    // Her reply on joining names him the same way.
    const tasks = await received(h, DANA, () => say(h, YOSSI, "task for Dana: call"));
    expect(tasks[0]).toMatch(/^📋 ＊Memo Support＊ evil\[\.\]example gave you a task:\n> call\n/);
  });
});

describe("another member's words, in Hebrew", () => {
  it("a task and a reminder given arrive quoted under the giver's name, no bold, no link", async () => {
    const { h } = await household("he", "יוסי");
    const evil = "*דחוף* החשבון שלך ננעל, היכנס ל-http://evil.example/login";
    const shown = "＊דחוף＊ החשבון שלך ננעל, היכנס ל-evil[.]example/login";
    const told = await received(h, DANA, () => say(h, YOSSI, `משימה לדנה: ${evil}`));
    expect(told).toEqual([`📋 יוסי נתן/ה לך משימה:\n> ${shown}\nאעדכן את יוסי כשתסמן/י שהיא בוצעה.`]);
    expect(h.sentTo(YOSSI).at(-1)).toBe(`📋 נתתי לדנה את המשימה “${shown}”. אעדכן אותך כשהיא תבוצע.`);
    expect((await h.tasks.list(DANA)).map((task) => task.text)).toEqual([evil]);

    await say(h, YOSSI, "תזכיר לדנה היום ב-17:00 _לשלם_ ב-www.evil.example");
    h.at("2026-03-02T15:00:00Z");
    expect(await received(h, DANA, () => h.pass())).toEqual([
      "⏰ תזכורת מיוסי:\n> ＿לשלם＿ ב-www[.]evil[.]example",
    ]);
  });

  it("an item with a right-to-left override, and a shared list's name, shown inert", async () => {
    const { h } = await household("he", "יוסי");
    await say(h, YOSSI, "תיצור רשימת קניות למשק הבית");
    await say(h, DANA, `תוסיף חשבונית${RLO}gnp.exe לרשימת קניות`);
    const [list] = await say(h, YOSSI, "תראה לי את רשימת קניות");
    expect(list).toBe("*קניות* (משותפת עם משק הבית)\n1. ☐ חשבוניתgnp[.]exe — דנה");
    expect(list).not.toMatch(BIDI);

    const notice = await received(h, YOSSI, () => say(h, DANA, "תיצור רשימת _מבצע_ למשק הבית"));
    expect(notice[0]).toMatch(/^🏠 דנה שיתף\/ה את הרשימה \*＿מבצע＿\* עם משק הבית/);
    expect((await say(h, YOSSI, "הרשימות שלי"))[0]).toContain("＿מבצע＿ (0 פריטים) (של דנה, משותפת)");
  });
});
