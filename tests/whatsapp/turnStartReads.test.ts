// A WhatsApp turn's start (issue 22): the statement that records the user's message also says
// whether a question is open and what the user's LLM calls cost today, so neither the runtime
// nor the budget reads them again; a question paused on another instance is still found, and a
// user over the budget is still refused before any model call.
import { afterEach, beforeAll, afterAll, describe, expect, it } from "vitest";
import { backends } from "../support/db.js";
import { isPlanner, plan, step } from "../support/memoHarness.js";
import { countQueries, type QueryCounter } from "../support/queryCounter.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import {
  createWhatsAppHarness,
  echoLLM,
  textMessage,
  type WhatsAppHarness,
  type WhatsAppHarnessOptions,
} from "../support/whatsappHarness.js";

const ALICE = "972501110001";

/** The statements that read the user, their open question or their LLM spend, by what they do. */
function startRead(sql: string): string | null {
  if (/^UPDATE users SET last_inbound_at/.test(sql)) return "touch user";
  if (/^SELECT \* FROM users\b/.test(sql)) return "read user";
  if (/^SELECT EXISTS \(SELECT 1 FROM "public"\.checkpoints/.test(sql)) return "look for a question";
  if (/^select thread_id, checkpoint\b/i.test(sql)) return "read the question";
  if (/LEFT JOIN llm_usage_daily/.test(sql)) return "read spend";
  return null;
}

describe.each(backends)("the start of a WhatsApp turn on $name", (backend) => {
  let server: ScriptedOpenAI;
  const open: WhatsAppHarness[] = [];
  let counter: QueryCounter | undefined;
  beforeAll(async () => {
    server = await ScriptedOpenAI.start();
  });
  afterAll(() => server.close());
  afterEach(async () => {
    counter?.restore();
    counter = undefined;
    const harnesses = open.splice(0).reverse();
    for (const h of harnesses) await h.close(false);
    for (const db of new Set(harnesses.map((h) => h.db))) await db.close();
    server.reset();
  });

  async function harness(options: WhatsAppHarnessOptions = {}): Promise<WhatsAppHarness> {
    const h = await createWhatsAppHarness({
      db: options.db ?? (await backend.create()),
      llm: server,
      ...options,
    });
    open.push(h);
    return h;
  }

  /** The start-of-turn reads while `work` runs and the harnesses drain. */
  async function startReads(
    hs: WhatsAppHarness[],
    work: () => Promise<unknown>,
    log?: (sql: string) => void,
  ): Promise<string[]> {
    counter = countQueries(log ? { log } : {});
    await work();
    await Promise.all(hs.map((h) => h.idle()));
    const statements = counter.statements;
    counter.restore();
    counter = undefined;
    return statements.map(startRead).filter((s): s is string => s !== null);
  }

  it("a plain LLM turn reads the user, the open question and today's spend in one statement", async () => {
    echoLLM(server);
    const h = await harness();
    await h.knownUser(ALICE);
    await h.idle();
    let touch = "";
    const reads = await startReads(
      [h],
      async () => {
        await h.deliver(textMessage(ALICE, "what's the capital of France?", h.clock.now()));
        await h.graphApi.waitForSent(1);
      },
      (sql) => {
        if (sql.startsWith("UPDATE users SET last_inbound_at")) touch = sql;
      },
    );
    expect(h.graphApi.textsTo(ALICE)).toEqual(["echo: what's the capital of France?"]);
    // The budget was asked (the planner ran within it) and the runtime looked for a question: both
    // learned what they needed from the one statement.
    expect(reads).toEqual(["touch user"]);
    expect(touch).toContain("checkpoints");
    expect(touch).toContain("llm_usage_daily");
    expect(server.requests.filter(isPlanner)).toHaveLength(1);
  });

  it("an answer arriving on one instance resumes the question another instance paused", async () => {
    const a = await harness();
    const b = await harness({ db: a.db, graphApi: a.graphApi, startWorker: false });
    await a.knownUser(ALICE);
    server.enqueue(plan({ riskLevel: "high", steps: [step("s1", "general", "answer_question")] }));
    await a.deliver(textMessage(ALICE, "delete everything", a.clock.now()));
    const [question] = await a.graphApi.waitForSent(1);
    expect(question).toBeDefined();
    await a.idle();
    // A is gone; B, which never saw the question, takes the answer.
    await a.whatsapp.stop();
    b.whatsapp.worker.start();
    server.enqueue({ text: "Done, all gone." });
    const reads = await startReads([b], async () => {
      await b.deliver(textMessage(ALICE, "yes", b.clock.now() + 1000));
      await b.graphApi.waitForSent(2);
    });
    expect(b.graphApi.textsTo(ALICE).at(-1)).toBe("Done, all gone.");
    // Resumed, not planned anew: the flag read with the user sent B straight to the stored question.
    expect(server.requests.filter(isPlanner)).toHaveLength(1);
    // No look of its own: straight to the question's full read (LangGraph reads it again on resume).
    expect(reads[0]).toBe("touch user");
    expect(reads.slice(1).length).toBeGreaterThan(0);
    expect(reads.slice(1).every((r) => r === "read the question")).toBe(true);
    expect(b.logs().some((l) => l.event === "HITL_STALE_REPLY")).toBe(false);
  });

  it("a user over today's budget is refused before any model call", async () => {
    echoLLM(server);
    const h = await harness({ env: { LLM_DAILY_BUDGET_USD: "0.5" } });
    await h.knownUser(ALICE);
    await h.db.pool.query(
      `INSERT INTO llm_usage_daily (user_phone, day, calls, cost_usd)
       VALUES ($1, ($2::timestamptz AT TIME ZONE 'Asia/Jerusalem')::date, 3, 0.6)`,
      [ALICE, new Date(h.clock.now())],
    );
    await h.idle();
    const reads = await startReads([h], async () => {
      await h.deliver(textMessage(ALICE, "what's the capital of France?", h.clock.now()));
      await h.graphApi.waitForSent(1);
    });
    expect(h.graphApi.textsTo(ALICE)[0]).toContain("today's allowance");
    expect(server.requests).toHaveLength(0);
    expect(reads).toEqual(["touch user"]);
  });
});
