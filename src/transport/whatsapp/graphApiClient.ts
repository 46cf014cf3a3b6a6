import { setTimeout as delay } from "node:timers/promises";
import { z } from "zod";
import { WhatsAppApiError, type GraphOperation } from "../../utils/errors.js";
import type { Logger } from "../../utils/logger.js";
import type { SendMetrics } from "../../services/metrics/metrics.js";
import type { OutboundPayload } from "./outboundFormat.js";
import { bufferedFetch } from "../../utils/bufferedFetch.js";

export interface GraphApiClientOptions {
  /** Base URL, read per request (the local simulator learns its port late), e.g. https://graph.facebook.com. */
  baseUrl: () => string;
  /** Graph API version, e.g. "v23.0". */
  apiVersion: string;
  /** The WhatsApp Business phone number id that sends. */
  phoneNumberId: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  accessToken: string | undefined;
  /** Milliseconds one HTTP attempt may take, body included. */
  timeoutMs: number;
  /** Retries after the first attempt, for failures worth retrying. */
  maxRetries: number;
  logger: Logger;
  /** Waits between retries (default: a real timer); tests pass a recorder. */
  sleep?: (ms: number) => Promise<void>;
  /** HTTP client (default: bufferedFetch for JSON calls, the global fetch for media downloads). */
  fetch?: typeof fetch;
  /** Counts sends that failed for good, by Meta's error code (default: not counted). */
  metrics?: SendMetrics;
}

/** Meta error code: the access token expired or is invalid. */
const TOKEN_INVALID_CODE = 190;
/** Meta error code: the phone number's throughput limit was hit (retried with backoff). */
const THROUGHPUT_LIMIT_CODE = 130429;
/** Meta error code: too many messages to one user in a short time (retried after a longer wait). */
const PAIR_RATE_LIMIT_CODE = 131056;

/** Meta error codes that mean "try again later": temporary API trouble, throughput, pair rate limit. */
const RETRYABLE_CODES = new Set([2, 131000, THROUGHPUT_LIMIT_CODE, PAIR_RATE_LIMIT_CODE]);

/** First backoff before a retry; doubled per retry, capped, half of it random. */
const RETRY_BASE_MS = 500;
const RETRY_CAP_MS = 8_000;
/** WhatsApp lets a business send about one message every 6 seconds to the same user. */
const PAIR_RATE_LIMIT_BASE_MS = 6_000;
const PAIR_RATE_LIMIT_CAP_MS = 30_000;

/** Meta's error body: `{ error: { message, type, code, error_subcode, fbtrace_id } }`. */
const MetaErrorSchema = z.object({
  error: z.looseObject({
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.number().int().optional(),
    error_subcode: z.number().int().optional(),
    fbtrace_id: z.string().optional(),
  }),
});

const SendResponseSchema = z.looseObject({
  messages: z.array(z.looseObject({ id: z.string().min(1) })).min(1),
});

const SuccessResponseSchema = z.looseObject({ success: z.boolean() });

const UploadResponseSchema = z.looseObject({ id: z.string().min(1) });

const MediaResponseSchema = z.looseObject({
  url: z.url(),
  mime_type: z.string().min(1),
  // Meta has sent file_size both as a number and as a numeric string.
  file_size: z.coerce.number().int().nonnegative().optional(),
});

/** The JSON of a body, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An error for a non-2xx answer, carrying Meta's code when the body is a Meta error. */
function errorFromResponse(operation: GraphOperation, status: number, body: unknown): WhatsAppApiError {
  const parsed = MetaErrorSchema.safeParse(body);
  const meta = parsed.success ? parsed.data.error : undefined;
  const code = meta?.code;
  const retryable =
    code !== TOKEN_INVALID_CODE &&
    (status >= 500 || status === 429 || (code !== undefined && RETRYABLE_CODES.has(code)));
  const detail = meta
    ? `code ${code ?? "?"}${meta.error_subcode !== undefined ? `/${meta.error_subcode}` : ""}: ${meta.message ?? meta.type ?? "no message"}`
    : "no Meta error body";
  return new WhatsAppApiError(`WhatsApp ${operation} failed with HTTP ${status} (${detail})`, {
    operation,
    kind: "api",
    retryable,
    status,
    code,
    subcode: meta?.error_subcode,
    fbtraceId: meta?.fbtrace_id,
  });
}

/** A thrown fetch failure as a WhatsAppApiError: a timeout, else a network error (both retryable). */
function errorFromThrown(operation: GraphOperation, error: unknown, timeoutMs: number): WhatsAppApiError {
  if (error instanceof WhatsAppApiError) return error;
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError" || name === "AbortError") {
    return new WhatsAppApiError(
      `WhatsApp ${operation} timed out after ${timeoutMs} ms`,
      { operation, kind: "timeout", retryable: true },
      { cause: error },
    );
  }
  return new WhatsAppApiError(
    `WhatsApp ${operation} could not reach the Graph API`,
    { operation, kind: "network", retryable: true },
    { cause: error },
  );
}

/**
 * Client for the WhatsApp Cloud API (Graph API): sends messages, marks messages read, fetches
 * and uploads media. Retries 5xx, network errors, timeouts and throttling (130429) with exponential backoff
 * and jitter; waits longer on the per-user rate limit (131056); never retries other 4xx, and
 * reports an expired or invalid token (190) loudly. Never logs the token or message contents.
 */
export class GraphApiClient {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly fetch: typeof fetch;
  /** For the small JSON calls (sends, reads, media lookups); downloads stream through `fetch`. */
  private readonly jsonFetch: typeof fetch;

  constructor(private readonly options: GraphApiClientOptions) {
    this.sleep = options.sleep ?? ((ms) => delay(ms));
    this.fetch = options.fetch ?? globalThis.fetch;
    this.jsonFetch = options.fetch ?? bufferedFetch;
  }

  /** POST /{v}/{phoneNumberId}/messages with `payload`; returns the new message's wamid. */
  async sendMessage(payload: OutboundPayload): Promise<{ id: string }> {
    const body = { messaging_product: "whatsapp", recipient_type: "individual", ...payload };
    try {
      const answer = await this.callJson(
        "sendMessage",
        "POST",
        this.messagesPath(),
        SendResponseSchema,
        body,
      );
      return { id: answer.messages[0]!.id };
    } catch (error) {
      // Once per message, after the retries: what operators alert on (190 token, 131047 window...).
      if (error instanceof WhatsAppApiError) this.options.metrics?.sendFailed(error);
      throw error;
    }
  }

  /** Marks an inbound message read and, unless `typing` is false (default: true), shows "typing…". */
  async markRead(messageId: string, typing = true): Promise<void> {
    const body = {
      messaging_product: "whatsapp",
      status: "read",
      message_id: messageId,
      ...(typing ? { typing_indicator: { type: "text" } } : {}),
    };
    const answer = await this.callJson("markRead", "POST", this.messagesPath(), SuccessResponseSchema, body);
    if (!answer.success) {
      throw new WhatsAppApiError("WhatsApp markRead answered success: false", {
        operation: "markRead",
        kind: "invalid_response",
        retryable: false,
      });
    }
  }

  /** GET /{v}/{mediaId}. Call right before downloading: the URL expires within minutes. */
  async getMedia(mediaId: string): Promise<{ url: string; mimeType: string; fileSize?: number }> {
    const answer = await this.callJson(
      "getMedia",
      "GET",
      `/${encodeURIComponent(mediaId)}`,
      MediaResponseSchema,
    );
    return { url: answer.url, mimeType: answer.mime_type, fileSize: answer.file_size };
  }

  /**
   * Fetches a media file: its URL from getMedia, then the bytes with the bearer token. Rejects
   * (kind "too_large", not retryable) when Meta's file_size, the Content-Length or the bytes
   * actually streamed exceed `maxBytes`, without reading further.
   */
  async downloadMedia(mediaId: string, maxBytes: number): Promise<{ data: Buffer; mimeType: string }> {
    const media = await this.getMedia(mediaId);
    if (media.fileSize !== undefined && media.fileSize > maxBytes) {
      throw this.tooLarge(media.fileSize, maxBytes);
    }
    // Security: the media URL comes from a response and the bearer token goes with it; refuse to
    // send the token over plain HTTP (readable in transit), except to the Graph origin itself.
    this.assertTokenMayGoTo(media.url);
    const data = await this.withRetries("downloadMedia", async (signal) => {
      const response = await this.fetch(media.url, { headers: this.authHeaders(), signal });
      if (!response.ok) {
        throw errorFromResponse("downloadMedia", response.status, parseJson(await response.text()));
      }
      return this.readLimited(response, maxBytes);
    });
    return { data, mimeType: media.mimeType };
  }

  /**
   * POST /{v}/{phoneNumberId}/media: uploads a file (multipart: messaging_product, type, file) for
   * a message to send by its id; returns the media id. Retried like other calls: a retry after a
   * lost answer only leaves an unused upload behind, which Meta deletes after 30 days.
   */
  async uploadMedia(data: Buffer, mimeType: string): Promise<string> {
    // The type as Meta's table of supported media types writes it (Cloud API, "Supported media
    // types"): "audio/ogg" for Ogg/Opus, with no parameters ("audio/ogg; codecs=opus" is not in it).
    const type = (mimeType.split(";")[0] ?? "").trim().toLowerCase();
    const extension = type === "audio/ogg" ? "ogg" : (type.split("/")[1] ?? "bin");
    const answer = await this.withRetries("uploadMedia", async (signal) => {
      const form = new FormData();
      form.append("messaging_product", "whatsapp");
      form.append("type", type);
      // The file part's own type is the same table value.
      form.append("file", new Blob([new Uint8Array(data)], { type }), `memo.${extension}`);
      // The global fetch writes the multipart body and its boundary.
      const response = await this.fetch(
        this.graphUrl(`/${encodeURIComponent(this.options.phoneNumberId)}/media`),
        { method: "POST", headers: this.authHeaders(), body: form, signal },
      );
      const json = parseJson(await response.text());
      if (!response.ok) throw errorFromResponse("uploadMedia", response.status, json);
      const parsed = UploadResponseSchema.safeParse(json);
      if (!parsed.success) {
        throw new WhatsAppApiError(
          `WhatsApp uploadMedia answered HTTP ${response.status} with an unexpected body`,
          { operation: "uploadMedia", kind: "invalid_response", retryable: false, status: response.status },
        );
      }
      return parsed.data;
    });
    return answer.id;
  }

  private messagesPath(): string {
    return `/${encodeURIComponent(this.options.phoneNumberId)}/messages`;
  }

  /** The Graph API URL of `path` (which starts with "/"), on the base URL as it is now. */
  private graphUrl(path: string): string {
    return `${this.options.baseUrl().replace(/\/+$/, "")}/${encodeURIComponent(this.options.apiVersion)}${path}`;
  }

  private authHeaders(): Record<string, string> {
    // Security: the token goes only into this header, never into a URL, a log line or an error.
    const token = this.options.accessToken;
    return token ? { authorization: `Bearer ${token}` } : {};
  }

  /** Throws unless `url` is HTTPS, or on the Graph API's own origin (the local simulator is plain HTTP). */
  private assertTokenMayGoTo(url: string): void {
    const target = new URL(url);
    const graphOrigin = new URL(this.options.baseUrl()).origin;
    if (target.protocol === "https:" || target.origin === graphOrigin) return;
    throw new WhatsAppApiError(
      `WhatsApp getMedia returned a ${target.protocol} URL on another host; not sending the token there`,
      { operation: "downloadMedia", kind: "invalid_response", retryable: false },
    );
  }

  /** One JSON request with retries; the answer is checked against `schema`. */
  private callJson<T>(
    operation: GraphOperation,
    method: "GET" | "POST",
    path: string,
    schema: z.ZodType<T>,
    body?: unknown,
  ): Promise<T> {
    return this.withRetries(operation, async (signal) => {
      const response = await this.jsonFetch(this.graphUrl(path), {
        method,
        headers: {
          ...this.authHeaders(),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      const json = parseJson(await response.text());
      if (!response.ok) throw errorFromResponse(operation, response.status, json);
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        // Not retried: a send that got this far was accepted, and retrying would send it twice.
        throw new WhatsAppApiError(
          `WhatsApp ${operation} answered HTTP ${response.status} with an unexpected body`,
          { operation, kind: "invalid_response", retryable: false, status: response.status },
        );
      }
      return parsed.data;
    });
  }

  /**
   * Runs `attempt` (with a fresh timeout signal each time) until it succeeds, fails for good, or
   * maxRetries retries are spent. Note that a send which timed out may have been delivered: a
   * retry can then deliver it twice (the Cloud API has no idempotency key).
   */
  private async withRetries<T>(
    operation: GraphOperation,
    attempt: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const { timeoutMs, maxRetries, logger } = this.options;
    for (let retry = 0; ; retry++) {
      try {
        return await attempt(AbortSignal.timeout(timeoutMs));
      } catch (thrown) {
        const error = errorFromThrown(operation, thrown, timeoutMs);
        if (error.code === TOKEN_INVALID_CODE) this.reportInvalidToken(operation, error);
        if (!error.retryable || retry >= maxRetries) throw error;
        const waitMs = backoffMs(retry, error.code);
        logger.warn(
          {
            event: "WHATSAPP_RETRY",
            operation,
            retry: retry + 1,
            maxRetries,
            kind: error.kind,
            status: error.status,
            code: error.code,
            subcode: error.subcode,
            fbtraceId: error.fbtraceId,
            waitMs,
          },
          `WhatsApp ${operation} failed; retrying`,
        );
        await this.sleep(waitMs);
      }
    }
  }

  /** Nothing can be sent until an operator replaces the token: say so where they will see it. */
  private reportInvalidToken(operation: GraphOperation, error: WhatsAppApiError): void {
    const what = this.options.accessToken
      ? "WhatsApp rejected the access token (code 190: expired or invalid). Replace WHATSAPP_ACCESS_TOKEN with a valid token and restart Memo; no WhatsApp messages can be sent until then."
      : "WhatsApp requires an access token (code 190) and WHATSAPP_ACCESS_TOKEN is not set. Set it and restart Memo; no WhatsApp messages can be sent until then.";
    this.options.logger.error(
      {
        event: "WHATSAPP_TOKEN_INVALID",
        operation,
        status: error.status,
        code: error.code,
        subcode: error.subcode,
        fbtraceId: error.fbtraceId,
      },
      what,
    );
  }

  private tooLarge(size: number | undefined, maxBytes: number): WhatsAppApiError {
    const seen = size === undefined ? "the download ran past it" : `${size} bytes`;
    return new WhatsAppApiError(`WhatsApp media exceeds the ${maxBytes}-byte limit (${seen})`, {
      operation: "downloadMedia",
      kind: "too_large",
      retryable: false,
      maxBytes,
    });
  }

  /** The body, read only while it stays within `maxBytes`; the download is cancelled past that. */
  private async readLimited(response: Response, maxBytes: number): Promise<Buffer> {
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel();
      throw this.tooLarge(declared, maxBytes);
    }
    if (!response.body) return Buffer.alloc(0);
    // The declared length can be absent or wrong: count what actually arrives.
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel();
        throw this.tooLarge(undefined, maxBytes);
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks);
  }
}

/** Milliseconds to wait before retry number `retry` (0-based). */
function backoffMs(retry: number, code: number | undefined): number {
  if (code === PAIR_RATE_LIMIT_CODE) {
    // At least the pair window, plus up to a second so queued sends do not line up again.
    return (
      Math.min(PAIR_RATE_LIMIT_CAP_MS, PAIR_RATE_LIMIT_BASE_MS * 2 ** retry) +
      Math.round(Math.random() * 1_000)
    );
  }
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** retry);
  // Half fixed, half random: spread out, but never a near-zero wait.
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
