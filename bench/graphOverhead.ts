import pg from "pg";
import { loadConfig } from "../src/config/env.js";
import { createCheckpointer } from "../src/db/checkpointer.js";
import { migrate } from "../src/db/migrate.js";
import { MIGRATIONS } from "../src/db/migrations/index.js";
import { createMemoRuntime } from "../src/app/createMemoRuntime.js";
import { createLogger } from "../src/utils/logger.js";
import { FakeLLM } from "../tests/support/fakeLLM.js";
import { plan, step } from "../tests/support/memoHarness.js";
import { chain } from "./checkpointTurn.js";
import { againstFloor } from "./measure.js";
import { withPglite } from "./pglite.js";
import { NO_POSTGRES, postgresDatabase } from "./postgres.js";

/** Distinct users the turns rotate through. */
const USERS = 50;

/** Memo's full graph on `pool` against the 12-node floor, as one graph_overhead line. */
async function overheadOn(pool: pg.Pool, backend: string): Promise<Record<string, unknown>> {
  await migrate(pool, MIGRATIONS);
  const checkpointer = await createCheckpointer("postgres", pool);
  // A meta question: planner → template reply, no resolver.
  const answer = plan({
    intentType: "meta",
    confidence: 0.97,
    steps: [step("s1", "meta", "describe_capabilities")],
  }).json;
  const llm = new FakeLLM(() => answer);
  const { runtime } = createMemoRuntime({
    config: loadConfig({}),
    pool,
    checkpointer,
    logger: createLogger("silent"),
    llm,
  });
  const floor = chain(undefined, 12);
  const result = await againstFloor(
    async (i) => {
      const reply = await runtime.invokeMemoGraph(
        `9725${String(i % USERS).padStart(8, "0")}`,
        // Not a fast-path phrase: the planner (the fake LLM) runs, as in every real turn.
        "tell me what you are good at",
      );
      if (reply.status !== "completed") throw new Error(`bench turn ended ${reply.status}`);
    },
    async () => {
      await floor.invoke({ steps: 0 });
    },
  );
  return { bench: "graph_overhead", backend, ...result };
}

/**
 * The graph's own overhead per turn: the full Memo graph with an LLM that answers at once (a meta
 * question: planner → template reply), its checkpointer (TurnBufferedSaver over PostgresSaver),
 * user and memory storage on the same database; beside LangGraph's floor for 12 no-op nodes with
 * no checkpointer, interleaved in the same run. One line on embedded PGlite, whose engine runs in
 * this process and takes its share of the turn, and one on the machine's Postgres (production).
 */
export async function graphOverhead(): Promise<Record<string, unknown>[]> {
  const lines = [await withPglite((pool) => overheadOn(pool, "pglite"))];
  const database = await postgresDatabase();
  if (!database) return [...lines, { bench: "graph_overhead", backend: "postgres", skipped: NO_POSTGRES }];
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  try {
    lines.push(await overheadOn(pool, "postgres"));
  } finally {
    await pool.end();
    await database.drop();
  }
  return lines;
}
