// The HITL control plane and plan execution, through invokeMemoGraph.
import { afterEach, describe, expect, it } from "vitest";
import { recordingCapability, twoTasksResolver } from "../support/recordingCapability.js";
import { HITL_TTL_MS } from "../../src/types/index.js";
import type { EntityResolver } from "../../src/types/capability.js";
import { createHarness, isPlanner, PHONE, plan, step, type Harness } from "../support/memoHarness.js";

const LIST_QUESTION = { question: "Which list?", options: ["Groceries", "Work"] };

let h: Harness | undefined;
let restarted: Harness | undefined;
afterEach(async () => {
  await restarted?.close(false);
  await h?.close();
  h = restarted = undefined;
});

describe("answers to questions", () => {
  it("re-asks an invalid answer with an error prefix and the same hitlId, then acts on a valid one", async () => {
    const db = recordingCapability();
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(
      plan({
        riskLevel: "high",
        clarificationQuestion: "Delete all 12 tasks?",
        steps: [step("s1", "database", "delete_all_tasks")],
      }),
    );
    const asked = await h.say("delete all my tasks");
    expect(asked).toMatchObject({
      status: "waiting",
      text: "Delete all 12 tasks?",
      expectedInput: "yes_no",
      hitlId: "hitl-1",
    });
    expect(asked.options).toEqual([
      { id: "yes", label: "Yes" },
      { id: "no", label: "No" },
    ]);

    const again = await h.say("maybe later?");
    expect(again).toMatchObject({
      status: "waiting",
      text: "Please answer yes or no.\nDelete all 12 tasks?",
      hitlId: "hitl-1",
    });
    expect(db.executed).toHaveLength(0);

    const done = await h.say("כן");
    expect(done).toMatchObject({ status: "completed", text: "did delete_all_tasks" });
    expect(db.executed).toHaveLength(1);
  });

  it("does nothing when a confirmation is answered no", async () => {
    const db = recordingCapability();
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(plan({ needsApproval: true, steps: [step("s1", "database", "delete_all_tasks")] }));
    expect((await h.say("delete everything")).text).toBe("Should I go ahead?");
    expect(await h.say("no")).toMatchObject({ status: "completed", text: "OK, I won't do that." });
    expect(db.executed).toHaveLength(0);
  });

  it("takes a button tap by option id", async () => {
    const db = recordingCapability();
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(plan({ riskLevel: "high", steps: [step("s1", "database", "delete_all_tasks")] }));
    await h.say("delete all");
    expect(await h.say("Yes", { optionId: "yes" })).toMatchObject({ status: "completed" });
    expect(db.executed).toHaveLength(1);
  });

  it("gives up politely after three invalid answers", async () => {
    h = await createHarness({ capabilities: recordingCapability().register });
    h.server!.enqueue(plan({ riskLevel: "high", steps: [step("s1", "database", "delete_all_tasks")] }));
    await h.say("delete all");
    await h.say("hmm");
    await h.say("what?");
    expect(await h.say("I don't know")).toMatchObject({
      status: "completed",
      text: "Let's leave that for now. Tell me again whenever you're ready.",
    });
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
});

describe("expiry", () => {
  it("drops a question older than 5 minutes, says so, and handles the new message fresh", async () => {
    h = await createHarness();
    h.server!.enqueue(
      plan({
        confidence: 0.3,
        clarificationQuestion: "What do you mean?",
        steps: [step("s1", "general", "answer_question")],
      }),
    );
    expect((await h.say("the thing")).status).toBe("waiting");
    h.clock.advance(HITL_TTL_MS + 1000);
    h.server!.enqueue(plan({ intentType: "meta", steps: [step("s1", "meta", "describe_capabilities")] }));
    const reply = await h.say("tell me what you are good at");
    expect(reply.status).toBe("expired");
    expect(reply.text).toMatch(
      /^Your earlier question timed out, so I dropped it\.\n\nHere's what I can do for you:/,
    );
    // The new message was planned on its own, not as an answer.
    expect(h.server!.requests.filter(isPlanner)[1]!.body.messages.at(-1)!.content).not.toContain(
      "they answered",
    );
    expect(h.logs().some((l) => l.event === "HITL_EXPIRED")).toBe(true);
  });

  it("still accepts an answer just inside the 5 minutes", async () => {
    h = await createHarness();
    h.server!.enqueue(plan({ confidence: 0.3, steps: [step("s1", "general", "answer_question")] }));
    await h.say("the thing");
    h.clock.advance(HITL_TTL_MS - 1000);
    h.server!.enqueue(
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
      { text: "Here you go." },
    );
    expect(await h.say("the report")).toMatchObject({ status: "completed", text: "Here you go." });
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
});

describe("a restart while a question is open", () => {
  it("resumes the question from the database in a new graph instance", async () => {
    const db = recordingCapability({ ask: { s1: LIST_QUESTION } });
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(plan({ steps: [step("s1", "database", "add_item")] }));
    const asked = await h.say("add milk", { whatsappMessageId: "wamid.first" });
    expect(asked).toMatchObject({
      status: "waiting",
      text: "Which list?\n1. Groceries\n2. Work",
      expectedInput: "single_choice",
    });

    // A new process: new services, checkpointer and graph on the same database.
    const again = recordingCapability({ ask: { s1: LIST_QUESTION } });
    restarted = await createHarness({
      db: h.db,
      llm: h.server,
      clock: h.clock,
      capabilities: again.register,
    });
    const done = await restarted.say("1");
    expect(done).toMatchObject({ status: "completed", text: "did add_item" });
    expect(again.executed).toEqual([
      {
        step: "s1",
        functionName: "add_item",
        args: { step: "s1", answers: [["opt1"]] },
        operationId: "wamid.first:s1",
      },
    ]);
    // The trace id stayed the first message's, across the resume.
    expect(done.traceId).toBe("wamid.first");
    expect(restarted.memory.getRecentMessages(PHONE).map((m) => m.content)).toEqual([
      "add milk",
      "Which list?\n1. Groceries\n2. Work",
      "1",
      "did add_item",
    ]);
  });
});

describe("what reaches the database", () => {
  it("stores a paused question durably and nothing at all for a completed turn", async () => {
    h = await createHarness({ capabilities: recordingCapability().register });
    const query = h.db.pool.query.bind(h.db.pool);
    h.server!.enqueue(plan({ intentType: "meta", steps: [step("s1", "meta", "describe_capabilities")] }));
    const { rows: before } = await query<{ n: string }>("SELECT count(*) AS n FROM checkpoint_blobs");
    await h.say("tell me what you are good at");
    const { rows: after } = await query<{ n: string }>("SELECT count(*) AS n FROM checkpoint_blobs");
    expect(Number(after[0]!.n) - Number(before[0]!.n)).toBe(0);

    h.server!.enqueue(plan({ riskLevel: "high", steps: [step("s1", "database", "delete_all_tasks")] }));
    await h.say("delete all my tasks");
    const { rows: paused } = await query<{ n: string }>(
      "SELECT count(*) AS n FROM checkpoints WHERE thread_id = $1",
      [PHONE],
    );
    expect(Number(paused[0]!.n)).toBe(1);
    await h.say("yes");
    const { rows: done } = await query<{ n: string }>(
      "SELECT (SELECT count(*) FROM checkpoints WHERE thread_id = $1) + (SELECT count(*) FROM checkpoint_writes WHERE thread_id = $1) + (SELECT count(*) FROM checkpoint_blobs WHERE thread_id = $1) AS n",
      [PHONE],
    );
    expect(Number(done[0]!.n)).toBe(0);
  });

  it("counts invalid answers across a restart", async () => {
    h = await createHarness({ capabilities: recordingCapability().register });
    h.server!.enqueue(plan({ riskLevel: "high", steps: [step("s1", "database", "delete_all_tasks")] }));
    await h.say("delete all");
    expect((await h.say("hmm")).text).toBe("Please answer yes or no.\nShould I go ahead?");
    restarted = await createHarness({
      db: h.db,
      llm: h.server,
      clock: h.clock,
      capabilities: recordingCapability().register,
    });
    expect((await restarted.say("what?")).status).toBe("waiting");
    expect(await restarted.say("no idea")).toMatchObject({
      status: "completed",
      text: "Let's leave that for now. Tell me again whenever you're ready.",
    });
  });
});

describe("plan execution", () => {
  it("does not re-run an executor on resume", async () => {
    const db = recordingCapability({ ask: { s2: LIST_QUESTION } });
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(
      plan({
        steps: [
          step("s1", "database", "create_list"),
          step("s2", "database", "add_item", { dependsOn: ["s1"] }),
        ],
      }),
    );
    expect((await h.say("make a list and add milk")).status).toBe("waiting");
    expect(db.executed.map((e) => e.functionName)).toEqual(["create_list"]);
    expect(await h.say("Groceries")).toMatchObject({
      status: "completed",
      text: "did create_list\n\ndid add_item",
    });
    expect(db.executed.map((e) => e.functionName)).toEqual(["create_list", "add_item"]);
    // Both successes became latest actions, newest first.
    expect(h.memory.getLatestActions(PHONE).map((a) => a.summary)).toEqual(["add_item s2", "create_list s1"]);
  });

  it("resolves independent steps in parallel and makes a dependent step wait", async () => {
    const db = recordingCapability({ delays: { s1: 150, s2: 150 } });
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(
      plan({
        steps: [
          step("s1", "database", "a"),
          step("s2", "database", "b"),
          step("s3", "database", "c", { dependsOn: ["s1", "s2"] }),
        ],
      }),
    );
    await h.say("do a and b, then c");
    const at = (e: string) => db.events.indexOf(e);
    // Both started before either ended: in parallel.
    expect(at("resolve:s2:start")).toBeLessThan(at("resolve:s1:end"));
    // s3 resolved only after s1 and s2 were executed.
    expect(at("resolve:s3:start")).toBeGreaterThan(at("execute:s1"));
    expect(at("resolve:s3:start")).toBeGreaterThan(at("execute:s2"));
  });

  it("answers a plan whose steps depend on each other in a cycle with an error, not a hang", async () => {
    h = await createHarness({ capabilities: recordingCapability().register });
    h.server!.enqueue(
      plan({
        steps: [
          step("s1", "database", "a", { dependsOn: ["s2"] }),
          step("s2", "database", "b", { dependsOn: ["s1"] }),
        ],
      }),
    );
    expect(await h.say("do a after b and b after a")).toMatchObject({
      status: "completed",
      text: "Something went wrong on my side. Please try again in a moment.",
    });
  });

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
});

describe("disambiguation", () => {
  const twoTasks = twoTasksResolver();

  it.each([
    ["2", undefined],
    ["call the bank (tomorrow 09:00)", undefined],
    ["Call the bank", "t2"],
  ])("asks which one and applies the choice %s", async (answer, optionId) => {
    const db = recordingCapability({ entityResolver: twoTasks });
    h = await createHarness({ capabilities: db.register });
    h.server!.enqueue(plan({ steps: [step("s1", "database", "complete_task")] }));
    const asked = await h.say("done with call");
    expect(asked).toMatchObject({
      status: "waiting",
      text: "I found several tasks. Which one did you mean?\n1. Call mom (today 18:00)\n2. Call the bank (tomorrow 09:00)",
      expectedInput: "single_choice",
    });
    expect((await h.pausedState()).disambiguation).toMatchObject({ stepId: "s1", resolved: false });
    await h.say(answer, optionId ? { optionId } : {});
    expect(db.executed[0]!.args).toMatchObject({ taskId: "t2" });
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
});

describe("LLM faults", () => {
  it("replies politely when the planner times out", async () => {
    h = await createHarness({ env: { LLM_TIMEOUT_MS: "300", LLM_FALLBACK_MODEL: "gpt-4o" } });
    h.server!.on(() => true, { hang: true });
    const reply = await h.say("plan my week");
    expect(reply).toMatchObject({
      status: "completed",
      text: "I'm having trouble thinking right now. Please try again in a minute.",
    });
  });

  it("retries a 429 and then answers", async () => {
    h = await createHarness({ env: { LLM_MAX_RETRIES: "1" } });
    h.server!.enqueue(
      { status: 429 },
      plan({ intentType: "meta", steps: [step("s1", "meta", "describe_capabilities")] }),
    );
    expect((await h.say("tell me what you are good at")).text).toContain("Here's what I can do");
  });

  it("falls back to another model when the answer is not valid JSON", async () => {
    h = await createHarness();
    h.server!.enqueue(
      { rawContent: "{not json" },
      plan({ intentType: "meta", steps: [step("s1", "meta", "describe_capabilities")] }),
    );
    expect((await h.say("tell me what you are good at")).text).toContain("Here's what I can do");
    expect(h.server!.requests.map((r) => r.body.model)).toEqual(["gpt-4o-mini", "gpt-4o"]);
  });

  it("replies politely when the general answer fails, and the thread is cleared", async () => {
    h = await createHarness();
    h.server!.on(
      isPlanner,
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
    );
    h.server!.on(() => true, { status: 500 });
    expect((await h.say("tell me a joke")).text).toBe(
      "I'm having trouble thinking right now. Please try again in a minute.",
    );
    expect((await h.graph.getState({ configurable: { thread_id: PHONE } })).values).toEqual({});
  });
});
