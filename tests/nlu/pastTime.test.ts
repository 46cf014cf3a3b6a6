import { describe, expect, it } from "vitest";
import { readPastPeriod, withoutPeriod } from "../../src/nlu/pastTime.js";
import { localToInstant } from "../../src/nlu/zonedTime.js";

const ISRAEL = "Asia/Jerusalem";
const NEW_YORK = "America/New_York";
/** Friday 20 November 2026, 11:00 in Israel. */
const NOW = localToInstant({ year: 2026, month: 11, day: 20, hour: 11, minute: 0 }, ISRAEL);

/** Local midnight of a day in the zone. */
const day = (month: number, d: number, zone = ISRAEL, year = 2026) =>
  localToInstant({ year, month, day: d, hour: 0, minute: 0 }, zone);

describe("past periods read in code (D6, D10)", () => {
  it.each([
    ["yesterday", day(11, 19), day(11, 20), "day"],
    ["the day before yesterday", day(11, 18), day(11, 19), "day"],
    // Israel's week starts on Sunday: last week is Sun 8 – Sat 14 November.
    ["last week", day(11, 8), day(11, 15), "week"],
    ["last month", day(10, 1), day(11, 1), "month"],
    ["last year", day(1, 1, ISRAEL, 2025), day(1, 1), "year"],
    ["two weeks ago", day(11, 1), day(11, 8), "week"],
    ["3 months ago", day(8, 1), day(9, 1), "month"],
    ["in March", day(3, 1), day(4, 1), "month"],
    ["at the start of March", day(3, 1), day(4, 1), "month"],
    ["in early May", day(5, 1), day(6, 1), "month"],
    // December said in November with no year is last December, never a future one.
    ["in December", day(12, 1, ISRAEL, 2025), day(1, 1), "month"],
    ["back in 2019", day(1, 1, ISRAEL, 2019), day(1, 1, ISRAEL, 2020), "year"],
    ["אתמול", day(11, 19), day(11, 20), "day"],
    ["בשבוע שעבר", day(11, 8), day(11, 15), "week"],
    ["בחודש שעבר", day(10, 1), day(11, 1), "month"],
    ["לפני שבועיים", day(11, 1), day(11, 8), "week"],
    ["לפני 3 חודשים", day(8, 1), day(9, 1), "month"],
    ["במרץ", day(3, 1), day(4, 1), "month"],
    ["בתחילת מאי", day(5, 1), day(6, 1), "month"],
    ["ב-2019", day(1, 1, ISRAEL, 2019), day(1, 1, ISRAEL, 2020), "year"],
    ["השבוע שעבר", day(11, 8), day(11, 15), "week"],
    ["החודש שעבר", day(10, 1), day(11, 1), "month"],
    ["השנה שעברה", day(1, 1, ISRAEL, 2025), day(1, 1), "year"],
    ["on March 5", day(3, 5), day(3, 6), "day"],
    ["on March 5th, 2025", day(3, 5, ISRAEL, 2025), day(3, 6, ISRAEL, 2025), "day"],
  ])("%s", (words, from, to, precision) => {
    expect(readPastPeriod(`I moved ${words}`, NOW, ISRAEL)).toMatchObject({ from, to, precision });
  });

  it("this week / this month end now, never later", () => {
    expect(readPastPeriod("this week", NOW, ISRAEL)).toMatchObject({ from: day(11, 15), to: NOW });
    expect(readPastPeriod("החודש", NOW, ISRAEL)).toMatchObject({ from: day(11, 1), to: NOW });
  });

  it("weeks start on Monday outside Israel, in the user's own zone", () => {
    const now = localToInstant({ year: 2026, month: 11, day: 20, hour: 11, minute: 0 }, NEW_YORK);
    expect(readPastPeriod("last week", now, NEW_YORK)).toMatchObject({
      from: day(11, 9, NEW_YORK),
      to: day(11, 16, NEW_YORK),
    });
  });

  it.each([
    "recently",
    "a while ago",
    "a few weeks ago",
    "לאחרונה",
    "לפני כמה שבועות",
    "in 2030",
    "1000 years ago",
    "on February 30",
    "the week before the wedding",
    "",
    "\u200b",
  ])("reads nothing whole from %j (complete or absent)", (words) => {
    expect(readPastPeriod(`I moved ${words}`.trim(), NOW, ISRAEL)).toBeNull();
  });

  it("a fact's start is this year's month or nothing: 'started in December', said in November, is not last December", () => {
    expect(readPastPeriod("started in December", NOW, ISRAEL)).toMatchObject({ precision: "month" });
    expect(readPastPeriod("started in December", NOW, ISRAEL, { thisYearOnly: true })).toBeNull();
    expect(readPastPeriod("started in March", NOW, ISRAEL, { thisYearOnly: true })).toMatchObject({
      from: day(3, 1),
    });
    const january = day(1, 5);
    expect(readPastPeriod("started in December", january, ISRAEL, { thisYearOnly: true })).toMatchObject({
      from: day(12, 1, ISRAEL, 2025),
    });
  });

  it("takes the period's words out of the text", () => {
    const text = "where did I live in March?";
    expect(withoutPeriod(text, readPastPeriod(text, NOW, ISRAEL)!)).toBe("where did I live?");
    const he = "עברנו לחיפה בשבוע שעבר";
    expect(withoutPeriod(he, readPastPeriod(he, NOW, ISRAEL)!)).toBe("עברנו לחיפה");
  });
});
