import type { ExecutionResult, PlanStep } from "../../types/index.js";

/** The result of a step that did not (fully) run: a machine code and a message for the user. */
export function failedResult(
  step: PlanStep,
  errorCode: string,
  error: string,
  extra: Partial<ExecutionResult> = {},
): ExecutionResult {
  return {
    stepId: step.id,
    success: false,
    errorCode,
    error,
    durationMs: 0,
    functionName: step.action,
    args: {},
    ...extra,
  };
}
