import {
  DATABASE_TASK_SYSTEM_PROMPT,
  TaskOperationSchema,
  type TaskOperation,
} from "../../../prompts/taskPrompt.js";
import {
  bareClock,
  scheduleTask,
  type ScheduleProblem,
  type TaskTimeArgs,
} from "../../../services/tasks/taskTimes.js";
import { calendarOptionsOfMessage } from "../../../nlu/hebrewDateWords.js";
import { calendarOptionsOf } from "../../../nlu/holidays.js";
import type { PlanStep, ResolverResult } from "../../../types/index.js";
import { t, type MessageKey } from "../../../messages/index.js";
import type { CapabilityContext, Resolver } from "../../../types/capability.js";
import { resolveOperation, type CodeQuestion } from "../../resolvers/resolverPrompt.js";
import { timeQuestionOf } from "../../../nlu/commands.js";
import { readTime } from "../../../nlu/parseTime.js";
import { timeQuestionResult } from "../../plan/timeAnswer.js";
import { timeFromDependency } from "../../entities/references.js";

const PROBLEM_QUESTION: Record<ScheduleProblem, MessageKey> = {
  past_time: "askPast",
  unclear_time: "askWhen",
  ambiguous_hour: "askHalfOfDay",
  unsupported_repeat: "askRepeat",
  too_far: "askTooFar",
  unclear_interval: "askInterval",
  missing_time: "askRecurrenceTime",
  missing_days: "askDays",
  missing_day_of_month: "askDayOfMonth",
};

/** Time words that code cannot turn into a time, as the question to ask; null when all are clear. */
function timeQuestion(args: TaskTimeArgs, context: CapabilityContext, anchored: boolean): string | null {
  // An update naming only a clock time is read against the task's own day, once it is found.
  const checked = anchored && args.dueDate && bareClock(args.dueDate) ? { ...args, dueDate: null } : args;
  const user = context.state.authContext?.user;
  const result = scheduleTask(checked, {
    nowMs: context.now,
    timeZone: context.state.user.timezone,
    calendar: calendarOptionsOfMessage(user, context.state.input.message),
  });
  return result.ok ? null : t(context.language, PROBLEM_QUESTION[result.problem], { phrase: result.phrase });
}

/**
 * "tomorrow at 5" from the model: morning or afternoon, asked with two buttons and answered in
 * code like the fast path's question (D10), so the reply needs no second model call.
 */
function halfOfDayQuestion(op: TaskOperation, context: CapabilityContext): CodeQuestion | null {
  const words = op.dueDate?.trim();
  if (!words) return null;
  const timeZone = context.state.user.timezone;
  const user = context.state.authContext?.user;
  const reading = readTime(words, context.now, timeZone, user ? { calendar: calendarOptionsOf(user) } : {});
  if (reading?.kind !== "unclear" || reading.reason !== "ambiguous_hour") return null;
  const { dueDate: _dueDate, ...rest } = op;
  const asked = timeQuestionResult(
    "",
    `tasks.${op.operation}`,
    rest,
    timeQuestionOf(reading, timeZone),
    context.language,
  );
  return { question: asked.question ?? "", options: asked.options ?? [], resume: asked.resume! };
}

/** Whether an update names anything to change. */
const changes = (
  update: Pick<TaskOperation, "newText" | "category" | "dueDate" | "reminder" | "reminderRecurrence">,
) => !!(update.newText || update.category || update.dueDate || update.reminder || update.reminderRecurrence);

/** What must be asked before the operation can run, or null. */
function missing(op: TaskOperation, context: CapabilityContext): string | CodeQuestion | null {
  const { language } = context;
  switch (op.operation) {
    case "create":
      if (!op.text?.trim()) return t(language, "askTaskText");
      return halfOfDayQuestion(op, context) ?? timeQuestion(op, context, false);
    case "createMultiple": {
      if (!op.tasks?.length || op.tasks.some((task) => !task.text?.trim())) return t(language, "askTaskText");
      for (const task of op.tasks) {
        const question = timeQuestion(task, context, false);
        if (question) return question;
      }
      return null;
    }
    case "update":
    case "updateAll":
      return changes(op) ? timeQuestion(op, context, true) : t(language, "askChange");
    case "updateMultiple":
      if (!op.updates?.length || !op.updates.every(changes)) return t(language, "askChange");
      for (const update of op.updates) {
        const question = timeQuestion(update, context, true);
        if (question) return question;
      }
      return null;
    case "addSubtask":
      return op.subtask?.trim() ? null : t(language, "askTaskText");
    default:
      return null;
  }
}

/** A due time said relative to an earlier step of the message ("the day before it"), read against its time (D13). */
function dueFromDependency(op: TaskOperation, context: CapabilityContext): TaskOperation {
  if (op.operation !== "create" && op.operation !== "update") return op;
  const local = timeFromDependency(context, op.dueDate, op.fromStep);
  return local ? { ...op, dueDate: local } : op;
}

/**
 * database (tasks and reminders): the LLM turns the plan step into one of V1's task operations
 * (spec 002 §8.0, §8.3), validated by its zod schema; code checks that the operation is complete
 * and that its time words can be read (D6), and asks the user when they cannot.
 */
export const taskResolver: Resolver = {
  name: "DatabaseTaskResolver",
  capability: "database",
  actions: [],
  resolve: (step: PlanStep, context: CapabilityContext): Promise<ResolverResult> =>
    resolveOperation(
      {
        name: "DatabaseTaskResolver",
        system: DATABASE_TASK_SYSTEM_PROMPT,
        schema: TaskOperationSchema,
        outputName: "task_operation",
        prefix: "tasks",
        missing,
        fromDependencies: dueFromDependency,
      },
      step,
      context,
    ),
};
