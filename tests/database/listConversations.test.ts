// Lists through invokeMemoGraph: the planner picks a list action, the list resolver (scripted)
// names the operation, and the reply and the rows afterwards are asserted.
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, PHONE, type Harness } from "../support/memoHarness.js";
import {
  Conversation,
  crashOnce,
  example,
  isListResolver,
  scriptTurn,
  stores,
} from "../support/databaseScript.js";

let h: Harness;
afterEach(async () => h?.close());

async function seedList(harness: Harness, name: string, items: string[], key = `seed-${name}`) {
  await harness.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
  return stores(harness).listRepo.create(PHONE, key, { name, items });
}

const itemsOf = async (harness: Harness, name: string) =>
  (await stores(harness).lists()).find((l) => l.name === name)?.items.map((i) => [i.text, i.checked]);

describe("lists", () => {
  it("creates a shopping list with items, then ticks one off by its number", async () => {
    h = await createHarness();
    const c = new Conversation(h);
    scriptTurn(h, "create_list", {
      operation: "create",
      listName: "Shopping",
      items: ["milk", "eggs", "bread"],
    });
    const created = await c.say("create a shopping list with milk, eggs and bread");
    expect(created.text).toBe("📝 Created the list *Shopping*\n*Shopping*\n1. ☐ milk\n2. ☐ eggs\n3. ☐ bread");
    expect(h.server!.requests.filter(isListResolver)).toHaveLength(1);

    scriptTurn(h, "toggle_list_item", {
      operation: "toggleItem",
      listName: "shopping",
      item: "#2",
      checked: true,
    });
    expect((await c.say("check 2")).text).toBe("☑️ Checked off eggs on *Shopping*");
    expect(await itemsOf(h, "Shopping")).toEqual([
      ["milk", false],
      ["eggs", true],
      ["bread", false],
    ]);
    example("10-shopping-list-en", "A shopping list", c);
  });

  it("adds items to 'רשימת קניות' found by its name, in Hebrew", async () => {
    h = await createHarness();
    await seedList(h, "קניות", ["חלב"]);
    await seedList(h, "ציוד לטיול", ["אוהל"]);
    const c = new Conversation(h);
    scriptTurn(h, "add_list_item", {
      operation: "addItem",
      listName: "רשימת קניות",
      items: ["עגבניות", "מלפפונים"],
    });
    const reply = await c.say("תוסיף לרשימת קניות עגבניות ומלפפונים");
    expect(reply.text).toBe(
      "➕ הוספתי לרשימה *קניות*: עגבניות, מלפפונים\n\n*קניות*\n1. ☐ חלב\n2. ☐ עגבניות\n3. ☐ מלפפונים",
    );
    expect(await itemsOf(h, "קניות")).toEqual([
      ["חלב", false],
      ["עגבניות", false],
      ["מלפפונים", false],
    ]);
    scriptTurn(h, "delete_list_item", { operation: "deleteItem", listName: "קניות", item: "מלפפון" });
    expect((await c.say("תוריד את המלפפונים מהקניות")).text).toBe(
      "🗑️ הסרתי את מלפפונים מהרשימה *קניות*\nענו *בטל* כדי להחזיר.",
    );
    expect(await itemsOf(h, "קניות")).toEqual([
      ["חלב", false],
      ["עגבניות", false],
    ]);
    example("11-shopping-list-he", "רשימת קניות", c);
  });

  it("shows one list, and all lists numbered; 'delete 2' after it names the second list", async () => {
    h = await createHarness();
    await seedList(h, "Shopping", ["milk"]);
    await seedList(h, "Packing", []);
    scriptTurn(h, "show_list", { operation: "get", listName: "shopping" });
    expect((await h.say("show me the shopping list")).text).toBe("*Shopping*\n1. ☐ milk");
    scriptTurn(h, "show_lists", { operation: "getAll" });
    expect((await h.say("what lists do I have?")).text).toBe(
      "*Your lists:*\n1. Shopping (1 item)\n2. Packing (0 items)",
    );
    scriptTurn(h, "delete_list", { operation: "delete", listId: "#2" });
    expect((await h.say("delete 2")).text).toBe(
      "🗑️ Deleted the list *Packing*\nReply *undo* to bring it back.",
    );
    expect((await stores(h).lists()).map((l) => l.name)).toEqual(["Shopping"]);
  });

  it("deleting a list that has items asks first; 'no' keeps it", async () => {
    h = await createHarness();
    await seedList(h, "Shopping", ["milk", "eggs"]);
    scriptTurn(h, "delete_list", { operation: "delete", listName: "shopping" });
    const asked = await h.say("delete the shopping list");
    expect(asked).toMatchObject({
      status: "waiting",
      question: "Delete the list *Shopping* with its 2 items?",
    });
    expect((await h.say("no")).text).toBe("OK, I won't do that.");
    expect(await stores(h).lists()).toHaveLength(1);
  });

  it("deletes several lists after confirming", async () => {
    h = await createHarness();
    await seedList(h, "Shopping", []);
    await seedList(h, "Packing", []);
    await seedList(h, "Books", ["Dune"]);
    scriptTurn(h, "delete_list", { operation: "deleteMultiple", listIds: ["shopping", "packing"] });
    const asked = await h.say("delete the shopping and packing lists");
    expect(asked.question).toBe("Delete these 2 lists?\n1. Shopping\n2. Packing");
    expect((await h.say("yes")).text).toBe(
      "🗑️ Deleted 2 lists: *Shopping*, *Packing*\nReply *undo* to bring it back.",
    );
    expect((await stores(h).lists()).map((l) => l.name)).toEqual(["Books"]);
  });

  it("creates several lists at once, and renames one", async () => {
    h = await createHarness();
    scriptTurn(h, "create_list", {
      operation: "createMultiple",
      lists: [{ listName: "Groceries", items: ["apples"] }, { listName: "Gifts" }],
    });
    expect((await h.say("make a groceries list with apples and a gifts list")).text).toBe(
      "📝 Created 2 lists: *Groceries*, *Gifts*",
    );
    scriptTurn(h, "rename_list", { operation: "update", listName: "gifts", newName: "Birthday gifts" });
    expect((await h.say("rename the gifts list to Birthday gifts")).text).toBe(
      "✏️ Renamed *Gifts* to *Birthday gifts*",
    );
    expect((await stores(h).lists()).map((l) => [l.name, l.items.length])).toEqual([
      ["Groceries", 1],
      ["Birthday gifts", 0],
    ]);
  });

  it("updates several lists at once (Hebrew)", async () => {
    h = await createHarness();
    await seedList(h, "קניות", []);
    await seedList(h, "ספרים", []);
    scriptTurn(h, "rename_list", {
      operation: "updateMultiple",
      updates: [
        { listName: "קניות", newName: "קניות לשבת" },
        { listName: "ספרים", isChecklist: false },
      ],
    });
    expect((await h.say("תשנה את קניות לקניות לשבת ואת ספרים לרשימה רגילה")).text).toBe(
      "✏️ עדכנתי 2 רשימות.",
    );
    expect((await stores(h).lists()).map((l) => [l.name, l.isChecklist])).toEqual([
      ["קניות לשבת", true],
      ["ספרים", false],
    ]);
  });

  it("asks which list when several could take the item and none was named", async () => {
    h = await createHarness();
    await seedList(h, "Shopping", []);
    await seedList(h, "Packing", []);
    scriptTurn(h, "add_list_item", { operation: "addItem", items: ["sunscreen"] });
    const asked = await h.say("add sunscreen to the list");
    expect(asked.question).toBe("I found several lists. Which one did you mean?");
    expect(asked.options.map((o) => o.label)).toEqual(["Shopping", "Packing"]);
    expect((await h.say("packing")).text).toBe(
      "➕ Added to *Packing*: sunscreen\n\n*Packing*\n1. ☐ sunscreen",
    );
    expect(await itemsOf(h, "Shopping")).toEqual([]);
  });

  it("says so when the list does not exist, naming the closest", async () => {
    h = await createHarness();
    await seedList(h, "Reading list for the beach", []);
    await seedList(h, "Packing", []);
    scriptTurn(h, "show_list", { operation: "get", listName: "summer reading" });
    expect((await h.say("show my summer reading list")).text).toBe(
      'I couldn\'t find a list called "summer reading". Did you mean "Reading list for the beach"?',
    );
  });

  it("a user can never touch another user's list by its id", async () => {
    h = await createHarness();
    const OTHER = "972509999999";
    await h.users.getOrCreate(OTHER, { timeZone: "Asia/Jerusalem" });
    const theirs = await stores(h, OTHER).listRepo.create(OTHER, "other#1", { name: "Secret", items: ["x"] });
    await seedList(h, "Mine", []);
    scriptTurn(h, "add_list_item", { operation: "addItem", listId: theirs.id, items: ["y"] });
    expect((await h.say(`add y to ${theirs.id}`)).text).toBe("Which list do you mean?");
    expect((await stores(h, OTHER).lists())[0]!.items.map((i) => i.text)).toEqual(["x"]);
  });
});

describe("lists: review regressions", () => {
  it("after removing item 1, 'delete 2' still means the second item as shown", async () => {
    h = await createHarness();
    await seedList(h, "Shopping", ["milk", "eggs", "bread"]);
    scriptTurn(h, "show_list", { operation: "get", listName: "shopping" });
    await h.say("show the shopping list");
    scriptTurn(h, "delete_list_item", { operation: "deleteItem", listName: "shopping", item: "#1" });
    expect((await h.say("delete 1")).text).toBe(
      "🗑️ Removed milk from *Shopping*\nReply *undo* to bring it back.",
    );
    scriptTurn(h, "delete_list_item", { operation: "deleteItem", listName: "shopping", item: "#2" });
    expect((await h.say("delete 2")).text).toBe(
      "🗑️ Removed eggs from *Shopping*\nReply *undo* to bring it back.",
    );
    expect(await itemsOf(h, "Shopping")).toEqual([["bread", false]]);
  });

  it("asks which item when two match, and ticks the chosen one", async () => {
    h = await createHarness();
    await seedList(h, "Shopping", ["red apples", "green apples", "milk"]);
    scriptTurn(h, "toggle_list_item", { operation: "toggleItem", listName: "shopping", item: "apples" });
    const asked = await h.say("check apples");
    expect(asked.question).toBe("I found several items. Which one did you mean?");
    expect((await h.say("green")).text).toBe("☑️ Checked off green apples on *Shopping*");
    expect(await itemsOf(h, "Shopping")).toEqual([
      ["red apples", false],
      ["green apples", true],
      ["milk", false],
    ]);
  });

  it("a re-run of a tick after a crash does not untick it", async () => {
    h = await createHarness();
    await seedList(h, "Shopping", ["milk"]);
    crashOnce(h);
    scriptTurn(h, "toggle_list_item", { operation: "toggleItem", listName: "shopping", item: "milk" });
    expect((await h.say("got the milk", { whatsappMessageId: "wamid.t" })).status).toBe("failed");
    scriptTurn(h, "toggle_list_item", { operation: "toggleItem", listName: "shopping", item: "milk" });
    expect((await h.say("got the milk", { whatsappMessageId: "wamid.t" })).text).toBe(
      "☑️ Checked off milk on *Shopping*",
    );
    expect(await itemsOf(h, "Shopping")).toEqual([["milk", true]]);
  });

  it("deleting several lists that come down to one with items still asks", async () => {
    h = await createHarness();
    await seedList(h, "Shopping", ["milk"]);
    await seedList(h, "Books", []);
    scriptTurn(h, "delete_list", { operation: "deleteMultiple", listIds: ["shopping", "the shopping list"] });
    expect((await h.say("delete the shopping lists")).question).toBe(
      "Delete the list *Shopping* with its one item?",
    );
  });
  it("adding to a list that does not exist makes it (LLM path), but a near name is the existing list", async () => {
    h = await createHarness();
    const c = new Conversation(h);
    scriptTurn(h, "add_list_item", {
      operation: "addItem",
      listName: "shopping list",
      items: ["milk", "eggs"],
    });
    expect((await c.say("add milk, eggs to shopping list")).text).toBe(
      "📝 Created the list *shopping* and added: milk, eggs\n\n*shopping*\n1. ☐ milk\n2. ☐ eggs",
    );
    // A typo and "… list" find the list just made: no second one.
    scriptTurn(h, "add_list_item", { operation: "addItem", listName: "shoping", items: ["bread"] });
    expect((await c.say("add bread to the shoping list")).text).toContain("➕ Added to *shopping*: bread");
    await seedList(h, "Packing", ["tent"]);
    scriptTurn(h, "add_list_item", { operation: "addItem", listName: "Shopping list", items: ["jam"] });
    expect((await c.say("put jam on the Shopping list")).text).toContain("➕ Added to *shopping*: jam");
    // A name nothing comes near is a new list beside the others.
    scriptTurn(h, "add_list_item", { operation: "addItem", listName: "books", items: ["Dune"] });
    expect((await c.say("add Dune to my books list")).text).toContain(
      "📝 Created the list *books* and added: Dune",
    );
    expect((await stores(h).lists()).map((l) => [l.name, l.items.length]).sort()).toEqual([
      ["Packing", 1],
      ["books", 1],
      ["shopping", 4],
    ]);
  });

  it("'the list', 'my list', 'it', 'הרשימה' name no list: never a new one, 'which list?' or the only list", async () => {
    h = await createHarness();
    await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    scriptTurn(h, "add_list_item", { operation: "addItem", listName: "the list", items: ["milk"] });
    expect((await h.say("add milk to the list")).text).toBe("You don't have any lists yet.");
    expect(await stores(h).lists()).toEqual([]);

    const shopping = await seedList(h, "Shopping", []);
    await seedList(h, "Packing", []);
    scriptTurn(h, "add_list_item", { operation: "addItem", listName: "הרשימה", items: ["אוהל"] });
    const asked = await h.say("תוסיף אוהל לרשימה");
    expect(asked.options.map((o) => o.label)).toEqual(["Shopping", "Packing"]);
    expect((await h.say("Packing")).text).toContain("➕ הוספתי לרשימה *Packing*: אוהל");

    await stores(h).listRepo.delete(PHONE, [shopping.id]);
    for (const [listName, item] of [
      ["the list", "tent pegs"],
      ["my list", "torch"],
      ["it", "rope"],
    ] as const) {
      scriptTurn(h, "add_list_item", { operation: "addItem", listName, items: [item] });
      expect((await h.say(`add ${item} to ${listName}`)).text).toContain(`➕ Added to *Packing*: ${item}`);
    }
    expect((await stores(h).lists()).map((l) => l.name)).toEqual(["Packing"]);
  });

  it("without an LLM, 'add milk, eggs to shopping list' makes the list, in English and Hebrew", async () => {
    h = await createHarness({ llm: "none", env: { FAST_PATH: "on" } });
    const c = new Conversation(h);
    expect((await c.say("add milk, eggs to shopping list")).text).toBe(
      "📝 Created the list *shopping* and added: milk, eggs\n\n*shopping*\n1. ☐ milk\n2. ☐ eggs",
    );
    expect((await c.say("add bread to my shopping list")).text).toContain("➕ Added to *shopping*: bread");
    expect((await c.say("תוסיף חלב וביצים לרשימת קניות")).text).toBe(
      "📝 יצרתי את הרשימה *קניות* והוספתי: חלב, ביצים\n\n*קניות*\n1. ☐ חלב\n2. ☐ ביצים",
    );
    expect((await c.say("הוסף לחם לרשימת הקניות")).text).toContain("➕ הוספתי לרשימה *קניות*: לחם");
    expect((await stores(h).lists()).map((l) => [l.name, l.items.map((i) => i.text)])).toEqual(
      expect.arrayContaining([
        ["shopping", ["milk", "eggs", "bread"]],
        ["קניות", ["חלב", "ביצים", "לחם"]],
      ]),
    );
    expect(await stores(h).lists()).toHaveLength(2);
  });
});

describe("lists: names of invisible characters or of symbols", () => {
  it("refuses a list name or an item of only invisible characters, in English and Hebrew", async () => {
    h = await createHarness();
    await seedList(h, "shopping", ["milk"]);
    scriptTurn(h, "create_list", { operation: "create", listName: "\u200F\u200E" });
    expect((await h.say("create a list")).text).toBe(
      "I can't see anything in that (a list name): it has only invisible characters, such as zero-width spaces or direction marks, so I saved nothing. Send it again with its words.",
    );
    scriptTurn(h, "add_list_item", { operation: "addItem", listName: "shopping", items: ["eggs", "\u2060"] });
    expect((await h.say("תוסיף ביצים לקניות")).text).toBe(
      "אין בזה שום דבר שרואים (פריט ברשימה): רק תווים בלתי נראים, כמו רווח ברוחב אפס או סימני כיוון, אז לא שמרתי כלום. אפשר לשלוח שוב עם המילים.",
    );
    expect((await stores(h).lists()).map((l) => [l.name, l.items.map((i) => i.text)])).toEqual([
      ["shopping", ["milk"]],
    ]);
  });

  it("'%' names the list called '%' only, not every list", async () => {
    h = await createHarness();
    await seedList(h, "shopping", ["milk"]);
    await seedList(h, "%", ["discount"]);
    await seedList(h, "_", []);
    scriptTurn(h, "show_list", { operation: "get", listName: "%" });
    expect((await h.say("show list %")).text).toBe("*%*\n1. ☐ discount");
    scriptTurn(h, "delete_list", { operation: "delete", listName: "_" });
    expect((await h.say("delete list _")).text).toContain("*_*");
    expect((await stores(h).lists()).map((l) => l.name)).toEqual(["shopping", "%"]);
  });
});
