import type { ExecutedOperation, ExecutionResult, PlanStep, StepRef } from "../../types/index.js";
import { mapWithConcurrency } from "../../utils/concurrency.js";
import { replyLanguage } from "../../utils/language.js";
import { t } from "../../messages/index.js";
import type { MemoGraphDeps } from "../deps.js";
import { userTextOf } from "../errorText.js";
import { activeGroup } from "../plan/executionGroups.js";
import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";
import { failedResult } from "../plan/failedResult.js";
import { operationIdOf } from "../plan/operationId.js";
import { stepRefOf } from "../plan/refs.js";
import { capabilityContext } from "./resolverRouterNode.js";

/** At most this many operations of one group run at once. */
const MAX_PARALLEL_EXECUTORS = 3;

/**
 * executor: runs the group's steps that have ID-resolved args, through the capability's executor.
 * An operation already in the `executedOperations` ledger is never run again: its cached result is
 * reused, or, if the result is missing, the step fails safely with IDEMPOTENCY_MISSING_RESULT.
 */
export function createExecutorNode(deps: MemoGraphDeps) {
  return async (state: MemoState): Promise<MemoUpdate> => {
    const language = replyLanguage(state.user.language);
    const steps = (activeGroup(state) ?? []).filter((s) => !state.executionResults.has(s.id));
    const executionResults = new Map<string, ExecutionResult>();
    const executedOperations: Record<string, ExecutedOperation> = {};
    const produced: Record<string, StepRef> = {};

    const runnable: PlanStep[] = [];
    for (const step of steps) {
      const operationId = operationIdOf(state.traceId, step.id);
      if (state.executedOperations[operationId]) {
        deps.logger.error(
          { event: "IDEMPOTENCY_MISSING_RESULT", operationId, traceId: state.traceId },
          "ledger has the operation but no result",
        );
        executionResults.set(
          step.id,
          failedResult(step, "IDEMPOTENCY_MISSING_RESULT", t(language, "internalError")),
        );
      } else if (state.executorArgs.has(step.id)) {
        runnable.push(step);
      }
    }

    await mapWithConcurrency(runnable, MAX_PARALLEL_EXECUTORS, async (step) => {
      const operationId = operationIdOf(state.traceId, step.id);
      const args = state.executorArgs.get(step.id) ?? {};
      const functionName = state.resolverResults.get(step.id)?.functionName ?? step.action;
      const executor = deps.capabilities.executorFor(step.capability);
      const started = performance.now();
      let result: ExecutionResult;
      if (!executor) {
        result = failedResult(step, "NO_EXECUTOR", t(language, "internalError"), { functionName, args });
      } else {
        try {
          const outcome = await executor.execute(functionName, args, {
            ...capabilityContext(deps, state, step.id),
            operationId,
            step,
          });
          result = {
            ...outcome,
            stepId: step.id,
            functionName,
            args,
            durationMs: performance.now() - started,
          };
        } catch (error) {
          deps.logger.error(
            { err: error, node: "executor", executor: executor.name, operationId, traceId: state.traceId },
            "executor failed",
          );
          result = failedResult(step, "EXECUTION_FAILED", userTextOf(error, language), {
            durationMs: performance.now() - started,
            functionName,
            args,
          });
        }
      }
      executionResults.set(step.id, result);
      // What it produced is handed to the steps that depend on it (refs, D13).
      const ref = stepRefOf(step, result);
      if (ref) produced[step.id] = ref;
      executedOperations[operationId] = {
        operationId,
        stepId: step.id,
        capability: step.capability,
        functionName,
        success: result.success,
        at: deps.clock(),
      };
    });

    return { executionResults, executedOperations, refs: { steps: produced } };
  };
}
