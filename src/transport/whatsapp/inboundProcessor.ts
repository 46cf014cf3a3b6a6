import type { InboxMessage } from "../../db/repositories/inboxRepository.js";
import type { UserRepository } from "../../db/repositories/userRepository.js";
import type { OutboundMessageRepository } from "../../db/repositories/outboundMessageRepository.js";
import type { InvokeOptions, MemoRuntime } from "../../graph/memoRuntime.js";
import { userTextOf } from "../../graph/errorText.js";
import type { MemoReply } from "../../types/reply.js";
import type { ImageContext, User } from "../../types/index.js";
import { MemoError } from "../../utils/errors.js";
import { withoutInvisibleCharacters } from "../../utils/invisibleText.js";
import { detectLanguage, replyLanguage } from "../../utils/language.js";
import type { Logger } from "../../utils/logger.js";
import { currentTurn } from "../../utils/turnContext.js";
import { t, type MessageKey } from "../../messages/index.js";
import type { LLMService } from "../../types/llm.js";
import { analyzeImage } from "../../services/media/analyzeImage.js";
import { readDocumentImage } from "../../services/media/readDocumentImage.js";
import type { Transcriber } from "../../services/media/transcriber.js";
import type { DocumentService } from "../../services/documents/documentService.js";
import {
  DocumentUnreadableError,
  documentKind,
  extractText,
  hasText,
} from "../../services/documents/extractText.js";
import type {
  DocumentContext,
  DocumentOfferMaker,
  DocumentPageReader,
  ExtractedDocument,
} from "../../types/document.js";
import type { Onboarding } from "../onboarding/onboarding.js";
import type { InboundRouter } from "./inboundRouter.js";
import { type GraphApiClient } from "./graphApiClient.js";
import { WhatsAppApiError } from "../../utils/errors.js";
import type { PhoneLease } from "./phoneLocks.js";
import type { InboxHandler } from "./inboxWorker.js";
import type { ReplyContent } from "../../types/outbound.js";
import { WhatsAppMessageSchema, type WhatsAppMessage } from "./webhookSchema.js";
import type { HeldRecords, WhatsAppSender, WhatsAppSendOptions } from "./whatsAppSender.js";
import type { VoiceReplies } from "./voiceReplies.js";

/** WhatsApp's own limits: images up to 5 MB, audio up to 16 MB. */
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const AUDIO_MAX_BYTES = 16 * 1024 * 1024;
/** A photo without a caption is read as a document's page when its analysis found this much text. */
const DOCUMENT_PHOTO_MIN_TEXT = 200;
/**
 * Documents Memo reads, up to 10 MB (WhatsApp itself allows 100 MB): a school letter or an invoice
 * is far smaller, and extraction runs in the turn's memory.
 */
const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** A reply sent this long after the user's message quotes it, so it is clear what it answers. */
const QUOTE_AFTER_MS = 60_000;

/** What every turn of one inbound message is invoked with: its WhatsApp ids and the loaded user. */
type TurnOptions = InvokeOptions & { whatsappMessageId: string; user: User };

/** A turn that ended in our error; the inbox retries it, then apologizes. */
class TurnFailedError extends MemoError {}

/** Message types with a fixed "I can't open these" reply, by the word for them. */
const UNSUPPORTED: Record<string, MessageKey> = {
  location: "kind.location",
  sticker: "kind.sticker",
  video: "kind.video",
  contacts: "kind.contacts",
};

export interface InboundProcessorDeps {
  runtime: MemoRuntime;
  users: UserRepository;
  outbound: OutboundMessageRepository;
  sender: WhatsAppSender;
  onboarding: Onboarding;
  /** Decides who answers each message: a route outside the graph, or the graph. */
  router: InboundRouter;
  /** null: no access token and no simulator (media cannot be fetched). */
  client: GraphApiClient | null;
  /** Vision model for images; null when no LLM is configured. */
  llm: LLMService | null;
  transcriber: Transcriber | null;
  /** Keeps documents as notes; null: documents get the "cannot open" reply. */
  documents?: DocumentService | null;
  /** Makes the numbered offer of what a document proposes (dates, payments); null: none offered. */
  offers?: DocumentOfferMaker | null;
  /** Reads a PDF with no text layer (a scan) through the image model; null: "could not be read". */
  pageReader?: DocumentPageReader | null;
  /** Answers by voice: to a voice note, or to a user who asked for them (default: none, all text). */
  voice?: VoiceReplies;
  logger: Logger;
  clock: () => number;
}

/**
 * The text a message asks with: its body, a tapped option's title, a template button's payload, a
 * caption, as written (invisible characters too: the readers of words drop them, the code that
 * stores and shows names and titles judges them).
 */
export function textOf(message: WhatsAppMessage): string {
  switch (message.type) {
    case "text":
      return message.text?.body ?? "";
    case "interactive": {
      const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
      return reply?.title ?? "";
    }
    case "button":
      return message.button?.payload || message.button?.text || "";
    case "image":
      return message.image?.caption ?? "";
    case "document":
      return message.document?.caption ?? "";
    default:
      return "";
  }
}

/**
 * One inbound message, start to finish (spec 002 §3.2): mark read with the typing indicator, the
 * user (created on first contact), the InboundRouter (which answers what is not the graph's), then
 * by the message type (text, voice note, image, button tap…) the graph, and the reply.
 * Runs under the phone's lock (InboxWorker), so it never overlaps another turn of the same user.
 */
export class InboundProcessor implements InboxHandler {
  constructor(private readonly deps: InboundProcessorDeps) {}

  async process(inbox: InboxMessage, lease: PhoneLease, sent?: HeldRecords): Promise<void> {
    const { deps } = this;
    const message = WhatsAppMessageSchema.parse(inbox.payload);
    const id = inbox.waMessageId;
    const phone = inbox.phone;
    // An earlier attempt got as far as answering, then stopped: never answer twice.
    if (inbox.attempts > 1 && (await this.answered(inbox))) {
      deps.logger.info({ messageId: id }, "message was answered before an interruption; not run again");
      return;
    }
    if (inbox.attempts === 1) deps.sender.markRead(id);

    const text = textOf(message).trim();
    // What the user's own words are: a template button's title, not its payload (Memo's id).
    const said = message.type === "button" ? message.button?.text?.trim() || text : text;
    const { user, created, threadStored } = await this.touchUser(inbox, said);
    const language = replyLanguage(detectLanguage(said) ?? user.language);
    const reply: WhatsAppSendOptions = {
      inReplyTo: id,
      quote: deps.clock() - inbox.sentAt.getTime() > QUOTE_AFTER_MS,
      // Each sender of a reply says how the window learns of it (answer(): the turn's stored message).
      memory: "none",
      guard: () => lease.confirm(),
      // The reply's record is written with the end of the inbox row (one statement).
      ...(sent ? { held: sent } : {}),
    };
    const optionId = message.interactive?.button_reply?.id ?? message.interactive?.list_reply?.id;
    const button = message.type === "button" ? message.button : undefined;
    const route = await deps.router.route(
      user,
      language,
      {
        type: message.type,
        text,
        optionId,
        messageId: id,
        replyTo: message.context?.id,
        created,
        templateButton: button?.payload ? { payload: button.payload, text: button.text } : undefined,
      },
      reply,
    );
    deps.logger.info({ event: "INBOUND_ROUTE", route, messageId: id, type: message.type }, "routed");
    if (route !== "graph") return;

    const replyTo = message.context?.id;
    const forwarded = message.context?.forwarded === true || message.context?.frequently_forwarded === true;
    // The phone was normalised at the webhook and the user loaded above: the runtime takes both as they are.
    const base: TurnOptions = {
      whatsappMessageId: id,
      ...(replyTo ? { replyToMessageId: replyTo } : {}),
      ...(forwarded ? { forwarded: true } : {}),
      user,
      ...(threadStored !== undefined ? { threadStored } : {}),
    };
    try {
      switch (message.type) {
        case "text":
        case "button":
          // Nothing visible (only zero-width or direction characters): ignored like an empty message.
          if (!withoutInvisibleCharacters(text).trim()) return;
          return await this.answer(
            phone,
            await deps.runtime.invokeMemoGraph(phone, text, base),
            language,
            reply,
            this.byVoice(user, false),
          );
        case "interactive":
          if (optionId) {
            const result = await deps.runtime.invokeMemoGraph(phone, text, { ...base, optionId });
            return await this.answer(phone, result, language, reply, this.byVoice(user, false));
          }
          break;
        case "audio":
          return await this.voiceNote(phone, message, user, language, base, reply);
        case "image":
          return await this.image(phone, message, user, language, base, reply);
        case "document":
          return await this.document(phone, message, user, language, base, reply);
      }
    } catch (error) {
      // A file over the limit is the user's to fix: say so instead of retrying.
      if (error instanceof WhatsAppApiError && error.kind === "too_large") {
        await this.say(phone, userTextOf(error, language), language, {
          ...reply,
          memory: "none",
        });
        return;
      }
      throw error;
    }
    const kind = t(language, UNSUPPORTED[message.type] ?? "kind.other");
    deps.logger.info({ messageId: id, type: message.type }, "message type Memo cannot take");
    await this.say(phone, t(language, "unsupportedType", { kind }), language, { ...reply, memory: "none" });
  }

  /**
   * The sender's user, with the time of this message recorded (WhatsApp's 24-hour window for
   * free-form messages runs from the user's latest message): one statement for a known user; on
   * first contact onboarding creates the user, then the time is recorded. The same statement says
   * whether a question is open (`threadStored`, for the runtime) and what the user's LLM calls
   * cost today (kept in the turn's context for the budget), so neither is read again.
   */
  private async touchUser(
    inbox: InboxMessage,
    text: string,
  ): Promise<{ user: User; created: boolean; threadStored?: boolean }> {
    const { users, onboarding } = this.deps;
    const now = this.deps.clock();
    let record = await users.recordInbound(inbox.phone, inbox.sentAt, new Date(now));
    let created = false;
    if (!record) {
      const first = await onboarding.ensureUser(inbox.phone, text, inbox.contactName);
      const recorded = await users.recordInbound(inbox.phone, inbox.sentAt, new Date(now));
      record = { ...recorded, user: first.user };
      created = first.created;
    }
    // The budget's first look in this turn takes the spend from here (a turn of this phone's).
    const turn = currentTurn();
    if (record.spentToday && turn?.phone === inbox.phone)
      turn.llmSpend = { ...record.spentToday, readAt: now };
    return {
      user: record.user,
      created,
      ...(record.threadStored !== undefined ? { threadStored: record.threadStored } : {}),
    };
  }

  answered(inbox: InboxMessage): Promise<boolean> {
    return this.deps.outbound.hasReplyTo(inbox.waMessageId);
  }

  async giveUp(inbox: InboxMessage, _error: string, lease: PhoneLease, sent?: HeldRecords): Promise<void> {
    // A question that never reached the user must not take their next message as its answer.
    await this.deps.runtime.dropQuestion(inbox.phone);
    const parsed = WhatsAppMessageSchema.safeParse(inbox.payload);
    const text = parsed.success ? textOf(parsed.data).trim() : "";
    const { user } = await this.deps.onboarding.ensureUser(inbox.phone, text, inbox.contactName);
    const language = replyLanguage(detectLanguage(text) ?? user.language);
    const symbol = { audio: "🎤", image: "📷", document: "📄" }[inbox.type] ?? "📎";
    const quoted = text.length > 60 ? `${text.slice(0, 57)}…` : text || symbol;
    await this.say(inbox.phone, t(language, "turnFailed", { message: quoted }), language, {
      inReplyTo: inbox.waMessageId,
      quote: true,
      memory: "none",
      guard: () => lease.confirm(),
      ...(sent ? { held: sent } : {}),
    });
  }

  /** processAudioMessage: download, transcribe in the user's language, then the graph. */
  private async voiceNote(
    phone: string,
    message: WhatsAppMessage,
    user: User,
    language: "he" | "en",
    base: TurnOptions,
    reply: WhatsAppSendOptions,
  ): Promise<void> {
    const { deps } = this;
    const mediaId = message.audio?.id;
    if (!mediaId) return;
    if (!deps.transcriber || !deps.client) {
      await this.say(phone, t(language, "voiceUnavailable"), language, { ...reply, memory: "none" });
      return;
    }
    const audio = await deps.client.downloadMedia(mediaId, AUDIO_MAX_BYTES);
    const hint = user.language === "he" || user.language === "en" ? user.language : undefined;
    const heard = await deps.transcriber.transcribe(audio, hint);
    const heardLanguage = replyLanguage(detectLanguage(heard) ?? user.language);
    if (!heard) {
      await this.say(phone, t(heardLanguage, "voiceEmpty"), heardLanguage, { ...reply, memory: "none" });
      return;
    }
    const result = await deps.runtime.invokeMemoGraph(phone, heard, { ...base, audioTranscription: heard });
    if (result.status === "failed")
      throw new TurnFailedError("The turn failed", { messageId: base.whatsappMessageId });
    // What was heard is shown when it drives an action or a question, so a mishearing is caught.
    if (result.acted || result.status === "waiting") {
      const shown = heard.length > 300 ? `${heard.slice(0, 297)}…` : heard;
      // A notice, not the answer: it does not count as this message being answered.
      await this.say(phone, t(heardLanguage, "voiceHeard", { text: shown }), heardLanguage, {
        memory: "none",
        ...(reply.guard ? { guard: reply.guard } : {}),
        ...(reply.held ? { held: reply.held } : {}),
      });
    }
    await this.answer(phone, result, heardLanguage, { ...reply, quote: false }, this.byVoice(user, true));
  }

  /** processImageMessage: download, analyse, keep as image context; a caption is the request about it. */
  private async image(
    phone: string,
    message: WhatsAppMessage,
    user: User,
    language: "he" | "en",
    base: TurnOptions,
    reply: WhatsAppSendOptions,
  ): Promise<void> {
    const { deps } = this;
    const mediaId = message.image?.id;
    if (!mediaId) return;
    if (!deps.llm || !deps.client) {
      await this.say(phone, t(language, "imageUnavailable"), language, { ...reply, memory: "none" });
      return;
    }
    const caption = message.image?.caption?.trim();
    const image = await deps.client.downloadMedia(mediaId, IMAGE_MAX_BYTES);
    const { context, usage } = await analyzeImage(
      deps.llm,
      { id: mediaId, ...image, ...(caption ? { caption } : {}) },
      language,
      deps.clock(),
    );
    deps.logger.info(
      { event: "image_analysis", model: usage.model, costUsd: usage.costUsd, imageType: context.imageType },
      "image analysed",
    );
    // A photo of a page is read whole and kept as a document (issue 37), when documents are kept.
    const document = await this.photoDocument(phone, image, context, language, base.whatsappMessageId);
    if (caption) {
      // A caption is the request about the page: planned with it as data (D14), as a document's is.
      const withImage = { ...base, imageContext: context };
      if (document) return this.documentStored(phone, caption, document, null, language, withImage, reply);
      const result = await deps.runtime.invokeMemoGraph(phone, caption, withImage);
      return this.answer(phone, result, language, reply, this.byVoice(user, false));
    }
    // Answered without the graph: through the router's one step, like the routes before the graph.
    const said = {
      text: "📷",
      messageId: base.whatsappMessageId,
      replyTo: base.replyToMessageId,
      metadata: { imageContext: context, ...(document ? { documentContext: document.context } : {}) },
    };
    const answer = document
      ? [await this.savedAnswer(base.user, document.context, document.pages, language)]
      : describeImage(context, language);
    await deps.router.answerWithoutGraph(phone, language, said, answer, reply);
  }

  /**
   * A photo the analysis found structured and full of text is read whole by the vision model; when
   * that says it is a document's page, it is stored as a document (source "photo", one page).
   * Null for any other photo, or when documents are not kept.
   */
  private async photoDocument(
    phone: string,
    image: { data: Buffer; mimeType: string },
    context: ImageContext,
    language: "he" | "en",
    messageId: string | undefined,
  ): Promise<{ context: DocumentContext; pages: string[] } | null> {
    const { deps } = this;
    const analysed = context.analysisResult.extractedText ?? "";
    if (!deps.documents || !deps.llm) return null;
    if (context.imageType !== "structured" || analysed.length < DOCUMENT_PHOTO_MIN_TEXT) return null;
    // A retried message stores its page once, and is not read again.
    const operationId = messageId ? `photo:${messageId}` : undefined;
    const stored = operationId ? await deps.documents.storedBy(phone, operationId) : null;
    if (stored) return stored;
    const reading = await readDocumentImage(deps.llm, image, language);
    deps.logger.info(
      {
        event: "document_image",
        model: reading.usage.model,
        costUsd: reading.usage.costUsd,
        isDocument: reading.isDocument,
      },
      "photo read as a page",
    );
    if (!reading.isDocument || !reading.text) return null;
    // The text comes trimmed: its first line has words.
    const firstLine = reading.text.split("\n")[0]!.trim();
    const extracted: ExtractedDocument = {
      source: "photo",
      fileName: null,
      mimeType: image.mimeType,
      title: reading.title || firstLine.slice(0, 80),
      pages: [reading.text],
    };
    return {
      context: await deps.documents.store(phone, extracted, operationId ? { operationId } : {}),
      pages: extracted.pages,
    };
  }

  /**
   * processDocumentMessage: a PDF, DOCX or text file is downloaded (up to DOCUMENT_MAX_BYTES), its
   * text read in reading order and stored as a note with searchable chunks (DocumentService). A
   * caption is the request about it, run through the graph with the document as data; without
   * one, the reply says it was saved, with the offer of what it proposes when there is one.
   */
  private async document(
    phone: string,
    message: WhatsAppMessage,
    user: User,
    language: "he" | "en",
    base: TurnOptions,
    reply: WhatsAppSendOptions,
  ): Promise<void> {
    const { deps } = this;
    const file = message.document;
    if (!file?.id) return;
    const notice = { ...reply, memory: "none" as const };
    const kind = documentKind(file.mime_type, file.filename);
    if (!kind) {
      deps.logger.info(
        { messageId: base.whatsappMessageId, mimeType: file.mime_type },
        "document type Memo cannot read",
      );
      await this.say(phone, t(language, "documents.unsupported"), language, notice);
      return;
    }
    if (!deps.client || !deps.documents) {
      await this.say(phone, t(language, "documents.unavailable"), language, notice);
      return;
    }
    const operationId = `document:${base.whatsappMessageId}`;
    // A retried message finds its document stored: it is neither downloaded nor read again.
    const stored = await deps.documents.storedBy(phone, operationId);
    if (stored) return this.documentStored(phone, file.caption, stored, null, language, base, reply);
    const downloaded = await deps.client.downloadMedia(file.id, DOCUMENT_MAX_BYTES);
    // The same file sent again is not stored twice, nor offered again (what was added stays added).
    const same = await deps.documents.storedSame(phone, downloaded.data);
    if (same) {
      const again = t(language, "documents.alreadySaved", { title: same.context.title });
      return this.documentStored(phone, file.caption, same, null, language, base, reply, again);
    }
    const names = { fileName: file.filename ?? null, mimeType: file.mime_type ?? downloaded.mimeType };
    let extracted: ExtractedDocument;
    try {
      extracted = await extractText(downloaded.data, kind, { ...names, language });
    } catch (error) {
      if (!(error instanceof DocumentUnreadableError)) throw error;
      deps.logger.info({ messageId: base.whatsappMessageId, kind }, "document could not be opened");
      await this.say(phone, t(language, "documents.unreadable"), language, notice);
      return;
    }
    if (!hasText(extracted)) {
      // No text layer (a scan): the image model reads its pages, when one is configured.
      const read =
        kind === "pdf" && deps.pageReader
          ? await deps.pageReader.read({ data: downloaded.data, fileName: names.fileName, language })
          : null;
      if (!read || read.pages.every((page) => page.trim() === "")) {
        await this.say(phone, t(language, "documents.unreadable"), language, notice);
        return;
      }
      // The file's real page count is kept: the reply says how many of them were read.
      const pageCount = Math.max(extracted.pages.length, extracted.pageCount ?? 0);
      extracted = {
        ...extracted,
        source: "scan",
        pages: read.pages,
        ...(pageCount > read.pages.length ? { pageCount } : {}),
        ...(read.title ? { title: read.title } : {}),
        original: { data: downloaded.data, mimeType: names.mimeType },
      };
    }
    const context = await deps.documents.store(phone, extracted, { operationId, file: downloaded.data });
    deps.logger.info(
      { event: "DOCUMENT_STORED", kind, pages: context.pageCount, bytes: downloaded.data.byteLength },
      "document stored",
    );
    const kept = { context, pages: extracted.pages };
    return this.documentStored(phone, file.caption, kept, extracted, language, base, reply);
  }

  /**
   * The answer to a stored document: its caption run through the graph with the document as data,
   * else the saved reply with its offer. `extracted`: what this turn read (null: a retried message
   * found it stored), for saying what was left out; `savedBefore`: the same file was sent before,
   * this line says so, and its offer is not made again.
   */
  private async documentStored(
    phone: string,
    captionText: string | undefined,
    stored: { context: DocumentContext; pages: string[] },
    extracted: ExtractedDocument | null,
    language: "he" | "en",
    base: TurnOptions,
    reply: WhatsAppSendOptions,
    savedBefore?: string,
  ): Promise<void> {
    const { deps } = this;
    const { context } = stored;
    const saved =
      savedBefore ??
      [savedLine(context, language), extracted ? partLine(extracted, language) : null]
        .filter(Boolean)
        .join(" ");
    const caption = captionText?.trim();
    if (caption) {
      const result = await deps.runtime.invokeMemoGraph(phone, caption, {
        ...base,
        documentContext: context,
      });
      if (result.status === "failed")
        throw new TurnFailedError("The turn failed", { messageId: base.whatsappMessageId });
      // A notice, not the answer: the graph's reply answers the caption.
      await this.say(phone, saved, language, {
        memory: "none",
        ...(reply.guard ? { guard: reply.guard } : {}),
        ...(reply.held ? { held: reply.held } : {}),
      });
      await this.answer(phone, result, language, { ...reply, quote: false }, this.byVoice(base.user, false));
      // The document's offer follows the caption's answer (what the caption did is done; the offer
      // lists the rest, answered by number or "none"), unless a question is now open.
      if (result.status === "waiting") return;
      const offered = savedBefore ? null : await this.offerOf(base.user, context, stored.pages, language);
      if (!offered) return;
      await deps.router.answerWithoutGraph(phone, language, null, [offered], {
        ...reply,
        inReplyTo: undefined,
        quote: false,
      });
      return;
    }
    // The user's message is a fixed marker with the file's name: the document's own words (its
    // title) never stand in the window as the user's (D14); they stay in the metadata.
    const said = {
      text: context.fileName ? `📄 ${context.fileName}` : "📄",
      messageId: base.whatsappMessageId,
      replyTo: base.replyToMessageId,
      metadata: { documentContext: context },
    };
    const answer = savedBefore
      ? { text: savedBefore, options: [], language }
      : await this.savedAnswer(base.user, context, stored.pages, language, saved);
    await deps.router.answerWithoutGraph(phone, language, said, [answer], reply);
  }

  /** The reply to a stored document: saved, then the offer of what it proposes (kept in its metadata). */
  private async savedAnswer(
    user: User,
    context: DocumentContext,
    pages: readonly string[],
    language: "he" | "en",
    saved = savedLine(context, language),
  ): Promise<ReplyContent> {
    const offered = await this.offerOf(user, context, pages, language);
    if (!offered) return { text: saved, options: [], language };
    return { ...offered, text: `${saved}\n\n${offered.text}` };
  }

  /** The numbered offer of what a stored document proposes, as a message keeping it in its metadata; null: none. */
  private async offerOf(
    user: User,
    context: DocumentContext,
    pages: readonly string[],
    language: "he" | "en",
  ): Promise<ReplyContent | null> {
    const { offers, clock } = this.deps;
    const offered = offers
      ? await offers.offer({ user, language, document: context, pages, now: clock() })
      : null;
    if (!offered) return null;
    return { text: offered.text, options: [], language, metadata: { documentOffer: offered.offer } };
  }

  /** Whether the reply goes by voice: the message was a voice note (`voiceNote`), or the user asked for it. */
  private byVoice(user: User, voiceNote: boolean): boolean {
    return this.deps.voice?.wanted(user, voiceNote) ?? false;
  }

  /**
   * Sends the graph's reply, by voice when `voice` (VoiceReplies: a voice note, with the text of
   * what must be read or tapped); a failed turn is thrown back to the inbox, which retries it.
   */
  private async answer(
    phone: string,
    result: MemoReply,
    language: "he" | "en",
    options: WhatsAppSendOptions,
    voice = false,
  ): Promise<void> {
    if (result.status === "failed") throw new TurnFailedError("The turn failed", { traceId: result.traceId });
    const content: ReplyContent = {
      text: result.text,
      ...(result.question ? { question: result.question } : {}),
      options: result.options,
      ...(result.expectedInput ? { expectedInput: result.expectedInput } : {}),
      language,
    };
    // The runtime stored the reply (or the question) in the window: the sender gives it its WhatsApp id.
    const memory = result.storedMessageId ? { link: result.storedMessageId } : ("none" as const);
    if (voice && this.deps.voice) await this.deps.voice.send(phone, content, { ...options, memory });
    else await this.deps.sender.send(phone, content, { ...options, memory });
  }

  private async say(
    phone: string,
    text: string,
    language: "he" | "en",
    options: WhatsAppSendOptions,
  ): Promise<void> {
    await this.deps.sender.send(phone, { text, options: [], language }, options);
  }
}

/** "Saved "<title>" (2 pages) to your notes." */
function savedLine(context: DocumentContext, language: "he" | "en"): string {
  if (context.source === "photo") return t(language, "photoDocumentSaved", { title: context.title });
  return context.source === "pdf" || context.source === "scan"
    ? t(language, "documents.saved", { title: context.title, count: context.pageCount })
    : t(language, "documents.savedText", { title: context.title });
}

/** What was left out of a long document: "I read the first 10 of 20 pages." Null when nothing. */
function partLine(extracted: ExtractedDocument, language: "he" | "en"): string | null {
  const total = extracted.pageCount ?? extracted.pages.length;
  if (extracted.source === "scan" && total > extracted.pages.length)
    return t(language, "documents.readFirstPages", { read: extracted.pages.length, total });
  return extracted.cutShort ? t(language, "documents.cutShort") : null;
}

/** What Memo says about an image with no caption: what it shows, what it holds, what it could do. */
function describeImage(context: ImageContext, language: "he" | "en"): string {
  const { analysisResult: result } = context;
  const data = result.extractedData ?? {};
  const bullets = (items: string[]) => items.map((item) => `• ${item}`).join("\n");
  const parts = [`📷 ${result.description}`];
  const offers: string[] = [];
  if (data.tasks?.length) {
    parts.push(`${t(language, "imageTasks")}\n${bullets(data.tasks)}`);
    offers.push(t(language, "imageOfferTasks"));
  }
  if (data.events?.length) {
    const events = data.events.map((e) => [e.title, e.date, e.time].filter(Boolean).join(" — "));
    parts.push(`${t(language, "imageEvents")}\n${bullets(events)}`);
    offers.push(t(language, "imageOfferEvents"));
  }
  if (data.items?.length) {
    parts.push(`${t(language, "imageItems")}\n${bullets(data.items)}`);
    offers.push(t(language, "imageOfferItems"));
  }
  if (!data.tasks?.length && !data.items?.length && result.extractedText) {
    const text =
      result.extractedText.length > 500 ? `${result.extractedText.slice(0, 497)}…` : result.extractedText;
    parts.push(`${t(language, "imageText")}\n${text}`);
    offers.push(t(language, "imageOfferNote"));
  }
  parts.push(
    context.imageType === "structured" && offers.length > 0
      ? t(language, "imageOffer", { examples: offers.join(language === "he" ? " או " : " or ") })
      : t(language, "imageOfferRandom"),
  );
  return parts.join("\n\n");
}
