import { prepared } from "../prepared.js";
import type { Queryable } from "../transaction.js";
import { undoInsert, type UndoRecord } from "./undoRepository.js";

/**
 * The outcome of every operation that changed a user's data, keyed by the operation id
 * (traceId:stepId). Written in the transaction of the change, so a turn re-run after a crash
 * finds it and reports the same outcome instead of acting twice. Entries hold what the reply
 * shows (task texts, like the tasks table itself), are the user's only, and are kept for a week
 * (the scheduler's housekeeping drops older ones: Housekeeping.pruneOperations).
 */
export interface OperationLedger {
  get(phone: string, operationId: string): Promise<unknown>;
  /**
   * Records the outcome, and with `undo` the change's undo journal entry in the same statement;
   * false when the operation was recorded already (the caller rolls back what it wrote).
   */
  record(phone: string, operationId: string, outcome: unknown, undo?: UndoRecord): Promise<boolean>;
}

/** How long an operation's outcome is kept for a re-run of its turn. */
export const OPERATION_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** OperationLedger over `database_operations`, on the pool or on a transaction's client. */
export class PgOperationLedger implements OperationLedger {
  constructor(private readonly db: Queryable) {}

  async get(phone: string, operationId: string): Promise<unknown> {
    const { rows } = await this.db.query<{ outcome: unknown }>(
      "SELECT outcome FROM database_operations WHERE user_phone = $1 AND operation_id = $2",
      [phone, operationId],
    );
    return rows[0]?.outcome;
  }

  async record(phone: string, operationId: string, outcome: unknown, undo?: UndoRecord): Promise<boolean> {
    // A data-modifying WITH always runs, whatever the outer INSERT does: one round trip for both.
    const journal = undo ? undoInsert(phone, undo, 4) : null;
    const { rowCount } = await this.db.query(
      prepared(
        `${journal ? `WITH undo AS (${journal.sql}) ` : ""}
       INSERT INTO database_operations (user_phone, operation_id, outcome) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (user_phone, operation_id) DO NOTHING`,
        [phone, operationId, JSON.stringify(outcome), ...(journal?.params ?? [])],
      ),
    );
    return (rowCount ?? 0) === 1;
  }
}
