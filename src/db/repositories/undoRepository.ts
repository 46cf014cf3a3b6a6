import type { Queryable } from "../transaction.js";

/** The tables whose rows an undo can put back: each has a uuid `id` and its owner's `user_phone`. */
export const UNDOABLE_TABLES = ["tasks", "lists", "list_items", "notes", "calendar_events"] as const;
export type UndoableTable = (typeof UNDOABLE_TABLES)[number];

/** A table's rows to copy: those whose `column` is one of `values` (owner's rows only). */
export interface RowScope {
  table: UndoableTable;
  /** "id", "list_id" (a list's items), or "created_by_operation" (an operation id: the rows it created). */
  column: "id" | "list_id" | "created_by_operation";
  values: string[];
}

/** One row as it was, keyed by table and id. */
export interface RowCopy {
  table: UndoableTable;
  id: string;
  row: Record<string, unknown>;
}

/** One row a change touched: as it was before (null: created) and after (null: deleted). */
export interface RowImage {
  table: UndoableTable;
  id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** A journal entry, as undo reads it. */
export interface UndoEntry {
  id: string;
  operationId: string;
  /** The turn that made the change: one undo takes back all of a turn's entries. */
  turnId: string;
  description: Record<string, unknown>;
  images: RowImage[];
  external: unknown;
  /** The restore failed: the entry is spent and nothing was put back. */
  restoreFailed: boolean;
  /** The external part (Google Calendar) was put back, or the provider said it cannot be. */
  externalDone: boolean;
  createdAt: number;
  expiresAt: number;
  undoneAt: number | null;
  undoneBy: string | null;
}

interface EntryRow {
  id: string;
  operation_id: string;
  turn_id: string;
  description: Record<string, unknown>;
  images: RowImage[];
  external: unknown;
  restore_failed: boolean;
  external_done: boolean;
  created_at: Date;
  expires_at: Date;
  undone_at: Date | null;
  undone_by: string | null;
}

const entryOf = (row: EntryRow): UndoEntry => ({
  id: row.id,
  operationId: row.operation_id,
  turnId: row.turn_id,
  description: row.description,
  images: row.images,
  external: row.external,
  restoreFailed: row.restore_failed,
  externalDone: row.external_done,
  createdAt: row.created_at.getTime(),
  expiresAt: row.expires_at.getTime(),
  undoneAt: row.undone_at ? row.undone_at.getTime() : null,
  undoneBy: row.undone_by,
});

/** A change to journal: what it was, the rows it touched, and how long it can be taken back. */
export interface UndoRecord {
  operationId: string;
  /** The turn that made the change (default: the operation itself). */
  turnId?: string;
  description: Record<string, unknown>;
  images: RowImage[];
  external?: unknown;
  now: number;
  windowMs: number;
}

/**
 * The statement that journals `entry` (once per operation), its parameters numbered from `$first`:
 * run alone, or inside another statement (the operation ledger writes it with its own entry).
 */
export function undoInsert(
  phone: string,
  entry: UndoRecord,
  first: number,
): { sql: string; params: unknown[] } {
  const $ = (n: number) => `$${first + n - 1}`;
  return {
    sql: `INSERT INTO undo_journal (user_phone, operation_id, turn_id, description, images, external, created_at, expires_at)
       VALUES (${$(1)}, ${$(2)}, ${$(8)}, ${$(3)}::jsonb, ${$(4)}::jsonb, ${$(5)}::jsonb, ${$(6)}, ${$(7)})
       ON CONFLICT (user_phone, operation_id) DO NOTHING`,
    params: [
      phone,
      entry.operationId,
      JSON.stringify(entry.description),
      JSON.stringify(entry.images),
      entry.external === undefined ? null : JSON.stringify(entry.external),
      new Date(entry.now),
      new Date(entry.now + entry.windowMs),
      entry.turnId || entry.operationId,
    ],
  };
}

const SCOPE_COLUMNS = new Set<RowScope["column"]>(["id", "list_id", "created_by_operation"]);

function checkTable(table: string): asserts table is UndoableTable {
  // Table names are spliced into SQL: only the known ones pass.
  if (!(UNDOABLE_TABLES as readonly string[]).includes(table)) throw new Error(`not undoable: ${table}`);
}

/**
 * The undo journal (`undo_journal`) and the row copies it keeps: generic over the undoable tables,
 * so every capability records its changes the same way. Works on the pool or a transaction's client.
 */
export class PgUndoRepository {
  /** Per table, the columns a restore writes (generated ones are computed again) and the identity ones. */
  private static writable = new Map<
    string,
    { columns: string[]; identity: Set<string>; references: { column: string; table: string; key: string }[] }
  >();

  constructor(private readonly db: Queryable) {}

  /** The owner's rows in the scopes, whole, in scope order (a list before its items): one statement. */
  async copy(phone: string, scopes: RowScope[]): Promise<RowCopy[]> {
    const params: unknown[] = [phone];
    const parts: string[] = [];
    scopes.forEach((scope, index) => {
      checkTable(scope.table);
      if (!SCOPE_COLUMNS.has(scope.column)) throw new Error(`not a scope column: ${scope.column}`);
      if (scope.values.length === 0) return;
      params.push(scope.values);
      const values = `$${params.length}::text[]`;
      const match =
        scope.column === "created_by_operation"
          ? // An operation's own id, or one of its numbered parts ("<id>#0", "<id>#1"…); compared
            // whole, so a "_" or "%" in an id is never a wildcard.
            `(t.created_by_operation = ANY (${values}) OR split_part(t.created_by_operation, '#', 1) = ANY (${values}))`
          : `t.${scope.column}::text = ANY (${values})`;
      // list_items orders by position so a restore keeps the list's order.
      const order = scope.table === "list_items" ? "t.position, t.created_at" : "t.created_at";
      parts.push(
        `SELECT ${index} AS scope, '${scope.table}' AS tbl, row_number() OVER (ORDER BY ${order}) AS n, to_jsonb(t) AS row
           FROM ${scope.table} t WHERE t.user_phone = $1 AND ${match}`,
      );
    });
    if (parts.length === 0) return [];
    const { rows } = await this.db.query<{ tbl: UndoableTable; row: Record<string, unknown> }>(
      `${parts.join(" UNION ALL ")} ORDER BY scope, n`,
      params,
    );
    const copies: RowCopy[] = [];
    const seen = new Set<string>();
    for (const { tbl, row } of rows) {
      const id = String(row.id);
      if (seen.has(`${tbl}:${id}`)) continue;
      seen.add(`${tbl}:${id}`);
      copies.push({ table: tbl, id, row });
    }
    return copies;
  }

  /**
   * Records a change that can be taken back. Expired entries are dropped by the scheduler's due
   * pass (Housekeeping.purgeUndo) and at the user's next undo, never inside a change's transaction.
   */
  async record(phone: string, entry: UndoRecord): Promise<void> {
    const insert = undoInsert(phone, entry, 1);
    await this.db.query(insert.sql, insert.params);
  }

  /** Drops the user's entries that expired before `beforeMs` (the scheduler does it for everyone). */
  async purgeExpired(phone: string, beforeMs: number): Promise<void> {
    await this.db.query("DELETE FROM undo_journal WHERE user_phone = $1 AND expires_at < $2", [
      phone,
      new Date(beforeMs),
    ]);
  }

  /** Drops all the user's entries ("forget everything": no copy of what was forgotten stays). */
  async forgetAll(phone: string): Promise<void> {
    await this.db.query("DELETE FROM undo_journal WHERE user_phone = $1", [phone]);
  }

  /** The user's newest change not yet taken back (expired or not), or null. */
  /** The user's newest change, taken back or not, or null. */
  async latest(phone: string): Promise<UndoEntry | null> {
    const { rows } = await this.db.query<EntryRow>(
      `SELECT * FROM undo_journal WHERE user_phone = $1 ORDER BY seq DESC LIMIT 1`,
      [phone],
    );
    return rows[0] ? entryOf(rows[0]) : null;
  }

  async latestOpen(phone: string): Promise<UndoEntry | null> {
    const { rows } = await this.db.query<EntryRow>(
      `SELECT * FROM undo_journal WHERE user_phone = $1 AND undone_at IS NULL ORDER BY seq DESC LIMIT 1`,
      [phone],
    );
    return rows[0] ? entryOf(rows[0]) : null;
  }

  /** The open entries of one turn, newest first (the order undo puts them back in). */
  async openOfTurn(phone: string, turnId: string): Promise<UndoEntry[]> {
    return (await this.ofTurn(phone, turnId)).filter((entry) => entry.undoneAt === null);
  }

  /** All entries of one turn, newest first. */
  async ofTurn(phone: string, turnId: string): Promise<UndoEntry[]> {
    const { rows } = await this.db.query<EntryRow>(
      `SELECT * FROM undo_journal WHERE user_phone = $1 AND turn_id = $2 ORDER BY seq DESC`,
      [phone, turnId],
    );
    return rows.map(entryOf);
  }

  /** The entries a turn already took back (a re-run of that turn), newest first; empty when none. */
  async undoneBy(phone: string, operationId: string): Promise<UndoEntry[]> {
    const { rows } = await this.db.query<EntryRow>(
      "SELECT * FROM undo_journal WHERE user_phone = $1 AND undone_by = $2 ORDER BY seq DESC",
      [phone, operationId],
    );
    return rows.map(entryOf);
  }

  /** Marks entries whose restore failed as spent (taken back, nothing put back), so the next undo moves on. */
  async markFailed(phone: string, ids: string[], operationId: string, now: number): Promise<void> {
    await this.db.query(
      `UPDATE undo_journal SET undone_at = $3, undone_by = $4, restore_failed = true
        WHERE user_phone = $1 AND id = ANY ($2::uuid[]) AND undone_at IS NULL`,
      [phone, ids, new Date(now), operationId],
    );
  }

  /** Notes that the entry's external part was put back (or the provider said it cannot be). */
  async markExternalDone(phone: string, id: string): Promise<void> {
    await this.db.query("UPDATE undo_journal SET external_done = true WHERE user_phone = $1 AND id = $2", [
      phone,
      id,
    ]);
  }

  /** Marks the entry taken back; false when another undo already did (only one restores). */
  async markUndone(phone: string, id: string, operationId: string, now: number): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE undo_journal SET undone_at = $3, undone_by = $4
        WHERE user_phone = $1 AND id = $2 AND undone_at IS NULL`,
      [phone, id, new Date(now), operationId],
    );
    return (result.rowCount ?? 0) === 1;
  }

  /**
   * Puts the rows back as they were before the change: rows it created are deleted, the others
   * written whole with their ids (parents first, so a list exists before its items).
   */
  async restore(phone: string, images: RowImage[]): Promise<void> {
    for (const image of [...images].reverse()) {
      checkTable(image.table);
      if (image.before === null) {
        await this.db.query(`DELETE FROM ${image.table} WHERE user_phone = $1 AND id = $2`, [
          phone,
          image.id,
        ]);
      }
    }
    for (const image of images) {
      if (image.before === null) continue;
      if (image.before.user_phone !== phone) throw new Error("a copy of another user's row");
      const { columns, identity, references } = await this.writableColumns(image.table);
      // A row it pointed at that went meanwhile (a note's source message, pruned or forgotten):
      // the link is dropped, as ON DELETE SET NULL would have done, so the row itself comes back.
      const row = { ...image.before };
      for (const ref of references) {
        if (row[ref.column] === null || row[ref.column] === undefined) continue;
        const { rows } = await this.db.query(
          `SELECT 1 FROM "${ref.table}" WHERE "${ref.key}"::text = $1::text LIMIT 1`,
          [String(row[ref.column])],
        );
        if (rows.length === 0) row[ref.column] = null;
      }
      const list = columns.map((c) => `"${c}"`).join(", ");
      // An identity column cannot be updated (and a row still there kept its own).
      const updates = columns
        .filter((c) => c !== "id" && !identity.has(c))
        .map((c) => `"${c}" = EXCLUDED."${c}"`)
        .join(", ");
      await this.db.query(
        `INSERT INTO ${image.table} (${list}) OVERRIDING SYSTEM VALUE
         SELECT ${list} FROM jsonb_populate_record(NULL::${image.table}, $1::jsonb)
         ON CONFLICT (id) DO UPDATE SET ${updates}`,
        [JSON.stringify(row)],
      );
    }
  }

  private async writableColumns(table: UndoableTable) {
    const known = PgUndoRepository.writable.get(table);
    if (known) return known;
    const { rows } = await this.db.query<{ name: string; is_identity: string }>(
      `SELECT column_name AS name, is_identity FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
        ORDER BY ordinal_position`,
      [table],
    );
    // Its nullable foreign keys (the owner and a list item's list are NOT NULL and restored first).
    const { rows: references } = await this.db.query<{ column: string; table: string; key: string }>(
      `SELECT kcu.column_name AS column, ccu.table_name AS table, ccu.column_name AS key
         FROM information_schema.referential_constraints rc
         JOIN information_schema.key_column_usage kcu
           ON kcu.constraint_name = rc.constraint_name AND kcu.constraint_schema = rc.constraint_schema
         JOIN information_schema.constraint_column_usage ccu
           ON ccu.constraint_name = rc.constraint_name AND ccu.constraint_schema = rc.constraint_schema
         JOIN information_schema.columns c
           ON c.table_schema = kcu.table_schema AND c.table_name = kcu.table_name AND c.column_name = kcu.column_name
        WHERE kcu.table_schema = current_schema() AND kcu.table_name = $1 AND c.is_nullable = 'YES'`,
      [table],
    );
    const found = {
      columns: rows.map((r) => r.name),
      identity: new Set(rows.filter((r) => r.is_identity === "YES").map((r) => r.name)),
      references,
    };
    PgUndoRepository.writable.set(table, found);
    return found;
  }
}
