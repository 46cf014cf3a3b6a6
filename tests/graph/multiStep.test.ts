// Multi-step requests whose steps hand their results to each other (issue 33 item 1, D13, spec 003
// refs), in English and Hebrew, beyond those of stepRefs.test.ts and stepRefsMore.test.ts. In every
// test an item of the same kind from the previous message exists (the latest action) and must stay
// untouched. "Now" is Thursday 5 March 2026, 12:00 in Asia/Jerusalem (UTC+2).
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { calendarHarness, jlm, scriptTurn, storedEvents } from "../calendar/capability/calendarScript.js";
import { isListResolver, isTaskResolver, stores } from "../support/databaseScript.js";
import { lastUserMessageOf } from "../support/scriptedOpenAI.js";
import { gmailHarness, scriptGmailTurn } from "../gmail/support.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** One message whose plan is `steps`; the resolvers answer `ops` in the order the steps run. */
function scriptPlan(
  harness: Harness,
  steps: ReturnType<typeof step>[],
  ops: object[],
  planExtra: Parameters<typeof plan>[0] = {},
): void {
  harness.server!.enqueue(plan({ steps, ...planExtra }), ...ops.map((json) => ({ json })));
}

/** The previous message: one task made, so it is latest action 1. */
async function earlierTask(harness: Harness, text: string): Promise<void> {
  scriptPlan(harness, [step("s1", "database", "create_task")], [{ operation: "create", text }]);
  await harness.say(`add ${text}`);
}

const tasksByText = async (harness: Harness) =>
  Object.fromEntries((await stores(harness).tasks()).map((task) => [task.text, task]));

describe("an event's time flows into the task made after it", () => {
  const meetingThenTask = [
    step("s1", "calendar", "create_event"),
    step("s2", "database", "create_task", { dependsOn: ["s1"] }),
  ];

  /** The previous message made lunch tomorrow at 13:00: latest action 1, an event with a time. */
  async function afterLunch(lunch: string) {
    const harness = await calendarHarness();
    h = harness;
    scriptTurn(harness, "create_event", { operation: "create", summary: lunch, start: "2026-03-06T13:00" });
    await harness.say(`add ${lunch} tomorrow at 13:00`);
    return harness;
  }

  it("add a meeting on Sunday at 10 and a task to prepare its agenda the day before it", async () => {
    const harness = await afterLunch("Lunch with Avi");
    scriptPlan(harness, meetingThenTask, [
      { operation: "create", summary: "Team meeting", start: "2026-03-08T10:00" },
      { operation: "create", text: "prepare the agenda", dueDate: "the day before it", fromStep: "s1" },
    ]);
    await harness.say("add a meeting on Sunday at 10 and a task to prepare its agenda the day before it");
    const events = Object.fromEntries((await storedEvents(harness)).map((e) => [e.summary, e.start]));
    expect(events).toEqual({ "Lunch with Avi": jlm(6, "13:00"), "Team meeting": jlm(8, "10:00") });
    // The day before Sunday's meeting is Saturday; a day with no time is due at 09:00.
    const task = (await tasksByText(harness))["prepare the agenda"];
    expect(task?.dueAt).toBe(jlm(7, "09:00"));
    // The model handed over words; the instant came from the meeting the first step made.
    const second = harness.server!.requests.filter(isTaskResolver).at(-1)!;
    expect(lastUserMessageOf(second)).toContain('s1 calendar.create: event "Team meeting"');
  });

  it("in Hebrew: תקבע פגישה מחר ב-15:00 ומשימה להכין את סדר היום שעה לפני", async () => {
    const harness = await afterLunch("ארוחת צהריים עם אבי");
    scriptPlan(harness, meetingThenTask, [
      { operation: "create", summary: "פגישת צוות", start: "2026-03-06T15:00" },
      { operation: "create", text: "להכין את סדר היום", dueDate: "שעה לפני" },
    ]);
    await harness.say("תקבע פגישה מחר ב-15:00 ומשימה להכין את סדר היום שעה לפני");
    // An hour before the meeting (15:00), not before the lunch of the previous message (13:00).
    expect((await tasksByText(harness))["להכין את סדר היום"]?.dueAt).toBe(jlm(6, "14:00"));
    const events = Object.fromEntries((await storedEvents(harness)).map((e) => [e.summary, e.start]));
    expect(events).toEqual({ "ארוחת צהריים עם אבי": jlm(6, "13:00"), "פגישת צוות": jlm(6, "15:00") });
  });

  it("words relative to the meeting that say no amount are asked about, never guessed", async () => {
    const harness = await afterLunch("Lunch with Avi");
    scriptPlan(harness, meetingThenTask, [
      { operation: "create", summary: "Team meeting", start: "2026-03-08T10:00" },
      { operation: "create", text: "prepare the agenda", dueDate: "a bit before it", fromStep: "s1" },
    ]);
    const reply = await harness.say("add a meeting on Sunday at 10 and a task to prepare a bit before it");
    expect(reply.text).toContain("a bit before it");
    expect(await tasksByText(harness)).toEqual({});
    expect((await storedEvents(harness)).map((e) => e.summary)).toEqual(["Lunch with Avi", "Team meeting"]);
  });
});

describe("several tasks found by one search, then completed", () => {
  const findThenComplete = [
    step("s1", "database", "list_tasks"),
    step("s2", "database", "complete_tasks", { dependsOn: ["s1"] }),
  ];

  async function withReportTasks(harness: Harness, words: [string, string, string]): Promise<void> {
    await harness.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    const repo = stores(harness).taskRepo;
    for (const [i, text] of words.entries())
      await repo.create(PHONE, `seed#${i}`, { text, timeZone: "Asia/Jerusalem" });
  }

  for (const [language, words, earlier, query, said, yes, completeOp] of [
    [
      "English",
      ["write the report", "print the report", "buy milk"],
      "call the plumber",
      "report",
      "find my tasks about the report and complete them",
      "yes",
      { operation: "completeAll", fromStep: "s1" },
    ],
    [
      "Hebrew",
      ["לכתוב את הדוח", "להדפיס את הדוח", "לקנות חלב"],
      "להתקשר לאינסטלטור",
      "הדוח",
      "תמצא את המשימות על הדוח ותסמן אותן כבוצעות",
      "כן",
      { operation: "completeAll" },
    ],
  ] as const) {
    it(`completes exactly the two tasks the search found (${language})`, async () => {
      h = await createHarness();
      await withReportTasks(h, [...words]);
      await earlierTask(h, earlier);
      scriptPlan(h, findThenComplete, [{ operation: "getAll", filters: { query } }, completeOp]);
      const asked = await h.say(said);
      expect(asked.text).toContain(words[0]);
      expect(asked.text).toContain(words[1]);
      expect(asked.text).not.toContain(earlier);
      await h.say(yes);
      const done = Object.fromEntries(
        Object.entries(await tasksByText(h)).map(([text, task]) => [text, task.completed]),
      );
      expect(done).toEqual({ [words[0]]: true, [words[1]]: true, [words[2]]: false, [earlier]: false });
    });
  }

  it("a search that finds nothing: the completion is skipped and the reply names both", async () => {
    h = await createHarness();
    await withReportTasks(h, ["write the report", "print the report", "buy milk"]);
    await earlierTask(h, "call the plumber");
    scriptPlan(h, findThenComplete, [{ operation: "getAll", filters: { query: "tax return" } }]);
    const reply = await h.say("find my tasks about the tax return and complete them");
    expect(reply.text).toContain("So I didn't mark the tasks done: I couldn't find the tasks “tax return”.");
    expect((await stores(h).tasks({ completed: true })).map((task) => task.text)).toEqual([]);
    // The completion's resolver was never asked.
    expect(h.server!.requests.filter(isTaskResolver)).toHaveLength(2);
  });
});

describe("the task just listed by number is deleted, and another added", () => {
  for (const [language, listWords, said, newText] of [
    ["English", "what's on my list?", "delete 2 and add buy bread", "buy bread"],
    ["Hebrew", "מה המשימות שלי?", "תמחק את 2 ותוסיף לקנות לחם", "לקנות לחם"],
  ] as const) {
    it(`deletes item 2 of the listing, not the task the previous message made (${language})`, async () => {
      h = await createHarness();
      await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
      const repo = stores(h).taskRepo;
      await repo.create(PHONE, "seed#1", {
        text: "Pay electricity bill",
        timeZone: "Asia/Jerusalem",
        dueAt: "2026-03-04T08:00:00.000Z",
      });
      await repo.create(PHONE, "seed#2", { text: "Buy a birthday gift", timeZone: "Asia/Jerusalem" });
      await earlierTask(h, "Call Dana");
      scriptPlan(h, [step("s1", "database", "list_tasks")], [{ operation: "getAll" }]);
      const listing = await h.say(listWords);
      expect(listing.text).toContain("1. Pay electricity bill");
      expect(listing.text).toContain("2. Buy a birthday gift");
      scriptPlan(
        h,
        [step("s1", "database", "delete_task"), step("s2", "database", "create_task", { dependsOn: ["s1"] })],
        [
          { operation: "delete", taskId: "#2" },
          { operation: "create", text: newText },
        ],
      );
      await h.say(said);
      expect(Object.keys(await tasksByText(h)).sort()).toEqual(
        ["Call Dana", "Pay electricity bill", newText].sort(),
      );
    });
  }
});

describe("a note, and a reminder to act on it", () => {
  async function notesOf(harness: Harness): Promise<string[]> {
    const { rows } = await harness.db.pool.query<{ content: string }>(
      "SELECT content FROM notes WHERE user_phone = $1 ORDER BY seq",
      [PHONE],
    );
    return rows.map((r) => r.content);
  }

  for (const [language, earlierNote, note, reminder, said] of [
    [
      "English",
      "the wifi password is HappyCat42",
      "the car insurance renews on 1 April",
      "renew the car insurance",
      "note that the car insurance renews on 1 April and remind me tomorrow at 9 to renew it",
    ],
    [
      "Hebrew",
      "הסיסמה של הוויפי היא HappyCat42",
      "ביטוח הרכב מתחדש ב-1 באפריל",
      "לחדש את ביטוח הרכב",
      "תרשום שביטוח הרכב מתחדש ב-1 באפריל ותזכיר לי מחר ב-9 לחדש אותו",
    ],
  ] as const) {
    it(`stores the note and sets the reminder about it, the earlier note untouched (${language})`, async () => {
      h = await createHarness();
      await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
      await earlierTask(h, "call the plumber");
      scriptPlan(
        h,
        [step("s1", "second-brain", "store_note")],
        [{ operation: "store", content: earlierNote }],
      );
      await h.say(`keep a note that ${earlierNote}`);
      scriptPlan(
        h,
        [
          step("s1", "second-brain", "store_note"),
          step("s2", "database", "create_task", { dependsOn: ["s1"] }),
        ],
        [
          { operation: "store", content: note },
          { operation: "create", text: reminder, dueDate: "2026-03-06T09:00", fromStep: "s1" },
        ],
      );
      await h.say(said);
      expect(await notesOf(h)).toEqual([earlierNote, note]);
      const tasks = await tasksByText(h);
      expect(tasks[reminder]?.dueAt).toBe("2026-03-06T07:00:00.000Z");
      expect(tasks["call the plumber"]).toMatchObject({ dueAt: null, completed: false });
      // The reminder's resolver was shown the note this message stored, not the earlier one.
      const message = lastUserMessageOf(h.server!.requests.filter(isTaskResolver).at(-1)!) ?? "";
      const earlierSteps = message.split("## Earlier steps of this message")[1]?.split("\n## ")[0] ?? "";
      expect(earlierSteps).toContain(`s1 notes.store: note "${note}"`);
      expect(earlierSteps).not.toContain("HappyCat42");
    });
  }
});

describe("in Hebrew, as in English", () => {
  it("an email found and forwarded: תמצא את החשבונית של דנה ותעביר אותה", async () => {
    const g = await gmailHarness();
    try {
      const { h: harness, gmail } = g;
      const news = gmail.add({ from: "News <news@example.com>", subject: "Weekly", text: "This week…" });
      gmail.add({ from: "Dana Levi <dana@example.com>", subject: "Invoice March", text: "Amount: 100" });
      scriptGmailTurn(harness, "read_email", { operation: "read", email: { from: "News" } });
      await harness.say("תקרא את הניוזלטר");
      const newsLabels = [...gmail.messages.get(news.id)!.labelIds];
      scriptPlan(
        harness,
        [step("s1", "gmail", "search_email"), step("s2", "gmail", "forward_email", { dependsOn: ["s1"] })],
        [
          { operation: "search", query: "from:dana invoice" },
          { operation: "forward", to: ["acc@example.com"], email: { words: "אותה" } },
        ],
      );
      const asked = await harness.say("תמצא את החשבונית של דנה ותעביר אותה ל-acc@example.com");
      expect(asked.text).toContain("Fwd: Invoice March");
      await harness.say("כן");
      expect(gmail.sent).toEqual([
        expect.objectContaining({ to: "acc@example.com", subject: "Fwd: Invoice March" }),
      ]);
      expect(gmail.messages.get(news.id)!.labelIds).toEqual(newsLabels);
    } finally {
      await g.close();
    }
  });

  it("a task and a nudge on it: תזכיר לי ב-18:00 להתקשר לדנה ותנדנד לי על זה", async () => {
    h = await createHarness();
    await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    scriptPlan(
      h,
      [step("s1", "database", "create_task")],
      [{ operation: "create", text: "לשלם חשבון חשמל", dueDate: "2026-03-06T09:00" }],
    );
    await h.say("תזכיר לי מחר ב-9 לשלם חשבון חשמל");
    scriptPlan(
      h,
      [step("s1", "database", "create_task"), step("s2", "database", "update_task", { dependsOn: ["s1"] })],
      [
        { operation: "create", text: "להתקשר לדנה", dueDate: "2026-03-05T18:00" },
        { operation: "update", text: "זה", reminderRecurrence: { type: "nudge", interval: "10 minutes" } },
      ],
    );
    await h.say("תזכיר לי ב-18:00 להתקשר לדנה ותנדנד לי על זה כל 10 דקות");
    const tasks = await tasksByText(h);
    expect(tasks["להתקשר לדנה"]?.recurrence).toMatchObject({ type: "nudge", intervalMinutes: 10 });
    expect(tasks["לשלם חשבון חשמל"]?.recurrence).toBeNull();
  });

  it("step 2 names another list explicitly: צור רשימה קמפינג ותוסיף לחם לרשימת קניות", async () => {
    h = await createHarness();
    scriptPlan(
      h,
      [step("s1", "database", "create_list")],
      [{ operation: "create", listName: "קניות", items: ["חלב"] }],
    );
    await h.say("צור רשימת קניות עם חלב");
    scriptPlan(
      h,
      [step("s1", "database", "create_list"), step("s2", "database", "add_list_item", { dependsOn: ["s1"] })],
      [
        { operation: "create", listName: "קמפינג" },
        { operation: "addItem", listName: "קניות", items: ["לחם"] },
      ],
    );
    await h.say("צור רשימה קמפינג ותוסיף לחם לרשימת קניות");
    const items = Object.fromEntries(
      (await stores(h).lists()).map((list) => [list.name, list.items.map((item) => item.text)]),
    );
    expect(items).toEqual({ קניות: ["חלב", "לחם"], קמפינג: [] });
  });

  it("a list that is not there: the addition is skipped, and the reply names what and why", async () => {
    h = await createHarness();
    scriptPlan(
      h,
      [step("s1", "database", "create_list")],
      [{ operation: "create", listName: "קניות", items: ["חלב"] }],
    );
    await h.say("צור רשימת קניות עם חלב");
    scriptPlan(
      h,
      [
        step("s1", "database", "show_list", { constraints: { listName: "ציוד טיולים" } }),
        step("s2", "database", "add_list_item", { dependsOn: ["s1"], changes: { items: ["חבל"] } }),
      ],
      [{ operation: "get", listName: "ציוד טיולים" }],
    );
    const reply = await h.say("תפתח את רשימת ציוד טיולים ותוסיף לה חבל");
    expect(reply.text).toContain("לכן לא המשכתי להוסיף את “חבל”: לא הצלחתי למצוא את הרשימה “ציוד טיולים”.");
    expect((await stores(h).lists()).map((list) => [list.name, list.items.map((i) => i.text)])).toEqual([
      ["קניות", ["חלב"]],
    ]);
    expect(h.server!.requests.filter(isListResolver)).toHaveLength(2);
  });
});

describe("a step declined at its confirmation", () => {
  it("the step after it does not run, and the reply names what was not done and why", async () => {
    h = await createHarness();
    await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    const repo = stores(h).taskRepo;
    await repo.create(PHONE, "seed#1", { text: "water the plants", timeZone: "Asia/Jerusalem" });
    await repo.create(PHONE, "seed#2", { text: "fix the fence", timeZone: "Asia/Jerusalem" });
    await earlierTask(h, "call the plumber");
    scriptPlan(
      h,
      [
        step("s1", "database", "delete_tasks"),
        step("s2", "database", "create_task", { dependsOn: ["s1"], changes: { text: "hire a gardener" } }),
      ],
      [{ operation: "deleteMultiple", taskIds: ["water the plants", "fix the fence"] }],
    );
    const asked = await h.say("delete water the plants and fix the fence, and add hire a gardener instead");
    expect(asked.text).toContain("Delete these 2 tasks?");
    const reply = await h.say("no");
    expect(reply.text).toContain(
      "So I didn't create the task “hire a gardener”, since you chose not to delete the tasks.",
    );
    expect(Object.keys(await tasksByText(h)).sort()).toEqual([
      "call the plumber",
      "fix the fence",
      "water the plants",
    ]);
    // The creation's resolver was never asked.
    expect(h.server!.requests.filter(isTaskResolver)).toHaveLength(2);
  });
});
