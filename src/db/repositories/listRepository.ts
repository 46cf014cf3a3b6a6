import type { Queryable } from "../transaction.js";
import type { ListItem, TaskList } from "../../types/tasks.js";
import { isUuid } from "./taskRepository.js";

/**
 * Storage of lists and their items. Every method takes the phone of the person asking and touches
 * only the lists they see: their own, and those another member of their household shared with it
 * (docs/HOUSEHOLD.md; while both belong to it). Renaming and deleting a list is its owner's alone.
 */
export interface ListRepository {
  /**
   * Creates a list with its items (shared with the owner's household when `forHousehold`). A
   * second call with the same `operationKey` creates nothing and returns the list the first one made.
   */
  create(
    phone: string,
    operationKey: string,
    list: { name: string; isChecklist?: boolean; items?: readonly string[]; forHousehold?: boolean },
  ): Promise<TaskList>;
  get(phone: string, id: string): Promise<TaskList | null>;
  /** The lists the person sees with their items, oldest first. */
  list(phone: string): Promise<TaskList[]>;
  /**
   * Shares the owner's list with their household (`share` false: stops sharing it); null when the
   * owner has no such list or is in no household.
   */
  share(phone: string, id: string, share: boolean): Promise<TaskList | null>;
  /** Renames or changes the kind of a list; null when the owner has no such list. */
  update(
    phone: string,
    id: string,
    patch: { name?: string; isChecklist?: boolean },
  ): Promise<TaskList | null>;
  /** Deletes the owner's lists among `ids`, with their items; returns those deleted. */
  delete(phone: string, ids: readonly string[]): Promise<TaskList[]>;
  /**
   * Appends items at the end of a list the person sees, as theirs; null when there is no such
   * list. On a shared list, the members who asked for list notices have the addition counted
   * toward their next one (as of `nowMs`).
   */
  addItems(
    phone: string,
    listId: string,
    texts: readonly string[],
    nowMs?: number,
  ): Promise<ListItem[] | null>;
  /** Sets an item's checked flag (flips it when `checked` is absent); null when not found. */
  toggleItem(phone: string, itemId: string, checked?: boolean): Promise<ListItem | null>;
  /** Removes items of lists the person sees; returns those removed. */
  deleteItems(phone: string, itemIds: readonly string[]): Promise<ListItem[]>;
  /** Empties a list the person sees (only its checked items when `onlyChecked`); returns those removed, in order. */
  clearItems(phone: string, listId: string, onlyChecked: boolean): Promise<ListItem[]>;
  /**
   * Puts the items of a list the person sees in the order of `itemIds` (positions 1, 2, …), writing
   * only the items whose position changes; returns how many moved.
   */
  reorderItems(phone: string, listId: string, itemIds: readonly string[]): Promise<number>;
}

interface ListRow {
  id: string;
  name: string;
  is_checklist: boolean;
  created_at: Date;
  updated_at: Date;
}

interface ItemRow {
  id: string;
  list_id: string;
  text: string;
  checked: boolean;
  position: number;
  added_by?: string | null;
  others?: boolean;
}

const toItem = (row: ItemRow): ListItem => ({
  id: row.id,
  text: row.text,
  checked: row.checked,
  position: row.position,
  ...(row.added_by ? { addedBy: row.added_by } : {}),
  ...(row.others ? { othersWords: true as const } : {}),
});

/**
 * Lists `l` that the person `$1` sees: their own, and those shared with the household they are in
 * while the owner is in it too. Two indexable arms (owner; household), so no scan of all lists.
 * Undo copies and puts back the rows of exactly these lists (undoRepository).
 */
export const VISIBLE = `(l.user_phone = $1 OR (
    l.household_id = (SELECT household_id FROM household_members WHERE phone = $1)
    AND EXISTS (SELECT 1 FROM household_members o
                 WHERE o.phone = l.user_phone AND o.household_id = l.household_id)))`;

/** The household name of `phone` in the household of list `l` (null when not a member of it). */
const MEMBER_NAME = (phone: string) =>
  `(SELECT m.name FROM household_members m WHERE m.phone = ${phone} AND m.household_id = l.household_id)`;

/** ListRepository in plain SQL, on the pool or on a transaction's client. */
export class PgListRepository implements ListRepository {
  constructor(private readonly db: Queryable) {}

  async create(
    phone: string,
    operationKey: string,
    list: { name: string; isChecklist?: boolean; items?: readonly string[]; forHousehold?: boolean },
  ): Promise<TaskList> {
    const inserted = await this.db.query<ListRow>(
      `INSERT INTO lists (user_phone, created_by_operation, name, is_checklist, household_id)
       VALUES ($1, $2, $3, $4,
               CASE WHEN $5::boolean THEN (SELECT household_id FROM household_members WHERE phone = $1) END)
       ON CONFLICT (user_phone, created_by_operation) DO NOTHING RETURNING *`,
      [phone, operationKey, list.name, list.isChecklist ?? true, list.forHousehold === true],
    );
    const row = inserted.rows[0];
    if (!row) {
      const existing = await this.db.query<{ id: string }>(
        "SELECT id FROM lists WHERE user_phone = $1 AND created_by_operation = $2",
        [phone, operationKey],
      );
      const found = existing.rows[0] && (await this.get(phone, existing.rows[0].id));
      if (!found) throw new Error(`list of operation ${operationKey} vanished during its insert`);
      return found;
    }
    if (list.items && list.items.length > 0) await this.addItems(phone, row.id, list.items);
    return (await this.get(phone, row.id))!;
  }

  async get(phone: string, id: string): Promise<TaskList | null> {
    if (!isUuid(id)) return null;
    return (await this.load(phone, [id]))[0] ?? null;
  }

  list(phone: string): Promise<TaskList[]> {
    return this.load(phone, null);
  }

  async share(phone: string, id: string, share: boolean): Promise<TaskList | null> {
    if (!isUuid(id)) return null;
    const { rowCount } = await this.db.query(
      `UPDATE lists SET household_id = CASE WHEN $3::boolean
                                            THEN (SELECT household_id FROM household_members WHERE phone = $1) END,
                        updated_at = now()
        WHERE user_phone = $1 AND id = $2
          AND (NOT $3::boolean OR EXISTS (SELECT 1 FROM household_members WHERE phone = $1))`,
      [phone, id, share],
    );
    if (rowCount && !share)
      await this.db.query("DELETE FROM household_list_changes WHERE list_id = $1", [id]);
    return rowCount ? this.get(phone, id) : null;
  }

  async update(
    phone: string,
    id: string,
    patch: { name?: string; isChecklist?: boolean },
  ): Promise<TaskList | null> {
    if (!isUuid(id)) return null;
    const { rowCount } = await this.db.query(
      `UPDATE lists SET name = COALESCE($3, name), is_checklist = COALESCE($4, is_checklist), updated_at = now()
       WHERE user_phone = $1 AND id = $2`,
      [phone, id, patch.name ?? null, patch.isChecklist ?? null],
    );
    return rowCount ? this.get(phone, id) : null;
  }

  async delete(phone: string, ids: readonly string[]): Promise<TaskList[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const lists = await this.load(phone, valid);
    const { rows } = await this.db.query<{ id: string }>(
      "DELETE FROM lists WHERE user_phone = $1 AND id = ANY($2::uuid[]) RETURNING id",
      [phone, valid],
    );
    const deleted = new Set(rows.map((r) => r.id));
    return lists.filter((l) => deleted.has(l.id));
  }

  async addItems(
    phone: string,
    listId: string,
    texts: readonly string[],
    nowMs = Date.now(),
  ): Promise<ListItem[] | null> {
    if (!isUuid(listId)) return null;
    if (texts.length === 0) {
      const seen = await this.db.query(`SELECT 1 FROM lists l WHERE l.id = $2 AND ${VISIBLE}`, [
        phone,
        listId,
      ]);
      return seen.rowCount === 0 ? null : [];
    }
    // Touching the list locks its row: two additions at once (two members too) get distinct positions.
    const seen = await this.db.query<{ user_phone: string; household_id: string | null }>(
      `UPDATE lists l SET updated_at = now() WHERE l.id = $2 AND ${VISIBLE}
       RETURNING l.user_phone, l.household_id`,
      [phone, listId],
    );
    const owner = seen.rows[0]?.user_phone;
    if (!owner) return null;
    const householdId = seen.rows[0]?.household_id;
    if (householdId) {
      // Counted for the batched notice of each other member who asked for it, while it is shared.
      await this.db.query(
        `INSERT INTO household_list_changes (recipient_phone, list_id, actor_phone, items, first_at)
         SELECT m.phone, $1, $2, $3, $4 FROM household_members m
          WHERE m.household_id = $5 AND m.phone <> $2 AND m.list_notices
            AND EXISTS (SELECT 1 FROM household_members o WHERE o.phone = $6 AND o.household_id = $5)
         ON CONFLICT (recipient_phone, list_id, actor_phone)
           DO UPDATE SET items = household_list_changes.items + excluded.items`,
        [listId, phone, texts.length, new Date(nowMs), householdId, owner],
      );
    }
    // Items stay the owner's rows (their list's data); who added one is kept beside it.
    const { rows } = await this.db.query<ItemRow>(
      `INSERT INTO list_items (list_id, user_phone, added_by_phone, text, position)
       SELECT $1, $2, $3, t.text, (SELECT COALESCE(max(position), 0) FROM list_items WHERE list_id = $1) + t.n
       FROM unnest($4::text[]) WITH ORDINALITY AS t(text, n)
       RETURNING id, list_id, text, checked, position`,
      [listId, owner, phone, texts],
    );
    return rows.sort((a, b) => a.position - b.position).map(toItem);
  }

  async toggleItem(phone: string, itemId: string, checked?: boolean): Promise<ListItem | null> {
    if (!isUuid(itemId)) return null;
    const { rows } = await this.db.query<ItemRow>(
      `UPDATE list_items i SET checked = COALESCE($3, NOT i.checked)
         FROM lists l WHERE i.id = $2 AND l.id = i.list_id AND ${VISIBLE}
       RETURNING i.id, i.list_id, i.text, i.checked, i.position`,
      [phone, itemId, checked ?? null],
    );
    return rows[0] ? toItem(rows[0]) : null;
  }

  async deleteItems(phone: string, itemIds: readonly string[]): Promise<ListItem[]> {
    const valid = itemIds.filter(isUuid);
    if (valid.length === 0) return [];
    const { rows } = await this.db.query<ItemRow>(
      `DELETE FROM list_items i USING lists l
        WHERE i.id = ANY($2::uuid[]) AND l.id = i.list_id AND ${VISIBLE}
        RETURNING i.id, i.list_id, i.text, i.checked, i.position`,
      [phone, valid],
    );
    return rows.map(toItem);
  }

  async clearItems(phone: string, listId: string, onlyChecked: boolean): Promise<ListItem[]> {
    if (!isUuid(listId)) return [];
    const { rows } = await this.db.query<ItemRow>(
      `DELETE FROM list_items i USING lists l
        WHERE i.list_id = $2 AND l.id = i.list_id AND ${VISIBLE} AND ($3::boolean IS FALSE OR i.checked)
        RETURNING i.id, i.list_id, i.text, i.checked, i.position`,
      [phone, listId, onlyChecked],
    );
    if (rows.length > 0) {
      await this.db.query("UPDATE lists SET updated_at = now() WHERE id = $1", [listId]);
    }
    return rows.sort((a, b) => a.position - b.position).map(toItem);
  }

  async reorderItems(phone: string, listId: string, itemIds: readonly string[]): Promise<number> {
    const valid = itemIds.filter(isUuid);
    if (!isUuid(listId) || valid.length === 0) return 0;
    const { rowCount } = await this.db.query(
      `UPDATE list_items i SET position = t.n
         FROM lists l, unnest($3::uuid[]) WITH ORDINALITY AS t(id, n)
        WHERE i.id = t.id AND i.list_id = $2 AND l.id = i.list_id AND ${VISIBLE} AND i.position <> t.n`,
      [phone, listId, valid],
    );
    if (rowCount) await this.db.query("UPDATE lists SET updated_at = now() WHERE id = $1", [listId]);
    return rowCount ?? 0;
  }

  /**
   * The lists the person sees (all, or those among `ids`) with their items in position order, in
   * one statement. On a shared list, an item added by someone else carries their household name.
   */
  private async load(phone: string, ids: string[] | null): Promise<TaskList[]> {
    const lists = await this.db.query<ListRow & { items: ItemRow[]; shared: boolean; owner: string | null }>(
      `SELECT l.id, l.name, l.is_checklist, l.created_at, l.updated_at,
              l.household_id IS NOT NULL AND EXISTS (SELECT 1 FROM household_members o
                WHERE o.phone = l.user_phone AND o.household_id = l.household_id) AS shared,
              CASE WHEN l.user_phone <> $1 THEN ${MEMBER_NAME("l.user_phone")} END AS owner,
              COALESCE((
                SELECT json_agg(json_build_object('id', i.id, 'list_id', i.list_id, 'text', i.text,
                                                  'checked', i.checked, 'position', i.position,
                                                  'added_by', CASE
                                                    WHEN l.household_id IS NOT NULL
                                                     AND COALESCE(i.added_by_phone, l.user_phone) <> $1
                                                    THEN ${MEMBER_NAME("COALESCE(i.added_by_phone, l.user_phone)")} END,
                                                  'others', COALESCE(i.added_by_phone, l.user_phone) <> $1)
                                ORDER BY i.position, i.id)
                  FROM list_items i WHERE i.list_id = l.id), '[]'::json) AS items
         FROM lists l WHERE ${VISIBLE} AND ($2::uuid[] IS NULL OR l.id = ANY($2::uuid[]))
        ORDER BY l.seq`,
      [phone, ids],
    );
    return lists.rows.map((l) => ({
      id: l.id,
      name: l.name,
      isChecklist: l.is_checklist,
      items: l.items.map(toItem),
      ...(l.shared ? { shared: true } : {}),
      ...(l.owner ? { owner: l.owner } : {}),
      createdAt: l.created_at.toISOString(),
      updatedAt: l.updated_at.toISOString(),
    }));
  }
}
