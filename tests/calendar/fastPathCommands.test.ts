// "My calendar today/tomorrow" and its Hebrew forms are recognized with no LLM, the day computed in
// code in the user's zone (D6). "Now" is Thursday 5 March 2026, 12:00 in Asia/Jerusalem.
import { describe, expect, it } from "vitest";
import { recognizeCommand } from "../../src/nlu/commands.js";

const NOW = Date.parse("2026-03-05T10:00:00Z");
const recognize = (text: string) => recognizeCommand(text, NOW, "Asia/Jerusalem");
const events = (args: Record<string, unknown>) => ({
  capability: "calendar",
  action: "list_events",
  functionName: "calendar.getEvents",
  args: { operation: "getEvents", ...args },
});

describe("calendar commands", () => {
  it.each([
    ["my calendar today", { timeMin: "2026-03-05" }],
    ["What's on my calendar tomorrow?", { timeMin: "2026-03-06" }],
    ["tomorrow's schedule", { timeMin: "2026-03-06" }],
    ["my schedule this week", { timeMin: "2026-03-05", timeMax: "2026-03-07" }],
    ["whats on my calendar", {}],
    ["מה יש לי ביומן היום", { timeMin: "2026-03-05" }],
    ["מה יש לי ביומן מחר?", { timeMin: "2026-03-06" }],
    ["מה יש לי מחר ביומן", { timeMin: "2026-03-06" }],
    ["היומן שלי", {}],
    ["היומן שלי השבוע", { timeMin: "2026-03-05", timeMax: "2026-03-07" }],
  ])("%s → the events of that range", (text, args) => {
    expect(recognize(text)).toEqual(events(args));
  });

  it("leaves anything more than a look at the calendar to the planner", () => {
    expect(recognize("add a meeting to my calendar tomorrow at 5")).toBeNull();
    expect(recognize("what's on my calendar next week")).toBeNull();
    expect(recognize("is my calendar free on Sunday?")).toBeNull();
    expect(recognize("תוסיף ליומן פגישה מחר")).toBeNull();
    // Tasks stay tasks.
    expect(recognize("my tasks for today")).toMatchObject({ capability: "database" });
  });

  it("computes the day in the user's zone: late evening in New York is still 'today' there", () => {
    const lateNy = Date.parse("2026-03-06T03:30:00Z"); // 22:30 on Thursday 5 March in New York
    expect(recognizeCommand("my calendar today", lateNy, "America/New_York")).toEqual(
      events({ timeMin: "2026-03-05" }),
    );
  });
});
