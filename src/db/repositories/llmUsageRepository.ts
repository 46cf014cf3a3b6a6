import { prepared } from "../prepared.js";
import type { Queryable } from "../transaction.js";

/** What a user's LLM calls cost on one of their local days. */
export interface DailySpend {
  /** The user's local day (YYYY-MM-DD). */
  day: string;
  costUsd: number;
}

/**
 * Storage of each user's LLM usage per local day (`llm_usage_daily`). The day is taken in the
 * user's time zone (users.time_zone) at the instant given, so a user with no row spends nothing.
 */
/**
 * The SQL for the user's local day at an instant: `instant` a timestamptz parameter, `zone` the
 * column holding the user's IANA zone. One definition, so the budget's reads and the usage writes
 * always agree on which day a call belongs to.
 */
export function localDaySql(instant: string, zone: string): string {
  return `(${instant}::timestamptz AT TIME ZONE ${zone})::date`;
}

export class PgLlmUsageRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Adds calls to the user's day at `at` (one, or a turn's calls at once: `calls`); returns the
   * day's new total, or null when the user does not exist.
   */
  async add(
    phone: string,
    at: Date,
    usage: { calls?: number; inputTokens: number; outputTokens: number; costUsd: number },
  ): Promise<DailySpend | null> {
    const { rows } = await this.db.query<{ day: string; cost_usd: number }>(
      prepared(
        `INSERT INTO llm_usage_daily AS d (user_phone, day, calls, input_tokens, output_tokens, cost_usd)
       SELECT phone, ${localDaySql("$2", "time_zone")}, $6, $3, $4, $5 FROM users WHERE phone = $1
       ON CONFLICT (user_phone, day) DO UPDATE SET
         calls = d.calls + EXCLUDED.calls,
         input_tokens = d.input_tokens + EXCLUDED.input_tokens,
         output_tokens = d.output_tokens + EXCLUDED.output_tokens,
         cost_usd = d.cost_usd + EXCLUDED.cost_usd,
         updated_at = now()
       RETURNING day::text AS day, cost_usd`,
        [phone, at, usage.inputTokens, usage.outputTokens, usage.costUsd, usage.calls ?? 1],
      ),
    );
    const row = rows[0];
    return row ? { day: row.day, costUsd: row.cost_usd } : null;
  }

  /** What the user's calls cost on their day at `at` (0 when none); null when the user does not exist. */
  async spent(phone: string, at: Date): Promise<DailySpend | null> {
    const { rows } = await this.db.query<{ day: string; cost_usd: number | null }>(
      prepared(
        `SELECT ${localDaySql("$2", "u.time_zone")}::text AS day, d.cost_usd
         FROM users u
         LEFT JOIN llm_usage_daily d
           ON d.user_phone = u.phone AND d.day = ${localDaySql("$2", "u.time_zone")}
        WHERE u.phone = $1`,
        [phone, at],
      ),
    );
    const row = rows[0];
    return row ? { day: row.day, costUsd: row.cost_usd ?? 0 } : null;
  }
}
