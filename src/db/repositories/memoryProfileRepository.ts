import { prepared } from "../prepared.js";
import type { Queryable } from "../transaction.js";
import type { HistoryMessage } from "./conversationHistory.js";

/** The cursors of one user's background memory work (`memory_profiles`). */
export interface MemoryProfile {
  /**
   * The old rolling summary: "" since migration 19 made it chunk 0 (conversation chunks replaced it);
   * still compared by `saveSummary`, so a write never lands on a profile it did not read.
   */
  summary: string;
  /** The newest conversation message put into a chunk (0: none): the chunking cursor. */
  summaryThrough: number;
  /** The newest conversation message facts were extracted from (0: none). */
  factsThrough: number;
  /** The user's IANA time zone (from `users`), for the dates a summary names. */
  timeZone: string;
}

/** What one round of background memory work starts from, read at once. */
export interface MemoryWorkload {
  /** The profile (empty, with the user's time zone, when there is none yet). */
  profile: MemoryProfile;
  /** Whether the profile row exists (a write that needs it creates it first). */
  exists: boolean;
  /** Messages past the summary's cursor that have left the window, oldest first. */
  outsideWindow: HistoryMessage[];
  /** User messages past the facts cursor, oldest first. */
  freshUserMessages: HistoryMessage[];
  /** The user's active facts that hold now, newest first (what the extraction model is shown). */
  known: { id: string; content: string }[];
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
interface MemoryProfileRepository {
  /** The user's profile, created empty on first use. */
  ensure(phone: string): Promise<MemoryProfile>;
  /**
   * In one statement: the profile, the messages that have left a window of the newest
   * `windowSize` past the summary's cursor (at most `foldLimit`), and the user messages past the
   * facts cursor (at most `factLimit`).
   */
  workload(
    phone: string,
    windowSize: number,
    foldLimit: number,
    factLimit: number,
    /** The user's facts that hold now read at most, newest first (default: none). */
    knownLimit?: number,
  ): Promise<MemoryWorkload>;
  /** Creates the user's empty profile; a no-op when it exists. */
  create(phone: string): Promise<void>;
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
  /**
   * Moves the facts cursor from `expected` to `through`; false when another writer moved it first.
   * With `create`, a missing profile is created with the cursor at `through` (its cursor read as 0).
   */
  advanceFacts(
    phone: string,
    expected: number,
    through: number,
    now: number,
    create?: boolean,
  ): Promise<boolean>;
  /** Deletes the user's profile; returns how many rows (0 or 1). */
  delete(phone: string): Promise<number>;
  /**
   * Users with background memory work waiting, at most `limit`: user messages facts were not yet
   * extracted from, or at least `windowSize + foldMin` messages past the summary's cursor.
   */
  pendingUsers(windowSize: number, foldMin: number, limit: number): Promise<string[]>;
}

/** A message as `jsonb_build_object` hands it over (see `MESSAGE_JSON`). */
interface MessageJson {
  id: number | string;
  role: HistoryMessage["role"];
  content: string;
  whatsappMessageId: string | null;
  createdAt: number | string;
}

const MESSAGE_JSON = `jsonb_build_object('id', id, 'role', role, 'content', content,
  'whatsappMessageId', whatsapp_message_id,
  'createdAt', floor(extract(epoch FROM created_at) * 1000))`;

function fromJson(m: MessageJson): HistoryMessage {
  return {
    id: Number(m.id),
    role: m.role,
    content: m.content,
    whatsappMessageId: m.whatsappMessageId,
    createdAt: Number(m.createdAt),
  };
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

  async workload(
    phone: string,
    windowSize: number,
    foldLimit: number,
    factLimit: number,
    knownLimit = 0,
  ): Promise<MemoryWorkload> {
    // The fold's upper bound is the newest message outside the window (the (windowSize + 1)-th
    // newest); with no more than windowSize messages it is NULL and nothing has left the window.
    const { rows } = await this.db.query<
      ProfileRow & {
        has_profile: boolean;
        outside: MessageJson[];
        fresh: MessageJson[];
        known: { id: string; content: string }[];
      }
    >(
      prepared(
        `WITH p AS (
         SELECT COALESCE(mp.summary, '') AS summary, COALESCE(mp.summary_through, 0) AS summary_through,
                COALESCE(mp.facts_through, 0) AS facts_through, COALESCE(u.time_zone, 'UTC') AS time_zone,
                mp.user_phone IS NOT NULL AS has_profile
           FROM (SELECT 1) AS one
           LEFT JOIN users u ON u.phone = $1
           LEFT JOIN memory_profiles mp ON mp.user_phone = $1)
       SELECT p.*,
              (SELECT COALESCE(jsonb_agg(o.m ORDER BY o.id), '[]'::jsonb)
                 FROM (SELECT id, ${MESSAGE_JSON} AS m FROM conversation_messages
                        WHERE user_phone = $1 AND id > p.summary_through
                          AND id <= (SELECT id FROM conversation_messages WHERE user_phone = $1
                                      ORDER BY id DESC OFFSET $2 LIMIT 1)
                        ORDER BY id LIMIT $3) AS o) AS outside,
              (SELECT COALESCE(jsonb_agg(f.m ORDER BY f.id), '[]'::jsonb)
                 FROM (SELECT id, ${MESSAGE_JSON} AS m FROM conversation_messages
                        WHERE user_phone = $1 AND role = 'user' AND id > p.facts_through
                        ORDER BY id LIMIT $4) AS f) AS fresh,
              (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', k.id, 'content', k.content) ORDER BY k.n), '[]'::jsonb)
                 FROM (SELECT id, content, row_number() OVER (ORDER BY created_at DESC, id) AS n FROM memories
                        WHERE user_phone = $1 AND status = 'active' AND valid_until IS NULL
                        ORDER BY created_at DESC, id LIMIT $5) AS k) AS known
         FROM p`,
        [phone, windowSize, foldLimit, factLimit, knownLimit],
      ),
    );
    const row = rows[0]!;
    return {
      profile: {
        summary: row.summary,
        summaryThrough: Number(row.summary_through),
        factsThrough: Number(row.facts_through),
        timeZone: row.time_zone,
      },
      exists: row.has_profile,
      outsideWindow: row.outside.map(fromJson),
      freshUserMessages: row.fresh.map(fromJson),
      known: row.known,
    };
  }

  async create(phone: string): Promise<void> {
    await this.db.query("INSERT INTO memory_profiles (user_phone) VALUES ($1) ON CONFLICT DO NOTHING", [
      phone,
    ]);
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

  async advanceFacts(
    phone: string,
    expected: number,
    through: number,
    now: number,
    create = false,
  ): Promise<boolean> {
    const result = await this.db.query(
      prepared(
        create
          ? `INSERT INTO memory_profiles AS p (user_phone, facts_through, updated_at) VALUES ($1, $3, $4)
           ON CONFLICT (user_phone) DO UPDATE SET facts_through = EXCLUDED.facts_through, updated_at = EXCLUDED.updated_at
            WHERE p.facts_through = $2`
          : `UPDATE memory_profiles SET facts_through = $3, updated_at = $4
            WHERE user_phone = $1 AND facts_through = $2`,
        [phone, expected, through, new Date(now)],
      ),
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
