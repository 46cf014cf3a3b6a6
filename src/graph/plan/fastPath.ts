import type { CalendarOptions } from "../../nlu/holidays.js";
import { recognizeCalendarQuestion } from "../../nlu/calendarQuestions.js";
import { scheduleOfZone } from "../../nlu/hebrewCalendar.js";
import { calendarAnswerText } from "./calendarAnswer.js";
import { isUndoCommand, recognizeCommand } from "../../nlu/commands.js";
import { recognizeGoogleCommand, type GoogleCommand } from "../../nlu/googleCommands.js";
import { recognizeMemoryCommand, recognizeNoteCommand, type NoteCommand } from "../../nlu/noteCommands.js";
import type { RecognizedStep } from "../../types/capability.js";
import type { CapabilityName, NumberedRefs, PlannerOutput, ResolverResult } from "../../types/index.js";
import { timeQuestionResult } from "./timeAnswer.js";
import { isGreeting, isHelpRequest, isThanks } from "../../nlu/smallTalk.js";

/** What a message is when it needs no planning: a help request, a greeting or thanks. */
function fastPathAction(text: string): "describe_capabilities" | "greet" | "thank" | null {
  if (isHelpRequest(text)) return "describe_capabilities";
  if (isGreeting(text)) return "greet";
  if (isThanks(text)) return "thank";
  return null;
}

/** A plan of one step ("A") read in code: certain, and harmless as far as the planner goes. */
function oneStepPlan(
  intentType: PlannerOutput["intentType"],
  capability: CapabilityName,
  action: string,
  riskLevel: PlannerOutput["riskLevel"] = "low",
): PlannerOutput {
  return {
    intentType,
    confidence: 1,
    riskLevel,
    needsApproval: false,
    missingFields: [],
    plan: [{ id: "A", capability, action, constraints: {}, changes: {}, dependsOn: [] }],
  };
}

/** The plan of a message the fast path answers: one meta step, certain, harmless. */
function fastPathPlan(
  action: "describe_capabilities" | "greet" | "thank" | "undo" | GoogleCommand,
): PlannerOutput {
  return oneStepPlan("meta", "meta", action);
}

/** The turn of a message a capability recognized in code (`CapabilityRegistry.recognize`): its one step, resolved. */
export function recognizedTurn(capability: CapabilityName, step: RecognizedStep): FastPathTurn {
  const stepId = "A";
  return {
    plannerOutput: oneStepPlan("operation", capability, step.action),
    resolverResults: new Map([
      [stepId, { stepId, type: "execute", functionName: step.functionName, args: step.args }],
    ]),
  };
}

export interface FastPathOptions {
  /** The language questions are asked in (default: "en"). */
  language?: "he" | "en";
  /**
   * Whether a reminder whose time words were not all understood is asked about here (default:
   * true). With a model, the planner reads such a message whole instead; its times meet the same
   * parser (D10).
   */
  askUnread?: boolean;
  /**
   * An "undo" / "בטל" that quotes a message: its id, and whether that message is Memo's answer to
   * the latest change. Quoting anything else (a reminder's ring: "בטל" = cancel this) is not an undo
   * of the latest change: with a model the planner reads it with what it quotes (`withModel`).
   */
  quotedUndo?: { messageId: string; latest: boolean };
  withModel?: boolean;
  /** The user's holiday schedule and Hebrew birthday, for holidays and Hebrew dates in times (default: the zone's). */
  calendar?: CalendarOptions;
  /**
   * The newest numbered thing Memo showed is not a listing of the window (Gmail's search results):
   * "done 2", "delete 2", "move 2 to Friday" are then the planner's to read (default: false).
   */
  numberedElsewhere?: boolean;
}

/** A turn the fast path planned and resolved: the same plan and resolver result the LLMs would give. */
export interface FastPathTurn {
  plannerOutput: PlannerOutput;
  /** Pre-resolved steps, so resolver_router skips their LLM call. */
  resolverResults: Map<string, ResolverResult>;
}

/** A second-brain command as the turn's one step, already resolved. */
function secondBrainTurn(command: NoteCommand): FastPathTurn {
  const stepId = "A";
  const risk = command.action === "forget_everything" ? "high" : "low";
  return {
    plannerOutput: oneStepPlan("operation", "second-brain", command.action, risk),
    resolverResults: new Map([
      [stepId, { stepId, type: "execute", functionName: command.functionName, args: { ...command.args } }],
    ]),
  };
}

/**
 * The fast path before the planner (no LLM): help, greetings and thanks, and the unambiguous
 * commands of src/nlu/commands.ts for capabilities that are registered. Anything else is null and
 * goes to the LLM planner unchanged.
 */
export function fastPathTurn(
  message: string,
  nowMs: number,
  timeZone: string,
  registered: (capability: CapabilityName) => boolean,
  commands = true,
  /** The newest numbered listing Memo showed: "done 2" after a shopping list ticks item 2. */
  lastShown: NumberedRefs | null = null,
  options: FastPathOptions = {},
): FastPathTurn | null {
  const meta = fastPathAction(message);
  if (meta) return { plannerOutput: fastPathPlan(meta), resolverResults: new Map() };
  // "connect Google" / "disconnect Google" are account plumbing, never worth a model call: like
  // help and greetings they are answered even with FAST_PATH=off, resolved here to meta.<action>.
  const google = recognizeGoogleCommand(message);
  if (google) {
    return {
      plannerOutput: fastPathPlan(google),
      resolverResults: new Map([
        ["A", { stepId: "A", type: "execute", functionName: `meta.${google}`, args: {} }],
      ]),
    };
  }
  // "undo" / "בטל" takes back the latest change, in code like the command it undoes (also with
  // FAST_PATH=off). An open question never gets here: its answer ("בטל" = cancel) is routed first.
  const quoted = options.quotedUndo;
  if (isUndoCommand(message) && !(quoted && !quoted.latest && options.withModel)) {
    // Quoting: the undo checks again that the quote names the latest change, else asks what to cancel.
    // Unquoted after other messages ("בטל" that may mean "cancel" too), undo names the change and asks first.
    const args = quoted ? { quoted: quoted.messageId } : {};
    return {
      plannerOutput: fastPathPlan("undo"),
      resolverResults: new Map([["A", { stepId: "A", type: "execute", functionName: "meta.undo", args }]]),
    };
  }
  // "What do you remember about me?" and "forget…" are privacy requests: never left to a model.
  const memory = registered("second-brain") ? recognizeMemoryCommand(message) : null;
  if (memory) return secondBrainTurn(memory);
  if (!commands) return null;
  // "when is Pesach?", "what's the Hebrew date today?": answered from the calendar, in code.
  const calendar = registered("general")
    ? recognizeCalendarQuestion(
        message,
        nowMs,
        timeZone,
        options.calendar?.schedule ?? scheduleOfZone(timeZone),
      )
    : null;
  if (calendar) {
    const answer = calendarAnswerText(calendar, options.language ?? "en");
    return {
      plannerOutput: oneStepPlan("conversation", "general", "answer"),
      resolverResults: new Map([
        ["A", { stepId: "A", type: "execute", functionName: "respond", args: { answer } }],
      ]),
    };
  }
  const note = registered("second-brain") ? recognizeNoteCommand(message, nowMs, timeZone) : null;
  if (note) return secondBrainTurn(note);
  let command = recognizeCommand(message, nowMs, timeZone, options.calendar);
  if (!command || !registered(command.capability)) return null;
  const number = command.functionName === "tasks.complete" ? command.args.taskId : undefined;
  // "delete 2" / "move 2 to Friday" after a listing of something other than tasks: the planner reads it.
  const numberedChange =
    (command.functionName === "tasks.delete" || command.functionName === "tasks.update") &&
    typeof command.args.taskId === "string" &&
    command.args.taskId.startsWith("#");
  if (numberedChange && lastShown && lastShown.type !== "task") return null;
  // A number after something else was numbered (an email search) means that thing's item.
  const numberedDone = typeof number === "string" && number.startsWith("#");
  if ((numberedChange || numberedDone) && options.numberedElsewhere) return null;
  if (typeof number === "string" && lastShown && lastShown.type !== "task") {
    // "done 2" right after a list's items were shown: the user ticks item 2 off that list.
    if (lastShown.type !== "list_item" || !lastShown.listId) return null;
    command = {
      capability: "database",
      action: "toggle_list_item",
      functionName: "lists.toggleItem",
      args: { operation: "toggleItem", listId: lastShown.listId, item: number, checked: true },
    };
  }
  const stepId = "A";
  const question = command.timeQuestion;
  // Asking about an hour, a past or too distant time needs no model; words not understood go to
  // the model when there is one.
  if (question && question.reading.reason === "unread" && options.askUnread === false) return null;
  const resolved: ResolverResult = question
    ? timeQuestionResult(stepId, command.functionName, command.args, question, options.language ?? "en")
    : { stepId, type: "execute", functionName: command.functionName, args: command.args };
  return {
    plannerOutput: oneStepPlan("operation", command.capability, command.action),
    resolverResults: new Map([[stepId, resolved]]),
  };
}
