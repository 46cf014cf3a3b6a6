import { createLimiter } from "../../utils/concurrency.js";
import type {
  NewOutboundMessage,
  OutboundMessageRepository,
} from "../../db/repositories/outboundMessageRepository.js";
import { MemoError } from "../../utils/errors.js";
import type { Logger } from "../../utils/logger.js";
import { templateParameter } from "../../utils/templateParameter.js";
import type { MemoryService } from "../../services/memory/index.js";
import type { GraphApiClient } from "./graphApiClient.js";
import { LeaseLostError } from "./phoneLocks.js";
import { buildReplyPayloads, buildTemplatePayload, type OutboundPayload } from "./outboundFormat.js";
import type { MessageMetadata, NumberedRefs } from "../../types/index.js";
import type { MessageSender, ReplyContent, SendOptions, TemplateOptions } from "../../types/outbound.js";

/** A reply that could not be delivered after the client's own retries; the turn is not re-run for it. */
export class DeliveryError extends MemoError {
  /** Re-running the turn would repeat what it did; the inbox gives up on the message instead. */
  readonly rerunnable = false;
}

/**
 * The records of messages one inbox turn sent, held until the inbox writes them with the end of the
 * turn's message, in one statement (issue 22), or until the turn sends again. Each held message
 * keeps its send slot (WHATSAPP_SEND_CONCURRENCY) until it is written: a crash repeats no more
 * messages than when each was recorded on its own.
 */
export class HeldRecords {
  private held: { message: NewOutboundMessage; written: () => void }[] = [];

  /** `write`: records messages on their own (when no step of the inbox carries them). */
  constructor(
    private readonly write: (messages: readonly NewOutboundMessage[]) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  /** Holds a message's record; `written` lets its send slot go once it is written (or failed). */
  hold(message: NewOutboundMessage, written: () => void): void {
    this.held.push({ message, written });
  }

  /**
   * Takes the held records for the caller to write; `done` must be called after that write, whatever
   * its outcome (it lets their slots go).
   */
  take(): { messages: NewOutboundMessage[]; done: () => void } {
    const taken = this.held.splice(0);
    return { messages: taken.map((h) => h.message), done: () => taken.forEach((h) => h.written()) };
  }

  /** Writes the held records on their own; never throws (a sent message must not be sent again). */
  async flush(): Promise<void> {
    const { messages, done } = this.take();
    if (messages.length === 0) return;
    try {
      await this.write(messages);
    } catch (error) {
      this.logger.error(
        { err: error, messageIds: messages.map((m) => m.waMessageId) },
        "could not record a sent message",
      );
    } finally {
      done();
    }
  }
}

/** How an inbox turn sends: as any send, and with `held`, its record left for the inbox to write. */
export interface WhatsAppSendOptions extends SendOptions {
  /**
   * Where the record of a message goes, instead of its own statement, when nothing else is written
   * after it here (`memory` is "none" or `{ link }`). Flushed before the turn's next message.
   */
  held?: HeldRecords;
}

/** What a payload shows in the chat, for the outbound record. */
function bodyOf(payload: OutboundPayload): string {
  switch (payload.type) {
    case "text":
      return payload.text.body;
    case "interactive":
      return payload.interactive.body.text;
    case "template": {
      const body = payload.template.components.find((c) => c.type === "body");
      return body?.type === "body" ? (body.parameters[0]?.text ?? "") : "";
    }
    case "audio":
      // A voice note's record carries what it says (sendVoice).
      return "";
  }
}

/** The kind recorded for a payload: text, button, list or template. */
function kindOf(payload: OutboundPayload): string {
  return payload.type === "interactive" ? payload.interactive.type : payload.type;
}

/**
 * Sends Memo's replies: fits them to WhatsApp (split text, buttons, lists), and records every
 * sent message with its id, the message it answers and the window message it carries (`localId`),
 * so a later reply-to one of Memo's messages finds it (the window reads the id from the record). At
 * most `sendConcurrency` messages are under way at once (inFlight).
 */
export class WhatsAppSender implements MessageSender {
  /**
   * Admits a send, from the Graph API call to the record of what it accepted (issue #20). A message
   * WhatsApp accepted but Memo had not yet recorded is sent again when a crash re-runs its turn (the
   * turn is re-run unless its answer is recorded: a lost reply is worse than a repeated one), and
   * the Cloud API takes no idempotency key to prevent that. Bounding the sends under way bounds
   * that window: with the default of one, a crash repeats at most one reply per process, not one
   * per turn in flight. The cost: each slot sends one message per Graph API round trip
   * (WHATSAPP_SEND_CONCURRENCY, docs/WHATSAPP.md). A record `held` for the inbox keeps its slot
   * until the inbox statement that writes it (the turn's end) has run.
   */
  private readonly inFlight: <T>(send: () => Promise<T>) => Promise<T>;

  constructor(
    private readonly deps: {
      /** null: no access token and no simulator; replies are logged, not sent. */
      client: GraphApiClient | null;
      outbound: OutboundMessageRepository;
      memory: MemoryService;
      logger: Logger;
      /** Sends under way at once, from the Graph API call to its record (default: 1). */
      sendConcurrency?: number;
    },
  ) {
    this.inFlight = createLimiter(deps.sendConcurrency ?? 1);
  }

  /** Sends one reply; returns the WhatsApp ids of its messages, in order. */
  async send(phone: string, content: ReplyContent, options: WhatsAppSendOptions): Promise<string[]> {
    const { client, memory, logger } = this.deps;
    if (!client) {
      logger.warn({ phone, chars: content.text.length }, "no WhatsApp access token: reply not sent");
      if (options.memory === "add")
        await memory.addAssistantMessage(phone, content.text, undefined, metadataOf(content));
      return [];
    }
    const payloads = buildReplyPayloads(phone, content, options.quote ? options.inReplyTo : undefined);
    return this.deliver(
      phone,
      payloads.map((payload) => ({ payload, body: bodyOf(payload) })),
      content.text,
      metadataOf(content),
      options,
    );
  }

  /**
   * Sends a voice note (audio uploaded to WhatsApp, by its media id) as one message, its record
   * carrying `spoken`, the text it says; the window learns of it as `options.memory` says (with
   * `spoken` as its text). Returns its WhatsApp id (none without a client: only a client has media).
   * A record without `options.inReplyTo` answers nothing (`hasReplyTo`): see VoiceReplies.send.
   */
  async sendVoice(
    phone: string,
    voice: { mediaId: string; spoken: string; quote?: string },
    options: WhatsAppSendOptions,
  ): Promise<string[]> {
    // `voice.quote`: the message it quotes when its record answers none (a text follows it).
    const quoted = voice.quote ?? (options.quote ? options.inReplyTo : undefined);
    const payload: OutboundPayload = {
      to: phone,
      type: "audio",
      audio: { id: voice.mediaId, voice: true },
      ...(quoted ? { context: { message_id: quoted } } : {}),
    };
    return this.deliver(phone, [{ payload, body: voice.spoken }], voice.spoken, undefined, options);
  }

  /** Sends the messages of one reply in order, each recorded; then tells the window as `options.memory` says. */
  private async deliver(
    phone: string,
    payloads: readonly { payload: OutboundPayload; body: string }[],
    text: string,
    metadata: MessageMetadata | undefined,
    options: WhatsAppSendOptions,
  ): Promise<string[]> {
    const { client, memory } = this.deps;
    if (!client) return [];
    const link = typeof options.memory === "object" ? options.memory.link : undefined;
    // Only a record nothing is written after here waits for the inbox's statement.
    const held = options.memory === "none" || link !== undefined ? options.held : undefined;
    const ids: string[] = [];
    for (const { payload, body } of payloads) {
      // This turn's earlier message is recorded first: its slot is let go before this one is taken.
      await options.held?.flush();
      const id = await this.admit(held, async () => {
        // Checked before each message (and after waiting for the slot), so a reply in parts
        // stops when the phone changes hands.
        if (options.guard && !(await options.guard())) {
          throw new LeaseLostError("Phone lease lost before sending", {
            inReplyTo: options.inReplyTo,
            sent: ids.length,
          });
        }
        let sent: string;
        try {
          ({ id: sent } = await client.sendMessage(payload));
        } catch (error) {
          throw new DeliveryError(
            "Reply could not be delivered",
            { sent: ids.length, of: payloads.length },
            { cause: error },
          );
        }
        await options.onAccepted?.(sent);
        return {
          waMessageId: sent,
          phone,
          ...(options.inReplyTo ? { inReplyTo: options.inReplyTo } : {}),
          kind: kindOf(payload),
          body,
          // The window's message gets the id of the reply's first part.
          ...(link !== undefined && ids.length === 0 ? { localId: link } : {}),
        };
      });
      ids.push(id);
    }
    const first = ids[0];
    if (options.memory === "add") await memory.addAssistantMessage(phone, text, first, metadata);
    else if (options.memory === "append") await memory.appendProactiveMessage(phone, text, first, metadata);
    else if (link !== undefined && first) await memory.setAssistantMessageId(phone, link, first);
    return ids;
  }

  /**
   * Sends one message under a slot and records it: at once, or, with `held`, by the inbox's next
   * statement, the slot kept until then. Returns its WhatsApp id once it is accepted.
   */
  private admit(held: HeldRecords | undefined, send: () => Promise<NewOutboundMessage>): Promise<string> {
    const { outbound, logger } = this.deps;
    return new Promise<string>((resolve, reject) => {
      this.inFlight(async () => {
        const message = await send();
        if (held) {
          const written = new Promise<void>((done) => held.hold(message, done));
          resolve(message.waMessageId);
          await written;
          return;
        }
        // The message is out: a failure to record it must not make the turn run (and send) again.
        await outbound
          .record(message)
          .catch((error: unknown) =>
            logger.error({ err: error, messageId: message.waMessageId }, "could not record a sent message"),
          );
        resolve(message.waMessageId);
      }).catch(reject);
    });
  }

  /**
   * Sends an approved template whose one body parameter is `text` (outside the 24-hour window);
   * returns its WhatsApp id. The window is told of what was sent as Memo's message (appended:
   * templates are only sent outside a turn): `text`, or as much of it as the cut parameter held.
   */
  async sendTemplate(
    phone: string,
    template: { name: string; languageCode: string },
    text: string,
    options: TemplateOptions = {},
  ): Promise<string | null> {
    const { client, outbound, memory, logger } = this.deps;
    if (!client) {
      logger.warn({ template: template.name }, "no WhatsApp access token: template not sent");
      return null;
    }
    const payload = buildTemplatePayload(phone, template, text, options.buttons);
    const id = await this.inFlight(async () => {
      const { id: sent } = await client.sendMessage(payload);
      // Recorded first, before anything else can fail: a template that went must not go again.
      await options.onAccepted?.(sent);
      await outbound
        .record({ waMessageId: sent, phone, kind: "template", body: bodyOf(payload) })
        .catch((error: unknown) =>
          logger.error({ err: error, messageId: sent }, "could not record a sent message"),
        );
      return sent;
    });
    if (options.memory === "none") return id;
    // The window is context only: its failure is logged, never a reason to send again.
    await memory
      .appendProactiveMessage(phone, templateParameter(text).shown, id, metadataOf(options))
      .catch((error: unknown) =>
        logger.error({ err: error, messageId: id }, "could not add a template to the conversation window"),
      );
    return id;
  }

  /** Marks an inbound message read and shows "typing…" while the turn runs; failures only log. */
  markRead(messageId: string): void {
    this.deps.client
      ?.markRead(messageId)
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error, messageId }, "could not mark message read"),
      );
  }
}

/** The window's metadata of a message that shows a numbered listing ("done 2" names its items). */
function metadataOf(content: {
  numbered?: NumberedRefs | undefined;
  metadata?: MessageMetadata | undefined;
}): MessageMetadata | undefined {
  if (!content.numbered && !content.metadata) return undefined;
  return { ...content.metadata, ...(content.numbered ? { numbered: content.numbered } : {}) };
}
