import type { MessageMetadata, NumberedRefs } from "./conversation.js";
import type { HITLExpectedInput, HITLOption } from "./hitl.js";

/** What Memo wants to say in one reply, before it is fitted to WhatsApp. */
export interface ReplyContent {
  /** The full text to send; for questions, with the options numbered. */
  text: string;
  /** The bare question without numbered options (present when there are options). */
  question?: string;
  options: HITLOption[];
  expectedInput?: HITLExpectedInput;
  language: "he" | "en";
  /** The label of a list message's button (default: "Choose" / "בחירה"). */
  listButton?: string;
  /** What the text shows numbered, kept with it in the conversation window so "done 2" names it. */
  numbered?: NumberedRefs;
  /** More the window keeps with it (a document's offer, `documentOffer`), beside `numbered`. */
  metadata?: MessageMetadata;
}

export interface SendOptions {
  /**
   * The inbound message this answers (recorded, and quoted when `quote`). Only answers set it: a
   * turn retried after a crash is skipped when its answer was already sent.
   */
  inReplyTo?: string;
  /** Show the reply as a reply to `inReplyTo` in the chat (context.message_id). */
  quote?: boolean;
  /**
   * How the conversation window learns of it: `{ link }` (the turn already stored it: set the
   * WhatsApp id on the stored message whose `localId` is `link`), "add" (store it now, with its
   * id), "append" (store it with one atomic append: messages Memo starts outside a turn), "none"
   * (a notice that is not conversation, or a reply the turn did not store).
   */
  memory: { link: string } | "add" | "append" | "none";
  /**
   * Checked before sending (the phone's lease is still this worker's): a worker that lost the
   * phone must not answer a message the new holder answers too.
   */
  guard?: () => Promise<boolean>;
  /**
   * Called with each message's WhatsApp id the moment the Graph API accepts it, before anything
   * else is written: the scheduler's ledger records the send with as small a gap as it can.
   */
  onAccepted?: (waMessageId: string) => Promise<void>;
}

/**
 * How Memo writes to a user outside a turn's reply (reminders, the digest): the WhatsApp sender
 * implements it; the scheduler's services depend on it, never on WhatsApp.
 */
export interface MessageSender {
  /** Sends the content (split, with buttons or a list) and returns the ids of the messages sent. */
  send(phone: string, content: ReplyContent, options: SendOptions): Promise<string[]>;
  /** Sends an approved template (outside WhatsApp's 24-hour window); its id, or null when not sent. */
  sendTemplate(
    phone: string,
    template: { name: string; languageCode: string },
    text: string,
    options?: TemplateOptions,
  ): Promise<string | null>;
}

/**
 * How a template goes: `buttons` are the payloads of its quick-reply buttons, in their order;
 * `memory` "none" keeps it out of the conversation window (to someone who is not a user yet).
 */
export type TemplateOptions = Pick<SendOptions, "onAccepted"> & {
  buttons?: readonly string[];
  memory?: "append" | "none";
  /** What the text shows numbered, kept with it in the conversation window. */
  numbered?: NumberedRefs;
};
