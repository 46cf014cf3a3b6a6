import type { z } from "zod";
import type { LLMNode } from "../../config/llm-config.js";
import type { LLMMessage } from "../../services/llm/index.js";
import type { PlanStep, ResolverResult } from "../../types/index.js";
import { humanTime } from "../../utils/timeContext.js";
import type { CapabilityContext } from "../registry.js";
import { compactArgs } from "./compactArgs.js";

/**
 * The per-step message of a capability resolver: time, language, latest actions as "@N" handles,
 * the conversation (numbered listings included, so "#N" can be named), the plan step, the user's
 * message and any answers to questions asked this turn. The static system prompt goes first.
 */
export function buildResolverMessages(
  system: string,
  step: PlanStep,
  context: CapabilityContext,
): LLMMessage[] {
  const { state } = context;
  // Times in the user's zone and words, never a UTC instant the model might do arithmetic on (D6).
  const when = (iso: string) => humanTime(iso, context.now, state.user.timezone, context.language);
  const sections = [
    state.now.formatted,
    `User's language: ${context.language === "he" ? "Hebrew" : "English"}`,
  ];
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
  // "forget that…" and its reply repeat what was forgotten: never shown to a model.
  const history = state.recentMessages.slice(0, -1).filter((m) => !m.metadata?.memoryCommand);
  if (history.length > 0) {
    sections.push(`## Recent conversation\n${history.map((m) => `${m.role}: ${m.content}`).join("\n")}`);
  }
  sections.push(
    `## Plan step\naction: ${step.action}\nconstraints: ${JSON.stringify(step.constraints)}\nchanges: ${JSON.stringify(step.changes)}`,
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

/** How one operation resolver reads the LLM's answer: its prompt, schema, and what must be asked. */
export interface OperationResolverSpec<T extends { operation: string; question?: string | null }> {
  /** Name in errors and logs, e.g. "DatabaseTaskResolver". */
  name: string;
  system: string;
  schema: z.ZodType<T>;
  /** The structured output's name for the model, e.g. "task_operation". */
  outputName: string;
  /** The LLM node the call is made and counted as (default: "resolver:database"). */
  node?: LLMNode;
  /** The executor's function prefix: "tasks" gives "tasks.create". */
  prefix: string;
  /** The question to ask before the operation can run, or null when it can. */
  missing: (op: T, context: CapabilityContext) => string | null;
}

/**
 * The shared way of a capability's operation resolvers: one structured LLM call on the step,
 * empty fields dropped, then code decides whether to ask (the model's own wording preferred)
 * or hands the operation to entity resolution.
 */
export async function resolveOperation<T extends { operation: string; question?: string | null }>(
  spec: OperationResolverSpec<T>,
  step: PlanStep,
  context: CapabilityContext,
): Promise<ResolverResult> {
  if (!context.llm) throw new Error(`${spec.name} needs an LLM`);
  const { value, usage } = await context.llm.structured(
    spec.node ?? "resolver:database",
    spec.schema,
    buildResolverMessages(spec.system, step, context),
    { name: spec.outputName },
  );
  const op = compactArgs(value);
  const question = spec.missing(op, context);
  if (question) {
    return { stepId: step.id, type: "clarify", question: op.question?.trim() || question, llmUsage: usage };
  }
  return {
    stepId: step.id,
    type: "execute",
    functionName: `${spec.prefix}.${op.operation}`,
    args: op,
    llmUsage: usage,
  };
}
