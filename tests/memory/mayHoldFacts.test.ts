// Which messages the memory model is asked about: statements about the user, also inside
// requests; not questions, bare commands or small talk (each would be a paid call per turn).
import { describe, expect, it } from "vitest";
import type { HistoryMessage } from "../../src/db/repositories/conversationHistory.js";
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

  // Each of these once threw in the time parser, so every later turn of the user failed fact
  // extraction on the stored message.
  it.each([
    "remind me in 99999999 days to x",
    "תזכיר לי בעוד 99999999 ימים לעשות x",
    "in 999999999999 hours remind me to x",
    "in 9999999 days remind me x",
    "remind me every 99999999 minutes to x",
    "remind me in 99999999999999999999999 weeks to x",
  ])("reads the huge-number request %j without throwing: a request, no fact", (text) => {
    expect(mayHoldFacts(message(text))).toBe(false);
  });
});
