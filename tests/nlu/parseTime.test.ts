import { describe, expect, it } from "vitest";
import { stripCommandWords } from "../../src/nlu/commandWords.js";
import { parseTime, type ParsedTime } from "../../src/nlu/parseTime.js";
import { isTimeZone, parseNow, toWhenJson, whenFor, whenForLine } from "../../src/nlu/whenJson.js";

const JERUSALEM = "Asia/Jerusalem";
/** Wednesday 11 March 2026, 10:00 in Jerusalem (+02). */
const WED_10AM = Date.parse("2026-03-11T08:00:00Z");

const parse = (message: string) => parseTime(message, WED_10AM, JERUSALEM);
/** The local wall time of a one-off reminder, or null. */
const localOf = (message: string) => {
  const parsed = parse(message);
  return parsed?.kind === "instant" ? parsed.local : null;
};

describe("parseTime: the rest of the message", () => {
  it.each([
    ["remind me tomorrow at 9am to call mom", "remind me to call mom", "tomorrow at 9am"],
    ["Call MOM at 5pm!", "Call MOM!", "at 5pm"],
    ["tomorrow, at 9: send the report", "send the report", "tomorrow, at 9"],
    ["buy a gift for tomorrow", "buy a gift", "for tomorrow"],
    ["pick up the kids on Friday at 4pm please", "pick up the kids please", "on Friday at 4pm"],
    ["תזכיר לי מחר ב-9 להתקשר לאמא", "תזכיר לי להתקשר לאמא", "מחר ב-9"],
    ["ב-3 לאפריל לחדש דרכון", "לחדש דרכון", "ב-3 לאפריל"],
    ["\u200fמחר\u200f בשמונה בערב   לקנות מתנה", "לקנות מתנה", "מחר\u200f בשמונה בערב"],
    ["every day at 8 until April 3 stretch", "stretch", "every day at 8 until April 3"],
    ["נדנד אותי כל 15 דקות לשתות מים", "נדנד אותי לשתות מים", "כל 15 דקות"],
  ])("%j → text %j, phrase %j", (message, text, phrase) => {
    const parsed = parse(message);
    expect(parsed?.text).toBe(text);
    expect(parsed?.phrase).toBe(phrase);
  });

  it("leaves numbers that are not times in the text", () => {
    expect(parse("buy 2 milk tomorrow")?.text).toBe("buy 2 milk");
    expect(parse("call 050-1234567 at 6pm")?.text).toBe("call 050-1234567");
    expect(parse("add eggs to list 3 tonight")?.text).toBe("add eggs to list 3");
  });

  it("cuts the glue word before a phrase that starts with the, next or ה-", () => {
    expect(parse("pay the bill by the 10th of April")).toMatchObject({
      text: "pay the bill",
      phrase: "by the 10th of April",
    });
    expect(parse("לשלם ארנונה עד ה-10 באפריל")).toMatchObject({
      text: "לשלם ארנונה",
      phrase: "עד ה-10 באפריל",
    });
    expect(parse("finish the report by next Friday")?.text).toBe("finish the report");
    expect(parse("ב 3 באפריל לחדש דרכון")).toMatchObject({ text: "לחדש דרכון", phrase: "ב 3 באפריל" });
    // A longer word before the number is not a prefix: "לה" is "to her".
    expect(parse("תגיד לה 3 באפריל")?.text).toBe("תגיד לה");
  });

  it("leaves prices and quantities in the text, not as times", () => {
    expect(parse('לקנות חלב ב-10 ש"ח מחר')).toMatchObject({ text: 'לקנות חלב ב-10 ש"ח', dateOnly: true });
    expect(parse("sell at 9 dollars tomorrow")).toMatchObject({ text: "sell at 9 dollars", dateOnly: true });
    expect(parse("buy 1.5 kg flour tomorrow")).toMatchObject({ text: "buy 1.5 kg flour", dateOnly: true });
    expect(parse("לקנות 1.5 ליטר חלב מחר")?.text).toBe("לקנות 1.5 ליטר חלב");
  });
});

describe("parseTime: instants", () => {
  it("says when only a date was named", () => {
    expect(parse("dentist April 3")).toMatchObject({
      kind: "instant",
      dateOnly: true,
      local: "2026-04-03T09:00",
    });
    expect(parse("dentist April 3 at 4pm")).toMatchObject({ dateOnly: false, local: "2026-04-03T16:00" });
  });

  it("gives the instant and its wall time in the zone", () => {
    expect(parse("in 2 hours")).toEqual({
      kind: "instant",
      at: Date.parse("2026-03-11T10:00:00Z"),
      local: "2026-03-11T12:00",
      timeZone: JERUSALEM,
      dateOnly: false,
      text: "",
      phrase: "in 2 hours",
    });
  });

  it("is null when the time words disagree or cannot be", () => {
    expect(parse("tomorrow or Monday")).toBeNull();
    expect(parse("at 9 or at 10")).toBeNull();
    expect(parse("February 30")).toBeNull();
  });

  it.each([
    // A numeric date is not read, so its clock must not be read as today either.
    "remind me on 3/4 at 9 to pay rent",
    "ב-3/4 ב-9",
    "on 3.4 at 9",
    "on 3/4/2026 at 9 dentist",
    "tomorrow at 21.30",
    // A day of the month without its month, or a span that is not resolved.
    "pay rent on the 10th at 9",
    "the first of the month at 9",
    "בראשון לחודש",
    "ב-1 לחודש ב-9",
    "next week at 9",
    "בשבוע הבא ב-9",
    // Numbers that are not one time: money, a range, a choice.
    'לקנות חלב ב-10 ש"ח',
    "לקנות 2 ב-20 שקל",
    "sell at 9 dollars",
    "ב-10₪",
    "at 3-4 pick up",
    "tomorrow 3-4pm",
    "at 5 or 6",
    "tomorrow 5 or 6pm",
    "לקחת כדור ב-8 ו-20",
    "ב-8 או תשע",
    "ב-7 ושתיים",
  ])("is null for %j (cannot tell)", (message) => {
    expect(parse(message)).toBeNull();
  });

  it("reads Hebrew minute words after the hour", () => {
    // Wednesday 10:00: the morning reading has passed, so the evening one.
    expect(parse("ב-7 ועשרים")).toMatchObject({ local: "2026-03-11T19:20", text: "" });
    expect(parse("מחר בשבע ועשרים לצאת")).toMatchObject({ local: "2026-03-12T07:20", text: "לצאת" });
    expect(localOf("מחר ב-8 וחמישה")).toBe("2026-03-12T08:05");
    expect(localOf("מחר בשמונה ועשר דקות")).toBe("2026-03-12T08:10");
    expect(localOf("מחר ב-9 ועשרים וחמש")).toBe("2026-03-12T09:25");
    expect(localOf("מחר ב-9 ושלושים")).toBe("2026-03-12T09:30");
    expect(localOf("מחר ב-9 ארבעים")).toBe("2026-03-12T09:40");
    expect(localOf("מחר ב-9 וארבעים וחמש")).toBe("2026-03-12T09:45");
    expect(localOf("מחר ב-9 וחמישים")).toBe("2026-03-12T09:50");
    expect(localOf("מחר ב-8 פחות רבע בבוקר")).toBe("2026-03-12T07:45");
    expect(localOf("מחר באחת פחות עשרה בצהריים")).toBe("2026-03-12T12:50");
    expect(parse("מחר ב-8:30 ועשרים")).toBeNull(); // minutes twice
  });

  it("reads a bare hour on a named weekday the same whether or not that day is today", () => {
    // Wednesday 10:00: "on Wednesday at 9" is next Wednesday 09:00, as "at 9am" is, not 21:00 today.
    expect(parse("on Wednesday at 9 call Dan")).toMatchObject({
      local: "2026-03-18T09:00",
      text: "call Dan",
    });
    expect(localOf("on Wednesday at 9am call Dan")).toBe("2026-03-18T09:00");
    expect(localOf("ביום רביעי ב-9")).toBe("2026-03-18T09:00");
    expect(localOf("on Thursday at 9")).toBe("2026-03-12T09:00");
    // Still ahead today, or said with a part of the day: today.
    expect(localOf("on Wednesday at 11")).toBe("2026-03-11T11:00");
    expect(localOf("on Wednesday at 9 in the evening")).toBe("2026-03-11T21:00");
    expect(localOf("on Wednesday at 9pm")).toBe("2026-03-11T21:00");
    // "today" keeps the first reading still ahead.
    expect(localOf("today at 9")).toBe("2026-03-11T21:00");
  });

  it("throws a RangeError for an unknown zone", () => {
    expect(() => parseTime("tomorrow", WED_10AM, "Mars/Olympus")).toThrow(RangeError);
  });
});

describe("parseTime: repeats", () => {
  const recurring = (message: string) => {
    const parsed = parse(message);
    if (parsed?.kind !== "recurring") throw new Error(`not recurring: ${message}`);
    return { ...parsed.recurrence, firstAt: new Date(parsed.firstAt).toISOString() };
  };

  it("fires at 09:00 when no time is named, or at the part of the day named", () => {
    expect(recurring("every day")).toEqual({
      type: "daily",
      time: "09:00",
      firstAt: "2026-03-12T07:00:00.000Z",
    });
    expect(recurring("כל יום ראשון")).toMatchObject({ type: "weekly", time: "09:00", days: [0] });
    expect(recurring("every morning")).toMatchObject({ type: "daily", time: "09:00" });
    expect(recurring("כל ערב")).toMatchObject({ type: "daily", time: "20:00" });
  });

  it("reads a bare hour 1–6 as afternoon and 7–12 as said", () => {
    expect(recurring("every day at 3")).toMatchObject({ time: "15:00" });
    expect(recurring("every day at 7")).toMatchObject({ time: "07:00" });
    expect(recurring("every day at 3am")).toMatchObject({ time: "03:00" });
    expect(recurring("כל יום בשש בבוקר")).toMatchObject({ time: "06:00" });
  });

  it("starts from a day named with it", () => {
    expect(recurring("every day at 8 starting tomorrow")).toMatchObject({
      firstAt: "2026-03-12T06:00:00.000Z",
    });
    expect(recurring("every day at 11 from Friday")).toMatchObject({ firstAt: "2026-03-13T09:00:00.000Z" });
    expect(recurring("every week starting Monday")).toMatchObject({
      days: [1],
      firstAt: "2026-03-16T07:00:00.000Z",
    });
    expect(recurring("every month from April 3")).toMatchObject({ dayOfMonth: 3 });
  });

  it("starts a nudge at a time named with it, else one interval from now", () => {
    expect(recurring("every 10 minutes")).toMatchObject({ firstAt: "2026-03-11T08:10:00.000Z" });
    expect(recurring("every 10 minutes from 5pm")).toMatchObject({
      intervalMinutes: 10,
      firstAt: "2026-03-11T15:00:00.000Z",
    });
  });

  it("ends an until-date at 23:59 local, and is null when the end is before the first time", () => {
    expect(recurring("every day at 8 until tomorrow")).toMatchObject({ until: "2026-03-12T21:59:00.000Z" });
    expect(parse("every Monday at 9 until Friday")).toBeNull(); // next Monday is after Friday
  });

  it("is null for a monthly repeat with no day of the month", () => {
    expect(parse("כל חודש ב-10 בבוקר")).toBeNull(); // the 10th, or 10:00?
    expect(parse("every month at 10")).toBeNull();
    expect(parse("every month pay the gardener")).toBeNull();
    expect(recurring("כל חודש ב-10 לבדוק מונה")).toMatchObject({ dayOfMonth: 10, time: "09:00" });
    expect(recurring("every month starting tomorrow at 9")).toMatchObject({ dayOfMonth: 12, time: "09:00" });
  });

  it("is null when until/עד names no time it can resolve", () => {
    expect(parse("remind me every day to run until next week")).toBeNull();
    expect(parse("כל יום לשתות מים עד שאסיים")).toBeNull();
    expect(parse("every day until the end of the month")).toBeNull();
    // "through" and "ועד" are not always an end.
    expect(recurring("every day at 8 go through emails")).toMatchObject({ type: "daily", time: "08:00" });
    expect(recurring("ב-10 לכל חודש לשלם ועד בית")).toMatchObject({ dayOfMonth: 10 });
  });

  it("is null for repeats it cannot express, and for two repeats at once", () => {
    for (const message of [
      "every other day",
      "every 3 days",
      "every year",
      "כל שבועיים",
      "every day every Monday",
    ]) {
      expect(parse(message), message).toBeNull();
    }
  });
});

describe("stripCommandWords", () => {
  it.each([
    ["remind me to call mom", "call mom"],
    ["Please remind me to call mom", "call mom"],
    ["remind me about the meeting", "the meeting"],
    ["set a reminder to pay rent", "pay rent"],
    ["nudge me to drink water", "drink water"],
    ["תזכיר לי להתקשר לאמא", "להתקשר לאמא"],
    ["תזכיר לי על הפגישה", "הפגישה"],
    ["נדנד אותי לשתות מים", "לשתות מים"],
    ["נדנד אותי", ""],
    ["call mom", "call mom"],
    ["reminders are great", "reminders are great"],
  ])("%j → %j", (text, expected) => {
    expect(stripCommandWords(text)).toBe(expected);
  });
});

describe("toWhenJson", () => {
  it("prints a nudge's interval and only the fields that apply, in order", () => {
    const nudge: ParsedTime = {
      kind: "recurring",
      recurrence: { type: "nudge", intervalMinutes: 1, until: "2026-03-11T18:00:00.000Z" },
      firstAt: WED_10AM,
      timeZone: JERUSALEM,
      text: "drink",
      phrase: "every minute until 8pm",
    };
    expect(JSON.stringify(toWhenJson(nudge))).toBe(
      '{"kind":"recurring","recurrence":{"type":"nudge","interval":"1 minute","until":"2026-03-11T18:00:00.000Z"},"firstAt":"2026-03-11T08:00:00.000Z","timeZone":"Asia/Jerusalem","text":"drink"}',
    );
  });
});

describe("whenFor", () => {
  it("defaults to Asia/Jerusalem and the given clock", () => {
    expect(whenFor({ text: "in 20 minutes tea" }, WED_10AM)).toEqual({
      kind: "instant",
      at: "2026-03-11T08:20:00.000Z",
      local: "2026-03-11T10:20",
      timeZone: JERUSALEM,
      text: "tea",
    });
  });

  it("reads a now without an offset as wall time in the zone", () => {
    expect(parseNow("2026-03-11T10:00", JERUSALEM)).toBe(WED_10AM);
    expect(parseNow("2026-03-11T10:00:00+02:00", "UTC")).toBe(WED_10AM);
    expect(parseNow("yesterday", JERUSALEM)).toBeNull();
    expect(parseNow("2026-02-30T10:00", JERUSALEM)).toBeNull();
  });

  it("answers {error} for a bad zone, a bad now or a text with no time", () => {
    expect(whenFor({ text: "tomorrow", tz: "Mars/Olympus" }, WED_10AM)).toEqual({
      error: 'unknown time zone: "Mars/Olympus"',
    });
    expect(whenFor({ text: "tomorrow", now: "soon" }, WED_10AM)).toHaveProperty("error");
    expect(whenFor({ text: "buy milk" }, WED_10AM)).toEqual({ error: "no time found in the text" });
    expect(isTimeZone("")).toBe(false);
    expect(isTimeZone("America/New_York")).toBe(true);
  });

  it("answers {error} for a batch line that is not a request", () => {
    expect(whenForLine("not json", WED_10AM)).toEqual({ error: "not a JSON line" });
    expect(whenForLine('{"tz":"UTC"}', WED_10AM)).toHaveProperty("error");
    expect(whenForLine('{"text":"at noon","tz":"UTC","now":"2026-03-11T08:00:00Z"}', WED_10AM)).toMatchObject(
      {
        at: "2026-03-11T12:00:00.000Z",
      },
    );
  });
});
