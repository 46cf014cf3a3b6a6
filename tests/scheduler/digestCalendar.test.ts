import { describe, expect, it } from "vitest";
import { digestCalendar } from "../../src/services/reminder/digestCalendar.js";

/**
 * The digest's holiday line as the user reads it (issue 36): Chanukah by its days (the evening of
 * 24 Kislev is its erev, 2 Tevet its last day), chol hamoed in words, no year in Rosh Hashana, Yom
 * Kippur as יום הכיפורים, Shushan Purim (not Purim) for a user who named Jerusalem. 08:00 in
 * Jerusalem each day (05:00Z or 06:00Z).
 */

const user = (language: "he" | "en", sabbathCity: string | null = null) => ({
  language,
  timeZone: "Asia/Jerusalem",
  sabbathQuiet: false,
  sabbathCity,
  calendarSchedule: null,
});
const at = (date: string, summer: boolean) => Date.parse(`${date}T0${summer ? 5 : 6}:00:00Z`);
const line = (language: "he" | "en", date: string, summer = false, city: string | null = null) =>
  digestCalendar(user(language, city), at(date, summer)).holidays ?? [];

describe("the digest's holiday names", () => {
  it("24 Kislev is Chanukah's erev (the first candle tonight), not 'Today is Chanukah'", () => {
    expect(line("en", "2025-12-14")).toEqual(["Erev Chanukah (the first candle tonight)"]);
    expect(line("he", "2025-12-14")).toEqual(["ערב חנוכה (הערב מדליקים נר ראשון)"]);
  });

  it("the days of Chanukah, and its 8th day (22 Dec 2025)", () => {
    expect(line("en", "2025-12-15")).toEqual(["Chanukah (2 candles tonight)"]);
    expect(line("en", "2025-12-22")).toEqual(["Chanukah (its last day)"]);
    expect(line("he", "2025-12-22")).toEqual(["חנוכה (היום האחרון)"]);
    expect(line("en", "2025-12-23")).toEqual([]);
  });

  it("chol hamoed in words, Rosh Hashana without its year, Yom Kippur by its Hebrew name", () => {
    expect(line("en", "2025-10-08", true)).toEqual(["Sukkot (chol hamoed)"]);
    expect(line("he", "2025-10-08", true)).toEqual(["סוכות (חול המועד)"]);
    expect(line("en", "2025-09-23", true)).toEqual(["Rosh Hashana"]);
    expect(line("he", "2025-09-23", true)).toEqual(["ראש השנה"]);
    expect(line("he", "2025-10-02", true)).toEqual(["יום הכיפורים"]);
  });

  it("Purim on 14 Adar in Israel; a user who named Jerusalem has Shushan Purim on the 15th instead", () => {
    expect(line("en", "2026-03-03")).toEqual(["Purim"]);
    expect(line("en", "2026-03-03", false, "Jerusalem")).toEqual([]);
    expect(line("en", "2026-03-04", false, "Jerusalem")).toEqual(["Shushan Purim"]);
    expect(line("en", "2026-03-02", false, "Jerusalem")).toEqual(["Ta’anit Esther"]);
  });
});
