import type { ExecutionResult, FormattedResponse, PlanStep } from "../../types/index.js";
import { humanTime, localDayNumber } from "../../utils/timeContext.js";
import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Copies data, adding a `<key>Human` text beside every ISO instant, at any depth. */
function humanize(value: unknown, format: (iso: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => humanize(v, format));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = humanize(v, format);
      if (typeof v === "string" && ISO_INSTANT.test(v)) out[`${key}Human`] = format(v);
    }
    return out;
  }
  return value;
}

/** The entity a single-entity result is about: `data.task`, else the data itself. */
function entityOf(data: unknown): Record<string, unknown> | null {
  if (!data || typeof data !== "object" || Array.isArray(data)) return null;
  const record = data as Record<string, unknown>;
  const inner = record.task;
  return inner && typeof inner === "object" ? (inner as Record<string, unknown>) : record;
}

/** The entities of a listing or bulk result: an array, or `items` / `tasks` / `lists` of an object. */
function entitiesOf(data: unknown): unknown[] | null {
  if (Array.isArray(data)) return data as unknown[];
  if (!data || typeof data !== "object") return null;
  const record = data as Record<string, unknown>;
  for (const key of ["tasks", "lists", "items"])
    if (Array.isArray(record[key])) return record[key] as unknown[];
  return null;
}

function formatOne(
  step: PlanStep,
  result: ExecutionResult,
  state: MemoState,
  language: "he" | "en",
): FormattedResponse {
  const nowMs = state.now.epochMs;
  const zone = state.user.timezone;
  const data = result.data;
  const items = entitiesOf(data);
  const entity = entityOf(data);
  const due = entity?.dueAt ?? entity?.dueDate;
  const dueMs = typeof due === "string" ? Date.parse(due) : NaN;
  const recurrence = entity?.recurrence as { type?: string } | null | undefined;
  const kind = data && typeof data === "object" ? (data as { kind?: unknown }).kind : undefined;
  const groups = (items ?? []).flatMap((item) => {
    const group = item && typeof item === "object" ? (item as { group?: unknown }).group : undefined;
    return typeof group === "string" ? [group] : [];
  });
  const categories =
    groups.length > 0
      ? groups.reduce<Record<string, number>>((acc, g) => ({ ...acc, [g]: (acc[g] ?? 0) + 1 }), {})
      : undefined;
  return {
    stepId: step.id,
    agent: step.capability,
    operation: result.functionName,
    entityType: typeof kind === "string" ? kind : step.capability,
    rawData: data,
    formattedData: humanize(data, (iso) => humanTime(iso, nowMs, zone, language)),
    success: result.success,
    ...(result.error ? { error: result.error } : {}),
    ...(categories ? { categories } : {}),
    context: {
      isRecurring: !!recurrence,
      isNudge: recurrence?.type === "nudge",
      hasDueDate: !Number.isNaN(dueMs),
      isToday: !Number.isNaN(dueMs) && localDayNumber(dueMs, zone) === localDayNumber(nowMs, zone),
      isTomorrowOrLater: !Number.isNaN(dueMs) && localDayNumber(dueMs, zone) > localDayNumber(nowMs, zone),
      entityCount: items ? items.length : result.success ? 1 : 0,
      isBulk: !!items && items.length > 1,
      hasErrors: !result.success,
      isPartialSuccess: false,
    },
  };
}

/** response_formatter: per step, instants to local human text and the response-context flags (spec 002 §10.1). */
export function createResponseFormatterNode() {
  return (state: MemoState): Promise<MemoUpdate> => {
    const language = state.user.language === "he" ? "he" : "en";
    const plan = state.plannerOutput?.plan ?? [];
    const formatted = plan.flatMap((step) => {
      const result = state.executionResults.get(step.id);
      return result ? [formatOne(step, result, state, language)] : [];
    });
    const partial = formatted.some((f) => f.success) && formatted.some((f) => !f.success);
    return Promise.resolve({
      formattedResponse: formatted.map((f) => ({
        ...f,
        context: { ...f.context, isPartialSuccess: partial },
      })),
    });
  };
}
