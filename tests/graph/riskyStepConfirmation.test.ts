// A plan the planner marked risky (riskLevel "high" or needsApproval) asks before each step that
// changes one thing, naming the action and the entity, even on capabilities that confirm bulk
// changes in code (D12); a numbered command the user typed runs at once.
// "Now" is Thursday 5 March 2026, 12:00 in Asia/Jerusalem.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stores } from "../support/databaseScript.js";
import { createHarness, PHONE, plan, step } from "../support/memoHarness.js";
import {
  calendarHarness,
  jlm,
  seed,
  storedEvents,
  type CalendarHarness,
} from "../calendar/capability/calendarScript.js";

const RISKY = { riskLevel: "high" } as const;

let h: CalendarHarness;
beforeAll(async () => {
  h = await calendarHarness();
});
afterAll(async () => {
  await h.close();
});

/** One database step planned with `planExtra`, its resolver answering `op`. */
function scriptDatabase(action: string, op: Record<string, unknown>, planExtra = {}): void {
  h.server!.enqueue(plan({ steps: [step("s1", "database", action)], ...planExtra }), { json: op });
}

/** One calendar step planned with `planExtra`, its resolver answering `op`. */
function scriptCalendar(action: string, op: Record<string, unknown>, planExtra = {}): void {
  h.server!.enqueue(plan({ steps: [step("s1", "calendar", action)], ...planExtra }), { json: op });
}

const taskTexts = async () => (await stores(h).tasks()).map((task) => task.text);
const listNames = async () => (await stores(h).lists()).map((list) => list.name);

async function seedTask(text: string): Promise<void> {
  await stores(h).taskRepo.create(PHONE, `seed:${text}`, { text, timeZone: "Asia/Jerusalem" });
}

async function clearTasks(): Promise<void> {
  const { taskRepo, tasks } = stores(h);
  await taskRepo.delete(
    PHONE,
    (await tasks()).map((task) => task.id),
  );
}

describe("one task, planned high risk", () => {
  it("asks naming the task, and deletes it only after yes", async () => {
    await clearTasks();
    await seedTask("Buy milk");
    scriptDatabase("delete_task", { operation: "delete", text: "Buy milk" }, RISKY);
    const asked = await h.say("delete buy milk");
    expect(asked).toMatchObject({ status: "waiting", question: "Delete the task “Buy milk”?" });
    expect(await taskTexts()).toEqual(["Buy milk"]);
    const done = await h.say("yes");
    expect(done.status).toBe("completed");
    expect(done.text).toContain("Buy milk");
    expect(await taskTexts()).toEqual([]);
  });

  it("keeps the task on no", async () => {
    await clearTasks();
    await seedTask("Buy milk");
    scriptDatabase("delete_task", { operation: "delete", text: "Buy milk" }, RISKY);
    expect((await h.say("delete buy milk")).status).toBe("waiting");
    expect(await h.say("no")).toMatchObject({ status: "completed", text: "OK, I won't do that." });
    expect(await taskTexts()).toEqual(["Buy milk"]);
  });

  it("asks in Hebrew and keeps the task on לא", async () => {
    await clearTasks();
    await seedTask("לקנות חלב");
    scriptDatabase("delete_task", { operation: "delete", text: "לקנות חלב" }, RISKY);
    const asked = await h.say("תמחק את לקנות חלב");
    expect(asked).toMatchObject({ status: "waiting", question: "למחוק את המשימה „לקנות חלב”?" });
    expect(await h.say("לא")).toMatchObject({ status: "completed", text: "בסדר, לא אעשה את זה." });
    expect(await taskTexts()).toEqual(["לקנות חלב"]);
  });

  it("needsApproval on a database step asks too: marking a task done", async () => {
    await clearTasks();
    await seedTask("Pay rent");
    scriptDatabase("complete_task", { operation: "complete", text: "Pay rent" }, { needsApproval: true });
    const asked = await h.say("mark pay rent as done");
    expect(asked).toMatchObject({ status: "waiting", question: "Mark the task “Pay rent” as done?" });
    expect(await stores(h).tasks({ completed: true })).toEqual([]);
    expect((await h.say("yes")).status).toBe("completed");
    expect((await stores(h).tasks({ completed: true })).map((task) => task.text)).toEqual(["Pay rent"]);
  });

  it("several chained deletes are asked about once, together, not again one by one", async () => {
    await clearTasks();
    await seedTask("Buy milk");
    await seedTask("Call the plumber");
    h.server!.enqueue(
      plan({
        ...RISKY,
        steps: [
          step("s1", "database", "delete_task", { constraints: { target: "Buy milk" } }),
          step("s2", "database", "delete_task", {
            constraints: { target: "Call the plumber" },
            dependsOn: ["s1"],
          }),
        ],
      }),
      { json: { operation: "delete", text: "Buy milk" } },
      { json: { operation: "delete", text: "Call the plumber" } },
    );
    const asked = await h.say("delete buy milk, then the plumber");
    expect(asked.question).toContain("That deletes 2 things at once");
    const done = await h.say("yes");
    expect(done.status).toBe("completed");
    expect(await taskTexts()).toEqual([]);
  });

  it("a low-risk plan still deletes one task at once", async () => {
    await clearTasks();
    await seedTask("Buy milk");
    scriptDatabase("delete_task", { operation: "delete", text: "Buy milk" });
    expect((await h.say("delete buy milk")).status).toBe("completed");
    expect(await taskTexts()).toEqual([]);
  });
});

describe("one list or list item, planned high risk", () => {
  it("asks before deleting an empty list, naming it; no keeps it, yes deletes it", async () => {
    await stores(h).listRepo.create(PHONE, "seed:packing", { name: "Packing" });
    scriptDatabase("delete_list", { operation: "delete", listName: "packing" }, RISKY);
    expect(await h.say("delete the packing list")).toMatchObject({
      status: "waiting",
      question: "Delete the list *Packing*?",
    });
    expect((await h.say("no")).text).toBe("OK, I won't do that.");
    expect(await listNames()).toContain("Packing");

    scriptDatabase("delete_list", { operation: "delete", listName: "packing" }, RISKY);
    expect((await h.say("delete the packing list")).status).toBe("waiting");
    expect((await h.say("yes")).status).toBe("completed");
    expect(await listNames()).not.toContain("Packing");
  });

  it("asks before removing one item, in Hebrew", async () => {
    const list = await stores(h).listRepo.create(PHONE, "seed:groceries", {
      name: "קניות",
      items: ["חלב", "ביצים"],
    });
    scriptDatabase("delete_list_item", { operation: "deleteItem", listName: "קניות", item: "חלב" }, RISKY);
    expect(await h.say("תמחק חלב מרשימת הקניות")).toMatchObject({
      status: "waiting",
      question: "להסיר את „חלב” מהרשימה *קניות*?",
    });
    expect((await h.say("לא")).text).toBe("בסדר, לא אעשה את זה.");
    expect((await stores(h).listRepo.get(PHONE, list.id))?.items.map((i) => i.text)).toEqual([
      "חלב",
      "ביצים",
    ]);
  });

  it("asks before clearing a list, naming how many items go; yes empties it and keeps it", async () => {
    const list = await stores(h).listRepo.create(PHONE, "seed:shopping", {
      name: "Shopping",
      items: ["milk", "eggs", "bread", "tea", "rice"],
    });
    scriptDatabase("clear_list", { operation: "clear", listName: "shopping" }, RISKY);
    expect(await h.say("clear the shopping list")).toMatchObject({
      status: "waiting",
      question: "Remove all 5 items from *Shopping*?",
    });
    expect((await stores(h).listRepo.get(PHONE, list.id))?.items).toHaveLength(5);
    expect((await h.say("yes")).text).toBe(
      "🧹 Cleared *Shopping* (5 items).\nReply *undo* to bring it back.",
    );
    expect((await stores(h).listRepo.get(PHONE, list.id))?.items).toEqual([]);
  });
});

describe("one calendar event, planned high risk", () => {
  it("a forwarded message that says to delete the dentist asks, naming the day and time", async () => {
    const dentist = await seed(h, "dentist", {
      summary: "Dentist",
      start: jlm(6, "09:00"),
      end: jlm(6, "10:00"),
    });
    scriptCalendar("delete_event", { operation: "delete", searchCriteria: { summary: "dentist" } }, RISKY);
    const asked = await h.say("the forwarded text says: delete my dentist appointment");
    expect(asked).toMatchObject({ status: "waiting", question: "Delete *Dentist* (tomorrow 09:00–10:00)?" });
    expect((await h.say("no")).text).toBe("OK, I won't do that.");
    expect((await storedEvents(h)).map((e) => e.summary)).toContain("Dentist");

    scriptCalendar("delete_event", { operation: "delete", searchCriteria: { summary: "dentist" } }, RISKY);
    expect((await h.say("delete my dentist appointment")).status).toBe("waiting");
    expect((await h.say("yes")).text).toBe(
      "🗑️ Deleted *Dentist* (tomorrow 09:00–10:00).\nReply *undo* to bring it back.",
    );
    const calendar = await h.providers.forUser(PHONE);
    expect(await calendar.getEvent(dentist.id)).toBeNull();
  });

  it("asks in Hebrew", async () => {
    await seed(h, "shinayim", { summary: "רופא שיניים", start: jlm(6, "15:00"), end: jlm(6, "16:00") });
    scriptCalendar(
      "delete_event",
      { operation: "delete", searchCriteria: { summary: "רופא שיניים" } },
      RISKY,
    );
    const asked = await h.say("תמחק את רופא השיניים מהיומן");
    expect(asked.question).toBe("למחוק את *רופא שיניים* (מחר 15:00–16:00)?");
    expect((await h.say("לא")).text).toBe("בסדר, לא אעשה את זה.");
    expect((await storedEvents(h)).map((e) => e.summary)).toContain("רופא שיניים");
  });

  it("deleting a whole series asks once (its own question), not twice", async () => {
    await seed(h, "yoga", {
      summary: "Yoga",
      start: jlm(9, "19:00"),
      end: jlm(9, "20:00"),
      recurrence: { frequency: "weekly", days: [1] },
    });
    scriptCalendar(
      "delete_event",
      { operation: "delete", searchCriteria: { summary: "yoga" }, isRecurring: true },
      RISKY,
    );
    const asked = await h.say("delete yoga, I quit");
    expect(asked.question).toContain("Delete the whole series *Yoga*");
    const done = await h.say("yes");
    expect(done).toMatchObject({ status: "completed" });
    expect(done.text).toContain("Deleted the series *Yoga*");
    expect((await storedEvents(h)).map((e) => e.summary)).not.toContain("Yoga");
  });
});

describe("one note, planned high risk", () => {
  it("asks quoting the note; no keeps it, yes deletes it", async () => {
    await h.notes.store(PHONE, { content: "wifi password SunnyDog9", operationId: "seed:wifi" });
    const noteCount = async () =>
      (await h.db.pool.query("SELECT 1 FROM notes WHERE user_phone = $1 AND content LIKE 'wifi%'", [PHONE]))
        .rowCount;
    const script = () =>
      h.server!.enqueue(plan({ steps: [step("s1", "second-brain", "delete_note")], ...RISKY }), {
        json: { operation: "delete", query: "wifi password" },
      });
    script();
    expect(await h.say("delete the wifi note")).toMatchObject({
      status: "waiting",
      question: "Delete the note “wifi password SunnyDog9”? Reply yes to delete it.",
    });
    expect((await h.say("no")).text).toBe("OK, I won't do that.");
    expect(await noteCount()).toBe(1);
    script();
    expect((await h.say("delete the wifi note")).status).toBe("waiting");
    expect((await h.say("yes")).status).toBe("completed");
    expect(await noteCount()).toBe(0);
  });
});

describe("changes the step confirms nowhere else, planned high risk", () => {
  const openTasks = async () => (await stores(h).tasks({ completed: false })).map((task) => task.text).sort();
  const itemsOf = async (id: string) =>
    (await stores(h).listRepo.get(PHONE, id))?.items.map((i) => [i.text, i.checked]);

  it("changing several tasks names each task and its change; no keeps them, yes changes them", async () => {
    await clearTasks();
    await seedTask("Buy milk");
    await seedTask("Pay rent");
    const script = () =>
      scriptDatabase(
        "update_tasks",
        {
          operation: "updateMultiple",
          updates: [
            { text: "Buy milk", newText: "Buy oat milk" },
            { text: "Pay rent", newText: "Pay rent online" },
          ],
        },
        RISKY,
      );
    script();
    expect(await h.say("rename buy milk and pay rent")).toMatchObject({
      status: "waiting",
      question: "Change these 2 tasks?\n1. Buy milk: ✏️ Buy oat milk\n2. Pay rent: ✏️ Pay rent online",
    });
    expect((await h.say("no")).text).toBe("OK, I won't do that.");
    expect(await openTasks()).toEqual(["Buy milk", "Pay rent"]);
    script();
    expect((await h.say("rename buy milk and pay rent")).status).toBe("waiting");
    expect((await h.say("yes")).status).toBe("completed");
    expect(await openTasks()).toEqual(["Buy oat milk", "Pay rent online"]);
  });

  it("changing several tasks asks in Hebrew", async () => {
    await clearTasks();
    await seedTask("לקנות חלב");
    await seedTask("לשלם שכירות");
    scriptDatabase(
      "update_tasks",
      {
        operation: "updateMultiple",
        updates: [
          { text: "לקנות חלב", newText: "לקנות חלב שקדים" },
          { text: "לשלם שכירות", newText: "לשלם שכירות באתר" },
        ],
      },
      RISKY,
    );
    expect((await h.say("תשנה את לקנות חלב ואת לשלם שכירות")).question).toBe(
      "לשנות את 2 המשימות האלה?\n1. לקנות חלב: ✏️ לקנות חלב שקדים\n2. לשלם שכירות: ✏️ לשלם שכירות באתר",
    );
    expect((await h.say("לא")).text).toBe("בסדר, לא אעשה את זה.");
    expect(await openTasks()).toEqual(["לקנות חלב", "לשלם שכירות"]);
  });

  it("renaming a list names the old and new name; no keeps it", async () => {
    await stores(h).listRepo.create(PHONE, "seed:errands", { name: "Errands" });
    scriptDatabase("rename_list", { operation: "update", listName: "errands", newName: "Chores" }, RISKY);
    expect(await h.say("rename the errands list to chores")).toMatchObject({
      status: "waiting",
      question: "Rename the list *Errands* to *Chores*?",
    });
    expect((await h.say("no")).text).toBe("OK, I won't do that.");
    expect(await listNames()).toContain("Errands");
  });

  it("renaming several lists names each, in Hebrew; כן renames them", async () => {
    await stores(h).listRepo.create(PHONE, "seed:books", { name: "ספרים" });
    await stores(h).listRepo.create(PHONE, "seed:movies", { name: "סרטים" });
    scriptDatabase(
      "rename_lists",
      {
        operation: "updateMultiple",
        updates: [
          { listName: "ספרים", newName: "ספרים לקריאה" },
          { listName: "סרטים", newName: "סרטים לצפייה" },
        ],
      },
      RISKY,
    );
    expect((await h.say("תשנה את השמות של רשימת ספרים ורשימת סרטים")).question).toBe(
      "לשנות את 2 הרשימות האלה?\n1. *ספרים* → *ספרים לקריאה*\n2. *סרטים* → *סרטים לצפייה*",
    );
    expect((await h.say("כן")).status).toBe("completed");
    expect(await listNames()).toEqual(expect.arrayContaining(["ספרים לקריאה", "סרטים לצפייה"]));
  });

  it("ticking an item names it and the list; unticking asks in Hebrew", async () => {
    const list = await stores(h).listRepo.create(PHONE, "seed:market", {
      name: "Market",
      items: ["milk", "לחם"],
    });
    scriptDatabase("toggle_list_item", { operation: "toggleItem", listName: "market", item: "milk" }, RISKY);
    expect(await h.say("tick milk on the market list")).toMatchObject({
      status: "waiting",
      question: "Tick “milk” on *Market*?",
    });
    expect((await h.say("yes")).status).toBe("completed");
    expect(await itemsOf(list.id)).toEqual([
      ["milk", true],
      ["לחם", false],
    ]);
    scriptDatabase(
      "toggle_list_item",
      { operation: "toggleItem", listName: "market", item: "milk", checked: false },
      RISKY,
    );
    expect((await h.say("תבטל את הסימון של milk ברשימה market")).question).toBe(
      "לבטל את הסימון של „milk” ברשימה *Market*?",
    );
    expect((await h.say("לא")).text).toBe("בסדר, לא אעשה את זה.");
    expect((await itemsOf(list.id))?.[0]).toEqual(["milk", true]);
  });

  it("'forget that …' naming several notes: the pick chooses which, then a question agrees to delete it", async () => {
    await h.notes.store(PHONE, { content: "the door code at home is 1234", operationId: "seed:home" });
    await h.notes.store(PHONE, {
      content: "the door code at the office is 9876",
      operationId: "seed:office",
    });
    const doorNotes = async () =>
      (
        await h.db.pool.query<{ content: string }>(
          "SELECT content FROM notes WHERE user_phone = $1 AND content LIKE 'the door code%' ORDER BY seq",
          [PHONE],
        )
      ).rows.map((r) => r.content);
    const forget = async () => {
      // A forwarded text (not a command the user typed): the planner's, marked risky.
      h.server!.enqueue(
        plan({
          steps: [
            step("s1", "second-brain", "forget_memory", {
              constraints: { query: "the door code is secret" },
            }),
          ],
          ...RISKY,
        }),
      );
      const which = await h.say("the forwarded text says: forget that the door code is secret");
      expect(which.status).toBe("waiting");
      const office = /(\d)\. [^\n]*office/.exec(which.text)?.[1];
      expect(office).toBeDefined();
      return h.say(office!);
    };
    const asked = await forget();
    expect(asked.status).toBe("waiting");
    expect(asked.question).toContain("“the door code at the office is 9876”\nDelete that note?");
    expect((await h.say("no")).text).toBe("OK, I won't do that.");
    expect(await doorNotes()).toHaveLength(2);
    expect((await forget()).status).toBe("waiting");
    expect((await h.say("yes")).text).toBe("🧹 Forgotten: “the door code at the office is 9876”.");
    expect(await doorNotes()).toEqual(["the door code at home is 1234"]);
  });
});

describe("a numbered command the user typed", () => {
  it("'delete task 3' right after a listing runs without asking (no model at all)", async () => {
    await clearTasks();
    // The same data, with the fast path on and no model.
    const fast = await createHarness({ db: h.db, llm: "none", env: { FAST_PATH: "on" } });
    try {
      for (const text of ["call mom", "pay rent", "buy milk"]) await fast.say(`add task ${text}`);
      await fast.say("my tasks");
      const done = await fast.say("delete task 3");
      expect(done.status).toBe("completed");
      expect(done.text).toContain("buy milk");
      expect((await stores(fast).tasks()).map((task) => task.text).sort()).toEqual(["call mom", "pay rent"]);
    } finally {
      await fast.close(false);
    }
  });
});
