import { Annotation, Command, END, MemorySaver, START, StateGraph, interrupt } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { afterEach, describe, expect, it } from "vitest";
import { createCheckpointer } from "../../src/db/checkpointer.js";
import { backends, type TestDatabase } from "../support/db.js";

const State = Annotation.Root({
  request: Annotation<string>,
  answer: Annotation<string>,
});

/** A one-question graph: the shape of every HITL pause. */
function questionGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(State)
    .addNode("ask", (state) => ({
      answer: interrupt<{ question: string }, string>({ question: `Which ${state.request}?` }),
    }))
    .addEdge(START, "ask")
    .addEdge("ask", END)
    .compile({ checkpointer });
}

describe("createCheckpointer", () => {
  it("gives a MemorySaver when CHECKPOINTER=memory", async () => {
    const db = await backends[0]!.create({ migrated: false });
    try {
      expect(await createCheckpointer("memory", db.pool)).toBeInstanceOf(MemorySaver);
    } finally {
      await db.close();
    }
  });
});

describe.each(backends)("PostgresSaver on $name", (backend) => {
  let db: TestDatabase;
  afterEach(async () => db?.close());

  it("keeps a paused question across a restart, resumes it, and forgets the thread when asked", async () => {
    db = await backend.create();
    const phone = "972501112233";
    const config = { configurable: { thread_id: phone } };

    const before = await createCheckpointer("postgres", db.pool);
    expect(before).toBeInstanceOf(PostgresSaver);
    const first = questionGraph(before);
    await first.invoke({ request: "meeting" }, { ...config, durability: "exit" });
    expect((await first.getState(config)).tasks[0]?.interrupts[0]?.value).toEqual({
      question: "Which meeting?",
    });

    // A new process: a new saver (setup() again is harmless) and a newly compiled graph.
    const after = await createCheckpointer("postgres", db.pool);
    const graph = questionGraph(after);
    expect((await graph.getState(config)).next).toEqual(["ask"]);
    const resumed = await graph.invoke(new Command({ resume: "the team sync" }), {
      ...config,
      durability: "exit",
    });
    expect(resumed).toEqual({ request: "meeting", answer: "the team sync" });

    await after.deleteThread(phone);
    expect(await after.getTuple(config)).toBeUndefined();
  });
});
