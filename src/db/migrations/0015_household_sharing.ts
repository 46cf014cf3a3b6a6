import type { Migration } from "./types.js";

/**
 * What a household shares (issue 23, docs/HOUSEHOLD.md), each row still owned by one person:
 * - lists.household_id: a list its owner shared with their household. Members see it while both
 *   they and its owner belong to that household; list_items.added_by_phone says who added an item.
 * - tasks.household_id / assigned_by_phone: a task or reminder one member gave another (owned by
 *   the one who holds it); assigner_told_*: the giver was told it is done, or still open an hour
 *   after it rang (each once).
 * - household_members.list_notices: a member's batched notice of others' changes to shared lists
 *   (off by default); household_list_changes gathers the changes until the notice goes.
 * - household_blocks gains the kind `reminders` ("stop reminders from Yossi").
 * - household_copy_offers: the shared lists a person lost by leaving (or someone leaving), kept a
 *   while so that "keep a copy" can make them their own.
 */
export const householdSharingMigration: Migration = {
  version: 15,
  name: "household_sharing",
  sql: `
    ALTER TABLE lists ADD COLUMN household_id uuid REFERENCES households (id) ON DELETE SET NULL;
    CREATE INDEX lists_household ON lists (household_id) WHERE household_id IS NOT NULL;
    ALTER TABLE list_items ADD COLUMN added_by_phone text;
    CREATE INDEX list_items_added_by ON list_items (added_by_phone) WHERE added_by_phone IS NOT NULL;

    ALTER TABLE tasks ADD COLUMN household_id uuid REFERENCES households (id) ON DELETE SET NULL;
    ALTER TABLE tasks ADD COLUMN assigned_by_phone text;
    ALTER TABLE tasks ADD COLUMN assigner_told_open_at timestamptz;
    ALTER TABLE tasks ADD COLUMN assigner_told_done_at timestamptz;
    CREATE INDEX tasks_household ON tasks (household_id) WHERE household_id IS NOT NULL;
    CREATE INDEX tasks_assigned_by ON tasks (assigned_by_phone) WHERE assigned_by_phone IS NOT NULL;
    CREATE INDEX tasks_assigned_untold ON tasks (assigned_by_phone)
      WHERE assigned_by_phone IS NOT NULL AND assigner_told_done_at IS NULL;

    ALTER TABLE household_members ADD COLUMN list_notices boolean NOT NULL DEFAULT false;
    CREATE TABLE household_list_changes (
      recipient_phone text NOT NULL,
      list_id         uuid NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
      actor_phone     text NOT NULL,
      items           integer NOT NULL CHECK (items > 0),
      first_at        timestamptz NOT NULL,
      PRIMARY KEY (recipient_phone, list_id, actor_phone)
    );
    CREATE INDEX household_list_changes_due ON household_list_changes (first_at);
    CREATE INDEX household_list_changes_actor ON household_list_changes (actor_phone);

    ALTER TABLE household_blocks DROP CONSTRAINT household_blocks_kind_check;
    ALTER TABLE household_blocks ADD CONSTRAINT household_blocks_kind_check
      CHECK (kind IN ('invitations', 'reminders'));

    CREATE TABLE household_copy_offers (
      phone      text PRIMARY KEY,
      -- [{ "name": "Shopping", "items": ["milk", …] }]
      lists      jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    );
  `,
};
