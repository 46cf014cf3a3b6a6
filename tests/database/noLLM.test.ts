// With no LLM configured at all, the fast path carries the everyday commands end to end: create
// a reminder, list tasks, complete one, build a shopping list, in both languages; through the
// graph and through the WhatsApp webhook. Every such turn records zero LLM calls.
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { Conversation, example, stores } from "../support/databaseScript.js";
import { createWhatsAppHarness, textMessage, type WhatsAppHarness } from "../support/whatsappHarness.js";
import { fakeClock } from "../support/clock.js";

let h: Harness | undefined;
let w: WhatsAppHarness | undefined;
afterEach(async () => {
  await h?.close();
  await w?.close();
  h = undefined;
  w = undefined;
});

/** LLM calls of every turn logged so far. */
const llmCalls = (harness: Harness) =>
  harness
    .logs()
    .filter((l) => l.event === "turn")
    .map((l) => l.llmCalls as number);

describe("without an LLM, through the graph", () => {
  it("English: reminder, tasks, done, shopping list", async () => {
    h = await createHarness({ llm: "none", env: { FAST_PATH: "on" } });
    const c = new Conversation(h);
    expect((await c.say("remind me tomorrow at 9am to call mom")).text).toBe(
      "⏰ I'll remind you tomorrow at 09:00: *call mom*",
    );
    expect((await c.say("add task buy a birthday gift")).text).toBe("✅ Added: *buy a birthday gift*");
    expect((await c.say("my tasks")).text).toBe(
      [
        "*Your tasks:*",
        "",
        "🗓️ Coming up",
        "1. call mom — tomorrow at 09:00",
        "",
        "📝 No date",
        "2. buy a birthday gift",
        "",
        'Reply "done 2" to tick one off.',
      ].join("\n"),
    );
    expect((await c.say("done 2")).text).toBe("✅ Done: *buy a birthday gift*");
    // One task left: the hint names a number the list has.
    expect((await c.say("my tasks")).text).toContain('Reply "done 1" to tick one off.');
    expect((await c.say("create list shopping")).text).toBe("📝 Created the list *shopping*");
    expect((await c.say("add milk, eggs and bread to the shopping list")).text).toBe(
      "➕ Added to *shopping*: milk, eggs, bread\n\n*shopping*\n1. ☐ milk\n2. ☐ eggs\n3. ☐ bread",
    );
    expect((await c.say("show shopping list")).text).toBe("*shopping*\n1. ☐ milk\n2. ☐ eggs\n3. ☐ bread");
    expect((await c.say("my lists")).text).toBe("*Your lists:*\n1. shopping (3 items)");
    expect((await c.say("what's the weather like?")).text).toContain("Without a language model I understand");
    expect(llmCalls(h)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const tasks = await stores(h).tasks({ completed: false });
    expect(tasks.map((t) => [t.text, t.dueAt])).toEqual([["call mom", "2026-03-06T07:00:00.000Z"]]);
    example("12-no-llm-en", "No language model configured: the everyday commands still work", c);
  });

  it("Hebrew: reminder, nudge, tasks, done, shopping list", async () => {
    h = await createHarness({ llm: "none", env: { FAST_PATH: "on" } });
    const c = new Conversation(h);
    expect((await c.say("תזכיר לי מחר ב-9 להתקשר לאמא")).text).toBe("⏰ אזכיר לך מחר ב-09:00: *להתקשר לאמא*");
    expect((await c.say("נדנד אותי כל 15 דקות לשתות מים")).text).toBe(
      "🔔 אנדנד לך כל רבע שעה עד שזה ייעשה: *לשתות מים*",
    );
    const listing = await c.say("המשימות שלי");
    expect(listing.text).toContain("1. לשתות מים — 🔔 כל רבע שעה");
    expect(listing.text).toContain("2. להתקשר לאמא — מחר ב-09:00");
    expect((await c.say("בוצע 2")).text).toBe("✅ בוצע: *להתקשר לאמא*");
    expect((await c.say("צור רשימה קניות")).text).toBe("📝 יצרתי את הרשימה *קניות*");
    expect((await c.say("תוסיף חלב, ביצים ולחם לרשימת קניות")).text).toBe(
      "➕ הוספתי לרשימה *קניות*: חלב, ביצים, לחם\n\n*קניות*\n1. ☐ חלב\n2. ☐ ביצים\n3. ☐ לחם",
    );
    expect((await c.say("תראה לי את רשימת הקניות")).text).toBe("*קניות*\n1. ☐ חלב\n2. ☐ ביצים\n3. ☐ לחם");
    expect((await c.say("מה דעתך על הסרט?")).text).toContain("בלי מודל שפה אני מבין פקודות כמו");
    expect(llmCalls(h).every((n) => n === 0)).toBe(true);
    expect((await stores(h).tasks()).map((t) => t.text)).toEqual(["לשתות מים"]);
    example("13-no-llm-he", "בלי מודל שפה: הפקודות היומיומיות עובדות", c);
  });

  it("asks which task without an LLM too, and takes the answer", async () => {
    h = await createHarness({ llm: "none", env: { FAST_PATH: "on" } });
    await h.say("add task call mom");
    await h.say("add task call the bank");
    const asked = await h.say("done call");
    expect(asked.status).toBe("waiting");
    expect((await h.say("the bank")).text).toBe("✅ Done: *call the bank*");
    expect((await stores(h).tasks({ completed: false })).map((t) => t.text)).toEqual(["call mom"]);
  });
});

describe("fast path: what a bare number means, DST, and the switch", () => {
  it("'done 2' right after a shopping list was shown ticks item 2 off that list", async () => {
    h = await createHarness({ llm: "none", env: { FAST_PATH: "on" } });
    await h.say("add task call mom");
    await h.say("add task pay rent");
    await h.say("my tasks");
    await h.say("create list shopping");
    await h.say("add milk, eggs to the shopping list");
    expect((await h.say("done 2")).text).toBe("☑️ Checked off eggs on *shopping*");
    expect((await stores(h).tasks({ completed: true })).length).toBe(0);
  });

  it("'delete 2' / 'move 2 to friday' act on the tasks last listed, never on a shopping list's item 2", async () => {
    h = await createHarness({ llm: "none", env: { FAST_PATH: "on" } });
    await h.say("add task call mom");
    await h.say("add task pay rent");
    await h.say("add task book flights");
    await h.say("my tasks");
    expect((await h.say("delete 2")).text).toContain("*pay rent*");
    await h.say("my tasks");
    expect((await h.say("move 2 to friday")).text).toContain("*book flights*");
    const moved = (await stores(h).tasks()).find((t) => t.text === "book flights");
    expect(moved?.dueAt).not.toBeNull();
    await h.say("create list shopping");
    await h.say("add milk, eggs to the shopping list");
    // A list's items were shown last: the planner's to read (none here), nothing deleted.
    expect((await h.say("delete 2")).text).not.toContain("Deleted");
    expect((await stores(h).tasks()).map((t) => t.text).sort()).toEqual(["book flights", "call mom"]);
  });

  it("'in half an hour' on the night Israel falls back is exactly 30 minutes", async () => {
    // 2026-10-25 01:30 local, 25 minutes before 02:00 falls back to 01:00.
    h = await createHarness({
      llm: "none",
      env: { FAST_PATH: "on" },
      clock: fakeClock("2026-10-24T22:30:00Z"),
    });
    expect((await h.say("תזכיר לי בעוד חצי שעה לצאת")).text).toContain("*לצאת*");
    expect((await stores(h).tasks())[0]!.dueAt).toBe("2026-10-24T23:00:00.000Z");
  });

  it("with FAST_PATH=off, 'my tasks' goes to the planner", async () => {
    h = await createHarness({ env: { FAST_PATH: "off" } });
    h.server!.enqueue(plan({ steps: [step("s1", "database", "list_tasks")] }), {
      json: { operation: "getAll" },
    });
    expect((await h.say("my tasks")).text).toBe("You have no open tasks. 🎉");
    expect(h.server!.requests).toHaveLength(2);
  });
});

describe("with an LLM configured", () => {
  it("still answers the commands in code, and sends the rest to the planner", async () => {
    h = await createHarness({ env: { FAST_PATH: "on" } });
    expect((await h.say("remind me tomorrow at 9am to call mom")).text).toBe(
      "⏰ I'll remind you tomorrow at 09:00: *call mom*",
    );
    expect((await h.say("my tasks")).text).toContain("1. call mom — tomorrow at 09:00");
    expect(h.server!.requests).toHaveLength(0);
    // A free-form request goes to the LLM planner as before.
    h.server!.enqueue(
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
      { text: "Paris." },
    );
    expect((await h.say("what's the capital of France?")).text).toBe("Paris.");
    expect(h.server!.requests).toHaveLength(2);
  });
});

/** Sends a text through the webhook and returns Memo's reply once it is sent (the `n`th message out). */
function sayThroughWebhook(harness: WhatsAppHarness) {
  return async (text: string, n: number) => {
    await harness.deliver(textMessage(PHONE, text, harness.clock.now()));
    harness.clock.advance(1000);
    await harness.graphApi.waitForSent(n);
    await harness.idle();
    return harness.graphApi.textsTo(PHONE).at(-1);
  };
}

describe("without an LLM, through the WhatsApp webhook", () => {
  it("a known user builds a shopping list and a reminder; each reply is sent to WhatsApp", async () => {
    w = await createWhatsAppHarness({ llm: "none", clock: fakeClock("2026-03-05T10:00:00Z") });
    await w.knownUser(PHONE, "en");
    const say = sayThroughWebhook(w);
    expect(await say("remind me tomorrow at 9am to call mom", 1)).toBe(
      "⏰ I'll remind you tomorrow at 09:00: *call mom*",
    );
    expect(await say("new list groceries", 2)).toBe("📝 Created the list *groceries*");
    expect(await say("add apples to groceries list", 3)).toContain("➕ Added to *groceries*: apples");
    expect(await say("my tasks", 4)).toContain("1. call mom — tomorrow at 09:00");
    expect(await say("done 1", 5)).toBe("✅ Done: *call mom*");
  });

  it("the same in Hebrew", async () => {
    w = await createWhatsAppHarness({ llm: "none", clock: fakeClock("2026-03-05T10:00:00Z") });
    await w.knownUser(PHONE, "he");
    const say = sayThroughWebhook(w);
    expect(await say("תזכיר לי מחר ב-9 להתקשר לאמא", 1)).toBe("⏰ אזכיר לך מחר ב-09:00: *להתקשר לאמא*");
    expect(await say("רשימה חדשה קניות", 2)).toBe("📝 יצרתי את הרשימה *קניות*");
    expect(await say("תוסיף חלב לרשימת קניות", 3)).toContain("➕ הוספתי לרשימה *קניות*: חלב");
    expect(await say("המשימות שלי", 4)).toContain("1. להתקשר לאמא — מחר ב-09:00");
    expect(await say("בוצע 1", 5)).toBe("✅ בוצע: *להתקשר לאמא*");
  });
});

describe("without an LLM: names of invisible characters or of symbols", () => {
  it("refuses invisible names, keeps names of '%' and '_' apart, and finds them again", async () => {
    h = await createHarness({ llm: "none", env: { FAST_PATH: "on" } });
    const c = new Conversation(h);
    expect((await c.say("add task \u200B")).text).toBe(
      "I can't see anything in that (a task): it has only invisible characters, such as zero-width spaces or direction marks, so I saved nothing. Send it again with its words.",
    );
    expect((await c.say("צור רשימה \u200F\u200E")).text).toBe(
      "אין בזה שום דבר שרואים (שם רשימה): רק תווים בלתי נראים, כמו רווח ברוחב אפס או סימני כיוון, אז לא שמרתי כלום. אפשר לשלוח שוב עם המילים.",
    );
    expect((await c.say("add task \u200Bbuy milk\u200F")).text).toBe("✅ Added: *buy milk*");
    expect((await c.say("create list shopping")).text).toBe("📝 Created the list *shopping*");
    expect((await c.say("create list %")).text).toBe("📝 Created the list *%*");
    expect((await c.say("add coupons to the % list")).text).toContain("➕ Added to *%*: coupons");
    expect((await c.say("show % list")).text).toBe("*%*\n1. ☐ coupons");
    expect((await c.say("add task _")).text).toBe("✅ Added: *_*");
    expect((await c.say("done _")).text).toBe("✅ Done: *_*");
    expect(llmCalls(h).every((n) => n === 0)).toBe(true);
    expect((await stores(h).tasks()).map((t) => [t.text, t.completed])).toEqual([
      ["buy milk", false],
      ["_", true],
    ]);
    expect((await stores(h).lists()).map((l) => l.name)).toEqual(["shopping", "%"]);
    // A second list of a name already taken could never be told apart: refused, naming the list.
    expect((await c.say("create list Shopping")).text).toBe(
      'You already have a list *shopping*. To add to it: "add milk to shopping".',
    );
    expect((await c.say("צור רשימה %")).text).toBe('כבר יש לך רשימה *%*. כדי להוסיף אליה: "תוסיף חלב ל%".');
    expect((await c.say("create list _")).text).toBe("📝 Created the list *_*");
    expect((await stores(h).lists()).map((l) => l.name)).toEqual(["shopping", "%", "_"]);
  });
});
