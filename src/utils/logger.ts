import {
  pino,
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type LevelWithSilent,
  type LogFn,
  type Logger,
} from "pino";
import { phoneTag, scrubIdentifiers } from "./phone.js";
import { currentTurn } from "./turnContext.js";

export type { Logger };

/**
 * Fields that hold a phone number, at the top of a line or one level down: logged as its keyed
 * tag (utils/phone `phoneTag`). A number anywhere else is tagged by its value (`scrubbed`).
 */
const PHONE_FIELDS = ["phone", "threadId", "userPhone", "user_phone", "to", "from", "waId", "wa_id"];

/** Fields that hold what people wrote or were sent: message bodies, email content, transcripts. */
const CONTENT_FIELDS = [
  "text",
  "body",
  "content",
  "caption",
  "question",
  "answer",
  "reply",
  "transcript",
  "summary",
  "subject",
  "snippet",
  "html",
  "prompt",
  "messages",
  "email",
];

/** Fields that hold credentials. */
const SECRET_FIELDS = [
  "password",
  "token",
  "accessToken",
  "refreshToken",
  "idToken",
  "apiKey",
  "appSecret",
  "secret",
  "authorization",
  "cookie",
];

/** Each field at the top of a log line and one level down (`{ message: { text } }`, `req.headers`). */
function paths(fields: readonly string[]): string[] {
  return fields.flatMap((f) => [f, `*.${f}`]);
}

/** Content and credentials as "[redacted]". */
function censor(value: unknown): unknown {
  // Counts and flags ("messages: 12") say nothing anyone wrote.
  return typeof value === "string" || typeof value === "object" ? "[redacted]" : value;
}

/** Fields of an error worth logging: what and where it broke, never the data it broke on. */
const ERROR_FIELDS = ["type", "code", "kind", "status", "name", "table", "constraint", "column", "routine"];

type SerializedError = ReturnType<typeof pino.stdSerializers.err>;

/**
 * An error for a log line without anyone's data: its message and stack with numbers and message
 * ids tagged, its context with phone fields tagged and content left out, and none of Postgres'
 * `detail` / `where` (which quote the failing row). Causes the same way.
 */
function privateError(error: SerializedError | undefined, depth = 0): Record<string, unknown> | undefined {
  if (!error || typeof error !== "object") return error;
  const safe: Record<string, unknown> = {};
  for (const field of ERROR_FIELDS) if (error[field] !== undefined) safe[field] = error[field];
  if (typeof error.message === "string") safe.message = scrubIdentifiers(error.message);
  if (typeof error.stack === "string") safe.stack = scrubIdentifiers(error.stack);
  const context = error.context as Record<string, unknown> | undefined;
  if (context && typeof context === "object") {
    safe.context = Object.fromEntries(
      Object.entries(context)
        .filter(([key]) => !CONTENT_FIELDS.includes(key) && !SECRET_FIELDS.includes(key))
        .map(([key, value]) => [
          key,
          PHONE_FIELDS.includes(key) && typeof value === "string"
            ? phoneTag(value)
            : typeof value === "string"
              ? scrubIdentifiers(value)
              : value,
        ]),
    );
  }
  if (error.cause && depth < 5) safe.cause = privateError(error.cause, depth + 1);
  return safe;
}

/** Nesting past which a logged value is cut short: far deeper than any line Memo writes. */
const MAX_DEPTH = 12;

/**
 * `value` with every phone number and WhatsApp message id in it tagged, whatever field it sits in
 * (an operation id, a delivery key, a URL, a field added next year): every string and key is
 * scrubbed by value (utils/phone `scrubIdentifiers`: numbers, "wamid." ids, base64 spelling a
 * number), phone fields are tagged whole, and errors are reduced to `privateError`. The error at
 * `err` is left to its serializer.
 */
function scrubbed(value: unknown, field: string, depth: number, seen: WeakSet<object>): unknown {
  const phoneField = depth <= 1 && PHONE_FIELDS.includes(field);
  if (typeof value === "string") return phoneField ? phoneTag(value) : scrubIdentifiers(value);
  if (typeof value === "number") return phoneField ? phoneTag(String(value)) : value;
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Error) {
    return depth === 0 && field === "err" ? value : privateError(pino.stdSerializers.err(value));
  }
  if (seen.has(value)) return "[Circular]";
  if (depth >= MAX_DEPTH) return "[nested]";
  seen.add(value);
  try {
    const json = (value as { toJSON?: unknown }).toJSON;
    if (typeof json === "function") return scrubbed(json.call(value), field, depth, seen);
    if (Array.isArray(value)) return value.map((item) => scrubbed(item, field, depth + 1, seen));
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        scrubIdentifiers(key),
        scrubbed(item, key, depth + 1, seen),
      ]),
    );
  } finally {
    seen.delete(value);
  }
}

/** A log line's fields (or a child logger's bindings) with phone numbers and message ids tagged. */
function scrubbedFields(fields: Record<string, unknown>): Record<string, unknown> {
  return scrubbed(fields, "", -1, new WeakSet()) as Record<string, unknown>;
}

export interface LoggerOptions {
  /** Hash phone numbers and drop message bodies, email content and credentials (default: true). */
  redact?: boolean;
}

/**
 * JSON logs, one line per event, on stdout unless a destination is given (tests). Each line
 * inside a turn carries its trace id and the user's tag; phone numbers are tagged and bodies,
 * email content and credentials redacted (LOG_REDACT=off keeps bodies and numbers for local
 * debugging; credentials are redacted always).
 */
export function createLogger(
  level: LevelWithSilent = "info",
  destination?: DestinationStream,
  options: LoggerOptions = {},
): Logger {
  const redactAll = options.redact ?? true;
  const settings = {
    level,
    base: { service: "memo" },
    timestamp: pino.stdTimeFunctions.isoTime,
    // The turn a line belongs to, so one user's turn can be followed across every component.
    mixin: () => {
      const turn = currentTurn();
      if (!turn) return {};
      return {
        traceId: redactAll ? scrubIdentifiers(turn.traceId) : turn.traceId,
        trigger: turn.trigger,
        ...(turn.phone ? { user: redactAll ? phoneTag(turn.phone) : turn.phone } : {}),
      };
    },
    // Every field of every line, scrubbed by value rather than by a list of field names.
    ...(redactAll
      ? {
          formatters: { log: scrubbedFields },
          hooks: {
            // The message too (`logger.warn(\`no reply to ${id}\`)`), and the error message pino
            // takes as the message when none is given.
            logMethod(this: Logger, args: Parameters<LogFn>, method: LogFn) {
              const scrubbedArgs: unknown[] = args.map((a) =>
                typeof a === "string" ? scrubIdentifiers(a) : a,
              );
              const [first] = args;
              if (args.length === 1 && typeof first === "object" && first !== null) {
                const error = first instanceof Error ? first : (first as { err?: unknown }).err;
                if (error instanceof Error && !("msg" in first))
                  scrubbedArgs.push(scrubIdentifiers(error.message));
              }
              method.apply(this, scrubbedArgs as Parameters<LogFn>);
            },
          },
        }
      : {}),
    serializers: {
      err: (error: Error) => {
        const serialized = pino.stdSerializers.err(error);
        return redactAll ? privateError(serialized) : serialized;
      },
    },
    redact: {
      paths: [
        ...paths(SECRET_FIELDS),
        "req.headers.authorization",
        ...(redactAll ? paths(CONTENT_FIELDS) : []),
      ],
      censor,
    },
  };
  const logger = destination ? pino(settings, destination) : pino(settings);
  if (redactAll) {
    // pino formats only the root's bindings; a child's (`logger.child({ phone })`) are scrubbed
    // here. Children are made from their parent by Object.create, so they inherit this `child`.
    type Child = (this: Logger, bindings: Bindings, options?: ChildLoggerOptions) => Logger;
    const child = (Object.getPrototypeOf(logger) as { child: Child }).child;
    const scrubbingChild: Child = function (bindings, options) {
      return child.call(this, scrubbedFields(bindings), options);
    };
    logger.child = scrubbingChild as unknown as Logger["child"];
  }
  return logger;
}
