import type { Migration } from "./types.js";

/**
 * Households keep consent and limits (issue 31, docs/HOUSEHOLD.md):
 * - household_invitations.delivered: the invitation was sent to the invitee (not held back because
 *   they refused the inviter, or because the number had its invitations for the day). Only a
 *   delivered invitation can be answered. Rows from before are delivered when the ledger sent them.
 * - household_invitation_log: every invitation sent and every task or reminder given to another
 *   member, by number, for the daily limits. It belongs to no household, so leaving or ending one
 *   resets nothing; rows older than a day are dropped as new ones come. After an erasure a number
 *   here (as in household_blocks) is replaced by its keyed hash, so the limits outlive it.
 * - Names are unique within a household: members of one household who share a name (case and
 *   invisible marks aside) keep it for the first to join, the others get " (2)", " (3)"….
 */
export const householdConsentMigration: Migration = {
  version: 16,
  name: "household_consent",
  sql: `
    ALTER TABLE household_invitations ADD COLUMN delivered boolean NOT NULL DEFAULT false;
    UPDATE household_invitations i SET delivered = true
     WHERE EXISTS (SELECT 1 FROM reminder_deliveries d WHERE d.key = 'household:invitation:' || i.id);

    CREATE TABLE household_invitation_log (
      -- Who invited (or gave the task), and who was invited (or given it): numbers, or keyed hashes after an erasure.
      inviter_phone text NOT NULL,
      invitee_phone text NOT NULL,
      kind          text NOT NULL CHECK (kind IN ('invitation', 'task')),
      -- An invitation sent to the number (false: recorded, held back); a task: always true.
      delivered     boolean NOT NULL,
      sent_at       timestamptz NOT NULL
    );
    CREATE INDEX household_invitation_log_inviter ON household_invitation_log (inviter_phone, sent_at);
    CREATE INDEX household_invitation_log_invitee ON household_invitation_log (invitee_phone, sent_at);
    CREATE INDEX household_invitation_log_sent ON household_invitation_log (sent_at);
    INSERT INTO household_invitation_log (inviter_phone, invitee_phone, kind, delivered, sent_at)
    SELECT inviter_phone, invitee_phone, 'invitation', delivered, created_at FROM household_invitations
     WHERE created_at > now() - interval '1 day';

    UPDATE household_members m SET name = m.name || ' (' || d.n || ')'
      FROM (SELECT household_id, phone,
                   row_number() OVER (PARTITION BY household_id, lower(btrim(name))
                                      ORDER BY joined_at, phone) AS n
              FROM household_members) d
     WHERE d.household_id = m.household_id AND d.phone = m.phone AND d.n > 1;
  `,
};
