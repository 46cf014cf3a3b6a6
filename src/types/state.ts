import type { DocumentContext, DocumentOffer } from "./document.js";
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
  ImageContext,
  LatestAction,
  PendingHITL,
  PlannerOutput,
  ResolverResult,
  TriggerType,
  User,
} from "./index.js";
import type { LLMUsage } from "./llm.js";

/** The user as the prompts see it (spec 003 UserContext). */
export interface UserContext {
  phone: string;
  timezone: string;
  language: "he" | "en" | "other";
  planTier: User["planTier"];
  googleConnected: boolean;
  capabilities: User["capabilities"];
  userName?: string;
}

/** The stored user record, loaded once per turn (spec 001 authContext). */
export interface AuthContext {
  user: User;
}

/** The message being handled (spec 003 InputContext). */
export interface InputContext {
  message: string;
  /** The message with reply-to and image context folded in (ReplyContext). */
  enhancedMessage?: string;
  triggerType: TriggerType;
  userPhone: string;
  whatsappMessageId?: string;
  replyToMessageId?: string;
  /** WhatsApp marked the message forwarded: written by someone else, so data, not the user's request (D14). */
  forwarded?: boolean;
  imageContext?: ImageContext;
  /** The document sent with this message (its caption is the message): data for the planner (D14). */
  documentContext?: DocumentContext;
  audioTranscription?: string;
  /** The sender as the caller already loaded it (the transport); context_assembly loads it when absent. */
  user?: User;
}

/** The present moment in the user's zone (spec 003 TimeContext). */
export interface TimeContext {
  /** "[Current time: Thursday, 02/01/2026 15:30 (2026-01-02T13:30:00.000Z), Timezone: Asia/Jerusalem]" */
  formatted: string;
  iso: string;
  /** Epoch milliseconds of the same instant. */
  epochMs: number;
  timezone: string;
  /** 0 = Sunday … 6 = Saturday, in the user's zone. */
  dayOfWeek: number;
  /** Day name in the user's language. */
  dayName: string;
  /** DD/MM/YYYY in the user's zone. */
  localDate: string;
  /** HH:mm in the user's zone. */
  localTime: string;
}

/** One node run, for the turn's metadata. */
interface NodeExecution {
  node: string;
  startTime: number;
  endTime: number;
  durationMs: number;
}

/** What a turn cost (spec 003 ExecutionMetadata), accumulated by every node. */
export interface ExecutionMetadata {
  startTime: number;
  nodeExecutions: NodeExecution[];
  llmCalls: number;
  totalTokens: number;
  totalCost: number;
  /** One entry per LLM call, with node and model. */
  llmUsage: LLMUsage[];
}

/**
 * The state of one turn as nodes, resolvers and executors read it (src/graph/state/memoState.ts
 * builds it with LangGraph's reducers and checks at compile time that both say the same).
 */
export interface MemoState {
  authContext: AuthContext;
  user: UserContext;
  input: InputContext;
  now: TimeContext;
  recentMessages: ConversationMessage[];
  longTermSummary: string | undefined;
  latestActions: LatestAction[];
  refs: EntityReferences;
  plannerOutput: PlannerOutput | undefined;
  routingSuggestions: string[];
  clarificationQuestion: string | undefined;
  hitlRequest: HITLRequest | null;
  pendingHITL: PendingHITL | null;
  hitlResults: Record<string, HITLResult>;
  hitlRounds: number;
  disambiguation: DisambiguationState | undefined;
  resolverResults: Map<string, ResolverResult>;
  pendingExecutorArgs: Record<string, Record<string, unknown>>;
  executorArgs: Map<string, Record<string, unknown>>;
  executionResults: Map<string, ExecutionResult>;
  executedOperations: Record<string, ExecutedOperation>;
  routerPasses: number;
  formattedResponse: FormattedResponse[];
  finalResponse: string | undefined;
  documentOffer: DocumentOffer | undefined;
  acted: boolean;
  error: ErrorInfo | undefined;
  metadata: ExecutionMetadata;
  threadId: string;
  traceId: string;
}
