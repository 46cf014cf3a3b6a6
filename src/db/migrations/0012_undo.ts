import type { Migration } from "./types.js";

/**
 * The undo journal: one row per change a user can take back ("undo" / "בטל"). `images` holds, for
 * every row the change touched, the table, its id and the row as it was before (null: the change
 * created it) and after (null: the change deleted it); undo puts the "before" rows back with their
 * ids. `external` holds what a provider outside the database needs to put back (a Google Calendar
 * event). A row is taken back once (`undone_at`, set by a conditional update) and is dropped a window
 * past `expires_at` (by the scheduler's due pass, and on the user's next change or undo); it holds the user's words like the rows it copies, and goes with the user.
 */
export const undoMigration: Migration = {
  version: 12,
  name: "undo",
  sql: `
    CREATE TABLE undo_journal (
      id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq               bigint GENERATED ALWAYS AS IDENTITY,
      user_phone        text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      operation_id      text NOT NULL,
      -- The turn that made the change (its inbound message id): one "undo" takes back a whole turn,
      -- and a reply quoting Memo's answer to that turn (outbound_messages.in_reply_to) names it.
      turn_id           text NOT NULL,
      -- What the reply names: {"kind": "task", "text": "Buy milk"} and the like.
      description       jsonb NOT NULL,
      images            jsonb NOT NULL DEFAULT '[]'::jsonb,
      external          jsonb,
      created_at        timestamptz NOT NULL,
      expires_at        timestamptz NOT NULL,
      undone_at         timestamptz,
      -- The turn that took it back: a re-run of that turn reports the same undo, not the next one.
      undone_by         text,
      -- The restore failed (a row it needed was gone): spent; a further undo says nothing is left.
      restore_failed    boolean NOT NULL DEFAULT false,
      -- The provider outside the database (Google Calendar) was asked to put back its part; until
      -- then a re-run of the undo turn (a crash after the commit) asks again.
      external_done     boolean NOT NULL DEFAULT false,
      UNIQUE (user_phone, operation_id)
    );
    CREATE INDEX undo_journal_owner ON undo_journal (user_phone, seq DESC);
    CREATE INDEX undo_journal_turn ON undo_journal (user_phone, turn_id);
  `,
};
