import type { Migration } from "./types.js";

/**
 * Attendees (spec 002 §15.2, issue 34):
 * - calendar_events.attendees: who a built-in event is with, as text ([{name, email}]); nothing is
 *   sent to them (Google Calendar keeps its own attendees and sends the invitations).
 * - contacts: e-mail addresses a user typed to Memo, with the name they gave them for (if any), so
 *   "meeting with Dana" can offer the address the user gave earlier. Scoped by the user's phone:
 *   one user's addresses are never offered to another (household members included).
 */
export const attendeesContactsMigration: Migration = {
  version: 17,
  name: "attendees_contacts",
  sql: `
    ALTER TABLE calendar_events ADD COLUMN attendees jsonb NOT NULL DEFAULT '[]'::jsonb;

    CREATE TABLE contacts (
      user_phone  text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      email       text NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
      name        text CHECK (length(name) BETWEEN 1 AND 200),
      updated_at  timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_phone, email)
    );
  `,
};
