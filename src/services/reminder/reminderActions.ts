import type { TaskRepository } from "../../db/repositories/taskRepository.js";
import type { UserRepository } from "../../db/repositories/userRepository.js";
import type { ReminderActionRepositories } from "../../db/storage.js";
import type { Storage } from "../../db/transaction.js";
import type { User } from "../../types/index.js";
import type { InboundCommand } from "../../types/inbound.js";
import type { ButtonCommand } from "../../nlu/buttonCommands.js";
import type { Task } from "../../types/tasks.js";
import { recordIrreversible, UndoCapture, type UndoSettings } from "../undo/undoJournal.js";
import type { Logger } from "../../utils/logger.js";
import { humanTime } from "../../utils/timeContext.js";
import { t } from "../../messages/index.js";
import { completeTaskRow } from "../tasks/completeTask.js";
import { SNOOZE_MINUTES } from "./proactiveText.js";
import { quotedInline } from "../../utils/quotedText.js";
import type { SettingsCommand } from "../../nlu/settingsCommand.js";
import { isSabbathCommand, sabbathSetting } from "./sabbathSettings.js";
import type { ReplyContent } from "../../types/outbound.js";
import { HEBREW_DAYS } from "../../utils/timeContext.js";
import { weeklySchedule, type WeeklyReview } from "./weeklyReview.js";
import { gregorianDayText, hebrewDayMonthText, nextObservance } from "../../nlu/hebrewCalendar.js";
import { EN_WEEKDAYS } from "../../nlu/timeWords.js";
import { instantToLocal } from "../../nlu/zonedTime.js";

export interface ReminderActionsDeps {
  /** The tasks a tap changes with their undo journal, and the reminders rung (db/storage reminderActionStorage). */
  storage: Storage<ReminderActionRepositories>;
  users: UserRepository;
  logger: Logger;
  clock: () => number;
  /** Journals taps and settings for "undo" (default: none). */
  undo?: UndoSettings;
  /** Builds the weekly review shown on demand ("weekly review"; default: none, the command says it is empty). */
  weekly?: Pick<WeeklyReview, "now">;
  /** Whether replies can be spoken (a speech model is configured); "answer me by voice" says so (default: false). */
  speech?: boolean;
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
    case "weeklyShow":
    case "weeklyHourUnclear":
      return false;
    case "sabbathOn":
    case "sabbathOff":
    case "sabbathShow":
    case "calendarSchedule":
      // Shabbat quiet's are decided by sabbathSetting (a city is looked up first).
      return false;
    case "weeklyOff":
      return user.weeklyReviewEnabled;
    case "weeklyOn":
      return !user.weeklyReviewEnabled;
    case "voiceOn":
      return !user.voiceReplies;
    case "voiceOff":
      return user.voiceReplies;
    case "voiceShow":
      return false;
    case "weeklyAt": {
      const current = weeklySchedule(user);
      return (
        !user.weeklyReviewEnabled ||
        (command.day !== null && current.day !== command.day) ||
        (command.time !== null && current.time !== command.time)
      );
    }
  }
}

/** "Friday" / "יום שישי": a weekday as the weekly review's confirmations name it. */
function dayName(day: number, language: "he" | "en"): string {
  return language === "he"
    ? `יום ${HEBREW_DAYS[day] ?? ""}`
    : (EN_WEEKDAYS[day] ?? "").replace(/^./u, (c) => c.toUpperCase());
}

/** A typed "done" means the reminder that rang within this long (a quoted reminder: any time). */
const TYPED_DONE_WINDOW_MS = 2 * 60 * 60 * 1000;

/** A task's words as a reply names them: another member's, when one gave it, shown as content (D14). */
function shownText(task: Task): string {
  return task.assignedByPhone ? quotedInline(task.text) : task.text;
}

/** A reminder's reply button, as nlu/buttonCommands reads it. */
type ReminderButton = Extract<ButtonCommand, { kind: "reminderDone" | "reminderSnooze" }>;

/**
 * What the user answers to the scheduler without the graph: a reminder's "Done ✅" and
 * "Snooze 10 min" buttons (or a typed "done"), and the settings of the morning digest and quiet
 * hours. Each returns its reply, in the user's language; the inbound router sends it.
 */
export class ReminderActions {
  constructor(private readonly deps: ReminderActionsDeps) {}

  /** A reminder's button: its task done or snoozed; the reply says what happened. */
  tap(user: User, language: "he" | "en", button: ReminderButton, messageId: string): Promise<string> {
    return button.kind === "reminderDone"
      ? this.done(user, language, button.taskId, messageId)
      : this.snooze(user, language, button.taskId, messageId);
  }

  /**
   * "done" typed after a reminder (or as a reply to one): that reminder's task is done. Null when
   * no reminder rang recently (or the one quoted is not a reminder): the graph answers instead.
   */
  async doneTyped(user: User, language: "he" | "en", message: InboundCommand): Promise<string | null> {
    const { storage, clock } = this.deps;
    const taskId = await storage.repositories.deliveries.lastRungTask(user.phone, {
      sinceMs: clock() - TYPED_DONE_WINDOW_MS,
      ...(message.replyTo ? { waMessageId: message.replyTo } : {}),
    });
    return taskId ? this.done(user, language, taskId, message.messageId) : null;
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
        ? new UndoCapture(journal, user.phone, [
            { table: "tasks", column: "id", values: [task.id] },
            // "Done"'s completion record: undo removes it with the task it puts back.
            { table: "task_completions", column: "task_id", values: [task.id] },
          ])
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

  /** "my Hebrew birthday is 3 Nisan": saved; the reply says the date and when it next falls. */
  async hebrewBirthday(
    user: User,
    language: "he" | "en",
    birthday: { month: number; day: number },
    messageId: string,
  ): Promise<string> {
    const { users, undo, clock } = this.deps;
    const same = user.hebrewBirthday?.month === birthday.month && user.hebrewBirthday.day === birthday.day;
    if (undo && !same)
      await recordIrreversible(undo, user.phone, {
        operationId: `settings:${messageId}`,
        reason: "settings",
        now: clock(),
      });
    await users.update(user.phone, { hebrewBirthday: birthday });
    const now = instantToLocal(clock(), user.timeZone);
    const next = nextObservance({ ...birthday, custom: "birthday" }, now);
    return t(language, "hebrewBirthday.saved", {
      date: hebrewDayMonthText(birthday, language),
      next: next ? gregorianDayText(next, language) : "",
    });
  }

  /**
   * A settings command of the morning digest, quiet hours, the weekly review or answers by voice, applied; the reply
   * says what is set now ("weekly review": the review itself, its overdue tasks numbered).
   */
  async settings(
    user: User,
    language: "he" | "en",
    command: SettingsCommand,
    messageId: string,
  ): Promise<string | ReplyContent[]> {
    const { users, undo, clock } = this.deps;
    if (isSabbathCommand(command)) {
      const { changes, reply } = sabbathSetting(user, language, command, clock());
      if (changes) {
        if (undo)
          await recordIrreversible(undo, user.phone, {
            operationId: `settings:${messageId}`,
            reason: "settings",
            now: clock(),
          });
        await users.update(user.phone, changes);
      }
      return reply;
    }
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
      case "weeklyOff":
        await users.update(user.phone, { weeklyReviewEnabled: false });
        return t(language, "weekly.off");
      case "weeklyOn": {
        await users.update(user.phone, { weeklyReviewEnabled: true });
        const { day, time } = weeklySchedule(user);
        return t(language, "weekly.on", { day: dayName(day, language), time });
      }
      case "weeklyAt": {
        const current = weeklySchedule(user);
        const time = command.time ?? current.time;
        const day = command.day ?? current.day;
        await users.update(user.phone, {
          weeklyReviewEnabled: true,
          weeklyReviewDay: day,
          weeklyReviewTime: time,
        });
        return t(language, "weekly.moved", { day: dayName(day, language), time });
      }
      case "weeklyHourUnclear":
        return t(language, "weekly.hourUnclear", { hour: String(command.hour) });
      case "voiceOn":
        await users.update(user.phone, { voiceReplies: true });
        return t(language, this.deps.speech ? "voiceReplies.on" : "voiceReplies.onNoModel");
      case "voiceOff":
        await users.update(user.phone, { voiceReplies: false });
        return t(language, this.deps.speech ? "voiceReplies.off" : "voiceReplies.offNoModel");
      case "voiceShow":
        if (!user.voiceReplies)
          return t(language, this.deps.speech ? "voiceReplies.stateOff" : "voiceReplies.stateOffNoModel");
        return t(language, this.deps.speech ? "voiceReplies.stateOn" : "voiceReplies.stateOnNoModel");
      case "weeklyShow": {
        // In the language of the message that asked, not the profile's.
        const review = await this.deps.weekly?.now({ ...user, language });
        return review ? [review] : t(language, "weekly.empty");
      }
    }
  }
}
