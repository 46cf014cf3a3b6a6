import type pg from "pg";
import { erasedPhoneKey, phoneMentionPattern } from "../../utils/phone.js";
import { withTransaction, type Queryable } from "../transaction.js";

/**
 * Every place a user's data lives, by table and the column that holds their phone. Tables whose
 * rows reference `users` are emptied by the cascade as well; they are listed so the report counts
 * them and so nothing depends on a cascade someone might drop. Order: children before parents.
 * @internal
 */
export const USER_TABLES: readonly { table: string; column: string }[] = [
  // Households (docs/HOUSEHOLD.md): the person leaves theirs; invitations sent or received and
  // refusals either way go. A household left with one member ends (eraseUserData).
  { table: "household_invitations", column: "inviter_phone" },
  { table: "household_invitations", column: "invitee_phone" },
  { table: "household_members", column: "phone" },
  { table: "household_copy_offers", column: "phone" },
  { table: "household_list_changes", column: "recipient_phone" },
  { table: "household_list_changes", column: "actor_phone" },
  { table: "list_items", column: "user_phone" },
  { table: "lists", column: "user_phone" },
  { table: "task_completions", column: "user_phone" },
  { table: "tasks", column: "user_phone" },
  { table: "database_operations", column: "user_phone" },
  { table: "undo_journal", column: "user_phone" },
  { table: "reminder_deliveries", column: "user_phone" },
  { table: "calendar_events", column: "user_phone" },
  { table: "contacts", column: "user_phone" },
  { table: "google_link_nonces", column: "user_phone" },
  { table: "google_connections", column: "user_phone" },
  // A document first: its notes go with it (and its head note would take it along anyway).
  { table: "documents", column: "user_phone" },
  { table: "notes", column: "user_phone" },
  { table: "memories", column: "user_phone" },
  { table: "memory_episodes", column: "user_phone" },
  { table: "conversation_chunks", column: "user_phone" },
  { table: "memory_profiles", column: "user_phone" },
  { table: "conversation_messages", column: "user_phone" },
  { table: "conversation_windows", column: "user_phone" },
  { table: "llm_usage_daily", column: "user_phone" },
  { table: "inbox_messages", column: "phone" },
  { table: "outbound_messages", column: "phone" },
  { table: "inbox_phone_leases", column: "phone" },
  // The paused conversation (LangGraph's checkpointer): the thread id is the phone.
  { table: "checkpoint_writes", column: "thread_id" },
  { table: "checkpoint_blobs", column: "thread_id" },
  { table: "checkpoints", column: "thread_id" },
  { table: "users", column: "phone" },
];

/**
 * Where the person is named in rows that are someone else's: who added an item to another
 * member's shared list, who gave another member a task or reminder. The rows stay with their
 * owner (docs/HOUSEHOLD.md); the link to the person is cleared (`clear`: columns cleared with it).
 * @internal
 */
export const USER_REFERENCES: readonly { table: string; column: string; clear: readonly string[] }[] = [
  { table: "list_items", column: "added_by_phone", clear: [] },
  { table: "tasks", column: "assigned_by_phone", clear: ["household_id"] },
];

/**
 * The one exemption from erasure (docs/HOUSEHOLD.md): rows that protect the person and others, and
 * keep the limits, outlive it with the number replaced by its keyed hash (`erasedPhoneKey`, under
 * the service's secret, never reversible): refusals either way ("no more invitations/reminders"),
 * and the invitations a number sent or received in the last day. Lookups match the hash too.
 * @internal
 */
export const KEPT_UNDER_KEY: readonly { table: string; column: string }[] = [
  { table: "household_blocks", column: "phone" },
  { table: "household_blocks", column: "blocked_phone" },
  { table: "household_invitation_log", column: "inviter_phone" },
  { table: "household_invitation_log", column: "invitee_phone" },
];

/** The paused conversations (LangGraph's checkpointer), dropped whole when one mentions the person. */
const CHECKPOINT_TABLES = ["checkpoint_writes", "checkpoint_blobs", "checkpoints"] as const;

/** The columns cleared with a reference to the person (USER_REFERENCES), by the reference's column. */
const CLEARED_WITH = new Map(USER_REFERENCES.map((r) => [r.column, r.clear]));

/** What stands where the person's number was written in someone else's row. */
const ERASED = "[erased]";

/** Rows per table that hold the user's data (only tables that exist and have some). */
export type EraseReport = Record<string, number>;

async function existing(client: pg.PoolClient | pg.Pool): Promise<Set<string>> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()",
  );
  return new Set(rows.map((r) => r.name));
}

/** Counts the user's rows in every table, changing nothing (the dry run of a deletion request). */
export async function countUserData(pool: pg.Pool, phone: string): Promise<EraseReport> {
  const tables = await existing(pool);
  const report: EraseReport = {};
  const count = async (table: string, column: string) => {
    const { rows } = await pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${table} WHERE ${column} = $1`,
      [phone],
    );
    return Number(rows[0]?.n ?? 0);
  };
  for (const { table, column } of USER_REFERENCES) {
    const n = tables.has(table) ? await count(table, column) : 0;
    if (n > 0) report[`${table}.${column}`] = n;
  }
  for (const { table, column } of USER_TABLES) {
    const n = tables.has(table) ? await count(table, column) : 0;
    if (n > 0) report[table] = (report[table] ?? 0) + n;
  }
  for (const { table, column } of KEPT_UNDER_KEY) {
    const n = tables.has(table) ? await count(table, column) : 0;
    if (n > 0) report[`${table}.${column} (kept under a keyed hash)`] = n;
  }
  await forEachMention(pool, phone, (mention) => {
    report[`${mention.table}.${mention.column} (mentions)`] = mention.rows.length;
    return Promise.resolve();
  });
  return report;
}

/**
 * Erases everything Memo holds about one user, in one transaction: tasks, lists, reminders and
 * their deliveries, calendar events, notes, memories, the whole conversation, inbox and sent
 * records, LLM usage, a paused question, the Google connection (tokens; revoke them at Google
 * first, see docs/OPERATIONS.md), and the user row. Returns the rows deleted per table.
 */
export async function eraseUserData(pool: pg.Pool, phone: string): Promise<EraseReport> {
  return withTransaction(pool, async (client) => {
    const tables = await existing(client);
    const report: EraseReport = {};
    const left = tables.has("household_members")
      ? (
          await client.query<{ household_id: string }>(
            `SELECT household_id FROM household_members WHERE phone = $1`,
            [phone],
          )
        ).rows[0]?.household_id
      : undefined;
    for (const { table, column, clear } of USER_REFERENCES) {
      if (!tables.has(table)) continue;
      const sets = [column, ...clear].map((c) => `${c} = NULL`).join(", ");
      const result = await client.query(`UPDATE ${table} SET ${sets} WHERE ${column} = $1`, [phone]);
      if ((result.rowCount ?? 0) > 0) report[`${table}.${column}`] = result.rowCount ?? 0;
    }
    for (const { table, column } of USER_TABLES) {
      if (!tables.has(table)) continue;
      const result = await client.query(`DELETE FROM ${table} WHERE ${column} = $1`, [phone]);
      if ((result.rowCount ?? 0) > 0) report[table] = (report[table] ?? 0) + (result.rowCount ?? 0);
    }
    for (const { table, column } of KEPT_UNDER_KEY) {
      if (!tables.has(table)) continue;
      // A row already kept under the key (an earlier erasure of the same number) stands for it.
      const result = await client.query(`UPDATE ${table} SET ${column} = $2 WHERE ${column} = $1`, [
        phone,
        erasedPhoneKey(phone),
      ]);
      if ((result.rowCount ?? 0) > 0)
        report[`${table}.${column} (kept under a keyed hash)`] = result.rowCount ?? 0;
    }
    await forEachMention(client, phone, (mention) => {
      report[`${mention.table}.${mention.column} (mentions)`] = mention.rows.length;
      return eraseMention(client, phone, mention);
    });
    // A household the person was a member of and leaves with one member ends (as when one leaves),
    // its open invitations with it; one they were only invited to goes on.
    if (left) {
      const ended = await client.query(
        `DELETE FROM households h
          WHERE h.id = $1 AND (SELECT count(*) FROM household_members m WHERE m.household_id = h.id) < 2`,
        [left],
      );
      if ((ended.rowCount ?? 0) > 0) report.households = ended.rowCount ?? 0;
    }
    return report;
  });
}

/** Rows of one column that mention the person (their ctid, and the value as the column holds it). */
interface Mention {
  table: string;
  column: string;
  kind: "text" | "json" | "array" | "bytes";
  rows: { ctid: string; value: unknown }[];
}

/**
 * Visits, column by column, every row outside the person's own tables (deleted whole) that still
 * writes their number in any form the code or people use (`phoneMentionPattern`): someone else's
 * undo journal and operation ids, the delivery ledger's keys, a member's stored messages naming
 * them, a paused question. Every text, JSON and text-array column of every table is read, and the
 * checkpointer's bytes. Each column is read after the previous one was visited (a row's ctid
 * changes when it is updated).
 */
async function forEachMention(
  db: Queryable,
  phone: string,
  visit: (mention: Mention) => Promise<void>,
): Promise<void> {
  const { rows: columns } = await db.query<{ table: string; column: string; type: string; udt: string }>(
    `SELECT c.table_name AS table, c.column_name AS column, c.data_type AS type, c.udt_name AS udt
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
        AND c.data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'bytea')
      ORDER BY c.table_name, c.ordinal_position`,
  );
  // The person's own rows (deleted whole by the erasure), and the columns it clears or keys itself.
  const owners = new Map<string, string[]>();
  for (const { table, column } of USER_TABLES) owners.set(table, [...(owners.get(table) ?? []), column]);
  const handled = new Set([...USER_REFERENCES, ...KEPT_UNDER_KEY].map((t) => `${t.table}.${t.column}`));
  const pattern = phoneMentionPattern(phone);
  for (const { table, column, type, udt } of columns) {
    const checkpoint = CHECKPOINT_TABLES.includes(table as never);
    if (handled.has(`${table}.${column}`)) continue;
    if (type === "ARRAY" && udt !== "_text" && udt !== "_varchar") continue;
    // Bytes are read only where they are serialized state (encrypted tokens and keys hold no number).
    if (type === "bytea" && !checkpoint) continue;
    const kind: Mention["kind"] =
      type === "bytea" ? "bytes" : type === "ARRAY" ? "array" : type.startsWith("json") ? "json" : "text";
    const read = kind === "bytes" ? `encode("${column}", 'escape')` : `"${column}"::text`;
    const others = (owners.get(table) ?? []).map((owner) => ` AND "${owner}" IS DISTINCT FROM $2`).join("");
    const { rows } = await db.query<{ ctid: string; value: unknown }>(
      `SELECT ctid::text AS ctid, "${column}" AS value FROM "${table}" WHERE ${read} ~ $1${others}`,
      others ? [pattern, phone] : [pattern],
    );
    if (rows.length > 0) await visit({ table, column, kind, rows });
  }
}

/**
 * Takes the person's number out of rows that are someone else's: a field that held only their
 * number (`added_by_phone` in an undo journal's copy of a row) becomes null, so no later undo can
 * write it back; anywhere else the number becomes "[erased]". A paused question that mentions
 * them is dropped whole (its bytes cannot be edited).
 */
async function eraseMention(db: Queryable, phone: string, mention: Mention): Promise<void> {
  const { table, column, kind } = mention;
  if (CHECKPOINT_TABLES.includes(table as never)) {
    const threads = await db.query<{ thread_id: string }>(
      `SELECT DISTINCT thread_id FROM "${table}" WHERE ctid = ANY($1::tid[])`,
      [mention.rows.map((r) => r.ctid)],
    );
    for (const { thread_id } of threads.rows)
      for (const checkpoints of CHECKPOINT_TABLES)
        await db.query(`DELETE FROM ${checkpoints} WHERE thread_id = $1`, [thread_id]);
    return;
  }
  const pattern = new RegExp(phoneMentionPattern(phone), "g");
  const only = new RegExp(`^(?:${phoneMentionPattern(phone)})$`);
  const text = (value: string) => value.replace(pattern, ERASED);
  const json = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) return value.map(json);
    if (value && typeof value === "object") {
      const entries = Object.entries(value);
      const named = entries.filter(([, inner]) => typeof inner === "string" && only.test(inner));
      // A copy of a row (an undo journal's image) that named the person: the field goes, with the
      // columns cleared with it in the live row (a task given is no longer the household's).
      const cleared = new Set(named.flatMap(([key]) => [key, ...(CLEARED_WITH.get(key) ?? [])]));
      return Object.fromEntries(
        entries.map(([key, inner]) => [text(key), cleared.has(key) ? null : json(inner)]),
      );
    }
    return value;
  };
  for (const { ctid, value } of mention.rows) {
    const erased =
      kind === "json"
        ? JSON.stringify(json(value))
        : kind === "array"
          ? (value as string[]).map(text)
          : text(String(value));
    await db.query(`UPDATE "${table}" SET "${column}" = $1 WHERE ctid = $2::tid`, [erased, ctid]);
  }
}
