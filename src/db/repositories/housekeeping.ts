import type { Queryable } from "../transaction.js";

/**
 * Clean-up the scheduler runs: idle conversation windows, expired questions, expired undo entries,
 * old ledger entries and records. None of it runs inside a user's turn.
 */
export class Housekeeping {
  constructor(private readonly db: Queryable) {}

  /**
   * Deletes conversation windows untouched since `beforeMs` (all their messages have aged out)
   * and clears disambiguation snapshots that expired by `nowMs`. Returns the rows changed.
   */
  async expireConversations(
    beforeMs: number,
    nowMs: number,
  ): Promise<{ windows: number; disambiguations: number }> {
    const windows = await this.db.query("DELETE FROM conversation_windows WHERE updated_at < $1", [
      new Date(beforeMs),
    ]);
    const disambiguations = await this.db.query(
      `UPDATE conversation_windows SET state = jsonb_set(state, '{disambiguation}', 'null'::jsonb)
        WHERE jsonb_typeof(state->'disambiguation') = 'object'
          AND (state->'disambiguation'->>'expiresAt')::double precision < $1`,
      [nowMs],
    );
    return { windows: windows.rowCount ?? 0, disambiguations: disambiguations.rowCount ?? 0 };
  }

  /**
   * Drops undo journal entries that expired before `beforeMs`: they hold copies of what a change
   * touched (a forgotten note's text) and can no longer be taken back. Returns how many went.
   */
  async purgeUndo(beforeMs: number): Promise<number> {
    const { rowCount } = await this.db.query("DELETE FROM undo_journal WHERE expires_at < $1", [
      new Date(beforeMs),
    ]);
    return rowCount ?? 0;
  }

  /**
   * Drops operation ledger entries (`database_operations`) recorded before `beforeMs`: their turns
   * can no longer be re-run. Returns how many went.
   */
  async pruneOperations(beforeMs: number): Promise<number> {
    const { rowCount } = await this.db.query("DELETE FROM database_operations WHERE created_at < $1", [
      new Date(beforeMs),
    ]);
    return rowCount ?? 0;
  }

  /** Drops answered inbox rows, sent-message records, daily LLM usage and task completions older than `beforeMs`. */
  async pruneMessages(
    beforeMs: number,
  ): Promise<{ inbox: number; outbound: number; usage: number; completions: number }> {
    const before = new Date(beforeMs);
    const inbox = await this.db.query(
      "DELETE FROM inbox_messages WHERE status <> 'pending' AND received_at < $1",
      [before],
    );
    const outbound = await this.db.query("DELETE FROM outbound_messages WHERE created_at < $1", [before]);
    // A day ends at the latest 14 hours after UTC's; a day more is kept rather than cut early.
    const usage = await this.db.query("DELETE FROM llm_usage_daily WHERE day < ($1::timestamptz)::date - 1", [
      before,
    ]);
    // What got done, kept for the weekly review (a week back) and no longer than the rest.
    const completions = await this.db.query("DELETE FROM task_completions WHERE completed_at < $1", [before]);
    return {
      inbox: inbox.rowCount ?? 0,
      outbound: outbound.rowCount ?? 0,
      usage: usage.rowCount ?? 0,
      completions: completions.rowCount ?? 0,
    };
  }
}
