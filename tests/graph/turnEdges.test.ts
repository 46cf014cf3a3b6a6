// The edges of a turn (issue 21): context_assembly takes the user the transport loaded instead of
// loading it again, and memory_update hands back what the turn did and the reply as stored.
import { describe, expect, it } from "vitest";
import { createContextAssemblyNode } from "../../src/graph/nodes/contextAssemblyNode.js";
import { createMemoryUpdateNode } from "../../src/graph/nodes/memoryUpdateNode.js";
import type { MemoGraphDeps } from "../../src/graph/deps.js";
import { MemoStateAnnotation } from "../../src/graph/state/memoState.js";
import type { MemoState } from "../../src/types/state.js";
import type { ConversationMessage, ExecutionResult, PlanStep, User } from "../../src/types/index.js";
import { createCoreCapabilities } from "../../src/graph/capabilities/core/coreCapabilities.js";
import { MemoryService } from "../../src/services/memory/index.js";
import { InMemoryConversationStore } from "../../src/db/repositories/conversationStore.js";
import type { UserRepository } from "../../src/db/repositories/userRepository.js";
import { captureLogs } from "../support/logs.js";

const NOW = Date.parse("2026-03-05T10:00:00Z");
const PHONE = "972501234567";

const USER: User = {
  phone: PHONE,
  displayName: null,
  timeZone: "Europe/London",
  language: "en",
  planTier: "free",
  capabilities: { calendar: true, gmail: true, database: true, secondBrain: true },
  googleConnected: false,
  lastInboundAt: null,
  digestEnabled: true,
  digestLocalTime: "08:00",
  quietStart: null,
  quietEnd: null,
  calendarSchedule: null,
  sabbathQuiet: false,
  sabbathCity: null,
  hebrewBirthday: null,
  weeklyReviewEnabled: false,
  weeklyReviewDay: null,
  weeklyReviewTime: null,
  voiceReplies: false,
  timeZoneChoices: null,
  createdAt: "2026-03-01T00:00:00.000Z",
  updatedAt: "2026-03-01T00:00:00.000Z",
};

function deps(users: Partial<UserRepository>): MemoGraphDeps {
  return {
    users: users as UserRepository,
    memory: new MemoryService(new InMemoryConversationStore(), { clock: () => NOW }),
    llm: null,
    capabilities: createCoreCapabilities(),
    logger: captureLogs().logger,
    clock: () => NOW,
    newId: () => "id-1",
    defaultTimeZone: "Asia/Jerusalem",
  };
}

/** A state with the defaults of every channel, as the graph would start it. */
function state(values: Partial<MemoState>): MemoState {
  const base: Record<string, unknown> = {};
  for (const [key, channel] of Object.entries(MemoStateAnnotation.spec)) {
    const c = channel as { initialValueFactory?: () => unknown };
    base[key] = c.initialValueFactory ? c.initialValueFactory() : undefined;
  }
  return { ...base, threadId: PHONE, traceId: "trace-1", ...values } as MemoState;
}

describe("context_assembly", () => {
  it("takes the user it is given, without loading it again", async () => {
    const loads: string[] = [];
    const node = createContextAssemblyNode(
      deps({
        getOrCreate: (phone: string) => {
          loads.push(phone);
          return Promise.resolve(USER);
        },
      }),
    );
    const update = await node(
      state({ input: { message: "hello", triggerType: "user", userPhone: PHONE, user: USER } }),
    );
    expect(loads).toEqual([]);
    expect(update.user?.timezone).toBe("Europe/London");
    const messages = update.recentMessages as ConversationMessage[];
    expect(messages.map((m) => m.content)).toEqual(["hello"]);
  });

  it("still learns the language of a given user who had none", async () => {
    const updates: unknown[] = [];
    const node = createContextAssemblyNode(
      deps({
        update: (_phone: string, patch: unknown) => {
          updates.push(patch);
          return Promise.resolve({ ...USER, language: "he" });
        },
      }),
    );
    const user = { ...USER, language: null };
    const update = await node(
      state({ input: { message: "שלום", triggerType: "user", userPhone: PHONE, user } }),
    );
    expect(updates).toEqual([{ language: "he" }]);
    expect(update.user?.language).toBe("he");
  });

  it("loads the user when called without one (tests, the replay, the chat script)", async () => {
    const loads: string[] = [];
    const node = createContextAssemblyNode(
      deps({
        getOrCreate: (phone: string) => {
          loads.push(phone);
          return Promise.resolve(USER);
        },
      }),
    );
    await node(state({ input: { message: "hello", triggerType: "user", userPhone: PHONE } }));
    expect(loads).toEqual([PHONE]);
  });
});

describe("memory_update", () => {
  const step: PlanStep = {
    id: "s1",
    capability: "database",
    action: "create task",
    constraints: {},
    changes: {},
    dependsOn: [],
  };
  const done: ExecutionResult = {
    stepId: "s1",
    success: true,
    durationMs: 1,
    functionName: "createTask",
    args: {},
  };

  it("says the turn acted, and hands back the reply as stored, with the id the sender links", async () => {
    const d = deps({});
    const update = await createMemoryUpdateNode(d)(
      state({
        plannerOutput: {
          intentType: "operation",
          confidence: 1,
          riskLevel: "low",
          needsApproval: false,
          missingFields: [],
          plan: [step],
        },
        executionResults: new Map([["s1", done]]),
        finalResponse: "Added.",
      }),
    );
    expect(update.acted).toBe(true);
    const stored = (update.recentMessages as ConversationMessage[]).at(-1);
    expect(stored?.content).toBe("Added.");
    expect(stored?.localId).toEqual(expect.any(String));
    await d.memory.setAssistantMessageId(PHONE, stored?.localId ?? "", "wamid.out");
    expect(d.memory.getRepliedToMessage(PHONE, "wamid.out")?.content).toBe("Added.");
  });

  it("says a turn that only answered did not act", async () => {
    const update = await createMemoryUpdateNode(deps({}))(state({ finalResponse: "Hi!" }));
    expect(update.acted).toBe(false);
  });
});
