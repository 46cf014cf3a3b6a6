import type { DatabaseRepositories } from "../../../db/storage.js";
import type { Storage } from "../../../db/transaction.js";
import { createTasksExecutor } from "./tasksExecutor.js";
import type { CapabilityModule } from "../../../types/capability.js";
import { listResolver } from "./listResolver.js";
import { taskResolver } from "./taskResolver.js";
import { TasksEntityResolver } from "./tasksEntityResolver.js";
import { tasksTemplate } from "./tasksReplies.js";

/** The `database` capability: tasks, reminders and lists, stored in the app's database. */
export function createTasksCapability(
  /** Tasks, lists, the operation ledger and the undo journal (db/storage databaseStorage). */
  storage: Storage<DatabaseRepositories>,
  /** How long each change can be taken back with "undo" (default: 10 minutes). */
  undoWindowMs?: number,
): CapabilityModule {
  return {
    capability: "database",
    // The task resolver takes every database action the list resolver does not claim.
    resolvers: [taskResolver, listResolver],
    executor: createTasksExecutor(storage, undoWindowMs),
    entityResolver: new TasksEntityResolver(
      storage.repositories.tasks,
      storage.repositories.lists,
      storage.repositories.ledger,
    ),
    template: tasksTemplate,
    // Bulk and multi-item changes are confirmed by TasksEntityResolver, naming what will change.
    confirmsInCode: true,
  };
}
