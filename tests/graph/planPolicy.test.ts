// The planner's policies in code (spec 002 §5.2, D12), through the real graph with a scripted model
// that plans what a careless model might: "remind me at 5 to call Dana" as a calendar event, and
// thirty events from a forwarded text marked high risk. "Now" is Thursday 5 March 2026, 12:00 in
// Asia/Jerusalem.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { asksToBeReminded, namesCalendarThing, schedulesSomething } from "../../src/nlu/reminderWords.js";
import { isTaskResolver, stores } from "../support/databaseScript.js";
import { isPlanner, PHONE, plan, step } from "../support/memoHarness.js";
import {
  calendarHarness,
  isMutateResolver,
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

/** Every task, list and event of the test user gone, and the scripted model's queue and record empty. */
async function fresh(): Promise<void> {
  const { taskRepo, tasks } = stores(h);
  await taskRepo.delete(
    PHONE,
    (await tasks()).map((task) => task.id),
  );
  await h.db.pool.query("DELETE FROM calendar_events WHERE user_phone = $1", [PHONE]);
  h.server!.reset();
}
beforeEach(fresh);

/** The policy rewrites logged since the test began. */
let logsBefore = 0;
beforeEach(() => {
  logsBefore = h.logs().length;
});
const policyRewrites = () =>
  h
    .logs()
    .slice(logsBefore)
    .filter((line) => line.event === "PLAN_POLICY_REWRITE");

describe("reminder, not calendar: a reminder the planner put in the calendar is a WhatsApp reminder", () => {
  it("remind me at 5pm to call Dana → a task that rings at 17:00, no event", async () => {
    h.server!.enqueue(
      plan({
        steps: [
          step("s1", "calendar", "create_event", { changes: { summary: "call Dana", when: "at 5pm" } }),
        ],
      }),
      { json: { operation: "create", text: "call Dana", dueDate: "2026-03-05T17:00" } },
    );
    const reply = await h.say("remind me at 5pm to call Dana");
    expect(reply.status).toBe("completed");
    const [task, ...others] = await stores(h).tasks();
    expect(others).toEqual([]);
    // 17:00 in Jerusalem (UTC+2): the scheduler rings it then.
    expect(task).toMatchObject({ text: "call Dana", nextFireAt: "2026-03-05T15:00:00.000Z" });
    expect(await storedEvents(h)).toEqual([]);
    // The step went to the task resolver, never to the calendar's.
    expect(h.server!.requests.some(isTaskResolver)).toBe(true);
    expect(h.server!.requests.some(isMutateResolver)).toBe(false);
    expect(policyRewrites().at(-1)).toMatchObject({
      policy: "reminder_not_calendar",
      planned: "calendar.create_event",
      rewritten: "database.create_task",
    });
  });

  it("תזכירי לי היום ב-17:00 להתקשר לדנה → a task that rings, no event", async () => {
    h.server!.enqueue(
      plan({
        steps: [
          step("s1", "calendar", "create_event", {
            changes: { summary: "להתקשר לדנה", when: "היום ב-17:00" },
          }),
        ],
      }),
      { json: { operation: "create", text: "להתקשר לדנה", dueDate: "2026-03-05T17:00" } },
    );
    const reply = await h.say("תזכירי לי היום ב-17:00 להתקשר לדנה");
    expect(reply.status).toBe("completed");
    expect(await stores(h).tasks()).toEqual([
      expect.objectContaining({ text: "להתקשר לדנה", nextFireAt: "2026-03-05T15:00:00.000Z" }),
    ]);
    expect(await storedEvents(h)).toEqual([]);
    expect(h.server!.requests.some(isMutateResolver)).toBe(false);
  });

  it("a nudge planned as a repeating event is a nudge: נדנד אותי כל 10 דקות לשתות מים", async () => {
    h.server!.enqueue(
      plan({
        steps: [step("s1", "calendar", "create_recurring_event", { changes: { summary: "לשתות מים" } })],
      }),
      {
        json: {
          operation: "create",
          text: "לשתות מים",
          dueDate: "2026-03-05T12:10",
          reminderRecurrence: { type: "nudge", interval: "10 minutes" },
        },
      },
    );
    expect((await h.say("נדנד אותי כל 10 דקות לשתות מים")).status).toBe("completed");
    const [task] = await stores(h).tasks();
    expect(task?.recurrence).toMatchObject({ type: "nudge", intervalMinutes: 10 });
    expect(await storedEvents(h)).toEqual([]);
  });

  it("'remind me 10 minutes before the meeting' is that meeting's own calendar reminder", async () => {
    h.server!.enqueue(
      plan({
        steps: [step("s1", "calendar", "create_event", { changes: { summary: "Meeting with Dana" } })],
      }),
      {
        json: {
          operation: "create",
          summary: "Meeting with Dana",
          start: "tomorrow at 15:00",
          reminderMinutesBefore: 10,
        },
      },
    );
    const reply = await h.say(
      "add a meeting with Dana tomorrow at 15:00 and remind me 10 minutes before the meeting",
    );
    expect(reply.status).toBe("completed");
    expect(await storedEvents(h)).toEqual([
      expect.objectContaining({ summary: "Meeting with Dana", reminderMinutesBefore: 10 }),
    ]);
    expect(await stores(h).tasks()).toEqual([]);
    expect(policyRewrites()).toEqual([]);
  });

  it("in Hebrew too: תזכיר לי חצי שעה לפני הפגישה stays the meeting's reminder", async () => {
    h.server!.enqueue(
      plan({ steps: [step("s1", "calendar", "create_event", { changes: { summary: "פגישה עם דנה" } })] }),
      {
        json: {
          operation: "create",
          summary: "פגישה עם דנה",
          start: "מחר ב-14:00",
          reminderMinutesBefore: 30,
        },
      },
    );
    expect((await h.say("תקבע פגישה עם דנה מחר ב-14:00 ותזכיר לי חצי שעה לפני הפגישה")).status).toBe(
      "completed",
    );
    expect(await storedEvents(h)).toEqual([
      expect.objectContaining({ summary: "פגישה עם דנה", reminderMinutesBefore: 30 }),
    ]);
    expect(await stores(h).tasks()).toEqual([]);
  });

  it("'book a haircut Tuesday at 10, remind me the day before' books it, with its own reminder", async () => {
    h.server!.enqueue(
      plan({ steps: [step("s1", "calendar", "create_event", { changes: { summary: "Haircut" } })] }),
      {
        json: {
          operation: "create",
          summary: "Haircut",
          start: "tuesday at 10:00",
          reminderMinutesBefore: 1440,
        },
      },
    );
    const reply = await h.say("book a haircut tuesday 10am, remind me the day before");
    expect(reply.status).toBe("completed");
    expect(await storedEvents(h)).toEqual([
      expect.objectContaining({ summary: "Haircut", reminderMinutesBefore: 1440 }),
    ]);
    expect(await stores(h).tasks()).toEqual([]);
    expect(policyRewrites()).toEqual([]);
  });

  it("a plan with an event and a reminder step of its own keeps both", async () => {
    h.server!.enqueue(
      plan({
        steps: [
          step("s1", "calendar", "create_event", { changes: { summary: "Dentist" } }),
          step("s2", "database", "create_task", { changes: { text: "bring the x-rays" } }),
        ],
      }),
    );
    h.server!.on(isMutateResolver, {
      json: { operation: "create", summary: "Dentist", start: "tomorrow at 10:00" },
    });
    h.server!.on(isTaskResolver, {
      json: { operation: "create", text: "bring the x-rays", dueDate: "2026-03-06T09:00" },
    });
    expect((await h.say("dentist tomorrow at 10, and remind me at 9 to bring the x-rays")).status).toBe(
      "completed",
    );
    expect((await storedEvents(h)).map((e) => e.summary)).toEqual(["Dentist"]);
    expect((await stores(h).tasks()).map((t) => t.text)).toEqual(["bring the x-rays"]);
  });
});

describe("a risky plan of creations asks first (D12)", () => {
  const TITLES = ["Standup 1", "Standup 2", "Standup 3", "Standup 4", "Standup 5", "Standup 6"];
  const forwarded = "[forwarded] Please add these 6 standups to the calendar, every morning next week";
  const sixEvents = () =>
    plan({
      ...RISKY,
      steps: TITLES.map((title, i) =>
        step(`s${i + 1}`, "calendar", "create_event", {
          changes: { summary: title, when: `in ${i + 2} days at 09:00` },
        }),
      ),
    });

  it("names what it creates and how many; no creates nothing", async () => {
    h.server!.enqueue(sixEvents());
    const asked = await h.say(forwarded);
    expect(asked).toMatchObject({ status: "waiting", expectedInput: "yes_no" });
    expect(asked.question).toBe(
      `That adds 6 things to your calendar at once:\n${TITLES.map((t) => `• ${t}`).join("\n")}\nShould I go ahead?`,
    );
    expect(await h.say("no")).toMatchObject({ status: "completed", text: "OK, I won't do that." });
    expect(await storedEvents(h)).toEqual([]);
    // Nothing was resolved either: the planner was the only model call.
    expect(h.server!.requests.filter((r) => !isPlanner(r))).toEqual([]);
  });

  it("yes creates them all, with no second question", async () => {
    h.server!.enqueue(sixEvents());
    expect((await h.say(forwarded)).status).toBe("waiting");
    let n = 0;
    h.server!.on(isMutateResolver, () => ({
      json: { operation: "create", summary: TITLES[n++], start: "next Monday at 09:00" },
    }));
    const done = await h.say("yes");
    expect(done.status).toBe("completed");
    expect((await storedEvents(h)).map((e) => e.summary).sort()).toEqual(TITLES);
  });

  it("in Hebrew: asks naming the reminders, לא creates nothing, כן creates them", async () => {
    const texts = ["לשלם ארנונה", "לחדש ביטוח", "להתקשר לרואה החשבון"];
    const script = () =>
      h.server!.enqueue(
        plan({
          ...RISKY,
          needsApproval: true,
          steps: texts.map((text, i) => step(`s${i + 1}`, "database", "create_task", { changes: { text } })),
        }),
      );
    const message =
      "ההודעה שהועברה אומרת: תוסיף לי שלוש משימות, לשלם ארנונה, לחדש ביטוח ולהתקשר לרואה החשבון";
    script();
    const asked = await h.say(message);
    expect(asked.question).toBe(
      `זה מוסיף 3 דברים למשימות ותזכורות בבת אחת:\n${texts.map((t) => `• ${t}`).join("\n")}\nלהמשיך?`,
    );
    expect(await h.say("לא")).toMatchObject({ status: "completed", text: "בסדר, לא אעשה את זה." });
    expect(await stores(h).tasks()).toEqual([]);

    script();
    expect((await h.say(message)).status).toBe("waiting");
    let n = 0;
    h.server!.on(isTaskResolver, () => ({ json: { operation: "create", text: texts[n++] } }));
    expect((await h.say("כן")).status).toBe("completed");
    expect((await stores(h).tasks()).map((t) => t.text).sort()).toEqual([...texts].sort());
  });

  it("a low-risk plan of creations still runs at once", async () => {
    h.server!.enqueue(
      plan({ steps: [step("s1", "calendar", "create_event", { changes: { summary: "Haircut" } })] }),
      { json: { operation: "create", summary: "Haircut", start: "tomorrow at 10:00" } },
    );
    expect((await h.say("haircut tomorrow at 10")).status).toBe("completed");
    expect((await storedEvents(h)).map((e) => e.summary)).toEqual(["Haircut"]);
  });
});

describe("a risky plan of changes is still asked about only in code", () => {
  it("deleting two events from a forwarded text: one question naming both, then done", async () => {
    await seed(h, "dentist", { summary: "Dentist", start: jlm(6, "10:00"), end: jlm(6, "11:00") });
    await seed(h, "yoga", { summary: "Yoga", start: jlm(6, "17:00"), end: jlm(6, "18:00") });
    h.server!.enqueue(
      plan({
        ...RISKY,
        steps: [
          step("s1", "calendar", "delete_event", { constraints: { summary: "Dentist" } }),
          step("s2", "calendar", "delete_event", { constraints: { summary: "Yoga" } }),
        ],
      }),
    );
    h.server!.on(
      (req) => isMutateResolver(req) && JSON.stringify(req.body).includes('\\"summary\\":\\"Dentist\\"'),
      { json: { operation: "delete", searchCriteria: { summary: "Dentist" } } },
    );
    h.server!.on(isMutateResolver, { json: { operation: "delete", searchCriteria: { summary: "Yoga" } } });
    const asked = await h.say("the forwarded text says: cancel the dentist and the yoga tomorrow");
    expect(asked.question).toContain("That deletes 2 things at once");
    expect(asked.question).not.toBe("Should I go ahead?");
    const done = await h.say("yes");
    expect(done.status).toBe("completed");
    expect(await storedEvents(h)).toEqual([]);
  });

  it("in Hebrew, one task: the code's question naming it, once", async () => {
    await stores(h).taskRepo.create(PHONE, "seed:milk", { text: "לקנות חלב", timeZone: "Asia/Jerusalem" });
    h.server!.enqueue(plan({ ...RISKY, steps: [step("s1", "database", "delete_task")] }), {
      json: { operation: "delete", text: "לקנות חלב" },
    });
    const asked = await h.say("ההודעה שהועברה אומרת: תמחק את לקנות חלב");
    expect(asked.question).toBe("למחוק את המשימה „לקנות חלב”?");
    expect((await h.say("כן")).status).toBe("completed");
    expect(await stores(h).tasks()).toEqual([]);
  });

  it("a risky plan that creates and deletes: the creation is named first, the deletion by name after", async () => {
    await stores(h).taskRepo.create(PHONE, "seed:milk", { text: "Buy milk", timeZone: "Asia/Jerusalem" });
    h.server!.enqueue(
      plan({
        ...RISKY,
        steps: [
          step("s1", "calendar", "create_event", { changes: { summary: "Party" } }),
          step("s2", "database", "delete_task", { constraints: { text: "Buy milk" } }),
        ],
      }),
    );
    h.server!.on(isMutateResolver, {
      json: { operation: "create", summary: "Party", start: "Saturday at 20:00" },
    });
    h.server!.on(isTaskResolver, { json: { operation: "delete", text: "Buy milk" } });
    const first = await h.say("the forwarded text says: add the party on Saturday at 8pm and drop buy milk");
    expect(first.question).toBe("That adds this to your calendar:\n• Party\nShould I go ahead?");
    const second = await h.say("yes");
    expect(second).toMatchObject({ status: "waiting", question: "Delete the task “Buy milk”?" });
    expect((await h.say("yes")).status).toBe("completed");
    expect((await storedEvents(h)).map((e) => e.summary)).toEqual(["Party"]);
    expect(await stores(h).tasks()).toEqual([]);
  });
});

describe("the words the reminder policy reads", () => {
  it.each([
    "remind me at 5 to call Dana",
    "Remind me tomorrow to pay rent",
    "nudge me every 10 minutes to drink water",
    "תזכיר לי בחמש להתקשר לדנה",
    "תזכירי לי מחר לשלם",
    "אפשר להזכיר לי מחר לשלם?",
    "נדנד אותי כל 10 דקות",
  ])("%s asks to be reminded", (text) => {
    expect(asksToBeReminded(text)).toBe(true);
  });

  it.each([
    "remind me 10 minutes before the meeting",
    "remind me about my dentist appointment",
    "put a reminder in my calendar",
    "תזכיר לי רבע שעה לפני הפגישה",
    "תזכיר לי על התור לרופא",
    "תוסיף ליומן תזכורת",
    "תזכיר לי על האירוע מחר",
  ])("%s names a calendar thing", (text) => {
    expect(namesCalendarThing(text)).toBe(true);
  });

  it.each([
    "remind me at 5 to call Dana",
    "תזכיר לי בחמש להתקשר לדנה",
    "remind me to buy eventual gifts",
    "תזכיר לי לבקש תורה",
  ])("%s names none", (text) => {
    expect(namesCalendarThing(text)).toBe(false);
  });

  // Something put in the calendar under another name, or a reminder timed from it: the event's own.
  it.each([
    "Schedule dinner with Dana Friday at 8 and remind me an hour before",
    "book a haircut tuesday 10am, remind me the day before",
    "Put the concert on Friday 9pm in my diary and remind me 2 hours before",
    "קבע ארוחת ערב עם דנה ביום שישי ב-8 ותזכיר לי שעה לפני",
    "תשריין לי את שישי בערב ותזכיר לי יום לפני",
  ])("%s schedules something: the calendar step stays", (text) => {
    expect(asksToBeReminded(text) && !namesCalendarThing(text)).toBe(true);
    expect(schedulesSomething(text)).toBe(true);
  });

  it.each([
    "remind me at 5 to call Dana",
    "remind me before 5 to call Dana",
    "תזכיר לי בחמש להתקשר לדנה",
    "תזכיר לי לפני חמש להתקשר לדנה",
    "remind me to book-keep tomorrow at 9",
  ])("%s schedules nothing: a reminder", (text) => {
    expect(schedulesSomething(text)).toBe(false);
  });
});
