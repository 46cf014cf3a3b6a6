import { describe, expect, it } from "vitest";
import {
  cacheablePrefixes,
  callKind,
  inputTokens,
  inTurn,
  openAiCachedTokens,
  serializedInput,
} from "../../bench/llmRequests.js";
import { DATABASE_LIST_SYSTEM_PROMPT } from "../../src/prompts/listPrompt.js";
import { GENERAL_SYSTEM_PROMPT } from "../../src/prompts/generalPrompt.js";
import { PLANNER_SYSTEM_PROMPT } from "../../src/prompts/plannerPrompt.js";
import { RESPONSE_WRITER_SYSTEM_PROMPT } from "../../src/prompts/responseWriterPrompt.js";
import { FACTS_PROMPT } from "../../src/prompts/factExtractionPrompt.js";
import type { ChatCompletionBody, RecordedRequest } from "../support/scriptedOpenAI.js";

function request(system: string, user = "hello", extra: Partial<ChatCompletionBody> = {}): RecordedRequest {
  return {
    path: "/v1/chat/completions",
    at: 0,
    body: {
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
      ...extra,
    },
  };
}

describe("bench LLM request accounting", () => {
  it("tells each node's call by its system prompt, the two 'You are Memo' prompts apart", () => {
    expect(callKind(request(PLANNER_SYSTEM_PROMPT))).toBe("planner");
    expect(callKind(request(DATABASE_LIST_SYSTEM_PROMPT))).toBe("resolver:lists");
    expect(callKind(request(GENERAL_SYSTEM_PROMPT))).toBe("resolver:general");
    expect(callKind(request(RESPONSE_WRITER_SYSTEM_PROMPT))).toBe("response_writer");
    expect(callKind(request(FACTS_PROMPT))).toBe("memory:facts");
    expect(callKind(request("You are a pirate."))).toBe("other");
  });

  it("counts background memory work apart from the turn", () => {
    expect(inTurn("planner")).toBe(true);
    expect(inTurn("notes:answer")).toBe(true);
    expect(inTurn("memory:facts")).toBe(false);
    expect(inTurn("memory:summary")).toBe(false);
  });

  it("estimates input tokens at 4 characters each, the declared schema counted apart", () => {
    const schema = { type: "json_schema", json_schema: { name: "x", schema: { type: "object" } } };
    const tokens = inputTokens(request("a".repeat(40), "b".repeat(19), { response_format: schema }));
    // 40 + newline + 19 = 60 characters.
    expect(tokens.messages).toBe(15);
    expect(tokens.schema).toBe(Math.ceil(JSON.stringify(schema).length / 4));
    expect(inputTokens(request("a", "b")).schema).toBe(0);
  });

  it("puts the declared schema ahead of the messages, as the provider caches them", () => {
    const schema = { type: "json_schema", json_schema: { name: "plan", schema: { type: "object" } } };
    const input = serializedInput(request("SYSTEM", "USER", { response_format: schema }));
    expect(input.startsWith(JSON.stringify(schema))).toBe(true);
    expect(input.indexOf("SYSTEM")).toBeLessThan(input.indexOf("USER"));
    expect(serializedInput(request("SYSTEM", "USER"))).toBe("\nsystem:\nSYSTEM\nuser:\nUSER");
  });

  it("measures a call's cacheable prefix against the same node's earlier calls of other turns only", () => {
    const call = (kind: "planner" | "resolver:tasks", turn: number, input: string) => ({ kind, turn, input });
    const prefixes = cacheablePrefixes([
      call("planner", 0, "STATIC|monday 9:00|hi"),
      // The same turn's second planner call (a re-plan) is no other turn: nothing to share yet.
      call("planner", 0, "STATIC|monday 9:00|hi again"),
      call("resolver:tasks", 1, "STATIC|tuesday"),
      // Shares "STATIC|" with turn 0 and "STATIC|monday 9:0" with nothing else: the longest counts.
      call("planner", 1, "STATIC|monday 9:05|bye"),
      call("planner", 2, "OTHER"),
    ]);
    expect(prefixes).toEqual([null, null, null, "STATIC|monday 9:0".length, 0]);
  });

  it("bills as cached only a prefix of 1,024 tokens or more, rounded down to 128-token steps", () => {
    expect([0, 1023, 1024, 1151, 1152, 3000].map(openAiCachedTokens)).toEqual([0, 0, 1024, 1024, 1152, 2944]);
  });
});
