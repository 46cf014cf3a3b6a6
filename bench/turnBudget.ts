import { loadConfig } from "../src/config/env.js";
import { startService, type RunningService } from "../src/app/server.js";
import { createLogger } from "../src/utils/logger.js";
import { signBody } from "../src/transport/whatsapp/signature.js";
import { FakeGraphApi } from "../tests/support/fakeGraphApi.js";
import { plan, step } from "../tests/support/memoHarness.js";
import { countQueries, type QueryCounts } from "../tests/support/queryCounter.js";
import { ScriptedOpenAI } from "../tests/support/scriptedOpenAI.js";
import { freePort } from "../tests/support/process.js";
import { callKind } from "./llmRequests.js";
import { userMessageIn, webhookBody } from "./endToEnd.js";
import { postgresDatabase } from "./postgres.js";

const SECRET = "bench-app-secret";
const TOKEN = "bench-token";
const PHONE_NUMBER_ID = "1234";
/** Turns measured per scenario, each by a user of its own (all must count the same). */
const REPEAT = 4;

/** What one turn may cost at most; a count past it fails the bench (exit code 1). */
const BUDGET: Record<Scenario, Counts> = {
  fast_path_command: { queries: 7, transactions: 7, roundTrips: 7 },
  llm_operation: { queries: 13, transactions: 8, roundTrips: 15 },
  hitl_question: { queries: 30, transactions: 8, roundTrips: 34 },
  hitl_answer: { queries: 20, transactions: 13, roundTrips: 24 },
};

type Scenario = "fast_path_command" | "llm_operation" | "hitl_question" | "hitl_answer";

type Counts = QueryCounts;

const TRACE = process.env.BENCH_TRACE_SQL === "1";

/** The model as in end_to_end (no latency): add_list_item, or a question for "which list?". */
function script(llm: ScriptedOpenAI): void {
  // The answer to "which list?" is read by the planner again (replan): then it knows.
  llm.on(
    (req) => callKind(req) === "planner" && JSON.stringify(req.body).includes("the shopping list"),
    plan({ steps: [step("s1", "database", "add_list_item")] }),
  );
  llm.on(
    (req) => callKind(req) === "planner" && userMessageIn(req) === "put it somewhere",
    plan({
      confidence: 0.4,
      clarificationQuestion: "Which list should I put it on?",
      steps: [step("s1", "database", "add_list_item")],
    }),
  );
  llm.on((req) => callKind(req) === "planner", plan({ steps: [step("s1", "database", "add_list_item")] }));
  llm.on((req) => callKind(req) === "resolver:lists", {
    json: { operation: "addItem", listName: "shopping", items: ["lemons"] },
  });
  llm.on((req) => callKind(req) === "memory:facts", { json: { facts: [] } });
  llm.on(() => true, { text: "OK" });
}

/**
 * Database work per turn, counted (not timed) through the real service on Postgres (PGlite when
 * none answers): each kind of turn, from the webhook's POST until the reply was sent and the
 * turn's background work (fact extraction) ended.
 */
export async function turnBudget(): Promise<Record<string, unknown>[]> {
  const database = await postgresDatabase();
  const graph = await FakeGraphApi.start({ accessToken: TOKEN });
  const llm = await ScriptedOpenAI.start();
  script(llm);
  const config = loadConfig({
    NODE_ENV: "test",
    PORT: String(await freePort()),
    HOST: "127.0.0.1",
    SCHEDULER: "off",
    ...(database ? { DATABASE_URL: database.url } : { DATA_DIR: `/tmp/memo-bench-budget-${process.pid}` }),
    WHATSAPP_APP_SECRET: SECRET,
    WHATSAPP_ACCESS_TOKEN: TOKEN,
    WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
    WHATSAPP_GRAPH_URL: graph.baseUrl,
    WHATSAPP_SIMULATOR: "off",
    OPENAI_API_KEY: "bench",
    OPENAI_BASE_URL: llm.baseUrl,
    EMBEDDINGS_MODEL: "off",
  });
  const service = await startService(config, {
    logger: createLogger("silent"),
    whatsapp: { worker: { pollIntervalMs: 3_600_000 } },
  });
  const counter = countQueries(
    TRACE ? { log: (sql) => process.stderr.write(`  sql: ${sql.slice(0, 160)}\n`) } : {},
  );
  const { counts } = counter;
  try {
    const results: Record<string, Counts> = {};
    let n = 0;
    const turn = async (phone: string, text: string): Promise<Counts> => {
      const before = { ...counts };
      const sent = graph.sent.length;
      const raw = webhookBody(phone, text, `wamid.BUDGET${++n}`);
      const res = await fetch(`${service.url}/webhook/whatsapp`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": signBody(raw, SECRET) },
        body: raw,
      });
      await res.arrayBuffer();
      while (!graph.sent.slice(sent).some((m) => m.to === phone)) await new Promise((r) => setTimeout(r, 2));
      await service.whatsapp.worker.idle();
      await service.memo.longTerm.idle();
      if (TRACE)
        for (const m of graph.sent.slice(sent))
          process.stderr.write(`  reply: ${JSON.stringify(m).slice(0, 300)}\n`);
      return counter.since(before);
    };
    let warm = false;
    const record = (scenario: Scenario, c: Counts) => {
      // The first user's turns warm the service up (its first look at the inbox, caches).
      if (!warm) return;
      const seen = results[scenario];
      if (seen && JSON.stringify(seen) !== JSON.stringify(c))
        throw new Error(
          `turn_budget: ${scenario} counted ${JSON.stringify(c)} after ${JSON.stringify(seen)}`,
        );
      results[scenario] = c;
    };
    for (let i = 0; i <= REPEAT; i++) {
      warm = i > 0;
      const phone = `97254${String(i).padStart(7, "0")}`;
      await seed(service, phone);
      if (TRACE) process.stderr.write(`fast_path_command ${phone}\n`);
      record("fast_path_command", await turn(phone, "show my lists"));
      if (TRACE) process.stderr.write(`llm_operation ${phone}\n`);
      record("llm_operation", await turn(phone, "add 3 lemons to my shopping list"));
      if (TRACE) process.stderr.write(`hitl_question ${phone}\n`);
      record("hitl_question", await turn(phone, "put it somewhere"));
      if (TRACE) process.stderr.write(`hitl_answer ${phone}\n`);
      record("hitl_answer", await turn(phone, "the shopping list"));
    }
    const lines = Object.entries(results).map(([scenario, c]) => ({
      bench: "turn_budget",
      scenario,
      database: database ? "postgres" : "pglite",
      queries_per_turn: c.queries,
      transactions_per_turn: c.transactions,
      round_trips_per_turn: c.roundTrips,
      budget: BUDGET[scenario as Scenario],
    }));
    const over = lines.filter((l) => {
      const b = BUDGET[l.scenario as Scenario];
      return (
        l.queries_per_turn > b.queries ||
        l.transactions_per_turn > b.transactions ||
        l.round_trips_per_turn > b.roundTrips
      );
    });
    if (over.length > 0) {
      // The bench's exit code fails; the lines still print, so the regression shows as a number.
      process.exitCode = 1;
      for (const l of over) process.stderr.write(`turn_budget: ${l.scenario} is over its budget\n`);
    }
    return lines;
  } finally {
    counter.restore();
    await service.shutdown("bench");
    await graph.close();
    await llm.close();
    await database?.drop();
  }
}

async function seed(service: RunningService, phone: string): Promise<void> {
  await service.users.getOrCreate(phone, {
    timeZone: "Asia/Jerusalem",
    language: "en",
    displayName: "Bench",
  });
}
