import type { Queryable } from "../transaction.js";

/** How an inbox row ended: answered, given up on, too old to answer, or kept without a turn. */
export type InboxFinalStatus = "done" | "failed" | "expired" | "recorded";
export type InboxStatus = "pending" | InboxFinalStatus;

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

/** The durable inbox of D4: every inbound message, once, until its turn has run. */
export interface InboxRepository {
  /** Stores new messages in one statement; redeliveries (known ids) are dropped. Returns the ids stored. */
  insert(messages: NewInboxMessage[]): Promise<string[]>;
  /** Phones with pending messages and no live lease, the longest-waiting first, leaving out `exclude`. */
  phonesWithPending(limit: number, exclude: readonly string[]): Promise<string[]>;
  /** The phone's next pending message in WhatsApp timestamp order (arrival order within a second). */
  nextPending(phone: string): Promise<InboxMessage | null>;
  /**
   * Counts an attempt at a message's turn before it starts; returns the attempts so far, or null
   * when the lease `token` is no longer live (another worker has the phone now).
   */
  beginAttempt(waMessageId: string, token: string): Promise<number | null>;
  /** Ends a pending message's life (`error` says why it failed); false when the lease is no longer live. */
  finish(waMessageId: string, status: InboxFinalStatus, token: string, error?: string): Promise<boolean>;
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
export function storablePayload<T>(value: T, depth = 0): T {
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

  async phonesWithPending(limit: number, exclude: readonly string[]): Promise<string[]> {
    const { rows } = await this.db.query<{ phone: string }>(
      `SELECT phone FROM inbox_messages m
       WHERE status = 'pending' AND NOT (phone = ANY($2::text[]))
         AND NOT EXISTS (SELECT 1 FROM inbox_phone_leases l WHERE l.phone = m.phone AND l.expires_at > now())
       GROUP BY phone
       ORDER BY min(sent_at), min(seq)
       LIMIT $1`,
      [limit, exclude],
    );
    return rows.map((r) => r.phone);
  }

  async nextPending(phone: string): Promise<InboxMessage | null> {
    const { rows } = await this.db.query<InboxRow>(
      `SELECT * FROM inbox_messages WHERE phone = $1 AND status = 'pending'
       ORDER BY sent_at, seq LIMIT 1`,
      [phone],
    );
    return rows[0] ? toMessage(rows[0]) : null;
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

  async finish(
    waMessageId: string,
    status: InboxFinalStatus,
    token: string,
    error?: string,
  ): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE inbox_messages m SET status = $3, last_error = COALESCE($4, last_error), finished_at = now()
       WHERE wa_message_id = $1 AND status = 'pending' AND ${LEASE_IS_LIVE}`,
      [waMessageId, token, status, error?.slice(0, 2000) ?? null],
    );
    return (rowCount ?? 0) > 0;
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
