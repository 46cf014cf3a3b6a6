import type pg from "pg";
import { PgListRepository } from "../../db/repositories/ListRepository.js";
import { PgOperationLedger } from "../../db/repositories/OperationLedger.js";
import { PgTaskRepository } from "../../db/repositories/TaskRepository.js";
import { createDatabaseExecutor } from "../../graph/executors/DatabaseExecutor.js";
import type { CapabilityModule } from "../../graph/registry.js";
import { databaseListResolver } from "../../graph/resolvers/DatabaseListResolver.js";
import { databaseTaskResolver } from "../../graph/resolvers/DatabaseTaskResolver.js";
import { DatabaseEntityResolver } from "../resolution/DatabaseEntityResolver.js";
import { databaseTemplate } from "./replies.js";

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
