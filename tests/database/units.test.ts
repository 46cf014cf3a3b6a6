// The small pure parts of the database capability: time words to a schedule, handles, routing
// of plan actions, and reply wording.
import { describe, expect, it } from "vitest";
import { scheduleTask } from "../../src/services/tasks/taskTimes.js";
import { intervalText, ruleText } from "../../src/services/tasks/replies.js";
import { parseHandle } from "../../src/graph/entities/references.js";
import { isListAction } from "../../src/graph/capabilities/tasks/listResolver.js";
import { compactArgs } from "../../src/graph/resolvers/compactArgs.js";

const ZONE = "Asia/Jerusalem";
/** Thursday 5 March 2026, 12:00 in Jerusalem (UTC+2). */
const NOW = Date.parse("2026-03-05T10:00:00Z");
const schedule = (args: Parameters<typeof scheduleTask>[0], anchorDueAt?: string) => {
  const result = scheduleTask(args, { nowMs: NOW, timeZone: ZONE, ...(anchorDueAt ? { anchorDueAt } : {}) });
  if (!result.ok) throw new Error(`${result.problem}: ${result.phrase}`);
  return result.schedule;
};

describe("scheduleTask", () => {
  it("rings a one-time reminder at its due time, or the offset before it", () => {
    expect(schedule({ dueDate: "tomorrow at 9" })).toMatchObject({
      dueAt: "2026-03-06T07:00:00.000Z",
      nextFireAt: "2026-03-06T07:00:00.000Z",
      dateOnly: false,
    });
    expect(schedule({ dueDate: "2026-03-06T10:00", reminder: "an hour" })).toMatchObject({
      dueAt: "2026-03-06T08:00:00.000Z",
      reminderOffsetMinutes: 60,
      nextFireAt: "2026-03-06T07:00:00.000Z",
    });
  });

  it("puts a date-only reminder at 09:00 local and says it was date-only", () => {
    expect(schedule({ dueDate: "2026-03-08" })).toMatchObject({
      dueAt: "2026-03-08T07:00:00.000Z",
      dateOnly: true,
    });
  });

  it("moves a task within its own day when only a clock time is named", () => {
    expect(schedule({ dueDate: "18:00" }, "2026-03-09T07:00:00.000Z").dueAt).toBe("2026-03-09T16:00:00.000Z");
    expect(schedule({ dueDate: "6pm" }, "2026-03-09T07:00:00.000Z").dueAt).toBe("2026-03-09T16:00:00.000Z");
  });

  it("keeps 09:00 local across the DST change for a daily rule, and honours a start date", () => {
    const daily = schedule({ reminderRecurrence: { type: "daily", time: "9" } });
    expect(daily).toMatchObject({
      recurrence: { type: "daily", time: "09:00" },
      nextFireAt: "2026-03-06T07:00:00.000Z",
    });
    // Starting on 28 March (after Israel moves to UTC+3 on 27 March): 09:00 local is 06:00Z.
    expect(
      schedule({ dueDate: "2026-03-28T09:00", reminderRecurrence: { type: "daily", time: "09:00" } })
        .nextFireAt,
    ).toBe("2026-03-28T06:00:00.000Z");
  });

  it("nudges every 10 minutes by default, from now or from the given start", () => {
    expect(schedule({ reminderRecurrence: { type: "nudge" } })).toMatchObject({
      recurrence: { type: "nudge", intervalMinutes: 10 },
      nextFireAt: new Date(NOW + 10 * 60_000).toISOString(),
    });
    expect(
      schedule({ dueDate: "today at 15:00", reminderRecurrence: { type: "nudge", interval: "חצי שעה" } }),
    ).toMatchObject({
      recurrence: { intervalMinutes: 30 },
      nextFireAt: "2026-03-05T13:00:00.000Z",
    });
  });

  it("stops a rule at its until, and leaves no ring for a time already past", () => {
    const until = schedule({
      reminderRecurrence: { type: "weekly", days: [4], time: "08:00", until: "2026-03-10" },
    });
    expect(until.recurrence?.until).toBe("2026-03-10T21:59:00.000Z");
    // The next Thursday 08:00 (12 March) is after the end of 10 March: it never rings again.
    expect(until.nextFireAt).toBeNull();
    expect(scheduleTask({ dueDate: "2026-03-01T09:00" }, { nowMs: NOW, timeZone: ZONE })).toEqual({
      ok: false,
      problem: "past_time",
      phrase: "2026-03-01T09:00",
    });
  });

  it("names what it cannot read", () => {
    expect(scheduleTask({ dueDate: "whenever" }, { nowMs: NOW, timeZone: ZONE })).toEqual({
      ok: false,
      problem: "unclear_time",
      phrase: "whenever",
    });
    expect(
      scheduleTask({ reminderRecurrence: { type: "weekly", time: "9:00" } }, { nowMs: NOW, timeZone: ZONE }),
    ).toMatchObject({
      ok: false,
      problem: "missing_days",
    });
    expect(
      scheduleTask({ reminderRecurrence: { type: "daily" } }, { nowMs: NOW, timeZone: ZONE }),
    ).toMatchObject({
      ok: false,
      problem: "missing_time",
    });
    expect(
      scheduleTask({ reminderRecurrence: { type: "monthly", time: "9:00" } }, { nowMs: NOW, timeZone: ZONE }),
    ).toMatchObject({
      ok: false,
      problem: "missing_day_of_month",
    });
    expect(
      scheduleTask({ dueDate: "tomorrow", reminder: "a bit" }, { nowMs: NOW, timeZone: ZONE }),
    ).toMatchObject({
      ok: false,
      problem: "unclear_interval",
    });
  });
});

describe("handles, routing and wording", () => {
  it("reads #N, bare numbers and @N handles", () => {
    expect(parseHandle("#2")).toEqual({ kind: "number", n: 2 });
    expect(parseHandle(" 3 ")).toEqual({ kind: "number", n: 3 });
    expect(parseHandle("מספר 4")).toEqual({ kind: "number", n: 4 });
    expect(parseHandle("@1")).toEqual({ kind: "action", n: 1 });
    expect(parseHandle("call mom")).toBeNull();
  });

  it("sends list and item actions to the list resolver, task actions to the task resolver", () => {
    for (const action of ["create_list", "add_list_item", "toggle_item", "show_lists", "delete_checklist"]) {
      expect(isListAction(action), action).toBe(true);
    }
    for (const action of ["create_task", "list_tasks", "delete_reminders", "complete_task", "add_subtask"]) {
      expect(isListAction(action), action).toBe(false);
    }
  });

  it("words rules and intervals in both languages", () => {
    expect(ruleText({ type: "weekly", days: [1, 3, 5], time: "18:00" }, "en")).toBe(
      "every Monday, Wednesday and Friday at 18:00",
    );
    expect(ruleText({ type: "weekly", days: [0, 3], time: "08:00" }, "he")).toBe(
      "כל יום ראשון ורביעי ב-08:00",
    );
    expect(ruleText({ type: "monthly", dayOfMonth: 22, time: "09:00" }, "en")).toBe(
      "every month on the 22nd at 09:00",
    );
    expect(ruleText({ type: "monthly", dayOfMonth: 11, time: "09:00" }, "en")).toBe(
      "every month on the 11th at 09:00",
    );
    expect(ruleText({ type: "nudge", intervalMinutes: 120 }, "he")).toBe("כל שעתיים");
    expect(intervalText(1, "en")).toBe("minute");
    expect(intervalText(90, "en")).toBe("90 minutes");
    expect(intervalText(180, "he")).toBe("3 שעות");
  });

  it("drops null and empty fields from the resolver's answer, at any depth", () => {
    expect(
      compactArgs({ operation: "create", text: "x", dueDate: null, tasks: [{ text: "a", category: "" }] }),
    ).toEqual({
      operation: "create",
      text: "x",
      tasks: [{ text: "a" }],
    });
  });
});
