import type { Queryable } from "../transaction.js";

/** One user's rolling summary and the cursors of the background memory work (`memory_profiles`). */
export interface MemoryProfile {
  /** What has left the short-term window, summarized ("" when nothing yet). */
  summary: string;
  /** The newest conversation message folded into the summary (0: none). */
  summaryThrough: number;
  /** The newest conversation message facts were extracted from (0: none). */
  factsThrough: number;
  /** The user's IANA time zone (from `users`), for the dates a summary names. */
  timeZone: string;
}

/** The summary and cursor a writer read, which must still be there for its write to land. */
export interface SummaryVersion {
  summary: string;
  summaryThrough: number;
}

/**
 * Storage of memory profiles. Writers advance a cursor only from the value they read (optimistic
 * concurrency), so two instances never fold the same messages twice and a summary rewritten by
 * "forget" is never overwritten by a fold computed before it.
 */
export interface MemoryProfileRepository {
  /** The user's profile, created empty on first use. */
  ensure(phone: string): Promise<MemoryProfile>;
  /** The user's summary, or "" without a profile (one indexed read, for context assembly). */
  summary(phone: string): Promise<string>;
  /**
   * Replaces the summary and its cursor when they are still `expected` and every message of
   * `foldedIds` is still stored (none was forgotten meanwhile). Returns whether it was written.
   */
  saveSummary(
    phone: string,
    next: SummaryVersion,
    expected: SummaryVersion,
    foldedIds: readonly number[],
    now: number,
  ): Promise<boolean>;
  /** Moves the facts cursor from `expected` to `through`; false when another writer moved it first. */
  advanceFacts(phone: string, expected: number, through: number, now: number): Promise<boolean>;
  /** Deletes the user's profile; returns how many rows (0 or 1). */
  delete(phone: string): Promise<number>;
  /**
   * Users with background memory work waiting, at most `limit`: user messages facts were not yet
   * extracted from, or at least `windowSize + foldMin` messages past the summary's cursor.
   */
  pendingUsers(windowSize: number, foldMin: number, limit: number): Promise<string[]>;
}

interface ProfileRow {
  summary: string;
  summary_through: string;
  facts_through: string;
  time_zone: string;
}

/** MemoryProfileRepository in plain SQL, on the pool or on a transaction's client. */
export class PgMemoryProfileRepository implements MemoryProfileRepository {
  constructor(private readonly db: Queryable) {}

  async ensure(phone: string): Promise<MemoryProfile> {
    await this.db.query("INSERT INTO memory_profiles (user_phone) VALUES ($1) ON CONFLICT DO NOTHING", [
      phone,
    ]);
    const { rows } = await this.db.query<ProfileRow>(
      `SELECT p.summary, p.summary_through, p.facts_through, u.time_zone
         FROM memory_profiles p JOIN users u ON u.phone = p.user_phone
        WHERE p.user_phone = $1`,
      [phone],
    );
    const row = rows[0];
    // Only a concurrent "forget everything" between the two statements leaves no row.
    if (!row) return { summary: "", summaryThrough: 0, factsThrough: 0, timeZone: "UTC" };
    return {
      summary: row.summary,
      summaryThrough: Number(row.summary_through),
      factsThrough: Number(row.facts_through),
      timeZone: row.time_zone,
    };
  }

  async summary(phone: string): Promise<string> {
    const { rows } = await this.db.query<{ summary: string }>(
      "SELECT summary FROM memory_profiles WHERE user_phone = $1",
      [phone],
    );
    return rows[0]?.summary ?? "";
  }

  async saveSummary(
    phone: string,
    next: SummaryVersion,
    expected: SummaryVersion,
    foldedIds: readonly number[],
    now: number,
  ): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE memory_profiles SET summary = $2, summary_through = $3, updated_at = $6
        WHERE user_phone = $1 AND summary_through = $4 AND summary = $5
          AND (SELECT count(*) FROM conversation_messages
                WHERE user_phone = $1 AND id = ANY($7::bigint[])) = cardinality($7::bigint[])`,
      [
        phone,
        next.summary.replaceAll("\u0000", ""),
        next.summaryThrough,
        expected.summaryThrough,
        expected.summary,
        new Date(now),
        foldedIds,
      ],
    );
    return result.rowCount === 1;
  }

  async advanceFacts(phone: string, expected: number, through: number, now: number): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE memory_profiles SET facts_through = $3, updated_at = $4
        WHERE user_phone = $1 AND facts_through = $2`,
      [phone, expected, through, new Date(now)],
    );
    return result.rowCount === 1;
  }

  async delete(phone: string): Promise<number> {
    const result = await this.db.query("DELETE FROM memory_profiles WHERE user_phone = $1", [phone]);
    return result.rowCount ?? 0;
  }

  async pendingUsers(windowSize: number, foldMin: number, limit: number): Promise<string[]> {
    // Per user, two short probes on the (user_phone, id) index; the count is capped by its LIMIT.
    const { rows } = await this.db.query<{ phone: string }>(
      `SELECT u.phone
         FROM users u LEFT JOIN memory_profiles p ON p.user_phone = u.phone
        WHERE EXISTS (SELECT 1 FROM conversation_messages m
                       WHERE m.user_phone = u.phone AND m.role = 'user'
                         AND m.id > COALESCE(p.facts_through, 0))
           OR (SELECT count(*) FROM (SELECT 1 FROM conversation_messages m
                                      WHERE m.user_phone = u.phone AND m.id > COALESCE(p.summary_through, 0)
                                      LIMIT $1) AS waiting) >= $1
        ORDER BY u.phone
        LIMIT $2`,
      [windowSize + foldMin, limit],
    );
    return rows.map((r) => r.phone);
  }
}
