import { describe, expect, it } from "vitest";
import { recognizeMemoryCommand, recognizeNoteCommand } from "../../src/nlu/noteCommands.js";

const NOW = Date.UTC(2026, 10, 20, 9);
const recall = (text: string) => recognizeNoteCommand(text, NOW, "Asia/Jerusalem");

describe("questions about the past, recognized without a model", () => {
  it.each([
    "where did I live in March?",
    "what did we decide about the trip?",
    "what did I say about the budget last month?",
    "what did I tell you about my car?",
    "what have I told you about Dana?",
    "what do you remember about my sister?",
    "where do I live?",
    "איפה גרתי במרץ?",
    "מה החלטנו על החופשה?",
    "מה אמרתי על התקציב בחודש שעבר?",
    "מה סיפרתי לך בחודש שעבר?",
    "מה אתה זוכר על אחותי?",
    "איפה אני גר?",
  ])("%s", (text) => {
    expect(recall(text)).toMatchObject({ action: "recall_memory", functionName: "memory.recall" });
    // A question about the past is not a privacy request: the planner takes it with FAST_PATH=off.
    expect(recognizeMemoryCommand(text)).toBeNull();
  });

  it.each([
    "how do I say thank you in Japanese?",
    "where do I work tomorrow?",
    "what do you know about quantum computing?",
    "which do I choose, the red or the blue?",
    "what did I choose for dinner? also add milk to my shopping list",
    "what do I have tomorrow?",
    "what did I plan for today?",
    "where do we stay in Rome?",
    "מה אמרתי לך לקנות?",
    "מה אתה יודע על מחשוב קוונטי?",
    "what do you remember about me?",
    "what did I say about the budget? remind me to call her tomorrow at 9",
    "what did we decide about dinner? book a table at 8",
    "מה אמרתי על התקציב? תזכיר לי מחר לקנות חלב",
    "what do you know about my flight tomorrow?",
    "what do you know about my rights as a tenant?",
    "מה אתה זוכר על הפגישה שלי מחר",
    "מה אתה יודע על דובאי",
    "",
    "\u200b",
  ])("not %j", (text) => {
    expect(recall(text)?.action).not.toBe("recall_memory");
  });

  it("'forget that I asked, …' is no forget request: the rest is a question for the planner", () => {
    expect(recognizeMemoryCommand("תשכח ששאלתי, מה מזג האוויר מחר?")).toBeNull();
    expect(recognizeMemoryCommand("תשכח שדיברנו על זה, תזכיר לי מחר לקנות חלב")).toBeNull();
    expect(recognizeMemoryCommand("תשכח שעברנו לחיפה")).toMatchObject({ functionName: "memory.forget" });
  });

  it("'what changed?' is a listing of what Memo keeps, a privacy request like 'what do you remember'", () => {
    expect(recognizeMemoryCommand("what changed?")).toMatchObject({ args: { history: true } });
    expect(recognizeMemoryCommand("מה השתנה?")).toMatchObject({ args: { history: true } });
  });
});
