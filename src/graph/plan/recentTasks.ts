import type { TaskResult, TaskView, TasksResult } from "../../contracts/tasks.js";
import type { RecentTaskSnapshot } from "../../types/index.js";
import type { MemoState } from "../../types/state.js";

/** The operations whose tasks become recent tasks: those created or completed. */
const RECENT = /^(?:create|complete)/;

/**
 * Snapshots of the tasks this turn's steps created or completed (spec 000 §4.1 recent tasks,
 * pushed by memory_update), in plan order: from each successful `tasks.*` result.
 */
export function recentTasksOf(state: MemoState): RecentTaskSnapshot[] {
  return (state.plannerOutput?.plan ?? []).flatMap((step) => {
    const result = state.executionResults.get(step.id);
    if (!result?.success || !result.functionName.startsWith("tasks.")) return [];
    const data = result.data as Partial<TaskResult | TasksResult> | undefined;
    if (typeof data?.op !== "string" || !RECENT.test(data.op)) return [];
    const completed = data.op.startsWith("complete");
    const tasks = data.kind === "task" ? [data.task] : data.kind === "tasks" ? data.tasks : [];
    return (tasks ?? [])
      .filter((task): task is TaskView => typeof task?.id === "string")
      .map((task) => snapshotOf(task, completed));
  });
}

function snapshotOf(task: TaskView, completed: boolean): RecentTaskSnapshot {
  return {
    id: task.id,
    text: task.text,
    completed: completed || task.completed,
    ...(task.dueAt ? { dueDate: task.dueAt } : {}),
  };
}
