import { Annotation, END, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import { PGlite } from "@electric-sql/pglite";
import { createCheckpointer } from "../src/db/checkpointer.js";
import { PGLITE_EXTENSIONS } from "../src/db/database.js";
import { createPglitePool } from "../src/db/pglitePool.js";
import { median } from "./stats.js";

const NODES = 12;
const TURNS = 150;
const WARMUP = 20;

const State = Annotation.Root({ steps: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }) });

/** A chain of NODES trivial nodes: what LangGraph itself costs per turn, with or without a checkpointer. */
function chain(checkpointer?: BaseCheckpointSaver) {
  const graph = new StateGraph(State);
  for (let i = 0; i < NODES; i++) graph.addNode(`n${i}`, () => ({ steps: 1 }));
  const g = graph as unknown as StateGraph<typeof State.spec, unknown, unknown, string>;
  g.addEdge(START, "n0");
  for (let i = 1; i < NODES; i++) g.addEdge(`n${i - 1}`, `n${i}`);
  g.addEdge(`n${NODES - 1}`, END);
  return g.compile(checkpointer ? { checkpointer } : {});
}

async function timeTurns(run: (i: number) => Promise<void>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    const t = performance.now();
    await run(WARMUP + i);
    samples.push(performance.now() - t);
  }
  return samples;
}

/**
 * One turn of a 12-node graph with PostgresSaver on PGlite (durability "exit", thread deleted
 * after the turn as spec 001 wants) beside the same graph with no checkpointer, in the same run.
 */
export async function checkpointTurn(): Promise<Record<string, unknown>> {
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const pool = createPglitePool(pglite);
  try {
    const saver = await createCheckpointer("postgres", pool);
    const withSaver = chain(saver);
    const floor = chain();
    const floorSamples = await timeTurns(async () => {
      await floor.invoke({ steps: 0 });
    });
    const samples = await timeTurns(async (i) => {
      const thread = `97250${String(i).padStart(7, "0")}`;
      await withSaver.invoke({ steps: 0 }, { configurable: { thread_id: thread }, durability: "exit" });
      await saver.deleteThread(thread);
    });
    const medianMs = median(samples);
    const floorMs = median(floorSamples);
    return {
      bench: "checkpoint_turn",
      nodes: NODES,
      turns: TURNS,
      median_ms: round(medianMs),
      floor_ms: round(floorMs),
      ratio: round(medianMs / floorMs),
    };
  } finally {
    await pool.end();
    await pglite.close();
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
