import type { Migration } from "./types.js";

/**
 * Tasks, reminders and lists (the `database` capability). Every row carries its owner's phone and
 * every query filters on it (D2). A row made by an operation carries that operation's id, unique
 * per owner, so a turn re-run after a crash creates nothing twice; `database_operations` keeps the
 * outcome of every operation that changed something, written in the same transaction.
 */
export const tasksListsMigration: Migration = {
  version: 6,
  name: "tasks_lists",
  sql: `
    CREATE TABLE tasks (
      id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- Creation order, also within one transaction (created_at is the transaction's start).
      seq                  bigint GENERATED ALWAYS AS IDENTITY,
      user_phone           text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      text                 text NOT NULL CHECK (length(text) BETWEEN 1 AND 2000),
      category             text CHECK (length(category) <= 100),
      -- When the task is due; for a one-time reminder, when it rings.
      due_at               timestamptz,
      -- "Remind me X before": the V1 'reminder' interval, as the user said it and in minutes.
      reminder             text CHECK (length(reminder) <= 100),
      reminder_offset_minutes integer CHECK (reminder_offset_minutes >= 0),
      -- {type daily|weekly|monthly|nudge, time "HH:mm", days [0-6], intervalMinutes, dayOfMonth, until}
      recurrence           jsonb,
      reminder_details     jsonb,
      -- The user's zone when the task was made: a recurrence is computed in it (D6).
      time_zone            text NOT NULL,
      -- The next time a reminder rings; NULL when none will.
      next_fire_at         timestamptz,
      completed            boolean NOT NULL DEFAULT false,
      completed_at         timestamptz,
      subtasks             jsonb NOT NULL DEFAULT '[]'::jsonb,
      created_by_operation text,
      created_at           timestamptz NOT NULL DEFAULT now(),
      updated_at           timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_phone, created_by_operation)
    );
    CREATE INDEX tasks_owner_open ON tasks (user_phone, completed, due_at);
    CREATE INDEX tasks_next_fire ON tasks (next_fire_at) WHERE next_fire_at IS NOT NULL;

    CREATE TABLE lists (
      id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq                  bigint GENERATED ALWAYS AS IDENTITY,
      user_phone           text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      name                 text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
      is_checklist         boolean NOT NULL DEFAULT true,
      created_by_operation text,
      created_at           timestamptz NOT NULL DEFAULT now(),
      updated_at           timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_phone, created_by_operation)
    );
    CREATE INDEX lists_owner ON lists (user_phone);

    CREATE TABLE list_items (
      id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      list_id    uuid NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
      -- The owner again, so item queries are scoped by phone like every other.
      user_phone text NOT NULL,
      text       text NOT NULL CHECK (length(text) BETWEEN 1 AND 500),
      checked    boolean NOT NULL DEFAULT false,
      position   integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX list_items_list ON list_items (list_id, position);

    -- Kept for a week: a turn is re-run from the inbox within a day of its message (D4).
    CREATE TABLE database_operations (
      user_phone   text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      operation_id text NOT NULL,
      outcome      jsonb NOT NULL,
      created_at   timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_phone, operation_id)
    );
  `,
};
