// The calendar's time words → stored times, in code (D6). "Now" is Thursday 5 March 2026, 12:00 in
// Asia/Jerusalem (UTC+2); Israel moves to summer time (UTC+3) on Friday 27 March 2026 at 02:00.
import { dayIndex } from "../../src/nlu/timeWords.js";
import { describe, expect, it } from "vitest";
import {
  buildEventInputs,
  eventTimes,
  patchTimes,
  readRange,
  recurringEventTimes,
} from "../../src/services/calendar/eventTimes.js";

const ZONE = "Asia/Jerusalem";
const NOW = Date.parse("2026-03-05T10:00:00Z");
const at = { nowMs: NOW, timeZone: ZONE };

describe("eventTimes (a new event)", () => {
  it("reads a local date-time and words alike, with a default hour", () => {
    const expected = {
      ok: true,
      times: {
        allDay: false,
        start: "2026-03-06T12:00:00.000Z",
        end: "2026-03-06T13:00:00.000Z",
        timeZone: ZONE,
      },
    };
    expect(eventTimes({ start: "2026-03-06T14:00" }, at)).toEqual(expected);
    expect(eventTimes({ start: "tomorrow at 14:00" }, at)).toEqual(expected);
    expect(eventTimes({ start: "מחר ב-14:00" }, at)).toEqual(expected);
  });

  it("reads a holiday on the user's chosen schedule (a diaspora user in Jerusalem)", () => {
    // Simchat Torah 5787: 22 Tishrei in Israel (Sat 3 Oct 2026), 23 Tishrei abroad (Sun 4 Oct).
    expect(eventTimes({ start: "on Simchat Torah at 10" }, at)).toMatchObject({
      times: { start: "2026-10-03T07:00:00.000Z" },
    });
    expect(
      eventTimes({ start: "on Simchat Torah at 10" }, { ...at, calendar: { schedule: "diaspora" } }),
    ).toMatchObject({ times: { start: "2026-10-04T07:00:00.000Z" } });
  });

  it("takes an end clock on the start's day, a length, or past midnight", () => {
    expect(eventTimes({ start: "Sunday 10:00", end: "11:30" }, at)).toMatchObject({
      times: { start: "2026-03-08T08:00:00.000Z", end: "2026-03-08T09:30:00.000Z" },
    });
    expect(eventTimes({ start: "Sunday 10:00", durationMinutes: 120 }, at)).toMatchObject({
      times: { end: "2026-03-08T10:00:00.000Z" },
    });
    expect(eventTimes({ start: "2026-03-06T22:00", end: "01:00" }, at)).toMatchObject({
      times: { start: "2026-03-06T20:00:00.000Z", end: "2026-03-06T23:00:00.000Z" },
    });
  });

  it("keeps the wall time across the spring-forward change", () => {
    expect(eventTimes({ start: "2026-03-29T09:00" }, at)).toMatchObject({
      times: { start: "2026-03-29T06:00:00.000Z" },
    });
  });

  it("stores an all-day trip as dates, end exclusive; a single day ends the next day", () => {
    expect(eventTimes({ start: "2026-03-06", end: "2026-03-09", allDay: true }, at)).toEqual({
      ok: true,
      times: { allDay: true, start: "2026-03-06", end: "2026-03-09", timeZone: ZONE },
    });
    expect(eventTimes({ start: "Friday", allDay: true }, at)).toMatchObject({
      times: { start: "2026-03-06", end: "2026-03-07" },
    });
    // Two dates without the flag are an all-day span too.
    expect(eventTimes({ start: "2026-03-10", end: "2026-03-12" }, at)).toMatchObject({
      times: { allDay: true, start: "2026-03-10", end: "2026-03-12" },
    });
  });

  it("says what is wrong: no time of day, unreadable words, the past, an end before the start", () => {
    expect(eventTimes({ start: "Friday" }, at)).toEqual({
      ok: false,
      problem: "missing_time",
      phrase: "Friday",
    });
    expect(eventTimes({ start: "sometime soon" }, at)).toMatchObject({ problem: "unclear_time" });
    expect(eventTimes({ start: "2026-03-05T08:00" }, at)).toMatchObject({ problem: "past_time" });
    // "today at 8" with no am/pm is the next 8 still ahead: 20:00.
    expect(eventTimes({ start: "today at 8" }, at)).toMatchObject({
      times: { start: "2026-03-05T18:00:00.000Z" },
    });
    expect(eventTimes({ start: "2026-03-01", allDay: true }, at)).toMatchObject({ problem: "past_time" });
    expect(eventTimes({ start: "2026-03-09", end: "2026-03-06", allDay: true }, at)).toMatchObject({
      problem: "end_before_start",
    });
    expect(eventTimes({}, at)).toMatchObject({ problem: "missing_start" });
    // A meeting that began a few minutes ago is fine; a free-slot check may look at the past.
    expect(eventTimes({ start: "today at 11:55" }, at).ok).toBe(true);
    expect(eventTimes({ start: "2026-03-05T08:00" }, { ...at, allowPast: true }).ok).toBe(true);
  });
});

describe("recurringEventTimes", () => {
  it("reads weekly day names into day numbers, starting today when the time is still ahead", () => {
    expect(
      recurringEventTimes({ days: ["Monday", "Wednesday"], startTime: "19:00", endTime: "20:00" }, at),
    ).toEqual({
      ok: true,
      times: {
        allDay: false,
        start: "2026-03-05T17:00:00.000Z",
        end: "2026-03-05T18:00:00.000Z",
        timeZone: ZONE,
        recurrence: { frequency: "weekly", days: [1, 3] },
      },
    });
  });

  it("reads monthly days-of-month strings, an until date and Hebrew day names", () => {
    expect(recurringEventTimes({ days: ["10"], startTime: "09:00", until: "2026-06-30" }, at)).toMatchObject({
      times: { recurrence: { frequency: "monthly", daysOfMonth: [10], until: "2026-06-30" } },
    });
    expect(
      recurringEventTimes({ frequency: "weekly", days: ["ראשון", "שלישי"], startTime: "8" }, at),
    ).toMatchObject({ times: { recurrence: { days: [0, 2] } } });
  });

  it("starts tomorrow when today's time has passed, and asks for a time it cannot read", () => {
    expect(recurringEventTimes({ frequency: "daily", startTime: "07:30" }, at)).toMatchObject({
      times: { start: "2026-03-06T05:30:00.000Z", recurrence: { frequency: "daily" } },
    });
    expect(recurringEventTimes({ days: ["Monday"] }, at)).toMatchObject({ problem: "missing_time" });
    expect(recurringEventTimes({ days: ["Moonday"], startTime: "9:00" }, at)).toMatchObject({
      problem: "unclear_days",
    });
  });
});

describe("recurringEventTimes from the user's repeat words (readTime, as reminders)", () => {
  it("reads the rule from the words and overrules the V1 fields", () => {
    expect(
      recurringEventTimes(
        {
          repeatPhrase: "every other day at 8pm",
          frequency: "weekly",
          days: ["Monday"],
          durationMinutes: 30,
        },
        at,
      ),
    ).toEqual({
      ok: true,
      times: {
        allDay: false,
        start: "2026-03-05T18:00:00.000Z",
        end: "2026-03-05T18:30:00.000Z",
        timeZone: ZONE,
        recurrence: { frequency: "daily", interval: 2 },
      },
    });
    expect(recurringEventTimes({ repeatPhrase: "the last day of every month at 18:00" }, at)).toMatchObject({
      times: {
        start: "2026-03-31T15:00:00.000Z",
        recurrence: { frequency: "monthly", rule: "FREQ=MONTHLY;BYMONTHDAY=-1" },
      },
    });
  });

  it("takes the resolver's startTime only when the words name no time", () => {
    expect(
      recurringEventTimes(
        { repeatPhrase: "every 2 weeks on Tuesday", startTime: "18:00", endTime: "19:30" },
        at,
      ),
    ).toMatchObject({
      times: {
        start: "2026-03-10T16:00:00.000Z",
        end: "2026-03-10T17:30:00.000Z",
        recurrence: { frequency: "weekly", interval: 2, days: [2] },
      },
    });
    expect(recurringEventTimes({ repeatPhrase: "every Sunday at 9", startTime: "09:00" }, at)).toMatchObject({
      times: { start: "2026-03-08T07:00:00.000Z" },
    });
  });

  it("makes an all-day series of words with no time, and asks the time otherwise", () => {
    expect(recurringEventTimes({ repeatPhrase: "every year on March 3", allDay: true }, at)).toMatchObject({
      times: {
        allDay: true,
        start: "2027-03-03",
        end: "2027-03-04",
        recurrence: { frequency: "yearly", rule: "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3" },
      },
    });
    expect(recurringEventTimes({ repeatPhrase: "every weekday" }, at)).toMatchObject({
      ok: false,
      problem: "missing_time",
      phrase: "every weekday",
    });
  });

  it("keeps the words' end, else the resolver's until, and starts on or after startDate", () => {
    expect(
      recurringEventTimes({ repeatPhrase: "every weekday at 7 until April 3", until: "2026-12-31" }, at),
    ).toMatchObject({
      times: { recurrence: { frequency: "weekly", days: [0, 1, 2, 3, 4], until: "2026-04-03" } },
    });
    expect(
      recurringEventTimes(
        { repeatPhrase: "every other Tuesday at 8am", startDate: "2026-03-20", until: "2026-06-30" },
        at,
      ),
    ).toMatchObject({
      times: {
        start: "2026-03-24T06:00:00.000Z",
        recurrence: { frequency: "weekly", interval: 2, days: [2], until: "2026-06-30" },
      },
    });
  });

  it("asks instead of guessing: an hour 1–6, a repeat it cannot say, words it cannot read", () => {
    expect(recurringEventTimes({ repeatPhrase: "every day at 5" }, at)).toMatchObject({
      problem: "ambiguous_hour",
      phrase: "every day at 5",
    });
    expect(recurringEventTimes({ repeatPhrase: "every few days at 9am" }, at)).toMatchObject({
      problem: "unsupported_repeat",
    });
    expect(recurringEventTimes({ repeatPhrase: "every 10 minutes" }, at)).toMatchObject({
      problem: "unsupported_repeat",
    });
    expect(recurringEventTimes({ repeatPhrase: "every day at the usual time" }, at)).toMatchObject({
      problem: "unclear_time",
    });
  });
});

describe("patchTimes (an update read against the event)", () => {
  const meeting = {
    allDay: false,
    start: "2026-03-09T12:00:00.000Z", // Monday 14:00
    end: "2026-03-09T13:30:00.000Z",
    timeZone: ZONE,
  };

  it("a bare clock keeps the event's day and length", () => {
    expect(patchTimes({ start: "18:00" }, meeting, at)).toEqual({
      ok: true,
      patch: { start: "2026-03-09T16:00:00.000Z", end: "2026-03-09T17:30:00.000Z" },
    });
    // An open hour takes the half of the day nearer the event's time: "5" after a 14:00 meeting is 17:00.
    expect(patchTimes({ start: "5" }, meeting, at)).toMatchObject({
      patch: { start: "2026-03-09T15:00:00.000Z" },
    });
  });

  it("a day alone keeps the wall time; an end changes only the end", () => {
    expect(patchTimes({ start: "Sunday" }, meeting, at)).toMatchObject({
      patch: { start: "2026-03-08T12:00:00.000Z", end: "2026-03-08T13:30:00.000Z" },
    });
    expect(patchTimes({ end: "16:00" }, meeting, at)).toMatchObject({
      patch: { start: meeting.start, end: "2026-03-09T14:00:00.000Z" },
    });
  });

  it("turns an event all-day and moves an all-day event keeping its length", () => {
    expect(patchTimes({ allDay: true }, meeting, at)).toEqual({
      ok: true,
      patch: { allDay: true, start: "2026-03-09", end: "2026-03-10" },
    });
    const trip = { allDay: true, start: "2026-03-06", end: "2026-03-09", timeZone: ZONE };
    expect(patchTimes({ start: "2026-03-13" }, trip, at)).toMatchObject({
      patch: { start: "2026-03-13", end: "2026-03-16" },
    });
  });

  it("changes nothing when no time is named", () => {
    expect(patchTimes({}, meeting, at)).toEqual({ ok: true, patch: {} });
  });
});

describe("readRange", () => {
  it("a day is that whole day; a period includes its last date; nothing is the next 7 days", () => {
    expect(readRange("tomorrow", null, at)).toEqual({
      ok: true,
      range: { from: "2026-03-05T22:00:00.000Z", to: "2026-03-06T22:00:00.000Z" },
    });
    expect(readRange("2026-03-05", "2026-03-07", at)).toMatchObject({
      range: { from: "2026-03-04T22:00:00.000Z", to: "2026-03-07T22:00:00.000Z" },
    });
    expect(readRange(null, null, at)).toMatchObject({
      range: {
        from: "2026-03-05T10:00:00.000Z",
        to: "2026-03-12T22:00:00.000Z" /* the end of Thursday 12/3, local */,
      },
    });
    expect(readRange("whenever", null, at)).toMatchObject({ ok: false, problem: "unclear_time" });
  });
});

describe("buildEventInputs", () => {
  it("makes one input per event with its fields, or names the first problem", () => {
    expect(
      buildEventInputs(
        {
          operation: "createMultiple",
          events: [
            { summary: "Dentist", start: "tomorrow 09:00", location: "Clinic", reminderMinutesBefore: 30 },
            { summary: "Lunch", start: "tomorrow 13:00", durationMinutes: 45 },
          ],
        },
        at,
      ),
    ).toEqual({
      ok: true,
      inputs: [
        {
          summary: "Dentist",
          allDay: false,
          start: "2026-03-06T07:00:00.000Z",
          end: "2026-03-06T08:00:00.000Z",
          timeZone: ZONE,
          location: "Clinic",
          reminderMinutesBefore: 30,
        },
        {
          summary: "Lunch",
          allDay: false,
          start: "2026-03-06T11:00:00.000Z",
          end: "2026-03-06T11:45:00.000Z",
          timeZone: ZONE,
        },
      ],
    });
    expect(buildEventInputs({ operation: "create", start: "tomorrow 9:00" }, at)).toMatchObject({
      problem: "missing_summary",
    });
  });

  it("knows weekday names in English and Hebrew", () => {
    expect(["Sunday", "mon", "שלישי", "יום רביעי", "Sat"].map(dayIndex)).toEqual([0, 1, 2, 3, 6]);
    expect(dayIndex("someday")).toBeNull();
  });
});
