import { loadConfig } from "../src/config/env.js";
import { startService, type RunningService } from "../src/app/server.js";
import { PgChunkRepository } from "../src/db/repositories/chunkRepository.js";
import { MAX_CHUNKS } from "../src/services/memory/limits.js";
import { inBackgroundOfTurn } from "../src/utils/turnContext.js";
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

/**
 * What one turn may cost at most, and one background memory round (`memory_round`, counted apart
 * from any turn); a count past it fails the bench (exit code 1).
 */
const BUDGET: Record<Scenario, Counts> = {
  fast_path_command: { queries: 7, transactions: 7, roundTrips: 7 },
  llm_operation: { queries: 13, transactions: 8, roundTrips: 15 },
  hitl_question: { queries: 30, transactions: 8, roundTrips: 34 },
  hitl_answer: { queries: 20, transactions: 13, roundTrips: 24 },
  memory_round: { queries: 14, transactions: 6, roundTrips: 16 },
};

type Scenario = "fast_path_command" | "llm_operation" | "hitl_question" | "hitl_answer" | "memory_round";

/**
 * The ten exchanges before the memory round, oldest first: the first five (10 messages) have left
 * the 10-message window (one chunk); the first two user messages are the only ones that may hold
 * facts (the memory call's messages 1 and 2).
 */
const ROUND_EXCHANGES: [string, string][] = [
  ["I prefer morning meetings for work calls", "Noted."],
  ["We decided to go to Eilat for the family trip", "Sounds like a plan."],
  ["show my lists", "You have one list: shopping."],
  ["what's on my calendar today?", "Nothing today."],
  ["thanks!", "Anytime."],
  ["my tasks", "No open tasks."],
  ["show my lists", "You have one list: shopping."],
  ["what's on my calendar tomorrow?", "Nothing tomorrow."],
  ["ok", "👍"],
  ["thanks", "Anytime."],
];
/** Marks the memory round's own memory call (the turns' calls answer no facts). */
const ROUND_MARK = "Eilat for the family trip";

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
  // The memory round's call: two facts and one episode, from messages 1 and 2.
  llm.on((req) => callKind(req) === "memory:facts" && JSON.stringify(req.body).includes(ROUND_MARK), {
    json: {
      facts: [
        roundFact(1, "preference", "Prefers morning meetings for work calls", 0.6),
        roundFact(2, "decision", "Decided to go to Eilat for the family trip", 0.7),
      ],
      episodes: [
        {
          message: 2,
          kind: "decision",
          title: "Go to Eilat for the family trip",
          summary: "The user and their family decided to go to Eilat for the trip.",
          outcome: "",
          participants: [],
          emotionalValence: 0.5,
          significance: 0.7,
        },
      ],
    },
  });
  llm.on((req) => callKind(req) === "memory:facts", { json: { facts: [] } });
  llm.on((req) => callKind(req) === "memory:summary", {
    json: {
      summary: "The user prefers morning meetings and decided on Eilat for the family trip.",
      topics: ["meetings", "Eilat trip"],
    },
  });
  llm.on(() => true, { text: "OK" });
}

function roundFact(message: number, type: string, content: string, importance: number) {
  return {
    message,
    type,
    content,
    importance,
    subject: "user",
    attribute: "",
    people: [],
    since: "",
    replaces: [],
  };
}

/**
 * Database work per turn, counted (not timed) through the real service on Postgres (PGlite when
 * none answers): each kind of turn, from the webhook's POST until the reply was sent and the
 * turn's background work (fact extraction) ended. Apart from the turns, `memory_round`: one
 * background round of long-term memory (`LongTermMemory.process`) with the model answering, for
 * a user who already has 20 chunks, after ten exchanges: it makes one chunk of the five that left
 * the window (the chunk call), stores two facts and one episode (the memory call), and merges the
 * two oldest chunks; its LLM usage write is counted with it.
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
    const chunks = new PgChunkRepository(service.db.pool);
    const { memory, longTerm, budget } = service.memo;
    const round = async (phone: string): Promise<Counts> => {
      await seed(service, phone);
      for (let c = 0; c < MAX_CHUNKS; c++) {
        const summary = `Talked about the week's plans, part ${c + 1}.`;
        await chunks.create(phone, {
          firstMessageId: 0,
          lastMessageId: 0,
          messageCount: 10,
          summary,
          keyTopics: ["plans"],
          tokenCount: Math.ceil(summary.length / 3.5),
          startedAt: Date.now() - (MAX_CHUNKS - c) * 86_400_000,
          endedAt: Date.now() - (MAX_CHUNKS - c) * 86_400_000 + 3_600_000,
        });
      }
      await memory.load(phone);
      for (const [said, answer] of ROUND_EXCHANGES) {
        await memory.addUserMessage(phone, said);
        await memory.addAssistantMessage(phone, answer);
      }
      const before = { ...counts };
      // As memory_update starts it: in the background of a turn whose planner was let use the LLM.
      const turnOf = { traceId: `bench-round-${phone}`, phone, trigger: "user" as const, llmAdmitted: true };
      const report = await inBackgroundOfTurn(
        () => longTerm.process(phone, memory.getRecentMessages(phone).length),
        turnOf,
      );
      await longTerm.idle();
      await budget.idle();
      const c = counter.since(before);
      const expected = { folded: 10, chunks: 1, merged: 1, factsCreated: 2, episodesCreated: 1, failures: 0 };
      for (const [key, value] of Object.entries(expected))
        if (report[key as keyof typeof report] !== value)
          throw new Error(`turn_budget: memory_round did ${JSON.stringify(report)}`);
      return c;
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
      if (TRACE) process.stderr.write(`memory_round 97255${String(i).padStart(7, "0")}\n`);
      record("memory_round", await round(`97255${String(i).padStart(7, "0")}`));
    }
    const lines = Object.entries(results).map(([scenario, c]) => ({
      bench: "turn_budget",
      scenario,
      database: database ? "postgres" : "pglite",
      // memory_round: per background round.
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
