// Conversations through invokeMemoGraph: the real graph, PostgresSaver on PGlite, real memory,
// and the real ChatOpenAI client talking to a scripted OpenAI-compatible server.
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, isPlanner, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { lastUserMessageOf } from "../support/scriptedOpenAI.js";

let h: Harness;
afterEach(async () => h?.close());

/** Rows of the user's thread in the checkpointer's tables. */
async function checkpointRows(harness: Harness): Promise<number> {
  const { rows } = await harness.db.pool.query<{ n: number }>(
    "SELECT (SELECT count(*) FROM checkpoints WHERE thread_id = $1) + (SELECT count(*) FROM checkpoint_writes WHERE thread_id = $1) AS n",
    [PHONE],
  );
  return Number(rows[0]!.n);
}

describe("meta and general questions", () => {
  it("answers 'what can you do' from the template, in English, with no LLM call", async () => {
    h = await createHarness();
    const reply = await h.say("What can you do?", { whatsappMessageId: "wamid.1" });
    expect(reply.status).toBe("completed");
    expect(reply.text).toContain("Here's what I can do for you:");
    expect(reply.text).toContain("*Questions*");
    expect(h.server!.requests).toHaveLength(0);
    expect(reply.traceId).toBe("wamid.1");
    // The turn is remembered, and its checkpoints are gone.
    expect(h.memory.getRecentMessages(PHONE).map((m) => [m.role, m.content.slice(0, 20)])).toEqual([
      ["user", "What can you do?"],
      ["assistant", "Here's what I can do"],
    ]);
    expect(await checkpointRows(h)).toBe(0);
  });

  it("answers the same question in Hebrew, and with no LLM configured at all", async () => {
    h = await createHarness({ llm: "none" });
    const reply = await h.say("מה אתה יודע לעשות?");
    expect(reply.text).toContain("הנה מה שאני יכול לעשות בשבילך:");
    expect((await h.users.get(PHONE))!.language).toBe("he");
    const help = (await h.say("help")).text;
    expect(help).toContain("Here's what I can do for you:");
    // Without a model, help offers the commands that work without one, never a model-only phrase.
    expect(help).toContain('"add milk, eggs to shopping list"');
    expect(help).not.toContain("every Sunday at 8:00");
    expect(help).not.toContain("wifi password?");
  });

  it("answers a bare greeting or thanks from a template, with no LLM, in the user's language", async () => {
    h = await createHarness({ llm: "none" });
    expect((await h.say("Hi!")).text).toBe("Hi! What can I do for you?");
    expect((await h.say("thanks memo")).text).toBe("You're welcome! 😊");
    expect((await h.say("תודה רבה")).text).toBe("בשמחה! 😊");
    expect((await h.say("בוקר טוב")).text).toBe("היי! במה אפשר לעזור?");
    // Only the whole message: a greeting with a request goes to the planner.
    expect((await h.say("hi, remind me to call mom")).text).toContain(
      "Without a language model I understand commands like these",
    );
  });

  it("describes itself when the planner picks meta for other words", async () => {
    h = await createHarness();
    h.server!.enqueue(plan({ intentType: "meta", steps: [step("s1", "meta", "describe_capabilities")] }));
    const reply = await h.say("tell me what you are good at");
    expect(reply.text).toContain("Here's what I can do for you:");
    expect(h.server!.requests).toHaveLength(1);
  });

  it("answers a general question with the LLM's words, planner first then the general resolver", async () => {
    h = await createHarness();
    h.server!.on(
      isPlanner,
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
    );
    h.server!.enqueue({ text: "Paris is the capital of France." });
    const reply = await h.say("What's the capital of France?");
    expect(reply).toMatchObject({ status: "completed", text: "Paris is the capital of France." });
    expect(h.server!.requests).toHaveLength(2);
    expect(lastUserMessageOf(h.server!.requests[1]!)).toContain("What's the capital of France?");
    const turn = h.logs().find((l) => l.event === "turn");
    expect(turn).toMatchObject({ status: "completed", llmCalls: 2 });
    expect(Object.keys(turn!.byNode as object).sort()).toEqual(["planner", "resolver:general"]);
  });

  it("puts recent messages and latest actions in the planner's prompt, the static system prompt first", async () => {
    h = await createHarness();
    h.server!.on(
      isPlanner,
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
    );
    h.server!.enqueue({ text: "Hi Dana!" }, { text: "Sure." });
    await h.say("Hi, I'm Dana");
    await h.memory.pushLatestAction(PHONE, {
      createdAt: h.clock.now(),
      capability: "database",
      action: "createTask",
      summary: 'task "call mom"',
    });
    await h.say("Can you help me?");
    const second = h.server!.requests.filter(isPlanner)[1]!;
    expect(second.body.messages[0]!.role).toBe("system");
    const prompt = lastUserMessageOf(second)!;
    expect(prompt).toContain(
      "[Current time: Thursday, 05/03/2026 12:00 (2026-03-05T10:00:00.000Z), Timezone: Asia/Jerusalem]",
    );
    expect(prompt).toContain("user: Hi, I'm Dana");
    expect(prompt).toContain("assistant: Hi Dana!");
    expect(prompt).toContain('database.createTask: task "call mom"');
    expect(prompt).toContain("## User message\nCan you help me?");
    // What the user's next turn shares comes before the time, which is new each turn (prefix cache).
    const at = (text: string) => prompt.indexOf(text);
    expect(at('database.createTask: task "call mom"')).toBeLessThan(at("assistant: Hi Dana!"));
    expect(at("assistant: Hi Dana!")).toBeLessThan(at("[Current time:"));
    expect(at("[Current time:")).toBeLessThan(at("## User message"));
  });
});

describe("clarification", () => {
  it("asks when unsure, then re-plans with the answer and replies", async () => {
    h = await createHarness();
    h.server!.enqueue(
      plan({
        confidence: 0.4,
        clarificationQuestion: "Do you want a reminder or a calendar event?",
        steps: [step("s1", "general", "answer_question")],
      }),
    );
    const asked = await h.say("tomorrow dentist");
    expect(asked).toMatchObject({
      status: "waiting",
      text: "Do you want a reminder or a calendar event?",
      options: [],
      expectedInput: "free_text",
      hitlId: "hitl-1",
    });
    const paused = await h.pausedState();
    expect(paused.pendingHITL).toMatchObject({
      hitlId: "hitl-1",
      kind: "clarification",
      reason: "intent_unclear",
      returnTo: { node: "planner", mode: "replan" },
    });

    h.server!.enqueue(
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
      { text: "Got it: a reminder." },
    );
    const done = await h.say("a reminder please");
    expect(done).toMatchObject({ status: "completed", text: "Got it: a reminder." });
    const replan = lastUserMessageOf(h.server!.requests[1]!)!;
    expect(replan).toContain("## User message\ntomorrow dentist");
    expect(replan).toContain(
      "they answered\nMemo: Do you want a reminder or a calendar event?\nUser: a reminder please",
    );
    expect(await checkpointRows(h)).toBe(0);
  });

  it("asks for missing fields with a localized template when the planner gives no wording", async () => {
    h = await createHarness();
    h.server!.enqueue(plan({ missingFields: ["time"], steps: [step("s1", "general", "answer_question")] }));
    const asked = await h.say("תזכיר לי להתקשר לאמא");
    expect(asked).toMatchObject({ status: "waiting", text: "חסר לי עוד קצת מידע: time." });
  });
});

describe("without an LLM", () => {
  it("explains how to configure one, in the user's language, and keeps running", async () => {
    h = await createHarness({ llm: "none" });
    expect((await h.say("what's the weather like?")).text).toContain("OPENAI_API_KEY");
    expect((await h.say("מה שלומך?")).text).toContain("בלי מודל שפה אני מבין פקודות כמו");
  });
});

describe("stale replies", () => {
  it.each([
    ["yes", "I'm not waiting on a question right now — what would you like to do?"],
    ["כן", "אני לא מחכה לתשובה ממך כרגע — במה אפשר לעזור?"],
    ["2", "I'm not waiting on a question right now — what would you like to do?"],
  ])("answers %s when nothing is pending, with no LLM call", async (message, expected) => {
    h = await createHarness();
    const reply = await h.say(message);
    expect(reply).toMatchObject({ status: "completed", text: expected });
    expect(h.server!.requests).toHaveLength(0);
    expect(h.logs().some((l) => l.event === "HITL_STALE_REPLY")).toBe(true);
  });

  it("answers a bare number right after a numbered list through the planner, not as a stale reply", async () => {
    h = await createHarness();
    await h.memory.load(PHONE);
    await h.memory.addAssistantMessage(PHONE, "Your lists:\n1. Groceries\n2. Work");
    h.server!.enqueue(plan({ intentType: "meta", steps: [step("s1", "meta", "describe_capabilities")] }));
    await h.say("2");
    const planned = h.server!.requests.filter(isPlanner);
    expect(planned).toHaveLength(1);
    expect(planned[0]!.body.messages.at(-1)!.content).toContain(
      '2\n[added by Memo: Item 2 of the list Memo sent: "Work"]',
    );
  });
});

describe("capability check", () => {
  it("blocks Gmail for a user without Google with the connect message", async () => {
    h = await createHarness({
      capabilities: (r) =>
        r.register({
          capability: "gmail",
          resolvers: [
            {
              name: "FakeGmail",
              capability: "gmail",
              actions: [],
              resolve: () => Promise.reject(new Error("must not run")),
            },
          ],
          executor: {
            name: "FakeGmailExecutor",
            capability: "gmail",
            execute: () => Promise.reject(new Error("must not run")),
          },
        }),
    });
    h.server!.enqueue(plan({ steps: [step("s1", "gmail", "search_email")] }));
    const reply = await h.say("any new email from Dana?");
    expect(reply.text).toBe(
      'To use email I need access to your Google account. Say "connect Google" and I\'ll send you a link.',
    );
  });

  it("says a capability is not available instead of failing", async () => {
    h = await createHarness();
    // The user's plan does not include notes.
    await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    await h.users.update(PHONE, {
      capabilities: { calendar: true, gmail: true, database: true, secondBrain: false },
    });
    h.server!.enqueue(plan({ steps: [step("s1", "second-brain", "store_note")] }));
    expect((await h.say("תרשום פתק: הקוד של השער 1234")).text).toBe("אני עוד לא יכול לעזור עם פתקים.");
  });
});

describe("storage faults", () => {
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
