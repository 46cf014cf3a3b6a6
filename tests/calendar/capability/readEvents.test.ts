// Looking at the calendar: "what's on tomorrow" by the fast path (no LLM at all) and by the LLM
// path, lookups of one event, free-time checks and the week's schedule analysis. Built-in calendar,
// "now" Thursday 5 March 2026, 12:00 in Asia/Jerusalem (UTC+2).
import { afterEach, describe, expect, it } from "vitest";
import {
  calendarHarness,
  isFindResolver,
  jlm,
  scriptTurn,
  seed,
  type CalendarHarness,
} from "./calendarScript.js";

let h: CalendarHarness;
afterEach(async () => h?.close());

/** Today, tomorrow, a trip over the weekend, next week: the calendar most tests look at. */
async function seedWeek(harness: CalendarHarness, hebrew = false) {
  await seed(harness, "call", {
    summary: hebrew ? "שיחה עם אבי" : "Call with Avi",
    start: jlm(5, "16:00"),
    end: jlm(5, "17:00"),
  });
  await seed(harness, "dentist", {
    summary: hebrew ? "רופא שיניים" : "Dentist",
    start: jlm(6, "09:00"),
    end: jlm(6, "10:00"),
    location: hebrew ? "המרפאה" : "Clinic",
  });
  await seed(harness, "brunch", {
    summary: hebrew ? "בראנץ׳" : "Brunch",
    start: jlm(6, "10:30"),
    end: jlm(6, "12:00"),
  });
  await seed(harness, "trip", {
    summary: hebrew ? "טיול לאילת" : "Trip to Eilat",
    allDay: true,
    start: "2026-03-06",
    end: "2026-03-09",
  });
  await seed(harness, "yoga", {
    summary: hebrew ? "יוגה" : "Yoga",
    start: jlm(9, "19:00"),
    end: jlm(9, "20:00"),
    recurrence: { frequency: "weekly", days: [1, 3] },
  });
}

const TOMORROW_EN = [
  "📅 Your calendar, tomorrow (Fri 06/03):",
  "• Trip to Eilat (Fri 06/03 – Sun 08/03)",
  "• 09:00–10:00 Dentist 📍 Clinic",
  "• 10:30–12:00 Brunch",
].join("\n");

describe("what's on tomorrow", () => {
  it("answers 'what's on my calendar tomorrow' by the fast path, with no language model at all", async () => {
    h = await calendarHarness({ llm: "none", env: { FAST_PATH: "on" } });
    await seedWeek(h);
    const reply = await h.say("What's on my calendar tomorrow?");
    expect(reply).toMatchObject({ status: "completed", text: TOMORROW_EN });
  });

  it("answers 'מה יש לי ביומן מחר' in Hebrew by the fast path", async () => {
    h = await calendarHarness({ llm: "none", env: { FAST_PATH: "on" } });
    await seedWeek(h, true);
    const reply = await h.say("מה יש לי ביומן מחר?");
    expect(reply.text).toBe(
      [
        "📅 היומן שלך, מחר (יום שישי 06/03):",
        "• טיול לאילת (יום שישי 06/03 – יום ראשון 08/03)",
        "• 09:00–10:00 רופא שיניים 📍 המרפאה",
        "• 10:30–12:00 בראנץ׳",
      ].join("\n"),
    );
  });

  it("lists the day's events including those already past, and says when the day is empty", async () => {
    h = await calendarHarness({ llm: "none", env: { FAST_PATH: "on" } });
    await seedWeek(h);
    await seed(h, "early", { summary: "Gym", start: jlm(5, "07:00"), end: jlm(5, "08:00") });
    expect((await h.say("my calendar today")).text).toBe(
      "📅 Your calendar, today (Thu 05/03):\n• 07:00–08:00 Gym\n• 16:00–17:00 Call with Avi",
    );
    expect((await h.say("היומן שלי היום")).text).toBe(
      "📅 היומן שלך, היום (יום חמישי 05/03):\n• 07:00–08:00 Gym\n• 16:00–17:00 Call with Avi",
    );
  });

  it("answers the same question through the planner and CalendarFindResolver", async () => {
    h = await calendarHarness();
    await seedWeek(h);
    scriptTurn(h, "list_events", { operation: "getEvents", timeMin: "tomorrow" });
    const reply = await h.say("what's on tomorrow?");
    expect(reply.text).toBe(TOMORROW_EN);
    expect(h.server!.requests.filter(isFindResolver)).toHaveLength(1);
    expect(h.server!.requests).toHaveLength(2);
  });

  it("lists the next 7 days grouped by day when no range is named (Hebrew, LLM path)", async () => {
    h = await calendarHarness();
    await seedWeek(h, true);
    scriptTurn(h, "list_events", { operation: "getEvents" });
    const reply = await h.say("מה יש לי ביומן בימים הקרובים?");
    expect(reply.text).toBe(
      [
        "📅 היומן שלך, מהיום עד יום חמישי 12/03:",
        "",
        "*היום (יום חמישי 05/03)*",
        "• 16:00–17:00 שיחה עם אבי",
        "",
        "*מחר (יום שישי 06/03)*",
        "• טיול לאילת (יום שישי 06/03 – יום ראשון 08/03)",
        "• 09:00–10:00 רופא שיניים 📍 המרפאה",
        "• 10:30–12:00 בראנץ׳",
        "",
        "*יום שני 09/03*",
        "• 19:00–20:00 יוגה 🔁",
        "",
        "*יום רביעי 11/03*",
        "• 19:00–20:00 יוגה 🔁",
      ].join("\n"),
    );
  });

  it("leaves out the days and titles the user excluded", async () => {
    h = await calendarHarness();
    await seedWeek(h);
    scriptTurn(h, "list_events", {
      operation: "getEvents",
      timeMin: "2026-03-05",
      timeMax: "2026-03-11",
      excludeSummaries: ["yoga"],
      excludeDays: ["Thursday"],
    });
    const reply = await h.say("what's on until Wednesday, not counting today or yoga");
    expect(reply.text).toBe(
      [
        "📅 Your calendar, from today to Wed 11/03:",
        "",
        "*Tomorrow (Fri 06/03)*",
        "• Trip to Eilat (Fri 06/03 – Sun 08/03)",
        "• 09:00–10:00 Dentist 📍 Clinic",
        "• 10:30–12:00 Brunch",
      ].join("\n"),
    );
  });
});

describe("finding one event, free time and repeats", () => {
  it("tells when a named event is", async () => {
    h = await calendarHarness();
    await seedWeek(h);
    scriptTurn(h, "find_event", { operation: "get", summary: "dentist" });
    expect((await h.say("when is my dentist appointment?")).text).toBe(
      "📅 Your calendar, tomorrow (Fri 06/03):\n• 09:00–10:00 Dentist 📍 Clinic",
    );
  });

  it("checks a slot for conflicts", async () => {
    h = await calendarHarness();
    await seedWeek(h);
    scriptTurn(h, "check_conflicts", { operation: "checkConflicts", start: "tomorrow 09:30", end: "11:00" });
    expect((await h.say("am I free tomorrow 9:30 to 11?")).text).toBe(
      [
        "⚠️ tomorrow 09:30–11:00 overlaps:",
        "• *Dentist* — tomorrow 09:00–10:00",
        "• *Brunch* — tomorrow 10:30–12:00",
      ].join("\n"),
    );
    scriptTurn(h, "check_conflicts", { operation: "checkConflicts", start: "tomorrow 14:00" });
    expect((await h.say("and at 14:00?")).text).toBe("✅ You're free tomorrow 14:00–15:00.");
  });

  it("lists the dates of a repeating event", async () => {
    h = await calendarHarness();
    await seedWeek(h);
    scriptTurn(h, "get_recurring_instances", {
      operation: "getRecurringInstances",
      summary: "yoga",
      timeMin: "2026-03-08",
      timeMax: "2026-03-21",
    });
    expect((await h.say("when is yoga in the next two weeks?")).text).toBe(
      [
        "🔁 *Yoga* (every Monday and Wednesday at 19:00–20:00), from Sun 08/03 to Sat 21/03:",
        "• 19:00–20:00 Yoga 🔁",
        "• 19:00–20:00 Yoga 🔁",
        "• 19:00–20:00 Yoga 🔁",
        "• 19:00–20:00 Yoga 🔁",
      ].join("\n"),
    );
  });
});

describe("schedule analysis", () => {
  it("sums busy hours and offers free slots within waking hours, per day", async () => {
    h = await calendarHarness();
    await seedWeek(h);
    scriptTurn(h, "analyze_schedule", {
      operation: "analyzeSchedule",
      timeMin: "2026-03-05",
      timeMax: "2026-03-07",
    });
    const reply = await h.say("what does the rest of my week look like?");
    expect(reply.text).toBe(
      [
        "📊 Your schedule, from today to Sat 07/03: 3 events, 3.5 hours busy.",
        "Busiest: tomorrow.",
        "",
        "*Today (Thu 05/03)* — 1 event, 1 hour busy; free 12:00–16:00, 17:00–22:00",
        "*Tomorrow (Fri 06/03)* — 2 events, 2.5 hours busy; Trip to Eilat; free 08:00–09:00, 10:00–10:30, 12:00–22:00",
        "*Sat 07/03* — a free day; Trip to Eilat",
      ].join("\n"),
    );
  });

  it("answers in Hebrew", async () => {
    h = await calendarHarness();
    await seedWeek(h, true);
    scriptTurn(h, "analyze_schedule", {
      operation: "analyzeSchedule",
      timeMin: "2026-03-08",
      timeMax: "2026-03-09",
    });
    const reply = await h.say("איך נראים ראשון ושני שלי?");
    expect(reply.text).toBe(
      [
        "📊 הלו״ז שלך, מיום ראשון 08/03 עד יום שני 09/03: אירוע אחד, תפוס שעה.",
        "היום העמוס ביותר: יום שני 09/03.",
        "",
        "*יום ראשון 08/03* — יום פנוי; טיול לאילת",
        "*יום שני 09/03* — אירוע אחד, תפוס שעה; פנוי 08:00–19:00, 20:00–22:00",
      ].join("\n"),
    );
  });
});
