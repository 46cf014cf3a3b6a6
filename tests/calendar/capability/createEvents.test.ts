// Creating calendar events through invokeMemoGraph: the real graph and the built-in calendar on
// PGlite, the real ChatOpenAI client against a scripted server (planner, then the calendar
// resolver). Assertions on what the user reads and on the rows stored. "Now" is Thursday 5 March
// 2026, 12:00 in Asia/Jerusalem (UTC+2).
import { afterEach, describe, expect, it } from "vitest";
import { crashOnce } from "../../support/databaseScript.js";
import { lastUserMessageOf } from "../../support/scriptedOpenAI.js";
import {
  calendarHarness,
  isMutateResolver,
  jlm,
  scriptTurn,
  seed,
  storedEvents,
  ZONE,
  type CalendarHarness,
} from "./calendarScript.js";

let h: CalendarHarness;
afterEach(async () => h?.close());

describe("creating an event", () => {
  it("adds a meeting in English, its time read in code in the user's zone", async () => {
    h = await calendarHarness();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana",
      start: "tomorrow at 14:00",
    });
    const reply = await h.say("Add a meeting with Dana tomorrow at 14:00");
    expect(reply).toMatchObject({
      status: "completed",
      text: "📅 Added to your calendar: *Meeting with Dana* — tomorrow 14:00–15:00",
    });
    expect(await storedEvents(h)).toEqual([
      expect.objectContaining({
        summary: "Meeting with Dana",
        allDay: false,
        start: "2026-03-06T12:00:00.000Z",
        end: "2026-03-06T13:00:00.000Z",
        timeZone: ZONE,
        recurrence: null,
      }),
    ]);
    // The resolver saw the user's words and the local time; no response-writer call.
    const prompt = lastUserMessageOf(h.server!.requests.find(isMutateResolver)!)!;
    expect(prompt).toContain("Add a meeting with Dana tomorrow at 14:00");
    expect(prompt).toContain("[Current time: Thursday, 05/03/2026 12:00");
    expect(h.server!.requests).toHaveLength(2);
  });

  it("adds a meeting in Hebrew with its own calendar reminder, answering in Hebrew", async () => {
    h = await calendarHarness();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "פגישה עם דנה",
      start: "מחר ב-14:00",
      end: "15:30",
      location: "המשרד",
      reminderMinutesBefore: 30,
    });
    const reply = await h.say("תקבע לי פגישה עם דנה מחר מ-14:00 עד 15:30 במשרד, עם התראה חצי שעה לפני");
    expect(reply.text).toBe(
      "📅 הוספתי ליומן: *פגישה עם דנה* — מחר 14:00–15:30\n📍 המשרד\n🔔 התראה ביומן 30 דקות לפני",
    );
    expect(await storedEvents(h)).toEqual([
      expect.objectContaining({
        summary: "פגישה עם דנה",
        start: "2026-03-06T12:00:00.000Z",
        end: "2026-03-06T13:30:00.000Z",
        location: "המשרד",
        reminderMinutesBefore: 30,
      }),
    ]);
  });

  it("asks for the time of day when only a day was named, then creates with the answer", async () => {
    h = await calendarHarness();
    scriptTurn(h, "create_event", { operation: "create", summary: "Haircut", start: "Sunday" });
    const asked = await h.say("put a haircut in my calendar on Sunday");
    expect(asked).toMatchObject({ status: "waiting", text: "At what time on Sunday? (Or is it all day?)" });
    expect(await storedEvents(h)).toEqual([]);
    h.server!.enqueue({ json: { operation: "create", summary: "Haircut", start: "Sunday 11:00" } });
    const done = await h.say("11");
    expect(done.text).toBe("📅 Added to your calendar: *Haircut* — Sun 08/03 11:00–12:00");
    expect(lastUserMessageOf(h.server!.requests.filter(isMutateResolver)[1]!)).toContain("11");
  });

  it("asks rather than creating an event in the past", async () => {
    h = await calendarHarness();
    scriptTurn(h, "create_event", { operation: "create", summary: "Standup", start: "2026-03-05T09:00" });
    const asked = await h.say("add standup today at 9am");
    expect(asked).toMatchObject({
      status: "waiting",
      text: '"today 09:00" has already passed. When should it be?',
    });
    expect(await storedEvents(h)).toEqual([]);
  });

  it('"move it" right after creating moves the event just made (latest action)', async () => {
    h = await calendarHarness();
    scriptTurn(h, "create_event", { operation: "create", summary: "Call with Avi", start: "tomorrow 10:00" });
    await h.say("call with Avi tomorrow at 10");
    scriptTurn(h, "update_event", { operation: "update", eventId: "@1", updateFields: { start: "16:00" } });
    const moved = await h.say("move it to 16:00");
    expect(moved.text).toBe("✏️ Updated *Call with Avi* — tomorrow 16:00–17:00");
    expect(await storedEvents(h)).toEqual([
      expect.objectContaining({ start: jlm(6, "16:00"), end: jlm(6, "17:00") }),
    ]);
    // The resolver was shown the event as latest action @1.
    expect(lastUserMessageOf(h.server!.requests.filter(isMutateResolver)[1]!)).toContain(
      '@1 calendar.create: event "Call with Avi"',
    );
  });
});

describe("recurring events", () => {
  it("adds a weekly event by day names; it starts on its first day and repeats", async () => {
    h = await calendarHarness();
    scriptTurn(h, "create_recurring_event", {
      operation: "createRecurring",
      summary: "Yoga",
      frequency: "weekly",
      days: ["Monday", "Wednesday"],
      startTime: "19:00",
      endTime: "20:00",
    });
    const reply = await h.say("Yoga every Monday and Wednesday 19:00-20:00");
    expect(reply.text).toBe(
      "🔁 Added to your calendar: *Yoga* — every Monday and Wednesday at 19:00–20:00, from Mon 09/03",
    );
    expect(await storedEvents(h)).toEqual([
      expect.objectContaining({
        summary: "Yoga",
        start: jlm(9, "19:00"),
        end: jlm(9, "20:00"),
        recurrence: { frequency: "weekly", days: [1, 3] },
      }),
    ]);
    const calendar = await h.providers.forUser("972501234567");
    const nextWeek = await calendar.listEvents({ from: jlm(8, "00:00"), to: jlm(15, "00:00") });
    expect(nextWeek.map((e) => [e.summary, e.start])).toEqual([
      ["Yoga", jlm(9, "19:00")],
      ["Yoga", jlm(11, "19:00")],
    ]);
  });

  it("adds a weekly class in Hebrew until a date", async () => {
    h = await calendarHarness();
    scriptTurn(h, "create_recurring_event", {
      operation: "createRecurring",
      summary: "חוג ציור",
      days: ["Sunday"],
      startTime: "17:00",
      durationMinutes: 90,
      until: "2026-06-28",
    });
    const reply = await h.say("תוסיף ליומן חוג ציור כל יום ראשון ב-17:00 למשך שעה וחצי עד סוף יוני");
    expect(reply.text).toBe(
      "🔁 הוספתי ליומן: *חוג ציור* — כל יום ראשון ב-17:00–18:30 עד יום ראשון 28/06, החל מיום ראשון 08/03",
    );
    expect(await storedEvents(h)).toEqual([
      expect.objectContaining({
        start: jlm(8, "17:00"),
        end: jlm(8, "18:30"),
        recurrence: { frequency: "weekly", days: [0], until: "2026-06-28" },
      }),
    ]);
  });

  it("adds a monthly event by day-of-month strings", async () => {
    h = await calendarHarness();
    scriptTurn(h, "create_recurring_event", {
      operation: "createRecurring",
      summary: "Budget review",
      frequency: "monthly",
      days: ["10"],
      startTime: "09:00",
    });
    const reply = await h.say("budget review on the 10th of every month at 9");
    expect(reply.text).toBe(
      "🔁 Added to your calendar: *Budget review* — every month on the 10th at 09:00–10:00, from Tue 10/03",
    );
    expect((await storedEvents(h))[0]).toMatchObject({
      start: jlm(10, "09:00"),
      recurrence: { frequency: "monthly", daysOfMonth: [10] },
    });
  });
});

describe("all-day and multi-day events", () => {
  it("stores a three-day trip as dates, the end being the day after the last", async () => {
    h = await calendarHarness();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Trip to Eilat",
      allDay: true,
      start: "2026-03-06",
      end: "2026-03-09",
    });
    const reply = await h.say("Trip to Eilat from Friday to Sunday");
    expect(reply.text).toBe("📅 Added to your calendar: *Trip to Eilat* — Fri 06/03 – Sun 08/03 (all day)");
    expect(await storedEvents(h)).toEqual([
      expect.objectContaining({
        summary: "Trip to Eilat",
        allDay: true,
        start: "2026-03-06",
        end: "2026-03-09",
      }),
    ]);
  });

  it("stores a Hebrew trip the same way, and a trip never conflicts with meetings", async () => {
    h = await calendarHarness();
    await seed(h, "dana", { summary: "פגישה עם דנה", start: jlm(7, "10:00"), end: jlm(7, "11:00") });
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "טיול לאילת",
      allDay: true,
      start: "2026-03-06",
      end: "2026-03-09",
    });
    const reply = await h.say("טיול לאילת משישי עד ראשון");
    expect(reply).toMatchObject({
      status: "completed",
      text: "📅 הוספתי ליומן: *טיול לאילת* — יום שישי 06/03 – יום ראשון 08/03 (כל היום)",
    });
    expect((await storedEvents(h)).find((e) => e.allDay)).toMatchObject({
      start: "2026-03-06",
      end: "2026-03-09",
    });
  });
});

describe("a conflict on create", () => {
  async function withMeeting() {
    h = await calendarHarness();
    await seed(h, "dana", { summary: "Meeting with Dana", start: jlm(6, "14:00"), end: jlm(6, "15:00") });
    scriptTurn(h, "create_event", { operation: "create", summary: "Dentist", start: "tomorrow at 14:30" });
    return h.say("dentist tomorrow at 14:30");
  }

  it("names the overlapping event and creates on yes", async () => {
    const asked = await withMeeting();
    expect(asked.status).toBe("waiting");
    expect(asked.text).toContain(
      "⚠️ That overlaps *Meeting with Dana* (tomorrow 14:00–15:00). Add *Dentist* (tomorrow 14:30–15:30) anyway?",
    );
    expect((await storedEvents(h)).map((e) => e.summary)).toEqual(["Meeting with Dana"]);
    const done = await h.say("yes");
    expect(done.text).toBe("📅 Added to your calendar: *Dentist* — tomorrow 14:30–15:30");
    expect((await storedEvents(h)).map((e) => [e.summary, e.start])).toEqual([
      ["Meeting with Dana", jlm(6, "14:00")],
      ["Dentist", jlm(6, "14:30")],
    ]);
  });

  it("creates nothing on no", async () => {
    await withMeeting();
    const done = await h.say("no");
    expect(done.text).toBe("OK, I won't do that.");
    expect((await storedEvents(h)).map((e) => e.summary)).toEqual(["Meeting with Dana"]);
  });

  it("asks in Hebrew and takes כן", async () => {
    h = await calendarHarness();
    await seed(h, "dana", { summary: "פגישה עם דנה", start: jlm(6, "14:00"), end: jlm(6, "15:00") });
    scriptTurn(h, "create_event", { operation: "create", summary: "רופא שיניים", start: "מחר ב-14:30" });
    const asked = await h.say("רופא שיניים מחר ב-14:30");
    expect(asked.text).toContain(
      "⚠️ זה חופף ל: *פגישה עם דנה* (מחר 14:00–15:00). להוסיף את *רופא שיניים* (מחר 14:30–15:30) בכל זאת?",
    );
    expect((await h.say("כן")).text).toBe("📅 הוספתי ליומן: *רופא שיניים* — מחר 14:30–15:30");
    expect(await storedEvents(h)).toHaveLength(2);
  });
});

describe("a turn run again after a crash", () => {
  it("creates the event once and says the same", async () => {
    h = await calendarHarness();
    crashOnce(h);
    scriptTurn(h, "create_event", { operation: "create", summary: "Dentist", start: "tomorrow at 09:00" });
    expect((await h.say("dentist tomorrow at 9", { whatsappMessageId: "wamid.d" })).status).toBe("failed");
    expect(await storedEvents(h)).toHaveLength(1);
    // The inbox delivers the message again: the same operation, not a second event (nor a conflict with itself).
    scriptTurn(h, "create_event", { operation: "create", summary: "Dentist", start: "tomorrow at 09:00" });
    const again = await h.say("dentist tomorrow at 9", { whatsappMessageId: "wamid.d" });
    expect(again).toMatchObject({
      status: "completed",
      text: "📅 Added to your calendar: *Dentist* — tomorrow 09:00–10:00",
    });
    expect(await storedEvents(h)).toHaveLength(1);
  });

  it("a confirmed create re-run after a crash stores one event", async () => {
    h = await calendarHarness();
    await seed(h, "dana", { summary: "Meeting with Dana", start: jlm(6, "14:00"), end: jlm(6, "15:00") });
    scriptTurn(h, "create_event", { operation: "create", summary: "Dentist", start: "tomorrow at 14:30" });
    await h.say("dentist tomorrow at 14:30", { whatsappMessageId: "wamid.q" });
    crashOnce(h);
    expect((await h.say("yes", { whatsappMessageId: "wamid.yes" })).status).toBe("failed");
    const again = await h.say("yes", { whatsappMessageId: "wamid.yes" });
    expect(again.text).toBe("📅 Added to your calendar: *Dentist* — tomorrow 14:30–15:30");
    expect((await storedEvents(h)).map((e) => e.summary)).toEqual(["Meeting with Dana", "Dentist"]);
  });
});
