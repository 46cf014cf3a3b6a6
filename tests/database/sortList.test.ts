// "sort the shopping list" / "סדר את רשימת קניות": a list's items in alphabetical order as the
// user's language has it, ticks kept, with the scripted model and with no model at all; "undo"
// puts the old order back.
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { Conversation, isListResolver, scriptTurn, stores } from "../support/databaseScript.js";

let h: Harness;
afterEach(async () => h?.close());

const noModel = () => createHarness({ llm: "none", env: { FAST_PATH: "on" } });

async function seedList(harness: Harness, name: string, items: string[], language: "he" | "en" = "en") {
  await harness.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem", language });
  return stores(harness).listRepo.create(PHONE, `seed-${name}`, { name, items });
}

/** The list's items as stored, in their order: text and tick. */
const itemsOf = async (harness: Harness, name: string) =>
  (await stores(harness).lists()).find((l) => l.name === name)?.items.map((i) => [i.text, i.checked]);

describe("sorting a list, with the model", () => {
  it("English: numbers by value, case aside, ticks kept; the new numbers are the ones 'check' uses", async () => {
    h = await createHarness();
    const list = await seedList(h, "Shopping", ["milk", "10 eggs", "bread", "Apples", "2 eggs"]);
    await stores(h).listRepo.toggleItem(PHONE, list.items[2]!.id, true);
    const c = new Conversation(h);

    scriptTurn(h, "sort_list", { operation: "sort", listName: "shopping" });
    expect((await c.say("sort the shopping list")).text).toBe(
      "🔤 Sorted *Shopping* alphabetically:\n1. ☐ 2 eggs\n2. ☐ 10 eggs\n3. ☐ Apples\n4. ☑ bread\n5. ☐ milk",
    );
    expect(h.server!.requests.filter(isListResolver)).toHaveLength(1);
    expect(await itemsOf(h, "Shopping")).toEqual([
      ["2 eggs", false],
      ["10 eggs", false],
      ["Apples", false],
      ["bread", true],
      ["milk", false],
    ]);

    scriptTurn(h, "toggle_list_item", { operation: "toggleItem", listName: "shopping", item: "#3" });
    expect((await c.say("check 3")).text).toBe("☑️ Checked off Apples on *Shopping*");
    // The first conversation of the file also starts the scripted model and the database.
  }, 60_000);

  it("Hebrew: Hebrew words first, then English, numbers by value; 'בטל' puts the old order back", async () => {
    h = await createHarness();
    await seedList(h, "קניות", ["חלב", "bread", "10 ביצים", "אבוקדו", "2 ביצים", "Apples"], "he");
    const before = await itemsOf(h, "קניות");

    scriptTurn(h, "sort_list", { operation: "sort", listName: "רשימת קניות" });
    expect((await h.say("סדר את רשימת קניות")).text).toBe(
      "🔤 סידרתי את *קניות* לפי הא״ב:\n1. ☐ 2 ביצים\n2. ☐ 10 ביצים\n3. ☐ אבוקדו\n4. ☐ חלב\n5. ☐ Apples\n6. ☐ bread",
    );
    expect((await itemsOf(h, "קניות"))?.map(([text]) => text)).toEqual([
      "2 ביצים",
      "10 ביצים",
      "אבוקדו",
      "חלב",
      "Apples",
      "bread",
    ]);

    h.server!.enqueue(plan({ intentType: "meta", steps: [step("s1", "meta", "undo")] }));
    expect((await h.say("בטל")).text).toContain("↩️ בוטל");
    expect(await itemsOf(h, "קניות")).toEqual(before);
  });

  it("an empty list, a list of one item, a list already in order, and a list that does not exist", async () => {
    h = await createHarness();
    await seedList(h, "Empty", []);
    await seedList(h, "Packing", ["tent"]);
    await seedList(h, "Books", ["Dune", "Emma"]);

    scriptTurn(h, "sort_list", { operation: "sort", listName: "empty" });
    expect((await h.say("sort the empty list")).text).toBe("The list *Empty* is empty: nothing to sort.");
    scriptTurn(h, "sort_list", { operation: "sort", listName: "packing" });
    expect((await h.say("sort my packing list")).text).toBe(
      "The list *Packing* has one item (tent): nothing to sort.",
    );
    scriptTurn(h, "sort_list", { operation: "sort", listName: "books" });
    expect((await h.say("sort the books list")).text).toBe(
      "🔤 *Books* is already in alphabetical order:\n1. ☐ Dune\n2. ☐ Emma",
    );
    scriptTurn(h, "sort_list", { operation: "sort", listName: "groceries" });
    const unknown = (await h.say("sort the groceries list")).text;
    expect(unknown).toContain('"groceries"');
    expect(await itemsOf(h, "Books")).toEqual([
      ["Dune", false],
      ["Emma", false],
    ]);
  });
});

describe("sorting a list, with no model", () => {
  it("English: 'sort shopping list' sorts it, 'undo' puts the old order and ticks back", async () => {
    h = await noModel();
    const list = await seedList(h, "shopping", ["milk", "bread", "apples"]);
    await stores(h).listRepo.toggleItem(PHONE, list.items[0]!.id, true);
    const before = await itemsOf(h, "shopping");

    expect((await h.say("sort shopping list")).text).toBe(
      "🔤 Sorted *shopping* alphabetically:\n1. ☐ apples\n2. ☐ bread\n3. ☑ milk",
    );
    expect(await itemsOf(h, "shopping")).toEqual([
      ["apples", false],
      ["bread", false],
      ["milk", true],
    ]);
    expect((await h.say("undo")).text).toBe("↩️ Undone — back as it was: the list “shopping”.");
    expect(await itemsOf(h, "shopping")).toEqual(before);
    // Sorting again after the undo gives the same order.
    await h.say("sort the shopping list");
    expect((await itemsOf(h, "shopping"))?.map(([text]) => text)).toEqual(["apples", "bread", "milk"]);
  });

  it("Hebrew: 'מיין את רשימת הקניות' sorts it, 'בטל' puts it back; an unknown list is said so", async () => {
    h = await noModel();
    await seedList(h, "קניות", ["עגבניות", "במבה", "3 לחמניות", "אורז"], "he");
    const before = await itemsOf(h, "קניות");

    expect((await h.say("מיין את רשימת הקניות")).text).toBe(
      "🔤 סידרתי את *קניות* לפי הא״ב:\n1. ☐ 3 לחמניות\n2. ☐ אורז\n3. ☐ במבה\n4. ☐ עגבניות",
    );
    expect((await h.say("בטל")).text).toBe("↩️ בוטל — חזר למצב הקודם: הרשימה „קניות”.");
    expect(await itemsOf(h, "קניות")).toEqual(before);

    const unknown = (await h.say("סדר את רשימת ספרים")).text;
    expect(unknown).toBe('לא מצאתי רשימה בשם "ספרים".');
    expect(await itemsOf(h, "קניות")).toEqual(before);
  });
});
