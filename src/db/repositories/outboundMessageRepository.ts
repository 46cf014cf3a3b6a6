import { prepared } from "../prepared.js";
import { withoutNul } from "../text.js";
import type { Queryable } from "../transaction.js";
import type { DeliveryStatus } from "../../types/whatsapp.js";

type OutboundStatus = "accepted" | DeliveryStatus;

/** A message Memo sent, as the Graph API accepted it. */
export interface NewOutboundMessage {
  waMessageId: string;
  phone: string;
  /** The inbound message it answers; absent for messages Memo starts. */
  inReplyTo?: string;
  kind: string;
  body: string;
  /**
   * The `localId` of the conversation-window message it sends (its first part only): the next read
   * of the window gives that message this WhatsApp id (see `PgConversationStore`).
   */
  localId?: string;
}

export interface OutboundMessage {
  waMessageId: string;
  phone: string;
  inReplyTo: string | null;
  kind: string | null;
  body: string | null;
  status: OutboundStatus;
  errorCode: number | null;
  errorTitle: string | null;
}

export interface StatusUpdate {
  waMessageId: string;
  phone: string;
  status: DeliveryStatus;
  at: Date;
  errorCode?: number;
  errorTitle?: string;
}

/** The record of what Memo sent and how far it got. */
export interface OutboundMessageRepository {
  record(message: NewOutboundMessage): Promise<void>;
  /** Records several in one statement (none: no statement). */
  recordMany(messages: readonly NewOutboundMessage[]): Promise<void>;
  /** Moves a message's status forward (never back: a late "delivered" after "read" is ignored); "failed" always wins. */
  applyStatus(update: StatusUpdate): Promise<void>;
  /** Whether anything was sent in answer to this inbound message (a retried turn must not answer twice). */
  hasReplyTo(inboundId: string): Promise<boolean>;
  get(waMessageId: string): Promise<OutboundMessage | null>;
  /** Erases the text of everything sent to the phone, keeping the rows (delivery status); returns how many. */
  eraseBodies(phone: string): Promise<number>;
}

/** Rank of a status in SQL, so updates only move forward. */
const RANK = `CASE %s WHEN 'accepted' THEN 0 WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 ELSE 4 END`;
const rank = (expr: string) => RANK.replace("%s", expr);

/**
 * The upsert that records sent messages, its six array parameters numbered from `first` (see
 * `recordParams`): also a part of the inbox's `advance`, which records a turn's last reply with the
 * end of its message. A status webhook can beat it (Meta answers fast); then only the content is
 * filled in.
 */
export function recordSql(first: number): string {
  const p = (i: number) => `$${first + i}`;
  return `INSERT INTO outbound_messages (wa_message_id, phone, in_reply_to, kind, body, local_id)
    SELECT * FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[])
    ON CONFLICT (wa_message_id) DO UPDATE
      SET in_reply_to = EXCLUDED.in_reply_to, kind = EXCLUDED.kind, body = EXCLUDED.body,
          local_id = EXCLUDED.local_id`;
}

/** The six parameters of `recordSql`, one array per column. */
export function recordParams(messages: readonly NewOutboundMessage[]): unknown[] {
  return [
    messages.map((m) => m.waMessageId),
    messages.map((m) => m.phone),
    messages.map((m) => m.inReplyTo ?? null),
    messages.map((m) => m.kind),
    // Postgres text cannot hold NUL; a reply quoting one must still be recorded.
    messages.map((m) => withoutNul(m.body)),
    messages.map((m) => m.localId ?? null),
  ];
}

export class PgOutboundMessageRepository implements OutboundMessageRepository {
  constructor(private readonly db: Queryable) {}

  async record(message: NewOutboundMessage): Promise<void> {
    await this.recordMany([message]);
  }

  async recordMany(messages: readonly NewOutboundMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.db.query(prepared(recordSql(1), recordParams(messages)));
  }

  async applyStatus(update: StatusUpdate): Promise<void> {
    await this.db.query(
      `INSERT INTO outbound_messages AS o (wa_message_id, phone, status, error_code, error_title, status_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (wa_message_id) DO UPDATE
         SET status = EXCLUDED.status,
             error_code = COALESCE(EXCLUDED.error_code, o.error_code),
             error_title = COALESCE(EXCLUDED.error_title, o.error_title),
             status_at = EXCLUDED.status_at
         WHERE ${rank("EXCLUDED.status")} > ${rank("o.status")}`,
      [
        update.waMessageId,
        update.phone,
        update.status,
        update.errorCode ?? null,
        update.errorTitle?.slice(0, 500) ?? null,
        update.at,
      ],
    );
  }

  async hasReplyTo(inboundId: string): Promise<boolean> {
    const { rows } = await this.db.query("SELECT 1 FROM outbound_messages WHERE in_reply_to = $1 LIMIT 1", [
      inboundId,
    ]);
    return rows.length > 0;
  }

  async get(waMessageId: string): Promise<OutboundMessage | null> {
    const { rows } = await this.db.query<{
      wa_message_id: string;
      phone: string;
      in_reply_to: string | null;
      kind: string | null;
      body: string | null;
      status: OutboundStatus;
      error_code: number | null;
      error_title: string | null;
    }>("SELECT * FROM outbound_messages WHERE wa_message_id = $1", [waMessageId]);
    const row = rows[0];
    if (!row) return null;
    return {
      waMessageId: row.wa_message_id,
      phone: row.phone,
      inReplyTo: row.in_reply_to,
      kind: row.kind,
      body: row.body,
      status: row.status,
      errorCode: row.error_code,
      errorTitle: row.error_title,
    };
  }

  async eraseBodies(phone: string): Promise<number> {
    const { rowCount } = await this.db.query(
      "UPDATE outbound_messages SET body = NULL WHERE phone = $1 AND body IS NOT NULL",
      [phone],
    );
    return rowCount ?? 0;
  }
}
