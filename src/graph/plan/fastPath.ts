import type { PlannerOutput } from "../../types/index.js";

/**
 * "What can you do?" in its common English and Hebrew forms, the whole message: answered from the
 * capability list with no LLM call (and so also when no LLM is configured).
 */
const HELP = [
  /^(help|menu|\?|commands)$/,
  /^(what|which) (can|could) (you|memo) (do|help( me)? with)( for me)?$/,
  /^what (do|are) you (do|able to do|good for)$/,
  /^what are your (capabilities|features|skills)$/,
  /^how (can|do) (you|i use you|memo) help( me)?$/,
  /^(עזרה|תפריט|פקודות)$/,
  /^מה (אתה|את|את\/ה) (יודע|יודעת|יכול|יכולה) לעשות( בשבילי)?$/,
  /^מה (אפשר|ניתן) לעשות (איתך|פה|כאן)$/,
  /^(במה|איך) (אתה|את) (יכול|יכולה) לעזור( לי)?$/,
];

/** Lower case, trimmed, without surrounding punctuation or emoji. */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, "")
    .trim();
}

/** Whether the whole message asks what Memo can do. */
export function isHelpRequest(text: string): boolean {
  const normalized = normalize(text);
  if (normalized === "" && text.trim() === "?") return true;
  return HELP.some((pattern) => pattern.test(normalized));
}

/** The plan of a help request: one meta step, certain, harmless. */
export function helpPlan(): PlannerOutput {
  return {
    intentType: "meta",
    confidence: 1,
    riskLevel: "low",
    needsApproval: false,
    missingFields: [],
    plan: [
      {
        id: "A",
        capability: "meta",
        action: "describe_capabilities",
        constraints: {},
        changes: {},
        dependsOn: [],
      },
    ],
  };
}
