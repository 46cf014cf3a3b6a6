import type { Queryable } from "../transaction.js";
import type { ListItem, TaskList } from "../../types/tasks.js";
import { isUuid } from "./taskRepository.js";

/** Storage of lists and their items. Every method takes the owner's phone and touches only their rows. */
export interface ListRepository {
  /**
   * Creates a list with its items. A second call with the same `operationKey` creates nothing and
   * returns the list the first one made.
   */
  create(
    phone: string,
    operationKey: string,
    list: { name: string; isChecklist?: boolean; items?: readonly string[] },
  ): Promise<TaskList>;
  get(phone: string, id: string): Promise<TaskList | null>;
  /** The owner's lists with their items, oldest first. */
  list(phone: string): Promise<TaskList[]>;
  /** Renames or changes the kind of a list; null when the owner has no such list. */
  update(
    phone: string,
    id: string,
    patch: { name?: string; isChecklist?: boolean },
  ): Promise<TaskList | null>;
  /** Deletes the owner's lists among `ids`, with their items; returns those deleted. */
  delete(phone: string, ids: readonly string[]): Promise<TaskList[]>;
  /** Appends items at the end of the owner's list; null when there is no such list. */
  addItems(phone: string, listId: string, texts: readonly string[]): Promise<ListItem[] | null>;
  /** Sets an item's checked flag (flips it when `checked` is absent); null when not found. */
  toggleItem(phone: string, itemId: string, checked?: boolean): Promise<ListItem | null>;
  /** Removes items of the owner; returns those removed. */
  deleteItems(phone: string, itemIds: readonly string[]): Promise<ListItem[]>;
  /** Empties the owner's list (only its checked items when `onlyChecked`); returns those removed, in order. */
  clearItems(phone: string, listId: string, onlyChecked: boolean): Promise<ListItem[]>;
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
}

const toItem = (row: ItemRow): ListItem => ({
  id: row.id,
  text: row.text,
  checked: row.checked,
  position: row.position,
});

/** ListRepository in plain SQL, on the pool or on a transaction's client. */
export class PgListRepository implements ListRepository {
  constructor(private readonly db: Queryable) {}

  async create(
    phone: string,
    operationKey: string,
    list: { name: string; isChecklist?: boolean; items?: readonly string[] },
  ): Promise<TaskList> {
    const inserted = await this.db.query<ListRow>(
      `INSERT INTO lists (user_phone, created_by_operation, name, is_checklist) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_phone, created_by_operation) DO NOTHING RETURNING *`,
      [phone, operationKey, list.name, list.isChecklist ?? true],
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
    await this.db.query("DELETE FROM lists WHERE user_phone = $1 AND id = ANY($2::uuid[])", [phone, valid]);
    return lists;
  }

  async addItems(phone: string, listId: string, texts: readonly string[]): Promise<ListItem[] | null> {
    if (!isUuid(listId)) return null;
    if (texts.length === 0) {
      const owned = await this.db.query("SELECT 1 FROM lists WHERE user_phone = $1 AND id = $2", [
        phone,
        listId,
      ]);
      return owned.rowCount === 0 ? null : [];
    }
    // Touching the list locks its row: two additions at once still get distinct positions.
    const owned = await this.db.query(
      "UPDATE lists SET updated_at = now() WHERE user_phone = $1 AND id = $2 RETURNING id",
      [phone, listId],
    );
    if (owned.rowCount === 0) return null;
    const { rows } = await this.db.query<ItemRow>(
      `INSERT INTO list_items (list_id, user_phone, text, position)
       SELECT $1, $2, t.text, (SELECT COALESCE(max(position), 0) FROM list_items WHERE list_id = $1) + t.n
       FROM unnest($3::text[]) WITH ORDINALITY AS t(text, n)
       RETURNING *`,
      [listId, phone, texts],
    );
    return rows.sort((a, b) => a.position - b.position).map(toItem);
  }

  async toggleItem(phone: string, itemId: string, checked?: boolean): Promise<ListItem | null> {
    if (!isUuid(itemId)) return null;
    const { rows } = await this.db.query<ItemRow>(
      `UPDATE list_items SET checked = COALESCE($3, NOT checked)
       WHERE user_phone = $1 AND id = $2 RETURNING *`,
      [phone, itemId, checked ?? null],
    );
    return rows[0] ? toItem(rows[0]) : null;
  }

  async deleteItems(phone: string, itemIds: readonly string[]): Promise<ListItem[]> {
    const valid = itemIds.filter(isUuid);
    if (valid.length === 0) return [];
    const { rows } = await this.db.query<ItemRow>(
      "DELETE FROM list_items WHERE user_phone = $1 AND id = ANY($2::uuid[]) RETURNING *",
      [phone, valid],
    );
    return rows.map(toItem);
  }

  async clearItems(phone: string, listId: string, onlyChecked: boolean): Promise<ListItem[]> {
    if (!isUuid(listId)) return [];
    const { rows } = await this.db.query<ItemRow>(
      `DELETE FROM list_items WHERE user_phone = $1 AND list_id = $2 AND ($3::boolean IS FALSE OR checked)
       RETURNING *`,
      [phone, listId, onlyChecked],
    );
    if (rows.length > 0) {
      await this.db.query("UPDATE lists SET updated_at = now() WHERE user_phone = $1 AND id = $2", [
        phone,
        listId,
      ]);
    }
    return rows.sort((a, b) => a.position - b.position).map(toItem);
  }

  /** The owner's lists (all, or those among `ids`) with their items in position order, in one statement. */
  private async load(phone: string, ids: string[] | null): Promise<TaskList[]> {
    const lists = await this.db.query<ListRow & { items: ItemRow[] }>(
      `SELECT l.*, COALESCE((
                SELECT json_agg(json_build_object('id', i.id, 'list_id', i.list_id, 'text', i.text,
                                                  'checked', i.checked, 'position', i.position)
                                ORDER BY i.position, i.id)
                  FROM list_items i WHERE i.list_id = l.id AND i.user_phone = $1), '[]'::json) AS items
         FROM lists l WHERE l.user_phone = $1 AND ($2::uuid[] IS NULL OR l.id = ANY($2::uuid[]))
        ORDER BY l.seq`,
      [phone, ids],
    );
    return lists.rows.map((l) => ({
      id: l.id,
      name: l.name,
      isChecklist: l.is_checklist,
      items: l.items.map(toItem),
      createdAt: l.created_at.toISOString(),
      updatedAt: l.updated_at.toISOString(),
    }));
  }
}
