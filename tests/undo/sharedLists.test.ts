// Undo on a list shared with the household (issue 31): a change is taken back only while nothing it
// touched was changed by anyone since, and the reply names who changed it; a member's change to
// another member's shared list is theirs to undo on the same terms, and only while the list is
// still shared with them; a change that changed nothing never takes the place of the last real one.
// Two phones, English and Hebrew, through the webhook with no model.
import { describe, expect, it } from "vitest";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { buttonsOfLast, DANA, say, tap, YOSSI } from "../household/talk.js";

let h: SchedulerHarness | undefined;
const shared = sharedDatabase(() => h);

/** Yossi and Dana in one household (Yossi invited her, she accepted), each inside the 24-hour window. */
async function household(language: "he" | "en" = "en"): Promise<SchedulerHarness> {
  h = await createSchedulerHarness({ db: shared.db });
  await h.user(YOSSI, { language });
  await h.memo.users.update(YOSSI, { displayName: language === "he" ? "יוסי" : "Yossi" });
  await h.user(DANA, { language });
  await say(
    h,
    YOSSI,
    language === "he" ? "תוסיף את דנה 050-1234567 למשק הבית" : "add Dana 050-1234567 to my household",
  );
  await say(h, DANA, language === "he" ? "מאשרת" : "accept");
  return h;
}

/** A minute passes between messages, as it does in a conversation. */
const later = (h: SchedulerHarness) => h.clock.advance(60_000);

/** The items of every list, as stored: who owns them, their ids, ticks and order. */
interface ItemRow {
  id: string;
  user_phone: string;
  added_by_phone: string | null;
  text: string;
  checked: boolean;
  position: number;
}

async function items(h: SchedulerHarness): Promise<ItemRow[]> {
  const { rows } = await h.db.pool.query<ItemRow>(
    "SELECT id, user_phone, added_by_phone, text, checked, position FROM list_items ORDER BY position",
  );
  return rows;
}

describe("undo on a shared list", () => {
  it("another member's addition since is no change to mine: Yossi adds milk, Dana adds bread, his undo takes milk back", async () => {
    const h = await household();
    await say(h, YOSSI, "create a shopping list for the household");
    later(h);
    await say(h, YOSSI, "add milk to shopping list");
    later(h);
    await say(h, DANA, "add bread to shopping list");
    later(h);
    expect((await say(h, YOSSI, "undo")).join("\n")).toContain("milk");
    expect((await items(h)).map((i) => i.text)).toEqual(["bread"]);
  });

  it("the undo question names another member's item as her words: no bold, no link", async () => {
    const h = await household();
    await say(h, YOSSI, "create a shopping list for the household");
    later(h);
    await say(h, DANA, "add *URGENT* http://evil.example to shopping list");
    later(h);
    await say(h, YOSSI, "show shopping list");
    await say(h, YOSSI, "done 1");
    later(h);
    await say(h, YOSSI, "my lists");
    later(h);
    const asked = (await say(h, YOSSI, "undo")).join("\n");
    expect(asked).toContain("＊URGENT＊ evil[.]example");
    expect(asked).not.toMatch(/\*URGENT|https?:|evil\.example/u);
  });

  it("Yossi ticks milk, Dana clears the list: his undo names her and changes nothing; hers brings the items back as they were", async () => {
    const h = await household();
    await say(h, YOSSI, "create a shopping list for the household");
    await say(h, YOSSI, "add milk, eggs to shopping list");
    later(h);
    expect((await say(h, YOSSI, "show shopping list"))[0]).toContain("1. ☐ milk\n2. ☐ eggs");
    await say(h, YOSSI, "done 1");
    const ticked = await items(h);
    expect(ticked.map((i) => [i.text, i.checked])).toEqual([
      ["milk", true],
      ["eggs", false],
    ]);

    later(h);
    // Her clearing is hers to undo, so her reply may offer it.
    expect(await say(h, DANA, "clear shopping list")).toEqual([
      "🧹 Cleared *shopping* (2 items).\nReply *undo* to bring it back.",
    ]);
    later(h);
    expect(await say(h, YOSSI, "undo")).toEqual([
      "Dana cleared *shopping* since, so I can't undo your change to the item “milk”. Nothing was changed.",
    ]);
    expect(await items(h)).toEqual([]);

    later(h);
    expect(await say(h, DANA, "undo")).toEqual(["↩️ Undone — back as it was: 2 items."]);
    // His rows again, with their ids, his tick and their order.
    expect(await items(h)).toEqual(ticked);
    expect((await say(h, YOSSI, "show shopping list"))[0]).toContain("1. ☑ milk\n2. ☐ eggs");
  });

  it("in Hebrew: Yossi's 'בטל' names Dana; Dana's 'בטל' brings the items back", async () => {
    const h = await household("he");
    await say(h, YOSSI, "תיצור רשימת קניות למשק הבית");
    await say(h, YOSSI, "תוסיף חלב, ביצים לרשימת קניות");
    later(h);
    await say(h, YOSSI, "תראה לי את רשימת קניות");
    await say(h, YOSSI, "בוצע 1");
    const ticked = await items(h);
    expect(ticked.map((i) => [i.text, i.checked])).toEqual([
      ["חלב", true],
      ["ביצים", false],
    ]);
    later(h);
    expect((await say(h, DANA, "נקה את רשימת קניות"))[0]).toContain("ענו *בטל* כדי להחזיר.");
    later(h);
    expect(await say(h, YOSSI, "בטל")).toEqual([
      "דנה ניקה/תה את *קניות* מאז, אז אני לא יכול לבטל את מה ששינית (הפריט „חלב”). שום דבר לא השתנה.",
    ]);
    expect(await items(h)).toEqual([]);
    later(h);
    expect(await say(h, DANA, "בטל")).toEqual(["↩️ בוטל — חזר למצב הקודם: 2 פריטים."]);
    expect(await items(h)).toEqual(ticked);
  });

  it("a member's addition is hers to undo while the list is shared with her; once it is not, undo says so and changes nothing", async () => {
    const h = await household();
    await say(h, YOSSI, "create a shopping list for the household");
    await say(h, YOSSI, "add milk to shopping list");
    later(h);
    await say(h, DANA, "add bread to shopping list");
    later(h);
    expect(await say(h, DANA, "undo")).toEqual(["↩️ Removed the item “bread” you added."]);
    expect((await items(h)).map((i) => i.text)).toEqual(["milk"]);

    later(h);
    await say(h, DANA, "add jam to shopping list");
    later(h);
    await say(h, YOSSI, "stop sharing the shopping list");
    later(h);
    expect(await say(h, DANA, "undo")).toEqual([
      "*shopping* is no longer shared with you, so I can't undo your change to it. Nothing was changed.",
    ]);
    expect((await items(h)).map((i) => i.text)).toEqual(["milk", "jam"]);
  });

  it("a member's change that changed nothing on a shared list does not take the undo slot: undo names her own last change and asks", async () => {
    const h = await household();
    await say(h, YOSSI, "create a shopping list for the household");
    later(h);
    await say(h, DANA, "add task water the plants");
    later(h);
    // His list is empty: nothing is cleared, nothing journaled.
    expect(await say(h, DANA, "clear shopping list")).toEqual(["The list *shopping* is already empty."]);
    later(h);
    expect(await say(h, DANA, "undo")).toEqual([
      "Your last change was creating the task “water the plants”, 2 messages ago. Undo it?",
    ]);
    expect(buttonsOfLast(h, DANA)).toEqual(["yes", "no"]);
    expect(await tap(h, DANA, "yes", "Yes")).toEqual(["↩️ Removed the task “water the plants” you added."]);
    expect(await h.tasks.list(DANA)).toEqual([]);
  });
});
