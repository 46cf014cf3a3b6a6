/** Tasks, reminders and lists as the `database` capability stores them (times are ISO strings). */

import type { Recurrence as TaskRecurrence } from "./recurrence.js";

/** A recurring reminder's rule, computed in its task's zone (D6): the time parser's own type. */
export type { Recurrence as TaskRecurrence } from "./recurrence.js";

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
  /** Given by another member of the household (docs/HOUSEHOLD.md): their phone; absent for one's own tasks. */
  assignedByPhone?: string;
  /** Shared with this household ("our tasks"). */
  householdId?: string;
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
export type NewTask = Pick<Task, "text" | "timeZone"> &
  Omit<TaskPatch, "text" | "completed" | "completedAt"> &
  Pick<Task, "assignedByPhone" | "householdId">;

export interface ListItem {
  id: string;
  text: string;
  checked: boolean;
  position: number;
  /** On a shared list: the household name of who added it, when that is not the reader (else absent). */
  addedBy?: string;
  /** Someone other than the reader wrote it (a member, or one who has since left): shown as content. */
  othersWords?: true;
}

export interface TaskList {
  id: string;
  name: string;
  isChecklist: boolean;
  items: ListItem[];
  /** Shared with the owner's household (docs/HOUSEHOLD.md). */
  shared?: boolean;
  /** A list another member shared: their household name (only its owner renames or deletes it). */
  owner?: string;
  createdAt: string;
  updatedAt: string;
}
