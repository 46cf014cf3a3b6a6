import { z } from "zod";
import type { CapabilityName } from "../types/plan.js";
import type { CapabilityFlags, PlanTier, User } from "../types/user.js";

/** The capabilities a plan can grant or withhold, by the names of spec 003's CapabilityAccess. */
const PLAN_CAPABILITIES = [
  "calendar",
  "gmail",
  "database",
  "secondBrain",
] as const satisfies readonly (keyof CapabilityFlags)[];

const TIERS = ["free", "pro", "enterprise"] as const satisfies readonly PlanTier[];

/** What one tier gives its users. */
interface TierPlan {
  /** The capabilities of the tier; the others are refused with "not in your plan". */
  capabilities: CapabilityFlags;
  /** USD its users' LLM calls may cost per local day (0: no limit); null: LLM_DAILY_BUDGET_USD. */
  dailyBudgetUsd: number | null;
}

/** Every tier's plan (PLAN_TIERS). */
export type PlanTiers = Record<PlanTier, TierPlan>;

const EVERYTHING: CapabilityFlags = { calendar: true, gmail: true, database: true, secondBrain: true };

/** The shipped configuration: every tier gets every capability and LLM_DAILY_BUDGET_USD. */
export const ALL_IN_EVERY_TIER: PlanTiers = {
  free: { capabilities: EVERYTHING, dailyBudgetUsd: null },
  pro: { capabilities: EVERYTHING, dailyBudgetUsd: null },
  enterprise: { capabilities: EVERYTHING, dailyBudgetUsd: null },
};

const capabilityList = `one of ${PLAN_CAPABILITIES.join(", ")}`;

/** One tier as PLAN_TIERS writes it: `{"capabilities": ["database", "calendar"], "dailyBudgetUsd": 0.5}`. */
const TierSchema = z.strictObject(
  {
    /** The capabilities the tier includes (default: all of them). */
    capabilities: z
      .array(z.enum(PLAN_CAPABILITIES, { error: `each capability must be ${capabilityList}` }))
      .optional(),
    /** USD per user per local day, 0: no limit (default: LLM_DAILY_BUDGET_USD). */
    dailyBudgetUsd: z
      .number({ error: "dailyBudgetUsd must be an amount in USD such as 2 or 0.5 (0: no limit)" })
      .min(0, { error: "dailyBudgetUsd must be an amount in USD such as 2 or 0.5 (0: no limit)" })
      .max(10_000, { error: "dailyBudgetUsd must be an amount in USD such as 2 or 0.5 (0: no limit)" })
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `a tier has only capabilities and dailyBudgetUsd, not ${issue.keys.join(", ")}`
        : 'each tier must be an object such as {"capabilities": ["database"], "dailyBudgetUsd": 0.5}',
  },
);

/** PLAN_TIERS: an object keyed by tier; a tier left out keeps everything. */
export const PlanTiersSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({
        code: "custom",
        message: 'must be JSON such as {"free": {"capabilities": ["database"]}}',
      });
      return z.NEVER;
    }
  })
  .pipe(
    z.strictObject(
      { free: TierSchema.optional(), pro: TierSchema.optional(), enterprise: TierSchema.optional() },
      {
        error: (issue) =>
          issue.code === "unrecognized_keys"
            ? `tiers must be ${TIERS.join(", ")}, not ${issue.keys.join(", ")}`
            : 'must be a JSON object keyed by tier such as {"free": {"capabilities": ["database"]}}',
      },
    ),
  )
  .transform((tiers): PlanTiers => {
    const plan = (tier: PlanTier): TierPlan => {
      const given = tiers[tier];
      if (!given) return ALL_IN_EVERY_TIER[tier];
      const included = given.capabilities ? new Set(given.capabilities) : null;
      return {
        capabilities: {
          calendar: included?.has("calendar") ?? true,
          gmail: included?.has("gmail") ?? true,
          database: included?.has("database") ?? true,
          secondBrain: included?.has("secondBrain") ?? true,
        },
        dailyBudgetUsd: given.dailyBudgetUsd ?? null,
      };
    };
    return { free: plan("free"), pro: plan("pro"), enterprise: plan("enterprise") };
  });

/**
 * What the user may use (spec 003: "based on tier + connections"): what their tier includes, and
 * what their own row allows (an operator may turn a capability off for one user), and Gmail only
 * once Google is connected.
 */
export function capabilityAccess(tiers: PlanTiers, user: User): CapabilityFlags {
  const tier = tiers[user.planTier].capabilities;
  const own = user.capabilities;
  return {
    calendar: tier.calendar && own.calendar,
    gmail: tier.gmail && own.gmail && user.googleConnected,
    database: tier.database && own.database,
    secondBrain: tier.secondBrain && own.secondBrain,
  };
}

/** The plan flag a capability needs, where one applies (general and meta are in every tier). */
const FLAG: Partial<Record<CapabilityName, keyof CapabilityFlags>> = {
  calendar: "calendar",
  gmail: "gmail",
  database: "database",
  "second-brain": "secondBrain",
};

/** Whether the tier includes the capability: what capability_check refuses and help leaves out. */
export function tierIncludes(tiers: PlanTiers, tier: PlanTier, capability: CapabilityName): boolean {
  const flag = FLAG[capability];
  return !flag || tiers[tier].capabilities[flag];
}

/** Whether the user's own row allows the capability (an operator turned it off for them, or not). */
export function userAllows(flags: CapabilityFlags, capability: CapabilityName): boolean {
  const flag = FLAG[capability];
  return !flag || flags[flag];
}
