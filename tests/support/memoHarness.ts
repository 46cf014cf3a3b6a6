import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { loadConfig } from "../../src/config/env.js";
import { createCheckpointer } from "../../src/db/checkpointer.js";
import { createMemoRuntime, type MemoRuntimeOptions } from "../../src/app/createMemoRuntime.js";
import type { InvokeOptions } from "../../src/graph/memoRuntime.js";
import type { CapabilityRegistry } from "../../src/graph/capabilities/registry.js";
import type { MemoState } from "../../src/types/state.js";
import type { PlannerAnswer } from "../../src/prompts/plannerPrompt.js";
import { fakeClock, type FakeClock } from "./clock.js";
import { pgliteBackend, type TestDatabase } from "./db.js";
import { captureLogs } from "./logs.js";
import { ScriptedOpenAI, systemPromptOf } from "./scriptedOpenAI.js";

export const PHONE = "972501234567";

export interface HarnessOptions {
  /** Reuse a database (a "restart": new services and graph on the same data). */
  db?: TestDatabase;
  /** Reuse a scripted LLM server; "none" runs with no LLM configured. */
  llm?: ScriptedOpenAI | "none";
  clock?: FakeClock;
  /** Registers further capabilities (test doubles of later ones). */
  capabilities?: (registry: CapabilityRegistry) => void;
  /** Users' Google connections (default: none). */
  google?: MemoRuntimeOptions["google"];
  /** Summaries and remembered facts by "llm" (scripted) or "rules" (default: rules, so scripts hold only the turn's own calls). */
  memoryMode?: "llm" | "rules";
  /** Note embeddings (default: none, notes are searched by words). */
  embedder?: MemoRuntimeOptions["embedder"];
  /** Environment on top of the test defaults. FAST_PATH is off unless given: most conversation tests script the LLM path. */
  env?: Record<string, string>;
}

/** Memo's graph on real storage with a scripted LLM: what a conversation test talks to. */
export async function createHarness(options: HarnessOptions = {}) {
  const db = options.db ?? (await pgliteBackend.create());
  const server = options.llm === "none" ? undefined : (options.llm ?? (await ScriptedOpenAI.start()));
  const clock = options.clock ?? fakeClock("2026-03-05T10:00:00Z");
  const { logger, lines } = captureLogs();
  const config = loadConfig({
    ...(server ? { OPENAI_BASE_URL: server.baseUrl } : {}),
    LLM_MAX_RETRIES: "0",
    LLM_TIMEOUT_MS: "3000",
    FAST_PATH: "off",
    ...options.env,
  });
  const checkpointer: BaseCheckpointSaver = await createCheckpointer("postgres", db.pool);
  let ids = 0;
  const memo = createMemoRuntime({
    config,
    pool: db.pool,
    checkpointer,
    logger,
    clock: clock.now,
    newId: () => `hitl-${++ids}`,
    memoryMode: options.memoryMode ?? "rules",
    embedder: options.embedder ?? null,
    ...(options.google ? { google: options.google } : {}),
  });
  options.capabilities?.(memo.capabilities);
  const { runtime, graph, memory, users, longTerm, notes } = memo;
  return {
    db,
    server,
    clock,
    users,
    memory,
    longTerm,
    notes,
    checkpointer,
    graph,
    runtime,
    logs: lines,
    /** Sends a message as the test user. */
    say: (text: string, invokeOptions: InvokeOptions = {}) =>
      runtime.invokeMemoGraph(PHONE, text, invokeOptions),
    /** The paused state of the user's thread, if any. */
    pausedState: async () =>
      (await graph.getState({ configurable: { thread_id: PHONE } })).values as Partial<MemoState>,
    async close(closeDb = true) {
      // Background memory work of the last turns finishes before the database goes.
      await longTerm.idle();
      if (server && options.llm === undefined) await server.close();
      if (closeDb) await db.close();
    },
  };
}

export type Harness = Awaited<ReturnType<typeof createHarness>>;

/** A planner answer with sensible defaults: one confident, low-risk step. */
export function plan(overrides: Partial<PlannerAnswer> & { steps?: PlannerAnswer["plan"] } = {}): {
  json: PlannerAnswer;
} {
  const { steps, ...rest } = overrides;
  return {
    json: {
      intentType: "operation",
      confidence: 0.95,
      riskLevel: "low",
      needsApproval: false,
      missingFields: [],
      clarificationQuestion: null,
      plan: steps ?? [],
      ...rest,
    },
  };
}

/** A plan step with empty constraints, changes and dependencies unless given. */
export function step(
  id: string,
  capability: PlannerAnswer["plan"][number]["capability"],
  action: string,
  extra: Partial<PlannerAnswer["plan"][number]> = {},
) {
  return { id, capability, action, constraints: {}, changes: {}, dependsOn: [], ...extra };
}

/** Whether a recorded request was the planner's. */
export const isPlanner = (req: Parameters<typeof systemPromptOf>[0]) =>
  (systemPromptOf(req) ?? "").includes("You are the planner of Memo");
