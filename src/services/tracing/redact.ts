/**
 * What may leave the process for LangSmith. Phone numbers never do: each becomes its keyed tag
 * (the same tag the logs carry), and so does every WhatsApp message id, whose base64 body spells
 * the sender's number. Without LANGSMITH_INCLUDE_CONTENT, what people wrote and were sent stays
 * home too: every string is "[redacted]" except short identifiers under known keys (node, model,
 * capability, action, status…), so a trace keeps its shape, plan and counts but no words.
 */

import { scrubIdentifiers, type Tagger } from "../../utils/phone.js";

export { scrubIdentifiers, type Tagger };

/** Keys whose short string values are identifiers Memo or LangChain chose, never anyone's words. */
const IDENTIFIER_KEYS = new Set([
  "capability",
  "capabilities",
  "routingSuggestions",
  "action",
  "status",
  "node",
  "model",
  "model_name",
  "ls_model_name",
  "ls_provider",
  "model_provider",
  "functionName",
  "operation",
  "entityType",
  "agent",
  "role",
  "type",
  "kind",
  "lc",
  "id",
  "stepId",
  "hitlId",
  "operationId",
  "traceId",
  "threadId",
  "whatsappMessageId",
  "replyToMessageId",
  "userPhone",
  "phone",
  "dependsOn",
  "missingFields",
  "triggerType",
  "intentType",
  "riskLevel",
  "expectedInput",
  "language",
  "timezone",
  "timeZone",
  "planTier",
  "iso",
  "finish_reason",
  "errorKind",
]);

/** Longest identifier kept: anything longer is text, whatever its key. */
const MAX_IDENTIFIER_LENGTH = 80;
/** Nesting deeper than this is cut: no trace payload of Memo's goes near it. */
const MAX_DEPTH = 24;
const REDACTED = "[redacted]";

export interface RedactOptions {
  /** Keep what people wrote (LANGSMITH_INCLUDE_CONTENT); phone numbers are tagged regardless. */
  includeContent: boolean;
  tag: Tagger;
}

/** A run's inputs, outputs or metadata as they may be sent (a copy; the original is untouched). */
export function redactPayload<T>(value: T, options: RedactOptions): T {
  return walk(value, undefined, options, 0, new WeakSet()) as T;
}

function walk(
  value: unknown,
  key: string | undefined,
  options: RedactOptions,
  depth: number,
  seen: WeakSet<object>,
): unknown {
  if (typeof value === "string") {
    if (options.includeContent) return scrubIdentifiers(value, options.tag);
    return key !== undefined && IDENTIFIER_KEYS.has(key) && value.length <= MAX_IDENTIFIER_LENGTH
      ? scrubIdentifiers(value, options.tag)
      : REDACTED;
  }
  if (value === null || typeof value !== "object") {
    // Numbers and flags are counts, times and switches; functions and symbols do not serialize.
    return typeof value === "number" || typeof value === "boolean" || value === undefined ? value : undefined;
  }
  if (depth >= MAX_DEPTH || seen.has(value)) return REDACTED;
  seen.add(value);
  try {
    // An array's items are named by the array's key ("capabilities": ["calendar"]).
    if (Array.isArray(value)) return value.map((item) => walk(item, key, options, depth + 1, seen));
    if (value instanceof Date) return value.toISOString();
    // Bytes (an image, a voice note) are never sent, even with content: their size says enough.
    if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
    // Maps, Buffers and class instances go as JSON.stringify would send them.
    const plain =
      "toJSON" in value && typeof value.toJSON === "function" ? (value.toJSON as () => unknown)() : value;
    if (plain !== value) return walk(plain, key, options, depth + 1, seen);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // Keys are ids at times (an operation id holds the message id): tagged like values.
      out[scrubIdentifiers(k, options.tag)] = walk(v, k, options, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
