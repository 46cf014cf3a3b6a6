import { Annotation, END, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import type { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { createCheckpointer, turnBufferedCheckpointer } from "../src/db/checkpointer.js";
import { againstFloor, TURNS } from "./measure.js";
import { withPglite } from "./pglite.js";

const NODES = 12;

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

/**
 * What checkpointing costs a turn, beside the same 12-node graph with no checkpointer, interleaved
 * in the same run, on PGlite:
 * - `ratio`: Memo's checkpointer on a turn that completes (nearly every turn): the thread's latest
 *   checkpoint read once (`readLatest`, the open-question check), the turn's writes kept in memory
 *   by TurnBufferedSaver and dropped at the end (spec 001 deletes a finished thread's checkpoints);
 * - `paused_ratio`: a turn that ends on a question (`flush`: the checkpoint and the interrupt
 *   written to PostgresSaver) and its thread deleted after the answer;
 * - `postgres_saver_ratio`: LangGraph's PostgresSaver alone, durability "exit", thread deleted
 *   after the turn (what a turn cost before the buffer).
 */
export function checkpointTurn(): Promise<Record<string, unknown>> {
  return withPglite(async (pool) => {
    const saver = (await createCheckpointer("postgres", pool)) as PostgresSaver;
    const buffered = turnBufferedCheckpointer(saver, pool);
    const withBuffer = chain(buffered);
    const withSaver = chain(saver);
    const floor = chain();
    const thread = (i: number) => `97250${String(i).padStart(7, "0")}`;
    const config = (id: string) => ({ configurable: { thread_id: id }, durability: "exit" as const });
    const runFloor = async () => {
      await floor.invoke({ steps: 0 });
    };
    const completed = await againstFloor(async (i) => {
      const id = thread(i);
      await buffered.readLatest(id);
      await withBuffer.invoke({ steps: 0 }, config(id));
      await buffered.discard(id);
    }, runFloor);
    const paused = await againstFloor(async (i) => {
      const id = thread(i);
      await buffered.readLatest(id);
      await withBuffer.invoke({ steps: 0 }, config(id));
      await buffered.flush(id);
      await buffered.deleteThread(id);
    }, runFloor);
    const postgresSaver = await againstFloor(async (i) => {
      const id = thread(i);
      await withSaver.invoke({ steps: 0 }, config(id));
      await saver.deleteThread(id);
    }, runFloor);
    return {
      bench: "checkpoint_turn",
      nodes: NODES,
      turns: TURNS,
      ...completed,
      paused_median_ms: paused.median_ms,
      paused_ratio: paused.ratio,
      postgres_saver_median_ms: postgresSaver.median_ms,
      postgres_saver_ratio: postgresSaver.ratio,
    };
  });
}
