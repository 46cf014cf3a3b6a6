import type { Migration } from "./types.js";

/** Memo's users, keyed by their normalized phone number. */
export const usersMigration: Migration = {
  version: 1,
  name: "users",
  sql: `
    CREATE TABLE users (
      phone             text PRIMARY KEY CHECK (phone ~ '^[1-9][0-9]{5,14}$'),
      display_name      text,
      time_zone         text NOT NULL DEFAULT 'Asia/Jerusalem',
      -- NULL until the first message tells us.
      language          text CHECK (language IN ('he', 'en', 'other')),
      plan_tier         text NOT NULL DEFAULT 'free' CHECK (plan_tier IN ('free', 'pro', 'enterprise')),
      capabilities      jsonb NOT NULL DEFAULT '{"calendar": true, "gmail": true, "database": true, "secondBrain": true}',
      google_connected  boolean NOT NULL DEFAULT false,
      last_inbound_at   timestamptz,
      digest_enabled    boolean NOT NULL DEFAULT true,
      digest_local_time text NOT NULL DEFAULT '08:00' CHECK (digest_local_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
      created_at        timestamptz NOT NULL DEFAULT now(),
      updated_at        timestamptz NOT NULL DEFAULT now()
    );
  `,
};
