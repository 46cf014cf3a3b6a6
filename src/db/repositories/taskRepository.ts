import type { Queryable } from "../transaction.js";
import type { NewTask, Subtask, Task, TaskPatch, TaskRecurrence } from "../../types/tasks.js";

/** Which of a user's tasks to read. */
export interface TaskFilter {
  /** true: only done ones; false: only open ones; absent: both. */
  completed?: boolean;
  /** Exact category, case-insensitive. */
  category?: string;
}

/** Storage of tasks. Every method takes the phone of the owner and touches only that owner's rows. */
export interface TaskRepository {
  /**
   * Creates a task for the owner. `operationKey` names the operation (and position) that creates
   * it: a second call with the same key creates nothing and returns the task the first one made.
   */
  create(phone: string, operationKey: string, task: NewTask): Promise<Task>;
  get(phone: string, id: string): Promise<Task | null>;
  /** The owner's tasks among `ids` (others' ids and unknown ids are left out), in the order of `ids`. */
  getMany(phone: string, ids: readonly string[]): Promise<Task[]>;
  /** The owner's tasks, oldest first. */
  list(phone: string, filter?: TaskFilter): Promise<Task[]>;
  /** Applies the patch; null when the owner has no such task. */
  update(phone: string, id: string, patch: TaskPatch): Promise<Task | null>;
  /** Deletes the owner's tasks among `ids`; returns those deleted. */
  delete(phone: string, ids: readonly string[]): Promise<Task[]>;
  /** Records that the owner completed `task` at `nowMs` (what the weekly review's Done section reads). */
  recordCompletion(phone: string, task: Task, nowMs: number): Promise<void>;
}

interface TaskRow {
  id: string;
  text: string;
  category: string | null;
  due_at: Date | null;
  reminder: string | null;
  reminder_offset_minutes: number | null;
  recurrence: TaskRecurrence | null;
  reminder_details: Record<string, unknown> | null;
  time_zone: string;
  next_fire_at: Date | null;
  completed: boolean;
  completed_at: Date | null;
  subtasks: Subtask[];
  assigned_by_phone: string | null;
  household_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    text: row.text,
    category: row.category,
    dueAt: iso(row.due_at),
    reminder: row.reminder,
    reminderOffsetMinutes: row.reminder_offset_minutes,
    recurrence: row.recurrence,
    reminderDetails: row.reminder_details,
    timeZone: row.time_zone,
    nextFireAt: iso(row.next_fire_at),
    completed: row.completed,
    completedAt: iso(row.completed_at),
    subtasks: row.subtasks,
    ...(row.assigned_by_phone ? { assignedByPhone: row.assigned_by_phone } : {}),
    ...(row.household_id ? { householdId: row.household_id } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Patch fields and their columns; jsonb ones are sent as JSON text. */
const COLUMNS: Record<keyof TaskPatch, { column: string; json?: true }> = {
  text: { column: "text" },
  category: { column: "category" },
  dueAt: { column: "due_at" },
  reminder: { column: "reminder" },
  reminderOffsetMinutes: { column: "reminder_offset_minutes" },
  recurrence: { column: "recurrence", json: true },
  reminderDetails: { column: "reminder_details", json: true },
  nextFireAt: { column: "next_fire_at" },
  completed: { column: "completed" },
  completedAt: { column: "completed_at" },
  subtasks: { column: "subtasks", json: true },
};

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** Only well-formed UUIDs reach a uuid column: anything else would be a query error, not "not found". */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string) => UUID.test(id);

/** TaskRepository in plain SQL, on the pool or on a transaction's client. */
export class PgTaskRepository implements TaskRepository {
  constructor(private readonly db: Queryable) {}

  async create(phone: string, operationKey: string, task: NewTask): Promise<Task> {
    const inserted = await this.db.query<TaskRow>(
      `INSERT INTO tasks (user_phone, created_by_operation, text, category, due_at, reminder,
         reminder_offset_minutes, recurrence, reminder_details, time_zone, next_fire_at, subtasks,
         assigned_by_phone, household_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11, $12::jsonb, $13, $14)
       ON CONFLICT (user_phone, created_by_operation) DO NOTHING
       RETURNING *`,
      [
        phone,
        operationKey,
        task.text,
        task.category ?? null,
        task.dueAt ?? null,
        task.reminder ?? null,
        task.reminderOffsetMinutes ?? null,
        json(task.recurrence),
        json(task.reminderDetails),
        task.timeZone,
        task.nextFireAt ?? null,
        JSON.stringify(task.subtasks ?? []),
        task.assignedByPhone ?? null,
        task.householdId ?? null,
      ],
    );
    if (inserted.rows[0]) return toTask(inserted.rows[0]);
    const existing = await this.db.query<TaskRow>(
      "SELECT * FROM tasks WHERE user_phone = $1 AND created_by_operation = $2",
      [phone, operationKey],
    );
    if (!existing.rows[0]) throw new Error(`task of operation ${operationKey} vanished during its insert`);
    return toTask(existing.rows[0]);
  }

  async get(phone: string, id: string): Promise<Task | null> {
    return (await this.getMany(phone, [id]))[0] ?? null;
  }

  async getMany(phone: string, ids: readonly string[]): Promise<Task[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const { rows } = await this.db.query<TaskRow>(
      "SELECT * FROM tasks WHERE user_phone = $1 AND id = ANY($2::uuid[])",
      [phone, valid],
    );
    const byId = new Map(rows.map((r) => [r.id, toTask(r)]));
    return valid.flatMap((id) => byId.get(id.toLowerCase()) ?? []);
  }

  async list(phone: string, filter: TaskFilter = {}): Promise<Task[]> {
    const { rows } = await this.db.query<TaskRow>(
      `SELECT * FROM tasks
       WHERE user_phone = $1
         AND ($2::boolean IS NULL OR completed = $2)
         AND ($3::text IS NULL OR lower(category) = lower($3))
       ORDER BY seq`,
      [phone, filter.completed ?? null, filter.category ?? null],
    );
    return rows.map(toTask);
  }

  async update(phone: string, id: string, patch: TaskPatch): Promise<Task | null> {
    if (!isUuid(id)) return null;
    const entries = (Object.keys(patch) as (keyof TaskPatch)[]).filter((k) => patch[k] !== undefined);
    const sets = entries.map((key, i) => {
      const { column, json: isJson } = COLUMNS[key];
      return `${column} = $${i + 3}${isJson ? "::jsonb" : ""}`;
    });
    const values = entries.map((key) => (COLUMNS[key].json ? json(patch[key]) : patch[key]));
    const { rows } = await this.db.query<TaskRow>(
      `UPDATE tasks SET ${[...sets, "updated_at = now()"].join(", ")}
       WHERE user_phone = $1 AND id = $2 RETURNING *`,
      [phone, id, ...values],
    );
    return rows[0] ? toTask(rows[0]) : null;
  }

  async delete(phone: string, ids: readonly string[]): Promise<Task[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const { rows } = await this.db.query<TaskRow>(
      "DELETE FROM tasks WHERE user_phone = $1 AND id = ANY($2::uuid[]) RETURNING *",
      [phone, valid],
    );
    return rows.map(toTask);
  }

  async recordCompletion(phone: string, task: Task, nowMs: number): Promise<void> {
    if (!isUuid(task.id)) return;
    await this.db.query(
      `INSERT INTO task_completions (user_phone, task_id, text, given, completed_at) VALUES ($1, $2, $3, $4, $5)`,
      [phone, task.id, task.text, task.assignedByPhone !== undefined, new Date(nowMs)],
    );
  }
}
