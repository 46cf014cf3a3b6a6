import { describe, expect, it } from "vitest";
import { isBareDone, readButton } from "../../src/nlu/buttonCommands.js";
import { readZoneAnswer } from "../../src/nlu/timeZoneCommand.js";

describe("the words of Memo's own buttons and of a bare 'done'", () => {
  it("reads each button id Memo sends back as what it asks for, and nothing else", () => {
    expect(readButton("rem:done:t1")).toEqual({ kind: "reminderDone", taskId: "t1" });
    expect(readButton("rem:snooze:t1")).toEqual({ kind: "reminderSnooze", taskId: "t1" });
    expect(readButton("hh:accept:i9")).toEqual({ kind: "invitationAccept", invitationId: "i9" });
    expect(readButton("hh:decline:i9")).toEqual({ kind: "invitationDecline", invitationId: "i9" });
    expect(readButton("tz:Europe/London")).toEqual({ kind: "timeZone", zone: "Europe/London" });
    // A question's own options and no button at all are not commands.
    expect(readButton("yes")).toBeNull();
    expect(readButton(undefined)).toBeNull();
  });

  it("takes 'done' alone, in English and Hebrew, never a sentence that says it", () => {
    for (const text of ["done", "Done ✅", "ok, done!", "all done", "בוצע", "סיימתי", "כן, עשיתי"])
      expect(isBareDone(text), text).toBe(true);
    for (const text of ["done 2", "is the report done?", "mark the laundry done", "סיימתי את הדוח"])
      expect(isBareDone(text), text).toBe(false);
  });

  it("reads an answer to the zone question as a number or as a place, bare or in a sentence", () => {
    expect(readZoneAnswer("2")).toEqual({ choice: 2 });
    expect(readZoneAnswer(" 3. ")).toEqual({ choice: 3 });
    expect(readZoneAnswer("Lisbon")).toEqual({ place: "Lisbon", bare: true });
    expect(readZoneAnswer("what's the capital of France?")).toMatchObject({ bare: false });
    expect(readZoneAnswer("")).toBeNull();
  });
});
