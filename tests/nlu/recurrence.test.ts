import { describe, expect, it } from "vitest";
import { nextOccurrence, parseIntervalMinutes, type Recurrence } from "../../src/nlu/recurrence.js";

const JERUSALEM = "Asia/Jerusalem";
const NEW_YORK = "America/New_York";

/** The next occurrence as an ISO instant, or null. */
function next(rule: Recurrence, timeZone: string, afterIso: string): string | null {
  const at = nextOccurrence(rule, timeZone, Date.parse(afterIso));
  return at === null ? null : new Date(at).toISOString();
}

describe("nextOccurrence: daily", () => {
  const daily: Recurrence = { type: "daily", time: "09:00" };

  it("is later today while the time is still ahead, else tomorrow", () => {
    // 08:00 and 10:00 local in Jerusalem (+02).
    expect(next(daily, JERUSALEM, "2026-03-11T06:00:00Z")).toBe("2026-03-11T07:00:00.000Z");
    expect(next(daily, JERUSALEM, "2026-03-11T08:00:00Z")).toBe("2026-03-12T07:00:00.000Z");
  });

  it("is strictly after: at the fire time itself, the next is tomorrow", () => {
    expect(next(daily, JERUSALEM, "2026-03-11T07:00:00Z")).toBe("2026-03-12T07:00:00.000Z");
  });

  it("stays 09:00 local across the Jerusalem spring and autumn changes (not +24h)", () => {
    // Thu 26 March 09:00 (+02) → Fri 27 March 09:00 (+03): 23 hours later.
    expect(next(daily, JERUSALEM, "2026-03-26T07:00:00Z")).toBe("2026-03-27T06:00:00.000Z");
    // Sat 24 Oct 09:00 (+03) → Sun 25 Oct 09:00 (+02): 25 hours later.
    expect(next(daily, JERUSALEM, "2026-10-24T06:00:00Z")).toBe("2026-10-25T07:00:00.000Z");
  });

  it("stays 09:00 local across the New York changes", () => {
    expect(next(daily, NEW_YORK, "2026-03-07T14:00:00Z")).toBe("2026-03-08T13:00:00.000Z");
    expect(next(daily, NEW_YORK, "2026-10-31T13:00:00Z")).toBe("2026-11-01T14:00:00.000Z");
  });

  it("moves a time in the spring gap forward, and fires a repeated time once", () => {
    // 02:30 does not exist on 27 March in Jerusalem: 03:30 (+03) instead.
    expect(next({ type: "daily", time: "02:30" }, JERUSALEM, "2026-03-26T12:00:00Z")).toBe(
      "2026-03-27T00:30:00.000Z",
    );
    // 01:30 happens twice on 25 Oct; after the first (22:30Z), the next is 26 Oct, not the repeat.
    expect(next({ type: "daily", time: "01:30" }, JERUSALEM, "2026-10-24T22:30:00Z")).toBe(
      "2026-10-25T23:30:00.000Z",
    );
  });
});

describe("nextOccurrence: weekly", () => {
  // Wednesday 11 March 2026, 10:00 in Jerusalem.
  const wednesday10 = "2026-03-11T08:00:00Z";

  it("picks the nearest of several days", () => {
    const monThu: Recurrence = { type: "weekly", time: "09:00", days: [1, 4] };
    expect(next(monThu, JERUSALEM, wednesday10)).toBe("2026-03-12T07:00:00.000Z"); // Thu 12th
    expect(next(monThu, JERUSALEM, "2026-03-12T08:00:00Z")).toBe("2026-03-16T07:00:00.000Z"); // Mon 16th
  });

  it("takes today only while the time is still ahead", () => {
    expect(next({ type: "weekly", time: "11:00", days: [3] }, JERUSALEM, wednesday10)).toBe(
      "2026-03-11T09:00:00.000Z",
    );
    expect(next({ type: "weekly", time: "09:00", days: [3] }, JERUSALEM, wednesday10)).toBe(
      "2026-03-18T07:00:00.000Z",
    );
  });

  it("keeps the wall time across a DST change", () => {
    // Fri 20 March 09:00 (+02) → Fri 27 March 09:00 (+03).
    expect(next({ type: "weekly", time: "09:00", days: [5] }, JERUSALEM, "2026-03-20T07:00:00Z")).toBe(
      "2026-03-27T06:00:00.000Z",
    );
  });
});

describe("nextOccurrence: monthly", () => {
  it("uses the month's last day when it is shorter", () => {
    const on31st: Recurrence = { type: "monthly", time: "09:00", dayOfMonth: 31 };
    // After 31 March 09:00 → 30 April 09:00 (+03).
    expect(next(on31st, JERUSALEM, "2026-03-31T06:00:00Z")).toBe("2026-04-30T06:00:00.000Z");
    expect(next(on31st, "UTC", "2026-01-31T10:00:00Z")).toBe("2026-02-28T09:00:00.000Z");
    expect(next(on31st, "UTC", "2028-01-31T10:00:00Z")).toBe("2028-02-29T09:00:00.000Z");
  });

  it("is this month while the day is still ahead, and rolls over the year", () => {
    const on15th: Recurrence = { type: "monthly", time: "18:30", dayOfMonth: 15 };
    expect(next(on15th, "UTC", "2026-05-15T18:00:00Z")).toBe("2026-05-15T18:30:00.000Z");
    expect(next(on15th, "UTC", "2026-12-20T00:00:00Z")).toBe("2027-01-15T18:30:00.000Z");
  });
});

describe("nextOccurrence: nudge and until", () => {
  it("adds the interval exactly, even across a DST change", () => {
    // 01:50 local (+02) plus 20 minutes is 03:10 local (+03): an exact duration.
    expect(next({ type: "nudge", intervalMinutes: 20 }, JERUSALEM, "2026-03-26T23:50:00Z")).toBe(
      "2026-03-27T00:10:00.000Z",
    );
  });

  it("gives nothing after until, and allows an occurrence exactly at it", () => {
    const daily: Recurrence = { type: "daily", time: "09:00", until: "2026-03-12T07:00:00Z" };
    expect(next(daily, JERUSALEM, "2026-03-11T08:00:00Z")).toBe("2026-03-12T07:00:00.000Z");
    expect(next(daily, JERUSALEM, "2026-03-12T07:00:00Z")).toBeNull();
    const nudge: Recurrence = { type: "nudge", intervalMinutes: 30, until: "2026-03-11T08:15:00Z" };
    expect(next(nudge, "UTC", "2026-03-11T08:00:00Z")).toBeNull();
  });

  it.each<[string, Recurrence]>([
    ["daily without a time", { type: "daily" }],
    ["daily at 25:00", { type: "daily", time: "25:00" }],
    ["weekly without days", { type: "weekly", time: "09:00", days: [] }],
    ["weekly on day 7", { type: "weekly", time: "09:00", days: [7] }],
    ["monthly without a day", { type: "monthly", time: "09:00" }],
    ["monthly on the 32nd", { type: "monthly", time: "09:00", dayOfMonth: 32 }],
    ["nudge without an interval", { type: "nudge" }],
    ["nudge every 0 minutes", { type: "nudge", intervalMinutes: 0 }],
    ["an unreadable until", { type: "daily", time: "09:00", until: "soon" }],
  ])("is null for an incomplete rule: %s", (_name, rule) => {
    expect(nextOccurrence(rule, "UTC", Date.parse("2026-03-11T08:00:00Z"))).toBeNull();
  });
});

describe("parseIntervalMinutes", () => {
  it.each([
    ["10 minutes", 10],
    ["15 min", 15],
    ["1 hour", 60],
    ["an hour", 60],
    ["2 hours", 120],
    ["half an hour", 30],
    ["every 5 minutes", 5],
    ["10 דקות", 10],
    ["דקה", 1],
    ["רבע שעה", 15],
    ["חצי שעה", 30],
    ["שעה", 60],
    ["שעתיים", 120],
    ["3 שעות", 180],
    ["כל 20 דקות", 20],
    ["20", 20],
  ])("%j is %i minutes", (text, minutes) => {
    expect(parseIntervalMinutes(text)).toBe(minutes);
  });

  it.each(["buy milk", "לקנות חלב", "", "0", "tomorrow", "seventy minutes", "10 days"])(
    "%j is not an interval",
    (text) => {
      expect(parseIntervalMinutes(text)).toBeNull();
    },
  );
});
