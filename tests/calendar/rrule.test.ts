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
