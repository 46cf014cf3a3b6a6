import { calendarOptionsOf } from "../../../nlu/holidays.js";
import { bareClock } from "../../../services/tasks/taskTimes.js";
import { t } from "../../../messages/index.js";
import {
  CALENDAR_MUTATE_SYSTEM_PROMPT,
  CalendarMutateSchema,
  type CalendarMutateOperation,
  type SearchCriteria,
} from "../../../prompts/calendarMutatePrompt.js";
import {
  buildEventInputs,
  readDate,
  readRange,
  type TimeOptions,
} from "../../../services/calendar/eventTimes.js";
import { frameAt, timeQuestion } from "../../../services/calendar/replies.js";
import { resolveWhen } from "../../../nlu/whenPhrase.js";
import type { PlanStep, ResolverResult } from "../../../types/index.js";
import type { CapabilityContext, Resolver } from "../../../types/capability.js";
import { resolveOperation } from "../../resolvers/resolverPrompt.js";
import { assertNever } from "../../../contracts/contract.js";

/** Whether the operation names an event: a handle, title words, a day, or a recent calendar action ("move it"). */
function namesEvent(op: CalendarMutateOperation, context: CapabilityContext): boolean {
  const criteria = op.searchCriteria;
  return !!(
    op.eventId ||
    op.summary ||
    criteria?.summary ||
    criteria?.timeMin ||
    criteria?.dayOfWeek ||
    context.state.latestActions.some((a) => a.capability === "calendar" && a.externalIds?.length)
  );
}

/** Words of the search criteria that cannot be read, as the question to ask; null when all are clear. */
function criteriaQuestion(
  criteria: SearchCriteria | null | undefined,
  context: CapabilityContext,
  options: TimeOptions,
) {
  if (!criteria?.timeMin && !criteria?.timeMax) return null;
  const range = readRange(criteria.timeMin, criteria.timeMax, options);
  return range.ok ? null : t(context.language, "calendar.askRange", { phrase: range.phrase });
}

/** Whether an update's new time can be read: a bare clock (read on the event's day) or time words. */
function readable(words: string | null | undefined, options: TimeOptions): boolean {
  if (!words?.trim()) return true;
  return !!bareClock(words) || !!resolveWhen(words, options.nowMs, options.timeZone);
}

/** What must be asked before the change can run, or null. */
function missingMutate(op: CalendarMutateOperation, context: CapabilityContext): string | null {
  const { language } = context;
  const user = context.state.authContext?.user;
  const options: TimeOptions = {
    nowMs: context.now,
    timeZone: context.state.user.timezone,
    ...(user ? { calendar: calendarOptionsOf(user) } : {}),
  };
  switch (op.operation) {
    case "create":
    case "createMultiple":
    case "createRecurring":
    case "createMultipleRecurring": {
      const built = buildEventInputs(op, options);
      return built.ok
        ? null
        : timeQuestion(built, language, frameAt(context.now, context.state.user.timezone));
    }
    case "update": {
      const fields = op.updateFields;
      const changes =
        fields &&
        (fields.summary ||
          fields.start ||
          fields.end ||
          fields.durationMinutes ||
          typeof fields.allDay === "boolean" ||
          fields.location ||
          fields.description ||
          typeof fields.reminderMinutesBefore === "number" ||
          (fields.attendees?.length ?? 0) > 0);
      if (!changes) return t(language, "calendar.askChange");
      if (!namesEvent(op, context)) return t(language, "calendar.askWhichEvent");
      for (const words of [fields.start, fields.end]) {
        if (!readable(words, options)) return t(language, "calendar.askEventTime", { phrase: words ?? "" });
      }
      return criteriaQuestion(op.searchCriteria, context, { ...options, allowPast: true });
    }
    case "delete":
    case "deleteBySummary":
      if (!namesEvent(op, context)) return t(language, "calendar.askWhichEvent");
      return criteriaQuestion(op.searchCriteria, context, { ...options, allowPast: true });
    case "truncateRecurring": {
      if (!namesEvent(op, context)) return t(language, "calendar.askWhichEvent");
      if (!op.until?.trim()) return t(language, "calendar.askUntil");
      if (!readDate(op.until, options)) return t(language, "calendar.askEventTime", { phrase: op.until });
      return criteriaQuestion(op.searchCriteria, context, { ...options, allowPast: true });
    }
    default:
      return assertNever(op.operation);
  }
}

/**
 * calendar changes (spec 002 §8.0, §8.2): the LLM turns the plan step into one of V1's write
 * operations with local time words; code reads every time in the user's zone (D6) and asks when
 * something is missing: no title, a time it cannot read, a new event in the past, nothing to change.
 * Takes every calendar action CalendarFindResolver does not claim.
 */
export const calendarMutateResolver: Resolver = {
  name: "CalendarMutateResolver",
  capability: "calendar",
  actions: [],
  resolve: (step: PlanStep, context: CapabilityContext): Promise<ResolverResult> =>
    resolveOperation(
      {
        name: "CalendarMutateResolver",
        node: "resolver:calendar",
        system: CALENDAR_MUTATE_SYSTEM_PROMPT,
        schema: CalendarMutateSchema,
        outputName: "calendar_change",
        prefix: "calendar",
        missing: missingMutate,
      },
      step,
      context,
    ),
};
