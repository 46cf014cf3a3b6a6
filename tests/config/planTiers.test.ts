// PLAN_TIERS is validated at startup: a mistake names the variable and what is accepted, never the value.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/env.js";

function problemsOf(env: NodeJS.ProcessEnv): ConfigError["problems"] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const EVERYTHING = { calendar: true, gmail: true, database: true, secondBrain: true };

describe("PLAN_TIERS", () => {
  it("gives every tier everything and LLM_DAILY_BUDGET_USD when unset", () => {
    const { planTiers } = loadConfig({});
    for (const tier of ["free", "pro", "enterprise"] as const)
      expect(planTiers[tier]).toEqual({ capabilities: EVERYTHING, dailyBudgetUsd: null });
  });

  it("reads each tier's capabilities and budget; what is left out keeps everything", () => {
    const { planTiers } = loadConfig({
      PLAN_TIERS:
        '{"free": {"capabilities": ["database", "calendar"], "dailyBudgetUsd": 0.5}, "pro": {"dailyBudgetUsd": 0}}',
    });
    expect(planTiers.free).toEqual({
      capabilities: { calendar: true, gmail: false, database: true, secondBrain: false },
      dailyBudgetUsd: 0.5,
    });
    expect(planTiers.pro).toEqual({ capabilities: EVERYTHING, dailyBudgetUsd: 0 });
    expect(planTiers.enterprise).toEqual({ capabilities: EVERYTHING, dailyBudgetUsd: null });
  });

  it.each([
    ["not JSON", "{free: database}", "must be JSON"],
    ["an unknown tier", '{"gold": {}}', "tiers must be free, pro, enterprise"],
    [
      "an unknown capability",
      '{"free": {"capabilities": ["weather"]}}',
      "one of calendar, gmail, database, secondBrain",
    ],
    ["a negative budget", '{"free": {"dailyBudgetUsd": -1}}', "dailyBudgetUsd must be an amount in USD"],
    ["an unknown field", '{"free": {"budget": 1}}', "not budget"],
  ])("refuses %s, naming PLAN_TIERS", (_what, value, reason) => {
    const problems = problemsOf({ PLAN_TIERS: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.variable).toMatch(/^PLAN_TIERS/);
    expect(problems[0]!.reason).toContain(reason);
    expect(problems[0]!.reason).not.toContain(value);
  });
});
