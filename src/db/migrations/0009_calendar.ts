import type { Migration } from "./types.js";

/**
 * The built-in calendar, for users without Google (and for everyone until they connect it).
 * A timed event stores its instants and the zone it was made in; an all-day event stores dates
 * (`end_date` exclusive, as Google does). A recurring series stores its rule (D6: expanded in code,
 * in `time_zone`), `exdates` (occurrences removed from the series, by their original local date
 * YYYY-MM-DD) and `overrides` (occurrences changed on their own: original local date → the changed
 * fields). A row made by an
 * operation carries that operation's id, unique per owner, so a re-run turn creates nothing twice.
 */
export const calendarMigration: Migration = {
  version: 9,
  name: "calendar",
  sql: `
    CREATE TABLE calendar_events (
      id                       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_phone               text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      summary                  text NOT NULL CHECK (length(summary) BETWEEN 1 AND 500),
      description              text CHECK (length(description) <= 8000),
      location                 text CHECK (length(location) <= 500),
      all_day                  boolean NOT NULL DEFAULT false,
      -- Timed events: instants. All-day events: NULL here, dates below.
      start_at                 timestamptz,
      end_at                   timestamptz,
      start_date               date,
      end_date                 date,
      time_zone                text NOT NULL,
      -- {frequency daily|weekly|monthly, interval, days [0-6], daysOfMonth [1-31], until "YYYY-MM-DD", count}
      recurrence               jsonb,
      -- ["YYYY-MM-DD", ...] and {"YYYY-MM-DD": {summary, start, end, ...}}: dates local to time_zone.
      exdates                  jsonb NOT NULL DEFAULT '[]'::jsonb,
      overrides                jsonb NOT NULL DEFAULT '{}'::jsonb,
      reminder_minutes_before  integer CHECK (reminder_minutes_before BETWEEN 0 AND 40320),
      created_by_operation     text,
      created_at               timestamptz NOT NULL DEFAULT now(),
      updated_at               timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_phone, created_by_operation),
      CHECK ((all_day AND start_date IS NOT NULL AND end_date > start_date)
          OR (NOT all_day AND start_at IS NOT NULL AND end_at >= start_at))
    );
    CREATE INDEX calendar_events_owner_start ON calendar_events (user_phone, start_at);
    CREATE INDEX calendar_events_owner_recurring ON calendar_events (user_phone) WHERE recurrence IS NOT NULL;
  `,
};
