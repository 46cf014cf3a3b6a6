import type pg from "pg";
import { PgListRepository } from "../../db/repositories/listRepository.js";
import { PgOperationLedger } from "../../db/repositories/operationLedger.js";
import { PgTaskRepository } from "../../db/repositories/taskRepository.js";
import { createDatabaseExecutor } from "../executors/databaseExecutor.js";
import type { CapabilityModule } from "../../types/capability.js";
import { databaseListResolver } from "../resolvers/databaseListResolver.js";
import { databaseTaskResolver } from "../resolvers/databaseTaskResolver.js";
import { DatabaseEntityResolver } from "../entities/databaseEntityResolver.js";
import { databaseTemplate } from "../../services/database/replies.js";

/** The `database` capability: tasks, reminders and lists, stored in the app's database. */
export function createDatabaseCapability(
  pool: pg.Pool,
  /** How long each change can be taken back with "undo" (default: 10 minutes). */
  undoWindowMs?: number,
): CapabilityModule {
  return {
    capability: "database",
    // The task resolver takes every database action the list resolver does not claim.
    resolvers: [databaseTaskResolver, databaseListResolver],
    executor: createDatabaseExecutor(pool, undoWindowMs),
    entityResolver: new DatabaseEntityResolver(
      new PgTaskRepository(pool),
      new PgListRepository(pool),
      new PgOperationLedger(pool),
    ),
    template: databaseTemplate,
    // Bulk and multi-item changes are confirmed by DatabaseEntityResolver, naming what will change.
    confirmsInCode: true,
  };
}
