import { Command } from "@langchain/langgraph";
import pg from "pg";
import { loadConfig } from "../src/config/env.js";
import { createCheckpointer } from "../src/db/checkpointer.js";
import { migrate } from "../src/db/migrate.js";
import { MIGRATIONS } from "../src/db/migrations/index.js";
import { createMemoRuntime } from "../src/app/createMemoRuntime.js";
import { wireMemoGraph } from "../src/graph/memoGraph.js";
import { createLogger } from "../src/utils/logger.js";
import { FakeLLM } from "../tests/support/fakeLLM.js";
import { plan, step } from "../tests/support/memoHarness.js";
import { chain } from "./checkpointTurn.js";
import { interleaved, round } from "./measure.js";
import { withPglite } from "./pglite.js";
import { NO_POSTGRES, postgresDatabase } from "./postgres.js";

/** Distinct users the turns rotate through. */
const USERS = 50;

/**
 * Memo's graph with nothing in it: the same state channels, nodes, edges and routing, every node
 * doing nothing but steer the turn along the path the measured turn takes (context_assembly …
 * hitl_gate > resolver_router > entity_resolution > executor > resolver_router > join …
 * memory_update: 13 steps), no checkpointer. What LangGraph costs Memo's shape before any node
 * works, reads the database or calls a model.
 */
function emptyMemoShape() {
  const nothing = () => Promise.resolve({});
  return wireMemoGraph({
    context_assembly: nothing,
    reply_context: nothing,
    planner: nothing,
    capability_check: nothing,
    hitl_gate: () => Promise.resolve(new Command({ goto: "resolver_router" })),
    resolver_router: (state) =>
      Promise.resolve(
        new Command({
          goto: state.routerPasses === 0 ? "entity_resolution" : "join",
          update: { routerPasses: state.routerPasses + 1 },
        }),
      ),
    entity_resolution: () => Promise.resolve(new Command({ goto: "executor" })),
    executor: nothing,
    join: nothing,
    response_formatter: nothing,
    response_writer: () => Promise.resolve({ finalResponse: "" }),
    memory_update: nothing,
  });
}

/** Memo's full graph on `pool` against the 12-node floor and Memo's empty shape, as one graph_overhead line. */
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
  const shape = emptyMemoShape();
  const medians = await interleaved({
    memo: async (i) => {
      const reply = await runtime.invokeMemoGraph(
        `9725${String(i % USERS).padStart(8, "0")}`,
        // Not a fast-path phrase: the planner (the fake LLM) runs, as in every real turn.
        "tell me what you are good at",
      );
      if (reply.status !== "completed") throw new Error(`bench turn ended ${reply.status}`);
    },
    floor: async () => {
      await floor.invoke({ steps: 0 });
    },
    shape: async () => {
      const end = await shape.invoke({ threadId: "shape" });
      if (end.finalResponse !== "" || end.routerPasses !== 2) throw new Error("empty shape left its path");
    },
  });
  const result = {
    median_ms: round(medians.memo),
    floor_ms: round(medians.floor),
    ratio: round(medians.memo / medians.floor),
    shape_floor_ms: round(medians.shape),
    shape_ratio: round(medians.shape / medians.floor),
  };
  return { bench: "graph_overhead", backend, ...result };
}

/**
 * The graph's own overhead per turn: the full Memo graph with an LLM that answers at once (a meta
 * question: planner → template reply), its checkpointer (TurnBufferedSaver over PostgresSaver),
 * user and memory storage on the same database; beside LangGraph's floor for 12 no-op nodes with
 * no checkpointer, interleaved in the same run; and Memo's empty shape (`shape_floor_ms`, its
 * `shape_ratio` to the same floor): what the framework alone charges a graph of Memo's channels
 * and path. One line on embedded PGlite, whose engine runs in
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
