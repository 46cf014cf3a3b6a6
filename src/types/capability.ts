/**
 * The contracts every capability keeps (spec 002 §12): its resolvers, entity resolver, executor and
 * reply template, and what they are handed. The graph calls them; capabilities implement them.
 */
import type { Logger } from "pino";
import type { LLMService } from "./llm.js";
import type {
  CapabilityName,
  DisambiguationState,
  ExecutionResult,
  FormattedResponse,
  HITLResult,
  PlanStep,
  ResolverResult,
  StepRef,
} from "./index.js";
import type { MemoState } from "./state.js";

/** A change undo puts back outside the database (a Google Calendar event). */
export interface ExternalUndo {
  provider: "google-calendar";
  /** "restore": the event was deleted; "revert": it was changed; "remove": it was created. */
  action: "restore" | "revert" | "remove";
  eventId: string;
  /** The provider's own record of the event before the change, whole. */
  before: Record<string, unknown>;
  summary: string;
}

/** Puts an external change back; false when the provider cannot. */
export type ExternalRestorer = (phone: string, change: ExternalUndo) => Promise<boolean>;

/** What a resolver or executor may use: read-only state and injected services. */
export interface CapabilityContext {
  state: Readonly<MemoState>;
  llm: LLMService | null;
  logger: Logger;
  /** Epoch milliseconds, from the graph's clock. */
  now: number;
  language: "he" | "en";
  phone: string;
  /** Validated HITL answers about this step, oldest first (a resolver's clarification, a confirmation). */
  answers: HITLResult[];
  /**
   * What the steps this one depends on produced in this message, nearest first (D13): "it",
   * "them", "@N" or nothing named bind to these before anything from earlier messages.
   */
  dependencies: StepRef[];
}

/** Turns a plan step into operation arguments or a clarification question (spec 002 §12.2). */
export interface Resolver {
  name: string;
  capability: CapabilityName;
  /** Actions it handles; empty means every action of its capability not claimed otherwise. */
  actions: string[];
  /** Claims actions beyond `actions` (e.g. any action that names a list). */
  handles?: (action: string) => boolean;
  resolve(step: PlanStep, context: CapabilityContext): Promise<ResolverResult>;
}

/** The outcome of turning semantic args into ID-resolved args (spec 001 §7). */
export type EntityResolution =
  | { status: "resolved"; args: Record<string, unknown> }
  | {
      status: "disambiguation";
      disambiguation: Omit<DisambiguationState, "resolved" | "userSelection">;
      entityLabel: string;
    }
  | { status: "not_found"; message: string }
  /** Ask first; on "yes" the executor gets exactly `args`. */
  | { status: "confirm"; question: string; args: Record<string, unknown> }
  /**
   * Ask approve / edit / cancel; on "approve" the executor gets exactly `args`; on "edit" the user
   * says what to change and `EntityResolver.revise` makes new args, asked about again.
   */
  | { status: "approve"; question: string; args: Record<string, unknown> };

/** Finds the entities a step names (tasks, events…), asking when several match. */
export interface EntityResolver {
  capability: CapabilityName;
  resolve(step: PlanStep, result: ResolverResult, context: CapabilityContext): Promise<EntityResolution>;
  applySelection(
    step: PlanStep,
    disambiguation: DisambiguationState,
    selection: string[],
    context: CapabilityContext,
  ): Promise<EntityResolution>;
  /**
   * The yes/no question naming the action and the exact entity of a step resolved to `args` ("Delete
   * the task “Buy milk”?"), asked when the planner marked the plan risky; null when the step changes
   * nothing the user would want to be asked about (reading, creating). Without it no step is asked.
   */
  confirmation?(
    step: PlanStep,
    args: Record<string, unknown>,
    context: CapabilityContext,
  ): Promise<string | null>;
  /** Applies the user's change ("make it shorter", "add Dana in cc") to args it asked approval for. */
  revise?(
    step: PlanStep,
    args: Record<string, unknown>,
    change: string,
    context: CapabilityContext,
  ): Promise<EntityResolution>;
}

/** What an executor reports; the executor node adds timing, step and args. */
export type ExecutorOutcome = Pick<
  ExecutionResult,
  "success" | "data" | "errorCode" | "error" | "latestAction" | "numbered" | "produced"
>;

/** Performs one operation; no LLM here (spec 002 §12.3). */
export interface Executor {
  name: string;
  capability: CapabilityName;
  execute(
    functionName: string,
    args: Record<string, unknown>,
    context: CapabilityContext & { operationId: string; step: PlanStep },
  ): Promise<ExecutorOutcome>;
}

/** Writes a reply for one result without an LLM, or returns null to leave it to the writer. */
export type ResponseTemplate = (result: FormattedResponse, language: "he" | "en") => string | null;

/**
 * A whole message a capability reads in code before any planning, because what it means depends
 * on the user's own data (a typed "accept" is an answer only while an invitation to them is open):
 * its one step, already resolved to an operation.
 */
export interface RecognizedStep {
  action: string;
  functionName: string;
  args: Record<string, unknown>;
}

/** What a capability's recognizer knows of the message besides its words. */
export interface RecognizeContext {
  phone: string;
  language: "he" | "en";
  /** The WhatsApp id of the message it quotes, when it quotes one. */
  replyToMessageId?: string;
}

/** Everything one capability brings. */
export interface CapabilityModule {
  capability: CapabilityName;
  resolvers: Resolver[];
  executor: Executor;
  entityResolver?: EntityResolver;
  template?: ResponseTemplate;
  /**
   * Its entity resolver asks before risky changes, naming what it changes (its own questions, and
   * `confirmation` for each step of a plan the planner marked risky), so the planner's generic
   * "high risk" question would be a second one (default: false).
   */
  confirmsInCode?: boolean;
  /** Puts back, on "undo", a change its executor journaled outside the database (a Google Calendar event). */
  undoExternal?: ExternalRestorer;
  /**
   * Reads a whole message in code before the planner, with or without a model (default: none):
   * its step, or null when the message is not one of its own.
   */
  recognize?: (message: string, context: RecognizeContext) => Promise<RecognizedStep | null>;
}
