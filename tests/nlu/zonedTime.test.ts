import { describe, expect, it } from "vitest";
import {
  addDays,
  addMonths,
  dayOfWeek,
  daysInMonth,
  formatClock,
  instantToLocal,
  isValidLocalDateTime,
  localToInstant,
  parseClock,
} from "../../src/nlu/zonedTime.js";

const iso = (ms: number) => new Date(ms).toISOString();

describe("localToInstant", () => {
  it.each([
    // zone, local wall time, instant
    ["Asia/Jerusalem", "2026-01-15 09:00", "2026-01-15T07:00:00.000Z"], // winter, +02
    ["Asia/Jerusalem", "2026-07-15 09:00", "2026-07-15T06:00:00.000Z"], // summer, +03
    ["America/New_York", "2026-01-15 09:00", "2026-01-15T14:00:00.000Z"],
    ["America/New_York", "2026-07-15 09:00", "2026-07-15T13:00:00.000Z"],
    ["Europe/London", "2026-07-15 09:00", "2026-07-15T08:00:00.000Z"],
    ["UTC", "2026-06-01 12:00", "2026-06-01T12:00:00.000Z"],
  ])("%s %s is %s", (zone, local, expected) => {
    expect(iso(localToInstant(parseLocal(local), zone))).toBe(expected);
  });

  it.each([
    // Spring forward: the missing wall time moves forward by the gap.
    ["Asia/Jerusalem", "2026-03-27 02:30", "2026-03-27T00:30:00.000Z", "03:30"],
    ["Asia/Jerusalem", "2026-03-27 02:00", "2026-03-27T00:00:00.000Z", "03:00"],
    ["America/New_York", "2026-03-08 02:30", "2026-03-08T07:30:00.000Z", "03:30"],
    ["Europe/London", "2026-03-29 01:30", "2026-03-29T01:30:00.000Z", "02:30"],
  ])("%s %s does not exist and becomes %s (%s local)", (zone, local, expected, shown) => {
    const at = localToInstant(parseLocal(local), zone);
    expect(iso(at)).toBe(expected);
    const back = instantToLocal(at, zone);
    expect(formatClock(back.hour, back.minute)).toBe(shown);
  });

  it.each([
    // Fall back: the repeated wall time means its first occurrence (the summer offset).
    ["Asia/Jerusalem", "2026-10-25 01:30", "2026-10-24T22:30:00.000Z"],
    ["America/New_York", "2026-11-01 01:30", "2026-11-01T05:30:00.000Z"],
    ["Europe/London", "2026-10-25 01:30", "2026-10-25T00:30:00.000Z"],
  ])("%s %s occurs twice; the first is %s", (zone, local, expected) => {
    expect(iso(localToInstant(parseLocal(local), zone))).toBe(expected);
  });

  it("round-trips ordinary wall times through instantToLocal", () => {
    for (const zone of ["Asia/Jerusalem", "America/New_York", "Europe/London", "UTC"]) {
      for (const local of ["2026-03-26 23:59", "2026-03-28 00:00", "2026-10-25 03:00", "2028-02-29 12:34"]) {
        const back = instantToLocal(localToInstant(parseLocal(local), zone), zone);
        expect(formatLocal(back)).toBe(local);
      }
    }
  });

  it("rejects impossible dates and times, and unknown zones", () => {
    expect(() => localToInstant(parseLocal("2026-02-30 09:00"), "UTC")).toThrow(RangeError);
    expect(() => localToInstant({ year: 2026, month: 1, day: 1, hour: 24, minute: 0 }, "UTC")).toThrow(
      RangeError,
    );
    expect(() => localToInstant(parseLocal("2026-01-01 09:00"), "Mars/Olympus")).toThrow(RangeError);
  });
});

describe("instantToLocal", () => {
  it("gives the wall time and weekday in the zone, not the system's", () => {
    expect(instantToLocal(Date.parse("2026-03-27T00:30:00Z"), "Asia/Jerusalem")).toEqual({
      year: 2026,
      month: 3,
      day: 27,
      hour: 3,
      minute: 30,
      dayOfWeek: 5,
    });
    // 23:30Z on Oct 24 is the second 01:30 of Oct 25 in Jerusalem, a Sunday.
    expect(instantToLocal(Date.parse("2026-10-24T23:30:00Z"), "Asia/Jerusalem")).toMatchObject({
      day: 25,
      hour: 1,
      minute: 30,
      dayOfWeek: 0,
    });
    expect(instantToLocal(Date.parse("2026-01-01T03:00:00Z"), "America/New_York")).toMatchObject({
      year: 2025,
      month: 12,
      day: 31,
      hour: 22,
      dayOfWeek: 3,
    });
  });
});

describe("calendar arithmetic", () => {
  it.each([
    ["2026-01-31", 1, "2026-02-01"],
    ["2026-12-31", 1, "2027-01-01"],
    ["2028-02-28", 1, "2028-02-29"],
    ["2026-03-01", -1, "2026-02-28"],
    ["2026-03-26", 7, "2026-04-02"],
    ["2026-01-01", 365, "2027-01-01"],
  ])("addDays(%s, %i) = %s", (from, days, expected) => {
    expect(formatDate(addDays(parseDate(from), days))).toBe(expected);
  });

  it.each([
    ["2026-01-31", 1, "2026-02-28"],
    ["2028-01-31", 1, "2028-02-29"],
    ["2026-03-31", 1, "2026-04-30"],
    ["2026-12-15", 1, "2027-01-15"],
    ["2026-03-31", -1, "2026-02-28"],
    ["2026-05-10", 14, "2027-07-10"],
  ])("addMonths(%s, %i) = %s", (from, months, expected) => {
    expect(formatDate(addMonths(parseDate(from), months))).toBe(expected);
  });

  it("rejects fractional day and month counts", () => {
    expect(() => addDays(parseDate("2026-01-01"), 1.5)).toThrow(RangeError);
    expect(() => addMonths(parseDate("2026-01-01"), 0.5)).toThrow(RangeError);
  });

  it.each([
    [2026, 2, 28],
    [2028, 2, 29],
    [2100, 2, 28],
    [2000, 2, 29],
    [2026, 4, 30],
    [2026, 12, 31],
  ])("daysInMonth(%i, %i) = %i", (year, month, expected) => {
    expect(daysInMonth(year, month)).toBe(expected);
  });

  it("numbers weekdays 0 = Sunday", () => {
    expect(dayOfWeek(parseDate("2026-03-27"))).toBe(5);
    expect(dayOfWeek(parseDate("2026-10-25"))).toBe(0);
    expect(dayOfWeek(parseDate("2026-03-14"))).toBe(6);
  });

  it("validates local date-times", () => {
    expect(isValidLocalDateTime(parseLocal("2028-02-29 23:59"))).toBe(true);
    expect(isValidLocalDateTime(parseLocal("2026-02-29 09:00"))).toBe(false);
    expect(isValidLocalDateTime({ year: 2026, month: 13, day: 1, hour: 0, minute: 0 })).toBe(false);
    expect(isValidLocalDateTime({ year: 2026, month: 1, day: 1, hour: 9, minute: 60 })).toBe(false);
  });
});

describe("parseClock / formatClock", () => {
  it.each([
    ["9", { hour: 9, minute: 0 }],
    ["09:00", { hour: 9, minute: 0 }],
    ["9:30", { hour: 9, minute: 30 }],
    ["21:05", { hour: 21, minute: 5 }],
    ["0:00", { hour: 0, minute: 0 }],
    [" 23:59 ", { hour: 23, minute: 59 }],
    ["24:00", null],
    ["9:60", null],
    ["9:5", null],
    ["9pm", null],
    ["", null],
    ["123", null],
  ])("parseClock(%j) = %j", (text, expected) => {
    expect(parseClock(text)).toEqual(expected);
  });

  it("pads to HH:mm", () => {
    expect(formatClock(9, 0)).toBe("09:00");
    expect(formatClock(21, 5)).toBe("21:05");
  });
});

function parseDate(text: string) {
  const [year, month, day] = text.split("-").map(Number) as [number, number, number];
  return { year, month, day };
}

function parseLocal(text: string) {
  const [date = "", time = ""] = text.split(" ");
  const clock = parseClock(time);
  if (!clock) throw new Error(`bad test time ${text}`);
  return { ...parseDate(date), ...clock };
}

function formatDate(d: { year: number; month: number; day: number }): string {
  return `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
}

function formatLocal(d: { year: number; month: number; day: number; hour: number; minute: number }): string {
  return `${formatDate(d)} ${formatClock(d.hour, d.minute)}`;
}
