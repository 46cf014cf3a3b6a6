import { describe, expect, it } from "vitest";
import { parseRRule, toRRule, weekStartOf } from "../../src/services/calendar/rrule.js";

const ZONE = "Asia/Jerusalem";
const timed = { allDay: false, timeZone: ZONE };

describe("RRULE week start (WKST)", () => {
  it("writes a Google-made every-other-week rule back as it was, with or without WKST", () => {
    for (const line of [
      "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,TU",
      "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,TU;WKST=MO",
      "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,TU;WKST=SU",
    ]) {
      const lines = [line, "EXDATE;TZID=Asia/Jerusalem:20260414T090000"];
      expect(toRRule(parseRRule(lines, ZONE)!, timed, weekStartOf(lines))).toBe(line);
    }
  });

  it("reads WKST wherever it stands in the rule, and none when the series has no rule", () => {
    expect(weekStartOf(["RRULE:FREQ=WEEKLY;WKST=MO;INTERVAL=2;BYDAY=SU,TU"])).toBe("MO");
    expect(weekStartOf(["RRULE:FREQ=WEEKLY;BYDAY=MO"])).toBeNull();
    expect(weekStartOf(["EXDATE:20260414"])).toBeUndefined();
    expect(weekStartOf(null)).toBeUndefined();
  });

  it("starts Memo's own every-other-week rules on Sunday (D6)", () => {
    expect(toRRule({ frequency: "weekly", interval: 2, days: [0, 2] }, timed)).toBe(
      "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,TU;WKST=SU",
    );
  });

  it("does not read a rule whose week start is not a day", () => {
    expect(parseRRule(["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;WKST=XX"], ZONE)).toBeNull();
  });
});

describe("RRULE lines read by the reminders' strict reader (D10)", () => {
  const read = (line: string) => parseRRule([line], ZONE);

  it("reads what V1 said as V1's fields, and the rest as the rule itself", () => {
    expect(read("RRULE:FREQ=WEEKLY;BYDAY=MO,WE")).toEqual({ frequency: "weekly", days: [1, 3] });
    expect(read("RRULE:FREQ=MONTHLY;BYMONTHDAY=10;COUNT=4")).toEqual({
      frequency: "monthly",
      daysOfMonth: [10],
      count: 4,
    });
    expect(read("RRULE:FREQ=DAILY;INTERVAL=2")).toEqual({ frequency: "daily", interval: 2 });
    expect(read("RRULE:FREQ=YEARLY")).toEqual({ frequency: "yearly", rule: "FREQ=YEARLY" });
    expect(read("RRULE:FREQ=YEARLY;BYMONTHDAY=3;BYMONTH=3;UNTIL=20300303")).toEqual({
      frequency: "yearly",
      rule: "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3",
      until: "2030-03-03",
    });
    expect(read("RRULE:FREQ=MONTHLY;BYDAY=1SU")).toEqual({
      frequency: "monthly",
      rule: "FREQ=MONTHLY;BYDAY=1SU",
    });
    expect(read("RRULE:FREQ=MONTHLY;BYMONTHDAY=-1")).toEqual({
      frequency: "monthly",
      rule: "FREQ=MONTHLY;BYMONTHDAY=-1",
    });
    expect(read("RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")).toEqual({
      frequency: "monthly",
      rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
    });
    // Every other week on two days counts weeks from Monday unless it says otherwise: not V1's Sunday weeks.
    expect(read("RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH")).toEqual({
      frequency: "weekly",
      rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH",
    });
  });

  it("writes each rule back as the same line", () => {
    for (const line of [
      "RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3",
      "RRULE:FREQ=YEARLY;INTERVAL=2;BYMONTH=6;BYMONTHDAY=20;COUNT=5",
      "RRULE:FREQ=MONTHLY;BYDAY=1SU;UNTIL=20261231T215959Z",
      "RRULE:FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR",
      "RRULE:FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
      "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=MO",
      "RRULE:FREQ=DAILY;INTERVAL=3",
    ]) {
      const lines = [line];
      expect(toRRule(parseRRule(lines, ZONE)!, timed, weekStartOf(lines))).toBe(line);
    }
  });

  it("reads as null what the strict reader refuses, so Memo never rewrites it", () => {
    for (const line of [
      "RRULE:FREQ=MONTHLY;BYDAY=5MO",
      "RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO",
      "RRULE:FREQ=HOURLY;INTERVAL=2",
      "RRULE:FREQ=DAILY;BYHOUR=9,17",
      "RRULE:FREQ=YEARLY;INTERVAL=11",
      "RRULE:FREQ=WEEKLY;UNTIL=soon",
    ]) {
      expect(read(line)).toBeNull();
    }
  });
});
