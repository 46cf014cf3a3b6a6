import { randomBytes } from "node:crypto";
import type { Logger } from "../../utils/logger.js";
import type { SimulatorPersistence } from "./store.js";
import {
  advances,
  newMessageId,
  SimulatorStore,
  type SimChoice,
  type SimLocation,
  type SimMessage,
  type StoreLimits,
} from "./store.js";
import {
  inboundMessagePayload,
  signBody,
  SIGNATURE_HEADER,
  statusPayload,
  type BusinessIdentity,
  type InboundContent,
  type StatusUpdate,
} from "./webhookPayloads.js";
import { MemoError } from "../../utils/errors.js";

/**
 * What happens between the two ends: the user's messages become signed webhooks to the app,
 * Memo's sends become stored messages followed by status webhooks, and read receipts and
 * typing indicators travel both ways, as on WhatsApp.
 */

export interface EngineOptions {
  webhookUrl: () => string;
  appSecret?: string;
  business: BusinessIdentity;
  logger: Logger;
  clock: () => number;
  /** Milliseconds before each status webhook (sent, then delivered). */
  statusDelayMs: number;
  /** How long after the user's last message Memo may send free-form messages; 0 = always. */
  serviceWindowMs: number;
  /** Milliseconds "typing…" shows without a following message. */
  typingTimeoutMs: number;
  /** Milliseconds the app's webhook may take to answer. */
  webhookTimeoutMs: number;
  limits: StoreLimits;
  /** Where conversations are kept across restarts; in memory only when unset. */
  persistence?: SimulatorPersistence;
}

/** A user's message, checked and decoded by the page API. */
export interface UserMessage {
  phone: string;
  name: string;
  type: string;
  text?: string;
  caption?: string;
  media?: { bytes: Buffer; mimeType: string; filename?: string; voice?: boolean };
  replyTo?: string;
  /** Sent as forwarded: the webhook's context.forwarded. */
  forwarded?: boolean;
  choice?: SimChoice;
  reaction?: { messageId: string; emoji: string };
  location?: SimLocation;
}

/** Memo's message, as the Graph API stand-in read it. */
export type MemoMessage = Omit<
  SimMessage,
  "id" | "phone" | "direction" | "timestamp" | "status" | "context"
> & {
  /** The wamid it replies to (context.message_id). */
  replyTo?: string;
};

/** What posting one webhook gave: the app's HTTP status, or why there was none. */
export type WebhookOutcome = { status: number } | { error: string };

/** A caller mistake the page API reports as a 400. */
export class SimulatorInputError extends MemoError {}

/** Read acks remembered, so a page's repeated acks post "read" once. */
const MAX_READ_ACKS = 10_000;

const MEDIA_LABELS: Record<string, string> = { image: "Photo", sticker: "Sticker", video: "Video" };

/** A short text standing for a message in a quote bar. */
function previewOf(message: SimMessage): string {
  if (message.text) return message.text.slice(0, 200);
  if (message.interactive) return message.interactive.body.slice(0, 200);
  if (message.choice) return message.choice.title;
  if (message.media) {
    if (message.type === "audio") return message.media.voice ? "Voice message" : "Audio";
    if (message.type === "document") return message.media.filename ?? "Document";
    return MEDIA_LABELS[message.type] ?? message.type;
  }
  if (message.location) return "Location";
  return message.type;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export class SimulatorEngine {
  readonly store: SimulatorStore;
  private readonly closing = new AbortController();
  /** Status webhooks per phone, posted one after another so they arrive in order. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly conversationIds = new Map<string, string>();
  private readonly typingTimers = new Map<string, NodeJS.Timeout>();
  private readonly readRequested = new Set<string>();
  private readonly logger: Logger;

  constructor(private readonly options: EngineOptions) {
    this.store = new SimulatorStore(options.limits, options.persistence);
    this.logger = options.logger.child({ component: "whatsapp-simulator" });
  }

  get closed(): boolean {
    return this.closing.signal.aborted;
  }

  /** Stores the user's message, posts it to the app's webhook, and records how that went. */
  async receiveFromUser(
    input: UserMessage,
  ): Promise<{ id: string; webhookStatus: number | null; error?: string }> {
    const { phone } = input;
    // A tap on a button or list row quotes the message that offered it, as on WhatsApp.
    const quoted = input.replyTo
      ? this.store.get(input.replyTo)
      : input.choice
        ? this.offering(phone, input.choice.id)
        : undefined;
    if (input.replyTo && quoted?.phone !== phone) {
      throw new SimulatorInputError(`replyTo: no message ${input.replyTo} in ${phone}'s conversation`);
    }
    if (input.reaction) {
      const target = this.store.get(input.reaction.messageId);
      if (target?.phone !== phone) {
        throw new SimulatorInputError(
          `reaction.messageId: no message ${input.reaction.messageId} in ${phone}'s conversation`,
        );
      }
    }
    // Media is stored first: the app may fetch it as soon as the webhook arrives.
    const media = input.media
      ? this.store.putMedia(input.media.bytes, input.media.mimeType, {
          ...(input.media.filename ? { filename: input.media.filename } : {}),
          ...(input.type === "audio" ? { voice: input.media.voice ?? false } : {}),
        })
      : undefined;
    const id = newMessageId();
    const timestamp = this.options.clock();
    const text =
      input.text ?? input.caption ?? input.choice?.title ?? input.location?.name ?? input.location?.address;
    const message: SimMessage = {
      id,
      phone,
      direction: "in",
      timestamp,
      type: input.type,
      ...(text ? { text } : {}),
      ...(media ? { media } : {}),
      ...(input.choice ? { choice: input.choice } : {}),
      ...(input.reaction ? { reaction: input.reaction } : {}),
      ...(input.location ? { location: input.location } : {}),
      ...(quoted
        ? { context: { id: quoted.id, direction: quoted.direction, preview: previewOf(quoted) } }
        : {}),
      ...(input.forwarded ? { forwarded: true } : {}),
      status: "sent",
    };
    this.store.add(message);
    this.store.noteInbound(phone, timestamp);

    const content: InboundContent = {
      type: input.type,
      ...(input.text !== undefined ? { text: input.text } : {}),
      ...(input.caption ? { caption: input.caption } : {}),
      ...(media ? { media } : {}),
      ...(input.choice ? { choice: input.choice } : {}),
      ...(input.reaction ? { reaction: input.reaction } : {}),
      ...(input.location ? { location: input.location } : {}),
    };
    const payload = inboundMessagePayload(this.options.business, {
      id,
      from: phone,
      name: input.name,
      timestamp,
      content,
      ...(quoted
        ? {
            context: {
              id: quoted.id,
              // The quoted message's author: the business for Memo's messages, else the user.
              from: quoted.direction === "out" ? this.options.business.displayPhoneNumber : phone,
            },
          }
        : {}),
      ...(input.forwarded ? { forwarded: true } : {}),
    });
    const outcome = await this.postWebhook(payload);
    if ("status" in outcome && outcome.status >= 200 && outcome.status < 300) {
      // Two grey ticks: the business received it.
      this.store.update(id, { status: "delivered", webhookStatus: outcome.status });
      return { id, webhookStatus: outcome.status };
    }
    const error =
      "status" in outcome
        ? `The app's webhook answered HTTP ${outcome.status}`
        : `Webhook failed: ${outcome.error}`;
    this.store.update(id, {
      status: "failed",
      error,
      ...("status" in outcome ? { webhookStatus: outcome.status } : {}),
    });
    return { id, webhookStatus: "status" in outcome ? outcome.status : null, error };
  }

  /** Stores Memo's message for the page, then reports its delivery to the app as Meta would. */
  sendFromMemo(phone: string, content: MemoMessage): SimMessage {
    const { replyTo, ...rest } = content;
    const quoted = replyTo ? this.store.get(replyTo) : undefined;
    const timestamp = this.options.clock();
    const lastFromUser = this.store.lastInboundAt(phone);
    const window = this.options.serviceWindowMs;
    // Outside the customer service window only templates get through (Cloud API error 131047).
    // Only a known last message older than the window counts: with no record of the user (history
    // deleted, or never kept) the simulator cannot tell, and refusing would break a chat Memo knows.
    const outsideWindow =
      window > 0 &&
      content.type !== "template" &&
      lastFromUser !== undefined &&
      timestamp - lastFromUser > window;
    const message: SimMessage = {
      ...rest,
      id: newMessageId(),
      phone,
      direction: "out",
      timestamp,
      ...(quoted
        ? { context: { id: quoted.id, direction: quoted.direction, preview: previewOf(quoted) } }
        : {}),
      status: "sent",
    };
    this.stopTyping(phone);
    this.store.add(message);

    if (outsideWindow) {
      const hours = Math.round(window / 3_600_000);
      const details = `Message failed to send because more than ${hours} hours have passed since the customer last replied to this number.`;
      this.enqueue(phone, async () => {
        await sleep(this.options.statusDelayMs, this.closing.signal);
        this.store.update(message.id, { status: "failed", error: `Not delivered: ${details}` });
        await this.postStatus(message, "failed", {
          code: 131047,
          title: "Re-engagement message",
          message: "Re-engagement message",
          details,
        });
      });
      return message;
    }
    this.enqueue(phone, async () => {
      await sleep(this.options.statusDelayMs, this.closing.signal);
      await this.postStatus(message, "sent");
      await sleep(this.options.statusDelayMs, this.closing.signal);
      this.store.update(message.id, { status: "delivered" });
      await this.postStatus(message, "delivered");
    });
    return message;
  }

  /**
   * Memo's read receipt: the user's message and every earlier one turn blue; with a typing
   * indicator, "typing…" shows until Memo's next message or the timeout. False when unknown.
   */
  readByMemo(messageId: string, typing: boolean): boolean {
    const target = this.store.get(messageId);
    if (target?.direction !== "in") return false;
    for (const message of this.store.list(target.phone)) {
      if (
        message.direction === "in" &&
        message.timestamp <= target.timestamp &&
        advances(message.status, "read")
      ) {
        this.store.update(message.id, { status: "read" });
      }
    }
    if (typing) this.startTyping(target.phone);
    return true;
  }

  /** A page displayed Memo's messages: "read" statuses follow the delivered ones. Returns how many. */
  readByUser(phone: string, ids: readonly string[]): number {
    let count = 0;
    for (const id of ids) {
      const message = this.store.get(id);
      if (message?.phone !== phone || message.direction !== "out" || this.readRequested.has(id)) continue;
      if (message.status === "failed") continue;
      this.readRequested.add(id);
      // Bounded like the store: the oldest acks go first (a Set keeps insertion order).
      for (const old of this.readRequested) {
        if (this.readRequested.size <= MAX_READ_ACKS) break;
        this.readRequested.delete(old);
      }
      count++;
      this.enqueue(phone, async () => {
        // The chain already posted "delivered" (or "failed", which stays final).
        const current = this.store.get(id);
        if (current?.status !== "delivered") return;
        this.store.update(id, { status: "read" });
        await this.postStatus(current, "read");
      });
    }
    return count;
  }

  isTyping(phone: string): boolean {
    return this.typingTimers.has(phone);
  }

  /** Stops timers and pending webhooks and saves the conversations; later calls do nothing. */
  close(): void {
    this.closing.abort();
    for (const timer of this.typingTimers.values()) clearTimeout(timer);
    this.typingTimers.clear();
    this.store.close();
  }

  /**
   * Memo's latest message in the conversation with a button or list row of this id (a template's
   * quick reply: of this payload).
   */
  private offering(phone: string, choiceId: string): SimMessage | undefined {
    const messages = this.store.list(phone);
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      if (message?.direction !== "out") continue;
      const { interactive, template } = message;
      const ids = [
        ...(interactive?.buttons ?? []).map((b) => b.id),
        ...(interactive?.list?.sections ?? []).flatMap((s) => s.rows.map((r) => r.id)),
        ...(template?.buttons ?? []).map((b) => b.id),
      ];
      if (ids.includes(choiceId)) return message;
    }
    return undefined;
  }

  private startTyping(phone: string): void {
    const previous = this.typingTimers.get(phone);
    if (previous) clearTimeout(previous);
    const timer = setTimeout(() => this.stopTyping(phone), this.options.typingTimeoutMs);
    timer.unref();
    this.typingTimers.set(phone, timer);
    if (!previous) this.store.typing(phone, true);
  }

  private stopTyping(phone: string): void {
    const timer = this.typingTimers.get(phone);
    if (!timer) return;
    clearTimeout(timer);
    this.typingTimers.delete(phone);
    this.store.typing(phone, false);
  }

  private enqueue(phone: string, task: () => Promise<void>): void {
    const previous = this.chains.get(phone) ?? Promise.resolve();
    const next = previous
      .then(() => (this.closed ? undefined : task()))
      .catch((error: unknown) => this.logger.warn({ err: error, phone }, "simulator status update failed"));
    this.chains.set(phone, next);
    // Forget a finished chain so idle phones hold nothing.
    void next.then(() => {
      if (this.chains.get(phone) === next) this.chains.delete(phone);
    });
  }

  private async postStatus(
    message: SimMessage,
    status: StatusUpdate["status"],
    error?: StatusUpdate["error"],
  ): Promise<void> {
    if (this.closed) return;
    let conversationId = this.conversationIds.get(message.phone);
    if (!conversationId) {
      conversationId = randomBytes(16).toString("hex");
      this.conversationIds.set(message.phone, conversationId);
    }
    const outcome = await this.postWebhook(
      statusPayload(this.options.business, {
        id: message.id,
        status,
        recipient: message.phone,
        timestamp: this.options.clock(),
        conversationId,
        ...(error ? { error } : {}),
      }),
    );
    if (!("status" in outcome) || outcome.status >= 300) {
      this.logger.warn({ messageId: message.id, status, outcome }, "the app did not accept a status webhook");
    }
  }

  /** POSTs a notification to the app, signed over the exact bytes sent when a secret is set. */
  private async postWebhook(payload: unknown): Promise<WebhookOutcome> {
    if (this.closed) return { error: "the simulator is closed" };
    const url = this.options.webhookUrl();
    const body = Buffer.from(JSON.stringify(payload), "utf8");
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "User-Agent": "facebookexternalua",
    };
    if (this.options.appSecret !== undefined) {
      headers[SIGNATURE_HEADER] = signBody(body, this.options.appSecret);
    }
    try {
      const response = await fetch(url, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.any([this.closing.signal, AbortSignal.timeout(this.options.webhookTimeoutMs)]),
      });
      // Drained so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      this.logger.debug({ url, status: response.status }, "simulator webhook posted");
      return { status: response.status };
    } catch (error) {
      const reason = error instanceof Error ? describeFetchError(error) : String(error);
      this.logger.warn({ url, reason }, "simulator webhook failed");
      return { error: reason };
    }
  }
}

/** fetch's errors hide the useful part (ECONNREFUSED, timeout) in `cause`. */
function describeFetchError(error: Error): string {
  if (error.name === "TimeoutError") return "the app's webhook did not answer in time";
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) return `${error.message} (${cause.message})`;
  return error.message;
}
