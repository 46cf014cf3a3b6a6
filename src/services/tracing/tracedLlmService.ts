import { randomUUID } from "node:crypto";
import type { TriggerType } from "../../types/index.js";
import { currentTurn } from "../../utils/turnContext.js";
import type { LLMService } from "../../types/llm.js";
import { ObservedLLMService, type LLMCallWrapper } from "../llm/observedLlmService.js";
import type { Tracing } from "./tracing.js";

/**
 * The LLM service for work outside the graph (the scheduler's digest polish): each call is a
 * `memo-turn` trace of its own, in the user's thread when the work names its user (utils/turnContext),
 * with its trigger, model, tokens and cost. Graph turns do not go through here: the graph traces them.
 */
export function tracedLLMService(
  inner: LLMService,
  tracing: Tracing,
  /** The trigger when the work does not say (default: cron). */
  trigger: TriggerType = "cron",
): LLMService {
  const traced: LLMCallWrapper = (node, call) => {
    const turn = currentTurn();
    return tracing.traceWork(
      {
        ...(turn?.phone ? { phone: turn.phone } : {}),
        traceId: turn?.traceId ?? randomUUID(),
        trigger: turn?.trigger ?? trigger,
      },
      node,
      call,
      ({ usage }) => ({
        status: "completed",
        llm_calls: 1,
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
        total_cost_usd: usage.costUsd,
        models: [usage.model],
        models_by_node: { [node]: usage.model },
      }),
    );
  };
  return new ObservedLLMService(inner, [], undefined, traced);
}
