// Busy hours and free slots, computed in code in the user's zone. "Now" is Thursday 5 March 2026,
// 12:00 in Asia/Jerusalem (UTC+2).
import { describe, expect, it } from "vitest";
import { analyzeSchedule } from "../../src/services/calendar/scheduleAnalysis.js";
import type { CalendarEvent } from "../../src/types/calendar.js";

const ZONE = "Asia/Jerusalem";
const NOW = Date.parse("2026-03-05T10:00:00Z");

let ids = 0;
function event(summary: string, start: string, end: string, allDay = false): CalendarEvent {
  return {
    id: `e${++ids}`,
    seriesId: null,
    summary,
    description: null,
    location: null,
    allDay,
    start,
    end,
    timeZone: ZONE,
    recurrence: null,
    reminderMinutesBefore: null,
    attendees: [],
  };
}

/** Local Jerusalem wall time on a March 2026 day (UTC+2 until the 27th) as an ISO instant. */
const local = (day: number, clock: string) => {
  const [h, m] = clock.split(":").map(Number);
  return new Date(Date.UTC(2026, 2, day, h! - 2, m)).toISOString();
};

describe("analyzeSchedule", () => {
  it("merges overlapping events into busy time and finds free slots from now on, within waking hours", () => {
    const events = [
      event("Standup", local(5, "13:00"), local(5, "14:00")),
      event("Review", local(5, "13:30"), local(5, "15:00")),
      event("Dinner", local(5, "19:00"), local(5, "21:40")),
      event("Gym", local(6, "07:00"), local(6, "08:30")),
    ];
    const analysis = analyzeSchedule(
      events,
      { from: local(5, "00:00"), to: local(7, "00:00") },
      { timeZone: ZONE, nowMs: NOW },
    );
    expect(analysis.days.map((d) => d.date)).toEqual(["2026-03-05", "2026-03-06"]);
    const [today, tomorrow] = analysis.days;
    // 13:00–15:00 merged is two hours, plus 2h40 of dinner.
    expect(today).toMatchObject({ dayOfWeek: 4, events: 3, busyMinutes: 280 });
    // From now (12:00): 12:00–13:00, 15:00–19:00; 21:40–22:00 is too short to offer.
    expect(today!.freeSlots).toEqual([
      { start: local(5, "12:00"), end: local(5, "13:00") },
      { start: local(5, "15:00"), end: local(5, "19:00") },
    ]);
    // The gym before 08:00 counts as busy, but free time starts at 08:30.
    expect(tomorrow).toMatchObject({ events: 1, busyMinutes: 90 });
    expect(tomorrow!.freeSlots).toEqual([{ start: local(6, "08:30"), end: local(6, "22:00") }]);
    expect(analysis).toMatchObject({ totalEvents: 4, busyMinutes: 370, busiestDate: "2026-03-05" });
    expect(analysis.freeMinutes).toBe(60 + 240 + 810);
  });

  it("splits an event across midnight between its days and shows all-day events without making them busy", () => {
    const events = [
      event("Party", local(6, "22:00"), local(7, "02:00")),
      event("Trip to Eilat", "2026-03-06", "2026-03-09", true),
    ];
    const analysis = analyzeSchedule(
      events,
      { from: local(6, "00:00"), to: local(8, "00:00") },
      { timeZone: ZONE, nowMs: NOW },
    );
    expect(analysis.days).toMatchObject([
      { date: "2026-03-06", events: 1, busyMinutes: 120, allDay: ["Trip to Eilat"] },
      { date: "2026-03-07", events: 1, busyMinutes: 120, allDay: ["Trip to Eilat"] },
    ]);
    expect(analysis.days[0]!.freeSlots).toEqual([{ start: local(6, "08:00"), end: local(6, "22:00") }]);
  });

  it("has nothing busy on an empty week, and no busiest day", () => {
    const analysis = analyzeSchedule(
      [],
      { from: local(8, "00:00"), to: local(15, "00:00") },
      { timeZone: ZONE, nowMs: NOW },
    );
    expect(analysis.days).toHaveLength(7);
    expect(analysis).toMatchObject({ busyMinutes: 0, busiestDate: null, totalEvents: 0 });
    expect(analysis.days.every((d) => d.freeSlots.length === 1)).toBe(true);
  });

  it("keeps waking hours in local time across the spring-forward change", () => {
    const analysis = analyzeSchedule(
      [],
      { from: "2026-03-26T22:00:00.000Z", to: "2026-03-27T21:00:00.000Z" },
      { timeZone: ZONE, nowMs: NOW },
    );
    // Friday 27 March is UTC+3 after 02:00: 08:00 local is 05:00Z, 22:00 local is 19:00Z.
    expect(analysis.days[0]!.freeSlots).toEqual([
      { start: "2026-03-27T05:00:00.000Z", end: "2026-03-27T19:00:00.000Z" },
    ]);
  });
});
