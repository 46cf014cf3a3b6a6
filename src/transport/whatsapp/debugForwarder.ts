import type { Logger } from "../../utils/logger.js";
import { normalizePhone, phoneTag } from "../../utils/phone.js";
import { describeError } from "../../utils/errors.js";
import { SIGNATURE_HEADER, signBody } from "./signature.js";

/** How long one forward may take before it is given up (default: 5 s). */
const FORWARD_TIMEOUT_MS = 5_000;

export interface DebugForwarderOptions {
  /** DEBUG_FORWARD_URL: the developer's Memo webhook, e.g. https://dev.example.com/webhook/whatsapp. */
  url: string;
  /** DEBUG_FORWARD_PHONES, normalized: the test phones whose webhooks are forwarded. */
  phones: readonly string[];
  /** DEBUG_FORWARD_SECRET: the forwarded body is signed with it as Meta signs with the app secret. */
  secret: string;
  logger: Logger;
  /** Milliseconds one forward may take (default: 5000). */
  timeoutMs?: number;
}

/** A webhook body's JSON, as far as forwarding reads it (Meta's envelope; everything else kept). */
interface Envelope {
  entry?: { changes?: { value?: Record<string, unknown> }[] }[];
}

/** The phone a message (`from`), status (`recipient_id`) or contact (`wa_id`) concerns, or null. */
function phoneOf(item: unknown, field: "from" | "recipient_id" | "wa_id"): string | null {
  const raw =
    typeof item === "object" && item !== null ? (item as Record<string, unknown>)[field] : undefined;
  if (typeof raw !== "string") return null;
  try {
    return normalizePhone(raw);
  } catch {
    return null;
  }
}

/** Per array of a change's value, the field naming whose item it is. */
const PHONE_FIELD = { messages: "from", statuses: "recipient_id", contacts: "wa_id" } as const;

/**
 * The part of a webhook body that concerns the debug phones: the body's own bytes when everything
 * in it does (a local Memo then sees exactly what Meta sent), a copy holding only their messages,
 * statuses and contacts when other users' are in it too (those never leave), or null when none is.
 */
function debugPart(body: Buffer, phones: ReadonlySet<string>): Buffer | null {
  let json: Envelope;
  try {
    json = JSON.parse(body.toString("utf8")) as Envelope;
  } catch {
    return null;
  }
  let ours = 0;
  let others = 0;
  const entries = [];
  for (const entry of Array.isArray(json.entry) ? json.entry : []) {
    const changes = [];
    for (const change of Array.isArray(entry.changes) ? entry.changes : []) {
      const value = change.value;
      if (!value) continue;
      const kept: Record<string, unknown> = { ...value };
      let any = false;
      for (const [key, field] of Object.entries(PHONE_FIELD)) {
        const items = value[key];
        if (!Array.isArray(items)) continue;
        const mine = items.filter((item) => {
          const phone = phoneOf(item, field);
          return phone !== null && phones.has(phone);
        });
        // Contacts only say who wrote: they neither make a body ours nor someone else's.
        if (key !== "contacts") {
          ours += mine.length;
          others += items.length - mine.length;
          any ||= mine.length > 0;
        }
        if (mine.length > 0) kept[key] = mine;
        else delete kept[key];
      }
      if (any) changes.push({ ...change, value: kept });
    }
    if (changes.length > 0) entries.push({ ...entry, changes });
  }
  if (ours === 0) return null;
  if (others === 0) return body;
  return Buffer.from(JSON.stringify({ ...json, entry: entries }), "utf8");
}

/**
 * Debug forwarding (spec 002 §3.4, DebugForwarderService): the webhooks of a few test phones
 * (DEBUG_FORWARD_PHONES) are also sent to a developer's endpoint (DEBUG_FORWARD_URL), signed
 * with DEBUG_FORWARD_SECRET in WhatsApp's own header, so a Memo running on a laptop with that
 * secret as its WHATSAPP_APP_SECRET takes them as it would Meta's: real traffic of test phones.
 * Forwarding runs beside the webhook and never delays, nor fails, its 200 or the user's turn:
 * a forward that fails or takes longer than the timeout is logged and dropped (never retried).
 */
export class DebugForwarderService {
  private readonly phones: ReadonlySet<string>;
  /** Forwards still running (awaited by `idle`). */
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly options: DebugForwarderOptions) {
    this.phones = new Set(options.phones);
  }

  /**
   * Sends the debug phones' part of a verified webhook body, if there is one, in the background.
   * Returns at once and never throws.
   */
  forward(body: Buffer, context: { requestId?: string } = {}): void {
    let part: Buffer | null;
    try {
      part = debugPart(body, this.phones);
    } catch (error) {
      // A body of a shape this does not expect is not forwarded; the webhook goes on regardless.
      this.options.logger.warn(
        { event: "DEBUG_FORWARD_FAILED", requestId: context.requestId, err: describeError(error) },
        "debug forward: webhook body not read",
      );
      return;
    }
    if (!part) return;
    const sending = this.send(part, context.requestId).finally(() => this.running.delete(sending));
    this.running.add(sending);
  }

  /** Resolves once every forward started so far has ended (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private async send(body: Buffer, requestId: string | undefined): Promise<void> {
    const { url, secret, logger } = this.options;
    const timeoutMs = this.options.timeoutMs ?? FORWARD_TIMEOUT_MS;
    const started = performance.now();
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          // HMAC-SHA256 of these exact bytes under the forward secret, as Meta signs its webhooks.
          [SIGNATURE_HEADER]: signBody(body, secret),
        },
        body: new Uint8Array(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      // Drain the answer so the connection is free again; its content is the developer's business.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) {
        logger.warn(
          { event: "DEBUG_FORWARD_FAILED", requestId, status: response.status, bytes: body.length },
          "debug forward refused by the developer's endpoint",
        );
        return;
      }
      logger.debug(
        {
          event: "DEBUG_FORWARDED",
          requestId,
          bytes: body.length,
          ms: Math.round(performance.now() - started),
        },
        "webhook forwarded to the debug endpoint",
      );
    } catch (error) {
      logger.warn(
        {
          event: "DEBUG_FORWARD_FAILED",
          requestId,
          err: describeError(error),
          // fetch says only "fetch failed"; the cause says why (ECONNREFUSED, a timeout, DNS).
          ...(error instanceof Error && error.cause !== undefined
            ? { cause: describeError(error.cause) }
            : {}),
          timeoutMs,
          phones: [...this.phones].map(phoneTag),
        },
        "debug forward failed",
      );
    }
  }
}
