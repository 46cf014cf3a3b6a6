import type { Migration } from "./types.js";

/**
 * pg_trgm (fuzzy matching) and pgvector (note embeddings) where the server offers them.
 * The embedded database always does; a Postgres server without them still starts, and the
 * features that need them check `hasExtension` and fall back.
 */
export const extensionsMigration: Migration = {
  version: 2,
  name: "extensions",
  sql: `
    DO $$
    BEGIN
      IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
      END IF;
      IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
        CREATE EXTENSION IF NOT EXISTS vector;
      END IF;
    END
    $$;
  `,
};
