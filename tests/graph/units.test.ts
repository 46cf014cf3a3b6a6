import { describe, expect, it } from "vitest";
import { Command } from "@langchain/langgraph";
import { numberedItems, createReplyContextNode } from "../../src/graph/nodes/replyContextNode.js";
import { createHITLGateNode, plannerTrigger } from "../../src/graph/nodes/hitlGateNode.js";
import { createExecutorNode } from "../../src/graph/nodes/executorNode.js";
import { executionGroups, PlanCycleError } from "../../src/graph/plan/executionGroups.js";
import { humanTime } from "../../src/utils/timeContext.js";
import { looksLikeAnswer, validateAnswer } from "../../src/graph/hitl/validateAnswer.js";
import type { MemoGraphDeps } from "../../src/graph/deps.js";
import { MemoStateAnnotation, type MemoUpdate } from "../../src/graph/state/memoState.js";
import { type MemoState } from "../../src/types/state.js";
import { createCoreCapabilities } from "../../src/graph/capabilities/core/coreCapabilities.js";
import { MemoryService } from "../../src/services/memory/index.js";
import { InMemoryConversationStore } from "../../src/db/repositories/conversationStore.js";
import type { ExecutedOperation, ExecutionResult, PendingHITL, PlanStep } from "../../src/types/index.js";
import { detectLanguage } from "../../src/utils/language.js";
import { buildTimeContext } from "../../src/utils/timeContext.js";
import { captureLogs } from "../support/logs.js";

const NOW = Date.parse("2026-03-05T10:00:00Z");

function deps(
  overrides: Partial<MemoGraphDeps> = {},
): MemoGraphDeps & { lines: () => Record<string, unknown>[] } {
  const { logger, lines } = captureLogs();
  return {
    users: undefined as never,
    memory: new MemoryService(new InMemoryConversationStore(), { clock: () => NOW }),
    llm: null,
    capabilities: createCoreCapabilities(),
    logger,
    clock: () => NOW,
    newId: () => "hitl-x",
    defaultTimeZone: "Asia/Jerusalem",
    lines,
    ...overrides,
  };
}

/** A state with the defaults of every channel, as the graph would start it. */
function state(values: Partial<MemoState>): MemoState {
  const base: Record<string, unknown> = {};
  for (const [key, channel] of Object.entries(MemoStateAnnotation.spec)) {
    const c = channel as { initialValueFactory?: () => unknown; value?: unknown };
    base[key] = c.initialValueFactory ? c.initialValueFactory() : undefined;
  }
  return {
    ...base,
    threadId: "972501234567",
    traceId: "trace-1",
    user: {
      phone: "972501234567",
      timezone: "Asia/Jerusalem",
      language: "en",
      planTier: "free",
      googleConnected: false,
      capabilities: { calendar: true, gmail: true, database: true, secondBrain: true },
    },
    input: { message: "hello", triggerType: "user", userPhone: "972501234567" },
    now: buildTimeContext(NOW, "Asia/Jerusalem", "en"),
    ...values,
  } as MemoState;
}

describe("language detection", () => {
  it.each([
    ["remind me tomorrow", "en"],
    ["תזכיר לי מחר", "he"],
    ["תזכיר לי call mom", "he"],
    ["Привет", "other"],
    ["2", null],
    ["👍", null],
  ])("%s → %s", (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });
});

describe("time context", () => {
  it("has the exact format of spec 003, in the user's zone", () => {
    const ctx = buildTimeContext(Date.parse("2026-01-02T13:30:00.000Z"), "Asia/Jerusalem", "he");
    expect(ctx.formatted).toBe(
      "[Current time: Friday, 02/01/2026 15:30 (2026-01-02T13:30:00.000Z), Timezone: Asia/Jerusalem]",
    );
    expect(ctx).toMatchObject({ dayOfWeek: 5, dayName: "שישי", localDate: "02/01/2026", localTime: "15:30" });
  });

  it("follows the zone across midnight", () => {
    expect(buildTimeContext(Date.parse("2026-03-05T23:30:00Z"), "Asia/Kolkata", "en").formatted).toBe(
      "[Current time: Friday, 06/03/2026 05:00 (2026-03-05T23:30:00.000Z), Timezone: Asia/Kolkata]",
    );
  });

  it("writes instants as local human text in both languages", () => {
    expect(humanTime("2026-03-05T15:00:00Z", NOW, "Asia/Jerusalem", "en")).toBe("today at 17:00");
    expect(humanTime("2026-03-06T07:00:00Z", NOW, "Asia/Jerusalem", "he")).toBe("מחר ב-09:00");
    expect(humanTime("2026-03-09T07:00:00Z", NOW, "Asia/Jerusalem", "en")).toBe("Mon 09/03 at 09:00");
    // A reminder years ahead names its year, so "in 10 years" does not read like next week.
    expect(humanTime("2036-03-05T07:00:00Z", NOW, "Asia/Jerusalem", "en")).toBe("Wed 05/03/2036 at 09:00");
    expect(humanTime("2027-03-05T07:00:00Z", NOW, "Asia/Jerusalem", "he")).toBe(
      "יום שישי 05/03/2027 ב-09:00",
    );
  });
});

describe("answer validation", () => {
  const pending = (
    expectedInput: PendingHITL["expectedInput"],
    options = [
      { id: "a", label: "Groceries" },
      { id: "b", label: "Work" },
      { id: "c", label: "Home" },
    ],
  ): PendingHITL => ({
    hitlId: "h",
    kind: "clarification",
    source: "resolver",
    reason: "resolver_clarify",
    question: "?",
    options,
    expectedInput,
    returnTo: { node: "resolver_router", mode: "continue" },
    language: "en",
    createdAt: NOW,
    expiresAt: NOW + 1,
  });
  const yesNo = pending("yes_no", [
    { id: "yes", label: "Yes" },
    { id: "no", label: "No" },
  ]);

  it.each(["yes", "Yes!", "ok", "כן", "סבבה", "1", "👍"])("reads %s as yes", (text) => {
    expect(validateAnswer(yesNo, { text })).toEqual({ ok: true, value: "yes" });
  });
  it.each(["no", "Nope.", "לא", "בטל", "2"])("reads %s as no", (text) => {
    expect(validateAnswer(yesNo, { text })).toEqual({ ok: true, value: "no" });
  });
  it.each(["maybe", "3", "", "yes and no"])("rejects %j for yes/no", (text) => {
    expect(validateAnswer(yesNo, { text })).toEqual({ ok: false });
  });
  it("takes option numbers, ids and labels for single choice", () => {
    expect(validateAnswer(pending("single_choice"), { text: "2" })).toEqual({ ok: true, value: ["b"] });
    expect(validateAnswer(pending("single_choice"), { text: "work" })).toEqual({ ok: true, value: ["b"] });
    expect(validateAnswer(pending("single_choice"), { text: "x", optionId: "c" })).toEqual({
      ok: true,
      value: ["c"],
    });
    expect(validateAnswer(pending("single_choice"), { text: "4" })).toEqual({ ok: false });
    expect(validateAnswer(pending("single_choice"), { text: "x", optionId: "zzz" })).toEqual({ ok: false });
  });
  it("takes several numbers, or all, for multi choice", () => {
    expect(validateAnswer(pending("multi_choice"), { text: "1, 3" })).toEqual({
      ok: true,
      value: ["a", "c"],
    });
    expect(validateAnswer(pending("multi_choice"), { text: "1 ו-3" })).toEqual({
      ok: true,
      value: ["a", "c"],
    });
    expect(validateAnswer(pending("multi_choice"), { text: "כולם" })).toEqual({
      ok: true,
      value: ["a", "b", "c"],
    });
    expect(validateAnswer(pending("multi_choice"), { text: "1, 9" })).toEqual({ ok: false });
  });
  it("takes any text for free text, but not nothing", () => {
    expect(validateAnswer(pending("free_text", []), { text: "  the blue one " })).toEqual({
      ok: true,
      value: "the blue one",
    });
    expect(validateAnswer(pending("free_text", []), { text: " ?! " })).toEqual({ ok: false });
  });
  it("recognizes stale answers", () => {
    expect(["yes", "לא", "3", "ok."].every(looksLikeAnswer)).toBe(true);
    expect(["yes please remind me", "done 2", "123"].some(looksLikeAnswer)).toBe(false);
  });
});

describe("reply context", () => {
  it("finds numbered items", () => {
    expect([...numberedItems("Your tasks:\n1. Buy milk\n2) Call mom\nnot an item")]).toEqual([
      [1, "Buy milk"],
      [2, "Call mom"],
    ]);
  });

  it("maps 'done 2' to the item of the list Memo just sent", async () => {
    const node = createReplyContextNode(deps());
    const update = await node(
      state({
        input: { message: "done 2", triggerType: "user", userPhone: "972501234567" },
        recentMessages: [
          {
            role: "assistant",
            content: "Your tasks:\n1. Buy milk\n2. Call mom",
            timestamp: NOW - 5000,
            estimatedTokens: 10,
          },
          { role: "user", content: "done 2", timestamp: NOW, estimatedTokens: 2 },
        ],
      }),
    );
    expect(update.input?.enhancedMessage).toBe(
      'done 2\n[added by Memo: Item 2 of the list Memo sent: "Call mom"]',
    );
  });

  it("quotes the replied-to message and carries its image", async () => {
    const image = {
      imageId: "img1",
      imageType: "structured" as const,
      extractedAt: NOW - 60_000,
      analysisResult: { description: "a shopping list", extractedData: { items: ["eggs", "bread"] } },
    };
    const node = createReplyContextNode(deps());
    const update = await node(
      state({
        input: {
          message: "add these",
          triggerType: "user",
          userPhone: "972501234567",
          replyToMessageId: "wamid.img",
        },
        recentMessages: [
          {
            role: "user",
            content: "[image]",
            timestamp: NOW - 60_000,
            estimatedTokens: 2,
            whatsappMessageId: "wamid.img",
            metadata: { imageContext: image },
          },
        ],
      }),
    );
    expect(update.input?.enhancedMessage).toBe(
      'add these\n[added by Memo: Replying to their own message: "[image]"]\n[added by Memo: Recent image (structured) — description: a shopping list | items: eggs; bread]',
    );
    expect(update.input?.imageContext).toEqual(image);
  });

  it("ignores an image older than 5 minutes", async () => {
    const node = createReplyContextNode(deps());
    const image = {
      imageId: "img1",
      imageType: "random" as const,
      extractedAt: NOW - 6 * 60_000,
      analysisResult: { description: "a cat" },
    };
    const update = await node(
      state({
        recentMessages: [
          {
            role: "user",
            content: "[image]",
            timestamp: NOW - 6 * 60_000,
            estimatedTokens: 2,
            metadata: { imageContext: image },
          },
        ],
      }),
    );
    expect(update).toEqual({});
  });
});

describe("HITL gate", () => {
  const plannerOutput = {
    intentType: "operation" as const,
    confidence: 0.95,
    riskLevel: "low" as const,
    needsApproval: false,
    missingFields: [],
    plan: [],
  };

  it("lets a confident, low-risk plan through", () => {
    expect(plannerTrigger(state({ plannerOutput }))).toBeNull();
  });

  it("words an unclear request by the capabilities its words point at", () => {
    const unsure = { ...plannerOutput, confidence: 0.4 };
    expect(
      plannerTrigger(state({ plannerOutput: unsure, routingSuggestions: ["database", "calendar"] }))
        ?.question,
    ).toBe("Is this about tasks and reminders or your calendar?");
    expect(plannerTrigger(state({ plannerOutput: unsure, routingSuggestions: ["calendar"] }))?.question).toBe(
      "Could you tell me a bit more about what you'd like me to do?",
    );
  });

  it("asks for confirmation once, not again after a yes", () => {
    const risky = state({ plannerOutput: { ...plannerOutput, riskLevel: "high" } });
    expect(plannerTrigger(risky)).toMatchObject({ kind: "confirmation", expectedInput: "yes_no" });
    const confirmed = state({
      plannerOutput: { ...plannerOutput, riskLevel: "high" },
      hitlResults: {
        h1: {
          hitlId: "h1",
          kind: "confirmation",
          reason: "high_risk",
          returnTo: { node: "resolver_router", mode: "continue" },
          raw: "yes",
          value: "yes",
          answeredAt: NOW,
        },
      },
    });
    expect(plannerTrigger(confirmed)).toBeNull();
  });

  it("ignores and logs a second trigger while a question is pending", async () => {
    const d = deps();
    const pending: PendingHITL = {
      hitlId: "h1",
      kind: "clarification",
      source: "planner",
      reason: "intent_unclear",
      question: "?",
      options: [],
      expectedInput: "free_text",
      returnTo: { node: "planner", mode: "replan" },
      language: "en",
      createdAt: NOW - 10 * 60_000,
      expiresAt: NOW - 5 * 60_000,
    };
    const request = { ...pending, source: "entity_resolution" as const };
    const result = await createHITLGateNode(d)(state({ pendingHITL: pending, hitlRequest: request }));
    expect(d.lines().some((l) => l.event === "HITL_DUPLICATE_ATTEMPT" && l.hitlId === "h1")).toBe(true);
    // The pending question had expired: it is cleared with the expiry message.
    expect(result).toBeInstanceOf(Command);
    expect(result.goto).toEqual(["response_writer"]);
    expect((result.update as Partial<MemoState>).finalResponse).toBe(
      "Your earlier question timed out, so I dropped it.",
    );
  });

  it("stops asking after three clarification rounds in one turn", async () => {
    const result = await createHITLGateNode(deps())(
      state({ plannerOutput: { ...plannerOutput, confidence: 0.2 }, hitlRounds: 3 }),
    );
    expect((result.update as Partial<MemoState>).finalResponse).toBe(
      "I still couldn't work out what you need. Could you say it again in one sentence?",
    );
  });
});

describe("plan groups", () => {
  const s = (id: string, dependsOn: string[] = []): PlanStep => ({
    id,
    capability: "general",
    action: "a",
    constraints: {},
    changes: {},
    dependsOn,
  });
  it("layers steps by their dependencies", () => {
    expect(
      executionGroups([s("a"), s("b", ["a"]), s("c"), s("d", ["b", "c"])]).map((g) => g.map((x) => x.id)),
    ).toEqual([["a", "c"], ["b"], ["d"]]);
  });
  it("names the steps of a cycle", () => {
    expect(() => executionGroups([s("a", ["b"]), s("b", ["a"]), s("c")])).toThrow(PlanCycleError);
    expect(() => executionGroups([s("a", ["b"]), s("b", ["a"])])).toThrow(/a, b/);
  });
});

/** The executor's update, with its channels as plain values. */
const executed = (update: MemoUpdate) => ({
  results: update.executionResults as Map<string, ExecutionResult>,
  ledger: update.executedOperations as Record<string, ExecutedOperation>,
});

describe("executor idempotency", () => {
  const plannerOutput = {
    intentType: "conversation" as const,
    confidence: 1,
    riskLevel: "low" as const,
    needsApproval: false,
    missingFields: [],
    plan: [
      {
        id: "s1",
        capability: "general" as const,
        action: "answer",
        constraints: {},
        changes: {},
        dependsOn: [],
      },
    ],
  };

  it("fails safely when the ledger has the operation but its result is missing", async () => {
    const d = deps();
    const update = await createExecutorNode(d)(
      state({
        plannerOutput,
        executorArgs: new Map([["s1", { answer: "hi" }]]),
        executedOperations: {
          "trace-1:s1": {
            operationId: "trace-1:s1",
            stepId: "s1",
            capability: "general",
            functionName: "respond",
            success: true,
            at: NOW,
          },
        },
      }),
    );
    expect(executed(update).results.get("s1")).toMatchObject({
      success: false,
      errorCode: "IDEMPOTENCY_MISSING_RESULT",
    });
    expect(d.lines().some((l) => l.event === "IDEMPOTENCY_MISSING_RESULT")).toBe(true);
  });

  it("records every execution in the ledger under traceId:stepId", async () => {
    const update = await createExecutorNode(deps())(
      state({
        plannerOutput,
        executorArgs: new Map([["s1", { answer: "hi" }]]),
        resolverResults: new Map([
          ["s1", { stepId: "s1", type: "execute", functionName: "respond", args: { answer: "hi" } }],
        ]),
      }),
    );
    expect(executed(update).results.get("s1")).toMatchObject({
      success: true,
      data: { text: "hi" },
      functionName: "respond",
    });
    expect(executed(update).ledger["trace-1:s1"]).toMatchObject({
      stepId: "s1",
      capability: "general",
      success: true,
    });
  });
});
