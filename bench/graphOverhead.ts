import { loadConfig } from "../src/config/env.js";
import { createCheckpointer } from "../src/db/checkpointer.js";
import { migrate } from "../src/db/migrate.js";
import { MIGRATIONS } from "../src/db/migrations/index.js";
import { createMemoRuntime } from "../src/app/createMemoRuntime.js";
import { createLogger } from "../src/utils/logger.js";
import { FakeLLM } from "../tests/support/fakeLLM.js";
import { chain } from "./checkpointTurn.js";
import { againstFloor } from "./measure.js";
import { withPglite } from "./pglite.js";

/** Distinct users the turns rotate through. */
const USERS = 50;

/**
 * The graph's own overhead per turn: the full Memo graph with an LLM that answers at once
 * (a meta question: planner → template reply), checkpoints on PGlite (PostgresSaver behind the
 * turn buffer, durability "exit"), user and memory storage on the same PGlite; beside LangGraph's
 * floor for 12 no-op nodes with no checkpointer, interleaved in the same run.
 */
export function graphOverhead(): Promise<Record<string, unknown>> {
  return withPglite(async (pool) => {
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
    return { bench: "graph_overhead", ...result };
  });
}
