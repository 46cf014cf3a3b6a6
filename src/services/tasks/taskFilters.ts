import { nonEmpty } from "../../utils/args.js";
import type { TaskRepository } from "../../db/repositories/taskRepository.js";
import type { Task } from "../../types/tasks.js";
import type { TaskGroup } from "../../contracts/tasks.js";
import { localDayNumber } from "../../utils/timeContext.js";
import { DEFAULT_THRESHOLD, rankMatches } from "../../utils/fuzzy.js";

/** The windows a filter can name (the resolver's filters.due). */
type DueWindow = "overdue" | "today" | "tomorrow" | "week" | "upcoming" | "none";

/** What getAll, deleteAll, completeAll and updateAll select, beyond open/done and category (the repository's). */
interface TaskSelection {
  due?: DueWindow;
  /** Words the task must name (every task that matches them well enough, not just the best). */
  query?: string;
}

/** The group a task is shown in: done, a repeating rule, no time, or by its due time. */
export function groupOf(task: Task, now: number, zone: string): TaskGroup {
  if (task.completed) return "done";
  if (task.recurrence && task.recurrence.type !== "nudge") return "recurring";
  if (!task.dueAt) return task.recurrence ? "today" : "undated";
  const due = Date.parse(task.dueAt);
  if (due < now) return "overdue";
  return localDayNumber(due, zone) === localDayNumber(now, zone) ? "today" : "upcoming";
}

/** Whether a task falls in a due window; one rule for listing and for bulk changes alike. */
function inDueWindow(task: Task, due: DueWindow, now: number, zone: string): boolean {
  const group = groupOf(task, now, zone);
  if (due === "none") return group === "undated";
  if (due === "overdue") return group === "overdue";
  if (!task.dueAt) return false;
  const at = Date.parse(task.dueAt);
  const days = localDayNumber(at, zone) - localDayNumber(now, zone);
  switch (due) {
    case "today":
      return days === 0;
    case "tomorrow":
      return days === 1;
    case "week":
      return days >= 0 && days < 7;
    case "upcoming":
      return at >= now;
  }
}

/** The tasks a selection names, in their order. */
function selectTasks(tasks: Task[], selection: TaskSelection, now: number, zone: string): Task[] {
  let selected = tasks;
  const query = selection.query?.trim();
  if (query) {
    const named = new Set(
      rankMatches(query, selected, (task) => task.text)
        .filter((m) => m.score >= DEFAULT_THRESHOLD)
        .map((m) => m.item.id),
    );
    selected = selected.filter((task) => named.has(task.id));
  }
  const due = selection.due;
  return due ? selected.filter((task) => inDueWindow(task, due, now, zone)) : selected;
}

/** The resolver's `filters` (open/done, category, due window, search words) as a query and a selection. */
function filtersOf(filters: unknown): {
  query: { completed: boolean; category?: string };
  selection: TaskSelection;
  /** Whether anything narrows the set beyond "open tasks". */
  narrowed: boolean;
} {
  const f = filters && typeof filters === "object" ? (filters as Record<string, unknown>) : {};
  const text = nonEmpty;
  const completed = typeof f.completed === "boolean" ? f.completed : false;
  const category = text(f.category);
  const search = text(f.query);
  const due = text(f.due) as DueWindow | undefined;
  return {
    query: { completed, ...(category ? { category } : {}) },
    selection: { ...(search ? { query: search } : {}), ...(due ? { due } : {}) },
    narrowed: !!(category || search || due || completed),
  };
}

/** The owner's tasks that the resolver's `filters` select, in creation order. */
export async function findTasks(
  tasks: TaskRepository,
  phone: string,
  filters: unknown,
  now: number,
  zone: string,
): Promise<{ tasks: Task[]; narrowed: boolean }> {
  const { query, selection, narrowed } = filtersOf(filters);
  return { tasks: selectTasks(await tasks.list(phone, query), selection, now, zone), narrowed };
}
