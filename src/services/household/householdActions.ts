import type { HouseholdCommand } from "../../nlu/householdCommands.js";
import type { ButtonCommand } from "../../nlu/buttonCommands.js";
import type { User } from "../../types/index.js";
import type { InboundCommand } from "../../types/inbound.js";
import type { HouseholdReply } from "./householdChange.js";
import type { HouseholdService } from "./householdService.js";
import type { HouseholdSharing } from "./householdSharing.js";
import { recordIrreversible, type UndoSettings } from "../undo/undoJournal.js";

/** An invitation's reply button, as nlu/buttonCommands reads it. */
type InvitationButton = Extract<ButtonCommand, { kind: "invitationAccept" | "invitationDecline" }>;

export interface HouseholdActionsDeps {
  households: HouseholdService;
  sharing: HouseholdSharing;
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
 * household capability, asked through its question plane like every other question. Each returns
 * its reply; the inbound router sends it.
 */
export class HouseholdActions {
  constructor(private readonly deps: HouseholdActionsDeps) {}

  /** An invitation's Accept or Decline button; the reply says what happened. */
  async tap(user: User, language: "he" | "en", button: InvitationButton, messageId: string): Promise<string> {
    const { households } = this.deps;
    const reply =
      button.kind === "invitationAccept"
        ? await households.accept(user, button.invitationId, language)
        : await households.decline(user, button.invitationId, language);
    return this.journaled(user, messageId, reply);
  }

  /**
   * One of the household's commands, carried out; null for what needs a question first (which
   * invitation an "accept" means, giving a bare "Dana: …"): the graph's household capability.
   */
  async command(
    user: User,
    language: "he" | "en",
    message: InboundCommand,
    command: HouseholdCommand,
  ): Promise<string | null> {
    const reply = await this.run(user, language, message, command);
    return reply === null ? null : this.journaled(user, message.messageId, reply);
  }

  /**
   * Only a change that happened is journaled: a household change may have told someone already,
   * so "undo" right after it says it cannot rather than reaching past it; a refusal changed
   * nothing, and "undo" after it still reaches the change before.
   */
  private async journaled(user: User, messageId: string, answer: HouseholdReply): Promise<string> {
    if (answer.changed && this.deps.undo)
      await recordIrreversible(this.deps.undo, user.phone, {
        operationId: `household:${messageId}`,
        reason: "household",
        now: this.deps.clock(),
      });
    return answer.text;
  }

  private run(
    user: User,
    language: "he" | "en",
    message: InboundCommand,
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
