import { describe, expect, it } from "vitest";
import {
  expandSeries,
  firstOccurrence,
  lastOccurrence,
  occurrenceOn,
  type SeriesTiming,
} from "../../src/services/calendar/recurrenceExpansion.js";
import type { CalendarRecurrence } from "../../src/types/calendar.js";

/** "Fri 2026-03-27 03:30" on the wall clock of `timeZone` (Intl, not the code under test). */
function local(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "short",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(Date.parse(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

const ms = (iso: string) => Date.parse(iso);

function timedSeries(
  timeZone: string,
  start: string,
  minutes: number,
  recurrence: CalendarRecurrence,
): SeriesTiming {
  return {
    allDay: false,
    start,
    end: new Date(ms(start) + minutes * 60_000).toISOString(),
    timeZone,
    recurrence,
  };
}

describe("expandSeries across daylight saving changes (D6: local wall time kept)", () => {
  it("Asia/Jerusalem, summer time from Fri 2026-03-27: 09:00 stays 09:00", () => {
    // 09:00 IST (+02) on Wed 2026-03-25.
    const series = timedSeries("Asia/Jerusalem", "2026-03-25T07:00:00.000Z", 60, { frequency: "daily" });
    const found = expandSeries(series, ms("2026-03-25T00:00:00Z"), ms("2026-03-30T00:00:00Z"));
    expect(found.map((o) => o.start)).toEqual([
      "2026-03-25T07:00:00.000Z",
      "2026-03-26T07:00:00.000Z",
      "2026-03-27T06:00:00.000Z",
      "2026-03-28T06:00:00.000Z",
      "2026-03-29T06:00:00.000Z",
    ]);
    expect(found.map((o) => o.date)).toEqual([
      "2026-03-25",
      "2026-03-26",
      "2026-03-27",
      "2026-03-28",
      "2026-03-29",
    ]);
    // The length is an exact duration: an hour on both sides of the change.
    expect(found.every((o) => o.endMs - o.startMs === 3_600_000)).toBe(true);
  });

  it("Asia/Jerusalem: 02:30 does not exist on 2026-03-27 and moves forward by the gap to 03:30", () => {
    const series = timedSeries("Asia/Jerusalem", "2026-03-26T00:30:00.000Z", 30, { frequency: "daily" });
    const found = expandSeries(series, ms("2026-03-26T00:00:00Z"), ms("2026-03-28T12:00:00Z"));
    expect(found.map((o) => local(o.start, "Asia/Jerusalem"))).toEqual([
      "Thu 2026-03-26 02:30",
      "Fri 2026-03-27 03:30",
      "Sat 2026-03-28 02:30",
    ]);
  });

  it("America/New_York, spring forward on 2026-03-08: 02:30 becomes 03:30 that day only", () => {
    const series = timedSeries("America/New_York", "2026-03-07T07:30:00.000Z", 30, { frequency: "daily" });
    const found = expandSeries(series, ms("2026-03-07T00:00:00Z"), ms("2026-03-10T00:00:00Z"));
    expect(found.map((o) => o.start)).toEqual([
      "2026-03-07T07:30:00.000Z", // 02:30 EST
      "2026-03-08T07:30:00.000Z", // 03:30 EDT
      "2026-03-09T06:30:00.000Z", // 02:30 EDT
    ]);
    expect(found.map((o) => local(o.start, "America/New_York"))).toEqual([
      "Sat 2026-03-07 02:30",
      "Sun 2026-03-08 03:30",
      "Mon 2026-03-09 02:30",
    ]);
  });

  it("America/New_York, fall back on 2026-11-01: a repeated 01:30 is the first one; 09:00 stays 09:00", () => {
    const early = timedSeries("America/New_York", "2026-10-31T05:30:00.000Z", 15, { frequency: "daily" });
    const found = expandSeries(early, ms("2026-10-31T00:00:00Z"), ms("2026-11-03T00:00:00Z"));
    expect(found.map((o) => o.start)).toEqual([
      "2026-10-31T05:30:00.000Z", // 01:30 EDT
      "2026-11-01T05:30:00.000Z", // the first 01:30 (EDT), not the second (EST, 06:30Z)
      "2026-11-02T06:30:00.000Z", // 01:30 EST
    ]);

    const weekly = timedSeries("America/New_York", "2026-10-26T13:00:00.000Z", 60, {
      frequency: "weekly",
      days: [1, 0],
    });
    const weeks = expandSeries(weekly, ms("2026-10-26T00:00:00Z"), ms("2026-11-03T00:00:00Z"));
    expect(weeks.map((o) => local(o.start, "America/New_York"))).toEqual([
      "Mon 2026-10-26 09:00",
      "Sun 2026-11-01 09:00",
      "Mon 2026-11-02 09:00",
    ]);
    expect(weeks.map((o) => o.start)).toEqual([
      "2026-10-26T13:00:00.000Z",
      "2026-11-01T14:00:00.000Z",
      "2026-11-02T14:00:00.000Z",
    ]);
  });
});

describe("expandSeries rules", () => {
  const zone = "Asia/Jerusalem";
  const year = [ms("2026-01-01T00:00:00Z"), ms("2027-01-01T00:00:00Z")] as const;

  it("monthly on the 31st skips the months without one", () => {
    const series = timedSeries(zone, "2026-01-31T08:00:00.000Z", 60, {
      frequency: "monthly",
      daysOfMonth: [31],
    });
    expect(expandSeries(series, ...year).map((o) => o.date)).toEqual([
      "2026-01-31",
      "2026-03-31",
      "2026-05-31",
      "2026-07-31",
      "2026-08-31",
      "2026-10-31",
      "2026-12-31",
    ]);
  });

  it("monthly on several days every other month", () => {
    const series = timedSeries(zone, "2026-01-15T08:00:00.000Z", 60, {
      frequency: "monthly",
      interval: 2,
      daysOfMonth: [1, 15],
    });
    expect(expandSeries(series, ...year).map((o) => o.date)).toEqual([
      "2026-01-15",
      "2026-03-01",
      "2026-03-15",
      "2026-05-01",
      "2026-05-15",
      "2026-07-01",
      "2026-07-15",
      "2026-09-01",
      "2026-09-15",
      "2026-11-01",
      "2026-11-15",
    ]);
  });

  it("weekly every other week on Sunday and Tuesday (weeks start on Sunday)", () => {
    // Tue 2026-04-07: its week's Sunday (04-05) is before the start and is skipped.
    const series = timedSeries(zone, "2026-04-07T15:00:00.000Z", 60, {
      frequency: "weekly",
      interval: 2,
      days: [2, 0],
    });
    const found = expandSeries(series, ms("2026-04-01T00:00:00Z"), ms("2026-05-01T00:00:00Z"));
    expect(found.map((o) => local(o.start, zone))).toEqual([
      "Tue 2026-04-07 18:00",
      "Sun 2026-04-19 18:00",
      "Tue 2026-04-21 18:00",
    ]);
  });

  it("until is an inclusive local date; count counts from the first occurrence", () => {
    const until = timedSeries(zone, "2026-04-06T06:00:00.000Z", 30, {
      frequency: "daily",
      until: "2026-04-09",
    });
    expect(expandSeries(until, ...year).map((o) => o.date)).toEqual([
      "2026-04-06",
      "2026-04-07",
      "2026-04-08",
      "2026-04-09",
    ]);
    const count = timedSeries(zone, "2026-04-06T06:00:00.000Z", 30, {
      frequency: "weekly",
      days: [1, 4],
      count: 3,
    });
    expect(expandSeries(count, ...year).map((o) => o.date)).toEqual([
      "2026-04-06",
      "2026-04-09",
      "2026-04-13",
    ]);
    // A range after the start still counts from the first occurrence.
    expect(
      expandSeries(count, ms("2026-04-10T00:00:00Z"), ms("2026-12-01T00:00:00Z")).map((o) => o.date),
    ).toEqual(["2026-04-13"]);
    expect(lastOccurrence(count)?.date).toBe("2026-04-13");
    expect(lastOccurrence({ ...count, recurrence: { frequency: "daily" } })).toBeNull();
  });

  it("jumps to a far range without losing the interval's rhythm", () => {
    const series = timedSeries(zone, "2020-01-01T08:00:00.000Z", 60, { frequency: "daily", interval: 3 });
    const found = expandSeries(series, ms("2030-01-01T00:00:00Z"), ms("2030-01-10T00:00:00Z"));
    // 2020-01-01 + 3653 days = 2030-01-01; 3653 = 3 × 1217 + 2, so the rhythm lands on 01-02.
    expect(found.map((o) => o.date)).toEqual(["2030-01-02", "2030-01-05", "2030-01-08"]);
    expect(found.every((o) => local(o.start, zone).endsWith("10:00"))).toBe(true);
  });

  it("includes an occurrence that began before the range and is still going on", () => {
    const series = timedSeries(zone, "2026-04-06T20:00:00.000Z", 6 * 60, { frequency: "daily" });
    const found = expandSeries(series, ms("2026-04-08T00:00:00Z"), ms("2026-04-08T01:00:00Z"));
    expect(found.map((o) => o.date)).toEqual(["2026-04-07"]);
  });

  it("places all-day occurrences on local dates, end exclusive, spans at local midnight", () => {
    const series: SeriesTiming = {
      allDay: true,
      start: "2026-03-26",
      end: "2026-03-28",
      timeZone: zone,
      recurrence: { frequency: "weekly" },
    };
    const found = expandSeries(series, ms("2026-03-20T00:00:00Z"), ms("2026-04-10T00:00:00Z"));
    expect(found.map((o) => [o.start, o.end])).toEqual([
      ["2026-03-26", "2026-03-28"],
      ["2026-04-02", "2026-04-04"],
      ["2026-04-09", "2026-04-11"],
    ]);
    // Midnight +02 before the change, +03 after it.
    expect(new Date(found[0]!.startMs).toISOString()).toBe("2026-03-25T22:00:00.000Z");
    expect(new Date(found[0]!.endMs).toISOString()).toBe("2026-03-27T21:00:00.000Z");
    // Local Saturday 2026-03-28 00:30 is after the first occurrence's exclusive end.
    expect(expandSeries(series, ms("2026-03-27T21:30:00Z"), ms("2026-03-27T22:00:00Z"))).toEqual([]);
  });

  it("finds the occurrence of a date, and none on dates the series skips", () => {
    const series = timedSeries(zone, "2026-04-06T06:00:00.000Z", 30, {
      frequency: "weekly",
      days: [1],
      count: 2,
    });
    expect(occurrenceOn(series, "2026-04-13")?.start).toBe("2026-04-13T06:00:00.000Z");
    expect(occurrenceOn(series, "2026-04-14")).toBeNull();
    expect(occurrenceOn(series, "2026-04-20")).toBeNull(); // past the count
    expect(occurrenceOn(series, "2026-03-30")).toBeNull(); // before the start
    expect(occurrenceOn(series, "not-a-date")).toBeNull();
  });

  it("starts on the first date the rule matches", () => {
    // Sunday start, Monday rule: the series begins on Monday at the same time.
    const series = timedSeries(zone, "2026-04-05T06:00:00.000Z", 30, { frequency: "weekly", days: [1] });
    expect(firstOccurrence(series)).toMatchObject({ date: "2026-04-06", start: "2026-04-06T06:00:00.000Z" });
    // Never: the 30th of February every 12 months.
    const never = timedSeries(zone, "2026-02-01T06:00:00.000Z", 30, {
      frequency: "monthly",
      interval: 12,
      daysOfMonth: [30],
    });
    expect(firstOccurrence(never)).toBeNull();
  });
});
