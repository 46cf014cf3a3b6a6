import type { Migration } from "./types.js";

/**
 * The conversation-window message a sent message carries (issue 22): the `localId` Memo's stored
 * reply got before it was sent. The window is not rewritten when the reply goes out; the next read
 * of the window takes the WhatsApp id from here, so a user's reply quoting Memo's message finds it.
 */
export const outboundLocalIdMigration: Migration = {
  version: 13,
  name: "outbound_local_id",
  sql: `
    ALTER TABLE outbound_messages ADD COLUMN local_id text;
    CREATE INDEX outbound_messages_local_id ON outbound_messages (local_id) WHERE local_id IS NOT NULL;
  `,
};
