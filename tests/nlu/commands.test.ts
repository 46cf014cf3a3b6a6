// The fast path's command recognizer against a committed corpus of realistic messages: every
// command form is recognized with the arguments the LLM path would produce, and no free-form
// request is captured.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { recognizeCommand } from "../../src/nlu/commands.js";
import { parseNow, whenForLine } from "../../src/nlu/whenJson.js";

const NOW = Date.parse("2026-03-05T10:00:00Z"); // Thursday 12:00 in Jerusalem
const ZONE = "Asia/Jerusalem";

const Entry = z.object({
  text: z.string(),
  expect: z.string(),
  args: z.record(z.string(), z.unknown()).optional(),
});

export const CORPUS = readFileSync(path.resolve(import.meta.dirname, "fastPathCorpus.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => Entry.parse(JSON.parse(line)));

describe("the fast-path corpus", () => {
  it("has at least 100 messages in both languages, commands and free-form", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(100);
    expect(CORPUS.filter((e) => /[\u0590-\u05FF]/.test(e.text)).length).toBeGreaterThanOrEqual(40);
    expect(CORPUS.filter((e) => e.expect === "planner").length).toBeGreaterThanOrEqual(90);
  });

  it.each(CORPUS.filter((e) => e.expect !== "planner").map((e) => [e.text, e] as const))(
    "recognizes %s",
    (_text, entry) => {
      const command = recognizeCommand(entry.text, NOW, ZONE);
      expect(command?.functionName).toBe(entry.expect);
      // The whole argument object: nothing missing, nothing extra.
      expect(command?.args).toEqual({ operation: entry.expect.split(".")[1], ...entry.args });
    },
  );

  it.each(CORPUS.filter((e) => e.expect === "planner").map((e) => [e.text]))(
    "leaves %s to the planner, or only asks about its time (D10)",
    (text) => {
      const command = recognizeCommand(text, NOW, ZONE);
      // Never acted on: either the planner reads it, or Memo asks about the time it named.
      if (command) expect(command.timeQuestion?.reading.kind).toBe("unclear");
    },
  );
});

describe("reminder arguments", () => {
  it("hands a recurrence over as the resolver would name it", () => {
    expect(
      recognizeCommand("remind me every Monday and Wednesday at 18:00 to go to the gym", NOW, ZONE)?.args,
    ).toEqual({
      operation: "create",
      text: "go to the gym",
      reminderRecurrence: { type: "weekly", time: "18:00", days: [1, 3] },
    });
    expect(recognizeCommand("נדנד אותי כל 15 דקות לשתות מים", NOW, ZONE)?.args).toEqual({
      operation: "create",
      text: "לשתות מים",
      reminderRecurrence: { type: "nudge", interval: "15 minutes" },
    });
    expect(recognizeCommand("תזכיר לי כל 10 לחודש ב-9:00 לשלם שכירות", NOW, ZONE)?.args).toMatchObject({
      reminderRecurrence: { type: "monthly", dayOfMonth: 10, time: "09:00" },
    });
  });

  it("asks about a time already past, and leaves a reminder with nothing to do to the planner", () => {
    const past = recognizeCommand("remind me today at 9am to call mom", NOW, ZONE);
    expect(past?.timeQuestion?.reading.reason).toBe("past");
    expect(past?.args).toEqual({ operation: "create", text: "call mom" });
    expect(recognizeCommand("remind me tomorrow at 9", NOW, ZONE)).toBeNull();
  });
});

describe("the when command's edge cases", () => {
  it("answers an empty --batch line with an error line, so line N of the output is about line N", () => {
    expect(whenForLine("", NOW)).toEqual({ error: "empty line" });
    expect(whenForLine("   ", NOW)).toEqual({ error: "empty line" });
  });

  it("refuses a --now that names a day that does not exist", () => {
    expect(parseNow("2026-02-30T10:00:00Z", ZONE)).toBeNull();
    expect(parseNow("2026-02-28T10:00:00Z", ZONE)).toBe(Date.parse("2026-02-28T10:00:00Z"));
  });
});
