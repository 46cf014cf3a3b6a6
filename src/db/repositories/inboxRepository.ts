import type { Queryable } from "../transaction.js";
import { usageParams, usageSql, type DailySpend, type UserUsage } from "./llmUsageRepository.js";
import { recordParams, recordSql, type NewOutboundMessage } from "./outboundMessageRepository.js";

/** How an inbox row ended: answered, given up on, too old to answer, or kept without a turn. */
type InboxFinalStatus = "done" | "failed" | "expired" | "recorded";
type InboxStatus = "pending" | InboxFinalStatus;

/** An inbound WhatsApp message as the webhook stores it. */
export interface NewInboxMessage {
  waMessageId: string;
  phone: string;
  type: string;
  sentAt: Date;
  /** The message object as WhatsApp sent it. */
  payload: unknown;
  contactName?: string;
  /** "recorded" for messages that start no turn (reactions); default pending. */
  status?: "pending" | "recorded";
}

export interface InboxMessage {
  waMessageId: string;
  seq: number;
  phone: string;
  type: string;
  sentAt: Date;
  receivedAt: Date;
  payload: unknown;
  contactName: string | null;
  status: InboxStatus;
  attempts: number;
  lastError: string | null;
}

interface InboxRow {
  wa_message_id: string;
  seq: string;
  phone: string;
  type: string;
  sent_at: Date;
  received_at: Date;
  payload: unknown;
  contact_name: string | null;
  status: InboxStatus;
  attempts: number;
  last_error: string | null;
}

function toMessage(row: InboxRow): InboxMessage {
  return {
    waMessageId: row.wa_message_id,
    seq: Number(row.seq),
    phone: row.phone,
    type: row.type,
    sentAt: row.sent_at,
    receivedAt: row.received_at,
    payload: row.payload,
    contactName: row.contact_name,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
  };
}

/** What `InboxRepository.claim` needs: who takes the leases, for how long, and how many. */
export interface ClaimRequest {
  /** The lease owner (one per process). */
  owner: string;
  /** Lifetime of a lease without renewal. */
  ttlSeconds: number;
  /** Most phones taken. */
  limit: number;
  /** Phones this process is working off already. */
  exclude: readonly string[];
}

/** A phone whose lease a claim took. */
interface ClaimedPhone {
  phone: string;
  /** The new lease's fencing token. */
  token: string;
  /** The phone's next pending message, its attempt counted; null if another worker finished it meanwhile. */
  message: InboxMessage | null;
}

export interface Claim {
  phones: ClaimedPhone[];
  /** Whether phones were left waiting: more than `limit` found, or some lost to another worker. */
  more: boolean;
}

/** See `InboxRepository.advance`. */
export interface AdvanceStep {
  finish?: { waMessageId: string; status: InboxFinalStatus; error?: string };
  then: "next" | "hold" | "release";
  /**
   * Messages WhatsApp accepted and Memo has not recorded yet (the end of the turn's reply), recorded
   * in the same statement whether or not the lease is still live: they were sent either way.
   */
  record?: readonly NewOutboundMessage[];
  /**
   * The LLM usage of the turn just ended, added to its user's day in the same statement whether or
   * not the lease is still live: the calls were made either way.
   */
  usage?: UserUsage;
}

export interface Advanced {
  /** `step.finish` was applied (false: the lease is lost, or the row was no longer pending). */
  finished: boolean;
  /** The phone's next pending message, its attempt counted (only with `then: "next"`). */
  next: InboxMessage | null;
  /** The lease was let go (`then: "release"`, or `"next"` with nothing left). */
  released: boolean;
  /** With `step.usage`: the user's day with it added (null: no such user). */
  usage?: DailySpend | null;
}

/** The durable inbox of D4: every inbound message, once, until its turn has run. */
export interface InboxRepository {
  /** Stores new messages in one statement; redeliveries (known ids) are dropped. Returns the ids stored. */
  insert(messages: NewInboxMessage[]): Promise<string[]>;
  /**
   * Takes the leases of up to `limit` phones with pending messages and no live lease (the
   * longest-waiting first, leaving out `exclude`), and of each, in the same statement, the next
   * pending message with its attempt counted (see `ClaimedPhone`).
   */
  claim(request: ClaimRequest): Promise<Claim>;
  /**
   * One step of a phone's run under its lease, in one statement: ends the message just handled
   * (`step.finish`), then takes the phone's next pending message with its attempt counted
   * (`then: "next"`, letting the lease go when there is none), keeps the lease (`"hold"`), or lets
   * it go (`"release"`); records `step.record` in `outbound_messages` and adds `step.usage` to
   * `llm_usage_daily`. Nothing happens to the inbox when the lease `token` is no longer live, or
   * when `step.finish` names a message that is no longer pending.
   */
  advance(phone: string, token: string, step: AdvanceStep): Promise<Advanced>;
  /**
   * Counts another attempt at a message whose turn failed, before it is run again (the first
   * attempt is counted by `claim` or `advance`); returns the attempts so far, or null when the
   * lease `token` is no longer live (another worker has the phone now).
   */
  beginAttempt(waMessageId: string, token: string): Promise<number | null>;
  /** Takes back an attempt counted for a message whose turn never started (the worker stopped first). */
  giveBackAttempt(waMessageId: string, token: string): Promise<void>;
  get(waMessageId: string): Promise<InboxMessage | null>;
  /** Deletes the phone's answered rows (they keep what the user sent); returns how many. */
  deleteAnswered(phone: string): Promise<number>;
  /** Pending rows of every phone, and how many seconds the oldest has waited (0 when none). */
  backlog(): Promise<{ pending: number; oldestSeconds: number }>;
}

/** Rows per INSERT statement. */
const INSERT_CHUNK = 1000;

/** A UTF-16 surrogate without its other half: valid in JavaScript, refused by Postgres jsonb. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Nesting kept in a stored payload; deeper parts (no WhatsApp field is near it) become null. */
const MAX_PAYLOAD_DEPTH = 32;

/** A string Postgres text and jsonb can hold: no U+0000, lone surrogates as U+FFFD. */
function storable(text: string): string {
  return text.replaceAll("\u0000", "").replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * The value as Postgres can store it: U+0000 removed from every string and key, lone surrogates
 * replaced, and nesting cut at MAX_PAYLOAD_DEPTH (a body nested thousands deep must not overflow
 * the stack, nor make the database refuse the whole batch it came in).
 */
function storablePayload<T>(value: T, depth = 0): T {
  if (typeof value === "string") return storable(value) as T;
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_PAYLOAD_DEPTH) return null as T;
  if (Array.isArray(value)) return value.map((v: unknown) => storablePayload(v, depth + 1)) as T;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [storable(k), storablePayload(v, depth + 1)]),
  ) as T;
}

/** The fence of inbox updates: the worker's lease (token $2) on the row's phone is still live. */
const LEASE_IS_LIVE = `EXISTS (SELECT 1 FROM inbox_phone_leases l
  WHERE l.phone = m.phone AND l.token = $2::bigint AND l.expires_at > now())`;

export class PgInboxRepository implements InboxRepository {
  constructor(private readonly db: Queryable) {}

  async insert(messages: NewInboxMessage[]): Promise<string[]> {
    const stored: string[] = [];
    // Postgres takes at most 65535 parameters per statement (7 per row).
    for (let i = 0; i < messages.length; i += INSERT_CHUNK) {
      stored.push(...(await this.insertChunk(messages.slice(i, i + INSERT_CHUNK))));
    }
    return stored;
  }

  private async insertChunk(messages: NewInboxMessage[]): Promise<string[]> {
    if (messages.length === 0) return [];
    const values: unknown[] = [];
    const rows = messages.map((m) => {
      values.push(m.waMessageId, m.phone, m.type, m.sentAt, JSON.stringify(storablePayload(m.payload)));
      values.push(m.contactName === undefined ? null : storablePayload(m.contactName), m.status ?? "pending");
      const base = values.length - 7;
      return `(${[1, 2, 3, 4, 5, 6, 7].map((i) => `$${base + i}`).join(", ")})`;
    });
    // One statement is one transaction: the rows are durable before the webhook answers 200.
    const { rows: stored } = await this.db.query<{ wa_message_id: string }>(
      `INSERT INTO inbox_messages (wa_message_id, phone, type, sent_at, payload, contact_name, status)
       VALUES ${rows.join(", ")}
       ON CONFLICT (wa_message_id) DO NOTHING
       RETURNING wa_message_id`,
      values,
    );
    return stored.map((r) => r.wa_message_id);
  }

  async claim({ owner, ttlSeconds, limit, exclude }: ClaimRequest): Promise<Claim> {
    // One statement: pick the waiting phones (one more than asked, to know whether some are left),
    // take their leases (an upsert that only wins over an expired lease, in phone order so two
    // instances claiming at once cannot deadlock), and count the attempt at each one's next message.
    // The message is re-checked as pending when counted: a worker that finished it since this
    // statement's snapshot leaves the phone with no message here (the run then looks again).
    const { rows } = await this.db.query<
      Partial<InboxRow> & { found: string; lease_phone: string | null; lease_token: string | null }
    >(
      `WITH waiting AS (
         SELECT phone, row_number() OVER (ORDER BY min(sent_at), min(seq)) AS rank
           FROM inbox_messages m
          WHERE status = 'pending' AND NOT (phone = ANY($2::text[]))
            AND NOT EXISTS (SELECT 1 FROM inbox_phone_leases l WHERE l.phone = m.phone AND l.expires_at > now())
          GROUP BY phone
          ORDER BY min(sent_at), min(seq)
          LIMIT $1 + 1
       ),
       leased AS (
         INSERT INTO inbox_phone_leases AS l (phone, owner, token, expires_at)
         SELECT phone, $3, nextval('inbox_lease_tokens'), now() + make_interval(secs => $4)
           FROM waiting WHERE rank <= $1 ORDER BY phone
         ON CONFLICT (phone) DO UPDATE
           SET owner = EXCLUDED.owner, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at
           WHERE l.expires_at < now()
         RETURNING phone, token
       ),
       first AS (
         SELECT DISTINCT ON (m.phone) m.wa_message_id
           FROM inbox_messages m JOIN leased USING (phone)
          WHERE m.status = 'pending'
          ORDER BY m.phone, m.sent_at, m.seq
       ),
       counted AS (
         UPDATE inbox_messages m SET attempts = m.attempts + 1
           FROM first WHERE m.wa_message_id = first.wa_message_id AND m.status = 'pending'
         RETURNING m.*
       )
       SELECT (SELECT count(*) FROM waiting) AS found, leased.phone AS lease_phone,
              leased.token AS lease_token, counted.*
         FROM (SELECT 1) AS one
         LEFT JOIN leased ON true
         LEFT JOIN counted ON counted.phone = leased.phone`,
      [limit, exclude, owner, ttlSeconds],
    );
    const phones = rows
      .filter((r) => r.lease_phone !== null && r.lease_token !== null)
      .map((r) => ({
        phone: r.lease_phone!,
        token: String(r.lease_token),
        message: r.wa_message_id ? toMessage(r as InboxRow) : null,
      }));
    const found = Number(rows[0]?.found ?? 0);
    return { phones, more: found > Math.min(limit, phones.length) };
  }

  async advance(phone: string, token: string, step: AdvanceStep): Promise<Advanced> {
    const { finish, then, record = [], usage } = step;
    // One statement, fenced by the lease: the finished row, the next row (the snapshot still shows
    // the finished one pending, hence the id left out) with its attempt counted, and the lease let
    // go when the phone has nothing left, so no other statement is needed between two messages.
    // The reply's record is not fenced, and commits with the row's end: an answered row is never
    // seen without its answer's record. Nor is the turn's LLM usage (a null phone adds none).
    const { rows } = await this.db.query<
      Partial<InboxRow> & {
        finished: boolean;
        released: boolean;
        usage_day: string | null;
        usage_cost_usd: number | null;
      }
    >(
      `WITH lease AS (
         SELECT 1 FROM inbox_phone_leases
          WHERE phone = $1 AND token = $2::bigint AND expires_at > now()
       ),
       finished AS (
         UPDATE inbox_messages
            SET status = $4, last_error = COALESCE($5, last_error), finished_at = now()
          WHERE wa_message_id = $3 AND phone = $1 AND status = 'pending' AND EXISTS (SELECT 1 FROM lease)
         RETURNING wa_message_id
       ),
       go AS (
         SELECT 1 WHERE EXISTS (SELECT 1 FROM lease)
                    AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM finished))
       ),
       next AS (
         SELECT wa_message_id FROM inbox_messages
          WHERE phone = $1 AND status = 'pending' AND wa_message_id IS DISTINCT FROM $3
            AND $6 = 'next' AND EXISTS (SELECT 1 FROM go)
          ORDER BY sent_at, seq
          LIMIT 1
       ),
       counted AS (
         UPDATE inbox_messages m SET attempts = m.attempts + 1
           FROM next WHERE m.wa_message_id = next.wa_message_id AND m.status = 'pending'
         RETURNING m.*
       ),
       released AS (
         DELETE FROM inbox_phone_leases
          WHERE phone = $1 AND token = $2::bigint AND EXISTS (SELECT 1 FROM go)
            AND ($6 = 'release' OR ($6 = 'next' AND NOT EXISTS (SELECT 1 FROM next)))
         RETURNING 1
       ),
       recorded AS (${recordSql(7)}),
       used AS (${usageSql(13)})
       SELECT EXISTS (SELECT 1 FROM finished) AS finished, EXISTS (SELECT 1 FROM released) AS released,
              used.day AS usage_day, used.cost_usd AS usage_cost_usd, counted.*
         FROM (SELECT 1) AS one LEFT JOIN counted ON true LEFT JOIN used ON true`,
      [
        phone,
        token,
        finish?.waMessageId ?? null,
        finish?.status ?? null,
        finish?.error?.slice(0, 2000) ?? null,
        then,
        ...recordParams(record),
        ...usageParams(usage),
      ],
    );
    const row = rows[0];
    return {
      finished: finish !== undefined && row?.finished === true,
      next: row?.wa_message_id ? toMessage(row as InboxRow) : null,
      released: row?.released === true,
      ...(usage
        ? {
            usage:
              row?.usage_day != null && row.usage_cost_usd != null
                ? { day: row.usage_day, costUsd: row.usage_cost_usd }
                : null,
          }
        : {}),
    };
  }

  async beginAttempt(waMessageId: string, token: string): Promise<number | null> {
    const { rows } = await this.db.query<{ attempts: number }>(
      `UPDATE inbox_messages m SET attempts = attempts + 1
       WHERE wa_message_id = $1 AND status = 'pending' AND ${LEASE_IS_LIVE}
       RETURNING attempts`,
      [waMessageId, token],
    );
    return rows[0]?.attempts ?? null;
  }

  async giveBackAttempt(waMessageId: string, token: string): Promise<void> {
    await this.db.query(
      `UPDATE inbox_messages m SET attempts = attempts - 1
       WHERE wa_message_id = $1 AND status = 'pending' AND attempts > 0 AND ${LEASE_IS_LIVE}`,
      [waMessageId, token],
    );
  }

  async get(waMessageId: string): Promise<InboxMessage | null> {
    const { rows } = await this.db.query<InboxRow>("SELECT * FROM inbox_messages WHERE wa_message_id = $1", [
      waMessageId,
    ]);
    return rows[0] ? toMessage(rows[0]) : null;
  }

  async deleteAnswered(phone: string): Promise<number> {
    const { rowCount } = await this.db.query(
      "DELETE FROM inbox_messages WHERE phone = $1 AND status <> 'pending'",
      [phone],
    );
    return rowCount ?? 0;
  }

  async backlog(): Promise<{ pending: number; oldestSeconds: number }> {
    // One query over the partial index of pending rows.
    const { rows } = await this.db.query<{ pending: number; oldest_seconds: number }>(
      `SELECT count(*)::int AS pending,
              COALESCE(EXTRACT(EPOCH FROM now() - min(received_at)), 0)::float8 AS oldest_seconds
         FROM inbox_messages
        WHERE status = 'pending'`,
    );
    return {
      pending: Number(rows[0]?.pending ?? 0),
      // Another instance's clock cannot make it negative (both times are the database's), but be safe.
      oldestSeconds: Math.max(0, Number(rows[0]?.oldest_seconds ?? 0)),
    };
  }
}
