import { z } from "zod";
import type { CapabilityContext } from "../types/capability.js";
import type { PlanStep } from "../types/index.js";
import type { LLMMessage } from "../types/llm.js";
import { humanTime } from "../utils/timeContext.js";
import { recentConversation } from "./conversationContext.js";

/**
 * The per-step message of a capability resolver: language, latest actions as "@N" handles, the
 * conversation (numbered listings included, so "#N" can be named), the time, earlier steps, the
 * plan step, the user's message and any answers to questions asked this turn. The static system
 * prompt goes first; what a user's consecutive turns share comes next, so a provider's prefix
 * cache serves it, and the time, which changes every turn, only after it.
 */
export function buildResolverMessages(
  system: string,
  step: PlanStep,
  context: CapabilityContext,
): LLMMessage[] {
  const { state } = context;
  // Times in the user's zone and words, never a UTC instant the model might do arithmetic on (D6).
  const when = (iso: string) => humanTime(iso, context.now, state.user.timezone, context.language);
  const sections = [`User's language: ${context.language === "he" ? "Hebrew" : "English"}`];
  if (state.latestActions.length > 0) {
    sections.push(
      `## Latest actions (most recent first; name them "@N")\n${state.latestActions
        .map(
          (a, i) =>
            `@${i + 1} ${a.capability}.${a.action}: ${a.summary}${a.when ? ` (${when(a.when)})` : ""}`,
        )
        .join("\n")}`,
    );
  }
  const history = recentConversation(state.recentMessages);
  if (history.length > 0) sections.push(`## Recent conversation\n${history.join("\n")}`);
  sections.push(state.now.formatted);
  if (context.dependencies.length > 0) {
    // What earlier steps produced is data for this step, shown as summaries; ids stay in code.
    sections.push(
      `## Earlier steps of this message (done just now, nearest first)\n${context.dependencies
        .map((d) => `${d.stepId} ${d.functionName}: ${d.summary}${d.when ? ` (${when(d.when)})` : ""}`)
        .join(
          "\n",
        )}\nThis step depends on them: "it", "them", "there", "that one" or nothing named mean what they produced; then set "fromStep" to that step's id and leave its name out. A name the user gives for something else stays that name.`,
    );
  }
  sections.push(
    `## Plan step\nid: ${step.id}\naction: ${step.action}\nconstraints: ${JSON.stringify(step.constraints)}\nchanges: ${JSON.stringify(step.changes)}${
      step.dependsOn.length > 0 ? `\ndependsOn: ${JSON.stringify(step.dependsOn)}` : ""
    }`,
  );
  sections.push(`## User message\n${state.input.enhancedMessage ?? state.input.message}`);
  const answered = context.answers.filter((a) => a.reason === "resolver_clarify");
  if (answered.length > 0) {
    sections.push(`## Memo asked, and the user answered\n${answered.map((a) => a.raw).join("\n")}`);
  }
  return [
    { role: "system", content: system },
    { role: "user", content: sections.join("\n\n") },
  ];
}

/**
 * The field of every operation resolver's answer that points at an earlier step of this message
 * (D13): code then acts on exactly what that step produced, never on words searched again.
 */
export const FROM_STEP_FIELD = {
  fromStep: z
    .string()
    .nullish()
    .describe(
      'The id of an earlier step of this message whose result this step acts on ("it", "them", "there", "that one"); null otherwise',
    ),
};

/** The note sent back to a model that handed over an instant: once, then the user is asked. */
export const LOCAL_TIMES_ONLY =
  'Your answer contained an instant with Z or a UTC offset. Never compute instants: give times as the user\'s own words or a local wall time without a zone (for example "tomorrow at 9" or "2026-03-06T09:00"). Answer again.';
