// The per-user daily LLM budget: once a user's calls cost the day's allowance, Memo answers only
// fast-path commands and says why, in the user's language, and the allowance renews at their midnight.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENERAL_PLAN, echoReply } from "../support/whatsappHarness.js";
import { createHarness, isPlanner, type Harness } from "../support/memoHarness.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";

describe("the daily LLM budget", () => {
  let llm: ScriptedOpenAI;
  let memo: Harness;
  let phones = 0;
  /** A user of their own for each test. */
  const user = () => {
    const phone = `97250111${String(++phones).padStart(4, "0")}`;
    return { phone, say: (text: string) => memo.runtime.invokeMemoGraph(phone, text) };
  };
  const plannerCalls = () => llm.requests.filter(isPlanner).length;

  beforeAll(async () => {
    llm = await ScriptedOpenAI.start();
    llm.on(isPlanner, { json: GENERAL_PLAN });
    llm.on((req) => !isPlanner(req), echoReply);
    // One planner call (a few thousand tokens of gpt-4o-mini) costs more than this.
    memo = await createHarness({ llm, env: { LLM_DAILY_BUDGET_USD: "0.0001", FAST_PATH: "on" } });
  });

  afterAll(async () => {
    await memo.close();
    await llm.close();
  });

  it("lets the turn that crosses the budget finish, then explains and calls no model", async () => {
    const alice = user();
    const before = plannerCalls();
    const first = await alice.say("what's the capital of France?");
    // The turn started within the budget, so its resolver ran although the planner crossed it.
    expect(first.text).toContain("echo:");
    expect(plannerCalls()).toBe(before + 1);

    // The ledger is written beside the turn, not inside it.
    const usage = async () =>
      (
        await memo.db.pool.query<{ calls: number; cost_usd: number }>(
          "SELECT calls, cost_usd FROM llm_usage_daily WHERE user_phone = $1",
          [alice.phone],
        )
      ).rows[0];
    await expect.poll(async () => (await usage())?.calls).toBe(2);
    expect((await usage())!.cost_usd).toBeGreaterThan(0.0001);

    const second = await alice.say("and of Italy?");
    expect(second.text).toContain("today's allowance");
    expect(second.text).toContain('"my tasks"');
    expect(plannerCalls()).toBe(before + 1);

    // Hebrew gets the Hebrew explanation.
    const hebrew = await alice.say("מה הבירה של איטליה?");
    expect(hebrew.text).toContain("למכסה היומית");
    expect(plannerCalls()).toBe(before + 1);
  });

  it("still runs fast-path commands, which need no model", async () => {
    const bob = user();
    await bob.say("what's the capital of France?");
    const before = plannerCalls();
    const reminder = await bob.say("remind me tomorrow at 9 to call mom");
    expect(reminder.text.toLowerCase()).toContain("call mom");
    const tasks = await bob.say("my tasks");
    expect(tasks.text.toLowerCase()).toContain("call mom");
    expect((await bob.say("tell me a joke")).text).toContain("today's allowance");
    expect(plannerCalls()).toBe(before);
  });

  it("is one user's: another user's turns are not held back", async () => {
    const carol = user();
    const dan = user();
    await carol.say("what's the capital of France?");
    expect((await carol.say("and Peru?")).text).toContain("today's allowance");
    expect((await dan.say("what's the capital of Peru?")).text).toContain("echo:");
  });

  it("renews at the user's midnight", async () => {
    const erin = user();
    await erin.say("what's the capital of France?");
    expect((await erin.say("and of Italy?")).text).toContain("today's allowance");
    // 10:00Z is noon in Jerusalem; 22:05Z is five past midnight there, still the same UTC day.
    memo.clock.advance(12 * 60 * 60 * 1000 + 5 * 60 * 1000);
    const nextDay = await erin.say("and of Spain?");
    expect(nextDay.text).toContain("echo:");
  });
});

describe("with no limit (LLM_DAILY_BUDGET_USD=0)", () => {
  it("never refuses", async () => {
    const llm = await ScriptedOpenAI.start();
    llm.on(isPlanner, { json: GENERAL_PLAN });
    llm.on((req) => !isPlanner(req), echoReply);
    const memo = await createHarness({ llm, env: { LLM_DAILY_BUDGET_USD: "0" } });
    try {
      for (const question of ["one?", "two?", "three?"])
        expect((await memo.say(question)).text).toContain("echo:");
    } finally {
      await memo.close();
      await llm.close();
    }
  });
});
