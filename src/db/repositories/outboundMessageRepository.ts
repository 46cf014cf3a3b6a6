import type { Queryable } from "../transaction.js";
import type { DeliveryStatus } from "../../types/whatsapp.js";

export type OutboundStatus = "accepted" | DeliveryStatus;

/** A message Memo sent, as the Graph API accepted it. */
export interface NewOutboundMessage {
  waMessageId: string;
  phone: string;
  /** The inbound message it answers; absent for messages Memo starts. */
  inReplyTo?: string;
  kind: string;
  body: string;
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

export class PgOutboundMessageRepository implements OutboundMessageRepository {
  constructor(private readonly db: Queryable) {}

  async record(message: NewOutboundMessage): Promise<void> {
    // A status webhook can beat this insert (Meta answers fast); then only the content is filled in.
    await this.db.query(
      `INSERT INTO outbound_messages (wa_message_id, phone, in_reply_to, kind, body)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (wa_message_id) DO UPDATE
         SET in_reply_to = EXCLUDED.in_reply_to, kind = EXCLUDED.kind, body = EXCLUDED.body`,
      [message.waMessageId, message.phone, message.inReplyTo ?? null, message.kind, message.body],
    );
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
