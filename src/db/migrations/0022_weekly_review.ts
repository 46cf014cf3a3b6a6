import type { Migration } from "./types.js";

/**
 * The weekly review's deliveries (issue 36): `weekly` joins the kinds of `reminder_deliveries`
 * (key `weekly:<phone>@<local date of its day>`, one per user and week).
 */
export const weeklyReviewMigration: Migration = {
  version: 22,
  name: "weekly_review",
  sql: `
    ALTER TABLE reminder_deliveries DROP CONSTRAINT reminder_deliveries_kind_check;
    ALTER TABLE reminder_deliveries ADD CONSTRAINT reminder_deliveries_kind_check
      CHECK (kind IN ('reminder', 'nudge', 'recurring', 'overdue', 'away', 'digest', 'household', 'weekly'));
  `,
};
