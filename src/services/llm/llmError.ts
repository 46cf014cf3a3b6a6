import type { LLMNode } from "../../types/llm.js";
import { MemoError } from "../../utils/errors.js";
import type { LLMUsage } from "../../types/llm.js";

/**
 * Why an LLM call failed: `timeout` (LLM_TIMEOUT_MS passed), `rate_limited` (429 after retries),
 * `invalid_output` (not JSON, or not what the schema allows), `api_error` (any other failure),
 * `not_configured` (no OPENAI_API_KEY nor OPENAI_BASE_URL), `over_budget` (the user's daily LLM
 * budget is spent; the call was never made).
 */
export type LLMErrorKind =
  "timeout" | "rate_limited" | "invalid_output" | "api_error" | "not_configured" | "over_budget";

/** Where it failed; never the prompt or the answer, which hold the user's words. */
export interface LLMErrorContext {
  node: LLMNode;
  model?: string;
  fallbackModel?: string;
  /** HTTP status of the last failed request, when there was one. */
  status?: number;
  [key: string]: unknown;
}

/** An LLM call failed, on the node's model and then on the fallback model. */
export class LLMError extends MemoError {
  /** Tokens spent on answers that were then rejected, when any came back. */
  readonly usage?: LLMUsage;
  /** HTTP status of the last failed request, when there was one. */
  readonly status?: number;

  constructor(
    readonly kind: LLMErrorKind,
    message: string,
    context: LLMErrorContext,
    options: { cause?: unknown; usage?: LLMUsage } = {},
  ) {
    super(message, context, { cause: options.cause });
    this.usage = options.usage;
    this.status = context.status;
  }

  /** For nodes that need an LLM when createLLMService returned null. */
  static notConfigured(node: LLMNode): LLMError {
    return new LLMError("not_configured", `${node} needs an LLM: set OPENAI_API_KEY or OPENAI_BASE_URL`, {
      node,
    });
  }
}

/** The kind of a failure thrown by ChatOpenAI or the openai client, and its HTTP status if any. */
export function classifyFailure(error: unknown): { kind: LLMErrorKind; status?: number } {
  if (error instanceof LLMError) return { kind: error.kind, status: error.status };
  if (!(error instanceof Error)) return { kind: "api_error" };
  const status = "status" in error && typeof error.status === "number" ? error.status : undefined;
  // With jsonSchema, the openai client parses the answer itself: JSON.parse, then the zod schema.
  if (
    error instanceof SyntaxError ||
    error.name.includes("ZodError") ||
    error.name === "OutputParserException"
  ) {
    return { kind: "invalid_output" };
  }
  // LangChain rewraps the openai client's APIConnectionTimeoutError as a TimeoutError.
  // The call's overall budget ran out (AbortSignal.timeout).
  if (
    error.name === "AbortError" ||
    error.message === "Aborted" ||
    error.name === "TimeoutError" ||
    error.constructor.name === "APIConnectionTimeoutError"
  ) {
    return { kind: "timeout" };
  }
  if (status === 429 || error.name.startsWith("RateLimit") || error.name === "InsufficientQuotaError") {
    return { kind: "rate_limited", status };
  }
  return { kind: "api_error", status };
}
