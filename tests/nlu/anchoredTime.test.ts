// Time words counted from another thing's time ("the day before it", "שעה לפני"), read in code (D6).
import { describe, expect, it } from "vitest";
import { anchoredLocalTime, readAnchored } from "../../src/nlu/anchoredTime.js";

const ZONE = "Asia/Jerusalem";
/** Sunday 8 March 2026, 10:00 in Jerusalem (UTC+2). */
const MEETING = "2026-03-08T08:00:00.000Z";

describe("anchoredLocalTime", () => {
  for (const [words, local] of [
    ["the day before it", "2026-03-07"],
    ["the day before", "2026-03-07"],
    ["a day before the meeting", "2026-03-07"],
    ["2 days before", "2026-03-06"],
    ["a week before it", "2026-03-01"],
    ["the day after", "2026-03-09"],
    ["the day before at 18:00", "2026-03-07T18:00"],
    ["the day before it at 6pm", "2026-03-07T18:00"],
    ["an hour before it", "2026-03-08T09:00"],
    ["30 minutes before the meeting", "2026-03-08T09:30"],
    ["half an hour after", "2026-03-08T10:30"],
    ["that day at 8", "2026-03-08T08:00"],
    ["יום לפני", "2026-03-07"],
    ["יום לפני הפגישה", "2026-03-07"],
    ["יומיים לפני", "2026-03-06"],
    ["שעה לפני", "2026-03-08T09:00"],
    ["שעתיים לפני הפגישה", "2026-03-08T08:00"],
    ["חצי שעה אחרי", "2026-03-08T10:30"],
    ["יום לפני ב-20:00", "2026-03-07T20:00"],
    ["באותו יום ב-8", "2026-03-08T08:00"],
  ] as const) {
    it(`"${words}" → ${local}`, () => {
      expect(anchoredLocalTime(words, MEETING, ZONE)).toEqual({ kind: "local", local });
    });
  }

  it("crosses midnight in the user's zone, not in UTC", () => {
    // 01:00 on 8 March in Jerusalem is 23:00 on 7 March in UTC.
    expect(anchoredLocalTime("2 hours before", "2026-03-07T23:00:00.000Z", ZONE)).toEqual({
      kind: "local",
      local: "2026-03-07T23:00",
    });
  });
});

describe("readAnchored", () => {
  for (const words of [
    "before it",
    "just before",
    "לפני כן",
    "the evening before",
    "a bit before the meeting",
  ])
    it(`"${words}" points back but says no amount: asked`, () => {
      expect(readAnchored(words)).toEqual({ kind: "unclear" });
    });

  for (const words of [
    "tomorrow at 9",
    "before 18:00",
    "the day before yesterday",
    "מחר ב-9",
    "לפני 18:00",
    "Sunday",
  ])
    it(`"${words}" names a time of its own`, () => {
      expect(readAnchored(words)).toBeNull();
    });
});
