import { SPEECH_MAX_BYTES, SPEECH_MAX_CHARACTERS, type Speaker } from "../../services/media/speech.js";
import type { OutboundMessageRepository } from "../../db/repositories/outboundMessageRepository.js";
import type { ReplyContent } from "../../types/outbound.js";
import type { User } from "../../types/index.js";
import { withoutInvisibleCharacters } from "../../utils/invisibleText.js";
import { replyLanguage } from "../../utils/language.js";
import type { Logger } from "../../utils/logger.js";
import { phoneTag } from "../../utils/phone.js";
import type { GraphApiClient } from "./graphApiClient.js";
import { DeliveryError, type WhatsAppSendOptions, type WhatsAppSender } from "./whatsAppSender.js";

/** Pictographs and what joins or modifies them (ZWJ, variation selectors, keycaps, skin tones, flags). */
const EMOJI =
  /\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u{1F3FB}-\u{1F3FF}]|\u200D|\uFE0E|\uFE0F|\u20E3/gu;
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>()]+/giu;
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/u;
/** A bullet line's mark ("• ", "- ", "* "), or a numbered line's number ("1. ", "2) "), captured. */
const LIST_MARK = /^\s*(?:[•·◦▪●\-*–—]|(\d{1,2})[.)])\s+/u;
/** WhatsApp's formatting marks (*bold*, _italic_, ~strike~, `code`), not read aloud. */
const FORMATTING = /(?:^|(?<=\s))[*_~`]+|[*_~`]+(?=\s|$|[.,;:!?])/gu;

/**
 * "a, b and c." / "a, b וc.": a list read as one sentence. The Hebrew ו is joined to a Hebrew word
 * only; before a number or a Latin word it takes a hyphen ("ו-2: לשלם"), as Hebrew writes it.
 */
function listSentence(items: readonly string[], language: "he" | "en"): string {
  const bare = items.map((item) => item.replace(/[\s.,;:!?]+$/u, ""));
  const last = bare.at(-1) ?? "";
  if (bare.length === 1) return `${last}.`;
  const and =
    language === "en" ? ` and ${last}` : /^\p{Script=Hebrew}/u.test(last) ? ` ו${last}` : ` ו-${last}`;
  return `${bare.slice(0, -1).join(", ")}${and}.`;
}

/**
 * The reply as it is read aloud: no emoji or formatting marks, a link said as "the link below"
 * (its text follows in writing), each bulleted or numbered run of lines read as one sentence, lines
 * joined into sentences. Empty when nothing is left to say (a reply of emoji only). @internal
 */
export function speakable(text: string, language: "he" | "en"): string {
  const link = language === "he" ? "הקישור למטה" : "the link below";
  const sentences: string[] = [];
  let list: string[] = [];
  const endList = () => {
    if (list.length > 0) sentences.push(listSentence(list, language));
    list = [];
  };
  for (const raw of withoutInvisibleCharacters(text).split(/\n+/)) {
    const bare = raw.replace(EMOJI, "");
    const mark = LIST_MARK.exec(bare);
    const line = (mark ? bare.slice(mark[0].length) : bare)
      .replace(LINK, link)
      .replace(FORMATTING, "")
      .replace(/\s+/gu, " ")
      .trim();
    if (!line || !/[\p{L}\p{N}]/u.test(line)) continue;
    if (mark) {
      list.push(mark[1] ? `${mark[1]}: ${line}` : line);
      continue;
    }
    endList();
    sentences.push(/[.!?:…]$/u.test(line) ? line : `${line}.`);
  }
  endList();
  return sentences.join(" ");
}

/**
 * Whether a reply has something to read or tap that a voice note cannot carry, so its text is sent
 * too: options or buttons to answer with, a listing with numbers to reply with, a bulleted or
 * numbered list, a link, an email address, a long number (a phone number, a code). @internal
 */
export function needsText(content: ReplyContent): boolean {
  if (content.options.length > 0 || content.numbered) return true;
  const { text } = content;
  return (
    text.split("\n").some((line) => LIST_MARK.test(line.replace(EMOJI, ""))) ||
    new RegExp(LINK.source, "iu").test(text) ||
    EMAIL.test(text) ||
    // A code of four digits or more, or a number written in groups (a phone number).
    /\d{4,}|\d[\d -]{4,}\d/u.test(text)
  );
}

export interface VoiceRepliesDeps {
  /** Text to speech; null: no speech model configured (replies stay text). */
  speaker: Speaker | null;
  /** Uploads the audio; null: no access token and no simulator. */
  client: GraphApiClient | null;
  sender: WhatsAppSender;
  /** What was sent, read when WhatsApp reports a voice note failed. */
  outbound: Pick<OutboundMessageRepository, "get">;
  /** The user's language, for the text sent instead of a failed voice note. */
  users: { get(phone: string): Promise<Pick<User, "language"> | null> };
  /** The user's daily budget: speech is not made once it is spent, and what it costs is counted. */
  budget: { exhausted(phone: string): Promise<boolean>; countSpeech(costUsd: number): void };
  logger: Logger;
}

/**
 * Answers by voice (issue 37): a reply to a voice note, or to a user who asked for answers by
 * voice, goes as a voice note (the reply made readable aloud, spoken by the speech model, uploaded
 * to WhatsApp), followed by its usual text when it holds something to read or tap (needsText). A
 * failed speech call (or audio that is not Ogg/Opus), audio over 512 KB, a failed upload or a send
 * WhatsApp refused falls back to the text, once; so does a voice note WhatsApp later reports failed
 * (onDeliveryFailed). Proactive messages (reminders, digests) never come here: they stay text.
 */
export class VoiceReplies {
  /** Voice notes whose failure was answered with text (bounded: cleared at 1,000). */
  private readonly resent = new Set<string>();

  constructor(private readonly deps: VoiceRepliesDeps) {}

  /** Whether replies can be spoken at all: a speech model, and a client to upload with. */
  get available(): boolean {
    return this.deps.speaker !== null && this.deps.client !== null;
  }

  /** Whether the reply to this user goes by voice: they sent a voice note, or asked for answers by voice. */
  wanted(user: User, byVoice: boolean): boolean {
    return this.available && (byVoice || user.voiceReplies);
  }

  /**
   * Sends the reply as a voice note (and its text where needed); as text when it cannot be spoken,
   * or is longer than SPEECH_MAX_CHARACTERS spoken (a reply that long is read, not heard).
   */
  async send(phone: string, content: ReplyContent, options: WhatsAppSendOptions): Promise<void> {
    const { sender, logger } = this.deps;
    const spoken = speakable(content.text, content.language);
    const tooLong = spoken.length > SPEECH_MAX_CHARACTERS;
    if (tooLong) {
      logger.info(
        {
          event: "VOICE_REPLY_SKIPPED",
          user: phoneTag(phone),
          messageId: options.inReplyTo,
          characters: spoken.length,
        },
        "reply too long to speak: it goes as text",
      );
    }
    const mediaId =
      spoken && !tooLong ? await this.voiceNote(phone, spoken, content.language, options) : null;
    if (!mediaId) {
      await sender.send(phone, content, options);
      return;
    }
    const textToo = needsText(content);
    // With a text after it, the text carries the window's message (what is quoted or tapped) and
    // the answer to the user's message: the voice note is recorded as answering nothing, so a crash
    // before the text leaves the turn unanswered, and its re-run sends the text (and the voice note
    // once more) rather than never.
    const { inReplyTo: _answered, ...unanswered } = options;
    try {
      await sender.sendVoice(
        phone,
        {
          mediaId,
          spoken,
          ...(textToo && options.quote && options.inReplyTo ? { quote: options.inReplyTo } : {}),
        },
        textToo ? { ...unanswered, memory: "none" } : options,
      );
    } catch (error) {
      // Only a voice note WhatsApp did not accept falls back to the text; after it was accepted
      // (the window's update failed, the phone changed hands) the text would be a second answer.
      if (!(error instanceof DeliveryError)) throw error;
      this.failed(phone, "send", error, options);
      await sender.send(phone, content, options);
      return;
    }
    if (textToo) await sender.send(phone, content, { ...options, quote: false });
  }

  /**
   * WhatsApp accepted a voice note and later reported it "failed" (a delivery status): when it was
   * the whole answer (its record answers the user's message; one followed by a text answers none),
   * what it said is sent as text, once per process (a repeated status sends nothing more).
   */
  async onDeliveryFailed(update: { waMessageId: string }): Promise<void> {
    const { outbound, users, sender, logger } = this.deps;
    if (this.resent.has(update.waMessageId)) return;
    const record = await outbound.get(update.waMessageId);
    if (record?.kind !== "audio" || !record.inReplyTo || !record.body) return;
    if (this.resent.size >= 1000) this.resent.clear();
    this.resent.add(update.waMessageId);
    const language = replyLanguage((await users.get(record.phone))?.language);
    logger.warn(
      {
        event: "VOICE_REPLY_FAILED",
        step: "delivery",
        user: phoneTag(record.phone),
        messageId: record.inReplyTo,
      },
      "voice note failed after it was sent: what it said goes as text",
    );
    await sender.send(
      record.phone,
      { text: record.body, options: [], language },
      { inReplyTo: record.inReplyTo, memory: "none", quote: false },
    );
  }

  /** The media id of the spoken reply, uploaded; null (logged) when it cannot be made. */
  private async voiceNote(
    phone: string,
    spoken: string,
    language: "he" | "en",
    options: WhatsAppSendOptions,
  ): Promise<string | null> {
    const { speaker, client, budget, logger } = this.deps;
    if (!speaker || !client) return null;
    const spent = await budget.exhausted(phone).catch(() => false);
    if (spent) {
      logger.info(
        { event: "VOICE_REPLY_SKIPPED", user: phoneTag(phone), messageId: options.inReplyTo },
        "daily budget spent: the reply goes as text",
      );
      return null;
    }
    let speech: Awaited<ReturnType<Speaker["speak"]>>;
    try {
      speech = await speaker.speak(spoken, language);
    } catch (error) {
      this.failed(phone, "speech", error, options);
      return null;
    }
    budget.countSpeech(speech.usage.costUsd);
    if (speech.audio.length > SPEECH_MAX_BYTES) {
      // Over 512 KB WhatsApp shows no play button: the note would arrive as a file.
      this.failed(phone, "size", new Error(`${speech.audio.length} bytes of speech`), options);
      return null;
    }
    try {
      return await client.uploadMedia(speech.audio, speech.mimeType);
    } catch (error) {
      this.failed(phone, "upload", error, options);
      return null;
    }
  }

  private failed(phone: string, step: string, error: unknown, options: WhatsAppSendOptions): void {
    this.deps.logger.warn(
      { event: "VOICE_REPLY_FAILED", err: error, step, user: phoneTag(phone), messageId: options.inReplyTo },
      `voice reply failed at ${step}: the reply goes as text`,
    );
  }
}
