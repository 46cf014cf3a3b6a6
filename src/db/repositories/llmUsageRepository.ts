import { prepared } from "../prepared.js";
import type { Queryable } from "../transaction.js";
import type { PlanTier } from "../../types/user.js";

/** What a user's LLM calls cost on one of their local days. */
export interface DailySpend {
  /** The user's local day (YYYY-MM-DD). */
  day: string;
  costUsd: number;
  /** The user's plan tier, when read with it (its daily budget may be its own). */
  planTier?: PlanTier;
}

/**
 * The SQL for the user's local day at an instant: `instant` a timestamptz parameter, `zone` the
 * column holding the user's IANA zone. One definition, so the budget's reads and the usage writes
 * always agree on which day a call belongs to.
 */
export function localDaySql(instant: string, zone: string): string {
  return `(${instant}::timestamptz AT TIME ZONE ${zone})::date`;
}

/** Calls to add to a user's day: one, or a turn's at once (`calls`, default 1). */
export interface NewUsage {
  calls?: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** Calls of one user to add to their day at `at` (the instance that decides the day). */
export interface UserUsage extends NewUsage {
  phone: string;
  at: Date;
}

/**
 * The upsert adding calls to the user's day at an instant, its six parameters from `$first` (see
 * `usageParams`); returns `day` (text) and `cost_usd`, the day's new total, and adds nothing when
 * the phone is null or no user has it. One definition: `add` runs it alone, and the inbox's
 * `advance` as a part, writing a turn's usage with the end of its message.
 */
export function usageSql(first: number): string {
  const p = (i: number) => `$${first + i}`;
  return `INSERT INTO llm_usage_daily AS d (user_phone, day, calls, input_tokens, output_tokens, cost_usd)
       SELECT phone, ${localDaySql(p(1), "time_zone")}, ${p(5)}, ${p(2)}, ${p(3)}, ${p(4)} FROM users WHERE phone = ${p(0)}
       ON CONFLICT (user_phone, day) DO UPDATE SET
         calls = d.calls + EXCLUDED.calls,
         input_tokens = d.input_tokens + EXCLUDED.input_tokens,
         output_tokens = d.output_tokens + EXCLUDED.output_tokens,
         cost_usd = d.cost_usd + EXCLUDED.cost_usd,
         updated_at = now()
       RETURNING day::text AS day, cost_usd`;
}

/** The six parameters of `usageSql`; without `usage`, ones that add nothing. */
export function usageParams(usage?: UserUsage): unknown[] {
  if (!usage) return [null, null, 0, 0, 0, 0];
  return [usage.phone, usage.at, usage.inputTokens, usage.outputTokens, usage.costUsd, usage.calls ?? 1];
}

/**
 * Storage of each user's LLM usage per local day (`llm_usage_daily`). The day is taken in the
 * user's time zone (users.time_zone) at the instant given, so a user with no row spends nothing.
 */
export class PgLlmUsageRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Adds calls to the user's day at `at` (one, or a turn's calls at once: `calls`); returns the
   * day's new total, or null when the user does not exist.
   */
  async add(phone: string, at: Date, usage: NewUsage): Promise<DailySpend | null> {
    const { rows } = await this.db.query<{ day: string; cost_usd: number }>(
      prepared(usageSql(1), usageParams({ ...usage, phone, at })),
    );
    const row = rows[0];
    return row ? { day: row.day, costUsd: row.cost_usd } : null;
  }

  /**
   * What the user's calls cost on their day at `at` (0 when none), with the user's plan tier; null
   * when the user does not exist.
   */
  async spent(phone: string, at: Date): Promise<DailySpend | null> {
    const { rows } = await this.db.query<{ day: string; cost_usd: number | null; plan_tier: PlanTier }>(
      prepared(
        `SELECT ${localDaySql("$2", "u.time_zone")}::text AS day, d.cost_usd, u.plan_tier
         FROM users u
         LEFT JOIN llm_usage_daily d
           ON d.user_phone = u.phone AND d.day = ${localDaySql("$2", "u.time_zone")}
        WHERE u.phone = $1`,
        [phone, at],
      ),
    );
    const row = rows[0];
    return row ? { day: row.day, costUsd: row.cost_usd ?? 0, planTier: row.plan_tier } : null;
  }
}
