/** The idempotency key of a step within a turn (spec 001 §8): stable across resumes and re-runs. */
export const operationIdOf = (traceId: string, stepId: string) => `${traceId}:${stepId}`;
