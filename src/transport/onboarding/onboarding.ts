import type { UserRepository } from "../../db/repositories/userRepository.js";
import { recordIrreversible, type UndoSettings } from "../../services/undo/undoJournal.js";
import { describeCapabilities } from "../../graph/capabilities/core/coreExecutors.js";
import { isGreeting, isHelpRequest } from "../../graph/plan/fastPath.js";
import type { CapabilityName, User } from "../../types/index.js";
import { detectLanguage } from "../../utils/language.js";
import type { Logger } from "../../utils/logger.js";
import { isValidTimeZone } from "../../utils/timeContext.js";
import type { MemoryService } from "../../services/memory/index.js";
import type { WhatsAppSender } from "../whatsapp/whatsAppSender.js";
import type { SendOptions } from "../../types/outbound.js";
import { t } from "../../messages/index.js";
import { isTimeZoneQuestion, parseTimeZoneCommand } from "./timeZoneCommand.js";
import { countryOfPhone, guessTimeZone, resolveTimeZone, zoneLabel, type ZoneChoice } from "./timeZones.js";

/** Option ids of the time-zone question: a tap sends the zone back. */
const ZONE_OPTION = "tz:";

export interface OnboardingDeps {
  users: UserRepository;
  memory: MemoryService;
  sender: WhatsAppSender;
  logger: Logger;
  clock: () => number;
  /** Zone of a phone whose country tells nothing (DEFAULT_TIMEZONE). */
  defaultTimeZone: string;
  /** A new user's morning digest time, HH:mm (MORNING_DIGEST_HOUR; default: the table's 08:00). */
  digestTime?: string;
  /** The capabilities running now, for the welcome. */
  capabilities: () => CapabilityName[];
  /** Whether a language model is configured (default: true): without one the welcome lists the commands. */
  withModel?: boolean;
  /** Journals a time zone change as one "undo" cannot take back (default: none). */
  undo?: UndoSettings;
}

/**
 * First contact and time zones: a new phone becomes a user with a zone guessed from its country
 * code and the language of its first message, and is welcomed; a country with several zones is
 * asked once; "change my time zone to…" works at any time.
 */
export class Onboarding {
  constructor(private readonly deps: OnboardingDeps) {}

  /** The sender's user, created on first contact; `created` says this message is their first. */
  async ensureUser(
    phone: string,
    text: string,
    contactName: string | null,
  ): Promise<{ user: User; created: boolean }> {
    const { users, clock, defaultTimeZone } = this.deps;
    const known = await users.get(phone);
    if (known) return { user: known, created: false };
    const detected = detectLanguage(text);
    // A first message without words (a voice note, a photo): Israeli numbers get Hebrew.
    const language = detected ?? (countryOfPhone(phone) === "IL" ? "he" : null);
    const guess = guessTimeZone(phone, defaultTimeZone, language === "he" ? "he" : "en", new Date(clock()));
    const user = await users.getOrCreate(phone, {
      timeZone: guess.zone,
      ...(this.deps.digestTime ? { digestLocalTime: this.deps.digestTime } : {}),
      ...(language ? { language } : {}),
      ...(contactName ? { displayName: contactName.slice(0, 100) } : {}),
      ...(guess.choices.length > 1 ? { timeZoneChoices: guess.choices.map((c) => c.zone) } : {}),
    });
    this.deps.logger.info(
      {
        event: "USER_ONBOARDED",
        country: guess.country,
        timeZone: guess.zone,
        asked: guess.choices.length > 1,
      },
      "new user",
    );
    return { user, created: true };
  }

  /**
   * Welcomes a new user, and asks for their zone when their country has several. Returns true when
   * the welcome answered the message itself (a text that is a greeting or "what can you do");
   * `text` is null for messages that are not text (voice notes, photos), which go on as usual.
   */
  async welcome(
    user: User,
    language: "he" | "en",
    text: string | null,
    options: SendOptions,
  ): Promise<boolean> {
    const { memory, sender } = this.deps;
    const answered = text !== null && (isGreeting(text) || isHelpRequest(text));
    await memory.load(user.phone);
    if (answered && text && options.inReplyTo) {
      await memory.addUserMessage(user.phone, text, { whatsappMessageId: options.inReplyTo });
    }
    const welcome = `${t(language, "onboarding.welcome")}\n\n${describeCapabilities(language, this.deps.capabilities(), this.deps.withModel ?? true)}`;
    // Only an answer records the message it answers: a retry after a crash must still run the turn.
    const send: SendOptions = { ...options, memory: "add", ...(answered ? {} : { inReplyTo: undefined }) };
    await sender.send(user.phone, { text: welcome, options: [], language }, send);
    if (user.timeZoneChoices?.length) {
      const guess = guessTimeZone(
        user.phone,
        this.deps.defaultTimeZone,
        language,
        new Date(this.deps.clock()),
      );
      // The guess first: the likeliest answer is one tap away.
      const choices = [...guess.choices].sort(
        (a, b) => Number(b.zone === guess.zone) - Number(a.zone === guess.zone),
      );
      await this.askZone(user, language, choices, send, "onboarding.askTimeZone");
    }
    return answered;
  }

  /**
   * Answers the open time-zone question, a request to change the zone, or a question about it.
   * Returns true when it answered the message (no turn runs).
   */
  async handleTimeZone(
    user: User,
    language: "he" | "en",
    message: { text: string; optionId?: string | undefined; messageId: string; questionJustAsked?: boolean },
    options: SendOptions,
  ): Promise<boolean> {
    const { users } = this.deps;
    const now = new Date(this.deps.clock());
    const tapped = message.optionId?.startsWith(ZONE_OPTION)
      ? message.optionId.slice(ZONE_OPTION.length)
      : undefined;
    // The question asked in this very turn (by the welcome) waits for the next message.
    const open = !message.questionJustAsked && (user.timeZoneChoices?.length ?? 0) > 0;
    if (tapped !== undefined || open) {
      const picked =
        tapped && isValidTimeZone(tapped)
          ? tapped
          : this.pick(user.timeZoneChoices ?? [], message.text, language, now);
      // Asked once: whatever the answer, the question is closed.
      if (user.timeZoneChoices) await users.update(user.phone, { timeZoneChoices: null });
      if (picked) {
        await this.setZone(user, picked, language, message, options);
        return true;
      }
    }

    const command = parseTimeZoneCommand(message.text);
    if (command) {
      const choices = resolveTimeZone(command.place, language, now);
      if (choices.length === 1) await this.setZone(user, choices[0]!.zone, language, message, options);
      else if (choices.length === 0) {
        await this.reply(
          user.phone,
          message,
          t(language, "onboarding.timeZoneUnknown", { place: command.place }),
          language,
          options,
        );
      } else {
        await users.update(user.phone, { timeZoneChoices: choices.map((c) => c.zone) });
        await this.remember(user.phone, message);
        await this.askZone(user, language, choices, options, "onboarding.timeZoneWhich", {
          place: command.place,
        });
      }
      return true;
    }
    if (isTimeZoneQuestion(message.text)) {
      const text = t(language, "onboarding.timeZoneCurrent", {
        zone: zoneLabel(user.timeZone, language, now),
        time: localTime(user.timeZone, now),
      });
      await this.reply(user.phone, message, text, language, options);
      return true;
    }
    return false;
  }

  /** The zone a reply to the question names: a number, or a place among the choices. */
  private pick(choices: string[], text: string, language: "he" | "en", now: Date): string | undefined {
    if (choices.length === 0 || !text) return undefined;
    const number = /^\s*(\d{1,2})\s*[.)]?\s*$/.exec(text);
    if (number) return choices[Number(number[1]) - 1];
    const named = resolveTimeZone(text, language, now).map((c) => c.zone);
    // A zone outside the offered ones only from a bare place name ("Lisbon"), never from a sentence
    // that happens to name a place ("what's the capital of France?").
    const bare = text.trim().split(/\s+/).length <= 3;
    return (
      named.find((zone) => choices.includes(zone)) ?? (bare && named.length === 1 ? named[0] : undefined)
    );
  }

  private async setZone(
    user: User,
    zone: string,
    language: "he" | "en",
    message: { text: string; messageId: string },
    options: SendOptions,
  ): Promise<void> {
    await this.deps.users.update(user.phone, { timeZone: zone, timeZoneChoices: null });
    // "undo" right after says a setting cannot be undone, rather than undoing an older change.
    if (this.deps.undo) {
      await recordIrreversible(this.deps.undo, user.phone, {
        operationId: `settings:${message.messageId}`,
        reason: "settings",
        now: this.deps.clock(),
      });
    }
    this.deps.logger.info({ event: "TIME_ZONE_SET", timeZone: zone }, "time zone changed");
    const now = new Date(this.deps.clock());
    const text = t(language, "onboarding.timeZoneSet", {
      zone: zoneLabel(zone, language, now),
      time: localTime(zone, now),
    });
    await this.reply(user.phone, message, text, language, options);
  }

  private async askZone(
    user: User,
    language: "he" | "en",
    choices: ZoneChoice[],
    options: SendOptions,
    key: "onboarding.askTimeZone" | "onboarding.timeZoneWhich",
    vars: Record<string, string> = {},
  ): Promise<void> {
    const now = new Date(this.deps.clock());
    const question = t(language, key, {
      zone: zoneLabel(user.timeZone, language, now),
      ...vars,
    });
    const text = `${question}\n${choices.map((c, i) => `${i + 1}. ${c.label}`).join("\n")}`;
    await this.deps.sender.send(
      user.phone,
      {
        text,
        question,
        // The label is the user's own city where the zone is named after another (Amsterdam, not Brussels).
        options: choices.map((c) => ({ id: `${ZONE_OPTION}${c.zone}`, label: c.label })),
        expectedInput: "single_choice",
        language,
        listButton: t(language, "onboarding.chooseButton"),
      },
      { ...options, memory: "add" },
    );
  }

  private async remember(phone: string, message: { text: string; messageId: string }): Promise<void> {
    await this.deps.memory.load(phone);
    if (message.text)
      await this.deps.memory.addUserMessage(phone, message.text, { whatsappMessageId: message.messageId });
  }

  private async reply(
    phone: string,
    message: { text: string; messageId: string },
    text: string,
    language: "he" | "en",
    options: SendOptions,
  ): Promise<void> {
    await this.remember(phone, message);
    await this.deps.sender.send(phone, { text, options: [], language }, { ...options, memory: "add" });
  }
}

/** The wall-clock time now in a zone, HH:mm. */
function localTime(zone: string, now: Date): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(now);
}
