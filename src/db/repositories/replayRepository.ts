import type pg from "pg";
import type { Queryable } from "../transaction.js";

/**
 * Reads everything a replay needs inside one read-only transaction: a consistent snapshot, and a
 * database that refuses any write (Postgres raises "cannot execute … in a read-only transaction").
 */
export async function readOnlySnapshot<T>(
  pool: pg.Pool,
  read: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  // A dropped connection fails the read in progress; unheard, it would end the process.
  client.on("error", () => undefined);
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    return await read(client);
  } finally {
    await client.query("ROLLBACK").catch(() => undefined);
    client.release();
  }
}

async function tableExists(db: Queryable, table: string): Promise<boolean> {
  const { rows } = await db.query(
    "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1",
    [table],
  );
  return rows.length > 0;
}

/** Whether Memo knows this (normalized) phone. */
export async function userExists(db: Queryable, phone: string): Promise<boolean> {
  if (!(await tableExists(db, "users"))) return false;
  const { rows } = await db.query("SELECT 1 FROM users WHERE phone = $1", [phone]);
  return rows.length > 0;
}

/** The user's time zone (null: Memo does not know the phone). */
export async function userTimeZone(db: Queryable, phone: string): Promise<string | null> {
  const { rows } = await db.query<{ time_zone: string }>("SELECT time_zone FROM users WHERE phone = $1", [
    phone,
  ]);
  return rows[0]?.time_zone ?? null;
}

/** An inbox row as a replay reads it. */
export interface StoredInboxRow {
  id: string;
  type: string;
  sent_at: Date;
  payload: unknown;
}

/** A conversation message as a replay reads it. */
export interface StoredHistoryRow {
  id: string;
  role: string;
  content: string;
  whatsapp_message_id: string | null;
  created_at: Date;
}

/** A stored reply: the message it answered and its text (null once erased). */
export interface StoredReplyRow {
  in_reply_to: string;
  body: string | null;
}

/**
 * What the source holds of the user's messages: the inbox rows sent from `from` on (oldest first,
 * reactions and messages too old to have been answered left out), the whole conversation (by id),
 * and the replies sent. A table the source does not have (a migration behind) gives none.
 */
export async function storedMessages(
  db: Queryable,
  phone: string,
  from: Date,
): Promise<{ inbox: StoredInboxRow[]; history: StoredHistoryRow[]; sent: StoredReplyRow[] }> {
  const inbox = (await tableExists(db, "inbox_messages"))
    ? (
        await db.query<StoredInboxRow>(
          `SELECT wa_message_id AS id, type, sent_at, payload FROM inbox_messages
            WHERE phone = $1 AND sent_at >= $2 AND status NOT IN ('recorded', 'expired')
            ORDER BY sent_at, seq`,
          [phone, from],
        )
      ).rows
    : [];
  const history = (await tableExists(db, "conversation_messages"))
    ? (
        await db.query<StoredHistoryRow>(
          `SELECT id::text AS id, role, content, whatsapp_message_id, created_at FROM conversation_messages
            WHERE user_phone = $1 ORDER BY id`,
          [phone],
        )
      ).rows
    : [];
  const sent = (await tableExists(db, "outbound_messages"))
    ? (
        await db.query<StoredReplyRow>(
          `SELECT in_reply_to, body FROM outbound_messages
            WHERE phone = $1 AND in_reply_to IS NOT NULL ORDER BY created_at, wa_message_id`,
          [phone],
        )
      ).rows
    : [];
  return { inbox, history, sent };
}

/** The user's last `count` user and assistant messages of the conversation, newest first. */
export async function latestConversation(
  db: Queryable,
  phone: string,
  count: number,
): Promise<{ role: "user" | "assistant"; content: string; at: Date; wa: string | null }[]> {
  const { rows } = await db.query<{
    role: "user" | "assistant";
    content: string;
    at: Date;
    wa: string | null;
  }>(
    `SELECT role, content, created_at AS at, whatsapp_message_id AS wa FROM conversation_messages
      WHERE user_phone = $1 AND role IN ('user', 'assistant') ORDER BY id DESC LIMIT $2`,
    [phone, count],
  );
  return rows;
}

/**
 * What a replay copies of one user, parents before children, and what it leaves behind:
 * - the user row, with Google switched off (a replay never calls Google with the user's tokens);
 * - tasks, lists and their items, calendar events, notes, remembered facts and the summary, and
 *   the e-mail addresses the user gave (contacts: "meeting with Dana" finds the same address);
 * - the conversation before the replay starts (the window is rebuilt from it, see `windowFrom`).
 * Not copied: the inbox and sent records, reminder deliveries, the operation ledger (a replayed
 * turn must run its operations again), Google tokens, the day's LLM spend, the stored window
 * (it holds messages from after the start) and paused questions.
 *
 * The database keeps no history of tasks or notes, so "the user's data at the start" is
 * approximated: rows created at or after the start are left out, later edits to older rows stay.
 */
const COPIED_TABLES: readonly { table: string; column: string; before?: "created_at" }[] = [
  { table: "users", column: "phone" },
  { table: "lists", column: "user_phone", before: "created_at" },
  { table: "list_items", column: "user_phone", before: "created_at" },
  { table: "tasks", column: "user_phone", before: "created_at" },
  { table: "calendar_events", column: "user_phone", before: "created_at" },
  { table: "contacts", column: "user_phone" },
  { table: "conversation_messages", column: "user_phone", before: "created_at" },
  { table: "memory_profiles", column: "user_phone" },
  { table: "memories", column: "user_phone", before: "created_at" },
  { table: "notes", column: "user_phone", before: "created_at" },
];

/** Rows copied per table. */
export type CopyReport = Record<string, number>;

interface Column {
  name: string;
  /** GENERATED ALWAYS AS (…) STORED: computed by the server, never inserted. */
  generated: boolean;
  /** GENERATED … AS IDENTITY: inserted as is, then the sequence moves past it. */
  identity: boolean;
}

async function columnsOf(db: Queryable, table: string): Promise<Column[]> {
  const { rows } = await db.query<{ name: string; generated: string; identity: string }>(
    `SELECT column_name AS name, is_generated AS generated, is_identity AS identity
       FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1
      ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => ({
    name: r.name,
    generated: r.generated === "ALWAYS",
    identity: r.identity === "YES",
  }));
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Copies one user's data from `source` (only read) into `target` (a scratch database with every
 * migration applied), leaving out rows created at or after `start`. Columns are matched by name,
 * so a source a migration behind still copies; each row goes through `jsonb_populate_record`, so
 * every type (jsonb, arrays, vectors, times) arrives as the target declares it.
 */
export async function copyUserData(
  source: Queryable,
  target: pg.Pool,
  phone: string,
  start: Date,
): Promise<CopyReport> {
  const report: CopyReport = {};
  for (const { table, column, before } of COPIED_TABLES) {
    const sourceColumns = new Set((await columnsOf(source, table)).map((c) => c.name));
    if (sourceColumns.size === 0) continue;
    const targetColumns = (await columnsOf(target, table)).filter(
      (c) => !c.generated && sourceColumns.has(c.name),
    );
    const { rows } = await source.query<{ row: Record<string, unknown> }>(
      `SELECT to_jsonb(t) AS row FROM ${quote(table)} t WHERE ${quote(column)} = $1
       ${before && sourceColumns.has(before) ? `AND ${quote(before)} < $2` : ""}`,
      before && sourceColumns.has(before) ? [phone, start] : [phone],
    );
    const names = targetColumns.map((c) => quote(c.name)).join(", ");
    for (const { row } of rows) {
      if (table === "users") row.google_connected = false;
      await target.query(
        `INSERT INTO ${quote(table)} (${names}) OVERRIDING SYSTEM VALUE
         SELECT ${names} FROM jsonb_populate_record(NULL::${quote(table)}, $1::jsonb)`,
        [JSON.stringify(row)],
      );
    }
    // New rows (the replayed turns') are numbered after the copied ones.
    for (const identity of targetColumns.filter((c) => c.identity)) {
      await target.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST((SELECT max(${quote(identity.name)}) FROM ${quote(table)}), 1))`,
        [table, identity.name],
      );
    }
    if (rows.length > 0) report[table] = rows.length;
  }
  return report;
}
