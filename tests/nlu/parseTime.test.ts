import { describe, expect, it } from "vitest";
import { stripCommandWords } from "../../src/nlu/commandWords.js";
import { nextOccurrence } from "../../src/nlu/recurrence.js";
import { parseTime, readTime, type ParsedTime } from "../../src/nlu/parseTime.js";
import { parseNow, toWhenJson, whenFor, whenForLine } from "../../src/nlu/whenJson.js";
import { isValidTimeZone } from "../../src/utils/timeContext.js";

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
    // A dotted pair that may be a date (October 15, 15 October) is not guessed at.
    "tomorrow 10.15",
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

  it("reads a day of the month and the calendar words, each with its documented day (D10)", () => {
    // Wednesday 11 March 2026, 10:00 in Jerusalem; the Israeli week starts on Sunday.
    expect(localOf("pay rent on the 10th at 9")).toBe("2026-04-10T09:00");
    expect(localOf("the first of the month at 9")).toBe("2026-04-01T09:00");
    expect(localOf("בראשון לחודש")).toBe("2026-04-01T09:00");
    expect(localOf("ב-1 לחודש ב-9")).toBe("2026-04-01T09:00");
    expect(localOf("next week at 9")).toBe("2026-03-15T09:00");
    expect(localOf("בשבוע הבא ב-9")).toBe("2026-03-15T09:00");
    expect(localOf("tomorrow at 21.30")).toBe("2026-03-12T21:30");
    // No date is 21.30 (no month 21 or 30): a clock time written with a dot.
    expect(localOf("tomorrow 21.30")).toBe("2026-03-12T21:30");
  });

  it("reads minutes around an hour after a colon or full stop, never inside a clock time", () => {
    expect(localOf("Reminder: quarter to 8 tomorrow call mom")).toBe("2026-03-12T07:45");
    expect(localOf("ok. half past 7 tomorrow")).toBe("2026-03-12T07:30");
    expect(localOf("Note: 20 to 9 tomorrow")).toBe("2026-03-12T08:40");
    // "08:15 to 14:30" is no "15 to 14" (13:45).
    expect(localOf("tomorrow from 08:15 to 14:30")).not.toBe("2026-03-12T13:45");
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

  it("asks about a bare hour 1–6 (morning or afternoon, each a complete reading) and reads 7–12 as said", () => {
    for (const message of ["every day at 3", "כל יום ב-3", "כל יום בשלוש"]) {
      const reading = readTime(message, WED_10AM, JERUSALEM);
      expect(reading, message).toMatchObject({ kind: "unclear", reason: "ambiguous_hour" });
      const choices = reading?.kind === "unclear" ? reading.choices : undefined;
      expect(choices?.map((c) => (c.kind === "recurring" ? c.recurrence : null))).toEqual([
        { type: "daily", time: "03:00" },
        { type: "daily", time: "15:00" },
      ]);
      // Each choice can be stored as it is: its first occurrence is already computed.
      expect(
        choices?.map((c) => (c.kind === "recurring" ? new Date(c.firstAt).toISOString() : null)),
      ).toEqual(["2026-03-12T01:00:00.000Z", "2026-03-11T13:00:00.000Z"]);
    }
    expect(parse("every day at 3")).toBeNull();
    expect(recurring("every day at 7")).toMatchObject({ time: "07:00" });
    expect(recurring("every day at 12")).toMatchObject({ time: "12:00" });
    expect(recurring("every day at 3am")).toMatchObject({ time: "03:00" });
    expect(recurring("every day at 3 in the afternoon")).toMatchObject({ time: "15:00" });
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
    expect(parse("כל יום לשתות מים עד שאסיים")).toBeNull();
    // The end of the month is a day now (D10): its last minute ends the repeat.
    expect(recurring("every day until the end of the month")).toMatchObject({
      type: "daily",
      time: "09:00",
      until: "2026-03-31T20:59:00.000Z",
    });
    // "through" and "ועד" are not always an end.
    expect(recurring("every day at 8 go through emails")).toMatchObject({ type: "daily", time: "08:00" });
    expect(recurring("ב-10 לכל חודש לשלם ועד בית")).toMatchObject({ dayOfMonth: 10 });
  });

  it("is null for repeats it cannot express exactly, and for two repeats at once", () => {
    for (const message of [
      "every few days",
      "twice a week",
      "פעמיים בשבוע",
      "כל כמה ימים",
      "every other weekday",
    ]) {
      expect(parse(message), message).toBeNull();
      expect(readTime(message, WED_10AM, JERUSALEM), message).toMatchObject({
        kind: "unclear",
        reason: "unsupported",
      });
    }
    // "every year" with no date, and "every day every Monday", cannot be told.
    for (const message of ["every year", "every day every Monday"]) {
      expect(readTime(message, WED_10AM, JERUSALEM), message).toMatchObject({
        kind: "unclear",
        reason: "unread",
      });
    }
    // What used to be refused is now read (every other day, every 3 days, every two weeks).
    expect(recurring("every other day")).toMatchObject({ type: "rrule", rule: "FREQ=DAILY;INTERVAL=2" });
    expect(recurring("every 3 days")).toMatchObject({ type: "rrule", rule: "FREQ=DAILY;INTERVAL=3" });
    expect(recurring("כל שבועיים")).toMatchObject({
      type: "rrule",
      rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;WKST=SU",
    });
  });
});

describe("parseTime: repeats beyond V1, as RFC 5545 rules (D10)", () => {
  /** "Sun 2026-03-29 07:00": an instant on the wall clock of `timeZone` (Intl, not the code under test). */
  const wall = (ms: number, timeZone: string) => {
    const p = Object.fromEntries(
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
        .formatToParts(ms)
        .map((part) => [part.type, part.value]),
    );
    return `${p.weekday} ${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  };
  const recurring = (message: string) => {
    const parsed = parse(message);
    if (parsed?.kind !== "recurring") throw new Error(`not recurring: ${message}`);
    return parsed.recurrence;
  };
  /** The rule read and its first three occurrences, as wall times in the zone. */
  const occurrences = (message: string, nowIso: string, timeZone: string) => {
    const parsed = parseTime(message, Date.parse(nowIso), timeZone);
    if (parsed?.kind !== "recurring") throw new Error(`not recurring: ${message}`);
    const times = [parsed.firstAt];
    for (let i = 0; i < 2; i++) times.push(nextOccurrence(parsed.recurrence, timeZone, times.at(-1)!) ?? NaN);
    return { rule: parsed.recurrence.rule, first: times.map((t) => wall(t, timeZone)) };
  };

  // Thursday 26 March 2026, 10:00 in Jerusalem: the clocks go forward on Friday 27 March.
  const JERUSALEM_SPRING = "2026-03-26T08:00:00Z";
  it.each([
    [
      "every weekday at 7",
      "FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH",
      ["Sun 2026-03-29 07:00", "Mon 2026-03-30 07:00", "Tue 2026-03-31 07:00"],
    ],
    [
      "כל יום חול ב-7",
      "FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH",
      ["Sun 2026-03-29 07:00", "Mon 2026-03-30 07:00", "Tue 2026-03-31 07:00"],
    ],
    [
      "every weekend at 10",
      "FREQ=WEEKLY;BYDAY=FR,SA",
      ["Fri 2026-03-27 10:00", "Sat 2026-03-28 10:00", "Fri 2026-04-03 10:00"],
    ],
    [
      'כל סופ"ש ב-10',
      "FREQ=WEEKLY;BYDAY=FR,SA",
      ["Fri 2026-03-27 10:00", "Sat 2026-03-28 10:00", "Fri 2026-04-03 10:00"],
    ],
    [
      "כל סוף שבוע בעשר בבוקר",
      "FREQ=WEEKLY;BYDAY=FR,SA",
      ["Fri 2026-03-27 10:00", "Sat 2026-03-28 10:00", "Fri 2026-04-03 10:00"],
    ],
    [
      "every other day at 8",
      "FREQ=DAILY;INTERVAL=2",
      ["Fri 2026-03-27 08:00", "Sun 2026-03-29 08:00", "Tue 2026-03-31 08:00"],
    ],
    [
      "כל יומיים ב-8",
      "FREQ=DAILY;INTERVAL=2",
      ["Fri 2026-03-27 08:00", "Sun 2026-03-29 08:00", "Tue 2026-03-31 08:00"],
    ],
    [
      "every other day at 2:30am",
      "FREQ=DAILY;INTERVAL=2",
      ["Fri 2026-03-27 03:30", "Sun 2026-03-29 02:30", "Tue 2026-03-31 02:30"],
    ],
    [
      "every 2 weeks on Tuesday at 8",
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=SU",
      ["Tue 2026-03-31 08:00", "Tue 2026-04-14 08:00", "Tue 2026-04-28 08:00"],
    ],
    [
      "every other Tuesday at 8",
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=SU",
      ["Tue 2026-03-31 08:00", "Tue 2026-04-14 08:00", "Tue 2026-04-28 08:00"],
    ],
    [
      "כל שבועיים ביום שלישי ב-8",
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=SU",
      ["Tue 2026-03-31 08:00", "Tue 2026-04-14 08:00", "Tue 2026-04-28 08:00"],
    ],
    [
      "the first Sunday of every month at 9",
      "FREQ=MONTHLY;BYDAY=1SU",
      ["Sun 2026-04-05 09:00", "Sun 2026-05-03 09:00", "Sun 2026-06-07 09:00"],
    ],
    [
      "ביום ראשון הראשון של כל חודש ב-9",
      "FREQ=MONTHLY;BYDAY=1SU",
      ["Sun 2026-04-05 09:00", "Sun 2026-05-03 09:00", "Sun 2026-06-07 09:00"],
    ],
    [
      "on the last Friday of every month at 14:00",
      "FREQ=MONTHLY;BYDAY=-1FR",
      ["Fri 2026-03-27 14:00", "Fri 2026-04-24 14:00", "Fri 2026-05-29 14:00"],
    ],
    [
      "on the last day of every month at 20:00",
      "FREQ=MONTHLY;BYMONTHDAY=-1",
      ["Tue 2026-03-31 20:00", "Thu 2026-04-30 20:00", "Sun 2026-05-31 20:00"],
    ],
    [
      "ביום האחרון של כל חודש ב-20:00",
      "FREQ=MONTHLY;BYMONTHDAY=-1",
      ["Tue 2026-03-31 20:00", "Thu 2026-04-30 20:00", "Sun 2026-05-31 20:00"],
    ],
    [
      "every year on March 3 at 9",
      "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3",
      ["Wed 2027-03-03 09:00", "Fri 2028-03-03 09:00", "Sat 2029-03-03 09:00"],
    ],
    [
      "every March 3 at 9",
      "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3",
      ["Wed 2027-03-03 09:00", "Fri 2028-03-03 09:00", "Sat 2029-03-03 09:00"],
    ],
    [
      "כל שנה ב-3 במרץ ב-9",
      "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3",
      ["Wed 2027-03-03 09:00", "Fri 2028-03-03 09:00", "Sat 2029-03-03 09:00"],
    ],
    [
      "פעם בשנה ב-3 במרץ ב-9",
      "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3",
      ["Wed 2027-03-03 09:00", "Fri 2028-03-03 09:00", "Sat 2029-03-03 09:00"],
    ],
  ])("Jerusalem, spring forward: %j", (message, rule, first) => {
    expect(occurrences(message, JERUSALEM_SPRING, JERUSALEM)).toEqual({ rule, first });
  });

  // Saturday 24 October 2026, 10:00 in Jerusalem: the clocks go back on Sunday 25 October.
  const JERUSALEM_AUTUMN = "2026-10-24T07:00:00Z";
  it.each([
    ["every weekday at 7", ["Sun 2026-10-25 07:00", "Mon 2026-10-26 07:00", "Tue 2026-10-27 07:00"]],
    ["every other day at 01:30", ["Sun 2026-10-25 01:30", "Tue 2026-10-27 01:30", "Thu 2026-10-29 01:30"]],
    ["כל שבועיים ביום ראשון ב-9", ["Sun 2026-10-25 09:00", "Sun 2026-11-08 09:00", "Sun 2026-11-22 09:00"]],
    [
      "the last Sunday of every month at 18:00",
      ["Sun 2026-10-25 18:00", "Sun 2026-11-29 18:00", "Sun 2026-12-27 18:00"],
    ],
  ])("Jerusalem, fall back: %j", (message, first) => {
    expect(occurrences(message, JERUSALEM_AUTUMN, JERUSALEM).first).toEqual(first);
  });

  it("takes the first 01:30 of the night the clocks go back", () => {
    const parsed = parseTime("every other day at 01:30", Date.parse(JERUSALEM_AUTUMN), JERUSALEM);
    expect(parsed?.kind === "recurring" && new Date(parsed.firstAt).toISOString()).toBe(
      "2026-10-24T22:30:00.000Z",
    );
  });

  // Friday 6 March 2026, noon in New York: the clocks go forward on Sunday 8 March.
  const NEW_YORK_SPRING = "2026-03-06T17:00:00Z";
  it.each([
    [
      "every weekday at 7",
      "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
      ["Mon 2026-03-09 07:00", "Tue 2026-03-10 07:00", "Wed 2026-03-11 07:00"],
    ],
    [
      "כל יום חול ב-7",
      "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
      ["Mon 2026-03-09 07:00", "Tue 2026-03-10 07:00", "Wed 2026-03-11 07:00"],
    ],
    [
      "every weekend at 10",
      "FREQ=WEEKLY;BYDAY=SU,SA",
      ["Sat 2026-03-07 10:00", "Sun 2026-03-08 10:00", "Sat 2026-03-14 10:00"],
    ],
    [
      'כל סופ"ש ב-10',
      "FREQ=WEEKLY;BYDAY=SU,SA",
      ["Sat 2026-03-07 10:00", "Sun 2026-03-08 10:00", "Sat 2026-03-14 10:00"],
    ],
    [
      "every other day at 2:30am starting Sunday",
      "FREQ=DAILY;INTERVAL=2",
      ["Sun 2026-03-08 03:30", "Tue 2026-03-10 02:30", "Thu 2026-03-12 02:30"],
    ],
    [
      "every 2 weeks on Sunday at 9",
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;WKST=MO",
      ["Sun 2026-03-08 09:00", "Sun 2026-03-22 09:00", "Sun 2026-04-05 09:00"],
    ],
    [
      "ביום ראשון הראשון של כל חודש ב-9",
      "FREQ=MONTHLY;BYDAY=1SU",
      ["Sun 2026-04-05 09:00", "Sun 2026-05-03 09:00", "Sun 2026-06-07 09:00"],
    ],
    [
      "the last day of every month at 20:00",
      "FREQ=MONTHLY;BYMONTHDAY=-1",
      ["Tue 2026-03-31 20:00", "Thu 2026-04-30 20:00", "Sun 2026-05-31 20:00"],
    ],
    [
      "every year on March 8 at 2:30am",
      "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=8",
      ["Sun 2026-03-08 03:30", "Mon 2027-03-08 02:30", "Wed 2028-03-08 02:30"],
    ],
  ])("New York, spring forward: %j", (message, rule, first) => {
    expect(occurrences(message, NEW_YORK_SPRING, "America/New_York")).toEqual({ rule, first });
  });

  // Friday 30 October 2026, noon in New York: the clocks go back on Sunday 1 November.
  const NEW_YORK_AUTUMN = "2026-10-30T16:00:00Z";
  it.each([
    ["every weekend at 1:30am", ["Sat 2026-10-31 01:30", "Sun 2026-11-01 01:30", "Sat 2026-11-07 01:30"]],
    ["every weekday at 7", ["Mon 2026-11-02 07:00", "Tue 2026-11-03 07:00", "Wed 2026-11-04 07:00"]],
    ["every other Sunday at 9", ["Sun 2026-11-01 09:00", "Sun 2026-11-15 09:00", "Sun 2026-11-29 09:00"]],
    ["כל יומיים ב-8 בערב", ["Fri 2026-10-30 20:00", "Sun 2026-11-01 20:00", "Tue 2026-11-03 20:00"]],
  ])("New York, fall back: %j", (message, first) => {
    expect(occurrences(message, NEW_YORK_AUTUMN, "America/New_York").first).toEqual(first);
  });

  // Monday 15 June 2026, 10:00 in Kolkata (no DST).
  const KOLKATA_JUNE = "2026-06-15T04:30:00Z";
  it.each([
    ["every weekday at 7", ["Tue 2026-06-16 07:00", "Wed 2026-06-17 07:00", "Thu 2026-06-18 07:00"]],
    ["כל סוף שבוע", ["Sat 2026-06-20 09:00", "Sun 2026-06-21 09:00", "Sat 2026-06-27 09:00"]],
    ["every 3 days at 21:00", ["Mon 2026-06-15 21:00", "Thu 2026-06-18 21:00", "Sun 2026-06-21 21:00"]],
    ["כל 3 שבועות ביום שני ב-8", ["Mon 2026-06-22 08:00", "Mon 2026-07-13 08:00", "Mon 2026-08-03 08:00"]],
    [
      "every other month on the 31st at 9",
      ["Tue 2026-06-30 09:00", "Mon 2026-08-31 09:00", "Sat 2026-10-31 09:00"],
    ],
    [
      "the second Tuesday of every month at 18:00",
      ["Tue 2026-07-14 18:00", "Tue 2026-08-11 18:00", "Tue 2026-09-08 18:00"],
    ],
    ["בסוף כל חודש ב-20:00", ["Tue 2026-06-30 20:00", "Fri 2026-07-31 20:00", "Mon 2026-08-31 20:00"]],
    ["annually on June 15 at 9", ["Tue 2027-06-15 09:00", "Thu 2028-06-15 09:00", "Fri 2029-06-15 09:00"]],
    ["כל שנתיים ב-20 ביוני", ["Sat 2026-06-20 09:00", "Tue 2028-06-20 09:00", "Thu 2030-06-20 09:00"]],
  ])("Kolkata: %j", (message, first) => {
    expect(occurrences(message, KOLKATA_JUNE, "Asia/Kolkata").first).toEqual(first);
  });

  it("cuts the repeat words out of the message", () => {
    expect(parse("every weekday at 7 standup")).toMatchObject({
      text: "standup",
      phrase: "every weekday at 7",
    });
    expect(parse("כל יום חול ב-7 לקום לעבודה")).toMatchObject({
      text: "לקום לעבודה",
      phrase: "כל יום חול ב-7",
    });
    expect(parse("call grandma every other Sunday at 11")).toMatchObject({ text: "call grandma" });
    expect(parse("happy birthday to Dana every year on March 3")).toMatchObject({
      text: "happy birthday to Dana",
    });
  });

  it("asks about a bare hour 1–6 in the new forms too, each choice complete", () => {
    const reading = readTime("every weekday at 6", WED_10AM, JERUSALEM);
    expect(reading).toMatchObject({ kind: "unclear", reason: "ambiguous_hour" });
    const choices = reading?.kind === "unclear" ? (reading.choices ?? []) : [];
    expect(choices.map((c) => c.kind === "recurring" && [c.recurrence.rule, c.recurrence.time])).toEqual([
      ["FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH", "06:00"],
      ["FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH", "18:00"],
    ]);
    expect(readTime("כל יומיים בחמש", WED_10AM, JERUSALEM)).toMatchObject({ reason: "ambiguous_hour" });
  });

  it("refuses an interval beyond ten years, or a date that would skip years, and never throws", () => {
    for (const message of [
      "every 99999999 minutes",
      "every 99999999999999999999 minutes",
      "every 4000 days",
      "every 11 years on March 3",
      "כל 600 שבועות",
    ]) {
      expect(readTime(message, WED_10AM, JERUSALEM), message).toMatchObject({
        kind: "unclear",
        reason: "too_far",
      });
    }
    // 29 February: once in four years, or on a day not said (asked in 2028, the next year that has it).
    expect(
      readTime("every year on February 29", Date.parse("2028-01-10T08:00:00Z"), JERUSALEM),
    ).toMatchObject({
      reason: "unsupported",
    });
    expect(readTime("every weekday at 9 London time", WED_10AM, JERUSALEM)).toMatchObject({
      reason: "unsupported",
    });
    expect(recurring("every 10 years on March 3")).toMatchObject({
      rule: "FREQ=YEARLY;INTERVAL=10;BYMONTH=3;BYMONTHDAY=3",
    });
  });

  it("keeps the V1 shapes for what V1 says", () => {
    expect(recurring("every 1 day at 8")).toMatchObject({ type: "daily", time: "08:00" });
    expect(recurring("every Monday and Thursday at 9")).toMatchObject({ type: "weekly", days: [1, 4] });
    expect(recurring("every month on the 10th at 9:00")).toMatchObject({ type: "monthly", dayOfMonth: 10 });
  });

  it("ends a new form at its until", () => {
    expect(recurring("every weekday at 7 until April 3")).toMatchObject({
      rule: "FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH",
      until: "2026-04-03T20:59:00.000Z",
    });
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
    expect(isValidTimeZone("")).toBe(false);
    expect(isValidTimeZone("America/New_York")).toBe(true);
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
