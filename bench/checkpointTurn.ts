import { Annotation, END, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import { PGlite } from "@electric-sql/pglite";
import { createCheckpointer } from "../src/db/checkpointer.js";
import { PGLITE_EXTENSIONS } from "../src/db/database.js";
import { createPglitePool } from "../src/db/pglitePool.js";
import { median } from "./stats.js";

const NODES = 12;
const TURNS = 150;
export const WARMUP = 20;

const State = Annotation.Root({ steps: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }) });

/** A chain of `nodes` trivial nodes: what LangGraph itself costs per turn, with or without a checkpointer. */
export function chain(checkpointer?: BaseCheckpointSaver, nodes = NODES) {
  const graph = new StateGraph(State);
  for (let i = 0; i < nodes; i++) graph.addNode(`n${i}`, () => ({ steps: 1 }));
  const g = graph as unknown as StateGraph<typeof State.spec, unknown, unknown, string>;
  g.addEdge(START, "n0");
  for (let i = 1; i < nodes; i++) g.addEdge(`n${i - 1}`, `n${i}`);
  g.addEdge(`n${nodes - 1}`, END);
  return g.compile(checkpointer ? { checkpointer } : {});
}

/** Runs `warmup` untimed turns, then times `turns` turns (ms each). */
export async function timeTurns(
  run: (i: number) => Promise<void>,
  turns = TURNS,
  warmup = WARMUP,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < turns; i++) {
    const t = performance.now();
    await run(warmup + i);
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

export function round(n: number): number {
  return Math.round(n * 100) / 100;
}
