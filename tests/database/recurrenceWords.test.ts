// Repeats beyond V1's schema on the LLM path and in replies: the resolver hands over the user's own
// repeat words, code reads them into a rule (D6, D10), and every reply describes the rule in words.
import { describe, expect, it } from "vitest";
import { recurrenceArgsOf, scheduleTask, nextFireAfter } from "../../src/services/tasks/taskTimes.js";
import { ruleText } from "../../src/services/tasks/replies.js";
import type { TaskRecurrence } from "../../src/types/tasks.js";

const ZONE = "Asia/Jerusalem";
/** Thursday 5 March 2026, 12:00 in Jerusalem (UTC+2). */
const NOW = Date.parse("2026-03-05T10:00:00Z");
const schedule = (words: Parameters<typeof scheduleTask>[0], timeZone = ZONE) =>
  scheduleTask(words, { nowMs: NOW, timeZone });

describe("scheduleTask: the user's repeat words", () => {
  it("builds the rule from the words in code, whatever type the model chose", () => {
    expect(
      schedule({ reminderRecurrence: { type: "weekly", phrase: "every other Tuesday at 8" } }),
    ).toMatchObject({
      ok: true,
      schedule: {
        recurrence: {
          type: "rrule",
          rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=SU",
          time: "08:00",
          start: "2026-03-10",
        },
        nextFireAt: "2026-03-10T06:00:00.000Z",
      },
    });
    expect(
      schedule({ reminderRecurrence: { type: "daily", phrase: "כל יום חול ב-7" } }, "America/New_York"),
    ).toMatchObject({
      ok: true,
      schedule: { recurrence: { rule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", time: "07:00" } },
    });
    expect(
      schedule({ reminderRecurrence: { type: "monthly", phrase: "every year on March 3 at 9" } }),
    ).toMatchObject({
      ok: true,
      schedule: { nextFireAt: "2027-03-03T07:00:00.000Z" },
    });
  });

  it("keeps V1's shape for V1's words, and the first day the words name", () => {
    expect(
      schedule({ reminderRecurrence: { type: "daily", phrase: "every day at 8 starting Monday" } }),
    ).toMatchObject({
      ok: true,
      schedule: { recurrence: { type: "daily", time: "08:00" }, nextFireAt: "2026-03-09T06:00:00.000Z" },
    });
    expect(
      schedule({ reminderRecurrence: { type: "nudge", phrase: "every 15 minutes from 5pm" } }),
    ).toMatchObject({
      ok: true,
      schedule: {
        recurrence: { type: "nudge", intervalMinutes: 15 },
        nextFireAt: "2026-03-05T15:00:00.000Z",
      },
    });
  });

  it("adds a clock time given apart from the words only when the words name none", () => {
    expect(
      schedule({ reminderRecurrence: { type: "weekly", phrase: "every other Tuesday", time: "08:00" } }),
    ).toMatchObject({ ok: true, schedule: { recurrence: { time: "08:00" } } });
    // The words say 5pm; the model's "17:30" does not override them.
    expect(
      schedule({ reminderRecurrence: { type: "daily", phrase: "every weekday at 5pm", time: "17:30" } }),
    ).toMatchObject({ ok: true, schedule: { recurrence: { time: "17:00" } } });
  });

  it("takes the end from the words, else from the until field", () => {
    expect(
      schedule({
        reminderRecurrence: { type: "daily", phrase: "every other day at 8", until: "2026-03-20" },
      }),
    ).toMatchObject({ ok: true, schedule: { recurrence: { until: "2026-03-20T21:59:00.000Z" } } });
  });

  it("asks rather than guess: the hour, a repeat it cannot express, words it cannot read", () => {
    expect(schedule({ reminderRecurrence: { type: "daily", phrase: "every day at 5" } })).toEqual({
      ok: false,
      problem: "ambiguous_hour",
      phrase: "every day at 5",
    });
    expect(schedule({ reminderRecurrence: { type: "daily", phrase: "twice a week" } })).toEqual({
      ok: false,
      problem: "unsupported_repeat",
      phrase: "twice a week",
    });
    expect(
      schedule({ reminderRecurrence: { type: "daily", phrase: "every 99999999 minutes" } }),
    ).toMatchObject({
      ok: false,
      problem: "too_far",
    });
    expect(
      schedule({ reminderRecurrence: { type: "daily", phrase: "whenever I feel like it" } }),
    ).toMatchObject({
      ok: false,
      problem: "unclear_time",
    });
    // A one-off time is no repeat.
    expect(schedule({ reminderRecurrence: { type: "daily", phrase: "tomorrow at 9" } })).toMatchObject({
      ok: false,
      problem: "unclear_time",
    });
  });

  it("reschedules a stored RFC 5545 rule as it is, also with a new time, keeping its series start", () => {
    const stored: TaskRecurrence = {
      type: "rrule",
      rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=SU",
      time: "08:00",
      start: "2026-03-10",
    };
    const moved = schedule({ reminderRecurrence: { ...recurrenceArgsOf(stored), time: "9:30" } });
    expect(moved).toMatchObject({
      ok: true,
      schedule: { recurrence: { ...stored, time: "09:30" }, nextFireAt: "2026-03-10T07:30:00.000Z" },
    });
    expect(nextFireAfter(stored, ZONE, Date.parse("2026-03-10T07:00:00Z"))).toBe("2026-03-24T06:00:00.000Z");
    expect(
      schedule({
        reminderRecurrence: { type: "rrule", rule: "FREQ=HOURLY", time: "08:00", start: "2026-03-10" },
      }),
    ).toMatchObject({
      ok: false,
      problem: "unsupported_repeat",
    });
  });
});

describe("ruleText: repeats in words, in both languages", () => {
  const rrule = (rule: string, time = "07:00"): TaskRecurrence => ({
    type: "rrule",
    rule,
    time,
    start: "2026-03-10",
  });

  it.each([
    ["FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH", "every weekday (Sun–Thu) at 07:00", "כל יום חול (א׳–ה׳) ב-07:00"],
    ["FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "every weekday (Mon–Fri) at 07:00", "כל יום חול (ב׳–ו׳) ב-07:00"],
    ["FREQ=WEEKLY;BYDAY=FR,SA", "every weekend (Fri–Sat) at 07:00", "כל סופ״ש (ו׳–ש׳) ב-07:00"],
    ["FREQ=WEEKLY;BYDAY=SU,SA", "every weekend (Sat–Sun) at 07:00", "כל סופ״ש (ש׳–א׳) ב-07:00"],
    [
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR,SA;WKST=SU",
      "every other week on the weekend (Fri–Sat) at 07:00",
      "כל שבועיים בסופ״ש (ו׳–ש׳) ב-07:00",
    ],
    ["FREQ=DAILY;INTERVAL=2", "every other day at 07:00", "כל יומיים ב-07:00"],
    ["FREQ=DAILY;INTERVAL=3", "every 3 days at 07:00", "כל 3 ימים ב-07:00"],
    [
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;WKST=SU",
      "every other week on Tuesday at 07:00",
      "כל שבועיים ביום שלישי ב-07:00",
    ],
    [
      "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,TH;WKST=MO",
      "every 3 weeks on Monday and Thursday at 07:00",
      "כל 3 שבועות ביום שני וחמישי ב-07:00",
    ],
    [
      "FREQ=MONTHLY;BYDAY=1SU",
      "on the first Sunday of every month at 07:00",
      "ביום ראשון הראשון של כל חודש ב-07:00",
    ],
    [
      "FREQ=MONTHLY;BYDAY=2TU,4TU",
      "on the second and fourth Tuesday of every month at 07:00",
      "ביום שלישי השני והרביעי של כל חודש ב-07:00",
    ],
    [
      "FREQ=MONTHLY;BYDAY=-1FR",
      "on the last Friday of every month at 07:00",
      "ביום שישי האחרון של כל חודש ב-07:00",
    ],
    [
      "FREQ=MONTHLY;BYMONTHDAY=-1",
      "on the last day of every month at 07:00",
      "ביום האחרון של כל חודש ב-07:00",
    ],
    [
      "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=10",
      "every other month on the 10th at 07:00",
      "כל חודשיים ב-10 לחודש ב-07:00",
    ],
    [
      "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
      "every 3 months on the 31st at 07:00",
      "כל 3 חודשים ב-31 לחודש ב-07:00",
    ],
    ["FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3", "every year on March 3 at 07:00", "כל שנה ב-3 במרץ ב-07:00"],
    [
      "FREQ=YEARLY;INTERVAL=2;BYMONTH=6;BYMONTHDAY=20",
      "every other year on June 20 at 07:00",
      "כל שנתיים ב-20 ביוני ב-07:00",
    ],
  ])("%s", (rule, english, hebrew) => {
    expect(ruleText(rrule(rule), "en")).toBe(english);
    expect(ruleText(rrule(rule), "he")).toBe(hebrew);
  });

  it("says a rule it has no words for in a general sentence, and adds the end", () => {
    expect(ruleText(rrule("FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=2"), "en")).toBe(
      "on a repeating schedule (FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=2) at 07:00",
    );
    expect(ruleText({ ...rrule("FREQ=DAILY;INTERVAL=2"), untilHuman: "Fri 20/03" }, "en")).toBe(
      "every other day at 07:00 until Fri 20/03",
    );
  });
});
