// Repeating events from the user's own repeat words (repeatPhrase), read in code by readTime into the
// same RFC 5545 rules reminders keep, on the built-in calendar through the real graph (scripted LLM).
// "Now" is Thursday 5 March 2026, 10:00 UTC: 12:00 in Jerusalem (UTC+2 until 27 March), 05:00 in New
// York (UTC-5 until 8 March). Every occurrence keeps its local wall time across each zone's DST change.
import { afterEach, describe, expect, it } from "vitest";
import { localToInstant } from "../../../src/nlu/zonedTime.js";
import { PHONE } from "../../support/memoHarness.js";
import { calendarHarness, scriptTurn, storedEvents, type CalendarHarness } from "./calendarScript.js";

let h: CalendarHarness;
afterEach(async () => h?.close());

const NEW_YORK = "America/New_York";
const JERUSALEM = "Asia/Jerusalem";

/** A local wall time "2026-03-09 07:00" in `zone`, as an ISO instant (test-side: Intl via localToInstant is the D6 rule). */
function at(zone: string, local: string): string {
  const [date, time] = local.split(" ");
  const [year, month, day] = date!.split("-").map(Number);
  const [hour, minute] = time!.split(":").map(Number);
  return new Date(
    localToInstant({ year: year!, month: month!, day: day!, hour: hour!, minute: minute! }, zone),
  ).toISOString();
}

/** "Mon 07:00" in `zone`, read with Intl (independent of the code under test). */
function wall(iso: string, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(Date.parse(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.hour}:${parts.minute}`;
}

async function listed(h: CalendarHarness, from: string, to: string) {
  const calendar = await h.providers.forUser(PHONE);
  return calendar.listEvents({ from, to });
}

describe("every weekday at 7: the user's own week, 07:00 local across a DST change", () => {
  it("New York: Monday to Friday, 07:00 before and after 8 March", async () => {
    h = await calendarHarness({ timeZone: NEW_YORK });
    scriptTurn(h, "create_recurring_event", {
      operation: "createRecurring",
      summary: "Standup",
      repeatPhrase: "every weekday at 7",
      // The nearest V1 fields, which the words overrule.
      frequency: "daily",
    });
    const reply = await h.say("put a standup in my calendar every weekday at 7");
    expect(reply.text).toBe(
      "🔁 Added to your calendar: *Standup* — every weekday (Mon–Fri) at 07:00–08:00, from today",
    );
    expect(await storedEvents(h)).toEqual([
      expect.objectContaining({
        summary: "Standup",
        start: "2026-03-05T12:00:00.000Z",
        end: "2026-03-05T13:00:00.000Z",
        timeZone: NEW_YORK,
        recurrence: { frequency: "weekly", days: [1, 2, 3, 4, 5] },
      }),
    ]);
    const week = await listed(h, at(NEW_YORK, "2026-03-05 00:00"), at(NEW_YORK, "2026-03-12 00:00"));
    expect(week.map((e) => e.start)).toEqual([
      "2026-03-05T12:00:00.000Z", // Thu, EST
      "2026-03-06T12:00:00.000Z", // Fri, EST
      "2026-03-09T11:00:00.000Z", // Mon, EDT
      "2026-03-10T11:00:00.000Z",
      "2026-03-11T11:00:00.000Z",
    ]);
    expect(week.map((e) => wall(e.start, NEW_YORK))).toEqual([
      "Thu 07:00",
      "Fri 07:00",
      "Mon 07:00",
      "Tue 07:00",
      "Wed 07:00",
    ]);
  });

  it("Jerusalem: Sunday to Thursday, 07:00 before and after 27 March", async () => {
    h = await calendarHarness({ timeZone: JERUSALEM });
    scriptTurn(h, "create_recurring_event", {
      operation: "createRecurring",
      summary: "עמידה יומית",
      repeatPhrase: "כל יום חול ב-7",
    });
    const reply = await h.say("תוסיף ליומן עמידה יומית כל יום חול ב-7");
    // 07:00 today has passed; Friday and Saturday are the weekend: Sunday the 8th.
    expect(reply.text).toBe(
      "🔁 הוספתי ליומן: *עמידה יומית* — כל יום חול (א׳–ה׳) ב-07:00–08:00, החל מיום ראשון 08/03",
    );
    expect((await storedEvents(h))[0]).toMatchObject({
      start: at(JERUSALEM, "2026-03-08 07:00"),
      recurrence: { frequency: "weekly", days: [0, 1, 2, 3, 4] },
    });
    const week = await listed(h, at(JERUSALEM, "2026-03-24 00:00"), at(JERUSALEM, "2026-03-31 00:00"));
    expect(week.map((e) => e.start)).toEqual([
      "2026-03-24T05:00:00.000Z", // Tue, +02
      "2026-03-25T05:00:00.000Z",
      "2026-03-26T05:00:00.000Z", // Thu, +02
      "2026-03-29T04:00:00.000Z", // Sun, +03
      "2026-03-30T04:00:00.000Z",
    ]);
    expect(week.map((e) => wall(e.start, JERUSALEM))).toEqual([
      "Tue 07:00",
      "Wed 07:00",
      "Thu 07:00",
      "Sun 07:00",
      "Mon 07:00",
    ]);
  });
});

describe("rules beyond V1's fields", () => {
  it("the first Sunday of every month at 10am, over three months", async () => {
    h = await calendarHarness({ timeZone: JERUSALEM });
    scriptTurn(h, "create_recurring_event", {
      operation: "createRecurring",
      summary: "Family brunch",
      repeatPhrase: "the first Sunday of every month at 10am",
      frequency: "monthly",
    });
    const reply = await h.say("family brunch the first Sunday of every month at 10am");
    // The first Sunday of March (the 1st) has passed.
    expect(reply.text).toBe(
      "🔁 Added to your calendar: *Family brunch* — on the first Sunday of every month at 10:00–11:00, from Sun 05/04",
    );
    expect((await storedEvents(h))[0]).toMatchObject({
      start: at(JERUSALEM, "2026-04-05 10:00"),
      recurrence: { frequency: "monthly", rule: "FREQ=MONTHLY;BYDAY=1SU" },
    });
    const months = await listed(h, at(JERUSALEM, "2026-03-01 00:00"), at(JERUSALEM, "2026-07-01 00:00"));
    expect(months.map((e) => e.start)).toEqual([
      at(JERUSALEM, "2026-04-05 10:00"),
      at(JERUSALEM, "2026-05-03 10:00"),
      at(JERUSALEM, "2026-06-07 10:00"),
    ]);
    expect(months.every((e) => wall(e.start, JERUSALEM) === "Sun 10:00")).toBe(true);
  });

  it("a yearly all-day birthday, said in Hebrew", async () => {
    h = await calendarHarness({ timeZone: JERUSALEM });
    scriptTurn(h, "create_recurring_event", {
      operation: "createRecurring",
      summary: "יום הולדת לאמא",
      repeatPhrase: "כל שנה ב-10 במאי",
      allDay: true,
    });
    const reply = await h.say("תוסיף ליומן יום הולדת לאמא כל שנה ב-10 במאי");
    expect(reply.text).toBe("🔁 הוספתי ליומן: *יום הולדת לאמא* — כל שנה ב-10 במאי, החל מיום ראשון 10/05");
    expect((await storedEvents(h))[0]).toMatchObject({
      allDay: true,
      start: "2026-05-10",
      end: "2026-05-11",
      recurrence: { frequency: "yearly", rule: "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=10" },
    });
    const years = await listed(h, at(JERUSALEM, "2026-01-01 00:00"), at(JERUSALEM, "2029-01-01 00:00"));
    expect(years.map((e) => e.start)).toEqual(["2026-05-10", "2027-05-10", "2028-05-10"]);
  });
});

describe("repeat words code cannot settle are asked, never guessed (D10)", () => {
  it("asks morning or afternoon for an hour 1–6", async () => {
    h = await calendarHarness({ timeZone: NEW_YORK });
    scriptTurn(h, "create_recurring_event", {
      operation: "createRecurring",
      summary: "Gym",
      repeatPhrase: "every weekday at 5",
    });
    const half = await h.say("gym every weekday at 5");
    expect(half.text).toBe('"every weekday at 5": in the morning or in the afternoon?');
    expect(await storedEvents(h)).toEqual([]);
  });

  it("asks how to repeat for 'twice a week'", async () => {
    h = await calendarHarness({ timeZone: NEW_YORK });
    scriptTurn(h, "create_recurring_event", {
      operation: "createRecurring",
      summary: "Gym",
      repeatPhrase: "twice a week at 18:00",
      frequency: "weekly",
    });
    const reply = await h.say("gym twice a week at 18:00");
    expect(reply.text).toContain('I can\'t repeat "twice a week at 18:00" exactly.');
    expect(await storedEvents(h)).toEqual([]);
  });
});
