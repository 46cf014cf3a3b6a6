import type { Migration } from "./types.js";

/**
 * Long-term memory and the second brain (spec 000 §2.2, §2.6; 004 layers 2–3).
 *
 * - `conversation_messages`: every message of every conversation, kept past the 10-message window
 *   (which stays in `conversation_windows`). A redelivered WhatsApp message is stored once.
 * - `memory_profiles`: per user, the rolling summary of what has left the window and the cursors
 *   of the background work (the last message folded into the summary, the last one facts were
 *   extracted from). Background work advances a cursor only from the value it read, so two
 *   instances never fold the same messages twice.
 * - `memories`: facts, preferences, decisions, goals, constraints and entities (004 Layer 3), with
 *   importance, access count, decay and the message they came from.
 * - `notes`: what the user asked Memo to keep. `search_text` is the content, category and tags
 *   normalized in code (Hebrew niqqud, final letters and one-letter prefixes), so the `simple`
 *   text-search configuration and trigrams work for Hebrew. The embedding is `vector(1536)` where
 *   the server has pgvector (the embedded database, Supabase), `real[]` elsewhere; it is empty
 *   until the background job computes it, and `embedding_model` says which model made it.
 *
 * A note or memory made by an operation carries the operation's id, unique per owner, so a turn
 * re-run after a crash stores nothing twice. Everything cascades with the user.
 */
export const memoryMigration: Migration = {
  version: 10,
  name: "memory",
  sql: `
    CREATE TABLE conversation_messages (
      id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_phone          text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      role                text NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
      content             text NOT NULL,
      whatsapp_message_id text,
      created_at          timestamptz NOT NULL,
      UNIQUE (user_phone, role, whatsapp_message_id)
    );
    CREATE INDEX conversation_messages_owner ON conversation_messages (user_phone, id);

    CREATE TABLE memory_profiles (
      user_phone      text PRIMARY KEY REFERENCES users (phone) ON DELETE CASCADE,
      summary         text NOT NULL DEFAULT '',
      -- conversation_messages.id of the newest message folded into the summary (0: none).
      summary_through bigint NOT NULL DEFAULT 0,
      -- conversation_messages.id of the newest message facts were extracted from (0: none).
      facts_through   bigint NOT NULL DEFAULT 0,
      updated_at      timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE memories (
      id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_phone           text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      type                 text NOT NULL
                           CHECK (type IN ('fact', 'preference', 'decision', 'goal', 'constraint', 'entity')),
      content              text NOT NULL CHECK (length(content) BETWEEN 1 AND 1000),
      search_text          text NOT NULL,
      search               tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
      importance           real NOT NULL CHECK (importance BETWEEN 0 AND 1),
      access_count         integer NOT NULL DEFAULT 0,
      last_accessed_at     timestamptz NOT NULL DEFAULT now(),
      -- 004 calculateDecay: 0.5^(days since access / 30) + min(0.1 × accesses, 0.5), at most 1.
      decay_factor         real NOT NULL DEFAULT 1,
      status               text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
      source_message_id    bigint REFERENCES conversation_messages (id) ON DELETE SET NULL,
      created_by_operation text,
      created_at           timestamptz NOT NULL DEFAULT now(),
      updated_at           timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_phone, created_by_operation)
    );
    CREATE INDEX memories_owner ON memories (user_phone, status);
    CREATE INDEX memories_search ON memories USING gin (search);
    -- Deleting a message sets this to NULL: without an index every deleted message scans the table.
    CREATE INDEX memories_source_message ON memories (source_message_id);

    CREATE TABLE notes (
      id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq                  bigint GENERATED ALWAYS AS IDENTITY,
      user_phone           text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      content              text NOT NULL CHECK (length(content) BETWEEN 1 AND 4000),
      category             text CHECK (length(category) <= 100),
      tags                 text[] NOT NULL DEFAULT '{}',
      search_text          text NOT NULL,
      search               tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
      importance           real NOT NULL DEFAULT 0.5 CHECK (importance BETWEEN 0 AND 1),
      -- The message the note came from; forgetting a fact removes the notes of its message.
      source_message_id    bigint REFERENCES conversation_messages (id) ON DELETE SET NULL,
      embedding_model      text,
      created_by_operation text,
      created_at           timestamptz NOT NULL DEFAULT now(),
      updated_at           timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_phone, created_by_operation)
    );
    CREATE INDEX notes_owner ON notes (user_phone, created_at);
    CREATE INDEX notes_search ON notes USING gin (search);
    -- For ON DELETE SET NULL and for "forget", which deletes the notes of a message.
    CREATE INDEX notes_source_message ON notes (source_message_id);

    DO $$
    BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
        EXECUTE 'ALTER TABLE notes ADD COLUMN embedding vector(1536)';
        -- Nearest-note search without scanning every vector (NoteRepository.approximateNearest).
        EXECUTE 'CREATE INDEX notes_embedding_hnsw ON notes USING hnsw (embedding vector_cosine_ops)';
      ELSE
        EXECUTE 'ALTER TABLE notes ADD COLUMN embedding real[]';
      END IF;
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        EXECUTE 'CREATE INDEX notes_trigram ON notes USING gin (search_text gin_trgm_ops)';
        EXECUTE 'CREATE INDEX memories_trigram ON memories USING gin (search_text gin_trgm_ops)';
      END IF;
    END
    $$;
    -- Cosine similarity for real[] embeddings, where the server has no pgvector.
    CREATE FUNCTION memo_cosine_similarity(a real[], b real[]) RETURNS double precision
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        SELECT CASE WHEN sum(x * x) = 0 OR sum(y * y) = 0 THEN 0
                    ELSE sum(x * y) / sqrt(sum(x * x) * sum(y * y)) END
        FROM unnest(a, b) AS t (x, y)
      $fn$;
    -- Notes still waiting for an embedding, for the background job.
    CREATE INDEX notes_unembedded ON notes (id) WHERE embedding IS NULL;
  `,
};
