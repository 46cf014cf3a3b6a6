/** Where an error happened, for logs; never shown to users as is. */
export interface ErrorContext {
  node?: string;
  step?: string;
  capability?: string;
  [key: string]: unknown;
}

/**
 * Base of every error Memo throws: carries context for the logs. What the user reads about an
 * error is decided in one place (graph/errorText.ts), in their language, never from `message`.
 */
export class MemoError extends Error {
  constructor(
    message: string,
    readonly context: ErrorContext = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The database cannot be reached or refused the connection. */
export class DatabaseUnavailableError extends MemoError {}

/** A schema migration failed; start-up stops. */
export class MigrationError extends MemoError {}

/** A phone number that cannot be normalized to E.164 digits. */
export class InvalidPhoneError extends MemoError {}

/** The message of any thrown value, including AggregateErrors whose own message is empty. */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && !error.message) {
    return error.errors.map(describeError).join("; ") || "AggregateError";
  }
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * Why a call failed: `api` (Meta answered with an error), `network` (no answer), `timeout`
 * (timeoutMs passed), `invalid_response` (an answer Memo cannot read), `too_large` (media over the limit).
 */
export type WhatsAppErrorKind = "api" | "network" | "timeout" | "invalid_response" | "too_large";

/** The Graph API operation, for logs and error context. */
export type GraphOperation = "sendMessage" | "markRead" | "getMedia" | "downloadMedia" | "uploadMedia";

/** A failed WhatsApp Cloud API call, with Meta's error code when it sent one. */
export class WhatsAppApiError extends MemoError {
  readonly kind: WhatsAppErrorKind;
  /** HTTP status, when an answer came. */
  readonly status: number | undefined;
  /** Meta's `error.code`, e.g. 190, 130429, 131056. */
  readonly code: number | undefined;
  /** Meta's `error.error_subcode`. */
  readonly subcode: number | undefined;
  /** Whether trying again later may succeed. */
  readonly retryable: boolean;
  /** Meta's `error.fbtrace_id`, for Meta support. */
  readonly fbtraceId?: string;
  /** The download limit a `too_large` file went over, in bytes. */
  readonly maxBytes?: number;

  constructor(
    message: string,
    // A file over the limit always says which limit (the user is told it); no other kind has one.
    details: {
      operation: GraphOperation;
      retryable: boolean;
      status?: number;
      code?: number;
      subcode?: number;
      fbtraceId?: string;
    } & (
      | { kind: "too_large"; maxBytes: number }
      | { kind: Exclude<WhatsAppErrorKind, "too_large">; maxBytes?: undefined }
    ),
    options?: { cause?: unknown },
  ) {
    const { operation, kind, retryable, status, code, subcode, fbtraceId, maxBytes } = details;
    super(message, { step: operation, kind, status, code, subcode, fbtraceId, maxBytes }, options);
    this.kind = kind;
    this.status = status;
    this.code = code;
    this.subcode = subcode;
    this.retryable = retryable;
    this.fbtraceId = fbtraceId;
    this.maxBytes = maxBytes;
  }
}
