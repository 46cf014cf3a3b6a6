// The same conversations for a user who connected Google: the calendar capability on GoogleCalendar
// against the local Calendar v3 stand-in, asserting what Memo sends to Google and what the user
// reads. "Now" is Thursday 5 March 2026, 12:00 in Asia/Jerusalem (UTC+2).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeGoogleCalendar, googleProviders } from "../../support/fakeGoogleCalendar.js";
import { PHONE } from "../../support/memoHarness.js";
import { calendarHarness, jlm, scriptTurn, seed, ZONE, type CalendarHarness } from "./calendarScript.js";

let h: CalendarHarness;
let google: FakeGoogleCalendar;

beforeEach(async () => {
  google = await FakeGoogleCalendar.start({ timeZone: ZONE });
});
afterEach(async () => {
  await h?.close();
  await google?.close();
});

describe("with Google Calendar", () => {
  it("creates a weekly event as an RRULE on the user's Google calendar", async () => {
    h = await calendarHarness({ providers: googleProviders(google) });
    scriptTurn(h, "create_recurring_event", {
      operation: "createRecurring",
      summary: "Yoga",
      days: ["Monday", "Wednesday"],
      startTime: "19:00",
      endTime: "20:00",
    });
    const reply = await h.say("Yoga every Monday and Wednesday 19:00-20:00");
    expect(reply.text).toBe(
      "🔁 Added to your calendar: *Yoga* — every Monday and Wednesday at 19:00–20:00, from Mon 09/03",
    );
    const insert = google.requests.find((r) => r.method === "POST" && r.path.endsWith("/events"));
    expect(insert?.body).toMatchObject({
      summary: "Yoga",
      start: { dateTime: jlm(9, "19:00"), timeZone: ZONE },
      recurrence: [expect.stringMatching(/^RRULE:FREQ=WEEKLY;BYDAY=MO,WE/)],
    });
    expect(await h.db.pool.query("SELECT 1 FROM calendar_events")).toMatchObject({ rowCount: 0 });
  });

  it("asks which meeting with Dana, then moves the chosen one on Google", async () => {
    h = await calendarHarness({ providers: googleProviders(google) });
    const monday = await seed(h, "mon", {
      summary: "Meeting with Dana",
      start: jlm(9, "10:00"),
      end: jlm(9, "11:00"),
    });
    const tuesday = await seed(h, "tue", {
      summary: "Meeting with Dana",
      start: jlm(10, "15:00"),
      end: jlm(10, "16:00"),
    });
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "meeting with Dana" },
      updateFields: { start: "18:00" },
    });
    const asked = await h.say("move the meeting with Dana to 18:00");
    expect(asked.options.map((o) => o.label)).toEqual([
      "Meeting with Dana (Mon 09/03 10:00–11:00)",
      "Meeting with Dana (Tue 10/03 15:00–16:00)",
    ]);
    const done = await h.say("2");
    expect(done.text).toBe("✏️ Updated *Meeting with Dana* — Tue 10/03 18:00–19:00");
    const patches = google.requests.filter((r) => r.method === "PATCH" || r.method === "PUT");
    expect(patches).toHaveLength(1);
    expect(patches[0]!.path).toContain(tuesday.id);
    const calendar = await h.providers.forUser(PHONE);
    expect((await calendar.getEvent(monday.id))?.start).toBe(jlm(9, "10:00"));
    expect((await calendar.getEvent(tuesday.id))?.start).toBe(jlm(10, "18:00"));
  });

  it("deletes a series on Google only after the user confirms (Hebrew)", async () => {
    h = await calendarHarness({ providers: googleProviders(google) });
    const series = await seed(h, "yoga", {
      summary: "יוגה",
      start: jlm(9, "19:00"),
      end: jlm(9, "20:00"),
      recurrence: { frequency: "weekly", days: [1, 3] },
    });
    scriptTurn(h, "delete_event", {
      operation: "delete",
      searchCriteria: { summary: "יוגה" },
      isRecurring: true,
    });
    const asked = await h.say("תמחק את כל שיעורי היוגה");
    expect(asked.text).toContain("למחוק את כל הסדרה *יוגה*");
    expect(google.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
    expect((await h.say("כן")).text).toBe(
      "🗑️ מחקתי את הסדרה *יוגה* (כל יום שני ורביעי ב-19:00–20:00).\nענו *בטל* כדי להחזיר.",
    );
    const deletes = google.requests.filter((r) => r.method === "DELETE");
    expect(deletes.map((r) => r.path)).toEqual([expect.stringContaining(series.id)]);
    const calendar = await h.providers.forUser(PHONE);
    expect(await calendar.listEvents({ from: jlm(8, "00:00"), to: jlm(22, "00:00") })).toEqual([]);
  });
});

describe("when Google Calendar does not answer", () => {
  it("says so when Google fails the change with 503, and logs no event details", async () => {
    h = await calendarHarness({ providers: googleProviders(google) });
    await seed(h, "surgery", { summary: "Knee surgery", start: jlm(9, "10:00"), end: jlm(9, "11:00") });
    google.setFault({ method: "PATCH", status: 503 });
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "knee surgery" },
      updateFields: { location: "Assuta Ramat HaHayal" },
    });
    const reply = await h.say("the surgery is at Assuta");
    expect(reply.text).toBe("Google Calendar isn't answering right now, please try again in a minute.");
    expect(google.calendarRequests("PATCH")).toHaveLength(1);
    const logged = JSON.stringify(h.logs());
    expect(logged).not.toContain("Knee surgery");
    expect(logged).not.toContain("Assuta Ramat HaHayal");
  });

  it("says so in Hebrew when Google leaves the lookup hanging past the timeout", async () => {
    h = await calendarHarness({ providers: googleProviders(google, { timeoutMs: 200 }) });
    await seed(h, "dentist", { summary: "רופא שיניים", start: jlm(9, "10:00"), end: jlm(9, "11:00") });
    google.setFault({ method: "GET", delayMs: 5_000 });
    scriptTurn(h, "delete_event", { operation: "delete", searchCriteria: { summary: "רופא שיניים" } });
    const reply = await h.say("תמחק את רופא השיניים");
    expect(reply.text).toBe("יומן Google לא עונה כרגע, כדאי לנסות שוב בעוד דקה.");
    expect(google.calendarRequests("DELETE")).toHaveLength(0);
  });
});
