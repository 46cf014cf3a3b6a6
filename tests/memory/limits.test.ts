import { describe, expect, it } from "vitest";
import { enforceMemoryLimits, estimateTokens, totalTokens } from "../../src/services/memory/limits.js";
import type { ConversationMessage } from "../../src/types/conversation.js";

let t = 0;
function message(content: string, role: ConversationMessage["role"] = "user"): ConversationMessage {
  return { role, content, timestamp: ++t, estimatedTokens: estimateTokens(content) };
}
const contents = (messages: ConversationMessage[]) => messages.map((m) => m.content);

describe("estimateTokens", () => {
  it("counts one token per 3.5 characters, rounded up", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abc")).toBe(1);
    expect(estimateTokens("abcdefg")).toBe(2);
    expect(estimateTokens("abcdefgh")).toBe(3);
    expect(estimateTokens("x".repeat(350))).toBe(100);
    expect(estimateTokens("שלום עולם")).toBe(3);
  });
});

describe("enforceMemoryLimits", () => {
  it("keeps the 10 newest messages, oldest first", () => {
    const messages = Array.from({ length: 13 }, (_, i) => message(`m${i}`));
    expect(contents(enforceMemoryLimits(messages))).toEqual(contents(messages.slice(3)));
  });

  it("then drops the oldest while the estimate is over 500 tokens", () => {
    // 175 characters = 50 tokens each: 10 messages are exactly 500 and all stay...
    const fit = Array.from({ length: 10 }, (_, i) => message(String(i).repeat(175)));
    expect(enforceMemoryLimits(fit)).toHaveLength(10);
    expect(totalTokens(fit)).toBe(500);
    // ...one character more and the oldest goes.
    const over = [message("a".repeat(176)), ...fit.slice(1)];
    const kept = enforceMemoryLimits(over);
    expect(contents(kept)).toEqual(contents(fit.slice(1)));
    expect(totalTokens(kept)).toBeLessThanOrEqual(500);
  });

  it("always keeps the newest message, however long", () => {
    const huge = message("x".repeat(5000));
    expect(enforceMemoryLimits([message("hi"), huge])).toEqual([huge]);
    expect(enforceMemoryLimits([huge], 0, 0)).toEqual([huge]);
  });

  it("keeps at most 3 system messages, dropping the oldest first", () => {
    const messages = [
      message("s1", "system"),
      message("u1"),
      message("s2", "system"),
      message("s3", "system"),
      message("a1", "assistant"),
      message("s4", "system"),
    ];
    expect(contents(enforceMemoryLimits(messages))).toEqual(["u1", "s2", "s3", "a1", "s4"]);
  });

  it("honours smaller limits and does not change its input", () => {
    const messages = [message("one"), message("two"), message("three")];
    expect(contents(enforceMemoryLimits(messages, 2))).toEqual(["two", "three"]);
    expect(contents(enforceMemoryLimits(messages, 10, 3))).toEqual(["two", "three"]);
    expect(messages).toHaveLength(3);
  });
});

describe("memory calls are bounded whatever the messages' length", () => {
  it("reads each stored message cut at 1,000 characters in a fact extraction call", async () => {
    const { factMessages } = await import("../../src/services/memory/factExtraction.js");
    const { MEMORY_MESSAGE_MAX_CHARS } = await import("../../src/services/memory/limits.js");
    const huge = Array.from({ length: 20 }, (_, i) => ({
      id: i + 1,
      role: "user" as const,
      content: `I like ${"tea ".repeat(16_000)}`,
      whatsappMessageId: null,
      createdAt: 0,
    }));
    const [, user] = factMessages(huge);
    expect(JSON.stringify(user!.content).length).toBeLessThan(20 * (MEMORY_MESSAGE_MAX_CHARS + 8) + 40);
  });
});
