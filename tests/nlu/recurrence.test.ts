import { describe, expect, it } from "vitest";
import { nextOccurrence, parseIntervalMinutes, rfc5545Text } from "../../src/nlu/recurrence.js";
import { type Recurrence } from "../../src/types/recurrence.js";
import { userWeek } from "../../src/nlu/week.js";

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

describe("nextOccurrence: RFC 5545 rules", () => {
  /** A stored rrule recurrence. */
  const rrule = (rule: string, time: string, start: string, until?: string): Recurrence => ({
    type: "rrule",
    rule,
    time,
    start,
    ...(until ? { until } : {}),
  });
  /** The first `count` occurrences after `afterIso`, as ISO instants. */
  const series = (rule: Recurrence, timeZone: string, afterIso: string, count: number): (string | null)[] => {
    const out: (string | null)[] = [];
    let after = Date.parse(afterIso);
    for (let i = 0; i < count; i++) {
      const at = nextOccurrence(rule, timeZone, after);
      out.push(at === null ? null : new Date(at).toISOString());
      if (at === null) break;
      after = at;
    }
    return out;
  };

  it("keeps 07:00 local on weekdays across the Jerusalem spring change (Sun–Thu rule)", () => {
    const weekdays = rrule("FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH", "07:00", "2026-03-25");
    // Wed 25 (+02), Thu 26 (+02), then Sun 29 and Mon 30 (+03): Friday and Saturday skipped.
    expect(series(weekdays, JERUSALEM, "2026-03-24T12:00:00Z", 4)).toEqual([
      "2026-03-25T05:00:00.000Z",
      "2026-03-26T05:00:00.000Z",
      "2026-03-29T04:00:00.000Z",
      "2026-03-30T04:00:00.000Z",
    ]);
  });

  it("keeps 07:00 local on weekdays across the New York fall change (Mon–Fri rule)", () => {
    const weekdays = rrule("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "07:00", "2026-10-29");
    expect(series(weekdays, NEW_YORK, "2026-10-29T00:00:00Z", 3)).toEqual([
      "2026-10-29T11:00:00.000Z", // Thu, EDT
      "2026-10-30T11:00:00.000Z", // Fri, EDT
      "2026-11-02T12:00:00.000Z", // Mon, EST
    ]);
  });

  it("counts every other day and every other week from the series start, not from the search point", () => {
    const everyOtherDay = rrule("FREQ=DAILY;INTERVAL=2", "08:00", "2026-03-12");
    expect(series(everyOtherDay, JERUSALEM, "2026-03-13T00:00:00Z", 3)).toEqual([
      "2026-03-14T06:00:00.000Z",
      "2026-03-16T06:00:00.000Z",
      "2026-03-18T06:00:00.000Z",
    ]);
    const everyOtherTuesday = rrule("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=SU", "08:00", "2026-03-17");
    // 17 March, then 31 March (+03 after the change), 14 April; never 24 March.
    expect(series(everyOtherTuesday, JERUSALEM, "2026-03-18T00:00:00Z", 2)).toEqual([
      "2026-03-31T05:00:00.000Z",
      "2026-04-14T05:00:00.000Z",
    ]);
    // Far from the start the phase is the same: 2036-03-18 is a Tuesday 520 weeks after 2026-03-17's week.
    const far = nextOccurrence(everyOtherTuesday, JERUSALEM, Date.parse("2036-03-10T00:00:00Z"));
    expect(far === null ? null : new Date(far).toISOString()).toBe("2036-03-18T06:00:00.000Z");
  });

  it("expands monthly and yearly rules: first Sunday, last day, a date every year", () => {
    expect(
      series(rrule("FREQ=MONTHLY;BYDAY=1SU", "09:00", "2026-03-01"), NEW_YORK, "2026-03-01T00:00:00Z", 3),
    ).toEqual([
      "2026-03-01T14:00:00.000Z", // EST
      "2026-04-05T13:00:00.000Z", // EDT
      "2026-05-03T13:00:00.000Z",
    ]);
    expect(
      series(
        rrule("FREQ=MONTHLY;BYMONTHDAY=-1", "20:00", "2026-01-01"),
        "Asia/Kolkata",
        "2026-02-01T00:00:00Z",
        3,
      ),
    ).toEqual(["2026-02-28T14:30:00.000Z", "2026-03-31T14:30:00.000Z", "2026-04-30T14:30:00.000Z"]);
    expect(
      series(
        rrule("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3", "09:00", "2027-03-03"),
        JERUSALEM,
        "2026-03-11T00:00:00Z",
        2,
      ),
    ).toEqual(["2027-03-03T07:00:00.000Z", "2028-03-03T07:00:00.000Z"]);
  });

  it("moves a wall time in the spring gap forward and takes the first of a repeated one (D6)", () => {
    const daily230 = rrule("FREQ=DAILY;INTERVAL=2", "02:30", "2026-03-27");
    expect(series(daily230, JERUSALEM, "2026-03-26T12:00:00Z", 2)).toEqual([
      "2026-03-27T00:30:00.000Z", // 03:30 +03
      "2026-03-28T23:30:00.000Z", // 02:30 +03 on the 29th
    ]);
    const weekend130 = rrule("FREQ=WEEKLY;BYDAY=SU,SA", "01:30", "2026-10-31");
    expect(series(weekend130, NEW_YORK, "2026-10-31T00:00:00Z", 3)).toEqual([
      "2026-10-31T05:30:00.000Z",
      "2026-11-01T05:30:00.000Z", // the first 01:30 (EDT), not the second
      "2026-11-07T06:30:00.000Z",
    ]);
  });

  it("never rings before the start, nor after until", () => {
    const rule = rrule("FREQ=WEEKLY;BYDAY=MO", "09:00", "2026-04-01", "2026-04-13T21:00:00.000Z");
    expect(series(rule, JERUSALEM, "2026-03-01T00:00:00Z", 3)).toEqual([
      "2026-04-06T06:00:00.000Z",
      "2026-04-13T06:00:00.000Z",
      null,
    ]);
  });

  it("reads V1's shapes as the same rules they always were", () => {
    expect(rfc5545Text({ type: "daily", time: "09:00" })).toBe("FREQ=DAILY");
    expect(rfc5545Text({ type: "weekly", time: "09:00", days: [3, 1] })).toBe("FREQ=WEEKLY;BYDAY=MO,WE");
    expect(rfc5545Text({ type: "monthly", time: "09:00", dayOfMonth: 10 })).toBe(
      "FREQ=MONTHLY;BYMONTHDAY=10",
    );
    expect(rfc5545Text({ type: "monthly", time: "09:00", dayOfMonth: 30 })).toBe(
      "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1",
    );
    expect(rfc5545Text({ type: "nudge", intervalMinutes: 10 })).toBeNull();
  });

  it("refuses absurd or impossible rules without throwing or looping", () => {
    const started = Date.now();
    for (const rule of [
      "FREQ=DAILY;INTERVAL=0",
      "FREQ=DAILY;INTERVAL=-2",
      "FREQ=DAILY;INTERVAL=1.5",
      "FREQ=DAILY;INTERVAL=99999999",
      "FREQ=YEARLY;INTERVAL=11",
      "FREQ=WEEKLY;INTERVAL=522",
      "FREQ=MONTHLY;INTERVAL=121",
      "FREQ=HOURLY",
      "FREQ=MINUTELY;INTERVAL=5",
      "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
      "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
      "FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31",
      "FREQ=MONTHLY;BYDAY=5FR",
      "FREQ=WEEKLY;BYDAY=XX",
      "FREQ=DAILY;COUNT=3",
      "FREQ=DAILY;UNTIL=20300101",
      "FREQ=DAILY;FREQ=WEEKLY",
      "RRULE:FREQ=DAILY",
      "DTSTART:20260101T000000\nRRULE:FREQ=DAILY",
      "",
      "garbage",
    ]) {
      // A rule that cannot occur within ten years of its start is none: 12-monthly on the 31st from February.
      expect(
        nextOccurrence(rrule(rule, "09:00", "2026-02-10"), JERUSALEM, Date.parse("2026-03-11T00:00:00Z")),
        rule,
      ).toBeNull();
    }
    expect(nextOccurrence(rrule("FREQ=DAILY", "09:00", "2026-02-30"), JERUSALEM, 0)).toBeNull();
    expect(nextOccurrence(rrule("FREQ=DAILY", "25:00", "2026-02-10"), JERUSALEM, 0)).toBeNull();
    expect(nextOccurrence({ type: "rrule", time: "09:00" }, JERUSALEM, 0)).toBeNull();
    expect(nextOccurrence({ type: "nudge", intervalMinutes: 99_999_999 }, JERUSALEM, 0)).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("is quick for a series started long ago", () => {
    const rule = rrule("FREQ=DAILY;INTERVAL=3", "09:00", "2016-03-25");
    const started = Date.now();
    const at = nextOccurrence(rule, JERUSALEM, Date.parse("2026-03-25T08:00:00Z"));
    expect(Date.now() - started).toBeLessThan(200);
    // 2026-03-25 is 3652 days after 2016-03-25 (3652 = 3 × 1217 + 1): the next is 3654 days on,
    // Friday 27 March 09:00, already +03.
    expect(at === null ? null : new Date(at).toISOString()).toBe("2026-03-27T06:00:00.000Z");
  });
});

describe("userWeek", () => {
  it("is Sunday–Thursday with a Friday–Saturday weekend in Israel, Monday–Friday elsewhere", () => {
    expect(userWeek("Asia/Jerusalem")).toEqual({ workdays: [0, 1, 2, 3, 4], weekend: [5, 6], firstDay: 0 });
    expect(userWeek("Asia/Tel_Aviv")).toEqual({ workdays: [0, 1, 2, 3, 4], weekend: [5, 6], firstDay: 0 });
    expect(userWeek("America/New_York")).toEqual({ workdays: [1, 2, 3, 4, 5], weekend: [6, 0], firstDay: 1 });
    expect(userWeek("Asia/Kolkata")).toEqual({ workdays: [1, 2, 3, 4, 5], weekend: [6, 0], firstDay: 1 });
    expect(userWeek("UTC").workdays).toEqual([1, 2, 3, 4, 5]);
    expect(userWeek("Mars/Olympus").workdays).toEqual([1, 2, 3, 4, 5]);
  });

  it("hands out arrays the caller may change", () => {
    userWeek("Asia/Jerusalem").workdays.push(5);
    expect(userWeek("Asia/Jerusalem").workdays).toEqual([0, 1, 2, 3, 4]);
  });
});
