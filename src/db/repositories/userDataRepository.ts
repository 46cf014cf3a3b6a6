import type pg from "pg";
import { withTransaction } from "../transaction.js";

/**
 * Every place a user's data lives, by table and the column that holds their phone. Tables whose
 * rows reference `users` are emptied by the cascade as well; they are listed so the report counts
 * them and so nothing depends on a cascade someone might drop. Order: children before parents.
 */
export const USER_TABLES: readonly { table: string; column: string }[] = [
  // Households (docs/HOUSEHOLD.md): the person leaves theirs; invitations sent or received and
  // refusals either way go. A household left with one member ends (eraseUserData).
  { table: "household_invitations", column: "inviter_phone" },
  { table: "household_invitations", column: "invitee_phone" },
  { table: "household_blocks", column: "phone" },
  { table: "household_blocks", column: "blocked_phone" },
  { table: "household_members", column: "phone" },
  { table: "household_copy_offers", column: "phone" },
  { table: "household_list_changes", column: "recipient_phone" },
  { table: "household_list_changes", column: "actor_phone" },
  { table: "list_items", column: "user_phone" },
  { table: "lists", column: "user_phone" },
  { table: "tasks", column: "user_phone" },
  { table: "database_operations", column: "user_phone" },
  { table: "undo_journal", column: "user_phone" },
  { table: "reminder_deliveries", column: "user_phone" },
  { table: "calendar_events", column: "user_phone" },
  { table: "google_link_nonces", column: "user_phone" },
  { table: "google_connections", column: "user_phone" },
  { table: "notes", column: "user_phone" },
  { table: "memories", column: "user_phone" },
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
 */
export const USER_REFERENCES: readonly { table: string; column: string; clear: readonly string[] }[] = [
  { table: "list_items", column: "added_by_phone", clear: [] },
  { table: "tasks", column: "assigned_by_phone", clear: ["household_id"] },
];

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
    // A household the person leaves with one member is no household any more.
    if (tables.has("households")) {
      const ended = await client.query(
        `DELETE FROM households h
          WHERE (SELECT count(*) FROM household_members m WHERE m.household_id = h.id) < 2
            AND NOT EXISTS (SELECT 1 FROM household_invitations i
                             WHERE i.household_id = h.id AND i.status = 'pending')`,
      );
      if ((ended.rowCount ?? 0) > 0) report.households = ended.rowCount ?? 0;
    }
    return report;
  });
}
