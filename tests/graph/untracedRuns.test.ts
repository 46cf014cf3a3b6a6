// With LangSmith tracing off, a turn creates no LangSmith run tree and no LangChain callback
// manager (issue 22): LangGraph would otherwise build one RunTree per node, edge and write.
import { CallbackManager } from "@langchain/core/callbacks/manager";
import { RunTree } from "langsmith";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordingCapability } from "../support/recordingCapability.js";
import { createHarness, plan, step, type Harness } from "../support/memoHarness.js";

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});

/** Counts RunTree constructions (each asks for its defaults) and callback managers configured. */
function countTracingObjects() {
  // Every construction asks for the defaults (a private static in the typings).
  const runTrees = vi.spyOn(RunTree as unknown as { getDefaultConfig: () => object }, "getDefaultConfig");
  const configure = CallbackManager._configureSync.bind(CallbackManager);
  let managers = 0;
  vi.spyOn(CallbackManager, "_configureSync").mockImplementation((...args) => {
    const manager = configure(...args);
    if (manager) managers += 1;
    return manager;
  });
  return { runTrees: () => runTrees.mock.calls.length, managers: () => managers };
}

describe("a turn with tracing off", () => {
  it("builds no run tree and no callback manager, through a question and its answer", async () => {
    const db = recordingCapability();
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(
      plan({
        riskLevel: "high",
        clarificationQuestion: "Delete all 12 tasks?",
        steps: [step("s1", "database", "delete_all_tasks")],
      }),
    );
    const counts = countTracingObjects();

    // The question pauses the graph at interrupt(), which reads its config from the async context.
    expect(await h.say("delete all my tasks")).toMatchObject({
      status: "waiting",
      text: "Delete all 12 tasks?",
    });
    const done = await h.say("yes");
    expect(done).toMatchObject({ status: "completed", text: "did delete_all_tasks" });
    expect(db.executed).toHaveLength(1);

    expect(counts.runTrees()).toBe(0);
    expect(counts.managers()).toBe(0);
  });

  it("counts what it claims to: a RunTree made in the turn's place is seen", () => {
    const counts = countTracingObjects();
    new RunTree({ name: "probe", tracingEnabled: false });
    expect(counts.runTrees()).toBe(1);
  });
});
