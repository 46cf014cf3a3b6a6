import type { UserRepository } from "../../db/repositories/userRepository.js";
import { recordIrreversible, type UndoSettings } from "../../services/undo/undoJournal.js";
import { describeCapabilities } from "../../graph/capabilities/core/coreExecutors.js";
import { isGreeting, isHelpRequest } from "../../nlu/smallTalk.js";
import type { CapabilityName, User } from "../../types/index.js";
import { detectLanguage } from "../../utils/language.js";
import type { Logger } from "../../utils/logger.js";
import { isValidTimeZone } from "../../utils/timeContext.js";
import type { ReplyContent } from "../../types/outbound.js";
import { readButton, TIME_ZONE_BUTTON } from "../../nlu/buttonCommands.js";
import { t } from "../../messages/index.js";
import { isTimeZoneQuestion, parseTimeZoneCommand, readZoneAnswer } from "../../nlu/timeZoneCommand.js";
import { countryOfPhone, guessTimeZone, resolveTimeZone, zoneLabel, type ZoneChoice } from "./timeZones.js";

/** What onboarding answers a message with: its messages, in order (a reply, then a question). */
interface OnboardingAnswer {
  messages: ReplyContent[];
}

export interface OnboardingDeps {
  users: UserRepository;
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
   * The welcome of a new user, and the question of their zone when their country has several.
   * `answered` when the welcome answers the message itself (a text that is a greeting or "what can
   * you do"); `text` is null for messages that are not text (voice notes, photos), which go on.
   */
  welcome(user: User, language: "he" | "en", text: string | null): OnboardingAnswer & { answered: boolean } {
    const answered = text !== null && (isGreeting(text) || isHelpRequest(text));
    const welcome = `${t(language, "onboarding.welcome")}\n\n${describeCapabilities(language, this.deps.capabilities(), this.deps.withModel ?? true)}`;
    const messages: ReplyContent[] = [{ text: welcome, options: [], language }];
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
      messages.push(this.askZone(user, language, choices, "onboarding.askTimeZone"));
    }
    return { answered, messages };
  }

  /**
   * The answer to the open time-zone question, a request to change the zone, or a question about
   * it (the zone already changed); null when the message is none of these.
   */
  async handleTimeZone(
    user: User,
    language: "he" | "en",
    message: { text: string; optionId?: string | undefined; messageId: string; questionJustAsked?: boolean },
  ): Promise<OnboardingAnswer | null> {
    const { users } = this.deps;
    const now = new Date(this.deps.clock());
    const button = readButton(message.optionId);
    const tapped = button?.kind === "timeZone" ? button.zone : undefined;
    // The question asked in this very turn (by the welcome) waits for the next message.
    const open = !message.questionJustAsked && (user.timeZoneChoices?.length ?? 0) > 0;
    if (tapped !== undefined || open) {
      const picked =
        tapped && isValidTimeZone(tapped)
          ? tapped
          : this.pick(user.timeZoneChoices ?? [], message.text, language, now);
      // Asked once: whatever the answer, the question is closed.
      if (user.timeZoneChoices) await users.update(user.phone, { timeZoneChoices: null });
      if (picked) return this.setZone(user, picked, language, message);
    }

    const command = parseTimeZoneCommand(message.text);
    if (command) {
      const choices = resolveTimeZone(command.place, language, now);
      if (choices.length === 1) return this.setZone(user, choices[0]!.zone, language, message);
      if (choices.length === 0) {
        const text = t(language, "onboarding.timeZoneUnknown", { place: command.place });
        return { messages: [{ text, options: [], language }] };
      }
      await users.update(user.phone, { timeZoneChoices: choices.map((c) => c.zone) });
      return {
        messages: [
          this.askZone(user, language, choices, "onboarding.timeZoneWhich", { place: command.place }),
        ],
      };
    }
    if (isTimeZoneQuestion(message.text)) {
      const text = t(language, "onboarding.timeZoneCurrent", {
        zone: zoneLabel(user.timeZone, language, now),
        time: localTime(user.timeZone, now),
      });
      return { messages: [{ text, options: [], language }] };
    }
    return null;
  }

  /** The zone a reply to the question names: a number, or a place among the choices. */
  private pick(choices: string[], text: string, language: "he" | "en", now: Date): string | undefined {
    const answer = choices.length > 0 ? readZoneAnswer(text) : null;
    if (!answer) return undefined;
    if ("choice" in answer) return choices[answer.choice - 1];
    const named = resolveTimeZone(answer.place, language, now).map((c) => c.zone);
    // A zone outside the offered ones only from a bare place name ("Lisbon"), never from a sentence.
    return (
      named.find((zone) => choices.includes(zone)) ??
      (answer.bare && named.length === 1 ? named[0] : undefined)
    );
  }

  private async setZone(
    user: User,
    zone: string,
    language: "he" | "en",
    message: { messageId: string },
  ): Promise<OnboardingAnswer> {
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
    return { messages: [{ text, options: [], language }] };
  }

  /** The question of which zone, as a list whose rows send the zone back. */
  private askZone(
    user: User,
    language: "he" | "en",
    choices: ZoneChoice[],
    key: "onboarding.askTimeZone" | "onboarding.timeZoneWhich",
    vars: Record<string, string> = {},
  ): ReplyContent {
    const now = new Date(this.deps.clock());
    const question = t(language, key, {
      zone: zoneLabel(user.timeZone, language, now),
      ...vars,
    });
    return {
      text: `${question}\n${choices.map((c, i) => `${i + 1}. ${c.label}`).join("\n")}`,
      question,
      // The label is the user's own city where the zone is named after another (Amsterdam, not Brussels).
      options: choices.map((c) => ({ id: `${TIME_ZONE_BUTTON}${c.zone}`, label: c.label })),
      expectedInput: "single_choice",
      language,
      listButton: t(language, "onboarding.chooseButton"),
    };
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
