import { calendarOptionsOf } from "../../../nlu/holidays.js";
import {
  CALENDAR_FIND_SYSTEM_PROMPT,
  CalendarFindSchema,
  type CalendarFindOperation,
} from "../../../prompts/calendarFindPrompt.js";
import { t } from "../../../messages/index.js";
import { eventTimes, readRange } from "../../../services/calendar/eventTimes.js";
import { frameAt, timeQuestion } from "../../../services/calendar/replies.js";
import type { PlanStep, ResolverResult } from "../../../types/index.js";
import type { CapabilityContext, Resolver } from "../../../types/capability.js";
import { resolveOperation } from "../../resolvers/resolverPrompt.js";
import { calendarContract } from "../../../contracts/calendar.js";

/** The planner's read actions on the calendar (the rest go to CalendarMutateResolver). */
const CALENDAR_READ_ACTIONS = [
  // The plan actions of the contract's reads ("list_events", "find_event"…).
  ...calendarContract.actions.filter((action) => action.reads).map((action) => action.name),
  // Read actions a planner may coin beside the prompt's.
  "find_events",
  "get_recurring_instances",
  "show_calendar",
];

/** Other read-like action names a planner may coin: "show_events", "get_schedule", "check_availability"… */
const READ_ACTION = /^(?:list|find|show|get|check|analyze|search|view|what)_/;

/** What must be asked before the lookup can run, or null. */
function missingFind(op: CalendarFindOperation, context: CapabilityContext): string | null {
  const { language } = context;
  const user = context.state.authContext?.user;
  const options = {
    nowMs: context.now,
    timeZone: context.state.user.timezone,
    allowPast: true,
    ...(user ? { calendar: calendarOptionsOf(user) } : {}),
  };
  if ((op.operation === "get" || op.operation === "getRecurringInstances") && !op.summary && !op.eventId) {
    return t(language, "calendar.askWhichEvent");
  }
  if (op.operation === "checkConflicts") {
    const slot = eventTimes({ start: op.start, end: op.end }, options);
    return slot.ok ? null : timeQuestion(slot, language, frameAt(context.now, context.state.user.timezone));
  }
  const range = readRange(op.timeMin, op.timeMax, options);
  return range.ok ? null : t(language, "calendar.askRange", { phrase: range.phrase });
}

/**
 * calendar reads (spec 002 §8.2): the LLM turns the plan step into get, getEvents, checkConflicts,
 * getRecurringInstances or analyzeSchedule with the user's own time words; code checks that they
 * can be read (D6) and asks when they cannot.
 */
export const calendarFindResolver: Resolver = {
  name: "CalendarFindResolver",
  capability: "calendar",
  actions: CALENDAR_READ_ACTIONS,
  handles: (action) => READ_ACTION.test(action),
  resolve: (step: PlanStep, context: CapabilityContext): Promise<ResolverResult> =>
    resolveOperation(
      {
        name: "CalendarFindResolver",
        node: "resolver:calendar",
        system: CALENDAR_FIND_SYSTEM_PROMPT,
        schema: CalendarFindSchema,
        outputName: "calendar_lookup",
        prefix: "calendar",
        missing: missingFind,
      },
      step,
      context,
    ),
};
