import type { Migration } from "./types.js";

/**
 * Living by two calendars (issue 36): the user's settings for the Hebrew calendar, Shabbat and
 * holiday quiet, and the weekly review.
 *
 * - `calendar_schedule`: 'israel' or 'diaspora' when the user chose one; NULL follows the zone
 *   (Israel's schedule in an Israeli zone).
 * - `sabbath_quiet` / `sabbath_city`: no proactive message from candle lighting to havdalah and on
 *   the holidays of the schedule; the city whose times are used (a `@hebcal/core` city name), NULL
 *   for the city of the user's zone.
 * - `hebrew_birthday`: `{ "month": …, "day": … }` (hebcal's month numbers) once the user said it,
 *   so "on my Hebrew birthday" can be read.
 * - `weekly_review_*`: the opt-in weekly message, its local weekday (0 = Sunday) and time (NULL:
 *   the default of the user's zone), and its next due instant, recomputed by the scheduler when
 *   NULL (as `digest_next_at`).
 */
export const twoCalendarsMigration: Migration = {
  version: 21,
  name: "two_calendars",
  sql: `
    ALTER TABLE users
      ADD COLUMN calendar_schedule text CHECK (calendar_schedule IN ('israel', 'diaspora')),
      ADD COLUMN sabbath_quiet boolean NOT NULL DEFAULT false,
      ADD COLUMN sabbath_city text CHECK (length(sabbath_city) BETWEEN 1 AND 100),
      ADD COLUMN hebrew_birthday jsonb,
      ADD COLUMN weekly_review_enabled boolean NOT NULL DEFAULT false,
      ADD COLUMN weekly_review_day smallint CHECK (weekly_review_day BETWEEN 0 AND 6),
      ADD COLUMN weekly_review_time text CHECK (weekly_review_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
      ADD COLUMN weekly_review_next_at timestamptz;
    CREATE INDEX users_weekly_review_due ON users (weekly_review_next_at) WHERE weekly_review_enabled;
  `,
};
