import { recognizeHouseholdCommand, type HouseholdCommand } from "../../nlu/householdCommands.js";
import type { User } from "../../types/index.js";
import type { MessageSender, SendOptions } from "../../types/outbound.js";
import type { MemoryService } from "../memory/index.js";
import { answerOutsideGraph, type ActionMessage } from "../reminder/reminderActions.js";
import { HOUSEHOLD_BUTTON } from "../reminder/proactiveText.js";
import type { HouseholdReply } from "./householdChange.js";
import type { HouseholdService } from "./householdService.js";
import type { HouseholdSharing } from "./householdSharing.js";
import { recordIrreversible, type UndoSettings } from "../undo/undoJournal.js";

export interface HouseholdActionsDeps {
  households: HouseholdService;
  sharing: HouseholdSharing;
  memory: MemoryService;
  sender: MessageSender;
  clock: () => number;
  /** Journals each household change as one "undo" cannot take back (default: none). */
  undo?: UndoSettings;
}

/**
 * The household's messages that need no question, answered without the graph like a reminder's
 * buttons: Accept and Decline on an invitation, and the commands of docs/HOUSEHOLD.md in their
 * English and Hebrew forms (invite, "my household", leave, remove, share a list, give a task or a
 * reminder, "our tasks", refuse reminders, list notices, keep a copy). What may need a question —
 * a typed "accept" or "stop" (which invitation?), a bare "Dana: …" (give it?) — is the graph's
 * household capability, asked through its question plane like every other question.
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
    const answer = await this.answer(user, language, message);
    if (answer === null) return false;
    // Only a change that happened is journaled: a household change may have told someone already,
    // so "undo" right after it says it cannot rather than reaching past it; a refusal changed
    // nothing, and "undo" after it still reaches the change before.
    if (answer.changed && this.deps.undo)
      await recordIrreversible(this.deps.undo, user.phone, {
        operationId: `household:${message.messageId}`,
        reason: "household",
        now: this.deps.clock(),
      });
    await answerOutsideGraph(this.deps, user.phone, message, answer.text, language, options);
    return true;
  }

  private async answer(
    user: User,
    language: "he" | "en",
    message: ActionMessage,
  ): Promise<HouseholdReply | null> {
    const { households } = this.deps;
    const option = message.optionId ?? "";
    if (option.startsWith(HOUSEHOLD_BUTTON.accept))
      return households.accept(user, option.slice(HOUSEHOLD_BUTTON.accept.length), language);
    if (option.startsWith(HOUSEHOLD_BUTTON.decline))
      return households.decline(user, option.slice(HOUSEHOLD_BUTTON.decline.length), language);
    // Any other button (a question's, or one that names nothing of ours) is not a household command.
    if (message.optionId) return null;
    const command = recognizeHouseholdCommand(message.text);
    return command ? this.command(user, language, message, command) : null;
  }

  private command(
    user: User,
    language: "he" | "en",
    message: ActionMessage,
    command: HouseholdCommand,
  ): Promise<HouseholdReply | null> | null {
    const { households, sharing } = this.deps;
    switch (command.kind) {
      case "invite":
        return households.invite(user, command.name, command.phone, language);
      case "members":
        return households.describe(user, language);
      case "leave":
        return households.leave(user, language);
      case "remove":
        return households.remove(user, command.name, command.explicit, language);
      case "share":
        return sharing.share(user, command.list, command.with, command.saidList, language);
      case "unshare":
        return sharing.unshare(user, command.list, language);
      case "newSharedList":
        return sharing.newSharedList(user, command.list, message.messageId, language);
      case "ourTasks":
        return sharing.ourTasks(user, language);
      case "assign":
        // A bare "Dana: …" asks first: the graph's question.
        return command.explicit
          ? sharing.assign(user, command.target, command.text, message.messageId, language)
          : null;
      case "remind":
        return sharing.remind(user, command.rest, command.hebrew, message.messageId, language);
      case "reminders":
        return sharing.reminders(user, command.name, command.allow, language);
      case "listNotices":
        return sharing.listNotices(user, command.on, language);
      case "keepCopy":
        return sharing.keepCopy(user, message.messageId, language);
      // "accept" and "stop" may need "which invitation?": the graph's question.
      case "stop":
      case "accept":
        return null;
    }
  }
}
