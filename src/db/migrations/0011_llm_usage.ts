import type { Migration } from "./types.js";

/**
 * What each user's turns cost in LLM calls, per day of their own calendar (their time zone), for
 * the daily budget (LLM_DAILY_BUDGET_USD) and for support ("why was I cut off?"). One row per user
 * and day, added to after every call; deleted with the user, and after RETENTION_DAYS.
 */
export const llmUsageMigration: Migration = {
  version: 11,
  name: "llm_usage",
  sql: `
    CREATE TABLE llm_usage_daily (
      user_phone     text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      day            date NOT NULL,
      calls          integer NOT NULL DEFAULT 0,
      input_tokens   bigint NOT NULL DEFAULT 0,
      output_tokens  bigint NOT NULL DEFAULT 0,
      cost_usd       double precision NOT NULL DEFAULT 0,
      updated_at     timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_phone, day)
    );
    CREATE INDEX llm_usage_daily_day ON llm_usage_daily (day);
  `,
};
