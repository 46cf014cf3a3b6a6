import type { Migration } from "./types.js";

/**
 * The proactive half of Memo (D8): a ledger with one row per reminder occurrence, digest or
 * "while I was away" message, keyed so that no occurrence is sent twice by any number of
 * instances or restarts; per-user state the scheduler keeps (next digest instant, next free slot
 * for a proactive message, quiet hours).
 */
export const schedulerMigration: Migration = {
  version: 7,
  name: "scheduler",
  sql: `
    CREATE TABLE reminder_deliveries (
      -- task:<id>@<occurrence ISO> | digest:<phone>@<local date> | away:<phone>@<claim ISO>/<first task id>
      key            text PRIMARY KEY,
      user_phone     text NOT NULL,
      kind           text NOT NULL
                     CHECK (kind IN ('reminder', 'nudge', 'recurring', 'overdue', 'away', 'digest')),
      -- No foreign key: completing a reminder deletes its task, and the record of what was sent stays.
      task_id        uuid,
      -- The instant this occurrence was due (a digest: its local digest time).
      occurrence_at  timestamptz NOT NULL,
      -- Occurrences gathered into one "while I was away" message point at it and are not sent alone.
      part_of        text,
      -- sending: claimed, not yet confirmed by the Graph API; sent; failed (error says why);
      -- undeliverable: outside the 24-hour window with no template; covered: part of an away message;
      -- skipped: not worth sending (an empty digest, one too late to be a morning brief).
      status         text NOT NULL DEFAULT 'sending'
                     CHECK (status IN ('sending', 'sent', 'failed', 'undeliverable', 'covered', 'skipped')),
      -- What to say, rendered at send time (so lateness is measured when it is actually sent).
      content        jsonb NOT NULL,
      -- Not before this instant: at least the per-user gap after the previous proactive message.
      send_after     timestamptz NOT NULL,
      -- Who is sending it now; a claim older than the lease is taken over (a crashed instance).
      claim_token    uuid,
      claimed_at     timestamptz,
      attempts       integer NOT NULL DEFAULT 0,
      -- text (free-form, inside the 24-hour window) | template
      via            text CHECK (via IN ('text', 'template')),
      wa_message_id  text,
      error          text,
      -- A 131047 "outside the window" failure was answered with the template, once.
      template_retried boolean NOT NULL DEFAULT false,
      sent_at        timestamptz,
      created_at     timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX reminder_deliveries_sending ON reminder_deliveries (claimed_at) WHERE status = 'sending';
    CREATE INDEX reminder_deliveries_wa_message ON reminder_deliveries (wa_message_id) WHERE wa_message_id IS NOT NULL;
    CREATE INDEX reminder_deliveries_created ON reminder_deliveries (created_at);
    -- A task's recent deliveries (whether a nudge already went outside the 24-hour window).
    -- A user's latest reminder (a typed "done" after it).
    CREATE INDEX reminder_deliveries_user ON reminder_deliveries (user_phone, sent_at);
    CREATE INDEX reminder_deliveries_task ON reminder_deliveries (task_id, occurrence_at) WHERE task_id IS NOT NULL;

    -- When this user's next morning digest is due; NULL: to be computed from their zone and time.
    ALTER TABLE users ADD COLUMN digest_next_at timestamptz;
    -- The earliest instant the next proactive message may go (WhatsApp's per-user pacing).
    ALTER TABLE users ADD COLUMN next_proactive_at timestamptz;
    -- Quiet hours, local "HH:mm" (both NULL: off): nudges wait until they end.
    ALTER TABLE users ADD COLUMN quiet_start text CHECK (quiet_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$');
    ALTER TABLE users ADD COLUMN quiet_end text CHECK (quiet_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$');
    CREATE INDEX users_digest_due ON users (digest_next_at) WHERE digest_enabled;
  `,
};
