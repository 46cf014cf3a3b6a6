import type { TaskRepository } from "../../db/repositories/taskRepository.js";
import type { UserRepository } from "../../db/repositories/userRepository.js";
import type { ReminderActionRepositories } from "../../db/storage.js";
import type { Storage } from "../../db/transaction.js";
import type { HITLOption, User } from "../../types/index.js";
import type { Task } from "../../types/tasks.js";
import { recordIrreversible, UndoCapture, type UndoSettings } from "../undo/undoJournal.js";
import type { Logger } from "../../utils/logger.js";
import { humanTime } from "../../utils/timeContext.js";
import { t } from "../../messages/index.js";
import { completeTaskRow } from "../tasks/completeTask.js";
import type { MemoryService } from "../memory/index.js";
import type { MessageSender } from "../../types/outbound.js";
import type { SendOptions } from "../../types/outbound.js";
import { REMINDER_BUTTON, SNOOZE_MINUTES } from "./proactiveText.js";
import { quotedInline } from "../../utils/quotedText.js";
import { parseSettingsCommand, type SettingsCommand } from "./settingsCommand.js";

export interface ReminderActionsDeps {
  /** The tasks a tap changes with their undo journal, and the reminders rung (db/storage reminderActionStorage). */
  storage: Storage<ReminderActionRepositories>;
  users: UserRepository;
  memory: MemoryService;
  sender: MessageSender;
  logger: Logger;
  clock: () => number;
  /** Journals taps and settings for "undo" (default: none). */
  undo?: UndoSettings;
}

/** Whether a settings command changes what the user has (reading them, or setting them as they are, does not). */
function changesSetting(user: User, command: SettingsCommand): boolean {
  switch (command.kind) {
    case "digestOff":
      return user.digestEnabled;
    case "digestOn":
      return !user.digestEnabled;
    case "digestAt":
      return !user.digestEnabled || user.digestLocalTime !== command.time;
    case "quietHours":
      return user.quietStart !== command.start || user.quietEnd !== command.end;
    case "quietOff":
      return user.quietStart !== null || user.quietEnd !== null;
    case "quietShow":
      return false;
  }
}

/** A message that says only "done" (in English or Hebrew), with a little politeness around it. */
const BARE_DONE =
  /^(?:(?:ok|okay|yes|yep|great|thanks)[\s,!.]*)?(?:done|all done|it'?s done|did it|finished)[\s!.✅👍]*$|^(?:(?:אוקיי|אוקי|כן|תודה)[\s,!.]*)?(?:בוצע|סיימתי|עשיתי|גמרתי|זהו|נעשה)[\s!.✅👍]*$/iu;
/** A typed "done" means the reminder that rang within this long (a quoted reminder: any time). */
const TYPED_DONE_WINDOW_MS = 2 * 60 * 60 * 1000;

/** A task's words as a reply names them: another member's, when one gave it, shown as content (D14). */
function shownText(task: Task): string {
  return task.assignedByPhone ? quotedInline(task.text) : task.text;
}

/** An inbound message as these actions read it. */
export interface ActionMessage {
  text: string;
  /** The message it replies to (quotes), when it does. */
  replyTo?: string | undefined;
  /** The id of a tapped reply button or list row. */
  optionId?: string | undefined;
  messageId: string;
}

/**
 * Sends `reply` to a message answered without the graph, both kept in the conversation window
 * (the message first, so the next turn sees what was asked and answered).
 */
export async function answerOutsideGraph(
  deps: { memory: MemoryService; sender: MessageSender },
  phone: string,
  message: ActionMessage,
  reply: string | { text: string; options: HITLOption[] },
  language: "he" | "en",
  options: SendOptions,
): Promise<void> {
  await deps.memory.load(phone);
  if (message.text) {
    await deps.memory.addUserMessage(phone, message.text, { whatsappMessageId: message.messageId });
  }
  // A question with reply buttons, or a plain answer.
  const body =
    typeof reply === "string"
      ? { text: reply, options: [], language }
      : {
          text: reply.text,
          question: reply.text,
          expectedInput: "single_choice" as const,
          options: reply.options,
          language,
        };
  await deps.sender.send(phone, body, { ...options, memory: "add" });
}

/**
 * What the user answers to the scheduler without the graph: a reminder's "Done ✅" and
 * "Snooze 10 min" buttons, and the settings of the morning digest and quiet hours. Each is
 * answered at once, in the user's language, and kept in the conversation window.
 */
export class ReminderActions {
  constructor(private readonly deps: ReminderActionsDeps) {}

  /** Answers the message when it is one of these; false leaves it to the graph. */
  async handle(
    user: User,
    language: "he" | "en",
    message: ActionMessage,
    options: SendOptions,
  ): Promise<boolean> {
    const option = message.optionId ?? "";
    let reply: string | null = null;
    if (option.startsWith(REMINDER_BUTTON.done)) {
      reply = await this.done(user, language, option.slice(REMINDER_BUTTON.done.length), message.messageId);
    } else if (option.startsWith(REMINDER_BUTTON.snooze)) {
      reply = await this.snooze(
        user,
        language,
        option.slice(REMINDER_BUTTON.snooze.length),
        message.messageId,
      );
    } else if (!message.optionId) {
      const command = parseSettingsCommand(message.text);
      if (command) reply = await this.settings(user, language, command, message.messageId);
      else if (BARE_DONE.test(message.text.trim())) reply = await this.doneTyped(user, language, message);
    }
    if (reply === null) return false;
    await answerOutsideGraph(this.deps, user.phone, message, reply, language, options);
    return true;
  }

  /**
   * Changes one task as a tap asks, in a transaction with its undo journal entry: "undo" after the
   * tap puts the task back as it was (its reminder and next ring). Null when the task is gone or done.
   */
  private async changeTask<T>(
    user: User,
    taskId: string,
    messageId: string,
    change: (tasks: TaskRepository, task: Task, now: number) => Promise<T>,
  ): Promise<{ task: Task; result: T; now: number } | null> {
    const { storage, clock, undo } = this.deps;
    const now = clock();
    return storage.transaction(async ({ tasks, journal }) => {
      const task = await tasks.get(user.phone, taskId);
      if (!task || task.completed) return null;
      const capture = undo
        ? new UndoCapture(journal, user.phone, [{ table: "tasks", column: "id", values: [task.id] }])
        : null;
      await capture?.before();
      const result = await change(tasks, task, now);
      // The tap's message id: a webhook delivered twice journals the tap once.
      await capture?.finish({
        operationId: `tap:${messageId}`,
        description: { kind: "task", text: task.text },
        now,
        windowMs: undo!.windowMs,
      });
      return { task, result, now };
    });
  }

  /** "Done ✅": completes the task (a reminder is deleted; a repeating one moves on). */
  private async done(user: User, language: "he" | "en", taskId: string, messageId: string): Promise<string> {
    const { logger } = this.deps;
    const changed = await this.changeTask(user, taskId, messageId, (tasks, task, now) =>
      completeTaskRow(tasks, user.phone, task, now),
    );
    if (!changed) return t(language, "reminder.gone");
    const { task, result: done, now } = changed;
    const text = shownText(task);
    logger.info({ event: "REMINDER_DONE_TAP", taskId, removed: done.removed }, "reminder done by button");
    if (done.recurring && done.task.nextFireAt) {
      return t(language, "reminder.doneRecurring", {
        text,
        time: humanTime(done.task.nextFireAt, now, user.timeZone, language),
      });
    }
    return t(language, "reminder.done", { text });
  }

  /**
   * "done" typed after a reminder (or as a reply to one): that reminder's task is done. Null when
   * no reminder rang recently (or the one quoted is not a reminder): the graph answers instead.
   */
  private async doneTyped(user: User, language: "he" | "en", message: ActionMessage): Promise<string | null> {
    const { storage, clock } = this.deps;
    const taskId = await storage.repositories.deliveries.lastRungTask(user.phone, {
      sinceMs: clock() - TYPED_DONE_WINDOW_MS,
      ...(message.replyTo ? { waMessageId: message.replyTo } : {}),
    });
    return taskId ? this.done(user, language, taskId, message.messageId) : null;
  }

  /** "Snooze 10 min": the next ring comes ten minutes from now. */
  private async snooze(
    user: User,
    language: "he" | "en",
    taskId: string,
    messageId: string,
  ): Promise<string> {
    const changed = await this.changeTask(user, taskId, messageId, async (tasks, task, now) => {
      const at = new Date(now + SNOOZE_MINUTES * 60_000).toISOString();
      await tasks.update(user.phone, task.id, { nextFireAt: at });
      return at;
    });
    if (!changed) return t(language, "reminder.gone");
    return t(language, "reminder.snoozed", {
      time: humanTime(changed.result, changed.now, user.timeZone, language),
      text: shownText(changed.task),
    });
  }

  private async settings(
    user: User,
    language: "he" | "en",
    command: SettingsCommand,
    messageId: string,
  ): Promise<string> {
    const { users, undo, clock } = this.deps;
    // A setting is not journaled: "undo" right after it says so rather than undoing an older change.
    // One that changes nothing (already so) is not a change, and leaves the last one undoable.
    if (undo && changesSetting(user, command))
      await recordIrreversible(undo, user.phone, {
        operationId: `settings:${messageId}`,
        reason: "settings",
        now: clock(),
      });
    switch (command.kind) {
      case "digestOff":
        await users.update(user.phone, { digestEnabled: false });
        return t(language, "digest.off");
      case "digestOn":
        await users.update(user.phone, { digestEnabled: true });
        return t(language, "digest.on", { time: user.digestLocalTime });
      case "digestAt":
        await users.update(user.phone, { digestEnabled: true, digestLocalTime: command.time });
        return t(language, "digest.moved", { time: command.time });
      case "quietHours":
        await users.update(user.phone, { quietStart: command.start, quietEnd: command.end });
        return t(language, "quiet.set", { start: command.start, end: command.end });
      case "quietOff":
        await users.update(user.phone, { quietStart: null, quietEnd: null });
        return t(language, "quiet.off");
      case "quietShow":
        return user.quietStart && user.quietEnd
          ? t(language, "quiet.state", { start: user.quietStart, end: user.quietEnd })
          : t(language, "quiet.none");
    }
  }
}
