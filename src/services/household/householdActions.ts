import { recognizeHouseholdCommand, type HouseholdCommand } from "../../nlu/householdCommands.js";
import type { User } from "../../types/index.js";
import type { MessageSender, SendOptions } from "../../types/outbound.js";
import type { MemoryService } from "../memory/index.js";
import { answerOutsideGraph, type ActionMessage } from "../reminder/reminderActions.js";
import { HOUSEHOLD_BUTTON } from "../reminder/proactiveText.js";
import type { HouseholdService } from "./householdService.js";
import { GIVE_BUTTON, type Answer, type HouseholdSharing } from "./householdSharing.js";
import { recordIrreversible, type UndoSettings } from "../undo/undoJournal.js";
import { t } from "../../messages/index.js";

export interface HouseholdActionsDeps {
  households: HouseholdService;
  sharing: HouseholdSharing;
  memory: MemoryService;
  sender: MessageSender;
  clock: () => number;
  /** Journals each household change as one "undo" cannot take back (default: none). */
  undo?: UndoSettings;
}

/** Commands that change nothing: "undo" after them still reaches the change before. */
const READ_ONLY = new Set(["members", "ourTasks"]);

/**
 * The household's messages, answered without the graph like a reminder's buttons: Accept and
 * Decline on an invitation, "stop" or "accept" typed while one is open, and the commands of
 * docs/HOUSEHOLD.md in their English and Hebrew forms (invite, "my household", leave, remove,
 * share a list, give a task or a reminder, "our tasks", refuse reminders, list notices, keep a copy).
 */
export class HouseholdActions {
  constructor(private readonly deps: HouseholdActionsDeps) {}

  /** Answers the message when it is one of these; false leaves it to what comes next. */
  async handle(
    user: User,
    language: "he" | "en",
    message: ActionMessage,
    options: SendOptions,
  ): Promise<boolean> {
    const answer = await this.replyTo(user, language, message);
    if (answer === null) return false;
    const { reply, changed } = answer;
    // A household change may have told someone already: "undo" right after it says it cannot,
    // rather than reaching past it to an older change.
    if (changed && typeof reply === "string" && this.deps.undo)
      await recordIrreversible(this.deps.undo, user.phone, {
        operationId: `household:${message.messageId}`,
        reason: "household",
        now: this.deps.clock(),
      });
    await answerOutsideGraph(this.deps, user.phone, message, reply, language, options);
    return true;
  }

  private async replyTo(
    user: User,
    language: "he" | "en",
    message: ActionMessage,
  ): Promise<{ reply: Answer; changed: boolean } | null> {
    // Read once: a tap carries its id, a typed message may be a command.
    const command = message.optionId ? null : recognizeHouseholdCommand(message.text);
    const reply = await this.answer(user, language, message, command);
    if (reply === null) return null;
    const changed = message.optionId !== GIVE_BUTTON.keep && !(command && READ_ONLY.has(command.kind));
    return { reply, changed };
  }

  private async answer(
    user: User,
    language: "he" | "en",
    message: ActionMessage,
    command: HouseholdCommand | null,
  ): Promise<Answer | null> {
    const { households, sharing } = this.deps;
    const option = message.optionId ?? "";
    if (option.startsWith(HOUSEHOLD_BUTTON.accept))
      return households.accept(user, option.slice(HOUSEHOLD_BUTTON.accept.length), language);
    if (option.startsWith(HOUSEHOLD_BUTTON.decline))
      return households.decline(user, option.slice(HOUSEHOLD_BUTTON.decline.length), language);
    if (option.startsWith(GIVE_BUTTON.give))
      return sharing.giveTapped(user, option.slice(GIVE_BUTTON.give.length), message.messageId, language);
    if (option === GIVE_BUTTON.keep) return t(language, "household.notGiven");
    if (message.optionId) return null;
    switch (command?.kind) {
      case "invite":
        return households.invite(user, command.name, command.phone, language);
      case "members":
        return households.describe(user, language);
      case "leave":
        return households.leave(user, language);
      case "remove":
        return households.remove(user, command.name, command.explicit, language);
      case "stop":
        return households.stop(user, language);
      case "accept":
        return households.acceptLatest(user, language);
      case "share":
        return sharing.share(user, command.list, command.with, command.saidList, language);
      case "unshare":
        return sharing.unshare(user, command.list, language);
      case "newSharedList":
        return sharing.newSharedList(user, command.list, message.messageId, language);
      case "ourTasks":
        return sharing.ourTasks(user, language);
      case "assign":
        return sharing.assign(
          user,
          command.target,
          command.text,
          command.explicit,
          message.messageId,
          language,
        );
      case "remind":
        return sharing.remind(user, command.rest, command.hebrew, message.messageId, language);
      case "reminders":
        return sharing.reminders(user, command.name, command.allow, language);
      case "listNotices":
        return sharing.listNotices(user, command.on, language);
      case "keepCopy":
        return sharing.keepCopy(user, message.messageId, language);
      default:
        return null;
    }
  }
}
