// Plan tiers (PLAN_TIERS): what a user's tier (users.plan_tier) includes decides which capabilities
// they may use and what their LLM calls may cost a day. A step outside the tier gets a clear reply
// naming the capability, in the user's language; the rest keeps working. Unset, every tier has
// everything.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENERAL_PLAN, echoReply } from "../support/whatsappHarness.js";
import { createHarness, isPlanner, type Harness } from "../support/memoHarness.js";
import { ScriptedOpenAI } from "../support/scriptedOpenAI.js";
import type { User } from "../../src/types/user.js";

const TIERS = {
  // The free tier: tasks and notes only, and a tiny allowance (one planner call spends it).
  free: { capabilities: ["database", "secondBrain"], dailyBudgetUsd: 0.0001 },
  // Pro: everything, with no daily limit although LLM_DAILY_BUDGET_USD sets one.
  pro: { dailyBudgetUsd: 0 },
  // enterprise left out: everything, and LLM_DAILY_BUDGET_USD.
};

describe("plan tiers", () => {
  let llm: ScriptedOpenAI;
  let memo: Harness;
  let phones = 0;
  /** A user of their own for each test, on `tier`. */
  const user = async (tier: User["planTier"]) => {
    const phone = `97250222${String(++phones).padStart(4, "0")}`;
    await memo.users.getOrCreate(phone, { planTier: tier });
    return { phone, say: (text: string) => memo.runtime.invokeMemoGraph(phone, text) };
  };
  const plannerCalls = () => llm.requests.filter(isPlanner).length;

  beforeAll(async () => {
    llm = await ScriptedOpenAI.start();
    llm.on(isPlanner, { json: GENERAL_PLAN });
    llm.on((req) => !isPlanner(req), echoReply);
    memo = await createHarness({
      llm,
      env: { PLAN_TIERS: JSON.stringify(TIERS), LLM_DAILY_BUDGET_USD: "0.0001", FAST_PATH: "on" },
    });
  });

  afterAll(async () => {
    await memo.close();
    await llm.close();
  });

  it("refuses a capability outside the user's tier, naming it, while the others work (English)", async () => {
    const alice = await user("free");
    const calendar = await alice.say("my calendar tomorrow");
    expect(calendar.text).toBe(
      "Sorry, your plan doesn't include your calendar, so I can't do that. Anything else, just ask.",
    );
    // Tasks are in the free tier: the same user adds and lists them.
    expect((await alice.say("add task buy milk")).text.toLowerCase()).toContain("buy milk");
    expect((await alice.say("my tasks")).text.toLowerCase()).toContain("buy milk");
    const { rows } = await memo.db.pool.query("SELECT 1 FROM calendar_events WHERE user_phone = $1", [
      alice.phone,
    ]);
    expect(rows).toHaveLength(0);
    const blocked = memo.logs().find((l) => l.msg === "step blocked" && l.capability === "calendar");
    expect(blocked).toMatchObject({ reason: "not_in_plan", planTier: "free" });
  });

  it("refuses it in Hebrew too, and lets a higher tier use it", async () => {
    const dana = await user("free");
    const refused = await dana.say("מה יש לי ביומן מחר");
    expect(refused.text).toContain("השימוש ביומן לא כלול בתוכנית שלך");
    expect((await dana.say("הוסף משימה לקנות חלב")).text).toContain("לקנות חלב");

    const pro = await user("pro");
    const shown = await pro.say("מה יש לי ביומן מחר");
    expect(shown.text).not.toContain("לא כלול בתוכנית");
    expect(shown.text).toContain("מחר");
  });

  it("help lists only what the user's tier includes, in both languages", async () => {
    const free = await user("free");
    const help = (await free.say("what can you do?")).text;
    expect(help).toContain("*Tasks");
    expect(help).not.toContain("*Calendar*");
    expect(help).not.toContain("*Email*");
    const freeHe = (await free.say("מה אתה יודע לעשות?")).text;
    expect(freeHe).not.toContain("*יומן*");

    const pro = await user("pro");
    const everything = (await pro.say("what can you do?")).text;
    expect(everything).toContain("*Calendar*");
  });

  it("applies the tier's own daily LLM budget", async () => {
    const before = plannerCalls();
    // Free: 0.0001 USD, spent by the first turn's planner call; then the allowance message.
    const free = await user("free");
    expect((await free.say("what's the capital of France?")).text).toContain("echo:");
    expect((await free.say("and of Italy?")).text).toContain("today's allowance");
    // Pro: no limit of its own (0), although LLM_DAILY_BUDGET_USD is as small as free's.
    const pro = await user("pro");
    for (const question of ["one?", "two?", "three?"])
      expect((await pro.say(question)).text).toContain("echo:");
    // Enterprise is not configured: LLM_DAILY_BUDGET_USD applies.
    const enterprise = await user("enterprise");
    expect((await enterprise.say("one?")).text).toContain("echo:");
    expect((await enterprise.say("two?")).text).toContain("today's allowance");
    expect(plannerCalls()).toBe(before + 1 + 3 + 1);
  });
});

describe("with PLAN_TIERS unset", () => {
  it("gives the free tier (every user's default) every capability", async () => {
    const memo = await createHarness({ llm: "none", env: { FAST_PATH: "on" } });
    try {
      const me = await memo.users.getOrCreate("972502220999");
      expect(me.planTier).toBe("free");
      const say = (text: string) => memo.runtime.invokeMemoGraph(me.phone, text);
      expect((await say("my calendar tomorrow")).text).not.toContain("plan");
      expect((await say("add task buy milk")).text.toLowerCase()).toContain("buy milk");
      expect((await say("מה יש לי ביומן מחר")).text).not.toContain("תוכנית");
      expect(memo.logs().some((l) => l.msg === "step blocked")).toBe(false);
    } finally {
      await memo.close();
    }
  });
});
