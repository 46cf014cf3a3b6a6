import type { z } from "zod";
import type { LLMNode } from "../../types/llm.js";
import type { LLMUsage } from "../../types/llm.js";
import type { PlanStep, ResolverResult, TimeAnswerResume } from "../../types/index.js";
import { t } from "../../messages/index.js";
import type { CapabilityContext } from "../../types/capability.js";
import { buildResolverMessages, LOCAL_TIMES_ONLY } from "../../prompts/resolverMessagesPrompt.js";
import { compactArgs } from "./compactArgs.js";

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
  /** The question to ask before the operation can run (text, or a question read in code), or null when it can. */
  missing: (op: T, context: CapabilityContext) => string | CodeQuestion | null;
  /**
   * The operation with what the steps it depends on produced put in, in code (D13), before
   * `missing` is asked: e.g. "the day before it" read against the earlier step's time. Default: as is.
   */
  fromDependencies?: (op: T, context: CapabilityContext) => T;
}

/** A question whose answer code reads itself (D10), with the options it offers. */
export interface CodeQuestion {
  question: string;
  options?: string[];
  resume: TimeAnswerResume;
}

/**
 * An instant the model computed ("2026-03-06T07:00:00Z", "…+02:00"): D6 lets a model hand over
 * words or a local wall time only, so such an answer is refused, never stored as it is.
 */
const MODEL_INSTANT =
  /(?:\d{4}-\d{2}-\d{2}[t ])?\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:z|[+-]\d{2}:?\d{2})(?![\p{L}\p{N}])/iu;
/** Fields that carry the user's own words (a task's title may hold any text), not a time. */
const WORDS_FIELDS = new Set([
  "text",
  "newText",
  "title",
  "content",
  "body",
  "description",
  "query",
  "question",
]);

/** Whether any string inside a value carries an instant with Z or an offset. */
function carriesModelInstant(value: unknown): boolean {
  if (typeof value === "string") return MODEL_INSTANT.test(value);
  if (Array.isArray(value)) return value.some(carriesModelInstant);
  if (value && typeof value === "object")
    return Object.entries(value).some(([key, v]) => !WORDS_FIELDS.has(key) && carriesModelInstant(v));
  return false;
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
  const messages = buildResolverMessages(spec.system, step, context);
  const node = spec.node ?? "resolver:database";
  let { value, usage } = await context.llm.structured(node, spec.schema, messages, { name: spec.outputName });
  if (carriesModelInstant(value)) {
    // D6 in code: asked once more for words or a wall time; a second instant is not used at all.
    context.logger.warn({ resolver: spec.name, step: step.id }, "model handed over an instant; asked again");
    const retry = await context.llm.structured(
      node,
      spec.schema,
      [...messages, { role: "user", content: LOCAL_TIMES_ONLY }],
      {
        name: spec.outputName,
      },
    );
    value = retry.value;
    usage = sumUsage(usage, retry.usage);
    if (carriesModelInstant(value)) {
      context.logger.warn(
        { resolver: spec.name, step: step.id },
        "model handed over an instant twice; the user is asked",
      );
      return {
        stepId: step.id,
        type: "clarify",
        question: t(context.language, "askTimeAgain"),
        llmUsage: usage,
      };
    }
  }
  const compacted = compactArgs(value);
  const op = spec.fromDependencies ? spec.fromDependencies(compacted, context) : compacted;
  const question = spec.missing(op, context);
  if (question && typeof question !== "string") {
    return { stepId: step.id, type: "clarify", ...question, llmUsage: usage };
  }
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

/** Two calls' usage as one: tokens, cost and time added, the second call's model. */
function sumUsage(a: LLMUsage, b: LLMUsage): LLMUsage {
  return {
    ...b,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd + b.costUsd,
    durationMs: a.durationMs + b.durationMs,
  };
}
