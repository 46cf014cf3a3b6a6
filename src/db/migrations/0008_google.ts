import type { Migration } from "./types.js";

/**
 * The Google connection of each user. Tokens are stored encrypted (AES-256-GCM, TOKEN_ENCRYPTION_KEY);
 * the database never holds one in the clear. `status` becomes 'lost' when Google refuses the refresh
 * token (revoked, expired); `lost_notified_at` makes the "please reconnect" message go once.
 * `users.google_connected` stays the flag the graph reads, kept in step with this table.
 *
 * `google_link_nonces` makes each "connect Google" link single-use: the nonce is recorded when the
 * link is made and consumed when Google calls back.
 *
 * `local_secrets` holds a key generated on first start when TOKEN_ENCRYPTION_KEY is not set
 * (never in production, where the key is required): development keeps working with no setup.
 */
export const googleMigration: Migration = {
  version: 8,
  name: "google",
  sql: `
    CREATE TABLE google_connections (
      user_phone        text PRIMARY KEY REFERENCES users (phone) ON DELETE CASCADE,
      -- AES-256-GCM: 12-byte IV, 16-byte tag, ciphertext of the JSON token set.
      tokens            bytea NOT NULL,
      scopes            text[] NOT NULL DEFAULT '{}',
      email             text,
      status            text NOT NULL DEFAULT 'connected' CHECK (status IN ('connected', 'lost')),
      lost_at           timestamptz,
      lost_notified_at  timestamptz,
      created_at        timestamptz NOT NULL DEFAULT now(),
      updated_at        timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE google_link_nonces (
      nonce       text PRIMARY KEY,
      user_phone  text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      expires_at  timestamptz NOT NULL,
      used_at     timestamptz,
      created_at  timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX google_link_nonces_expiry ON google_link_nonces (expires_at);

    CREATE TABLE local_secrets (
      name        text PRIMARY KEY,
      value       bytea NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now()
    );
  `,
};
