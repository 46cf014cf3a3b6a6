/**
 * The two calendars (issue 36): Hebrew dates and holidays read as times, yearly Hebrew dates kept by
 * their customs, against fixtures taken by hand from published calendars, and Memo's Hebrew ↔
 * Gregorian arithmetic against @hebcal/core's own conversion for every day of twenty years.
 */
import { HDate } from "@hebcal/core";
import { describe, expect, it } from "vitest";
import {
  gregorianOf,
  hebrewDateOf,
  observanceIn,
  otherYearsDay,
  scheduleOf,
  type HebrewYearly,
} from "../../src/nlu/hebrewCalendar.js";
import { readTime, type ReadTimeOptions } from "../../src/nlu/parseTime.js";
import { normalizeText } from "../../src/nlu/timeWords.js";
import { unreadTimeWords } from "../../src/nlu/unreadTime.js";
import { recognizeCalendarQuestion } from "../../src/nlu/calendarQuestions.js";
import { calendarAnswerText } from "../../src/graph/plan/calendarAnswer.js";
import { nextOccurrence } from "../../src/nlu/recurrence.js";
import { addDays, type LocalDate } from "../../src/nlu/zonedTime.js";
import { ruleText } from "../../src/services/tasks/replies.js";
import type { Recurrence } from "../../src/types/recurrence.js";

const JERUSALEM = "Asia/Jerusalem";
const NEW_YORK = "America/New_York";

/** What readTime makes of a message: a local wall time, a rule with its first three local times, or the reason it asks. */
function read(text: string, nowIso: string, timeZone: string, options: ReadTimeOptions = {}) {
  const reading = readTime(text, Date.parse(nowIso), timeZone, options);
  if (!reading) return null;
  if (reading.kind === "instant") return { local: reading.local, text: reading.text };
  if (reading.kind === "unclear") return { ask: reading.reason };
  const wall = (at: number) =>
    new Intl.DateTimeFormat("sv-SE", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .format(at)
      .replace(" ", "T");
  const times = [reading.firstAt];
  for (let i = 0; i < 2; i++) {
    const after = nextOccurrence(reading.recurrence, timeZone, times.at(-1) ?? 0);
    if (after !== null) times.push(after);
  }
  return { recurrence: reading.recurrence, every: times.map(wall), text: reading.text };
}

describe("Hebrew ↔ Gregorian arithmetic against @hebcal/core, every day of 20 years", () => {
  it("agrees on every day from 2020 to 2040 and round-trips", () => {
    let day: LocalDate = { year: 2020, month: 1, day: 1 };
    let count = 0;
    while (day.year < 2040) {
      const hd = new HDate(new Date(day.year, day.month - 1, day.day));
      const mine = hebrewDateOf(day);
      expect(mine).toEqual({ year: hd.getFullYear(), month: hd.getMonth(), day: hd.getDate() });
      expect(gregorianOf(mine)).toEqual(day);
      // A date every year has is kept on that very day by the plain-date custom (plain Adar in a
      // leap year is Adar II, checked below).
      if (mine.month < 12 && mine.day < 30) {
        expect(observanceIn(mine.year, { month: mine.month, day: mine.day, custom: "date" })).toEqual(day);
      }
      day = addDays(day, 1);
      count++;
    }
    expect(count).toBe(7305);
  });
});

describe("holidays: published dates, 2026–2028, Israel and the diaspora", () => {
  // Fixtures from published calendars (hebcal.com, chabad.org): first days of the holidays.
  const cases: [string, string, string, string][] = [
    // [text, now, zone, expected local]
    ["on Rosh Hashana at 10", "2026-03-11T08:00:00Z", JERUSALEM, "2026-09-12T10:00"],
    ["בראש השנה ב-10", "2026-11-28T10:00:00Z", JERUSALEM, "2027-10-02T10:00"],
    ["on Rosh Hashanah at 10", "2028-01-01T08:00:00Z", NEW_YORK, "2028-09-21T10:00"],
    ["on Yom Kippur at 10", "2026-03-11T08:00:00Z", JERUSALEM, "2026-09-21T10:00"],
    ["ביום כיפור ב-10", "2027-01-01T08:00:00Z", JERUSALEM, "2027-10-11T10:00"],
    ["before Yom Kippur at 10", "2027-01-01T08:00:00Z", NEW_YORK, "2027-10-10T10:00"],
    ["on Pesach at 10", "2026-11-28T10:00:00Z", NEW_YORK, "2027-04-22T10:00"],
    ["בפסח ב-10", "2028-01-01T08:00:00Z", JERUSALEM, "2028-04-11T10:00"],
    ["the first night of Hanukkah at 6pm", "2026-11-28T10:00:00Z", JERUSALEM, "2026-12-04T18:00"],
    ["נר ראשון של חנוכה ב-18:00", "2027-01-01T08:00:00Z", JERUSALEM, "2027-12-24T18:00"],
    ["on Chanukah at 10", "2028-01-01T08:00:00Z", NEW_YORK, "2028-12-13T10:00"],
    ["on Purim at 10", "2026-11-28T10:00:00Z", JERUSALEM, "2027-03-23T10:00"],
    ["on Sukkot at 10", "2026-03-11T08:00:00Z", NEW_YORK, "2026-09-26T10:00"],
    ["on Shavuot at 10", "2026-03-11T08:00:00Z", JERUSALEM, "2026-05-22T10:00"],
    ["on Shavuot at 10", "2027-01-01T08:00:00Z", NEW_YORK, "2027-06-11T10:00"],
    ["בשבועות ב-10", "2028-01-01T08:00:00Z", JERUSALEM, "2028-05-31T10:00"],
    // Simchat Torah: 22 Tishrei in Israel, 23 abroad.
    ["on Simchat Torah at 10", "2026-03-11T08:00:00Z", JERUSALEM, "2026-10-03T10:00"],
    ["on Simchat Torah at 10", "2026-03-11T08:00:00Z", NEW_YORK, "2026-10-04T10:00"],
    ["בשמחת תורה ב-10", "2027-01-01T08:00:00Z", JERUSALEM, "2027-10-23T10:00"],
    ["on Simchat Torah at 10", "2027-01-01T08:00:00Z", NEW_YORK, "2027-10-24T10:00"],
    ["on Tu BiShvat at 10", "2026-11-28T10:00:00Z", JERUSALEM, "2027-01-23T10:00"],
    ['בט"ו בשבט ב-10', "2027-03-01T10:00:00Z", JERUSALEM, "2028-02-12T10:00"],
    ["on Lag BaOmer at 10", "2026-03-11T08:00:00Z", JERUSALEM, "2026-05-05T10:00"],
    // Tisha B'Av 5786: 9 Av is a Thursday; in 5788, 9 Av is Shabbat and the fast is on Sunday 10 Av.
    ["on Tisha B'Av at 10", "2026-03-11T08:00:00Z", JERUSALEM, "2026-07-23T10:00"],
    ["בתשעה באב ב-10", "2028-01-01T08:00:00Z", JERUSALEM, "2028-08-01T10:00"],
    ["ביום העצמאות ב-10", "2026-03-11T08:00:00Z", JERUSALEM, "2026-04-22T10:00"],
    ["on Christmas at 6 pm", "2026-03-11T08:00:00Z", NEW_YORK, "2026-12-25T18:00"],
    ["בחג המולד ב-18:00", "2026-03-11T08:00:00Z", JERUSALEM, "2026-12-25T18:00"],
    ["New Year's Day at 10", "2026-03-11T08:00:00Z", NEW_YORK, "2027-01-01T10:00"],
    ["on Thanksgiving at 10", "2028-01-01T08:00:00Z", NEW_YORK, "2028-11-23T10:00"],
    // Canada's Thanksgiving: the 2nd Monday of October (12 October 2026).
    ["on Thanksgiving at 10", "2026-03-11T08:00:00Z", "America/Toronto", "2026-10-12T10:00"],
    // 5789: 9 Av is Shabbat 21 July 2029; the fast is "observed" on Sunday 22 July.
    ["on Tisha B'Av at 10", "2029-07-01T08:00:00Z", JERUSALEM, "2029-07-22T10:00"],
    ["on Mother's Day at 10", "2027-01-01T08:00:00Z", NEW_YORK, "2027-05-09T10:00"],
    ["ביום האם ב-10", "2027-03-01T10:00:00Z", JERUSALEM, "2028-02-27T10:00"],
  ];
  it.each(cases)("%s (now %s, %s) → %s", (text, now, zone, local) => {
    expect(read(text, now, zone)).toMatchObject({ local });
  });

  it("keeps a chosen schedule over the zone's (a diaspora user in Jerusalem)", () => {
    expect(
      read("on Simchat Torah at 10", "2026-03-11T08:00:00Z", JERUSALEM, {
        calendar: { schedule: "diaspora" },
      }),
    ).toMatchObject({ local: "2026-10-04T10:00" });
  });

  it("never leaves a holiday's name in the title", () => {
    expect(read("remind me on Christmas at 6 pm to call grandma", "2026-11-28T10:00:00Z", JERUSALEM)).toEqual(
      {
        local: "2026-12-25T18:00",
        text: "remind me to call grandma",
      },
    );
    expect(read("ערב ראש השנה לקנות דבש", "2026-11-28T10:00:00Z", JERUSALEM)).toEqual({
      local: "2027-10-01T09:00",
      text: "לקנות דבש",
    });
  });

  it("asks Mother's Day where the zone tells no country, and is Mothering Sunday in the UK", () => {
    expect(read("on mother's day call mom", "2026-03-11T08:00:00Z", "Asia/Kolkata")).toEqual({
      ask: "unread",
    });
    // Easter 2027 is 28 March: Mothering Sunday three weeks before.
    expect(read("on mother's day call mom", "2026-11-28T10:00:00Z", "Europe/London")).toMatchObject({
      local: "2027-03-07T09:00",
    });
  });

  it("leaves month names that are also people's names alone", () => {
    expect(read("remind me to call Sivan tomorrow at 9", "2026-11-28T10:00:00Z", JERUSALEM)).toEqual({
      local: "2026-11-29T09:00",
      text: "remind me to call Sivan",
    });
    expect(read("תזכיר לי מחר ב-9 להתקשר לסיוון", "2026-11-28T10:00:00Z", JERUSALEM)).toMatchObject({
      local: "2026-11-29T09:00",
    });
  });

  it("does not read 'weeks' as Shavuot after a number", () => {
    expect(read("בעוד שלושה שבועות לבדוק", "2026-11-28T10:00:00Z", JERUSALEM)).toMatchObject({
      local: "2026-12-19T12:00",
    });
  });
});

describe("a holiday's name said as content, not as a time", () => {
  const NOW = "2026-11-28T10:00:00Z"; // Saturday 28 November 2026
  it.each([
    // A noun made of the name, with another day named: that day, the name kept in the title.
    ["buy a christmas tree tomorrow", JERUSALEM, "2026-11-29T09:00", "buy a christmas tree"],
    ["buy a christmas tree tomorrow at 9", JERUSALEM, "2026-11-29T09:00", "buy a christmas tree"],
    ["purim costume for noa tomorrow", JERUSALEM, "2026-11-29T09:00", "purim costume for noa"],
    ["christmas shopping on tuesday", NEW_YORK, "2026-12-01T09:00", "christmas shopping"],
    ["תחפושת פורים מחר", JERUSALEM, "2026-11-29T09:00", "תחפושת פורים"],
    ["מסיבת פורים מחר בשמונה בערב", JERUSALEM, "2026-11-29T20:00", "מסיבת פורים"],
    ["christmas dinner in 2 hours", JERUSALEM, "2026-11-28T14:00", "christmas dinner"],
    // A purpose: never a time, the other day decides.
    ["קניות לפסח ביום שישי", JERUSALEM, "2026-12-04T09:00", "קניות לפסח"],
    ["gifts for hanukkah on friday at 5pm", NEW_YORK, "2026-12-04T17:00", "gifts for hanukkah"],
    // A greeting: never a time.
    ["wish mom a happy hanukkah on friday", NEW_YORK, "2026-12-04T09:00", "wish mom a happy hanukkah"],
    ["לאחל לאמא חג פסח שמח מחר", JERUSALEM, "2026-11-29T09:00", "לאחל לאמא חג פסח שמח"],
  ])("%s (%s) → %s, titled %s", (text, zone, local, title) => {
    expect(read(text, NOW, zone)).toEqual({ local, text: title });
  });

  it("names no time for a purpose alone", () => {
    expect(read("buy matzah for pesach", NOW, JERUSALEM)).toBeNull();
    expect(read("ניקיון לפסח", NOW, JERUSALEM)).toBeNull();
    expect(read("merry christmas", NOW, JERUSALEM)).toBeNull();
    expect(read("פסח שמח", NOW, JERUSALEM)).toBeNull();
    expect(read("לקראת פסח לנקות את המטבח", NOW, JERUSALEM)).toBeNull();
    // "ל״ט"ו בשבט" is the holiday's, not a Hebrew date read from inside it.
    expect(read('לקנות פירות יבשים לט"ו בשבט', NOW, JERUSALEM)).toBeNull();
  });

  it("still reads the name as the day in time position, or as a noun's part when no other day is named", () => {
    expect(read("xmas dinner at 7pm", NOW, JERUSALEM)).toEqual({ local: "2026-12-25T19:00", text: "dinner" });
    expect(read("new year's eve party at 9pm", NOW, JERUSALEM)).toEqual({
      local: "2026-12-31T21:00",
      text: "party",
    });
    expect(read("remind me before christmas", NOW, JERUSALEM)).toMatchObject({ local: "2026-12-24T09:00" });
    expect(read("christmas morning", NOW, JERUSALEM)).toMatchObject({ local: "2026-12-25T09:00" });
    expect(read("בחנוכה", NOW, JERUSALEM)).toMatchObject({ local: "2026-12-05T09:00" });
    expect(read("ערב ראש השנה ב-18:00", NOW, JERUSALEM)).toMatchObject({ local: "2027-10-01T18:00" });
    expect(read("the first night of hanukkah at 6pm", NOW, JERUSALEM)).toMatchObject({
      local: "2026-12-04T18:00",
    });
    expect(read("every year on rosh hashana", NOW, JERUSALEM)).toMatchObject({
      every: ["2027-10-02T09:00", "2028-09-21T09:00", "2029-09-10T09:00"],
    });
    // Two days, the holiday in time position: asked, never either one silently.
    expect(read("on christmas call mom tomorrow", NOW, JERUSALEM)).toEqual({ ask: "unread" });
    expect(read("בפורים תחפושת מחר", NOW, JERUSALEM)).toEqual({ ask: "unread" });
  });

  it("flags a leftover name in time position and not in content position (the scanner's same rule)", () => {
    const flagged = (text: string) => {
      const normalized = normalizeText(text).text;
      return unreadTimeWords(normalized).map(({ start, end }) => normalized.slice(start, end));
    };
    expect(flagged("call grandma on christmas")).toEqual(["christmas"]);
    expect(flagged("להתקשר לסבתא בפסח")).toEqual(["בפסח"]);
    expect(flagged("call grandma christmas at |||")).toEqual(["christmas"]);
    expect(flagged("buy a christmas tree")).toEqual([]);
    expect(flagged("buy matzah for pesach")).toEqual([]);
    expect(flagged("קניות לפסח")).toEqual([]);
    expect(flagged("תחפושת פורים")).toEqual([]);
  });
});

describe("words around a holiday's name (the day they name, or asked)", () => {
  // Thursday 5 March 2026, 12:00 in Jerusalem. Pesach 5786: Thursday 2 April 2026 (15 Nisan), seven
  // days in Israel (last day 8 April), eight in the diaspora (9 April). Rosh Hashana 5787: 12–13
  // September 2026. Hanukkah 5787: first day Saturday 5 December 2026, eight days.
  const NOW = "2026-03-05T10:00:00Z";
  it.each([
    ["remind me a week before Pesach to clean", JERUSALEM, "2026-03-26T09:00", "remind me to clean"],
    ["3 days before pesach call the caterer", JERUSALEM, "2026-03-30T09:00", "call the caterer"],
    ["two weeks before passover book flights", NEW_YORK, "2026-03-19T09:00", "book flights"],
    ["שבוע לפני פסח לנקות את המטבח", JERUSALEM, "2026-03-26T09:00", "לנקות את המטבח"],
    ["יומיים לפני ראש השנה לקנות דבש", JERUSALEM, "2026-09-10T09:00", "לקנות דבש"],
    ["3 ימים לפני פסח להזמין יין", JERUSALEM, "2026-03-30T09:00", "להזמין יין"],
    // After: the day after its last day, on the user's schedule.
    ["remind me after Pesach to call the bank", JERUSALEM, "2026-04-09T09:00", "remind me to call the bank"],
    ["remind me after Pesach to call the bank", NEW_YORK, "2026-04-10T09:00", "remind me to call the bank"],
    ["תזכיר לי אחרי פסח להחזיר את הכלים", JERUSALEM, "2026-04-09T09:00", "תזכיר לי להחזיר את הכלים"],
    // Eve: the day before.
    ["on Pesach eve buy wine", JERUSALEM, "2026-04-01T09:00", "buy wine"],
    ["on the eve of Pesach buy wine", JERUSALEM, "2026-04-01T09:00", "buy wine"],
    ["on Yom Kippur eve at 5pm call dad", JERUSALEM, "2026-09-20T17:00", "call dad"],
    ["on the evening before Pesach set the table", JERUSALEM, "2026-04-01T20:00", "set the table"],
    ["בערב שלפני פסח לערוך שולחן", JERUSALEM, "2026-04-01T20:00", "לערוך שולחן"],
    ["next Pesach call grandma", JERUSALEM, "2026-04-02T09:00", "call grandma"],
    // A day of the holiday.
    ["the second day of Rosh Hashana visit grandma", JERUSALEM, "2026-09-13T09:00", "visit grandma"],
    ["ביום השני של ראש השנה לבקר את סבתא", JERUSALEM, "2026-09-13T09:00", "לבקר את סבתא"],
    ["ביום הראשון של פסח לבקר את סבתא", JERUSALEM, "2026-04-02T09:00", "לבקר את סבתא"],
    ["the last day of Pesach picnic", JERUSALEM, "2026-04-08T09:00", "picnic"],
    ["the last day of Pesach picnic", NEW_YORK, "2026-04-09T09:00", "picnic"],
    ["at the end of Pesach put away the dishes", JERUSALEM, "2026-04-08T09:00", "put away the dishes"],
    ["במוצאי פסח לקנות לחם", JERUSALEM, "2026-04-08T20:00", "לקנות לחם"],
    ["the second night of hanukkah light candles", JERUSALEM, "2026-12-05T20:00", "light candles"],
    ["the Shabbat before Pesach visit grandma", JERUSALEM, "2026-03-28T09:00", "visit grandma"],
    ["בשבת שלפני פסח לבקר את סבתא", JERUSALEM, "2026-03-28T09:00", "לבקר את סבתא"],
  ])("%s (%s) → %s, titled %s", (text, zone, local, title) => {
    expect(read(text, NOW, zone)).toEqual({ local, text: title });
  });

  it("reads 'every Pesach' and 'כל פסח' as a yearly rule, as 'every year on Pesach'", () => {
    const pesach = { type: "hebrew", time: "10:00", hebrew: { month: 1, day: 15, custom: "date" } };
    // Pesach 5786, 5787, 5788: 2 April 2026, 22 April 2027, 11 April 2028.
    const every = ["2026-04-02T10:00", "2027-04-22T10:00", "2028-04-11T10:00"];
    expect(read("every Pesach at 10 call grandma", NOW, JERUSALEM)).toEqual({
      recurrence: pesach,
      every,
      text: "call grandma",
    });
    expect(read("כל פסח בעשר להתקשר לסבתא", NOW, JERUSALEM)).toEqual({
      recurrence: pesach,
      every,
      text: "להתקשר לסבתא",
    });
    expect(read("every Hanukkah at 18:00 light candles", NOW, JERUSALEM)).toMatchObject({
      recurrence: { type: "hebrew", time: "18:00", hebrew: { month: 9, day: 25 } },
      every: ["2026-12-05T18:00", "2027-12-25T18:00", "2028-12-13T18:00"],
    });
    // A day moved from the holiday is no one yearly rule: asked.
    expect(read("every year a week before pesach", NOW, JERUSALEM)).toEqual({ ask: "unsupported" });
  });

  it.each([
    // Time words the grammar does not read, beside the name: never the bare first day.
    ["during Hanukkah light candles", JERUSALEM],
    ["Shabbat Chanukah visit grandma", JERUSALEM],
    ["בשבת חנוכה לבקר את סבתא", JERUSALEM],
    ["chol hamoed Pesach trip", JERUSALEM],
    ["בחול המועד פסח טיול", JERUSALEM],
    ["טיול בחול המועד פסח מחר", JERUSALEM],
    ["a week after Pesach call the bank", JERUSALEM],
    ["כמה ימים לפני פסח לנקות", JERUSALEM],
    ["over Christmas call grandma", NEW_YORK],
    ["last Pesach photos", JERUSALEM],
    ["every next pesach", JERUSALEM],
    ["remind me after christmas dinner to wash up", NEW_YORK],
    // Days the holiday does not have: Shavuot is one day in Israel; Sukkot's end is not told.
    ["the second day of Shavuot", JERUSALEM],
    ["after Sukkot call the plumber", JERUSALEM],
    // A purpose with a clock and no day: the clock is likely the holiday's.
    ["dinner for christmas at 6pm", JERUSALEM],
    ["לקנות מצות לפסח בשעה 17:00", JERUSALEM],
  ])("asks about %s (%s)", (text, zone) => {
    expect(read(text, NOW, zone)).toEqual({ ask: "unread" });
  });

  it("names the whole qualified phrase as the words to ask about, and the scanner flags them", () => {
    const reading = readTime("during Hanukkah light candles", Date.parse(NOW), JERUSALEM);
    expect(reading).toMatchObject({ kind: "unclear", unread: ["during Hanukkah"], text: "light candles" });
    const flagged = (text: string) => {
      const normalized = normalizeText(text).text;
      return unreadTimeWords(normalized).map(({ start, end }) => normalized.slice(start, end));
    };
    expect(flagged("light candles during hanukkah")).toEqual(["during hanukkah"]);
    expect(flagged("clean a week before pesach")).toEqual(["a week before pesach"]);
    expect(flagged("visit grandma shabbat chanukah")).toEqual(["shabbat chanukah"]);
    expect(flagged("לנקות שבוע לפני פסח")).toEqual(["שבוע לפני פסח"]);
    expect(flagged("טיול בחול המועד פסח")).toEqual(["בחול המועד פסח"]);
  });
});

describe("yearly holidays", () => {
  it("every year on Rosh Hashana is the Hebrew date 1 Tishrei", () => {
    expect(read("every year on Rosh Hashana call mom", "2026-11-28T10:00:00Z", JERUSALEM)).toMatchObject({
      recurrence: { type: "hebrew", hebrew: { month: 7, day: 1, custom: "date" } },
      every: ["2027-10-02T09:00", "2028-09-21T09:00", "2029-09-10T09:00"],
      text: "call mom",
    });
  });

  it("every year on the first night of Hanukkah rings on the evening before 25 Kislev", () => {
    expect(
      read("every year on the first night of Hanukkah at 6pm", "2026-11-28T10:00:00Z", JERUSALEM),
    ).toMatchObject({
      recurrence: { type: "hebrew", hebrew: { month: 9, day: 25 }, eve: true, time: "18:00" },
      every: ["2026-12-04T18:00", "2027-12-24T18:00", "2028-12-12T18:00"],
    });
  });

  it("asks Thanksgiving where the zone is neither the US nor Canada; Canada's repeats on the 2nd Monday of October", () => {
    expect(read("בחג ההודיה ב-10 להתקשר", "2026-03-11T08:00:00Z", JERUSALEM)).toEqual({ ask: "unread" });
    expect(
      read("every year on Thanksgiving at 5pm", "2026-03-11T08:00:00Z", "America/Toronto"),
    ).toMatchObject({
      recurrence: { type: "rrule", rule: "FREQ=YEARLY;BYMONTH=10;BYDAY=2MO" },
      every: ["2026-10-12T17:00", "2027-10-11T17:00", "2028-10-09T17:00"],
    });
  });

  it("every year on Thanksgiving is the 4th Thursday of November; Tisha B'Av (it moves) is asked", () => {
    expect(read("every year on Thanksgiving at 5pm", "2026-03-11T08:00:00Z", NEW_YORK)).toMatchObject({
      recurrence: { type: "rrule", rule: "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH" },
      every: ["2026-11-26T17:00", "2027-11-25T17:00", "2028-11-23T17:00"],
    });
    expect(read("every year on Tisha B'Av", "2026-03-11T08:00:00Z", JERUSALEM)).toEqual({
      ask: "unsupported",
    });
  });
});

describe("Hebrew dates as times", () => {
  it("reads days in digits and gematriya, months in Hebrew and English", () => {
    const now = "2026-11-28T10:00:00Z";
    for (const text of [
      "on 3 Nisan call",
      "on the 3rd of Nisan call",
      "Nisan 3 call",
      "בג' בניסן להתקשר",
      "ב-3 בניסן להתקשר",
    ]) {
      expect(read(text, now, JERUSALEM), text).toMatchObject({ local: "2027-04-10T09:00" });
    }
    expect(read('בכ"ה בכסלו', now, JERUSALEM)).toMatchObject({ local: "2026-12-05T09:00" });
    // 5787 is a leap year: Adar I and Adar II said by name.
    expect(read("on 14 Adar I", now, JERUSALEM)).toMatchObject({ local: "2027-02-21T09:00" });
    expect(read("בי\"ד באדר ב'", now, JERUSALEM)).toMatchObject({ local: "2027-03-23T09:00" });
    expect(read("on 30 Adar", now, JERUSALEM)).toEqual({ ask: "unread" });
    expect(read("sometime in Nisan", now, JERUSALEM)).toEqual({ ask: "unread" });
  });

  it("reads 'ב-3 לניסן' and '15 לשבט' as Hebrew dates; '3 לסיוון' (a person) is asked, never left", () => {
    const now = "2026-03-05T10:00:00Z";
    expect(read("תזכיר לי ב-3 לניסן להתקשר לאבא", now, JERUSALEM)).toEqual({
      local: "2026-03-21T09:00",
      text: "תזכיר לי להתקשר לאבא",
    });
    expect(read("ב-15 לשבט לשתול עץ", now, JERUSALEM)).toMatchObject({ local: "2027-01-23T09:00" });
    expect(read("15 לשבט לשתול עץ", now, JERUSALEM)).toMatchObject({ local: "2027-01-23T09:00" });
    // With "ב" before the day, a month that is also a name is a date too.
    expect(read("ב-6 לסיוון לקנות פרחים", now, JERUSALEM)).toMatchObject({ local: "2026-05-22T09:00" });
    expect(read("3 לסיוון לקנות פרחים", now, JERUSALEM)).toEqual({ ask: "unread" });
    expect(read("מחר ב-9 לבקר לניסן", now, JERUSALEM)).toEqual({ ask: "unread" });
  });

  it("reads two apostrophes as a gershayim: 'בכ''ה בכסלו'", () => {
    expect(read("בכ''ה בכסלו לקנות נרות", "2026-11-28T10:00:00Z", JERUSALEM)).toEqual({
      local: "2026-12-05T09:00",
      text: "לקנות נרות",
    });
  });

  it("a one-off plain Adar in a leap year is Adar I while ahead, else Adar II", () => {
    // 5787 is leap: 10 Adar I is Wednesday 17 February 2027, 10 Adar II Wednesday 19 March.
    expect(read("on 10 Adar call", "2027-01-01T10:00:00Z", JERUSALEM)).toMatchObject({
      local: "2027-02-17T09:00",
    });
    expect(read("on 10 Adar call", "2027-02-20T10:00:00Z", JERUSALEM)).toMatchObject({
      local: "2027-03-19T09:00",
    });
    const reading = readTime("on 10 Adar call", Date.parse("2027-01-01T10:00:00Z"), JERUSALEM);
    expect(reading).toMatchObject({ hebrewDate: { year: 5787, month: 12, day: 10 } });
  });

  it("reads 'בנר ראשון של חנוכה' as the first night, the evening before 25 Kislev", () => {
    const reading = read("בנר ראשון של חנוכה לקנות נרות", "2026-11-28T10:00:00Z", JERUSALEM);
    expect(reading).toMatchObject({ text: "לקנות נרות" });
    expect((reading as { local: string }).local.slice(0, 10)).toBe("2026-12-04");
    expect(Number((reading as { local: string }).local.slice(11, 13))).toBeGreaterThanOrEqual(17);
  });

  it("keeps a yahrzeit or a Hebrew birthday every year, by its custom, without 'every year'", () => {
    const now = "2026-11-28T10:00:00Z";
    expect(read("yahrzeit for grandma on 10 Tevet", now, JERUSALEM)).toMatchObject({
      recurrence: { type: "hebrew", hebrew: { month: 10, day: 10, custom: "yahrzeit" }, time: "09:00" },
      every: ["2026-12-20T09:00", "2028-01-09T09:00", "2028-12-28T09:00"],
      text: "yahrzeit for grandma",
    });
    expect(read("יום הולדת עברי של אבא ב-ג' בניסן", now, JERUSALEM)).toMatchObject({
      recurrence: { type: "hebrew", hebrew: { month: 1, day: 3, custom: "birthday" } },
      text: "יום הולדת עברי של אבא",
    });
    expect(read('כל שנה בכ"ה באדר לקנות משלוח מנות', now, JERUSALEM)).toMatchObject({
      recurrence: { type: "hebrew", hebrew: { month: 12, day: 25, custom: "date" } },
      // 5787 is leap (Adar II), 5788 and 5789 common.
      every: ["2027-04-03T09:00", "2028-03-23T09:00", "2029-03-12T09:00"],
    });
  });

  it("takes the custom from the user's whole message when the words handed over lack it", () => {
    const now = "2026-03-05T10:00:00Z";
    const yahrzeit = { calendar: { custom: "yahrzeit" as const } };
    expect(read("every year on 7 Adar", now, JERUSALEM, yahrzeit)).toMatchObject({
      recurrence: { type: "hebrew", hebrew: { month: 12, day: 7, custom: "yahrzeit" } },
      // 5787 is leap: a yahrzeit of Adar is in Adar I.
      every: ["2027-02-14T09:00", "2028-03-05T09:00", "2029-02-22T09:00"],
    });
    // A plain date: Adar II in the leap year.
    const plainDate = read("every year on 7 Adar", now, JERUSALEM);
    expect(plainDate).toMatchObject({ recurrence: { hebrew: { custom: "date" } } });
    expect((plainDate as { every: string[] }).every[0]).toBe("2027-03-16T09:00");
    expect(read("on 10 Tevet", now, JERUSALEM, yahrzeit)).toMatchObject({
      recurrence: { type: "hebrew", hebrew: { month: 10, day: 10, custom: "yahrzeit" } },
    });
  });

  it("rings the evening before when asked", () => {
    expect(
      read(
        "yahrzeit for grandpa on 10 Tevet, the evening before at 19:00",
        "2026-11-28T10:00:00Z",
        JERUSALEM,
      ),
    ).toMatchObject({
      recurrence: { type: "hebrew", eve: true, time: "19:00" },
      every: ["2026-12-19T19:00", "2028-01-08T19:00", "2028-12-27T19:00"],
    });
  });

  it("reads 'my Hebrew birthday' once it is known, else asks", () => {
    const now = "2026-11-28T10:00:00Z";
    expect(read("on my Hebrew birthday at 8 call", now, JERUSALEM)).toEqual({ ask: "unread" });
    expect(
      read("ביום ההולדת העברי שלי בשמונה בבוקר לתרום דם", now, JERUSALEM, {
        calendar: { hebrewBirthday: { month: 1, day: 3 } },
      }),
    ).toMatchObject({ local: "2027-04-10T08:00", text: "לתרום דם" });
    expect(
      read("on my Hebrew birthday at 8 call", now, JERUSALEM, {
        calendar: { hebrewBirthday: { month: 1, day: 3 } },
      }),
    ).toMatchObject({ local: "2027-04-10T08:00", text: "call" });
  });
});

describe("customs of a yearly Hebrew date (hebcal's birthday and yahrzeit rules)", () => {
  const kept = (year: number, date: HebrewYearly) => {
    const day = observanceIn(year, date);
    return day ? hebrewDateOf(day) : null;
  };

  it("a plain Adar is Adar II in a leap year for a date or a birthday, Adar I for a yahrzeit", () => {
    expect(kept(5787, { month: 12, day: 3, custom: "date" })).toMatchObject({ month: 13, day: 3 });
    expect(kept(5787, { month: 12, day: 3, custom: "birthday" })).toMatchObject({ month: 13, day: 3 });
    expect(kept(5787, { month: 12, day: 3, custom: "yahrzeit" })).toMatchObject({ month: 12, day: 3 });
    expect(kept(5788, { month: 13, day: 3, custom: "yahrzeit" })).toMatchObject({ month: 12, day: 3 });
  });

  it("30 Cheshvan in a year without it: 1 Kislev for a birthday, 29 Cheshvan for a yahrzeit", () => {
    // 5786's Cheshvan has 29 days, 5787's 30.
    expect(kept(5786, { month: 8, day: 30, custom: "birthday" })).toMatchObject({ month: 9, day: 1 });
    expect(kept(5786, { month: 8, day: 30, custom: "yahrzeit" })).toMatchObject({ month: 8, day: 29 });
    expect(kept(5787, { month: 8, day: 30, custom: "yahrzeit" })).toMatchObject({ month: 8, day: 30 });
    expect(otherYearsDay({ month: 8, day: 30, custom: "yahrzeit" })).toEqual({
      when: "short",
      month: 8,
      day: 29,
    });
  });

  it("the confirmation says which day applies in the other years", () => {
    const rule = (hebrew: HebrewYearly): Recurrence => ({ type: "hebrew", time: "09:00", hebrew });
    expect(ruleText(rule({ month: 12, day: 3, custom: "birthday" }), "en")).toBe(
      "every year on 3 Adar (Hebrew calendar) at 09:00; in leap years, on 3 Adar II",
    );
    expect(ruleText(rule({ month: 12, day: 3, custom: "birthday" }), "he")).toBe(
      "כל שנה בג׳ באדר (בלוח העברי) ב-09:00; בשנה מעוברת: ג׳ באדר ב׳",
    );
    expect(ruleText(rule({ month: 8, day: 30, custom: "birthday" }), "en")).toBe(
      "every year on 30 Cheshvan (Hebrew calendar) at 09:00; in years without 30 Cheshvan, on 1 Kislev",
    );
    expect(ruleText(rule({ month: 11, day: 15, custom: "date" }), "en")).toBe(
      "every year on 15 Sh'vat (Hebrew calendar) at 09:00",
    );
  });
});

describe("nextOccurrence: type hebrew", () => {
  const rule: Recurrence = { type: "hebrew", time: "08:00", hebrew: { month: 11, day: 15, custom: "date" } };
  const next = (r: Recurrence, afterIso: string) => {
    const at = nextOccurrence(r, JERUSALEM, Date.parse(afterIso));
    return at === null ? null : new Date(at).toISOString();
  };

  it("rings at the time on the Gregorian day, today while ahead, else next year", () => {
    // 15 Shevat 5787 = Sat 23 Jan 2027; 5788 = Sat 12 Feb 2028 (08:00 at +02 is 06:00Z).
    expect(next(rule, "2027-01-23T05:00:00Z")).toBe("2027-01-23T06:00:00.000Z");
    expect(next(rule, "2027-01-23T06:00:00Z")).toBe("2028-02-12T06:00:00.000Z");
  });

  it("is null past until, and for an impossible date", () => {
    expect(next({ ...rule, until: "2027-06-01T00:00:00Z" }, "2027-01-24T00:00:00Z")).toBeNull();
    expect(
      next({ ...rule, hebrew: { month: 2, day: 30, custom: "date" } }, "2027-01-24T00:00:00Z"),
    ).toBeNull();
  });
});

describe("calendar questions answered in code", () => {
  const ask = (text: string, zone: string, language: "he" | "en" = "en") => {
    const question = recognizeCalendarQuestion(
      text,
      Date.parse("2026-03-11T08:00:00Z"),
      zone,
      scheduleOf({ calendarSchedule: null, sabbathCity: null, timeZone: zone }),
    );
    return question ? calendarAnswerText(question, language) : null;
  };

  it("answers on the user's schedule, in both calendars", () => {
    expect(ask("when is Simchat Torah?", NEW_YORK)).toBe(
      "Simchat Torah: Sun 4 Oct 2026 (23 Tishrei 5787), starts the evening before.",
    );
    expect(ask("when is Simchat Torah?", JERUSALEM)).toBe(
      "Simchat Torah: Sat 3 Oct 2026 (22 Tishrei 5787), starts the evening before.",
    );
    expect(ask("when is Christmas?", NEW_YORK)).toBe("Christmas: Fri 25 Dec 2026 (15 Tevet 5787).");
  });

  it("says so when the day depends on a country the zone does not tell", () => {
    expect(ask("when is Mother's Day?", "Asia/Kolkata")).toBe(
      "Mother's Day falls on different days in different countries, and your time zone doesn't tell me which one you keep.",
    );
  });

  const askAt = (text: string, nowIso: string, zone = JERUSALEM, language: "he" | "en" = "en") => {
    const question = recognizeCalendarQuestion(
      text,
      Date.parse(nowIso),
      zone,
      scheduleOf({ calendarSchedule: null, sabbathCity: null, timeZone: zone }),
    );
    return question ? calendarAnswerText(question, language) : null;
  };
  const MARCH_5 = "2026-03-05T10:00:00Z";

  it("answers the requirement's examples, 'ראש השנה' whole", () => {
    expect(askAt("when is Rosh Hashana?", MARCH_5)).toBe(
      "Rosh Hashana: Sat 12 Sep 2026 (1 Tishrei 5787), starts the evening before.",
    );
    expect(askAt("מתי ראש השנה?", MARCH_5, JERUSALEM, "he")).toContain("ראש השנה: ");
    expect(askAt("מתי ראש השנה?", MARCH_5, JERUSALEM, "he")).toContain("תשרי");
    expect(askAt("מתי פסח השנה?", MARCH_5, JERUSALEM, "he")).toContain("ט״ו ניסן");
    expect(askAt("what's the Hebrew date today?", MARCH_5)).toBe(
      "Today is Thu 5 Mar 2026, 16 Adar 5786; from sunset this evening, 17 Adar 5786.",
    );
    expect(askAt("what's today's Hebrew date?", MARCH_5)).toBe(
      askAt("what's the Hebrew date today?", MARCH_5),
    );
    expect(askAt("איזה תאריך עברי היום?", MARCH_5, JERUSALEM, "he")).toContain("ט״ז אדר");
  });

  it("answers the first night and erev, and says a holiday is on now", () => {
    expect(askAt("when is the first night of Hanukkah?", MARCH_5)).toBe(
      "The first night of Hanukkah: the evening of Fri 4 Dec 2026, when 25 Kislev 5787 begins.",
    );
    expect(askAt("when is erev Yom Kippur?", MARCH_5)).toBe(
      "Erev Yom Kippur: Sun 20 Sep 2026 (9 Tishrei 5787).",
    );
    expect(askAt("מתי ערב פסח?", MARCH_5, JERUSALEM, "he")).toContain("י״ד ניסן");
    // Pesach 5786 began on Thursday 2 April 2026: on Saturday 4 April it is its third day.
    expect(askAt("when is Pesach?", "2026-04-04T09:00:00Z")).toBe(
      "It's Pesach now: today, Sat 4 Apr 2026 (17 Nisan 5786), is day 3 of it. Next: Thu 22 Apr 2027 (15 Nisan 5787).",
    );
  });

  it("reads the year asked, Gregorian or Hebrew, or leaves the question", () => {
    expect(askAt("when is Passover in 2028?", MARCH_5)).toBe(
      "Pesach: Tue 11 Apr 2028 (15 Nisan 5788), starts the evening before.",
    );
    expect(askAt("when is Pesach in the Hebrew year 5788?", MARCH_5)).toBe(
      askAt("when is Passover in 2028?", MARCH_5),
    );
    expect(askAt('מתי פסח בשנת תשפ"ח?', MARCH_5, JERUSALEM, "he")).toContain("2028");
    expect(askAt("מתי פסח ב-2028?", MARCH_5, JERUSALEM, "he")).toContain("2028");
    expect(askAt("when is Christmas in 2030?", MARCH_5)).toBe("Christmas: Wed 25 Dec 2030 (29 Kislev 5791).");
    expect(askAt("when is Passover in 3000?", MARCH_5)).toBeNull();
  });

  it("answers Tisha B'Av in a year it is postponed from Shabbat", () => {
    expect(askAt("when is Tisha B'Av?", "2029-07-01T08:00:00Z")).toBe(
      "Tisha B'Av: Sun 22 Jul 2029 (10 Av 5789), starts the evening before.",
    );
  });

  it("leaves other questions to the planner", () => {
    expect(ask("when is my dentist appointment?", JERUSALEM)).toBeNull();
    expect(ask("what's the date today?", JERUSALEM)).toBeNull();
  });
});

describe("holiday names Memo did not know: read as their day or asked, never left in a title (D10)", () => {
  // The tester's clock: Saturday 28 November 2026, 22:45 UTC (already Sunday 00:45 in Jerusalem).
  const NOW = "2026-11-28T22:45:00Z";

  it("reads the Hebrew calendar's other days, with the name out of the title", () => {
    expect(read("remind me on Shushan Purim to read megillah", NOW, JERUSALEM)).toEqual({
      local: "2027-03-24T09:00",
      text: "remind me to read megillah",
    });
    expect(read("תזכיר לי בשושן פורים לקרוא מגילה", NOW, JERUSALEM)).toEqual({
      local: "2027-03-24T09:00",
      text: "תזכיר לי לקרוא מגילה",
    });
    expect(read("remind me on Tu B'Av at 10 to buy flowers", NOW, JERUSALEM)?.local).toBe("2027-08-18T10:00");
    // Rosh Chodesh Tevet 5787 is two days (Thu 10 and Fri 11 December): the first of them.
    expect(read("remind me on Rosh Chodesh at 10 to bake", NOW, JERUSALEM)).toEqual({
      local: "2026-12-10T10:00",
      text: "remind me to bake",
    });
    // In Hebrew "ראש חודש" alone is as often the 1st of the civil month (rent, salary): asked.
    expect(readTime("תזכיר לי בראש חודש ב-10 לאפות", Date.parse(NOW), JERUSALEM)?.kind).toBe("unclear");
    expect(readTime("לשלם שכר דירה בראש חודש", Date.parse(NOW), JERUSALEM)?.kind).toBe("unclear");
    expect(read("on Rosh Chodesh Nisan at 10 bake challah", NOW, JERUSALEM)?.local).toBe("2027-04-08T10:00");
    // A plain Adar in a leap year is Adar I while it is ahead; "ב-10" after it is the clock.
    expect(read("תזכיר לי בראש חודש אדר ב-10", NOW, JERUSALEM)).toEqual({
      local: "2027-02-07T10:00",
      text: "תזכיר לי",
    });
    expect(read("תזכיר לי בראש חודש אדר ב' ב-10", NOW, JERUSALEM)?.local).toBe("2027-03-09T10:00");
  });

  it("moves Yom HaShoah and Yom HaZikaron as hebcal moves them", () => {
    expect(read("תזכיר לי ביום השואה ב-10 לעמוד בצפירה", NOW, JERUSALEM)).toEqual({
      local: "2027-05-04T10:00",
      text: "תזכיר לי לעמוד בצפירה",
    });
    // 27 Nisan 5788 is a Sunday: Yom HaShoah is kept on Monday 24 April 2028; 4 Iyar is a Sunday
    // too, Yom HaZikaron is Monday 1 May.
    expect(read("on Yom HaShoah at 10", "2028-01-01T10:00:00Z", JERUSALEM)?.local).toBe("2028-04-24T10:00");
    expect(read("ביום הזיכרון ב-11", "2028-01-01T10:00:00Z", JERUSALEM)?.local).toBe("2028-05-01T11:00");
    expect(read("ביום ירושלים ב-10 לטייל", NOW, JERUSALEM)?.local).toBe("2027-06-04T10:00");
    // "every year" on a day that moves is asked.
    expect(read("every year on Yom HaShoah at 10", NOW, JERUSALEM)).toEqual({ ask: "unsupported" });
  });

  it("reads the Gregorian holidays by their rule, and by the country where it differs", () => {
    expect(read("remind me on Easter at 6 pm to call mom", NOW, NEW_YORK)).toEqual({
      local: "2027-03-28T18:00",
      text: "remind me to call mom",
    });
    expect(read("remind me on Good Friday at 10", NOW, NEW_YORK)?.local).toBe("2027-03-26T10:00");
    expect(read("remind me on Halloween at 6pm", NOW, NEW_YORK)?.local).toBe("2027-10-31T18:00");
    expect(read("remind me on Valentine's Day at 8pm", NOW, NEW_YORK)?.local).toBe("2027-02-14T20:00");
    expect(read("remind me on St. Patrick's Day at 5pm", NOW, NEW_YORK)?.local).toBe("2027-03-17T17:00");
    expect(read("remind me on Boxing Day at 10", NOW, NEW_YORK)?.local).toBe("2026-12-26T10:00");
    expect(read("remind me on Memorial Day at 10", NOW, NEW_YORK)?.local).toBe("2027-05-31T10:00");
    expect(read("remind me on Labor Day at 10", NOW, NEW_YORK)?.local).toBe("2027-09-06T10:00");
    expect(read("remind me on Father's Day at 10", NOW, NEW_YORK)?.local).toBe("2027-06-20T10:00");
    expect(read("remind me on Father's Day at 10", NOW, "Europe/London")?.local).toBe("2027-06-20T10:00");
    expect(read("remind me on Father's Day at 10", NOW, "Asia/Kolkata")).toEqual({ ask: "unread" });
    // "Independence Day" bare is the country's own; said with the country, that one.
    expect(read("remind me on Independence Day at 10", NOW, NEW_YORK)?.local).toBe("2027-07-04T10:00");
    expect(read("remind me on Independence Day at 10", NOW, JERUSALEM)?.local).toBe("2027-05-12T10:00");
    expect(read("remind me on Independence Day at 10", NOW, "Asia/Kolkata")).toEqual({ ask: "unread" });
    expect(read("remind me on US Independence Day at 10", NOW, JERUSALEM)?.local).toBe("2027-07-04T10:00");
    expect(read("remind me on Memorial Day at 10", NOW, JERUSALEM)?.local).toBe("2027-05-11T10:00");
  });

  it("keeps them every year by a rule where one says it, else asks", () => {
    expect(read("every year on Memorial Day at 10 call dad", NOW, NEW_YORK)).toMatchObject({
      recurrence: { type: "rrule", rule: "FREQ=YEARLY;BYMONTH=5;BYDAY=-1MO" },
      every: ["2027-05-31T10:00", "2028-05-29T10:00", "2029-05-28T10:00"],
    });
    expect(read("every year on Halloween at 6pm", NOW, NEW_YORK)).toMatchObject({
      every: ["2027-10-31T18:00", "2028-10-31T18:00", "2029-10-31T18:00"],
    });
    expect(read("every year on Shushan Purim at 12", NOW, JERUSALEM)).toMatchObject({
      recurrence: { type: "hebrew", hebrew: { month: 12, day: 15 } },
    });
    expect(read("every year on Easter at 10", NOW, NEW_YORK)).toEqual({ ask: "unsupported" });
    expect(read("every Rosh Chodesh at 10 bake", NOW, JERUSALEM)).toEqual({ ask: "unsupported" });
  });

  it("asks about the holidays it knows but does not compute, and keeps them as content", () => {
    for (const text of [
      "remind me on Ramadan at 8pm",
      "תזכיר לי ברמדאן ב-8",
      "remind me on Eid al-Fitr at 10",
      "Diwali party at 7pm",
      "Chinese New Year dinner at 7pm",
      "remind me on orthodox easter at 10",
      "בחג האהבה ב-20:00 מסעדה",
    ]) {
      expect(read(text, NOW, JERUSALEM), text).toEqual({ ask: "unread" });
    }
    expect(read("buy dates for Ramadan", NOW, NEW_YORK)).toBeNull();
    expect(read("buy dates for Ramadan tomorrow", NOW, NEW_YORK)).toEqual({
      local: "2026-11-29T09:00",
      text: "buy dates for Ramadan",
    });
  });

  it("reads 'בחנוכה ביום השלישי' as the third day of Hanukkah, and asks for a day said apart", () => {
    // Hanukkah 5787: the first day is Saturday 5 December 2026.
    expect(read("תזכיר לי בחנוכה ביום השלישי ב-18:00 לבקר", NOW, JERUSALEM)).toEqual({
      local: "2026-12-07T18:00",
      text: "תזכיר לי לבקר",
    });
    expect(read("תזכיר לי ביום השלישי של חנוכה ב-18:00 לבקר", NOW, JERUSALEM)?.local).toBe(
      "2026-12-07T18:00",
    );
    for (const text of [
      "תזכיר לי בחנוכה ב-18:00 ביום השלישי לבקר",
      "remind me on Hanukkah at 6pm on the third day to visit",
      "תזכיר לי ערב פסח ביום השלישי ב-10",
      "תזכיר לי ביום השני של חנוכה ביום השלישי ב-10",
      "תזכיר לי בפורים ביום השלישי ב-10",
    ]) {
      expect(read(text, NOW, JERUSALEM), text).toEqual({ ask: "unread" });
    }
    const unread = (text: string) => {
      const normalized = normalizeText(text).text;
      return unreadTimeWords(normalized).map(({ start, end }) => normalized.slice(start, end));
    };
    expect(unread("תזכיר לי בחנוכה ב-18:00 ביום השלישי לבקר").join(" ")).toContain("ביום השלישי");
    expect(unread("remind me on Ramadan to call")).toEqual(["ramadan"]);
  });

  it("answers 'when is …?' for them from the same table, and leaves the uncomputed ones", () => {
    const ask = (text: string, zone: string, language: "he" | "en" = "en") => {
      const question = recognizeCalendarQuestion(
        text,
        Date.parse(NOW),
        zone,
        scheduleOf({ calendarSchedule: null, sabbathCity: null, timeZone: zone }),
      );
      return question ? calendarAnswerText(question, language) : null;
    };
    expect(ask("when is Shushan Purim?", JERUSALEM)).toBe(
      "Shushan Purim: Wed 24 Mar 2027 (15 Adar II 5787), starts the evening before.",
    );
    expect(ask("when is Easter?", NEW_YORK)).toBe("Easter: Sun 28 Mar 2027 (19 Adar II 5787).");
    expect(ask("מתי יום השואה?", JERUSALEM, "he")).toContain("כ״ז ניסן");
    expect(ask("when is Rosh Chodesh?", JERUSALEM)).toContain("Thu 10 Dec 2026");
    expect(ask("when is Labor Day?", "Asia/Kolkata")).toContain("different countries");
    expect(ask("when is Ramadan?", JERUSALEM)).toBeNull();
  });
});
