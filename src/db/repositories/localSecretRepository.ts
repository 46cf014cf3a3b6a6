import type { Queryable } from "../transaction.js";

/** Secrets the service generated for itself and keeps in `local_secrets` (development only). */
export class PgLocalSecretRepository {
  constructor(private readonly db: Queryable) {}

  /** Stores `value` under `name` unless a value is stored there already. */
  async addIfMissing(name: string, value: Buffer): Promise<void> {
    await this.db.query(
      "INSERT INTO local_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
      [name, value],
    );
  }

  /** The value stored under `name`, read without writing; null when there is none, or no table yet. */
  async get(name: string): Promise<Buffer | null> {
    const table = await this.db.query<{ found: boolean }>(
      "SELECT to_regclass('local_secrets') IS NOT NULL AS found",
    );
    if (!table.rows[0]?.found) return null;
    const { rows } = await this.db.query<{ value: Buffer }>(
      "SELECT value FROM local_secrets WHERE name = $1",
      [name],
    );
    return rows[0] ? Buffer.from(rows[0].value) : null;
  }
}
