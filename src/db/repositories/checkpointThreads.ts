import { prepared } from "../prepared.js";
import type { Queryable } from "../transaction.js";

/**
 * Which threads have checkpoints in PostgresSaver's tables: the cheap question asked at the start
 * of every turn ("is a question open?"), before the full read of the latest checkpoint, which only
 * a thread with one needs. A prepared statement: parsed once per connection.
 */
export class PgCheckpointThreads {
  constructor(
    private readonly db: Queryable,
    /** PostgresSaver's schema (default: public, as `createCheckpointer` sets it up). */
    private readonly schema = "public",
  ) {}

  async exists(threadId: string): Promise<boolean> {
    const { rows } = await this.db.query<{ found: boolean }>(
      prepared(`SELECT ${this.existsSql("$1")} AS found`, [threadId]),
    );
    return rows[0]?.found === true;
  }

  /**
   * The same question as an SQL expression over `threadId` (a parameter or column), for a statement
   * that asks it along with something else (the inbound path's user update).
   */
  existsSql(threadId: string): string {
    return `EXISTS (SELECT 1 FROM "${this.schema}".checkpoints WHERE thread_id = ${threadId})`;
  }
}
