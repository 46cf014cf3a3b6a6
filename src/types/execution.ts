import type { LLMUsage } from "./llm.js";
import type {
  DisambiguationCandidate,
  DisambiguationContext,
  EntityType,
  NumberedRefs,
} from "./conversation.js";
import type { CapabilityName, PlannerOutput, PlanStep } from "./plan.js";

/** What a resolver made of a plan step (spec 003). */
export interface ResolverResult {
  stepId: string;
  /** execute: args are ready; clarify: the user must answer `question` first. */
  type: "execute" | "clarify";
  /** The operation to run, e.g. "respond", "createTask". */
  functionName?: string;
  args?: Record<string, unknown>;
  question?: string;
  options?: string[];
  /** The resolver's LLM call, if it made one, for the turn's cost accounting. */
  llmUsage?: LLMUsage;
  /** clarify about a time: the answer is read in code, with no second LLM call (D10). */
  resume?: TimeAnswerResume;
}

/**
 * A question about a time that code completes once the user answers: the operation without its
 * time, the time words already understood, and (for "morning or afternoon?") each option's time.
 */
export interface TimeAnswerResume {
  kind: "time";
  functionName: string;
  /** The operation's arguments without its time. */
  args: Record<string, unknown>;
  /** The time words understood so far ("tomorrow"), read again together with the answer. */
  understood: string;
  /** The local day "YYYY-MM-DD" the question was about, for an answer that names only a clock time. */
  day?: string;
  /** One set of time arguments per option, in option order ("morning or afternoon?"). */
  choices?: Record<string, unknown>[];
  /** Each option's local clock time "HH:mm", so a typed "5pm" picks the 17:00 option. */
  clocks?: string[];
}

/** What an executor did with one step. */
export interface ExecutionResult {
  stepId: string;
  success: boolean;
  data?: unknown;
  /** Machine code of the failure, e.g. NOT_FOUND, IDEMPOTENCY_MISSING_RESULT. */
  errorCode?: string;
  /** Failure text safe to show the user (already localized), if any. */
  error?: string;
  durationMs: number;
  functionName: string;
  args: Record<string, unknown>;
  /** What to remember as the latest action when it succeeded (memory_update pushes it). */
  latestAction?: { action: string; summary: string; when?: string; externalIds?: string[] };
  /** What the reply will show numbered (memory_update keeps it with the reply). */
  numbered?: NumberedRefs;
  /**
   * What a search or listing found, for the steps after it in this message (refs, D13) when it is
   * no latest action; found nothing (`ids: []`) skips the steps that depend on it.
   */
  produced?: { ids: string[]; summary: string; when?: string };
}

/** The PII-free ledger entry that makes execution idempotent across resumes (spec 001 §8). */
export interface ExecutedOperation {
  operationId: string;
  stepId: string;
  capability: CapabilityName;
  functionName: string;
  success: boolean;
  /** Epoch milliseconds. */
  at: number;
}

/** Machine-only disambiguation state (spec 001 §7): candidates, never user-facing text. */
export interface DisambiguationState {
  type: EntityType;
  stepId: string;
  query: string;
  candidates: DisambiguationCandidate[];
  allowMultiple: boolean;
  /** Args before ID resolution. */
  originalArgs: Record<string, unknown>;
  /** Which reference in originalArgs the choice fills, e.g. "taskId" or "taskIds.1". */
  target?: string;
  /** Filled after the user chose (candidate ids). */
  userSelection?: string[];
  resolved: boolean;
}

/**
 * The disambiguation snapshot the conversation window keeps (spec 000 §5.1): what was offered, and
 * what a later message choosing one of the candidates acts with — the step as the answer would
 * have resumed it. Written when a disambiguation question is asked; read by the planner once the
 * question has ended (see graph/hitl/disambiguationSnapshot.ts).
 */
export interface DisambiguationSnapshot extends DisambiguationContext {
  /** The question's hitlId: the choice-list message carries the same in its metadata. */
  hitlId: string;
  language: "he" | "en";
  /** The step the question was about, its resolver's result and the plan's risk. */
  step: PlanStep;
  resolverResult: ResolverResult;
  plan: Pick<PlannerOutput, "intentType" | "riskLevel" | "needsApproval">;
  /** What entity_resolution's applySelection needs (unresolved, no selection). */
  disambiguation: DisambiguationState;
}

/** Flags that steer formatting (spec 003 ResponseContext). */
interface ResponseContext {
  isRecurring: boolean;
  isNudge: boolean;
  hasDueDate: boolean;
  isToday: boolean;
  isTomorrowOrLater: boolean;
  entityCount: number;
  isBulk: boolean;
  hasErrors: boolean;
  isPartialSuccess: boolean;
}

/** One step's result made ready for the writer (spec 003 FormattedResponse). */
export interface FormattedResponse {
  stepId: string;
  agent: CapabilityName;
  operation: string;
  entityType: string;
  rawData: unknown;
  formattedData: unknown;
  context: ResponseContext;
  /** How many of a listing's tasks are overdue, today, upcoming, recurring… (spec 002 §10.1). */
  categories?: Record<string, number>;
  success: boolean;
  error?: string;
}

type ErrorType =
  "validation" | "api_error" | "rate_limit" | "auth_error" | "not_found" | "permission" | "internal";

export interface ErrorInfo {
  type: ErrorType;
  message: string;
  failedNode?: string;
  failedStep?: string;
}

/** The kinds of entity a step can hand to the steps after it (spec 003 EntityReferences, plus notes). */
export type RefKind = "events" | "tasks" | "lists" | "contacts" | "emails" | "notes";

/** What one step of this message produced or acted on, for the steps that depend on it. */
export interface StepRef {
  stepId: string;
  capability: CapabilityName;
  /** The operation that produced it, e.g. "lists.create". */
  functionName: string;
  kind: RefKind;
  /** Ids of the entities, in the order the step returned them. */
  ids: string[];
  /** Short human summary, e.g. `list "camping"`. */
  summary: string;
  /** When the entity is due or happens, ISO, if it has a time. */
  when?: string;
}

/**
 * Running references of one message (spec 003 "EntityReferences … allows later steps to reference
 * results from earlier steps"): for each kind, the ids the message's steps produced and the one
 * selected (the latest step's, when it produced exactly one), and each step's result by step id.
 * Written by the executor as each step succeeds; read by the steps that depend on it.
 */
export type EntityReferences = {
  [K in RefKind]?: { ids: string[]; selectedId?: string };
} & { steps: Record<string, StepRef> };
