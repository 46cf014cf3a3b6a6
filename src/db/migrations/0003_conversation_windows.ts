import type { Migration } from "./types.js";

/**
 * The short-term conversation window of each user (recent messages, latest actions, the
 * disambiguation snapshot, recent tasks) as one JSON document, so every instance and every restart
 * sees the same recent conversation (D9). It is small: at most 10 messages.
 */
export const conversationWindowsMigration: Migration = {
  version: 3,
  name: "conversation_windows",
  sql: `
    CREATE TABLE conversation_windows (
      user_phone text PRIMARY KEY CHECK (user_phone ~ '^[1-9][0-9]{5,14}$'),
      state      jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `,
};
