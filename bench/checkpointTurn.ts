import { Annotation, END, START, StateGraph, type BaseCheckpointSaver } from "@langchain/langgraph";
import { createCheckpointer } from "../src/db/checkpointer.js";
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
 * One turn of a 12-node graph with PostgresSaver on PGlite (durability "exit", thread deleted
 * after the turn as spec 001 wants) beside the same graph with no checkpointer, in the same run.
 */
export function checkpointTurn(): Promise<Record<string, unknown>> {
  return withPglite(async (pool) => {
    const saver = await createCheckpointer("postgres", pool);
    const withSaver = chain(saver);
    const floor = chain();
    const result = await againstFloor(
      async (i) => {
        const thread = `97250${String(i).padStart(7, "0")}`;
        await withSaver.invoke({ steps: 0 }, { configurable: { thread_id: thread }, durability: "exit" });
        await saver.deleteThread(thread);
      },
      async () => {
        await floor.invoke({ steps: 0 });
      },
    );
    return { bench: "checkpoint_turn", nodes: NODES, turns: TURNS, ...result };
  });
}
