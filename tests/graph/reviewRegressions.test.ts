// Each test pins a bug found in review of the graph, so it cannot come back.
import { afterEach, describe, expect, it } from "vitest";
import { createCheckpointer } from "../../src/db/checkpointer.js";
import { TurnBufferedSaver } from "../../src/db/turnBufferedSaver.js";
import type { EntityResolver } from "../../src/types/capability.js";
import { HITL_TTL_MS } from "../../src/types/index.js";
import { pgliteBackend } from "../support/db.js";
import { createHarness, isPlanner, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { recordingCapability, twoTasksResolver } from "../support/recordingCapability.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("review regressions", () => {
  it("runs a plan of five dependent steps to the end (LangGraph's default step limit cut it)", async () => {
    const db = recordingCapability();
    h = await createHarness({ capabilities: db.register });
    const steps = [1, 2, 3, 4, 5].map((n) =>
      step(`s${n}`, "database", `a${n}`, { dependsOn: n > 1 ? [`s${n - 1}`] : [] }),
    );
    h.server!.enqueue(plan({ steps }));
    const reply = await h.say("five things in order");
    expect(reply.status).toBe("completed");
    expect(db.executed.map((e) => e.step)).toEqual(["s1", "s2", "s3", "s4", "s5"]);
    expect(h.memory.getLatestActions(PHONE)).toHaveLength(3);
  });

  it("asks about every parallel step that needs an answer, one after the other", async () => {
    const db = recordingCapability({
      ask: { s1: { question: "Which one for s1?" }, s2: { question: "Which one for s2?" } },
    });
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(plan({ steps: [step("s1", "database", "a"), step("s2", "database", "b")] }));
    expect((await h.say("do a and b")).text).toBe("Which one for s1?");
    expect((await h.say("the first")).text).toBe("Which one for s2?");
    expect(await h.say("the second")).toMatchObject({ status: "completed", text: "did a\n\ndid b" });
    expect(db.executed.map((e) => e.step)).toEqual(["s1", "s2"]);
  });

  const confirmAfterChoice = twoTasksResolver((args, taskId) => ({
    status: "confirm",
    question: `Delete "${taskId}"?`,
    args: { ...args, taskId },
  }));

  it("asks for confirmation after a choice once, then executes the chosen entity", async () => {
    const db = recordingCapability({ entityResolver: confirmAfterChoice });
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(plan({ steps: [step("s1", "database", "delete_task")] }));
    expect((await h.say("delete the call task")).text).toContain("Which one did you mean?");
    expect((await h.say("2")).text).toBe('Delete "t2"?');
    expect(await h.say("yes")).toMatchObject({ status: "completed", text: "did delete_task" });
    expect(db.executed.map(({ step, args }) => ({ step, args }))).toEqual([
      { step: "s1", args: { step: "s1", answers: [], taskId: "t2" } },
    ]);
  });

  const confirmOnly: EntityResolver = {
    capability: "database",
    resolve: () =>
      Promise.resolve({
        status: "confirm",
        question: "Delete all 7 tasks?",
        args: { taskIds: ["t1", "t2"] },
      }),
    applySelection: () => Promise.reject(new Error("not used")),
  };

  it("gives the executor the resolved ids it asked about, on yes", async () => {
    const db = recordingCapability({ entityResolver: confirmOnly });
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(plan({ steps: [step("s1", "database", "delete_all")] }));
    expect((await h.say("clear my tasks")).text).toBe("Delete all 7 tasks?");
    await h.say("כן");
    expect(db.executed.map(({ step, args }) => ({ step, args }))).toEqual([
      { step: "s1", args: { taskIds: ["t1", "t2"] } },
    ]);
  });

  it("executes nothing on no", async () => {
    const db = recordingCapability({ entityResolver: confirmOnly });
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(plan({ steps: [step("s1", "database", "delete_all")] }));
    await h.say("clear my tasks");
    expect(await h.say("no")).toMatchObject({ status: "completed", text: "OK, I won't do that." });
    expect(db.executed).toEqual([]);
  });

  it("never takes a late yes to an expired question as a new instruction", async () => {
    const db = recordingCapability();
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(
      plan({
        riskLevel: "high",
        clarificationQuestion: "Delete all 12 tasks?",
        steps: [step("s1", "database", "delete_all")],
      }),
    );
    await h.say("delete all my tasks");
    h.clock.advance(HITL_TTL_MS + 60_000);
    const reply = await h.say("yes");
    expect(reply).toMatchObject({
      status: "expired",
      text: "Your earlier question timed out, so I dropped it.\n\nI'm not waiting on a question right now — what would you like to do?",
    });
    expect(h.server!.requests.filter(isPlanner)).toHaveLength(1);
    expect(db.executed).toEqual([]);
  });

  it("keeps the question open when a resumed turn fails, so a retry resumes it", async () => {
    const db = recordingCapability();
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(plan({ riskLevel: "high", steps: [step("s1", "database", "delete_all")] }));
    await h.say("delete all", { whatsappMessageId: "wamid.q" });
    const push = h.memory.pushLatestAction.bind(h.memory);
    let fail = true;
    h.memory.pushLatestAction = (phone, action) =>
      fail ? ((fail = false), Promise.reject(new Error("store down"))) : push(phone, action);
    expect((await h.say("yes", { whatsappMessageId: "wamid.a" })).status).toBe("failed");
    expect(await h.say("yes", { whatsappMessageId: "wamid.a" })).toMatchObject({
      status: "completed",
      text: "did delete_all",
    });
  });

  it("answers a bare number right after a numbered list through the planner, not as a stale reply", async () => {
    h = await createHarness();
    await h.memory.load(PHONE);
    await h.memory.addAssistantMessage(PHONE, "Your lists:\n1. Groceries\n2. Work");
    h.server!.enqueue(plan({ intentType: "meta", steps: [step("s1", "meta", "describe_capabilities")] }));
    await h.say("2");
    const planned = h.server!.requests.filter(isPlanner);
    expect(planned).toHaveLength(1);
    expect(planned[0]!.body.messages.at(-1)!.content).toContain('[Item 2 of the list Memo sent: "Work"]');
  });

  it("returns failed instead of throwing when the database is gone", async () => {
    h = await createHarness();
    await h.db.close();
    const reply = await h.say("hello there");
    expect(reply).toMatchObject({
      status: "failed",
      text: "Something went wrong on my side. Please try again in a moment.",
    });
    h.db.close = () => Promise.resolve();
  });
});

describe("TurnBufferedSaver", () => {
  it("keeps writes of a checkpoint it has not stored yet in the buffer, not on disk", async () => {
    const db = await pgliteBackend.create({ migrated: false });
    try {
      const durable = await createCheckpointer("postgres", db.pool);
      const saver = new TurnBufferedSaver(durable);
      const config = {
        configurable: { thread_id: "972501112233", checkpoint_ns: "", checkpoint_id: "1ef-new" },
      };
      await saver.putWrites(config, [["__interrupt__", [{ value: "q" }]]], "task-1");
      const { rows } = await db.pool.query<{ n: string }>("SELECT count(*) AS n FROM checkpoint_writes");
      expect(Number(rows[0]!.n)).toBe(0);
    } finally {
      await db.close();
    }
  });
});
