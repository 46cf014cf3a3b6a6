import type { Migration } from "./types.js";

/**
 * Episodic memory (spec 004 Layer 4): the moments of a conversation worth telling again ("we
 * decided to go to Eilat for the trip", "finally fixed the leak"), each with when it happened.
 *
 * - `kind`: decision, problem_solved, breakthrough, issue_identified, task_completed, pivot.
 * - `turn_start` / `turn_end`: the `conversation_messages` ids the episode came from (no foreign
 *   key: "forget" deletes the episodes of the messages it deletes, by range, in the same
 *   transaction; NULL when it came from no message, e.g. a task done from a reminder's button).
 * - `occurred_at`: when it happened (the message's time), which recall cites.
 * - `search_text`: title, summary, context and outcome normalized in code (`noteSearchText`), as
 *   `memories` has, so the `simple` text search understands Hebrew prefixes.
 * - `created_by_operation`: unique per user, so a background round run twice stores nothing twice.
 */
export const memoryEpisodesMigration: Migration = {
  version: 20,
  name: "memory_episodes",
  sql: `
    CREATE TABLE memory_episodes (
      id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_phone           text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      kind                 text NOT NULL CHECK (kind IN ('decision', 'problem_solved', 'breakthrough',
                                                         'issue_identified', 'task_completed', 'pivot')),
      title                text NOT NULL CHECK (length(title) BETWEEN 1 AND 300),
      summary              text NOT NULL DEFAULT '' CHECK (length(summary) <= 1000),
      context              text NOT NULL DEFAULT '' CHECK (length(context) <= 1000),
      outcome              text CHECK (length(outcome) <= 1000),
      participants         text[] NOT NULL DEFAULT '{}',
      emotional_valence    real NOT NULL DEFAULT 0 CHECK (emotional_valence BETWEEN -1 AND 1),
      significance         real NOT NULL DEFAULT 0.5 CHECK (significance BETWEEN 0 AND 1),
      linked_memories      text[] NOT NULL DEFAULT '{}',
      turn_start           bigint,
      turn_end             bigint,
      occurred_at          timestamptz NOT NULL,
      access_count         integer NOT NULL DEFAULT 0,
      last_accessed_at     timestamptz NOT NULL DEFAULT now(),
      search_text          text NOT NULL,
      search               tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
      created_by_operation text,
      created_at           timestamptz NOT NULL DEFAULT now(),
      updated_at           timestamptz NOT NULL DEFAULT now(),
      CHECK (turn_start IS NULL OR turn_end IS NULL OR turn_start <= turn_end),
      UNIQUE (user_phone, created_by_operation)
    );
    CREATE INDEX memory_episodes_owner ON memory_episodes (user_phone, occurred_at);
    CREATE INDEX memory_episodes_search ON memory_episodes USING gin (search);
  `,
};
