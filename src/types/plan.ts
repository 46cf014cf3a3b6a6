/** The capabilities a plan step can target (spec 003). */
export type CapabilityName = "calendar" | "database" | "gmail" | "second-brain" | "general" | "meta";

export const CAPABILITY_NAMES = ["calendar", "database", "gmail", "second-brain", "general", "meta"] as const;

export type IntentType = "operation" | "conversation" | "meta";
export type RiskLevel = "low" | "medium" | "high";

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
