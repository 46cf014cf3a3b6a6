import { Annotation } from "@langchain/langgraph";
import { enforceMemoryLimits } from "../../services/memory/limits.js";
import { mergeRefs } from "../plan/refs.js";
import type {
  ConversationMessage,
  DisambiguationState,
  EntityReferences,
  ErrorInfo,
  ExecutedOperation,
  ExecutionResult,
  FormattedResponse,
  HITLRequest,
  HITLResult,
  LatestAction,
  PendingHITL,
  PlannerOutput,
  ResolverResult,
} from "../../types/index.js";
import type {
  AuthContext,
  ExecutionMetadata,
  InputContext,
  MemoState,
  TimeContext,
  UserContext,
} from "../../types/state.js";
import type { DocumentOffer } from "../../types/document.js";

const lastValue = <T>(initial: () => T) =>
  Annotation<T>({ reducer: (_current: T, update: T) => update, default: initial });

/**
 * The entries of a map channel's update. Nodes write Maps; the dev server's API shows a Map as the
 * plain record `{}` (JSON has no Map), and a fork in LangGraph Studio sends back what it shows: a
 * record (or JSON's `[key, value]` pairs) merges as the same entries.
 */
function entriesOf<V>(
  update: Map<string, V> | Record<string, V> | [string, V][] | null | undefined,
): [string, V][] {
  if (update instanceof Map) return [...update];
  if (Array.isArray(update)) return update;
  return update ? Object.entries(update) : [];
}

const mergeMap = <V>() =>
  Annotation<Map<string, V>>({
    reducer: (current, update) => new Map([...current, ...entriesOf<V>(update)]),
    default: () => new Map(),
  });

/**
 * The state of one turn. Everything here survives a checkpoint round trip: times are epoch
 * numbers or ISO strings, never Date objects.
 */
export const MemoStateAnnotation = Annotation.Root({
  /** Written by context_assembly; read by capability_check. */
  authContext: Annotation<AuthContext>,
  /** Written by context_assembly; read by every node. */
  user: Annotation<UserContext>,
  /** Set by the caller and context_assembly, enhanced by reply_context; read by planner and resolvers. */
  input: Annotation<InputContext>,
  /** Written by context_assembly; read by planner, resolvers, formatter. */
  now: Annotation<TimeContext>,
  /** Written by context_assembly (window) and memory_update; read by reply_context, planner, resolvers. Limits of spec 000 apply. */
  recentMessages: Annotation<ConversationMessage[]>({
    reducer: (current, update) =>
      update.length === 0 ? current : enforceMemoryLimits([...current, ...update]),
    default: () => [],
  }),
  /** Written by context_assembly; read by planner. */
  longTermSummary: lastValue<string | undefined>(() => undefined),
  /** Written by context_assembly (3 most recent first); read by planner for "it"/"that". */
  latestActions: lastValue<LatestAction[]>(() => []),
  /**
   * Running references (spec 003): what each step of this message produced, by step id, and per
   * kind. Written by executor as each step succeeds; read by the resolvers and entity resolvers of
   * the steps that depend on it (D13).
   */
  refs: Annotation<EntityReferences>({ reducer: mergeRefs, default: () => ({ steps: {} }) }),
  /** Written by planner; read by capability_check, hitl_gate, resolver_router. */
  plannerOutput: lastValue<PlannerOutput | undefined>(() => undefined),
  /** Capabilities the message's words point at; written by planner; read by hitl_gate to word a clarification. */
  routingSuggestions: lastValue<string[]>(() => []),
  /** Written by planner (its own wording of a clarification question); read by hitl_gate. */
  clarificationQuestion: lastValue<string | undefined>(() => undefined),
  /** A node's request to ask the user; written by resolver_router / entity_resolution, consumed by hitl_gate. */
  hitlRequest: lastValue<HITLRequest | null>(() => null),
  /** The one open question; written and cleared by hitl_gate; read by invokeMemoGraph. */
  pendingHITL: lastValue<PendingHITL | null>(() => null),
  /** Validated answers by hitlId; written by hitl_gate; read by planner (replan), resolver_router, entity_resolution. */
  hitlResults: Annotation<Record<string, HITLResult>>({
    reducer: (current, update) => ({ ...current, ...update }),
    default: () => ({}),
  }),
  /** Re-plan questions asked this turn; bounds the ask → replan loop. Written by hitl_gate. */
  hitlRounds: lastValue<number>(() => 0),
  /** Machine-only candidates; written by entity_resolution; read by hitl_gate and entity_resolution on resume. */
  disambiguation: lastValue<DisambiguationState | undefined>(() => undefined),
  /** Written by resolver_router; read by entity_resolution and executor. */
  resolverResults: mergeMap<ResolverResult>(),
  /** ID-resolved args of steps waiting for a safety confirmation; written and read by entity_resolution. */
  pendingExecutorArgs: Annotation<Record<string, Record<string, unknown>>>({
    reducer: (current, update) => ({ ...current, ...update }),
    default: () => ({}),
  }),
  /** ID-resolved args, authoritative for execution; written by entity_resolution; read by executor. */
  executorArgs: mergeMap<Record<string, unknown>>(),
  /** Written by executor (and entity_resolution for not-found); read by join, formatter, memory_update. */
  executionResults: mergeMap<ExecutionResult>(),
  /** PII-free idempotency ledger by operationId (traceId:stepId); written and read by executor. */
  executedOperations: Annotation<Record<string, ExecutedOperation>>({
    reducer: (current, update) => ({ ...current, ...update }),
    default: () => ({}),
  }),
  /** Passes of resolver_router this turn; bounds its loop. */
  routerPasses: lastValue<number>(() => 0),
  /** Written by response_formatter; read by response_writer. */
  formattedResponse: lastValue<FormattedResponse[]>(() => []),
  /** The reply; written by response_writer (or earlier by capability_check / hitl_gate / errors); read by invokeMemoGraph. */
  finalResponse: lastValue<string | undefined>(() => undefined),
  /** The offer of what a text the user saved proposes; written by planner ("save it"); kept with the reply by memory_update. */
  documentOffer: lastValue<DocumentOffer | undefined>(() => undefined),
  /** Whether the turn recorded a latest action (it did something); written by memory_update; read by invokeMemoGraph. */
  acted: lastValue<boolean>(() => false),
  /** Written by the node that failed; read by join and response_writer. */
  error: lastValue<ErrorInfo | undefined>(() => undefined),
  /** Accumulated by every node (timings) and LLM call (tokens, cost). */
  metadata: Annotation<ExecutionMetadata, Partial<ExecutionMetadata>>({
    reducer: (current, update) => ({
      startTime: current.startTime || (update.startTime ?? 0),
      nodeExecutions: [...current.nodeExecutions, ...(update.nodeExecutions ?? [])],
      llmCalls: current.llmCalls + (update.llmCalls ?? 0),
      totalTokens: current.totalTokens + (update.totalTokens ?? 0),
      totalCost: current.totalCost + (update.totalCost ?? 0),
      llmUsage: [...current.llmUsage, ...(update.llmUsage ?? [])],
    }),
    default: () => ({
      startTime: 0,
      nodeExecutions: [],
      llmCalls: 0,
      totalTokens: 0,
      totalCost: 0,
      llmUsage: [],
    }),
  }),
  /** The normalized phone; set by invokeMemoGraph. */
  threadId: lastValue<string>(() => ""),
  /** Set once per turn (WhatsApp message id, else a UUID) and never changed, also across a resume. */
  traceId: Annotation<string>({
    reducer: (current, update) => current || update,
    default: () => "",
  }),
});

/** The annotation's state is exactly the turn state of src/types/state.ts (checked by the compiler). */
type AnnotatedState = typeof MemoStateAnnotation.State;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const stateMatches: Same<AnnotatedState, MemoState> = true;
void stateMatches;
export type MemoUpdate = typeof MemoStateAnnotation.Update;
