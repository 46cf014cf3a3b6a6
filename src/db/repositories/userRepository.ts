import type pg from "pg";
import type { User, UserPatch } from "../../types/user.js";
import type { PgCheckpointThreads } from "./checkpointThreads.js";
import { localDaySql, type DailySpend } from "./llmUsageRepository.js";

/** The user as the inbound path records them, with what the turn would otherwise read next. */
export interface InboundRecord {
  user: User;
  /**
   * Whether the checkpointer holds checkpoints of the user's thread (an open question), read in the
   * same statement; absent when the checkpointer keeps no table to ask (CHECKPOINTER=memory).
   */
  threadStored?: boolean;
  /** What the user's LLM calls cost on their local day at the `now` given; absent without one. */
  spentToday?: DailySpend;
}

/** Storage of users. Every method takes the phone that scopes it. */
export interface UserRepository {
  /** The user, or null when this phone has never been seen. */
  get(phone: string): Promise<User | null>;
  /** The user's time zone alone (a lighter read than `get`), or null when this phone has never been seen. */
  timeZone(phone: string): Promise<string | null>;
  /** The user, created with `defaults` on first contact; an existing user is returned unchanged. */
  getOrCreate(phone: string, defaults?: UserPatch): Promise<User>;
  /** Applies the given fields; returns the updated user, or null when there is none. */
  update(phone: string, patch: UserPatch): Promise<User | null>;
  /**
   * Records the time of the user's latest inbound message (WhatsApp's 24-hour window); returns the
   * user as updated, or null when this phone has never been seen. One statement: the inbound path
   * reads the user with it, whether the user's thread has checkpoints, and, given `now`, what the
   * user's LLM calls cost on their day at `now`.
   */
  recordInbound(phone: string, at: Date, now?: Date): Promise<InboundRecord | null>;
}

interface UserRow {
  phone: string;
  display_name: string | null;
  time_zone: string;
  language: User["language"];
  plan_tier: User["planTier"];
  capabilities: User["capabilities"];
  google_connected: boolean;
  last_inbound_at: Date | null;
  digest_enabled: boolean;
  digest_local_time: string;
  quiet_start: string | null;
  quiet_end: string | null;
  calendar_schedule: User["calendarSchedule"];
  sabbath_quiet: boolean;
  sabbath_city: string | null;
  hebrew_birthday: User["hebrewBirthday"];
  weekly_review_enabled: boolean;
  weekly_review_day: number | null;
  weekly_review_time: string | null;
  voice_replies: boolean;
  time_zone_choices: string[] | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS: Record<keyof UserPatch, string> = {
  displayName: "display_name",
  timeZone: "time_zone",
  language: "language",
  planTier: "plan_tier",
  capabilities: "capabilities",
  googleConnected: "google_connected",
  digestEnabled: "digest_enabled",
  digestLocalTime: "digest_local_time",
  quietStart: "quiet_start",
  quietEnd: "quiet_end",
  calendarSchedule: "calendar_schedule",
  sabbathQuiet: "sabbath_quiet",
  sabbathCity: "sabbath_city",
  hebrewBirthday: "hebrew_birthday",
  weeklyReviewEnabled: "weekly_review_enabled",
  weeklyReviewDay: "weekly_review_day",
  weeklyReviewTime: "weekly_review_time",
  voiceReplies: "voice_replies",
  timeZoneChoices: "time_zone_choices",
};

/** Fields that decide when the next morning digest is due. */
const DIGEST_FIELDS: readonly (keyof UserPatch)[] = ["timeZone", "digestLocalTime", "digestEnabled"];

/** Fields that decide when the next weekly review is due. */
const WEEKLY_FIELDS: readonly (keyof UserPatch)[] = [
  "timeZone",
  "weeklyReviewEnabled",
  "weeklyReviewDay",
  "weeklyReviewTime",
];

/** Columns stored as jsonb: sent as JSON text. */
const JSON_COLUMNS = new Set<keyof UserPatch>(["capabilities", "timeZoneChoices", "hebrewBirthday"]);

function toUser(row: UserRow): User {
  return {
    phone: row.phone,
    displayName: row.display_name,
    timeZone: row.time_zone,
    language: row.language,
    planTier: row.plan_tier,
    capabilities: row.capabilities,
    googleConnected: row.google_connected,
    lastInboundAt: row.last_inbound_at?.toISOString() ?? null,
    digestEnabled: row.digest_enabled,
    digestLocalTime: row.digest_local_time,
    quietStart: row.quiet_start,
    quietEnd: row.quiet_end,
    calendarSchedule: row.calendar_schedule ?? null,
    sabbathQuiet: row.sabbath_quiet,
    sabbathCity: row.sabbath_city,
    hebrewBirthday: row.hebrew_birthday ?? null,
    weeklyReviewEnabled: row.weekly_review_enabled,
    weeklyReviewDay: row.weekly_review_day,
    weeklyReviewTime: row.weekly_review_time,
    voiceReplies: row.voice_replies,
    timeZoneChoices: row.time_zone_choices ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The columns a patch sets and their values, in the same order. */
function patchColumns(patch: UserPatch): { columns: string[]; values: unknown[] } {
  const columns: string[] = [];
  const values: unknown[] = [];
  for (const key of Object.keys(COLUMNS) as (keyof UserPatch)[]) {
    const value = patch[key];
    if (value === undefined) continue;
    columns.push(COLUMNS[key]);
    values.push(JSON_COLUMNS.has(key) && value !== null ? JSON.stringify(value) : value);
  }
  return { columns, values };
}

/** What `recordInbound` reads besides the row. */
interface InboundRow extends UserRow {
  thread_stored?: boolean;
  spent_day?: string;
  spent_usd?: number | null;
}

/** UserRepository over plain SQL on the app's pool. */
export class PgUserRepository implements UserRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly options: {
      /** The checkpointer's tables, asked by `recordInbound` (default: none, CHECKPOINTER=memory). */
      checkpoints?: PgCheckpointThreads | null;
    } = {},
  ) {}

  async get(phone: string): Promise<User | null> {
    const { rows } = await this.pool.query<UserRow>("SELECT * FROM users WHERE phone = $1", [phone]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async timeZone(phone: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ time_zone: string }>(
      "SELECT time_zone FROM users WHERE phone = $1",
      [phone],
    );
    return rows[0]?.time_zone ?? null;
  }

  async getOrCreate(phone: string, defaults: UserPatch = {}): Promise<User> {
    // Known users are the common case: one read, no write.
    const known = await this.get(phone);
    if (known) return known;
    const { columns, values } = patchColumns(defaults);
    const placeholders = columns.map((_, i) => `$${i + 2}`);
    // Another turn may have created the user meanwhile: then ON CONFLICT returns nothing; read it.
    const { rows } = await this.pool.query<UserRow>(
      `INSERT INTO users (phone${columns.map((c) => `, ${c}`).join("")})
       VALUES ($1${placeholders.map((p) => `, ${p}`).join("")})
       ON CONFLICT (phone) DO NOTHING
       RETURNING *`,
      [phone, ...values],
    );
    if (rows[0]) return toUser(rows[0]);
    const existing = await this.get(phone);
    if (!existing) throw new Error(`User ${phone.length}-digit row vanished between insert and read`);
    return existing;
  }

  async update(phone: string, patch: UserPatch): Promise<User | null> {
    const { columns, values } = patchColumns(patch);
    if (columns.length === 0) return this.get(phone);
    const assignments = columns.map((c, i) => `${c} = $${i + 2}`);
    // The scheduler recomputes the next digest instant from the new zone, time or switch.
    if (DIGEST_FIELDS.some((key) => patch[key] !== undefined)) assignments.push("digest_next_at = NULL");
    if (WEEKLY_FIELDS.some((key) => patch[key] !== undefined))
      assignments.push("weekly_review_next_at = NULL");
    const { rows } = await this.pool.query<UserRow>(
      `UPDATE users SET ${assignments.join(", ")}, updated_at = now() WHERE phone = $1 RETURNING *`,
      [phone, ...values],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  async recordInbound(phone: string, at: Date, now?: Date): Promise<InboundRecord | null> {
    const { checkpoints } = this.options;
    // The thread is the user's phone. Read at the turn's start under the phone's lease, so a
    // question paused by another instance (which held the lease before) is seen.
    const thread = checkpoints ? `, ${checkpoints.existsSql("$1")} AS thread_stored` : "";
    // As PgLlmUsageRepository.spent: the user's local day at `now`, and its cost (no row: none).
    const day = localDaySql("$3", "users.time_zone");
    const spend = now
      ? `, ${day}::text AS spent_day,
         (SELECT d.cost_usd FROM llm_usage_daily d WHERE d.user_phone = users.phone AND d.day = ${day}) AS spent_usd`
      : "";
    // Out-of-order deliveries never move the time backwards.
    const { rows } = await this.pool.query<InboundRow>(
      `UPDATE users SET last_inbound_at = GREATEST(COALESCE(last_inbound_at, $2), $2) WHERE phone = $1
       RETURNING *${thread}${spend}`,
      now ? [phone, at, now] : [phone, at],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      user: toUser(row),
      ...(row.thread_stored !== undefined ? { threadStored: row.thread_stored } : {}),
      ...(row.spent_day !== undefined
        ? { spentToday: { day: row.spent_day, costUsd: row.spent_usd ?? 0, planTier: row.plan_tier } }
        : {}),
    };
  }
}
