import type { TaskRepository } from "../../db/repositories/taskRepository.js";
import type { Task } from "../../types/tasks.js";
import { localDayNumber } from "../../utils/timeContext.js";
import { nextFireAfter } from "./taskTimes.js";

/** A task after "done": removed (a reminder), moved to its next ring (recurring), or marked done. */
export interface CompletedTask {
  task: Task;
  removed: boolean;
  recurring: boolean;
}

/**
 * Done: a reminder (one-time or nudge) is deleted, as V1 did; a daily, weekly or monthly
 * reminder stays and moves past today's ring if that is still to come; a plain task, and a
 * reminder another household member gave (its giver is told), is marked done. Every completion is
 * recorded (task_completions) on the same client, so it commits with the change.
 */
export async function completeTaskRow(
  tasks: TaskRepository,
  phone: string,
  task: Task,
  now: number,
): Promise<CompletedTask> {
  // A task already done is not done again.
  if (!task.completed) await tasks.recordCompletion(phone, task, now);
  const rule = task.recurrence;
  if (rule && rule.type !== "nudge") {
    const pending = task.nextFireAt ? Date.parse(task.nextFireAt) : null;
    const today = (ms: number) => localDayNumber(ms, task.timeZone) === localDayNumber(now, task.timeZone);
    const after = pending !== null && pending > now && today(pending) ? pending : now;
    const updated = await tasks.update(phone, task.id, {
      nextFireAt: nextFireAfter(rule, task.timeZone, after, task.reminderOffsetMinutes ?? 0),
    });
    return { task: updated ?? task, removed: false, recurring: true };
  }
  // A reminder another member gave is kept, done, until the scheduler has told them (docs/HOUSEHOLD.md).
  if ((rule || task.dueAt || task.nextFireAt) && !(task.assignedByPhone && task.householdId)) {
    await tasks.delete(phone, [task.id]);
    return { task, removed: true, recurring: false };
  }
  const updated = await tasks.update(phone, task.id, {
    completed: true,
    completedAt: new Date(now).toISOString(),
    nextFireAt: null,
  });
  return { task: updated ?? task, removed: false, recurring: false };
}
