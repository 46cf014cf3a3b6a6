/** The capabilities the planner may choose for a plan step (spec 003). */
export const PLANNER_CAPABILITIES = [
  "calendar",
  "database",
  "gmail",
  "second-brain",
  "general",
  "meta",
] as const;

/**
 * Every capability a plan step can target: the planner's, and `household`, whose steps only code
 * plans (its questions: which invitation an "accept" means, whether to give a member a task).
 */
export const CAPABILITY_NAMES = [...PLANNER_CAPABILITIES, "household"] as const;

export type CapabilityName = (typeof CAPABILITY_NAMES)[number];

type IntentType = "operation" | "conversation" | "meta";
type RiskLevel = "low" | "medium" | "high";

/** One step of the planner's plan. */
export interface PlanStep {
  id: string;
  capability: CapabilityName;
  /** Semantic action, e.g. "create_task", "answer_question". */
  action: string;
  /** Search/filter constraints for finding entities. */
  constraints: Record<string, unknown>;
  /** Changes to apply, for mutations. */
  changes: Record<string, unknown>;
  /** Ids of steps that must finish first. */
  dependsOn: string[];
}

/** What the planner decided (spec 001 §3, camelCase). */
export interface PlannerOutput {
  intentType: IntentType;
  confidence: number;
  riskLevel: RiskLevel;
  needsApproval: boolean;
  missingFields: string[];
  plan: PlanStep[];
}
