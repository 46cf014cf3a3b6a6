import { PGlite } from "@electric-sql/pglite";
import { loadConfig } from "../src/config/env.js";
import { createCheckpointer } from "../src/db/checkpointer.js";
import { PGLITE_EXTENSIONS } from "../src/db/database.js";
import { migrate } from "../src/db/migrate.js";
import { MIGRATIONS } from "../src/db/migrations/index.js";
import { createPglitePool } from "../src/db/pglitePool.js";
import { createMemoRuntime } from "../src/graph/createMemoRuntime.js";
import { createLogger } from "../src/utils/logger.js";
import { FakeLLM } from "../tests/support/fakeLLM.js";
import { chain, round, timeTurns, WARMUP } from "./checkpointTurn.js";
import { median } from "./stats.js";

/** Distinct users, so every turn also creates its user and window like a first contact would not mask. */
const USERS = 50;

/**
 * The graph's own overhead per turn: the full Memo graph with an LLM that answers at once
 * (a meta question: planner → template reply), PostgresSaver on PGlite with durability "exit",
 * user and memory storage on the same PGlite; beside LangGraph's floor for 12 no-op nodes with
 * no checkpointer, measured in the same run.
 */
export async function graphOverhead(): Promise<Record<string, unknown>> {
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const pool = createPglitePool(pglite);
  try {
    await migrate(pool, MIGRATIONS);
    const checkpointer = await createCheckpointer("postgres", pool);
    const llm = new FakeLLM(() => ({
      intentType: "meta",
      confidence: 0.97,
      riskLevel: "low",
      needsApproval: false,
      missingFields: [],
      clarificationQuestion: null,
      plan: [
        {
          id: "s1",
          capability: "meta",
          action: "describe_capabilities",
          constraints: {},
          changes: {},
          dependsOn: [],
        },
      ],
    }));
    const { runtime } = createMemoRuntime({
      config: loadConfig({}),
      pool,
      checkpointer,
      logger: createLogger("silent"),
      llm,
    });
    const phone = (i: number) => `9725${String(i % USERS).padStart(8, "0")}`;
    const floor = chain(undefined, 12);
    // Interleaved, so both series see the same machine: GC, JIT and other load alike.
    const samples: number[] = [];
    const floorSamples: number[] = [];
    await timeTurns(async (i) => {
      let t = performance.now();
      const reply = await runtime.invokeMemoGraph(phone(i), "what can you do?");
      if (reply.status !== "completed") throw new Error(`bench turn ended ${reply.status}`);
      if (i >= WARMUP) samples.push(performance.now() - t);
      t = performance.now();
      await floor.invoke({ steps: 0 });
      if (i >= WARMUP) floorSamples.push(performance.now() - t);
    });
    const medianMs = median(samples);
    const floorMs = median(floorSamples);
    return {
      bench: "graph_overhead",
      median_ms: round(medianMs),
      floor_ms: round(floorMs),
      ratio: round(medianMs / floorMs),
    };
  } finally {
    await pool.end();
    await pglite.close();
  }
}
