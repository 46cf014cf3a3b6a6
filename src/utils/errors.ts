/** Where an error happened, for logs; never shown to users as is. */
export interface ErrorContext {
  node?: string;
  step?: string;
  capability?: string;
  [key: string]: unknown;
}

/**
 * Base of Memo's own errors: carries context for the logs and, where the user caused it,
 * a message that is safe to show them.
 */
export class MemoError extends Error {
  constructor(
    message: string,
    readonly context: ErrorContext = {},
    readonly userMessage?: string,
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
