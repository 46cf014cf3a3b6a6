import type { Migration } from "./types.js";

/**
 * What the user completed, kept apart from the task (issue 36's weekly review): "done" deletes a
 * reminder and moves a repeating one on, so the task row alone cannot say what got done. One row
 * per completion, written with it; pruned after RETENTION_DAYS, erased with the user, and removed
 * by an undo of the completion. Completions already marked on tasks are copied in.
 */
export const taskCompletionsMigration: Migration = {
  version: 23,
  name: "task_completions",
  sql: `
    CREATE TABLE task_completions (
      id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_phone    text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      task_id       uuid NOT NULL,
      text          text NOT NULL,
      given         boolean NOT NULL DEFAULT false,
      completed_at  timestamptz NOT NULL,
      created_at    timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX task_completions_user_at ON task_completions (user_phone, completed_at);
    CREATE INDEX task_completions_task ON task_completions (task_id);
    INSERT INTO task_completions (user_phone, task_id, text, given, completed_at)
      SELECT user_phone, id, text, assigned_by_phone IS NOT NULL, completed_at
        FROM tasks WHERE completed AND completed_at IS NOT NULL;
  `,
};
