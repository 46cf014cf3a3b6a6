import type { ProactiveContent } from "../../types/proactive.js";
import type { Queryable } from "../transaction.js";

type DeliveryKind =
  "reminder" | "nudge" | "recurring" | "overdue" | "away" | "digest" | "household" | "weekly";
type DeliveryStatus = "sending" | "sent" | "failed" | "undeliverable" | "covered" | "skipped";

/** One occurrence to record: sent on its own, gathered into another message, or skipped. */
export interface NewDelivery {
  key: string;
  phone: string;
  kind: DeliveryKind;
  taskId: string | null;
  occurrenceAt: number;
  content: ProactiveContent;
  sendAfter: number;
  /** sending (default), or covered/skipped for rows that are never sent themselves. */
  status?: "sending" | "covered" | "skipped";
  /** The away message a covered row is part of. */
  partOf?: string;
  error?: string;
}

/** A claimed delivery, ready to be sent by the holder of its claim token. */
export interface Delivery {
  key: string;
  phone: string;
  kind: DeliveryKind;
  taskId: string | null;
  occurrenceAt: number;
  content: ProactiveContent;
  sendAfter: number;
  claimToken: string;
  attempts: number;
  status: DeliveryStatus;
  via: "text" | "template" | null;
  waMessageId: string | null;
  error: string | null;
  sentAt: number | null;
  templateRetried: boolean;
}

interface DeliveryRow {
  key: string;
  user_phone: string;
  kind: DeliveryKind;
  task_id: string | null;
  occurrence_at: Date;
  content: ProactiveContent;
  send_after: Date;
  claim_token: string | null;
  attempts: number;
  status: DeliveryStatus;
  via: "text" | "template" | null;
  wa_message_id: string | null;
  error: string | null;
  sent_at: Date | null;
  template_retried: boolean;
}

function toDelivery(row: DeliveryRow): Delivery {
  return {
    key: row.key,
    phone: row.user_phone,
    kind: row.kind,
    taskId: row.task_id,
    occurrenceAt: row.occurrence_at.getTime(),
    content: row.content,
    sendAfter: row.send_after.getTime(),
    claimToken: row.claim_token ?? "",
    attempts: row.attempts,
    status: row.status,
    via: row.via,
    waMessageId: row.wa_message_id,
    error: row.error,
    sentAt: row.sent_at?.getTime() ?? null,
    templateRetried: row.template_retried,
  };
}

/** Longest error text kept on a row. */
const ERROR_LIMIT = 500;

/**
 * The record of every proactive message (D8): one row per occurrence, keyed so that the same
 * occurrence can never be inserted twice; only the inserter sends it, under a claim token that a
 * crashed instance's successor takes over once the claim lease has passed.
 */
export class DeliveryLedger {
  constructor(private readonly db: Queryable) {}

  /**
   * Inserts the rows; returns the keys this call inserted (a key already present belongs to
   * whoever inserted it first, and is not sent again). Rows to send get `claimToken`.
   */
  async insert(rows: readonly NewDelivery[], claimToken: string, nowMs: number): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const records = rows.map((r) => ({
      key: r.key,
      user_phone: r.phone,
      kind: r.kind,
      task_id: r.taskId,
      occurrence_at: new Date(r.occurrenceAt).toISOString(),
      content: r.content,
      send_after: new Date(r.sendAfter).toISOString(),
      status: r.status ?? "sending",
      part_of: r.partOf ?? null,
      error: r.error ?? null,
    }));
    const { rows: inserted } = await this.db.query<{ key: string }>(
      `INSERT INTO reminder_deliveries
         (key, user_phone, kind, task_id, occurrence_at, content, send_after, status, part_of, error,
          claim_token, claimed_at, created_at)
       SELECT r.key, r.user_phone, r.kind, r.task_id, r.occurrence_at, r.content, r.send_after, r.status,
              r.part_of, r.error,
              CASE WHEN r.status = 'sending' THEN $2::uuid END, $3::timestamptz, $3::timestamptz
         FROM jsonb_to_recordset($1::jsonb) AS r(key text, user_phone text, kind text, task_id uuid,
              occurrence_at timestamptz, content jsonb, send_after timestamptz, status text,
              part_of text, error text)
       ON CONFLICT (key) DO NOTHING
       RETURNING key`,
      [JSON.stringify(records), claimToken, new Date(nowMs)],
    );
    return new Set(inserted.map((r) => r.key));
  }

  /**
   * Takes over deliveries left in `sending` by a claim older than `leaseMs` (a crashed or stuck
   * instance), oldest first; they are then this token's to send.
   */
  async reclaim(claimToken: string, nowMs: number, leaseMs: number, limit: number): Promise<Delivery[]> {
    const { rows } = await this.db.query<DeliveryRow>(
      `UPDATE reminder_deliveries SET claim_token = $1, claimed_at = $2
        WHERE key IN (SELECT key FROM reminder_deliveries
                       WHERE status = 'sending' AND claimed_at <= $3
                       ORDER BY send_after LIMIT $4 FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [claimToken, new Date(nowMs), new Date(nowMs - leaseMs), limit],
    );
    return rows.map(toDelivery);
  }

  /**
   * Renews the claim right before a send attempt and counts the attempt; null when the claim is
   * no longer this token's (another instance took it over), so nothing is sent twice.
   */
  async startAttempt(
    key: string,
    claimToken: string,
    nowMs: number,
  ): Promise<{ attempts: number; lastInboundAt: number | null; taskGone: boolean; isUser: boolean } | null> {
    const { rows } = await this.db.query<{
      attempts: number;
      last_inbound_at: Date | null;
      task_gone: boolean;
      is_user: boolean;
    }>(
      `UPDATE reminder_deliveries d SET claimed_at = $3, attempts = d.attempts + 1
        WHERE d.key = $1 AND d.claim_token = $2 AND d.status = 'sending'
        RETURNING d.attempts,
          (SELECT u.last_inbound_at FROM users u WHERE u.phone = d.user_phone),
          EXISTS (SELECT 1 FROM users u WHERE u.phone = d.user_phone) AS is_user,
          (d.task_id IS NOT NULL AND NOT EXISTS
            (SELECT 1 FROM tasks t WHERE t.id = d.task_id AND NOT t.completed)) AS task_gone`,
      [key, claimToken, new Date(nowMs)],
    );
    const row = rows[0];
    return row
      ? {
          attempts: row.attempts,
          lastInboundAt: row.last_inbound_at?.getTime() ?? null,
          // Done or deleted since it was claimed (a deferred ring after a "Done" tap): not sent.
          taskGone: row.task_gone,
          // Not a user (a person invited to a household): no conversation to keep it in.
          isUser: row.is_user,
        }
      : null;
  }

  /** The Graph API accepted it: one statement, so the window in which a crash resends is one round trip. */
  async markSent(
    key: string,
    claimToken: string,
    via: "text" | "template",
    waMessageId: string,
    nowMs: number,
  ): Promise<void> {
    await this.db.query(
      `UPDATE reminder_deliveries
          SET status = 'sent', via = $3, wa_message_id = $4, sent_at = $5, error = NULL
        WHERE key = $1 AND claim_token = $2`,
      [key, claimToken, via, waMessageId, new Date(nowMs)],
    );
  }

  /** Ends a delivery that will not be sent: failed or undeliverable, with the reason. */
  async finish(
    key: string,
    claimToken: string,
    status: "failed" | "undeliverable" | "skipped",
    error: string,
  ): Promise<void> {
    await this.db.query(
      `UPDATE reminder_deliveries SET status = $3, error = $4
        WHERE key = $1 AND claim_token = $2 AND status = 'sending'`,
      [key, claimToken, status, error.slice(0, ERROR_LIMIT)],
    );
  }

  /** Gives a claimed delivery back unsent (shutdown): the next pass of any instance takes it over at once. */
  async release(key: string, claimToken: string): Promise<void> {
    await this.db.query(
      `UPDATE reminder_deliveries SET claimed_at = 'epoch'
        WHERE key = $1 AND claim_token = $2 AND status = 'sending'`,
      [key, claimToken],
    );
  }

  /** Leaves a delivery claimed but due for another attempt once the lease runs out at `retryAtMs`. */
  async retryLater(key: string, claimToken: string, error: string, leaseMs: number, retryAtMs: number) {
    await this.db.query(
      `UPDATE reminder_deliveries SET error = $3, claimed_at = $4
        WHERE key = $1 AND claim_token = $2 AND status = 'sending'`,
      [key, claimToken, error.slice(0, ERROR_LIMIT), new Date(retryAtMs - leaseMs)],
    );
  }

  /**
   * Queues a free-form delivery that WhatsApp refused as outside the 24-hour window (131047) to
   * go once more, as the template, on the next pass: matched by the refused message's id (a
   * status webhook, from any instance) or by its claim (the refusal came at send time). Once per
   * delivery: returns its key, or null when there is none to queue or it was queued before.
   */
  async requeueAsTemplate(
    match: { waMessageId: string } | { key: string; claimToken: string },
    reason: string,
  ): Promise<string | null> {
    const where =
      "waMessageId" in match
        ? "wa_message_id = $2 AND via = 'text' AND status = 'sent'"
        : "key = $2 AND claim_token = $3 AND status = 'sending'";
    const params = "waMessageId" in match ? [match.waMessageId] : [match.key, match.claimToken];
    const { rows } = await this.db.query<{ key: string }>(
      `UPDATE reminder_deliveries
          SET status = 'sending', template_retried = true, claim_token = NULL, claimed_at = 'epoch',
              attempts = 0, error = $1, content = content || '{"viaTemplate": true}'::jsonb
        WHERE ${where} AND NOT template_retried
        RETURNING key`,
      [reason.slice(0, ERROR_LIMIT), ...params],
    );
    return rows[0]?.key ?? null;
  }

  /**
   * Hands a claimed delivery back until its send slot comes (`sendAfterMs`): any pass from then
   * on takes it over, so a pass never waits long for one user's later messages.
   */
  async defer(
    key: string,
    claimToken: string,
    sendAfterMs: number,
    leaseMs: number,
    userGapMs: number,
  ): Promise<void> {
    const { rows } = await this.db.query<{ user_phone: string }>(
      `UPDATE reminder_deliveries SET send_after = $3, claimed_at = $4
        WHERE key = $1 AND claim_token = $2 AND status = 'sending'
        RETURNING user_phone`,
      [key, claimToken, new Date(sendAfterMs), new Date(sendAfterMs - leaseMs)],
    );
    // The user's next free slot moves past it, so no instance gives them a message too close.
    if (rows[0]) {
      await this.db.query(
        `UPDATE users SET next_proactive_at = greatest(next_proactive_at, $2) WHERE phone = $1`,
        [rows[0].user_phone, new Date(sendAfterMs + userGapMs)],
      );
    }
  }

  /** A failed status for a message that was not a free-form reminder (a template): recorded. */
  async markFailedByMessage(waMessageId: string, error: string): Promise<void> {
    await this.db.query(
      `UPDATE reminder_deliveries SET status = 'failed', error = $2
        WHERE wa_message_id = $1 AND status = 'sent'`,
      [waMessageId, error.slice(0, ERROR_LIMIT)],
    );
  }

  /**
   * The task of the user's latest ring (reminder, nudge, repeating, overdue) sent since `sinceMs` (or of
   * the one with this WhatsApp id, whenever it went), for a typed "done"; null when none.
   */
  async lastRungTask(
    phone: string,
    match: { sinceMs: number; waMessageId?: string },
  ): Promise<string | null> {
    const { rows } = await this.db.query<{ task_id: string }>(
      `SELECT task_id FROM reminder_deliveries
        WHERE user_phone = $1 AND status = 'sent' AND task_id IS NOT NULL
          AND kind IN ('reminder', 'nudge', 'overdue', 'recurring')
          AND (CASE WHEN $3::text IS NULL THEN sent_at >= $2 ELSE wa_message_id = $3 END)
        ORDER BY sent_at DESC LIMIT 1`,
      [phone, new Date(match.sinceMs), match.waMessageId ?? null],
    );
    return rows[0]?.task_id ?? null;
  }

  async get(key: string): Promise<Delivery | null> {
    const { rows } = await this.db.query<DeliveryRow>("SELECT * FROM reminder_deliveries WHERE key = $1", [
      key,
    ]);
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  /** A user's deliveries, oldest occurrence first (tests, support). */
  async listFor(phone: string): Promise<Delivery[]> {
    const { rows } = await this.db.query<DeliveryRow>(
      "SELECT * FROM reminder_deliveries WHERE user_phone = $1 ORDER BY occurrence_at, key",
      [phone],
    );
    return rows.map(toDelivery);
  }

  /** Drops finished rows created before `beforeMs`; returns how many. */
  async prune(beforeMs: number): Promise<number> {
    const { rowCount } = await this.db.query(
      "DELETE FROM reminder_deliveries WHERE created_at < $1 AND status <> 'sending'",
      [new Date(beforeMs)],
    );
    return rowCount ?? 0;
  }
}
