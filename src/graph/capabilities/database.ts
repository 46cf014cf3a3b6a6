import type { DatabaseRepositories } from "../../db/storage.js";
import type { Storage } from "../../db/transaction.js";
import { createDatabaseExecutor } from "../executors/databaseExecutor.js";
import type { CapabilityModule } from "../../types/capability.js";
import { databaseListResolver } from "../resolvers/databaseListResolver.js";
import { databaseTaskResolver } from "../resolvers/databaseTaskResolver.js";
import { DatabaseEntityResolver } from "../entities/databaseEntityResolver.js";
import { databaseTemplate } from "../../services/database/replies.js";

/** The `database` capability: tasks, reminders and lists, stored in the app's database. */
export function createDatabaseCapability(
  /** Tasks, lists, the operation ledger and the undo journal (db/storage databaseStorage). */
  storage: Storage<DatabaseRepositories>,
  /** How long each change can be taken back with "undo" (default: 10 minutes). */
  undoWindowMs?: number,
): CapabilityModule {
  return {
    capability: "database",
    // The task resolver takes every database action the list resolver does not claim.
    resolvers: [databaseTaskResolver, databaseListResolver],
    executor: createDatabaseExecutor(storage, undoWindowMs),
    entityResolver: new DatabaseEntityResolver(
      storage.repositories.tasks,
      storage.repositories.lists,
      storage.repositories.ledger,
    ),
    template: databaseTemplate,
    // Bulk and multi-item changes are confirmed by DatabaseEntityResolver, naming what will change.
    confirmsInCode: true,
  };
}
