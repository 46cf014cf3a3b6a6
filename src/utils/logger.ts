import { pino, type DestinationStream, type Logger, type LevelWithSilent } from "pino";
import { phoneTag, scrubIdentifiers } from "./phone.js";
import { currentTurn } from "./turnContext.js";

export type { Logger };

/** Fields that hold a phone number: logged as its keyed tag (utils/phone `phoneTag`). */
export const PHONE_FIELDS = ["phone", "threadId", "userPhone", "user_phone", "to", "from", "waId", "wa_id"];

/**
 * Fields that hold ids with a phone inside: a WhatsApp message id spells the sender's number in
 * base64, a delivery key names the phone. Logged with those parts replaced by tags.
 */
export const ID_FIELDS = [
  "traceId",
  "messageId",
  "waMessageId",
  "whatsappMessageId",
  "replyToMessageId",
  "inReplyTo",
  "key",
];

/** Fields that hold what people wrote or were sent: message bodies, email content, transcripts. */
export const CONTENT_FIELDS = [
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
export const SECRET_FIELDS = [
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

/** A phone field's value as its tag, an id's phone parts as tags; anything else as "[redacted]". */
function censor(value: unknown, path: string[]): unknown {
  const field = path.at(-1) ?? "";
  if (ID_FIELDS.includes(field)) return typeof value === "string" ? scrubIdentifiers(value) : value;
  if (PHONE_FIELDS.includes(field)) {
    return typeof value === "string" || typeof value === "number" ? phoneTag(String(value)) : value;
  }
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
        ...(redactAll ? [...paths(PHONE_FIELDS), ...paths(ID_FIELDS), ...paths(CONTENT_FIELDS)] : []),
      ],
      censor,
    },
  };
  return destination ? pino(settings, destination) : pino(settings);
}
