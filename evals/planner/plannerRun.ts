/**
 * Runs corpus items through the planner's real model call: the item's state, the planner's own
 * messages (buildPlannerMessages), `llm.structured("planner", PlannerSchema, …)` through Memo's
 * LLM service on an OpenAI-compatible server, and the planner node's normalizePlan. The plan is
 * scored before the code's plan policies (applyPlanPolicies), so the numbers are the model's.
 */
import { loadConfig } from "../../src/config/env.js";
import { normalizePlan } from "../../src/graph/nodes/plannerNode.js";
import { buildPlannerMessages, PlannerSchema } from "../../src/prompts/plannerPrompt.js";
import { createLLMService } from "../../src/services/llm/index.js";
import { classifyFailure } from "../../src/services/llm/llmError.js";
import type { LLMMessage, LLMService } from "../../src/types/llm.js";
import { mapWithConcurrency } from "../../src/utils/concurrency.js";
import { describeError } from "../../src/utils/errors.js";
import { createLogger } from "../../src/utils/logger.js";
import type { EvalModel } from "../suite.js";
import type { PlannerItem } from "./corpus.js";
import { scoreItem, type GotPlan, type ItemResult } from "./metrics.js";
import { plannerStateOf } from "./plannerState.js";

/** The planner's messages for an item, as the planner node sends them. */
export function plannerMessagesOf(item: PlannerItem): LLMMessage[] {
  return buildPlannerMessages(plannerStateOf(item));
}

/**
 * Memo's LLM service with `model` for the planner and as its own fallback (a failure is the
 * model's, not retried elsewhere). LLM_STRUCTURED_OUTPUT_METHOD, LLM_TIMEOUT_MS and
 * LLM_MAX_RETRIES are taken from the environment when set, as Memo takes them.
 */
export function plannerLLM(model: EvalModel): LLMService {
  const config = loadConfig({
    OPENAI_BASE_URL: model.baseUrl,
    OPENAI_API_KEY: model.apiKey,
    LLM_PLANNER_MODEL: model.model,
    LLM_FALLBACK_MODEL: model.model,
    LLM_STRUCTURED_OUTPUT_METHOD: process.env.LLM_STRUCTURED_OUTPUT_METHOD,
    LLM_TIMEOUT_MS: process.env.LLM_TIMEOUT_MS,
    LLM_MAX_RETRIES: process.env.LLM_MAX_RETRIES,
    LOG_LEVEL: "silent",
  });
  const llm = createLLMService(config, createLogger("silent"));
  if (!llm) throw new Error("no LLM service for the planner evaluation");
  return llm;
}

/** The planner's model call for one item (throws what the LLM service throws). */
async function callPlanner(item: PlannerItem, llm: LLMService) {
  return llm.structured("planner", PlannerSchema, plannerMessagesOf(item), { name: "plan" });
}

/**
 * Why a failed call means no call will succeed (the server is not there, refuses the key, or has
 * no such model), or null when it may be this item's alone.
 */
function fatalFailure(error: unknown): string | null {
  const { kind, status } = classifyFailure(error);
  if (kind === "not_configured") return "no model configured";
  if (status === 401 || status === 403) return `the server refuses the API key (HTTP ${status})`;
  if (status === 404) return "the server has no such model or path (HTTP 404)";
  if (kind === "api_error" && status === undefined) return "no answer from the server (connection failed)";
  return null;
}

/**
 * One call with the first item before the run, so that a dead or misconfigured server stops the
 * run at once with a clear message instead of failing every item.
 */
export async function preflight(items: readonly PlannerItem[], llm: LLMService, model: EvalModel) {
  const [first] = items;
  if (!first) return;
  try {
    await callPlanner(first, llm);
  } catch (error) {
    const fatal = fatalFailure(error);
    if (fatal) {
      throw new Error(
        `planner: ${model.model} at ${model.baseUrl} cannot be used: ${fatal} (${describeError(error)}); nothing was run`,
        { cause: error },
      );
    }
  }
}

/** One item through the planner's model call, scored. */
export async function runItem(item: PlannerItem, llm: LLMService): Promise<ItemResult> {
  try {
    const { value, usage } = await callPlanner(item, llm);
    const got: GotPlan = { output: normalizePlan(value), clarificationQuestion: value.clarificationQuestion };
    return {
      item,
      got,
      error: null,
      usage: {
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        costUsd: usage.costUsd,
        latencyMs: usage.durationMs,
      },
      score: scoreItem(item, got),
    };
  } catch (error) {
    return { item, got: null, error: describeError(error), usage: null, score: scoreItem(item, null) };
  }
}

/** Every item through the planner's model call, `concurrency` at a time; results in corpus order. */
export async function runPlanner(
  items: readonly PlannerItem[],
  llm: LLMService,
  options: { concurrency: number; log: (line: string) => void; onResult: (result: ItemResult) => void },
): Promise<ItemResult[]> {
  let done = 0;
  return mapWithConcurrency(items, options.concurrency, async (item) => {
    const result = await runItem(item, llm);
    options.onResult(result);
    done += 1;
    if (done % 50 === 0 || done === items.length) options.log(`planner: ${done}/${items.length} messages`);
    return result;
  });
}
