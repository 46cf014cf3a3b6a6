// Moving and deleting calendar events through invokeMemoGraph (built-in calendar, scripted LLM):
// disambiguation through the HITL plane, confirmations asked in code, what is stored afterwards.
// "Now" is Thursday 5 March 2026, 12:00 in Asia/Jerusalem (UTC+2).
import { afterEach, describe, expect, it } from "vitest";
import { crashOnce } from "../../support/databaseScript.js";
import { PHONE } from "../../support/memoHarness.js";
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

async function twoMeetings(summary: string) {
  h = await calendarHarness();
  await seed(h, "mon", { summary, start: jlm(9, "10:00"), end: jlm(9, "11:00") });
  await seed(h, "tue", { summary, start: jlm(10, "15:00"), end: jlm(10, "16:00") });
}

describe("moving the meeting with Dana when two match", () => {
  it("asks which, numbered with their times, and moves the one chosen by number", async () => {
    await twoMeetings("Meeting with Dana");
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "meeting with Dana" },
      updateFields: { start: "18:00" },
    });
    const asked = await h.say("move the meeting with Dana to 18:00");
    expect(asked.status).toBe("waiting");
    expect(asked.question).toBe("I found several events. Which one did you mean?");
    expect(asked.options.map((o) => o.label)).toEqual([
      "Meeting with Dana (Mon 09/03 10:00–11:00)",
      "Meeting with Dana (Tue 10/03 15:00–16:00)",
    ]);
    expect(asked.text).toContain(
      "1. Meeting with Dana (Mon 09/03 10:00–11:00)\n2. Meeting with Dana (Tue 10/03 15:00–16:00)",
    );
    const done = await h.say("2");
    expect(done).toMatchObject({
      status: "completed",
      text: "✏️ Updated *Meeting with Dana* — Tue 10/03 18:00–19:00",
    });
    expect((await storedEvents(h)).map((e) => [e.start, e.end])).toEqual([
      [jlm(9, "10:00"), jlm(9, "11:00")],
      [jlm(10, "18:00"), jlm(10, "19:00")],
    ]);
    // The answer resumed at entity resolution, not at the LLM.
    expect(h.server!.requests.filter(isMutateResolver)).toHaveLength(1);
  });

  it("does the same in Hebrew", async () => {
    await twoMeetings("פגישה עם דנה");
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "פגישה עם דנה" },
      updateFields: { start: "יום ראשון" },
    });
    const asked = await h.say("תזיז את הפגישה עם דנה ליום ראשון");
    expect(asked.text).toContain("מצאתי כמה אירועים. למה התכוונת?");
    expect(asked.text).toContain(
      "1. פגישה עם דנה (יום שני 09/03 10:00–11:00)\n2. פגישה עם דנה (יום שלישי 10/03 15:00–16:00)",
    );
    const done = await h.say("1");
    // A day alone keeps the meeting's own time.
    expect(done.text).toBe("✏️ עדכנתי את *פגישה עם דנה* — יום ראשון 08/03 10:00–11:00");
    expect((await storedEvents(h)).map((e) => e.start).sort()).toEqual([jlm(8, "10:00"), jlm(10, "15:00")]);
  });

  it("needs no question when the user named the day", async () => {
    await twoMeetings("Meeting with Dana");
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "meeting with Dana", dayOfWeek: "Monday" },
      updateFields: { start: "12:00", end: "13:30" },
    });
    const done = await h.say("move Monday's meeting with Dana to 12-13:30");
    expect(done.text).toBe("✏️ Updated *Meeting with Dana* — Mon 09/03 12:00–13:30");
  });

  it("warns when the new time overlaps another event, and moves on yes", async () => {
    h = await calendarHarness();
    await seed(h, "dana", { summary: "Meeting with Dana", start: jlm(9, "10:00"), end: jlm(9, "11:00") });
    await seed(h, "lunch", { summary: "Lunch with Avi", start: jlm(9, "13:00"), end: jlm(9, "14:00") });
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "meeting with Dana" },
      updateFields: { start: "13:00" },
    });
    const asked = await h.say("move the meeting with Dana to 13:00");
    expect(asked.text).toContain(
      "⚠️ At the new time *Meeting with Dana* would overlap *Lunch with Avi* (Mon 09/03 13:00–14:00). Move it anyway?",
    );
    expect((await h.say("yes")).text).toBe("✏️ Updated *Meeting with Dana* — Mon 09/03 13:00–14:00");
  });

  it("says what it could not find, with the closest titles, and changes nothing", async () => {
    await twoMeetings("Meeting with Dana");
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "dinner with Dana" },
      updateFields: { start: "20:00" },
    });
    const reply = await h.say("move dinner with Dana to 20:00");
    expect(reply.status).toBe("completed");
    expect(reply.text).toBe(
      'I couldn\'t find "dinner with Dana" in your calendar. The closest: "Meeting with Dana".',
    );
    expect((await storedEvents(h)).map((e) => e.start)).toEqual([jlm(9, "10:00"), jlm(10, "15:00")]);
  });
});

describe("deleting", () => {
  async function yoga(summary: string) {
    h = await calendarHarness();
    await seed(h, "yoga", {
      summary,
      start: jlm(9, "19:00"),
      end: jlm(9, "20:00"),
      recurrence: { frequency: "weekly", days: [1, 3] },
    });
    await seed(h, "dentist", { summary: "Dentist", start: jlm(6, "09:00"), end: jlm(6, "10:00") });
  }

  it("asks before deleting a whole series, naming its rule, and deletes it on yes", async () => {
    await yoga("Yoga");
    scriptTurn(h, "delete_event", {
      operation: "delete",
      searchCriteria: { summary: "yoga" },
      isRecurring: true,
    });
    const asked = await h.say("delete yoga from my calendar, I quit");
    expect(asked).toMatchObject({ status: "waiting" });
    expect(asked.text).toContain(
      "Delete the whole series *Yoga* (every Monday and Wednesday at 19:00–20:00)? All its occurrences will go.",
    );
    expect(await storedEvents(h)).toHaveLength(2);
    const done = await h.say("yes");
    expect(done.text).toBe(
      "🗑️ Deleted the series *Yoga* (every Monday and Wednesday at 19:00–20:00).\nReply *undo* to bring it back.",
    );
    expect((await storedEvents(h)).map((e) => e.summary)).toEqual(["Dentist"]);
  });

  it("keeps the series on no (Hebrew)", async () => {
    await yoga("יוגה");
    scriptTurn(h, "delete_event", { operation: "delete", searchCriteria: { summary: "יוגה" } });
    const asked = await h.say("תמחק את היוגה מהיומן");
    expect(asked.text).toContain(
      "למחוק את כל הסדרה *יוגה* (כל יום שני ורביעי ב-19:00–20:00)? כל המופעים שלה יימחקו.",
    );
    expect((await h.say("לא")).text).toBe("בסדר, לא אעשה את זה.");
    expect((await storedEvents(h)).map((e) => e.summary).sort()).toEqual(["Dentist", "יוגה"].sort());
  });

  it("deletes one occurrence of a series, when the user names its day, without asking", async () => {
    await yoga("Yoga");
    scriptTurn(h, "delete_event", {
      operation: "delete",
      searchCriteria: { summary: "yoga", timeMin: "2026-03-11" },
      isRecurring: false,
    });
    const done = await h.say("cancel yoga on Wednesday the 11th");
    expect(done.text).toBe("🗑️ Deleted *Yoga* (Wed 11/03 19:00–20:00).\nReply *undo* to bring it back.");
    const calendar = await h.providers.forUser(PHONE);
    const week = await calendar.listEvents({ from: jlm(8, "00:00"), to: jlm(15, "00:00") });
    expect(week.map((e) => e.start)).toEqual([jlm(9, "19:00")]);
  });

  it("a delete re-run after a crash says deleted again, not 'not found' (the ledger has its outcome)", async () => {
    await yoga("Yoga");
    crashOnce(h);
    scriptTurn(h, "delete_event", { operation: "delete", searchCriteria: { summary: "dentist" } });
    expect((await h.say("delete the dentist", { whatsappMessageId: "wamid.del" })).status).toBe("failed");
    expect((await storedEvents(h)).map((e) => e.summary)).toEqual(["Yoga"]);
    scriptTurn(h, "delete_event", { operation: "delete", searchCriteria: { summary: "dentist" } });
    const again = await h.say("delete the dentist", { whatsappMessageId: "wamid.del" });
    expect(again).toMatchObject({
      status: "completed",
      text: "🗑️ Deleted *Dentist* (tomorrow 09:00–10:00).\nReply *undo* to bring it back.",
    });
  });

  it("deletes a single event without asking", async () => {
    await yoga("Yoga");
    scriptTurn(h, "delete_event", { operation: "delete", searchCriteria: { summary: "dentist" } });
    expect((await h.say("delete the dentist")).text).toBe(
      "🗑️ Deleted *Dentist* (tomorrow 09:00–10:00).\nReply *undo* to bring it back.",
    );
    expect((await storedEvents(h)).map((e) => e.summary)).toEqual(["Yoga"]);
  });

  it("asks before deleting several events, listing them, and keeps the ones excluded", async () => {
    h = await calendarHarness();
    await seed(h, "a", { summary: "Standup", start: jlm(6, "09:00"), end: jlm(6, "09:15") });
    await seed(h, "b", { summary: "Design review", start: jlm(6, "11:00"), end: jlm(6, "12:00") });
    await seed(h, "c", { summary: "Dentist", start: jlm(6, "15:00"), end: jlm(6, "16:00") });
    await seed(h, "d", { summary: "Standup", start: jlm(9, "09:00"), end: jlm(9, "09:15") });
    scriptTurn(h, "delete_event", {
      operation: "deleteBySummary",
      searchCriteria: { timeMin: "tomorrow" },
      excludeSummaries: ["dentist"],
    });
    const asked = await h.say("clear my calendar tomorrow except the dentist");
    expect(asked.text).toContain(
      "Delete these 2 events?\n1. *Standup* (tomorrow 09:00–09:15)\n2. *Design review* (tomorrow 11:00–12:00)",
    );
    expect((await h.say("yes")).text).toBe("🗑️ Deleted 2 events.\nReply *undo* to bring it back.");
    expect((await storedEvents(h)).map((e) => [e.summary, e.start])).toEqual([
      ["Dentist", jlm(6, "15:00")],
      ["Standup", jlm(9, "09:00")],
    ]);
  });

  it("ends a series after a date (truncateRecurring)", async () => {
    await yoga("Yoga");
    scriptTurn(h, "end_recurring_event", {
      operation: "truncateRecurring",
      searchCriteria: { summary: "yoga" },
      until: "2026-03-31",
    });
    expect((await h.say("no more yoga after March")).text).toBe("✂️ *Yoga* now ends on Tue 31/03.");
    expect((await storedEvents(h)).find((e) => e.summary === "Yoga")).toMatchObject({
      timeZone: ZONE,
      recurrence: { frequency: "weekly", days: [1, 3], until: "2026-03-31" },
    });
  });
});

describe("an event id in the resolver's answer", () => {
  it("is not trusted as an id (ids never come from the user's words): it is looked for as words", async () => {
    h = await calendarHarness();
    const dentist = await seed(h, "dentist", {
      summary: "Dentist",
      start: jlm(9, "10:00"),
      end: jlm(9, "11:00"),
    });
    scriptTurn(h, "delete_event", { operation: "delete", eventId: dentist.id });
    const reply = await h.say(`delete event ${dentist.id}`);
    expect(reply.text).toContain(`I couldn't find "${dentist.id}" in your calendar.`);
    expect((await storedEvents(h)).map((e) => e.summary)).toEqual(["Dentist"]);
  });
});
