// Tasks and reminders through invokeMemoGraph: the real graph and storage, the real ChatOpenAI
// client against a scripted server (planner, then the database resolver), assertions on both the
// reply and the rows afterwards. "Now" is Thursday 5 March 2026, 12:00 in Asia/Jerusalem (UTC+2).
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import {
  Conversation,
  crashOnce,
  example,
  isListResolver,
  isTaskResolver,
  scriptTurn,
  stores,
} from "../support/databaseScript.js";
import { lastUserMessageOf } from "../support/scriptedOpenAI.js";

let h: Harness;
afterEach(async () => h?.close());

const HOUR = 3_600_000;

/** Seeds a task for the test user through the repository (already-known state for a conversation). */
async function seed(
  harness: Harness,
  key: string,
  task: Parameters<ReturnType<typeof stores>["taskRepo"]["create"]>[2],
) {
  await harness.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
  return stores(harness).taskRepo.create(PHONE, key, task);
}

describe("creating reminders", () => {
  it("sets a one-time reminder in English, computing the time in code", async () => {
    h = await createHarness();
    const c = new Conversation(h);
    scriptTurn(h, "create_task", { operation: "create", text: "call mom", dueDate: "tomorrow at 9" });
    const reply = await c.say("Remind me tomorrow at 9 to call mom");
    expect(reply).toMatchObject({
      status: "completed",
      text: "⏰ I'll remind you tomorrow at 09:00: *call mom*",
    });
    const [task] = await stores(h).tasks();
    expect(task).toMatchObject({
      text: "call mom",
      dueAt: "2026-03-06T07:00:00.000Z",
      nextFireAt: "2026-03-06T07:00:00.000Z",
      timeZone: "Asia/Jerusalem",
      completed: false,
      recurrence: null,
    });
    // The resolver saw the step, the time context and the user's words; no response-writer call.
    const resolverPrompt = lastUserMessageOf(h.server!.requests.find(isTaskResolver)!)!;
    expect(resolverPrompt).toContain("Remind me tomorrow at 9 to call mom");
    expect(resolverPrompt).toContain("[Current time: Thursday, 05/03/2026 12:00");
    expect(h.server!.requests).toHaveLength(2);
  });

  it("sets a one-time reminder in Hebrew and answers in Hebrew", async () => {
    h = await createHarness();
    const c = new Conversation(h);
    scriptTurn(h, "create_task", { operation: "create", text: "להתקשר לאמא", dueDate: "מחר ב-9" });
    const reply = await c.say("תזכיר לי מחר ב-9 להתקשר לאמא");
    expect(reply.text).toBe("⏰ אזכיר לך מחר ב-09:00: *להתקשר לאמא*");
    expect((await stores(h).tasks())[0]).toMatchObject({
      text: "להתקשר לאמא",
      dueAt: "2026-03-06T07:00:00.000Z",
    });
    example("02-reminder-he", "תזכורת חד-פעמית", c);
  });

  it("sets a daily reminder whose next ring is tomorrow at 08:00 local", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "take vitamins",
      reminderRecurrence: { type: "daily", time: "08:00" },
    });
    const reply = await h.say("remind me every day at 8 to take vitamins");
    expect(reply.text).toBe("🔁 I'll remind you every day at 08:00: *take vitamins*");
    expect((await stores(h).tasks())[0]).toMatchObject({
      dueAt: null,
      recurrence: { type: "daily", time: "08:00" },
      nextFireAt: "2026-03-06T06:00:00.000Z",
    });
  });

  it("sets a weekly reminder on two days (Hebrew), next on Monday", async () => {
    h = await createHarness();
    const c = new Conversation(h);
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "להוציא את הזבל",
      reminderRecurrence: { type: "weekly", days: [3, 1], time: "18:00" },
    });
    const reply = await c.say("תזכיר לי כל יום שני ורביעי ב-18:00 להוציא את הזבל");
    expect(reply.text).toBe("🔁 אזכיר לך כל יום שני ורביעי ב-18:00: *להוציא את הזבל*");
    expect((await stores(h).tasks())[0]).toMatchObject({
      recurrence: { type: "weekly", days: [1, 3], time: "18:00" },
      nextFireAt: "2026-03-09T16:00:00.000Z",
    });
    example("03-weekly-he", "תזכורת שבועית ביומיים", c);
  });

  it("sets a monthly reminder on the 10th at 9:00", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "pay rent",
      reminderRecurrence: { type: "monthly", dayOfMonth: 10, time: "9:00" },
    });
    const reply = await h.say("every month on the 10th at 9:00 remind me to pay rent");
    expect(reply.text).toBe("🔁 I'll remind you every month on the 10th at 09:00: *pay rent*");
    expect((await stores(h).tasks())[0]).toMatchObject({
      recurrence: { type: "monthly", dayOfMonth: 10, time: "09:00" },
      nextFireAt: "2026-03-10T07:00:00.000Z",
    });
  });

  it("sets a nudge (Hebrew 'נדנד אותי') every 15 minutes until done", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "לשתות מים",
      reminderRecurrence: { type: "nudge", interval: "15 דקות" },
    });
    const reply = await h.say("נדנד אותי כל 15 דקות לשתות מים");
    expect(reply.text).toBe("🔔 אנדנד לך כל רבע שעה עד שזה ייעשה: *לשתות מים*");
    expect((await stores(h).tasks())[0]).toMatchObject({
      recurrence: { type: "nudge", intervalMinutes: 15 },
      nextFireAt: new Date(h.clock.now() + 15 * 60_000).toISOString(),
    });
  });

  it("reminds 30 minutes before a time ('X before')", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "team meeting",
      dueDate: "tomorrow at 10am",
      reminder: "30 minutes",
    });
    const reply = await h.say("remind me 30 minutes before my team meeting tomorrow at 10am");
    expect(reply.text).toBe("⏰ *team meeting* is tomorrow at 10:00; I'll remind you 30 minutes before.");
    expect((await stores(h).tasks())[0]).toMatchObject({
      dueAt: "2026-03-06T08:00:00.000Z",
      reminderOffsetMinutes: 30,
      nextFireAt: "2026-03-06T07:30:00.000Z",
    });
  });

  it("adds several tasks at once, numbered", async () => {
    h = await createHarness();
    scriptTurn(h, "create_tasks", {
      operation: "createMultiple",
      tasks: [
        { text: "buy milk" },
        { text: "call the plumber", dueDate: "today at 17:00" },
        { text: "book flights" },
      ],
    });
    const reply = await h.say("add buy milk, call the plumber at 5pm and book flights");
    expect(reply.text).toBe(
      "✅ Added 3 tasks:\n1. buy milk\n2. call the plumber — today at 17:00\n3. book flights",
    );
    expect((await stores(h).tasks()).map((t) => t.text)).toEqual([
      "buy milk",
      "call the plumber",
      "book flights",
    ]);
  });

  it("asks when the time words cannot be read, then creates with the answer", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "water the plants",
      dueDate: "sometime soonish",
    });
    const asked = await h.say("remind me sometime soonish to water the plants");
    expect(asked).toMatchObject({
      status: "waiting",
      text: 'When should that be? I couldn\'t tell the time from "sometime soonish".',
    });
    expect(await stores(h).tasks()).toHaveLength(0);
    h.server!.enqueue({ json: { operation: "create", text: "water the plants", dueDate: "in 2 hours" } });
    const done = await h.say("in 2 hours");
    expect(done.text).toBe("⏰ I'll remind you today at 14:00: *water the plants*");
    // The second resolver call carried the user's answer.
    expect(lastUserMessageOf(h.server!.requests.filter(isTaskResolver)[1]!)).toContain("in 2 hours");
    expect((await stores(h).tasks())[0]!.dueAt).toBe(new Date(h.clock.now() + 2 * HOUR).toISOString());
  });
});

describe("listing and referring to tasks", () => {
  async function seedWeek(harness: Harness) {
    await seed(harness, "seed#1", {
      text: "Pay electricity bill",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-04T08:00:00.000Z",
    });
    await seed(harness, "seed#2", {
      text: "Dentist appointment",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-05T15:00:00.000Z",
      nextFireAt: "2026-03-05T15:00:00.000Z",
    });
    await seed(harness, "seed#3", { text: "Buy a birthday gift", timeZone: "Asia/Jerusalem" });
    await seed(harness, "seed#4", {
      text: "Submit the report",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-09T07:00:00.000Z",
    });
    await seed(harness, "seed#5", {
      text: "Take vitamins",
      timeZone: "Asia/Jerusalem",
      recurrence: { type: "daily", time: "08:00" },
      nextFireAt: "2026-03-06T06:00:00.000Z",
    });
  }

  it("lists tasks grouped (overdue, today, coming up, recurring, no date) and 'done 2' completes the second", async () => {
    h = await createHarness();
    await seedWeek(h);
    const c = new Conversation(h);
    scriptTurn(h, "list_tasks", { operation: "getAll" });
    const listing = await c.say("what's on my list?");
    expect(listing.text).toBe(
      [
        "*Your tasks:*",
        "",
        "⚠️ Overdue",
        "1. Pay electricity bill — yesterday at 10:00",
        "",
        "📅 Today",
        "2. Dentist appointment — today at 17:00",
        "",
        "🗓️ Coming up",
        "3. Submit the report — Mon 09/03 at 09:00",
        "",
        "🔁 Recurring",
        "4. Take vitamins — every day at 08:00",
        "",
        "📝 No date",
        "5. Buy a birthday gift",
        "",
        'Reply "done 2" to tick one off.',
      ].join("\n"),
    );
    scriptTurn(h, "complete_task", { operation: "complete", taskId: "#2" });
    const done = await c.say("done 2");
    expect(done.text).toBe("✅ Done: *Dentist appointment*");
    // A reminder task is deleted when done (V1 rule); the others are untouched.
    expect((await stores(h).tasks()).map((t) => t.text)).toEqual([
      "Pay electricity bill",
      "Buy a birthday gift",
      "Submit the report",
      "Take vitamins",
    ]);
    example("04-list-and-done-en", 'Listing tasks, then "done 2"', c);
  });

  it("in Hebrew: lists, then 'בוצע 3' marks a plain task completed and keeps it", async () => {
    h = await createHarness();
    await seed(h, "seed#1", { text: "לקנות מתנה", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#2", {
      text: "להגיש דוח",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-06T07:00:00.000Z",
    });
    await seed(h, "seed#3", { text: "לסדר את המחסן", timeZone: "Asia/Jerusalem" });
    const c = new Conversation(h);
    scriptTurn(h, "list_tasks", { operation: "getAll" });
    const listing = await c.say("מה המשימות שלי?");
    expect(listing.text).toBe(
      [
        "*המשימות שלך:*",
        "",
        "🗓️ בהמשך",
        "1. להגיש דוח — מחר ב-09:00",
        "",
        "📝 בלי תאריך",
        "2. לקנות מתנה",
        "3. לסדר את המחסן",
        "",
        'אפשר לענות "בוצע 2" כדי לסמן משימה.',
      ].join("\n"),
    );
    scriptTurn(h, "complete_task", { operation: "complete", taskId: "#3" });
    expect((await c.say("בוצע 3")).text).toBe("✅ בוצע: *לסדר את המחסן*");
    const tasks = await stores(h).tasks();
    expect(tasks.find((t) => t.text === "לסדר את המחסן")).toMatchObject({
      completed: true,
      completedAt: "2026-03-05T10:00:00.000Z",
    });
    expect(tasks.filter((t) => t.completed)).toHaveLength(1);
    example("05-list-and-done-he", 'רשימת משימות ו"בוצע 3"', c);
  });

  it("shows one task by name, with its subtasks", async () => {
    h = await createHarness();
    await seed(h, "seed#1", {
      text: "Plan the trip",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-07T08:00:00.000Z",
      subtasks: [{ text: "book hotel", completed: false }],
    });
    scriptTurn(h, "get_task", { operation: "get", text: "trip" });
    expect((await h.say("show me the trip task")).text).toBe(
      "*Plan the trip*\n⏰ Sat 07/03 at 10:00\nSubtasks:\n☐ book hotel",
    );
  });

  it("adds a subtask to a task named loosely", async () => {
    h = await createHarness();
    await seed(h, "seed#1", { text: "Plan the trip", timeZone: "Asia/Jerusalem" });
    scriptTurn(h, "add_subtask", { operation: "addSubtask", text: "the trip", subtask: "rent a car" });
    expect((await h.say("add 'rent a car' under the trip")).text).toBe(
      "➕ Added to *Plan the trip*: rent a car",
    );
    expect((await stores(h).tasks())[0]!.subtasks).toEqual([{ text: "rent a car", completed: false }]);
  });

  it("'move it to 18:00' right after a create moves that reminder, keeping its day", async () => {
    h = await createHarness();
    const c = new Conversation(h);
    scriptTurn(h, "create_task", { operation: "create", text: "call mom", dueDate: "tomorrow at 9" });
    await c.say("remind me tomorrow at 9 to call mom");
    scriptTurn(h, "update_task", { operation: "update", taskId: "@1", dueDate: "18:00" });
    const moved = await c.say("move it to 18:00");
    expect(moved.text).toBe("✏️ Updated: *call mom* — tomorrow at 18:00");
    expect((await stores(h).tasks())[0]).toMatchObject({
      dueAt: "2026-03-06T16:00:00.000Z",
      nextFireAt: "2026-03-06T16:00:00.000Z",
    });
    // The resolver was shown the latest action it could name as @1.
    const prompt = lastUserMessageOf(h.server!.requests.filter(isTaskResolver)[1]!)!;
    expect(prompt).toContain('@1 database.create: task "call mom" (tomorrow at 09:00)');
    example("01-reminder-en", "A one-time reminder, then moving it", c);
  });

  it("updates a task found by Hebrew words to a weekday (Hebrew)", async () => {
    h = await createHarness();
    await seed(h, "seed#1", {
      text: "להתקשר לאמא",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-06T07:00:00.000Z",
    });
    scriptTurn(h, "update_task", { operation: "update", text: "אמא", dueDate: "ביום ראשון ב-10" });
    expect((await h.say("תזיז את אמא ליום ראשון ב-10")).text).toBe(
      "✏️ עדכנתי: *להתקשר לאמא* — יום ראשון 08/03 ב-10:00",
    );
    expect((await stores(h).tasks())[0]!.dueAt).toBe("2026-03-08T08:00:00.000Z");
  });

  it("updates several tasks in one message", async () => {
    h = await createHarness();
    await seed(h, "seed#1", { text: "Call mom", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#2", { text: "Dentist appointment", timeZone: "Asia/Jerusalem" });
    scriptTurn(h, "update_tasks", {
      operation: "updateMultiple",
      updates: [
        { text: "mom", dueDate: "today at 17:00" },
        { text: "dentist", newText: "Dentist appointment (bring x-rays)" },
      ],
    });
    const reply = await h.say("call mom at 5 today, and add 'bring x-rays' to the dentist");
    expect(reply.text).toBe(
      "✏️ Updated 2 tasks:\n1. Call mom — today at 17:00\n2. Dentist appointment (bring x-rays)",
    );
    expect((await stores(h).tasks()).map((t) => [t.text, t.dueAt])).toEqual([
      ["Call mom", "2026-03-05T15:00:00.000Z"],
      ["Dentist appointment (bring x-rays)", null],
    ]);
  });
});

describe("disambiguation and not found", () => {
  async function seedCalls(harness: Harness) {
    await seed(harness, "seed#1", {
      text: "Call mom",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-05T16:00:00.000Z",
    });
    await seed(harness, "seed#2", {
      text: "Call the bank",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-06T07:00:00.000Z",
    });
  }

  it("asks which of two similar tasks, numbered with due dates, and takes the answer by number", async () => {
    h = await createHarness();
    await seedCalls(h);
    const c = new Conversation(h);
    scriptTurn(h, "complete_task", { operation: "complete", text: "call" });
    const asked = await c.say("I did the call");
    expect(asked.status).toBe("waiting");
    expect(asked.question).toBe("I found several tasks. Which one did you mean?");
    expect(asked.options.map((o) => o.label)).toEqual([
      "Call mom (today at 18:00)",
      "Call the bank (tomorrow at 09:00)",
    ]);
    expect(asked.text).toContain("1. Call mom (today at 18:00)\n2. Call the bank (tomorrow at 09:00)");
    const done = await c.say("2");
    expect(done).toMatchObject({ status: "completed", text: "✅ Done: *Call the bank*" });
    expect((await stores(h).tasks()).map((t) => t.text)).toEqual(["Call mom"]);
    // One resolver call: the answer resumed at entity resolution, not at the LLM.
    expect(h.server!.requests.filter(isTaskResolver)).toHaveLength(1);
    example("06-disambiguation-en", "Two tasks match: Memo asks which", c);
  });

  it("takes the answer by name as well (Hebrew)", async () => {
    h = await createHarness();
    await seed(h, "seed#1", {
      text: "להתקשר לאמא",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-05T16:00:00.000Z",
    });
    await seed(h, "seed#2", {
      text: "להתקשר לבנק",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-06T07:00:00.000Z",
    });
    const c = new Conversation(h);
    scriptTurn(h, "delete_task", { operation: "delete", text: "להתקשר" });
    const asked = await c.say("תמחק את להתקשר");
    expect(asked.text).toContain("מצאתי כמה משימות. למה התכוונת?");
    expect(asked.text).toContain("1. להתקשר לאמא (היום ב-18:00)");
    const done = await c.say("לבנק");
    expect(done.text).toBe("🗑️ מחקתי: *להתקשר לבנק*\nענו *בטל* כדי להחזיר.");
    expect((await stores(h).tasks()).map((t) => t.text)).toEqual(["להתקשר לאמא"]);
    example("07-disambiguation-he", "שתי משימות דומות: תשובה לפי שם", c);
  });

  it("says what it could not find, with the closest names, and asks nothing", async () => {
    h = await createHarness();
    await seedCalls(h);
    scriptTurn(h, "delete_task", { operation: "delete", text: "call grandma" });
    const reply = await h.say("delete call grandma");
    expect(reply.status).toBe("completed");
    expect(reply.text).toBe(
      'I couldn\'t find a task matching "call grandma". Did you mean "Call mom", "Call the bank"?',
    );
    expect(await stores(h).tasks()).toHaveLength(2);
  });

  it("says so when a number is not on the last list", async () => {
    h = await createHarness();
    await seedCalls(h);
    scriptTurn(h, "list_tasks", { operation: "getAll" });
    await h.say("my tasks");
    scriptTurn(h, "complete_task", { operation: "complete", taskId: "#7" });
    expect((await h.say("done 7")).text).toBe("There's no number 7 in the last list I showed you.");
    expect(await stores(h).tasks()).toHaveLength(2);
  });
});

describe("deleting and completing, with confirmation in code", () => {
  async function seedThree(harness: Harness) {
    await seed(harness, "seed#1", { text: "Buy milk", timeZone: "Asia/Jerusalem" });
    await seed(harness, "seed#2", {
      text: "Call the plumber",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-06T07:00:00.000Z",
    });
    await seed(harness, "seed#3", { text: "Book flights", timeZone: "Asia/Jerusalem" });
  }

  it("deletes one task with no question", async () => {
    h = await createHarness();
    await seedThree(h);
    scriptTurn(h, "delete_task", { operation: "delete", text: "plumber" });
    expect((await h.say("delete the plumber task")).text).toBe(
      "🗑️ Deleted: *Call the plumber*\nReply *undo* to bring it back.",
    );
    expect((await stores(h).tasks()).map((t) => t.text)).toEqual(["Buy milk", "Book flights"]);
  });

  it("'delete all' asks first even when the planner called it low risk; 'no' keeps everything, 'yes' deletes", async () => {
    h = await createHarness();
    await seedThree(h);
    const c = new Conversation(h);
    scriptTurn(h, "delete_tasks", { operation: "deleteAll" }, { riskLevel: "low", needsApproval: false });
    const asked = await c.say("delete all my tasks");
    expect(asked).toMatchObject({ status: "waiting", expectedInput: "yes_no" });
    expect(asked.question).toBe(
      "Delete these 3 tasks?\n1. Buy milk\n2. Call the plumber (tomorrow at 09:00)\n3. Book flights",
    );
    expect((await c.say("no")).text).toBe("OK, I won't do that.");
    expect(await stores(h).tasks()).toHaveLength(3);

    scriptTurn(h, "delete_tasks", { operation: "deleteAll" }, { riskLevel: "low", needsApproval: false });
    await c.say("delete all my tasks");
    expect((await c.say("yes")).text).toBe("🗑️ Deleted 3 tasks.\nReply *undo* to bring it back.");
    expect(await stores(h).tasks()).toHaveLength(0);
    example("08-delete-all-en", '"Delete all" always asks first', c);
  });

  it("deleting two tasks by their numbers asks first", async () => {
    h = await createHarness();
    await seedThree(h);
    scriptTurn(h, "list_tasks", { operation: "getAll" });
    await h.say("show my tasks");
    scriptTurn(h, "delete_tasks", { operation: "deleteMultiple", taskIds: ["#1", "#3"] });
    const asked = await h.say("delete 1 and 3");
    expect(asked.question).toBe(
      "Delete these 2 tasks?\n1. Call the plumber (tomorrow at 09:00)\n2. Book flights",
    );
    expect((await h.say("yes")).text).toBe("🗑️ Deleted 2 tasks.\nReply *undo* to bring it back.");
    expect((await stores(h).tasks()).map((t) => t.text)).toEqual(["Buy milk"]);
  });

  it("'סיימתי הכל' (complete all) asks in Hebrew and marks every open task on yes", async () => {
    h = await createHarness();
    await seed(h, "seed#1", { text: "לקנות חלב", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#2", { text: "לכבס", timeZone: "Asia/Jerusalem" });
    const c = new Conversation(h);
    scriptTurn(h, "complete_tasks", { operation: "completeAll" });
    const asked = await c.say("סיימתי את כל המשימות");
    expect(asked.question).toBe("לסמן את 2 המשימות האלה כבוצעו?\n1. לקנות חלב\n2. לכבס");
    expect((await c.say("כן")).text).toBe("✅ סימנתי 2 משימות כבוצעו.");
    expect((await stores(h).tasks()).every((t) => t.completed)).toBe(true);
    example("09-complete-all-he", "סימון כל המשימות כבוצעו", c);
  });

  it("'move all of today's tasks to tomorrow at 9' asks, then updates them", async () => {
    h = await createHarness();
    await seed(h, "seed#1", {
      text: "Email Dana",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-05T14:00:00.000Z",
    });
    await seed(h, "seed#2", { text: "Gym", timeZone: "Asia/Jerusalem", dueAt: "2026-03-05T16:00:00.000Z" });
    await seed(h, "seed#3", { text: "Taxes", timeZone: "Asia/Jerusalem", dueAt: "2026-03-10T07:00:00.000Z" });
    scriptTurn(h, "update_tasks", {
      operation: "updateAll",
      filters: { due: "today" },
      dueDate: "tomorrow at 9",
    });
    const asked = await h.say("move all of today's tasks to tomorrow at 9");
    expect(asked.question).toBe(
      "Change these 2 tasks (⏰ tomorrow at 9)?\n1. Email Dana (today at 16:00)\n2. Gym (today at 18:00)",
    );
    const done = await h.say("yes");
    expect(done.text).toBe(
      "✏️ Updated 2 tasks:\n1. Email Dana — tomorrow at 09:00\n2. Gym — tomorrow at 09:00",
    );
    expect((await stores(h).tasks()).map((t) => t.dueAt)).toEqual([
      "2026-03-06T07:00:00.000Z",
      "2026-03-06T07:00:00.000Z",
      "2026-03-10T07:00:00.000Z",
    ]);
  });

  it("done with a daily reminder keeps it and moves it to its next day", async () => {
    h = await createHarness();
    await seed(h, "seed#1", {
      text: "Take vitamins",
      timeZone: "Asia/Jerusalem",
      recurrence: { type: "daily", time: "08:00" },
      nextFireAt: "2026-03-06T06:00:00.000Z",
    });
    h.clock.advance(20 * HOUR); // Friday 08:00 local: today's reminder has rung
    scriptTurn(h, "complete_task", { operation: "complete", text: "vitamins" });
    expect((await h.say("took my vitamins")).text).toBe(
      "✅ Done for this time: *Take vitamins*. Next reminder tomorrow at 08:00.",
    );
    expect((await stores(h).tasks())[0]).toMatchObject({
      completed: false,
      nextFireAt: "2026-03-07T06:00:00.000Z",
    });
  });
});

describe("idempotency and isolation", () => {
  it("a turn re-run after a crash between executor and the end of the turn creates no duplicate", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", { operation: "create", text: "call mom", dueDate: "tomorrow at 9" });
    // The crash: memory_update fails after the executor committed the task.
    crashOnce(h);
    const first = await h.say("remind me tomorrow at 9 to call mom", { whatsappMessageId: "wamid.crash" });
    expect(first.status).toBe("failed");
    expect(await stores(h).tasks()).toHaveLength(1);

    // The inbox runs the same message again: the resolver is asked again, the executor is not.
    scriptTurn(h, "create_task", { operation: "create", text: "call mom", dueDate: "tomorrow at 9" });
    const again = await h.say("remind me tomorrow at 9 to call mom", { whatsappMessageId: "wamid.crash" });
    expect(again).toMatchObject({
      status: "completed",
      text: "⏰ I'll remind you tomorrow at 09:00: *call mom*",
    });
    expect(await stores(h).tasks()).toHaveLength(1);
    expect(h.memory.getLatestActions(PHONE)).toHaveLength(1);
  });

  it("a user can never see or change another user's tasks, whatever id the resolver names", async () => {
    h = await createHarness();
    const OTHER = "972509999999";
    await h.users.getOrCreate(OTHER, { timeZone: "Asia/Jerusalem" });
    const theirs = await stores(h, OTHER).taskRepo.create(OTHER, "other#1", {
      text: "Secret plan",
      timeZone: "Asia/Jerusalem",
    });
    await seed(h, "mine#1", { text: "My task", timeZone: "Asia/Jerusalem" });
    for (const operation of ["get", "update", "complete", "delete"] as const) {
      scriptTurn(h, `${operation}_task`, {
        operation,
        taskId: theirs.id,
        ...(operation === "update" ? { newText: "pwned" } : {}),
      });
      const reply = await h.say(`${operation} ${theirs.id}`);
      expect(reply.text).toBe("Which task do you mean?");
      expect(reply.text).not.toContain("Secret");
    }
    scriptTurn(h, "list_tasks", { operation: "getAll" });
    expect((await h.say("list my tasks")).text).not.toContain("Secret plan");
    expect(await stores(h, OTHER).tasks()).toEqual([theirs]);
  });
});

describe("routing", () => {
  it("sends task actions to the task resolver and list actions to the list resolver", async () => {
    h = await createHarness();
    h.server!.enqueue(
      plan({ steps: [step("s1", "database", "create_task"), step("s2", "database", "add_list_item")] }),
    );
    h.server!.on(isTaskResolver, { json: { operation: "create", text: "buy milk" } });
    h.server!.on(isListResolver, { json: { operation: "create", listName: "shopping", items: ["milk"] } });
    const reply = await h.say("remind me to buy milk and start a shopping list with milk");
    expect(reply.text).toBe("✅ Added: *buy milk*\n\n📝 Created the list *shopping*\n*shopping*\n1. ☐ milk");
  });
});

describe("review regressions: times and moves", () => {
  it("moving a daily reminder to 18:00 keeps it daily, at the new time", async () => {
    h = await createHarness();
    await seed(h, "seed#1", {
      text: "Take vitamins",
      timeZone: "Asia/Jerusalem",
      recurrence: { type: "daily", time: "08:00" },
      nextFireAt: "2026-03-06T06:00:00.000Z",
    });
    scriptTurn(h, "update_task", { operation: "update", text: "vitamins", dueDate: "18:00" });
    expect((await h.say("move the vitamins to 18:00")).text).toBe(
      "✏️ Updated: *Take vitamins* — every day at 18:00",
    );
    expect((await stores(h).tasks())[0]).toMatchObject({
      recurrence: { type: "daily", time: "18:00" },
      nextFireAt: "2026-03-05T16:00:00.000Z",
      dueAt: null,
    });
  });

  it("moves a task given only a date, and moves an overdue task to the next 18:00", async () => {
    h = await createHarness();
    await seed(h, "seed#1", {
      text: "Submit the report",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-09T07:00:00.000Z",
    });
    await seed(h, "seed#2", {
      text: "Pay electricity",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-04T08:00:00.000Z",
    });
    scriptTurn(h, "update_task", { operation: "update", text: "report", dueDate: "Friday" });
    expect((await h.say("move the report to Friday")).text).toBe(
      "✏️ Updated: *Submit the report* — tomorrow at 09:00",
    );
    scriptTurn(h, "update_task", { operation: "update", text: "electricity", dueDate: "to 18:00" });
    expect((await h.say("move electricity to 18:00")).text).toBe(
      "✏️ Updated: *Pay electricity* — today at 18:00",
    );
    expect((await stores(h).tasks()).map((t) => t.dueAt)).toEqual([
      "2026-03-06T07:00:00.000Z",
      "2026-03-05T16:00:00.000Z",
    ]);
  });

  it("'תזיז את זה ל-18:00' right after a Hebrew create moves it (Hebrew)", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", { operation: "create", text: "להתקשר לאמא", dueDate: "מחר ב-9" });
    await h.say("תזכיר לי מחר ב-9 להתקשר לאמא");
    scriptTurn(h, "update_task", { operation: "update", taskId: "@1", dueDate: "ל-18:00" });
    expect((await h.say("תזיז את זה ל-18:00")).text).toBe("✏️ עדכנתי: *להתקשר לאמא* — מחר ב-18:00");
    expect((await stores(h).tasks())[0]!.dueAt).toBe("2026-03-06T16:00:00.000Z");
  });

  it("a time already past is asked about, not stored silently", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", { operation: "create", text: "call mom", dueDate: "today at 09:00" });
    const asked = await h.say("remind me today at 09:00 to call mom");
    expect(asked).toMatchObject({
      status: "waiting",
      text: 'That time ("today at 09:00") has already passed. When should it be?',
    });
    h.server!.enqueue({ json: { operation: "create", text: "call mom", dueDate: "today at 18:00" } });
    expect((await h.say("18:00")).text).toBe("⏰ I'll remind you today at 18:00: *call mom*");
    expect(await stores(h).tasks()).toHaveLength(1);
  });

  it("done before today's ring of a daily reminder skips today's", async () => {
    h = await createHarness();
    await seed(h, "seed#1", {
      text: "Walk the dog",
      timeZone: "Asia/Jerusalem",
      recurrence: { type: "daily", time: "18:00" },
      nextFireAt: "2026-03-05T16:00:00.000Z",
    });
    scriptTurn(h, "complete_task", { operation: "complete", text: "dog" });
    expect((await h.say("walked the dog already")).text).toBe(
      "✅ Done for this time: *Walk the dog*. Next reminder tomorrow at 18:00.",
    );
    expect((await stores(h).tasks())[0]!.nextFireAt).toBe("2026-03-06T16:00:00.000Z");
  });

  it("a lead time on a weekly reminder rings before each occurrence, and says so", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "team meeting",
      reminder: "10 minutes",
      reminderRecurrence: { type: "weekly", days: [1], time: "10:00" },
    });
    expect((await h.say("remind me 10 minutes before my Monday 10:00 team meeting, every week")).text).toBe(
      "🔁 I'll remind you 10 minutes before, every Monday at 10:00: *team meeting*",
    );
    expect((await stores(h).tasks())[0]!.nextFireAt).toBe("2026-03-09T07:50:00.000Z");
  });

  it("too long a task gets a clear reply and nothing is stored", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", { operation: "create", text: "x".repeat(2500) });
    expect((await h.say("add this very long task")).text).toBe(
      "That's too long for me to keep (a task: up to 2,000 characters). Could you shorten it?",
    );
    expect(await stores(h).tasks()).toHaveLength(0);
  });

  it("a refused part of a multi-update rolls back the parts before it", async () => {
    h = await createHarness();
    await seed(h, "seed#1", { text: "Alpha", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#2", { text: "Bravo", timeZone: "Asia/Jerusalem" });
    scriptTurn(h, "update_tasks", {
      operation: "updateMultiple",
      updates: [
        { text: "alpha", newText: "Alpha renamed" },
        { text: "bravo", newText: "y".repeat(2500) },
      ],
    });
    expect((await h.say("rename both")).text).toContain("That's too long for me to keep");
    expect((await stores(h).tasks()).map((t) => t.text)).toEqual(["Alpha", "Bravo"]);
  });
});

describe("review regressions: naming and confirmation", () => {
  it("'delete all' with riskLevel high is asked about once, by the code's own question", async () => {
    h = await createHarness();
    await seed(h, "seed#1", { text: "Buy milk", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#2", { text: "Book flights", timeZone: "Asia/Jerusalem" });
    scriptTurn(
      h,
      "delete_tasks",
      { operation: "deleteAll" },
      { riskLevel: "high", needsApproval: true, clarificationQuestion: "Should I delete everything?" },
    );
    const asked = await h.say("delete all my tasks");
    expect(asked.question).toBe("Delete these 2 tasks?\n1. Buy milk\n2. Book flights");
    expect((await h.say("yes")).text).toBe("🗑️ Deleted 2 tasks.\nReply *undo* to bring it back.");
    expect(await stores(h).tasks()).toHaveLength(0);
  });

  it("'delete all call tasks' takes every task that names a call, one task is asked in the singular", async () => {
    h = await createHarness();
    await seed(h, "seed#1", { text: "call", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#2", { text: "call mom", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#3", { text: "call the plumber about the leak", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#4", { text: "buy milk", timeZone: "Asia/Jerusalem" });
    scriptTurn(h, "delete_tasks", { operation: "deleteAll", filters: { query: "call" } });
    const asked = await h.say("delete all the call tasks");
    expect(asked.question).toBe(
      "Delete these 3 tasks?\n1. call\n2. call mom\n3. call the plumber about the leak",
    );
    await h.say("no");
    scriptTurn(h, "complete_tasks", { operation: "completeAll", filters: { query: "milk" } });
    expect((await h.say("mark all milk tasks done")).question).toBe("Mark this task as done?\n1. buy milk");
    expect((await h.say("yes")).text).toBe("✅ Done: *buy milk*");
  });

  it("after an update of several tasks, 'done 2' means the second task of that reply", async () => {
    h = await createHarness();
    await seed(h, "seed#1", { text: "A task", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#2", { text: "B task", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#3", { text: "C task", timeZone: "Asia/Jerusalem" });
    scriptTurn(h, "list_tasks", { operation: "getAll" });
    await h.say("my tasks");
    scriptTurn(h, "update_tasks", {
      operation: "updateMultiple",
      updates: [
        { text: "C task", category: "home" },
        { text: "A task", category: "home" },
      ],
    });
    expect((await h.say("put C and A under home")).text).toBe("✏️ Updated 2 tasks:\n1. C task\n2. A task");
    scriptTurn(h, "complete_task", { operation: "complete", taskId: "#2" });
    expect((await h.say("done 2")).text).toBe("✅ Done: *A task*");
  });

  it("asks which task for one name of a multi-delete, then confirms the whole set", async () => {
    h = await createHarness();
    await seed(h, "seed#1", { text: "Call mom", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#2", { text: "Call the bank", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#3", { text: "Buy milk", timeZone: "Asia/Jerusalem" });
    scriptTurn(h, "delete_tasks", { operation: "deleteMultiple", taskIds: ["milk", "call"] });
    const which = await h.say("delete milk and the call");
    expect(which.question).toBe("I found several tasks. Which one did you mean?");
    const confirm = await h.say("the bank");
    expect(confirm.question).toBe("Delete these 2 tasks?\n1. Buy milk\n2. Call the bank");
    expect((await h.say("yes")).text).toBe("🗑️ Deleted 2 tasks.\nReply *undo* to bring it back.");
    expect((await stores(h).tasks()).map((t) => t.text)).toEqual(["Call mom"]);
  });

  it("asks which task inside an updateMultiple, and applies the change to the chosen one", async () => {
    h = await createHarness();
    await seed(h, "seed#1", { text: "Call mom", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#2", { text: "Call the bank", timeZone: "Asia/Jerusalem" });
    scriptTurn(h, "update_tasks", {
      operation: "updateMultiple",
      updates: [{ text: "call", dueDate: "today at 17:00" }],
    });
    expect((await h.say("the call at 5 today")).status).toBe("waiting");
    expect((await h.say("2")).text).toBe("✏️ Updated: *Call the bank* — today at 17:00");
    expect((await stores(h).tasks()).map((t) => t.dueAt)).toEqual([null, "2026-03-05T15:00:00.000Z"]);
  });

  it("graph-level isolation: another user's task cannot be reached by words, '#N' or '@N'", async () => {
    h = await createHarness();
    const OTHER = "972509999999";
    await h.users.getOrCreate(OTHER, { timeZone: "Asia/Jerusalem" });
    const theirs = await stores(h, OTHER).taskRepo.create(OTHER, "other#1", {
      text: "Secret plan",
      timeZone: "Asia/Jerusalem",
    });
    await seed(h, "mine#1", { text: "My task", timeZone: "Asia/Jerusalem" });
    // A window that (by corruption or a bug) names B's id in a listing and in a latest action.
    await h.memory.load(PHONE);
    await h.memory.addAssistantMessage(PHONE, "1. Secret plan", undefined, {
      numbered: { type: "task", ids: [theirs.id] },
    });
    await h.memory.pushLatestAction(PHONE, {
      createdAt: h.clock.now(),
      capability: "database",
      action: "create",
      summary: "task",
      externalIds: [theirs.id],
    });
    scriptTurn(h, "delete_task", { operation: "delete", text: "Secret plan" });
    expect((await h.say("delete the secret plan")).text).toContain(
      'I couldn\'t find a task matching "Secret plan"',
    );
    scriptTurn(h, "complete_task", { operation: "complete", taskId: "#1" });
    expect((await h.say("done 1")).text).toBe("There's no number 1 in the last list I showed you.");
    scriptTurn(h, "update_task", { operation: "update", taskId: "@1", newText: "pwned" });
    expect((await h.say("rename it to pwned")).text).toBe("Which task do you mean?");
    expect(await stores(h, OTHER).tasks()).toEqual([theirs]);
  });
});

describe("review regressions: re-runs after a crash", () => {
  it("completing a daily reminder twice (a re-run) moves it on only once", async () => {
    h = await createHarness();
    await seed(h, "seed#1", {
      text: "Take vitamins",
      timeZone: "Asia/Jerusalem",
      recurrence: { type: "daily", time: "08:00" },
      nextFireAt: "2026-03-06T06:00:00.000Z",
    });
    crashOnce(h);
    scriptTurn(h, "complete_task", { operation: "complete", text: "vitamins" });
    expect((await h.say("took vitamins", { whatsappMessageId: "wamid.v" })).status).toBe("failed");
    scriptTurn(h, "complete_task", { operation: "complete", text: "vitamins" });
    const again = await h.say("took vitamins", { whatsappMessageId: "wamid.v" });
    expect(again.text).toBe("✅ Done for this time: *Take vitamins*. Next reminder tomorrow at 08:00.");
    expect((await stores(h).tasks())[0]!.nextFireAt).toBe("2026-03-06T06:00:00.000Z");
  });

  it("a confirmed 'delete all' re-run after a crash reports the same outcome", async () => {
    h = await createHarness();
    await seed(h, "seed#1", { text: "Buy milk", timeZone: "Asia/Jerusalem" });
    await seed(h, "seed#2", { text: "Book flights", timeZone: "Asia/Jerusalem" });
    scriptTurn(h, "delete_tasks", { operation: "deleteAll" });
    await h.say("delete all my tasks", { whatsappMessageId: "wamid.q" });
    crashOnce(h);
    expect((await h.say("yes", { whatsappMessageId: "wamid.yes" })).status).toBe("failed");
    expect(await stores(h).tasks()).toHaveLength(0);
    // The inbox delivers the same "yes" again: the question is still open, the deletion is not redone.
    const again = await h.say("yes", { whatsappMessageId: "wamid.yes" });
    expect(again).toMatchObject({
      status: "completed",
      text: "🗑️ Deleted 2 tasks.\nReply *undo* to bring it back.",
    });
  });
});

describe("names of invisible characters or of symbols", () => {
  it("refuses a task name of only zero-width and direction marks, and stores a name without them at its ends", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", { operation: "create", text: "\u200B\u200F \u2066" });
    expect((await h.say("add a task")).text).toBe(
      "I can't see anything in that (a task): it has only invisible characters, such as zero-width spaces or direction marks, so I saved nothing. Send it again with its words.",
    );
    scriptTurn(h, "create_task", { operation: "create", text: "\uFEFF\u200Fלקנות 2\u200F ליטר\u200E\u00AD" });
    expect((await h.say("תוסיף משימה לקנות 2 ליטר")).text).toBe("✅ הוספתי: *לקנות 2\u200F ליטר*");
    // Marks inside the name stay: they decide how Hebrew beside digits is displayed.
    expect((await stores(h).tasks()).map((t) => t.text)).toEqual(["לקנות 2\u200F ליטר"]);
  });

  it("finds tasks named '_' and '100_%' by their names, and '%' names neither", async () => {
    h = await createHarness();
    for (const [i, text] of ["Buy milk", "100", "100_%", "_"].entries())
      await seed(h, `seed#${i}`, { text, timeZone: "Asia/Jerusalem" });
    scriptTurn(h, "complete_task", { operation: "complete", text: "100_%" });
    expect((await h.say("done 100_%")).text).toBe("✅ Done: *100_%*");
    scriptTurn(h, "delete_task", { operation: "delete", text: "_" });
    expect((await h.say("delete the task _")).text).toBe("🗑️ Deleted: *_*\nReply *undo* to bring it back.");
    scriptTurn(h, "delete_task", { operation: "delete", text: "%" });
    expect((await h.say("delete the task %")).text).toBe('I couldn\'t find a task matching "%".');
    expect((await stores(h).tasks()).map((t) => [t.text, t.completed])).toEqual([
      ["Buy milk", false],
      ["100", false],
      ["100_%", true],
    ]);
  });
});
