import type { Migration } from "./types.js";

/**
 * WhatsApp traffic (D4): the inbox of inbound messages, keyed by WhatsApp's message id so a
 * redelivery is dropped on insert, worked off one phone at a time in message order; the record of
 * what Memo sent, with its delivery status; and the one-time time-zone question of onboarding.
 */
export const whatsappMigration: Migration = {
  version: 4,
  name: "whatsapp",
  sql: `
    CREATE TABLE inbox_messages (
      wa_message_id text PRIMARY KEY,
      -- Arrival order, to order messages with the same WhatsApp timestamp (whole seconds).
      seq           bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      phone         text NOT NULL CHECK (phone ~ '^[1-9][0-9]{5,14}$'),
      type          text NOT NULL,
      -- WhatsApp's timestamp of the message.
      sent_at       timestamptz NOT NULL,
      received_at   timestamptz NOT NULL DEFAULT now(),
      -- The message object as WhatsApp sent it, and the sender's profile name.
      payload       jsonb NOT NULL,
      contact_name  text,
      -- pending: to run; done: answered; failed: gave up (last_error says why);
      -- expired: too old to answer; recorded: kept, no turn (reactions).
      status        text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'done', 'failed', 'expired', 'recorded')),
      attempts      integer NOT NULL DEFAULT 0,
      last_error    text,
      finished_at   timestamptz
    );
    CREATE INDEX inbox_messages_unfinished ON inbox_messages (phone, sent_at, seq) WHERE status = 'pending';

    CREATE TABLE outbound_messages (
      wa_message_id text PRIMARY KEY,
      phone         text NOT NULL,
      -- The inbound message this answers; NULL for messages Memo starts (reminders, digests).
      in_reply_to   text,
      kind          text,
      body          text,
      -- accepted (by the Graph API) < sent < delivered < read; failed at any point.
      status        text NOT NULL DEFAULT 'accepted'
                    CHECK (status IN ('accepted', 'sent', 'delivered', 'read', 'failed')),
      error_code    integer,
      error_title   text,
      created_at    timestamptz NOT NULL DEFAULT now(),
      status_at     timestamptz
    );
    CREATE INDEX outbound_messages_in_reply_to ON outbound_messages (in_reply_to) WHERE in_reply_to IS NOT NULL;

    -- Zones offered by the onboarding question while it is open (answer by tap, number or name).
    ALTER TABLE users ADD COLUMN time_zone_choices jsonb;
  `,
};
