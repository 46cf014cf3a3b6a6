import type { Queryable } from "../transaction.js";
import { VISIBLE } from "./listRepository.js";

/** The tables whose rows an undo can put back: each has a uuid `id` and its owner's `user_phone`. */
const UNDOABLE_TABLES = [
  "tasks",
  "task_completions",
  "lists",
  "list_items",
  "notes",
  "calendar_events",
] as const;
export type UndoableTable = (typeof UNDOABLE_TABLES)[number];

/**
 * A table's rows to copy: those whose `column` is one of `values`, among the rows the person may
 * change (their own, and a list another member shares with them, with its items).
 */
export interface RowScope {
  table: UndoableTable;
  /**
   * "id", "list_id" (a list's items), "task_id" (a task's completions), or "created_by_operation"
   * (an operation id: the rows it created; for list_items, the items of the lists it created).
   */
  column: "id" | "list_id" | "task_id" | "created_by_operation";
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
  /** Journal order (a bigint, as text): entries of anyone written after this one have a greater seq. */
  seq: string;
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
  seq: string;
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
  seq: String(row.seq),
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

const SCOPE_COLUMNS = new Set<RowScope["column"]>(["id", "list_id", "task_id", "created_by_operation"]);

/** A uuid as Postgres reads one (the id columns of the undoable tables). */
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/iu;

/**
 * Columns Memo itself writes after a change (a ring moves `next_fire_at`, a giver is told, a note's
 * embedding is filled in): not a change anyone made, so undo does not count them as one.
 */
const SYSTEM_COLUMNS: Partial<Record<UndoableTable, string[]>> = {
  tasks: ["next_fire_at", "assigner_told_open_at", "assigner_told_done_at"],
  // Every change to a list's items stamps the list: another member's addition is no change to mine.
  lists: ["updated_at"],
  notes: ["embedding", "embedding_model"],
};

/** Why a change cannot be taken back now (nothing is put back). */
export type UndoBlock =
  /** A list it changed is another member's and no longer shared with the person (its name, when known). */
  | { kind: "unshared"; list: string | null }
  /**
   * A row it touched was changed, deleted or made again since. `by`: the newest later journal
   * entry of someone else that touched it, with their household name (null: not in the person's
   * household); null when no journal entry names it (a ring, someone leaving, an expired entry).
   */
  | { kind: "changed"; by: { name: string | null; description: Record<string, unknown> } | null };

/** The owner's phone of a copied row. */
const ownerOf = (row: Record<string, unknown> | null): string | null =>
  typeof row?.user_phone === "string" ? row.user_phone : null;

/** The list a copied row belongs to: the list itself, or an item's list. */
function listOf(image: RowImage): string | null {
  if (image.table === "lists") return image.id;
  if (image.table !== "list_items") return null;
  const row = image.after ?? image.before;
  return typeof row?.list_id === "string" ? row.list_id : null;
}

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

  /**
   * The rows in the scopes the person may change (their own; a shared list's, while it is shared
   * with them), whole, in scope order (a list before its items): one statement.
   */
  async copy(phone: string, scopes: RowScope[]): Promise<RowCopy[]> {
    const params: unknown[] = [phone];
    const parts: string[] = [];
    scopes.forEach((scope, index) => {
      checkTable(scope.table);
      if (!SCOPE_COLUMNS.has(scope.column)) throw new Error(`not a scope column: ${scope.column}`);
      if (scope.values.length === 0) return;
      const byId = scope.column !== "created_by_operation";
      // Ids are compared as uuids, so the table's index finds them (one that is no uuid names no row).
      params.push(byId ? scope.values.filter((v) => UUID.test(v)) : scope.values);
      const values = `$${params.length}::${byId ? "uuid" : "text"}[]`;
      // An operation's own id, or one of its numbered parts ("<id>#0", "<id>#1"…); compared
      // whole, so a "_" or "%" in an id is never a wildcard.
      const createdBy = (alias: string) =>
        `(${alias}.created_by_operation = ANY (${values}) OR split_part(${alias}.created_by_operation, '#', 1) = ANY (${values}))`;
      const match = byId
        ? `t.${scope.column} = ANY (${values})`
        : scope.table === "list_items"
          ? `t.list_id IN (SELECT c.id FROM lists c WHERE c.user_phone = $1 AND ${createdBy("c")})`
          : `t.user_phone = $1 AND ${createdBy("t")}`;
      // Rows the person may change: their own, and those of a list a member shares with them (what
      // an operation created is the person's own, matched above).
      const reach = !byId
        ? "TRUE"
        : scope.table === "lists"
          ? `(t.user_phone = $1 OR EXISTS (SELECT 1 FROM lists l WHERE l.id = t.id AND ${VISIBLE}))`
          : scope.table === "list_items"
            ? `(t.user_phone = $1 OR EXISTS (SELECT 1 FROM lists l WHERE l.id = t.list_id AND ${VISIBLE}))`
            : "t.user_phone = $1";
      // list_items orders by position so a restore keeps the list's order.
      const order = scope.table === "list_items" ? "t.position, t.created_at" : "t.created_at";
      parts.push(
        `SELECT ${index} AS scope, '${scope.table}' AS tbl, row_number() OVER (ORDER BY ${order}) AS n, to_jsonb(t) AS row
           FROM ${scope.table} t WHERE ${reach} AND ${match}`,
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

  /** The user's newest change, taken back or not, or null. */
  async latest(phone: string): Promise<UndoEntry | null> {
    const { rows } = await this.db.query<EntryRow>(
      `SELECT * FROM undo_journal WHERE user_phone = $1 ORDER BY seq DESC LIMIT 1`,
      [phone],
    );
    return rows[0] ? entryOf(rows[0]) : null;
  }

  /** The user's newest change not yet taken back (expired or not), or null. */
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
   * Why `images` (a turn's, newest first) cannot be put back now, or null when they can: each row
   * must be as the change left it (its `after`; Memo's own columns aside), and a row of another
   * member's list must still be on a list shared with the person. The rows are locked until the
   * transaction ends, so nobody changes them between this look and the restore. `sinceSeq`: the
   * journal position of the oldest entry undone, after which someone else's entry is looked for.
   */
  async blocked(phone: string, images: RowImage[], sinceSeq: string): Promise<UndoBlock | null> {
    // What the turn left each row as: its newest image.
    const latest = new Map<string, RowImage>();
    for (const image of images) {
      checkTable(image.table);
      const key = `${image.table}:${image.id}`;
      if (!latest.has(key)) latest.set(key, image);
    }
    const changed = new Set<string>();
    const lists = new Map<string, string[]>();
    for (const table of UNDOABLE_TABLES) {
      const group = [...latest.values()].filter((image) => image.table === table);
      if (group.length === 0) continue;
      const ids = group.map((image) => image.id);
      await this.db.query(`SELECT 1 FROM ${table} WHERE id::text = ANY ($1::text[]) FOR UPDATE`, [ids]);
      const { rows } = await this.db.query<{
        id: string;
        present: boolean;
        same: boolean;
        owner: string | null;
        list_id: string | null;
      }>(
        `SELECT i.id, t.id IS NOT NULL AS present,
                COALESCE((to_jsonb(t) - $2::text[]) = (i.after - $2::text[]), false) AS same,
                t.user_phone AS owner, ${table === "list_items" ? "t.list_id::text" : "NULL::text"} AS list_id
           FROM jsonb_to_recordset($1::jsonb) AS i(id text, after jsonb)
           LEFT JOIN ${table} t ON t.id::text = i.id`,
        [
          JSON.stringify(group.map((image) => ({ id: image.id, after: image.after }))),
          SYSTEM_COLUMNS[table] ?? [],
        ],
      );
      const now = new Map(rows.map((row) => [row.id, row]));
      for (const image of group) {
        const row = now.get(image.id);
        const key = `${table}:${image.id}`;
        // Deleted, made again, or changed since the change left it.
        if (image.after === null ? row?.present : !row?.same) changed.add(key);
        const owner = row?.owner ?? ownerOf(image.after) ?? ownerOf(image.before);
        if (owner === phone) continue;
        // Another member's row: only on a list of theirs, looked at below (still shared? still there?).
        const list = (table === "list_items" ? row?.list_id : null) ?? listOf(image);
        if (!list) return { kind: "unshared", list: null };
        lists.set(list, [...(lists.get(list) ?? []), key]);
      }
    }
    if (lists.size > 0) {
      const { rows } = await this.db.query<{ id: string; name: string; visible: boolean }>(
        `SELECT l.id::text AS id, l.name, ${VISIBLE} AS visible FROM lists l WHERE l.id::text = ANY ($2::text[])`,
        [phone, [...lists.keys()]],
      );
      const found = new Map(rows.map((row) => [row.id, row]));
      for (const [id, keys] of lists) {
        const list = found.get(id);
        if (list && !list.visible) return { kind: "unshared", list: list.name };
        // The list went meanwhile (unless this undo brings it back too): its items cannot come back.
        const restoredToo = latest.get(`lists:${id}`)?.before;
        if (!list && !restoredToo) {
          changed.add(`lists:${id}`);
          for (const key of keys) changed.add(key);
        }
      }
    }
    if (changed.size === 0) return null;
    const { rows } = await this.db.query<{ description: Record<string, unknown>; name: string | null }>(
      `SELECT j.description,
              (SELECT m.name FROM household_members m
                 JOIN household_members me ON me.household_id = m.household_id AND me.phone = $1
                WHERE m.phone = j.user_phone) AS name
         FROM undo_journal j
        WHERE j.seq > $2::bigint AND j.user_phone <> $1
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(j.images) e
                       WHERE (e ->> 'table') || ':' || (e ->> 'id') = ANY ($3::text[]))
        ORDER BY (j.undone_at IS NULL) DESC, j.seq DESC
        LIMIT 1`,
      [phone, sinceSeq, [...changed]],
    );
    const by = rows[0];
    return { kind: "changed", by: by ? { name: by.name, description: by.description } : null };
  }

  /**
   * Puts the rows back as they were before the change: rows it created are deleted, the others
   * written whole with their ids (parents first, so a list exists before its items). Only rows the
   * person may change: their own, and those of a list shared with them (checked by `blocked`
   * first; a row outside both stops the restore).
   */
  async restore(phone: string, images: RowImage[]): Promise<void> {
    for (const image of [...images].reverse()) {
      checkTable(image.table);
      if (image.before === null) {
        const owner = ownerOf(image.after) ?? phone;
        await this.mayChange(phone, owner, image);
        await this.db.query(`DELETE FROM ${image.table} WHERE user_phone = $1 AND id = $2`, [
          owner,
          image.id,
        ]);
      }
    }
    for (const image of images) {
      if (image.before === null) continue;
      await this.mayChange(phone, ownerOf(image.before), image);
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

  /** Throws unless the person may change a row of `owner`: their own, or one of a list shared with them. */
  private async mayChange(phone: string, owner: string | null, image: RowImage): Promise<void> {
    if (owner === phone) return;
    const list = listOf(image);
    if (list) {
      const { rows } = await this.db.query(`SELECT 1 FROM lists l WHERE l.id::text = $2 AND ${VISIBLE}`, [
        phone,
        list,
      ]);
      if (rows.length > 0) return;
    }
    throw new Error("a copy of a row this person cannot change");
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
