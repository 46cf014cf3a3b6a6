import { withoutNul } from "../text.js";
import type { Queryable } from "../transaction.js";

/** Who wrote a stored message. */
type HistoryRole = "user" | "assistant" | "system";

/** A message to keep in the whole-conversation history. */
export interface NewHistoryMessage {
  role: HistoryRole;
  content: string;
  /** The WhatsApp message id; a second append with the same role and id stores nothing. */
  whatsappMessageId?: string;
  /** When it was said (epoch ms or a Date). */
  createdAt: number | Date;
}

/** A stored message; ids grow in the order messages were appended. */
export interface HistoryMessage {
  /** `conversation_messages.id` (an identity; numbers stay exact far past any real history). */
  id: number;
  role: HistoryRole;
  content: string;
  whatsappMessageId: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
}

/** Which messages a range read returns. */
export interface HistoryRange {
  /** Only messages of this role (default: all). */
  role?: HistoryRole;
  /** At most this many (default: 500). */
  limit?: number;
  /** "asc" (default): the oldest of the range first; "desc": the newest first. */
  order?: "asc" | "desc";
}

/**
 * The whole conversation of each user (`conversation_messages`), kept past the short-term window.
 * Every method takes the phone that scopes it and touches only that user's rows.
 */
export interface ConversationHistory {
  /**
   * Stores a message and returns its id. With a WhatsApp id, a message already stored with the
   * same role and id is not stored again: its id is returned (a redelivery, a re-run turn).
   */
  append(phone: string, message: NewHistoryMessage): Promise<number>;
  /** Messages with `afterId < id <= throughId` (`throughId` null: no upper bound). */
  between(
    phone: string,
    afterId: number,
    throughId: number | null,
    range?: HistoryRange,
  ): Promise<HistoryMessage[]>;
  /** The ids of the newest `count` messages, newest first. */
  newestIds(phone: string, count: number): Promise<number[]>;
  /**
   * Messages that have left a window of the newest `windowSize`: those with id above `afterId` and
   * older than the window, oldest first, at most `limit`.
   */
  outsideWindow(phone: string, afterId: number, windowSize: number, limit: number): Promise<HistoryMessage[]>;
  /**
   * The id of the user's own message with this WhatsApp id; without one, of their newest message
   * that has none (a message typed into the local simulator). Null when there is none.
   */
  userMessageId(phone: string, whatsappMessageId?: string): Promise<number | null>;
  /** The user's messages among `ids` (others' and unknown ids left out). */
  getMany(phone: string, ids: readonly number[]): Promise<HistoryMessage[]>;
  /** Deletes the user's messages among `ids`; returns how many were deleted. */
  delete(phone: string, ids: readonly number[]): Promise<number>;
  /** Deletes the user's whole history; returns how many messages were deleted. */
  deleteAll(phone: string): Promise<number>;
}

interface MessageRow {
  id: string;
  role: HistoryRole;
  content: string;
  whatsapp_message_id: string | null;
  created_at: Date;
}

const COLUMNS = "id, role, content, whatsapp_message_id, created_at";
/** Rows a range read returns when the caller names no limit. */
const DEFAULT_RANGE_LIMIT = 500;

function toMessage(row: MessageRow): HistoryMessage {
  return {
    id: Number(row.id),
    role: row.role,
    content: row.content,
    whatsappMessageId: row.whatsapp_message_id,
    createdAt: row.created_at.getTime(),
  };
}

// Postgres text refuses NUL characters; a message carrying one must still be kept.

/** ConversationHistory over `conversation_messages`, in plain SQL on a pool or a transaction's client. */
export class PgConversationHistory implements ConversationHistory {
  constructor(private readonly db: Queryable) {}

  async append(phone: string, message: NewHistoryMessage): Promise<number> {
    const createdAt = message.createdAt instanceof Date ? message.createdAt : new Date(message.createdAt);
    const whatsappId = message.whatsappMessageId ?? null;
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO conversation_messages (user_phone, role, content, whatsapp_message_id, created_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_phone, role, whatsapp_message_id) DO NOTHING
       RETURNING id`,
      [phone, message.role, withoutNul(message.content), whatsappId, createdAt],
    );
    if (rows[0]) return Number(rows[0].id);
    // Only a message with a WhatsApp id can conflict (NULLs never do): it is already stored.
    const existing = await this.db.query<{ id: string }>(
      `SELECT id FROM conversation_messages
        WHERE user_phone = $1 AND role = $2 AND whatsapp_message_id = $3`,
      [phone, message.role, whatsappId],
    );
    return Number(existing.rows[0]!.id);
  }

  async between(
    phone: string,
    afterId: number,
    throughId: number | null,
    range: HistoryRange = {},
  ): Promise<HistoryMessage[]> {
    const order = range.order === "desc" ? "DESC" : "ASC";
    const { rows } = await this.db.query<MessageRow>(
      `SELECT ${COLUMNS} FROM conversation_messages
        WHERE user_phone = $1 AND id > $2 AND ($3::bigint IS NULL OR id <= $3)
          AND ($4::text IS NULL OR role = $4)
        ORDER BY id ${order}
        LIMIT $5`,
      [phone, afterId, throughId, range.role ?? null, range.limit ?? DEFAULT_RANGE_LIMIT],
    );
    return rows.map(toMessage);
  }

  async newestIds(phone: string, count: number): Promise<number[]> {
    const { rows } = await this.db.query<{ id: string }>(
      "SELECT id FROM conversation_messages WHERE user_phone = $1 ORDER BY id DESC LIMIT $2",
      [phone, count],
    );
    return rows.map((r) => Number(r.id));
  }

  async outsideWindow(
    phone: string,
    afterId: number,
    windowSize: number,
    limit: number,
  ): Promise<HistoryMessage[]> {
    // The subquery is the newest message outside the window (the (windowSize + 1)-th newest);
    // with no more than windowSize messages it is NULL and nothing has left the window.
    const { rows } = await this.db.query<MessageRow>(
      `SELECT ${COLUMNS} FROM conversation_messages
        WHERE user_phone = $1 AND id > $2
          AND id <= (SELECT id FROM conversation_messages WHERE user_phone = $1
                      ORDER BY id DESC OFFSET $3 LIMIT 1)
        ORDER BY id
        LIMIT $4`,
      [phone, afterId, windowSize, limit],
    );
    return rows.map(toMessage);
  }

  async userMessageId(phone: string, whatsappMessageId?: string): Promise<number | null> {
    const { rows } = await this.db.query<{ id: string }>(
      whatsappMessageId === undefined
        ? `SELECT id FROM conversation_messages
            WHERE user_phone = $1 AND role = 'user' AND whatsapp_message_id IS NULL
            ORDER BY id DESC LIMIT 1`
        : `SELECT id FROM conversation_messages
            WHERE user_phone = $1 AND role = 'user' AND whatsapp_message_id = $2`,
      whatsappMessageId === undefined ? [phone] : [phone, whatsappMessageId],
    );
    return rows[0] ? Number(rows[0].id) : null;
  }

  async getMany(phone: string, ids: readonly number[]): Promise<HistoryMessage[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<MessageRow>(
      `SELECT ${COLUMNS} FROM conversation_messages WHERE user_phone = $1 AND id = ANY($2::bigint[]) ORDER BY id`,
      [phone, ids],
    );
    return rows.map(toMessage);
  }

  async delete(phone: string, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db.query(
      "DELETE FROM conversation_messages WHERE user_phone = $1 AND id = ANY($2::bigint[])",
      [phone, ids],
    );
    return result.rowCount ?? 0;
  }

  async deleteAll(phone: string): Promise<number> {
    const result = await this.db.query("DELETE FROM conversation_messages WHERE user_phone = $1", [phone]);
    return result.rowCount ?? 0;
  }
}
