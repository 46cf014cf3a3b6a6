// Which messages the memory model is asked about: statements about the user, also inside
// requests; not questions, bare commands or small talk (each would be a paid call per turn).
import { describe, expect, it } from "vitest";
import type { HistoryMessage } from "../../src/db/repositories/ConversationHistory.js";
import { mayHoldFacts } from "../../src/services/memory/factExtraction.js";

const message = (content: string): HistoryMessage => ({
  id: 1,
  role: "user",
  content,
  whatsappMessageId: null,
  createdAt: 0,
});

describe("mayHoldFacts", () => {
  it.each([
    "I prefer morning meetings",
    "remind me to buy gluten-free bread, I'm celiac",
    "I'm vegan, can you suggest dinner?",
    "אני צמחוני",
    "תזכיר לי לקנות לחם בלי גלוטן, אני צליאק",
  ])("asks about %j", (text) => {
    expect(mayHoldFacts(message(text))).toBe(true);
  });

  it.each([
    "thanks!",
    "my tasks",
    "done 2",
    "add 3 apples to my shopping list",
    "what's on my calendar tomorrow?",
    "what's on today?",
    "תודה",
    "המשימות שלי",
    "מה יש לי היום?",
  ])("does not ask about %j", (text) => {
    expect(mayHoldFacts(message(text))).toBe(false);
  });
});
