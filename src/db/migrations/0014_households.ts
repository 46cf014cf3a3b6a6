import type { Migration } from "./types.js";

/**
 * Households (issue 23): people who chose to share with each other. Each person keeps their own
 * Memo; a household only says who shares with whom. One household per person.
 * - household_invitations: who asked whom, and the answer. Nothing is shared while it is pending.
 * - household_blocks: a person's "no more" to another person (invitations: a Decline or "stop").
 * - reminder_deliveries gains the kind `household`: an invitation and the notices of a household
 *   go through the scheduler's exactly-once ledger like every message Memo writes first.
 */
export const householdsMigration: Migration = {
  version: 14,
  name: "households",
  sql: `
    CREATE TABLE households (
      id          uuid PRIMARY KEY,
      created_at  timestamptz NOT NULL
    );
    CREATE TABLE household_members (
      household_id uuid NOT NULL REFERENCES households (id) ON DELETE CASCADE,
      phone        text NOT NULL UNIQUE,
      -- What the household calls them: the name they were invited by, else their WhatsApp name.
      name         text NOT NULL,
      joined_at    timestamptz NOT NULL,
      PRIMARY KEY (household_id, phone)
    );
    CREATE TABLE household_invitations (
      id            uuid PRIMARY KEY,
      household_id  uuid NOT NULL REFERENCES households (id) ON DELETE CASCADE,
      inviter_phone text NOT NULL,
      -- How the inviter named them ("Dana"), shown back to the inviter only.
      invitee_name  text NOT NULL,
      invitee_phone text NOT NULL,
      status        text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled')),
      created_at    timestamptz NOT NULL,
      answered_at   timestamptz
    );
    CREATE UNIQUE INDEX household_invitations_open
      ON household_invitations (household_id, invitee_phone) WHERE status = 'pending';
    CREATE INDEX household_invitations_inviter ON household_invitations (inviter_phone, created_at);
    CREATE INDEX household_invitations_invitee ON household_invitations (invitee_phone, created_at);
    CREATE TABLE household_blocks (
      phone         text NOT NULL,
      blocked_phone text NOT NULL,
      kind          text NOT NULL CHECK (kind IN ('invitations')),
      created_at    timestamptz NOT NULL,
      PRIMARY KEY (phone, blocked_phone, kind)
    );
    CREATE INDEX household_blocks_blocked ON household_blocks (blocked_phone);
    ALTER TABLE reminder_deliveries DROP CONSTRAINT reminder_deliveries_kind_check;
    ALTER TABLE reminder_deliveries ADD CONSTRAINT reminder_deliveries_kind_check
      CHECK (kind IN ('reminder', 'nudge', 'recurring', 'overdue', 'away', 'digest', 'household'));
  `,
};
