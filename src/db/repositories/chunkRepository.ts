import { noteSearchText, toTsQuery } from "../../utils/searchText.js";
import type { Queryable } from "../transaction.js";

/** A range of the conversation that has left the window, summarized (`conversation_chunks`, spec 004 Layer 2). */
export interface ConversationChunk {
  id: string;
  /** Grows per user from 0; a merged chunk keeps the older number. */
  chunkNumber: number;
  /** The `conversation_messages` range it covers (its messages stay there). */
  firstMessageId: number;
  lastMessageId: number;
  messageCount: number;
  summary: string;
  /** Deduplicated keywords, most telling first. */
  keyTopics: string[];
  /** Estimated tokens of the summary. */
  tokenCount: number;
  /** When its first and last message were sent (epoch ms). */
  startedAt: number;
  endedAt: number;
  /** How many original chunks it holds (1 until merged). */
  mergedFrom: number;
}

/** A chunk to store: its number is the user's next one, given in SQL. */
export type NewChunk = Omit<ConversationChunk, "id" | "chunkNumber" | "mergedFrom">;

/** A chunk as the planner reads it (see `relevantChunks`). */
export interface ChunkSummary {
  summary: string;
  startedAt: number;
  endedAt: number;
  /** The user's IANA time zone, for the dates shown with it. */
  timeZone: string;
}

interface ChunkRow {
  id: string;
  chunk_number: number;
  first_message_id: string;
  last_message_id: string;
  message_count: number;
  summary: string;
  key_topics: string[];
  token_count: number;
  started_at: Date;
  ended_at: Date;
  merged_from: number;
}

const COLUMNS = `id, chunk_number, first_message_id, last_message_id, message_count, summary, key_topics,
  token_count, started_at, ended_at, merged_from`;

function toChunk(row: ChunkRow): ConversationChunk {
  return {
    id: row.id,
    chunkNumber: row.chunk_number,
    firstMessageId: Number(row.first_message_id),
    lastMessageId: Number(row.last_message_id),
    messageCount: row.message_count,
    summary: row.summary,
    keyTopics: row.key_topics,
    tokenCount: row.token_count,
    startedAt: new Date(row.started_at).getTime(),
    endedAt: new Date(row.ended_at).getTime(),
    mergedFrom: row.merged_from,
  };
}

const clean = (text: string) => text.replaceAll("\u0000", "");

/** A fragment a larger statement embeds (`WITH chunks AS (sql)`), its parameters and how to read its rows. */
export interface RelevantChunksQuery {
  sql: string;
  params: unknown[];
  read: (rows: unknown[]) => ChunkSummary[];
}

/**
 * The user's newest `limit` chunk summaries, newest first, with the user's time zone: a fragment
 * whose phone is `$1` and whose own parameters start at `$first` (for `ConversationStore.loadTurn`).
 */
export function relevantChunks(limit: number, first: number): RelevantChunksQuery {
  return {
    sql: `SELECT c.chunk_number, c.summary, floor(extract(epoch FROM c.started_at) * 1000) AS started_at,
                 floor(extract(epoch FROM c.ended_at) * 1000) AS ended_at, u.time_zone
            FROM conversation_chunks c JOIN users u ON u.phone = c.user_phone
           WHERE c.user_phone = $1
           ORDER BY c.chunk_number DESC LIMIT $${first}`,
    params: [limit],
    read: (rows) =>
      (
        rows as {
          summary: string;
          started_at: number | string;
          ended_at: number | string;
          time_zone: string;
        }[]
      ).map((r) => ({
        summary: r.summary,
        startedAt: Number(r.started_at),
        endedAt: Number(r.ended_at),
        timeZone: r.time_zone,
      })),
  };
}

/**
 * Storage of conversation chunks. A chunk is only created together with the move of the chunking
 * cursor (`memory_profiles.summary_through`, compared with the value read), so two instances never
 * make the same chunk; `UNIQUE (user_phone, chunk_number)` refuses a second one should they try.
 * Merges and rewrites compare the summaries they read.
 */
export class PgChunkRepository {
  constructor(private readonly db: Queryable) {}

  /** Stores the chunk as the user's next (highest number + 1, from 0). */
  async create(phone: string, chunk: NewChunk): Promise<ConversationChunk> {
    const { rows } = await this.db.query<ChunkRow>(
      `INSERT INTO conversation_chunks (user_phone, chunk_number, first_message_id, last_message_id,
         message_count, summary, key_topics, token_count, started_at, ended_at, search_text)
       SELECT $1, COALESCE(max(chunk_number) + 1, 0), $2, $3, $4, $5, $6, $7, $8, $9, $10
         FROM conversation_chunks WHERE user_phone = $1
       RETURNING ${COLUMNS}`,
      [
        phone,
        chunk.firstMessageId,
        chunk.lastMessageId,
        chunk.messageCount,
        clean(chunk.summary),
        chunk.keyTopics.map(clean),
        chunk.tokenCount,
        new Date(chunk.startedAt),
        new Date(chunk.endedAt),
        noteSearchText(clean(chunk.summary), null, chunk.keyTopics.map(clean)),
      ],
    );
    return toChunk(rows[0]!);
  }

  /** The user's newest `limit` chunk summaries, newest first (context assembly without `loadTurn`). */
  async newest(phone: string, limit: number): Promise<ChunkSummary[]> {
    const query = relevantChunks(limit, 2);
    const { rows } = await this.db.query(query.sql, [phone, ...query.params]);
    return query.read(rows);
  }

  /** The user's chunks, newest first, at most `limit` (default: all). */
  async list(phone: string, limit: number | null = null): Promise<ConversationChunk[]> {
    const { rows } = await this.db.query<ChunkRow>(
      `SELECT ${COLUMNS} FROM conversation_chunks WHERE user_phone = $1 ORDER BY chunk_number DESC LIMIT $2`,
      [phone, limit],
    );
    return rows.map(toChunk);
  }

  /**
   * The user's chunks a question may be answered from, newest first, at most `limit`: those whose
   * summary or topics hold one of the lexemes (`toTsQuery` of them), within `during` when given
   * (all of that period's when there are no lexemes).
   */
  async find(
    phone: string,
    lexemes: readonly string[],
    during: { from: number; to: number } | null,
    limit = 30,
  ): Promise<ConversationChunk[]> {
    const { rows } = await this.db.query<ChunkRow>(
      `SELECT ${COLUMNS} FROM conversation_chunks
        WHERE user_phone = $1
          AND ($2::text IS NULL OR search @@ to_tsquery('simple', $2))
          AND ($3::timestamptz IS NULL OR (started_at < $4 AND ended_at >= $3))
          AND ($2::text IS NOT NULL OR $3::timestamptz IS NOT NULL)
        ORDER BY chunk_number DESC LIMIT $5`,
      [
        phone,
        toTsQuery(lexemes),
        during ? new Date(during.from) : null,
        during ? new Date(during.to) : null,
        limit,
      ],
    );
    return rows.map(toChunk);
  }

  /** The user's two oldest chunks and how many they have, in one read (for merging). */
  async oldest(phone: string): Promise<{ count: number; oldest: ConversationChunk[] }> {
    const { rows } = await this.db.query<ChunkRow & { total: number }>(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM conversation_chunks
        WHERE user_phone = $1 ORDER BY chunk_number LIMIT 2`,
      [phone],
    );
    return { count: rows[0]?.total ?? 0, oldest: rows.map(toChunk) };
  }

  /** How many chunks the user has. */
  async count(phone: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM conversation_chunks WHERE user_phone = $1",
      [phone],
    );
    return rows[0]!.n;
  }

  /**
   * Merges `newer` into `older` (the user's two oldest, as read): `older` takes the merged summary
   * and topics, the widened range and both counts; `newer` is deleted. One statement; false (and
   * nothing changed) when either summary is no longer the one read.
   */
  async merge(
    phone: string,
    older: ConversationChunk,
    newer: ConversationChunk,
    merged: { summary: string; keyTopics: string[]; tokenCount: number },
  ): Promise<boolean> {
    // Under a concurrent merge the second UPDATE waits for the row, sees its new summary and
    // matches nothing: then nothing is deleted either.
    const result = await this.db.query(
      `WITH kept AS (
         UPDATE conversation_chunks o
            SET summary = $4, key_topics = $5, token_count = $6, search_text = $7,
                first_message_id = LEAST(o.first_message_id, n.first_message_id),
                last_message_id = GREATEST(o.last_message_id, n.last_message_id),
                message_count = o.message_count + n.message_count,
                started_at = LEAST(o.started_at, n.started_at), ended_at = GREATEST(o.ended_at, n.ended_at),
                merged_from = o.merged_from + n.merged_from
           FROM conversation_chunks n
          WHERE o.user_phone = $1 AND o.id = $2 AND o.summary = $8
            AND n.user_phone = $1 AND n.id = $3 AND n.summary = $9
         RETURNING o.id)
       DELETE FROM conversation_chunks WHERE user_phone = $1 AND id = $3 AND EXISTS (SELECT 1 FROM kept)`,
      [
        phone,
        older.id,
        newer.id,
        clean(merged.summary),
        merged.keyTopics.map(clean),
        merged.tokenCount,
        noteSearchText(clean(merged.summary), null, merged.keyTopics.map(clean)),
        older.summary,
        newer.summary,
      ],
    );
    return result.rowCount === 1;
  }

  /** Replaces one chunk's summary when it is still `expected` ("forget"); whether it was written. */
  async rewrite(
    phone: string,
    chunk: ConversationChunk,
    summary: string,
    keyTopics: readonly string[],
    tokenCount: number,
  ): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE conversation_chunks SET summary = $3, key_topics = $4, token_count = $5, search_text = $6
        WHERE user_phone = $1 AND id = $2 AND summary = $7`,
      [
        phone,
        chunk.id,
        clean(summary),
        keyTopics.map(clean),
        tokenCount,
        noteSearchText(clean(summary), null, keyTopics.map(clean)),
        chunk.summary,
      ],
    );
    return result.rowCount === 1;
  }

  /** Deletes all the user's chunks; returns how many. */
  async deleteAll(phone: string): Promise<number> {
    const result = await this.db.query("DELETE FROM conversation_chunks WHERE user_phone = $1", [phone]);
    return result.rowCount ?? 0;
  }
}
