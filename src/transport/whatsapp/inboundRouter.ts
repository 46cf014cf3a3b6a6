import { isBareDone, readButton } from "../../nlu/buttonCommands.js";
import { recognizeHouseholdCommand } from "../../nlu/householdCommands.js";
import { parseSettingsCommand } from "../../nlu/settingsCommand.js";
import { parseHebrewBirthdayCommand } from "../../nlu/hebrewBirthdayCommand.js";
import type { HouseholdActions } from "../../services/household/householdActions.js";
import type { MemoryService } from "../../services/memory/index.js";
import type { ReminderActions } from "../../services/reminder/reminderActions.js";
import type { InboundCommand } from "../../types/inbound.js";
import type { MessageMetadata, User } from "../../types/index.js";
import type { ReplyContent } from "../../types/outbound.js";
import type { Onboarding } from "../onboarding/onboarding.js";
import type { WhatsAppMessage } from "./webhookSchema.js";
import type { WhatsAppSendOptions, WhatsAppSender } from "./whatsAppSender.js";

/**
 * Who answers a message: onboarding (a new user's greeting or "what can you do?"), the time zone
 * (its question's answer, a change, a question about it), a reminder (its Done or Snooze button, a
 * typed "done"), the scheduler's settings (morning digest, quiet hours), the household (an
 * invitation's button, a household command), or the graph (the HITL plane, then the fast path or
 * the planner: docs/ARCHITECTURE.md, "The walk of one message").
 */
type InboundRoute = "onboarding" | "timeZone" | "reminder" | "settings" | "household" | "graph";

interface InboundRouterDeps {
  onboarding: Onboarding;
  /** Reminder buttons and scheduler settings (default: none, the graph answers). */
  actions?: ReminderActions;
  /** Invitations' buttons and the household's commands (default: none, the graph answers). */
  households?: HouseholdActions;
  memory: MemoryService;
  sender: WhatsAppSender;
}

/** The user's message as the window keeps it: its words, ids, and what Memo learned of it. */
interface SaidMessage {
  text: string;
  messageId: string;
  /** The message it quotes (kept for an image; a command's answer keeps none). */
  replyTo?: string | undefined;
  metadata?: MessageMetadata | undefined;
}

/** One inbound message as the router reads it. */
interface RoutedMessage extends InboundCommand {
  type: WhatsAppMessage["type"];
  /** This message is the user's first: onboarding welcomes them (and may answer it). */
  created: boolean;
  /** A template's quick-reply button (an invitation outside the 24-hour window): its id and title. */
  templateButton?: { payload: string; text: string } | undefined;
}

/**
 * The single way in for every inbound message (spec 002 §3.2): decides, in code and in this order,
 * which route answers it. A route outside the graph answers through `answerWithoutGraph` (the
 * user's message and the reply in the conversation window, then sent); the graph's answers are
 * written by its memory_update node (and the HITL plane's, by the plane). Command words are read by
 * src/nlu; the routes only act.
 */
export class InboundRouter {
  constructor(private readonly deps: InboundRouterDeps) {}

  /**
   * Answers the message when a route outside the graph takes it; returns the route that did, or
   * "graph" when the message is the graph's (the caller runs the turn).
   */
  async route(
    user: User,
    language: "he" | "en",
    message: RoutedMessage,
    options: WhatsAppSendOptions,
  ): Promise<InboundRoute> {
    const { onboarding, actions, households } = this.deps;
    // A command's words and id only: the window keeps no reply-to for it.
    const answered = async (route: InboundRoute, reply: string | ReplyContent[], said = message) => {
      const words = { text: said.text, messageId: said.messageId };
      await this.answerWithoutGraph(user.phone, language, words, reply, options);
      return route;
    };

    if (message.created) {
      // Only words can be answered by the welcome alone; a voice note or photo goes on.
      const welcome = onboarding.welcome(user, language, message.type === "text" ? message.text : null);
      const unquoted = { ...options, quote: false };
      if (welcome.answered) {
        const words = { text: message.text, messageId: message.messageId };
        await this.answerWithoutGraph(user.phone, language, words, welcome.messages, unquoted);
        return "onboarding";
      }
      // Before the answer, and answering nothing: a retry after a crash must still run the turn.
      await this.answerWithoutGraph(user.phone, language, null, welcome.messages, {
        ...unquoted,
        inReplyTo: undefined,
      });
    }

    const zone = await onboarding.handleTimeZone(user, language, {
      ...message,
      questionJustAsked: message.created,
    });
    if (zone) return answered("timeZone", zone.messages);

    if (actions) {
      const button = readButton(message.optionId);
      if (button?.kind === "reminderDone" || button?.kind === "reminderSnooze")
        return answered("reminder", await actions.tap(user, language, button, message.messageId));
      if (!message.optionId) {
        const settings = parseSettingsCommand(message.text);
        if (settings)
          return answered("settings", await actions.settings(user, language, settings, message.messageId));
        const hebrewBirthday = parseHebrewBirthdayCommand(message.text);
        if (hebrewBirthday)
          return answered(
            "settings",
            await actions.hebrewBirthday(user, language, hebrewBirthday, message.messageId),
          );
        const done = isBareDone(message.text) ? await actions.doneTyped(user, language, message) : null;
        if (done !== null) return answered("reminder", done);
      }
    }

    if (households) {
      // A template's button carries its id as the payload; the window keeps its title, what was tapped.
      const { templateButton } = message;
      const said = templateButton
        ? { ...message, optionId: templateButton.payload, text: templateButton.text }
        : message;
      const button = readButton(said.optionId);
      if (button?.kind === "invitationAccept" || button?.kind === "invitationDecline")
        return answered("household", await households.tap(user, language, button, said.messageId), said);
      // Any other button (a question's, or one that names nothing of ours) is not a household command.
      const command = said.optionId ? null : recognizeHouseholdCommand(said.text);
      const reply = command ? await households.command(user, language, said, command) : null;
      if (reply !== null) return answered("household", reply, said);
    }
    return "graph";
  }

  /**
   * The one step by which every answer outside the graph is given (the routes above, and an image
   * without a caption): the user's message (when it has words, and `said` is not null) and then
   * each reply message join the conversation window, and the replies are sent, in order.
   */
  async answerWithoutGraph(
    phone: string,
    language: "he" | "en",
    said: SaidMessage | null,
    reply: string | ReplyContent[],
    options: WhatsAppSendOptions,
  ): Promise<void> {
    const { memory, sender } = this.deps;
    await memory.load(phone);
    if (said?.text) {
      await memory.addUserMessage(phone, said.text, {
        whatsappMessageId: said.messageId,
        ...(said.replyTo ? { replyToMessageId: said.replyTo } : {}),
        ...(said.metadata ? { metadata: said.metadata } : {}),
      });
    }
    const messages = typeof reply === "string" ? [{ text: reply, options: [], language }] : reply;
    for (const content of messages) await sender.send(phone, content, { ...options, memory: "add" });
  }
}
