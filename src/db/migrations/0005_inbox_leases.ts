import type { Migration } from "./types.js";

/**
 * Who works off each phone's inbox now (D4): a lease renewed while held, taken over once it
 * expires (a crashed instance), and a token that fences out a holder that lost it.
 */
export const inboxLeasesMigration: Migration = {
  version: 5,
  name: "inbox_leases",
  sql: `
    CREATE SEQUENCE inbox_lease_tokens;
    CREATE TABLE inbox_phone_leases (
      phone      text PRIMARY KEY,
      owner      text NOT NULL,
      token      bigint NOT NULL,
      expires_at timestamptz NOT NULL
    );
  `,
};
