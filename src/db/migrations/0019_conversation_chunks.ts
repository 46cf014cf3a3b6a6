import type { Migration } from "./types.js";

/**
 * Conversation chunks (spec 004 Layer 2 "Chunking"): what has left the short-term window, ten
 * messages at a time, each summarized with its key topics. They replace the rolling summary of
 * `memory_profiles`.
 *
 * - A chunk names the range of `conversation_messages` it holds (`first_message_id` ..
 *   `last_message_id`, the times of its first and last message); the messages themselves stay in
 *   `conversation_messages` (spec 004 keeps them inside the chunk).
 * - `chunk_number` grows per user; `UNIQUE (user_phone, chunk_number)` means two instances that
 *   made the same chunk store it once. Merging the two oldest keeps the older number and sums
 *   `merged_from` (how many original chunks a row holds).
 * - `search_text` is the summary and topics normalized in code (`noteSearchText`), as for memories
 *   and notes, so chunks are found by their words.
 *
 * An existing rolling summary becomes chunk 0 ("Earlier: …", through `summary_through`) here,
 * so nothing is lost; its `search_text` is the summary in lower case until it is next rewritten
 * (normalization lives in code). The profile's summary is then emptied: `summary_through` stays the
 * cursor of what has been chunked.
 */
export const conversationChunksMigration: Migration = {
  version: 19,
  name: "conversation_chunks",
  sql: `
    CREATE TABLE conversation_chunks (
      id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_phone       text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      chunk_number     integer NOT NULL CHECK (chunk_number >= 0),
      -- conversation_messages ids (no foreign key: "forget" deletes single messages of a chunk).
      first_message_id bigint NOT NULL,
      last_message_id  bigint NOT NULL CHECK (last_message_id >= first_message_id),
      message_count    integer NOT NULL CHECK (message_count >= 0),
      summary          text NOT NULL,
      key_topics       text[] NOT NULL DEFAULT '{}',
      token_count      integer NOT NULL CHECK (token_count >= 0),
      started_at       timestamptz NOT NULL,
      ended_at         timestamptz NOT NULL,
      merged_from      integer NOT NULL DEFAULT 1 CHECK (merged_from >= 1),
      search_text      text NOT NULL,
      search           tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
      created_at       timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_phone, chunk_number)
    );
    CREATE INDEX conversation_chunks_search ON conversation_chunks USING gin (search);

    INSERT INTO conversation_chunks (user_phone, chunk_number, first_message_id, last_message_id,
                                     message_count, summary, token_count, started_at, ended_at,
                                     search_text)
    SELECT p.user_phone, 0, COALESCE(r.first_id, p.summary_through), p.summary_through,
           COALESCE(r.n, 0), 'Earlier: ' || p.summary, ceil((length(p.summary) + 9) / 3.5)::int,
           COALESCE(r.started, p.updated_at), COALESCE(r.ended, p.updated_at),
           lower('Earlier: ' || p.summary)
      FROM memory_profiles p
      LEFT JOIN LATERAL (SELECT min(m.id) AS first_id, count(*)::int AS n,
                                min(m.created_at) AS started, max(m.created_at) AS ended
                           FROM conversation_messages m
                          WHERE m.user_phone = p.user_phone AND m.id <= p.summary_through) r ON true
     WHERE p.summary <> '';
    UPDATE memory_profiles SET summary = '' WHERE summary <> '';
  `,
};
