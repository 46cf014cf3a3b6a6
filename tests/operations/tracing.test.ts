// LangSmith tracing (issue #10): what a developer finds in LangSmith after real turns, and what
// never leaves the process. A local stand-in records what the real `langsmith` client posts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig, type TracingSettings } from "../../src/config/env.js";
import { createCheckpointer } from "../../src/db/checkpointer.js";
import { createMemoRuntime, type Memo } from "../../src/app/createMemoRuntime.js";
import { startService } from "../../src/app/server.js";
import { tracedLLMService } from "../../src/services/tracing/tracedLlmService.js";
import { createTracing, Tracing } from "../../src/services/tracing/tracing.js";
import { phoneTag } from "../../src/utils/phone.js";
import { withTurn } from "../../src/utils/turnContext.js";
import { fakeClock } from "../support/clock.js";
import { createPostgresDatabase, pgliteBackend, testDatabaseUrl, type TestDatabase } from "../support/db.js";
import { FakeLangSmith, type RecordedRun } from "../support/fakeLangSmith.js";
import { captureLogs } from "../support/logs.js";
import { isPlanner, plan, step } from "../support/memoHarness.js";
import { freePort } from "../support/process.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";

const PHONE = "972501234567";
const OTHER_PHONE = "972529876543";
const QUESTION = "What's the capital of France?";
const ANSWER = "Paris is the capital of France.";
const PLANNER_PROMPT = "You are the planner of Memo";

/** A WhatsApp message id as Meta makes them: its base64 body spells the sender's number. */
function wamid(phone: string, n: number): string {
  const body = Buffer.concat([
    Buffer.from([0x1c, 0x18, 0x0c]),
    Buffer.from(phone),
    Buffer.from([0x15, 0x02, 0x00, 0x12, 0x18, 0x14]),
    Buffer.from(`3EB0C767D71D8E5F4A${String(n).padStart(2, "0")}`),
  ]);
  return `wamid.${body.toString("base64")}`;
}

/** Everything of a number that could identify it: the whole, its local part, its base64 form. */
function traces(phone: string): string[] {
  return [phone, phone.slice(3), Buffer.from(phone).toString("base64")];
}

const NODES = [
  "context_assembly",
  "reply_context",
  "planner",
  "capability_check",
  "hitl_gate",
  "resolver_router",
  "entity_resolution",
  "executor",
  "resolver_router",
  "join",
  "response_formatter",
  "response_writer",
  "memory_update",
];

let langsmith: FakeLangSmith;
let llm: ScriptedOpenAI;
let db: TestDatabase;
let logs: ReturnType<typeof captureLogs>;
let network: ReturnType<typeof FakeLangSmith.guardNetwork>;
const OPENAI_KEY = "sk-test-0123456789abcdef";
const DEFAULT_CLIENT_ENV = [
  "LANGSMITH_TRACING",
  "LANGCHAIN_TRACING_V2",
  "LANGSMITH_ENDPOINT",
  "LANGSMITH_API_KEY",
];
const saved: Record<string, string | undefined> = {};

/** The settings LANGSMITH_* give, aimed at the stand-in. */
function settings(includeContent = false): TracingSettings {
  const config = loadConfig({
    LANGSMITH_TRACING: "true",
    LANGSMITH_API_KEY: "test-key",
    LANGSMITH_ENDPOINT: langsmith.url,
    LANGSMITH_PROJECT: "memo-test",
    LANGSMITH_INCLUDE_CONTENT: String(includeContent),
  });
  return config.tracing!;
}

/** Memo on the shared database and scripted LLM, tracing through `tracing`. */
async function memoWith(tracing: Tracing | null): Promise<Memo> {
  const config = loadConfig({
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_BASE_URL: llm.baseUrl,
    LLM_MAX_RETRIES: "0",
    FAST_PATH: "off",
  });
  return createMemoRuntime({
    config,
    pool: db.pool,
    checkpointer: await createCheckpointer("memory", db.pool),
    logger: logs.logger,
    clock: fakeClock("2026-03-05T10:00:00Z").now,
    memoryMode: "rules",
    embedder: null,
    tracing,
  });
}

/** The run's ancestors up to the node (a direct child of the root) it belongs to. */
function nodeOf(run: RecordedRun, root: RecordedRun): string | undefined {
  let current: RecordedRun | undefined = run;
  while (current && current.parent_run_id !== root.id) {
    current = langsmith.all().find((r) => r.id === current!.parent_run_id);
  }
  return current?.name;
}

const turnRoots = () => langsmith.roots().filter((r) => r.name === "memo-turn");

beforeAll(async () => {
  [langsmith, llm, db] = await Promise.all([
    FakeLangSmith.start(),
    ScriptedOpenAI.start(),
    pgliteBackend.create(),
  ]);
  logs = captureLogs();
  network = FakeLangSmith.guardNetwork();
  // LangChain's and langsmith's default clients read these once, when first made: the stand-in.
  for (const name of DEFAULT_CLIENT_ENV) saved[name] = process.env[name];
  Object.assign(process.env, { LANGSMITH_ENDPOINT: langsmith.url, LANGSMITH_API_KEY: "default-client-key" });
});

beforeEach(() => {
  llm.reset();
  // A general question: the planner's plan, then the general resolver's answer.
  llm.on(isPlanner, plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }));
  llm.on(() => true, { text: ANSWER });
});

afterAll(async () => {
  network?.restore();
  for (const name of DEFAULT_CLIENT_ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await Promise.all([langsmith?.close(), llm?.close(), db?.close()]);
  // Nothing tried to reach LangSmith itself.
  expect(network.blocked).toEqual([]);
});

afterEach(() => langsmith.reset());

describe("LangSmith traces of turns", () => {
  let tracing: Tracing;
  let memo: Memo;

  beforeAll(async () => {
    tracing = new Tracing({ settings: settings(), logger: logs.logger });
    memo = await memoWith(tracing);
  });

  it("makes each turn one memo-turn trace: the graph's nodes as children under their spec names, LLM calls under their nodes, tagged and labelled", async () => {
    const id = wamid(PHONE, 1);
    const reply = await memo.runtime.invokeMemoGraph(PHONE, QUESTION, { whatsappMessageId: id });
    expect(reply.text).toBe(ANSWER);
    expect(await tracing.flush(5000)).toBe(true);

    const roots = turnRoots();
    expect(roots).toHaveLength(1);
    expect(langsmith.roots()).toHaveLength(1);
    const root = roots[0]!;
    expect(root.end_time).toBeDefined();
    expect(root.session_name).toBe("memo-test");
    const children = langsmith.childrenOf(root.id).filter((r) => r.name !== "__start__");
    expect(children.map((r) => r.name)).toEqual(NODES);
    // Both model calls, each under the node that made it.
    const llmRuns = langsmith.traceOf(root.id).filter((r) => r.run_type === "llm");
    expect(llmRuns.map((r) => nodeOf(r, root))).toEqual(["planner", "resolver_router"]);
    expect(llmRuns[0]!.extra?.metadata).toMatchObject({ ls_model_name: "gpt-4o-mini" });

    expect(root.tags).toContain("general");
    const logged = logs.lines().findLast((l) => l.event === "turn")!;
    expect(root.extra?.metadata).toMatchObject({
      thread_id: `user-${phoneTag(PHONE)}`,
      trace_id: `wamid:${phoneTag(id)}`,
      trigger: "user",
      status: "completed",
      capabilities: ["general"],
      actions: ["general.answer_question"],
      llm_calls: 2,
      total_tokens: logged.tokens,
      total_cost_usd: logged.costUsd,
      models: ["gpt-4o-mini"],
      models_by_node: { planner: "gpt-4o-mini", "resolver:general": "gpt-4o-mini" },
    });
    expect(logged.tokens).toBeGreaterThan(0);
    expect(logged.costUsd).toBeGreaterThan(0);
    // LangSmith counts a thread's tokens over the runs that carry its thread_id: all of them do.
    for (const run of langsmith.traceOf(root.id)) {
      expect(run.extra?.metadata?.thread_id).toBe(`user-${phoneTag(PHONE)}`);
    }
  });

  it("groups a user's turns into one thread and another user's into another; no number, message or prompt is sent", async () => {
    await memo.runtime.invokeMemoGraph(PHONE, QUESTION, { whatsappMessageId: wamid(PHONE, 2) });
    await memo.runtime.invokeMemoGraph(PHONE, `${QUESTION} Call me on +972 50-123-4567`, {
      whatsappMessageId: wamid(PHONE, 3),
    });
    await memo.runtime.invokeMemoGraph(OTHER_PHONE, QUESTION, { whatsappMessageId: wamid(OTHER_PHONE, 1) });
    await tracing.flush(5000);

    const threads = turnRoots().map((r) => r.extra?.metadata?.thread_id);
    expect(threads).toHaveLength(3);
    expect(threads[0]).toBe(threads[1]);
    expect(threads[2]).not.toBe(threads[0]);
    expect(threads[2]).toBe(`user-${phoneTag(OTHER_PHONE)}`);

    const sent = langsmith.bodies();
    for (const secret of [
      ...traces(PHONE),
      ...traces(OTHER_PHONE),
      "50-123-4567",
      wamid(PHONE, 2),
      "capital of France",
      "Paris",
      PLANNER_PROMPT,
      OPENAI_KEY,
    ]) {
      expect(sent).not.toContain(secret);
    }
    // What stays: the shape, the plan, the counts.
    const root = turnRoots()[0]!;
    expect(root.inputs).toMatchObject({ input: { message: "[redacted]", triggerType: "user" } });
    expect(root.outputs).toMatchObject({
      plannerOutput: { plan: [{ capability: "general", action: "answer_question" }] },
      finalResponse: "[redacted]",
    });
    const llmRun = langsmith.traceOf(root.id).find((r) => r.run_type === "llm")!;
    const usage = llmRun.extra?.metadata?.usage_metadata as { input_tokens: number; output_tokens: number };
    expect(usage.input_tokens).toBeGreaterThan(0);
    expect(usage.output_tokens).toBeGreaterThan(0);
  });

  it("ends the trace of a turn that asks a question as waiting", async () => {
    llm.reset();
    llm.on(isPlanner, plan({ missingFields: ["time"], steps: [step("s1", "general", "answer_question")] }));
    const reply = await memo.runtime.invokeMemoGraph(PHONE, "remind me to call mom");
    expect(reply.status).toBe("waiting");
    await tracing.flush(5000);
    const root = turnRoots()[0]!;
    expect(root.tags).toContain("general");
    expect(root.extra?.metadata).toMatchObject({ status: "waiting", llm_calls: 1 });
    // LangGraph records the pause as the gate's "error", whose message is the question: not sent.
    expect(reply.question!.length).toBeGreaterThan(10);
    expect(langsmith.bodies()).not.toContain(reply.question!);
    expect(langsmith.bodies()).toContain("GraphInterrupt");
    await memo.runtime.dropQuestion(PHONE);
  });
});

describe("LANGSMITH_INCLUDE_CONTENT=true", () => {
  it("sends what was written, said and prompted; numbers are still only tags", async () => {
    const tracing = new Tracing({ settings: settings(true), logger: logs.logger });
    const memo = await memoWith(tracing);
    await memo.runtime.invokeMemoGraph(PHONE, `${QUESTION} Call me on +972 50-123-4567`, {
      whatsappMessageId: wamid(PHONE, 4),
    });
    await tracing.flush(5000);
    const sent = langsmith.bodies();
    for (const text of ["capital of France", ANSWER, PLANNER_PROMPT, `[phone:${phoneTag("972501234567")}]`]) {
      expect(sent).toContain(text);
    }
    for (const secret of [...traces(PHONE), "50-123-4567", wamid(PHONE, 4)])
      expect(sent).not.toContain(secret);
  });
});

describe("tracing off", () => {
  it("attaches no tracer and sends nothing, even when LangChain's own tracing switches are on", async () => {
    // What the switches do unchecked: LangChain traces by itself, unredacted.
    Object.assign(process.env, { LANGSMITH_TRACING: "true", LANGCHAIN_TRACING_V2: "true" });
    const unguarded = await memoWith(null);
    await unguarded.runtime.invokeMemoGraph(PHONE, QUESTION);
    await awaitAllCallbacks();
    expect(langsmith.requests.map((r) => r.apiKey)).toContain("default-client-key");
    expect(langsmith.bodies()).toContain("capital of France");
    langsmith.reset();

    // Memo with tracing off: LANGSMITH_TRACING unset in its configuration.
    const tracing = createTracing(loadConfig({}).tracing, logs.logger);
    expect(tracing).toBeNull();
    expect(process.env.LANGCHAIN_TRACING_V2).toBeUndefined();
    expect(process.env.LANGSMITH_TRACING).toBeUndefined();
    const memo = await memoWith(tracing);
    const configs: unknown[] = [];
    const invoke = memo.graph.invoke.bind(memo.graph);
    memo.graph.invoke = (input, config) => {
      configs.push(config);
      return invoke(input, config);
    };
    const reply = await memo.runtime.invokeMemoGraph(PHONE, QUESTION);
    expect(reply.text).toBe(ANSWER);
    expect(configs).toHaveLength(1);
    expect(configs[0]).not.toHaveProperty("callbacks");
    expect(configs[0]).not.toHaveProperty("runName");
    await awaitAllCallbacks();
    // Longer than the client's batching delay (250 ms).
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(langsmith.requests).toHaveLength(0);
    expect(network.blocked).toEqual([]);
  });
});

describe("scheduler work outside the graph", () => {
  it("traces the digest polish as a memo-turn of its own, trigger cron, in the user's thread", async () => {
    const tracing = new Tracing({ settings: settings(), logger: logs.logger });
    const memo = await memoWith(null);
    const traced = tracedLLMService(memo.llm!, tracing);
    const key = `digest:${PHONE}@2026-03-05`;
    const result = await withTurn({ traceId: key, phone: PHONE, trigger: "cron" }, () =>
      traced.text("responseWriter", [{ role: "user", content: "Polish: 2 tasks today" }]),
    );
    expect(result.value).toBe(ANSWER);
    await tracing.flush(5000);

    const root = turnRoots()[0]!;
    expect(langsmith.roots()).toHaveLength(1);
    expect(root.extra?.metadata).toMatchObject({
      thread_id: `user-${phoneTag(PHONE)}`,
      trace_id: `digest:[phone:${phoneTag(PHONE)}]@2026-03-05`,
      trigger: "cron",
      total_tokens: result.usage.inputTokens + result.usage.outputTokens,
      models: ["gpt-4o-mini"],
    });
    const llmRuns = langsmith.traceOf(root.id).filter((r) => r.run_type === "llm");
    expect(llmRuns).toHaveLength(1);
    // Every run of the trace is in the user's thread, so LangSmith counts its tokens there.
    for (const run of langsmith.traceOf(root.id)) {
      expect(run.extra?.metadata).toMatchObject({ thread_id: `user-${phoneTag(PHONE)}`, trigger: "cron" });
    }
    expect(nodeOf(llmRuns[0]!, root)).toBeDefined();
    const sent = langsmith.bodies();
    for (const secret of [...traces(PHONE), "Polish", "Paris"]) expect(sent).not.toContain(secret);
  });
});

describe("shutdown", () => {
  it("sends the last turns' traces before shutdown resolves", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "memo-tracing-"));
    const database = testDatabaseUrl ? await createPostgresDatabase(testDatabaseUrl) : undefined;
    try {
      const config = loadConfig({
        NODE_ENV: "test",
        PORT: String(await freePort()),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        ...(database ? { DATABASE_URL: database.url } : {}),
        SCHEDULER: "off",
        LANGSMITH_TRACING: "true",
        LANGSMITH_API_KEY: "test-key",
        LANGSMITH_ENDPOINT: langsmith.url,
      });
      const service = await startService(config, { logger: captureLogs().logger });
      // "help" is answered in code: a whole turn through the graph with no model.
      const reply = await service.memo.runtime.invokeMemoGraph(PHONE, "help");
      expect(reply.status).toBe("completed");
      expect(await service.shutdown("test")).toBe(true);
      // Nothing waited for the stand-in after shutdown: the finished turn was sent by then.
      const root = turnRoots()[0];
      expect(root?.end_time).toBeDefined();
      expect(root?.extra?.metadata?.thread_id).toBe(`user-${phoneTag(PHONE)}`);
      expect(langsmith.childrenOf(root!.id).map((r) => r.name)).toContain("memory_update");
    } finally {
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
