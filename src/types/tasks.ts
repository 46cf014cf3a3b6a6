/** Tasks, reminders and lists as the `database` capability stores them (times are ISO strings). */

import type { Recurrence as TaskRecurrence } from "./recurrence.js";

/** A recurring reminder's rule, computed in its task's zone (D6): the time parser's own type. */
export type { Recurrence as TaskRecurrence, RecurrenceType } from "./recurrence.js";

export interface Subtask {
  text: string;
  completed: boolean;
}

export interface Task {
  id: string;
  text: string;
  category: string | null;
  dueAt: string | null;
  /** "Remind me X before", as the user said it. */
  reminder: string | null;
  reminderOffsetMinutes: number | null;
  recurrence: TaskRecurrence | null;
  reminderDetails: Record<string, unknown> | null;
  timeZone: string;
  /** The next time its reminder rings, or null. */
  nextFireAt: string | null;
  completed: boolean;
  completedAt: string | null;
  subtasks: Subtask[];
  createdAt: string;
  updatedAt: string;
}

/** What a new task is made of; the owner and the creating operation are passed beside it. */
/** Fields an update may change. */
export type TaskPatch = Partial<
  Pick<
    Task,
    | "text"
    | "category"
    | "dueAt"
    | "reminder"
    | "reminderOffsetMinutes"
    | "recurrence"
    | "reminderDetails"
    | "nextFireAt"
    | "completed"
    | "completedAt"
    | "subtasks"
  >
>;

/** What a new task is made of; the owner and the creating operation are passed beside it. */
export type NewTask = Pick<Task, "text" | "timeZone"> & Omit<TaskPatch, "text" | "completed" | "completedAt">;

export interface ListItem {
  id: string;
  text: string;
  checked: boolean;
  position: number;
}

export interface TaskList {
  id: string;
  name: string;
  isChecklist: boolean;
  items: ListItem[];
  createdAt: string;
  updatedAt: string;
}
