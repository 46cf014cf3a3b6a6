import type { ExecutionResult, FormattedResponse, PlanStep } from "../../types/index.js";
import { localDayNumber, pad2, zonedParts } from "../../utils/timeContext.js";
import type { MemoState, MemoUpdate } from "../state/MemoState.js";

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** An ISO instant as local text: "today 17:00", "tomorrow 09:00", "Mon 03/02 09:00" (or Hebrew). */
export function humanTime(iso: string, nowMs: number, timeZone: string, language: "he" | "en"): string {
  const at = zonedParts(Date.parse(iso), timeZone);
  const diff = localDayNumber(Date.parse(iso), timeZone) - localDayNumber(nowMs, timeZone);
  const time = `${pad2(at.hour)}:${pad2(at.minute)}`;
  if (language === "he") {
    if (diff === 0) return `היום ב-${time}`;
    if (diff === 1) return `מחר ב-${time}`;
    if (diff === -1) return `אתמול ב-${time}`;
    return `${pad2(at.day)}/${pad2(at.month)} ב-${time}`;
  }
  if (diff === 0) return `today at ${time}`;
  if (diff === 1) return `tomorrow at ${time}`;
  if (diff === -1) return `yesterday at ${time}`;
  return `${at.weekday.slice(0, 3)} ${pad2(at.day)}/${pad2(at.month)} at ${time}`;
}

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

function formatOne(
  step: PlanStep,
  result: ExecutionResult,
  state: MemoState,
  language: "he" | "en",
): FormattedResponse {
  const nowMs = state.now.epochMs;
  const data = result.data;
  const items = Array.isArray(data)
    ? data
    : data && typeof data === "object" && Array.isArray((data as { items?: unknown }).items)
      ? (data as { items: unknown[] }).items
      : null;
  const due = data && typeof data === "object" ? (data as { dueDate?: unknown }).dueDate : undefined;
  const dueMs = typeof due === "string" ? Date.parse(due) : NaN;
  return {
    stepId: step.id,
    agent: step.capability,
    operation: result.functionName,
    entityType: step.capability,
    rawData: data,
    formattedData: humanize(data, (iso) => humanTime(iso, nowMs, state.user.timezone, language)),
    success: result.success,
    ...(result.error ? { error: result.error } : {}),
    context: {
      isRecurring: !!(
        data &&
        typeof data === "object" &&
        "recurrence" in data &&
        (data as { recurrence?: unknown }).recurrence
      ),
      isNudge: !!(
        data &&
        typeof data === "object" &&
        (data as { recurrence?: { type?: string } }).recurrence?.type === "nudge"
      ),
      hasDueDate: !Number.isNaN(dueMs),
      isToday:
        !Number.isNaN(dueMs) &&
        localDayNumber(dueMs, state.user.timezone) === localDayNumber(nowMs, state.user.timezone),
      isTomorrowOrLater:
        !Number.isNaN(dueMs) &&
        localDayNumber(dueMs, state.user.timezone) > localDayNumber(nowMs, state.user.timezone),
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
