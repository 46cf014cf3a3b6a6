import { describe, expect, it } from "vitest";
import { resolveWhen } from "../../src/nlu/whenPhrase.js";
import { formatClock, instantToLocal } from "../../src/nlu/zonedTime.js";

const JERUSALEM = "Asia/Jerusalem";
/** Wednesday 11 March 2026, 10:00 in Jerusalem (+02). */
const WED_10AM = Date.parse("2026-03-11T08:00:00Z");

/** The result as "YYYY-MM-DD HH:mm" in the zone, "+ date only" when no time was named; or null. */
function when(
  expression: string,
  nowMs = WED_10AM,
  timeZone = JERUSALEM,
  defaultTime?: string,
): string | null {
  const resolved = resolveWhen(expression, nowMs, timeZone, defaultTime ? { defaultTime } : undefined);
  if (!resolved) return null;
  const l = instantToLocal(resolved.at, timeZone);
  const date = `${l.year}-${String(l.month).padStart(2, "0")}-${String(l.day).padStart(2, "0")}`;
  return `${date} ${formatClock(l.hour, l.minute)}${resolved.dateOnly ? " date only" : ""}`;
}

/** The result as an ISO instant, for exact checks. */
function instant(expression: string, nowIso: string, timeZone: string): string | null {
  const resolved = resolveWhen(expression, Date.parse(nowIso), timeZone);
  return resolved ? new Date(resolved.at).toISOString() : null;
}

describe("resolveWhen: ISO forms", () => {
  it.each([
    ["2026-04-03T09:00:00Z", "2026-04-03T09:00:00.000Z"],
    ["2026-04-03T09:00:00.250Z", "2026-04-03T09:00:00.250Z"],
    ["2026-04-03T09:00:00+03:00", "2026-04-03T06:00:00.000Z"],
    ["2026-04-03T09:00-0400", "2026-04-03T13:00:00.000Z"],
    ["2026-04-03T09:00", "2026-04-03T06:00:00.000Z"], // local, +03 in April
    ["2026-04-03T09:00:30", "2026-04-03T06:00:30.000Z"],
    ["2026-04-03 09:00", "2026-04-03T06:00:00.000Z"],
    ["2026-03-27T02:30", "2026-03-27T00:30:00.000Z"], // in the spring gap: 03:30 local
    ["remind me at 2026-04-03T09:00:00Z please", "2026-04-03T09:00:00.000Z"],
  ])("%s is %s", (expression, expected) => {
    expect(instant(expression, "2026-03-11T08:00:00Z", JERUSALEM)).toBe(expected);
  });

  it("takes a bare ISO date as date only, at the default time", () => {
    expect(when("2026-04-03")).toBe("2026-04-03 09:00 date only");
    expect(when("2026-04-03", WED_10AM, JERUSALEM, "08:15")).toBe("2026-04-03 08:15 date only");
    expect(when("2026-04-03 at 5pm")).toBe("2026-04-03 17:00");
  });

  it("refuses impossible ISO dates and times", () => {
    expect(when("2026-02-30T09:00")).toBeNull();
    expect(when("2026-04-03T25:00")).toBeNull();
    expect(when("2026-13-01")).toBeNull();
  });
});

describe("resolveWhen: day words and clock times (now: Wed 11 March, 10:00)", () => {
  it.each([
    // English
    ["today", "2026-03-11 09:00 date only"],
    ["tomorrow", "2026-03-12 09:00 date only"],
    ["the day after tomorrow", "2026-03-13 09:00 date only"],
    ["tonight", "2026-03-11 20:00"],
    ["this evening", "2026-03-11 20:00"],
    ["tomorrow at 9", "2026-03-12 09:00"],
    ["Tomorrow at 9AM", "2026-03-12 09:00"],
    ["remind me tomorrow at 9 to call mom", "2026-03-12 09:00"],
    ["tomorrow at 9:30 pm", "2026-03-12 21:30"],
    ["tomorrow at 17:30", "2026-03-12 17:30"],
    ["tomorrow at noon", "2026-03-12 12:00"],
    ["tomorrow at midnight", "2026-03-13 00:00"],
    ["today at 5", "2026-03-11 17:00"],
    ["today at 11", "2026-03-11 11:00"],
    ["tonight at 9", "2026-03-11 21:00"],
    ["this evening at 7:15", "2026-03-11 19:15"],
    ["day after tomorrow at 8am", "2026-03-13 08:00"],
    ["tomorrow morning", "2026-03-12 09:00"],
    ["tomorrow at 9 in the evening", "2026-03-12 21:00"],
    // Hebrew
    ["היום", "2026-03-11 09:00 date only"],
    ["מחר", "2026-03-12 09:00 date only"],
    ["מחרתיים", "2026-03-13 09:00 date only"],
    ["הערב", "2026-03-11 20:00"],
    ["הלילה", "2026-03-11 20:00"],
    ["מחר ב-9", "2026-03-12 09:00"],
    ["מחר ב9", "2026-03-12 09:00"],
    ["מחר ב־9", "2026-03-12 09:00"], // Hebrew maqaf
    ["מחר בשעה 9", "2026-03-12 09:00"],
    ["מחר ב-20:00", "2026-03-12 20:00"],
    ["תזכיר לי מחר בשמונה בערב", "2026-03-12 20:00"],
    ["מחר בשמונה וחצי בבוקר", "2026-03-12 08:30"],
    ["מחר בשתים עשרה בצהריים", "2026-03-12 12:00"],
    ["מחר באחת בצהריים", "2026-03-12 13:00"],
    ['מחר ב-4 אחה"צ', "2026-03-12 16:00"],
    ["מחר ב-4 אחה״צ", "2026-03-12 16:00"], // gershayim
    ["מחר בשלוש אחרי הצהריים", "2026-03-12 15:00"],
    ["מחר באחת עשרה בלילה", "2026-03-12 23:00"],
    ["מחר בערב", "2026-03-12 20:00"],
    ["היום ב-5", "2026-03-11 17:00"],
    ["הערב ב-8", "2026-03-11 20:00"],
    ["הלילה בעשר", "2026-03-11 22:00"],
    ["ומחרתיים בשבע בבוקר", "2026-03-13 07:00"],
    ["למחר בשעה 14:30", "2026-03-12 14:30"],
  ])("%j → %s", (expression, expected) => {
    expect(when(expression)).toBe(expected);
  });

  it("reads an hour after midnight at night as the small hours following the named day", () => {
    expect(when("tonight at 1")).toBe("2026-03-12 01:00");
    expect(when("מחר בשתיים בלילה")).toBe("2026-03-13 02:00");
  });

  it("keeps a named day whose time is already past (the caller can say so)", () => {
    expect(when("today at 08:00")).toBe("2026-03-11 08:00");
  });
});

describe("resolveWhen: a bare time is today if still ahead, else tomorrow", () => {
  it.each([
    ["at 17:00", "2026-03-11 17:00"],
    ["17:00", "2026-03-11 17:00"],
    ["9pm", "2026-03-11 21:00"],
    ["9am", "2026-03-12 09:00"],
    ["at 9", "2026-03-11 21:00"], // 09:00 is past, 21:00 is not
    ["08:30", "2026-03-12 08:30"],
    ["ב-17:00", "2026-03-11 17:00"],
    ["בשעה 9:30", "2026-03-11 21:30"],
    ["in the evening", "2026-03-11 20:00"],
    ["אחרי הצהריים", "2026-03-11 16:00"],
    ["בבוקר", "2026-03-12 09:00"],
  ])("%j → %s", (expression, expected) => {
    expect(when(expression)).toBe(expected);
  });

  it("rolls to tomorrow morning late at night", () => {
    const wed10pm = Date.parse("2026-03-11T20:00:00Z");
    expect(when("at 9", wed10pm)).toBe("2026-03-12 09:00");
  });
});

describe("resolveWhen: relative offsets", () => {
  it.each([
    ["in 20 minutes", "2026-03-11 10:20"],
    ["in 15 min", "2026-03-11 10:15"],
    ["in 2 hours", "2026-03-11 12:00"],
    ["in half an hour", "2026-03-11 10:30"],
    ["in an hour", "2026-03-11 11:00"],
    ["in 3 days", "2026-03-14 10:00"],
    ["in 1 week", "2026-03-18 10:00"],
    ["in 2 weeks", "2026-03-25 10:00"],
    ["in 3 days at 9am", "2026-03-14 09:00"],
    ["בעוד 20 דקות", "2026-03-11 10:20"],
    ["בעוד דקה", "2026-03-11 10:01"],
    ["בעוד שעה", "2026-03-11 11:00"],
    ["בעוד שעתיים", "2026-03-11 12:00"],
    ["בעוד 3 שעות", "2026-03-11 13:00"],
    ["בעוד חצי שעה", "2026-03-11 10:30"],
    ["בעוד רבע שעה", "2026-03-11 10:15"],
    ["בעוד חמש דקות", "2026-03-11 10:05"],
    ["בעוד יום", "2026-03-12 10:00"],
    ["בעוד יומיים", "2026-03-13 10:00"],
    ["בעוד 3 ימים", "2026-03-14 10:00"],
    ["בעוד שבוע", "2026-03-18 10:00"],
    ["בעוד שבועיים", "2026-03-25 10:00"],
    ["בעוד שבוע ב-8 בבוקר", "2026-03-18 08:00"],
    ["בעוד חודש", "2026-04-11 10:00"],
    ["in 2 months", "2026-05-11 10:00"],
  ])("%j → %s", (expression, expected) => {
    expect(when(expression)).toBe(expected);
  });

  it("clamps a month offset to the end of a shorter month", () => {
    expect(when("in 1 month", Date.parse("2026-01-31T10:00:00Z"), "UTC")).toBe("2026-02-28 10:00");
  });

  it("keeps the wall time for weeks across a DST change, while hours are exact", () => {
    // Thursday 26 March 12:00 in Jerusalem (+02); the clocks go forward that night.
    const thursdayNoon = "2026-03-26T10:00:00Z";
    expect(instant("in 1 week", thursdayNoon, JERUSALEM)).toBe("2026-04-02T09:00:00.000Z"); // 12:00 (+03)
    expect(instant("בעוד שבוע", thursdayNoon, JERUSALEM)).toBe("2026-04-02T09:00:00.000Z");
    expect(instant("in 24 hours", thursdayNoon, JERUSALEM)).toBe("2026-03-27T10:00:00.000Z"); // 13:00 local
    expect(instant("in 1 day", thursdayNoon, JERUSALEM)).toBe("2026-03-27T09:00:00.000Z"); // 12:00 local
    // New York, Thursday 5 March 12:00 EST → Thursday 12 March 12:00 EDT.
    expect(instant("in 1 week", "2026-03-05T17:00:00Z", "America/New_York")).toBe("2026-03-12T16:00:00.000Z");
    expect(instant("in 168 hours", "2026-03-05T17:00:00Z", "America/New_York")).toBe(
      "2026-03-12T17:00:00.000Z",
    );
  });
});

describe("resolveWhen: weekdays (now: Wednesday 10:00)", () => {
  it.each([
    ["Monday", "2026-03-16 09:00 date only"],
    ["on Monday at 9", "2026-03-16 09:00"],
    ["next Monday", "2026-03-16 09:00 date only"],
    ["Friday at 6pm", "2026-03-13 18:00"],
    ["ביום שני", "2026-03-16 09:00 date only"],
    ["יום שני ב-9", "2026-03-16 09:00"],
    ["ראשון הבא", "2026-03-15 09:00 date only"],
    ["בשבת בערב", "2026-03-14 20:00"],
    ["ביום חמישי בשמונה בבוקר", "2026-03-12 08:00"],
  ])("%j → %s", (expression, expected) => {
    expect(when(expression)).toBe(expected);
  });

  it("means today only if the time is still ahead", () => {
    expect(when("Wednesday at 11:00")).toBe("2026-03-11 11:00");
    expect(when("ביום רביעי ב-11:00")).toBe("2026-03-11 11:00");
    expect(when("Wednesday at 08:00")).toBe("2026-03-18 08:00");
    expect(when("Wednesday")).toBe("2026-03-18 09:00 date only"); // 09:00 default already past
    expect(when("Wednesday", WED_10AM, JERUSALEM, "12:00")).toBe("2026-03-11 12:00 date only");
    expect(when("next Wednesday at 11:00")).toBe("2026-03-18 11:00");
    expect(when("רביעי הבא ב-11:00")).toBe("2026-03-18 11:00");
  });

  it("reads a bare hour on today's weekday as its morning reading, next week once it has passed", () => {
    expect(when("Wednesday at 9")).toBe("2026-03-18 09:00");
    expect(when("Wednesday at 9am")).toBe("2026-03-18 09:00");
    expect(when("ביום רביעי ב-9")).toBe("2026-03-18 09:00");
    expect(when("Wednesday at 11")).toBe("2026-03-11 11:00");
    expect(when("Wednesday at 9 in the evening")).toBe("2026-03-11 21:00");
    expect(when("today at 9")).toBe("2026-03-11 21:00");
  });
});

describe("resolveWhen: dates", () => {
  it.each([
    ["April 3", "2026-04-03 09:00 date only"],
    ["3 April", "2026-04-03 09:00 date only"],
    ["on April 3rd at 10am", "2026-04-03 10:00"],
    ["3 באפריל", "2026-04-03 09:00 date only"],
    ["ב-3 לאפריל", "2026-04-03 09:00 date only"],
    ["ב-3 באפריל ב-17:00", "2026-04-03 17:00"],
    ["25 בדצמבר בערב", "2026-12-25 20:00"],
    ["March 1", "2027-03-01 09:00 date only"], // already past this year
    ["1 במרץ", "2027-03-01 09:00 date only"],
    ["March 11 at 6pm", "2026-03-11 18:00"], // today
    ["March 1, 2026", "2026-03-01 09:00 date only"], // a year said outright is kept
  ])("%j → %s", (expression, expected) => {
    expect(when(expression)).toBe(expected);
  });
});

describe("resolveWhen: other zones", () => {
  it("resolves in the zone it is given", () => {
    const now = "2026-03-11T08:00:00Z";
    expect(instant("tomorrow at 9", now, "UTC")).toBe("2026-03-12T09:00:00.000Z");
    expect(instant("tomorrow at 9", now, "Europe/London")).toBe("2026-03-12T09:00:00.000Z");
    expect(instant("tomorrow at 9", now, "America/New_York")).toBe("2026-03-12T13:00:00.000Z"); // EDT
    // 04:00 in New York: "tonight at 9" is 21:00 EDT.
    expect(instant("tonight at 9", now, "America/New_York")).toBe("2026-03-12T01:00:00.000Z");
    // Fall back in New York: 01:30 on 1 Nov is its first occurrence (EDT).
    expect(instant("tomorrow at 1:30am", "2026-10-31T16:00:00Z", "America/New_York")).toBe(
      "2026-11-01T05:30:00.000Z",
    );
  });
});

describe("resolveWhen: cannot tell", () => {
  it.each([
    "buy milk",
    "לקנות חלב",
    "",
    "3/4",
    "3.4",
    "ב-3/4",
    "ב-3 ימים", // a count, not a time
    "February 30 at 9",
    "at 25:00",
    "at 13pm",
    "in 1.5 days",
    "good morning",
    "שבת שלום",
    "לשבת עם דני",
    "I have 2 kids",
    "tomorrow or Monday", // tomorrow is Thursday: they disagree
    "in 20 minutes tomorrow",
    "at 9 or at 10",
    "3/4 at 9",
    "at 3-4",
    // Words left unread: never the date alone at 09:00 (D10).
    "tomorrow at the usual time",
    "tomorrow sometime after lunch",
    "מחר בשעה הרגילה",
    "tomorrow at 5", // morning or afternoon: asked

    "at 5 or 6",
    'ב-10 ש"ח',
  ])("%j → null", (expression) => {
    expect(resolveWhen(expression, WED_10AM, JERUSALEM)).toBeNull();
  });

  it("rejects a default time that is not HH:mm", () => {
    expect(() => resolveWhen("tomorrow", WED_10AM, JERUSALEM, { defaultTime: "nine" })).toThrow(RangeError);
  });
});
