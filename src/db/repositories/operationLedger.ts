import type { Queryable } from "../transaction.js";

/**
 * The outcome of every operation that changed a user's data, keyed by the operation id
 * (traceId:stepId). Written in the transaction of the change, so a turn re-run after a crash
 * finds it and reports the same outcome instead of acting twice. Entries hold what the reply
 * shows (task texts, like the tasks table itself), are the user's only, and are kept for a week.
 */
export interface OperationLedger {
  get(phone: string, operationId: string): Promise<unknown>;
  record(phone: string, operationId: string, outcome: unknown): Promise<void>;
}

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

  async record(phone: string, operationId: string, outcome: unknown): Promise<void> {
    // The user's entries older than a week can no longer be re-run: dropped as new ones come.
    await this.db.query(
      "DELETE FROM database_operations WHERE user_phone = $1 AND created_at < now() - interval '7 days'",
      [phone],
    );
    await this.db.query(
      `INSERT INTO database_operations (user_phone, operation_id, outcome) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (user_phone, operation_id) DO NOTHING`,
      [phone, operationId, JSON.stringify(outcome)],
    );
  }
}
