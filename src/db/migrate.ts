import type pg from "pg";
import { MigrationError, describeError } from "../utils/errors.js";
import type { Logger } from "../utils/logger.js";
import type { Migration } from "./migrations/index.js";

/** Key of the advisory lock that lets one instance migrate while the others wait. */
const MIGRATION_LOCK_KEY = 7_310_301;

const CREATE_LEDGER = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`;

/** Throws when the list is not strictly increasing; a code mistake, caught before touching the database. */
function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    const previous = migrations[i - 1];
    if (previous && m.version <= previous.version) {
      throw new MigrationError(`Migration ${m.name} (v${m.version}) is out of order`, { version: m.version });
    }
  });
}

async function appliedVersions(client: pg.ClientBase): Promise<Map<number, string>> {
  const { rows } = await client.query<{ version: number; name: string }>(
    "SELECT version, name FROM schema_migrations ORDER BY version",
  );
  return new Map(rows.map((r) => [r.version, r.name]));
}

/**
 * Applies the migrations not yet recorded, each in its own transaction, in order.
 * Re-running is a no-op. A failure rolls that migration back and throws a MigrationError
 * naming it and carrying the database's message. Returns the names applied now.
 */
export async function migrate(
  pool: pg.Pool,
  migrations: readonly Migration[],
  logger?: Logger,
): Promise<string[]> {
  assertOrdered(migrations);
  const client = await pool.connect();
  const appliedNow: string[] = [];
  try {
    // Several instances may start together: one migrates, the rest wait and then find nothing to do.
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(CREATE_LEDGER);
    const applied = await appliedVersions(client);
    for (const migration of migrations) {
      const recorded = applied.get(migration.version);
      if (recorded !== undefined) {
        if (recorded !== migration.name) {
          throw new MigrationError(
            `Migration v${migration.version} is recorded as "${recorded}" but the code calls it "${migration.name}"`,
            { version: migration.version },
          );
        }
        continue;
      }
      try {
        await client.query("BEGIN");
        await client.query(migration.sql);
        await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
          migration.version,
          migration.name,
        ]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw new MigrationError(
          `Migration ${String(migration.version).padStart(4, "0")}_${migration.name} failed: ${describeError(error)}`,
          { version: migration.version },
          { cause: error },
        );
      }
      appliedNow.push(migration.name);
      logger?.info({ migration: migration.name, version: migration.version }, "migration applied");
    }
    return appliedNow;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}

/** The migrations of the list that the database has not recorded (all of them if it has no ledger). */
export async function pendingMigrations(
  pool: pg.Pool,
  migrations: readonly Migration[],
): Promise<Migration[]> {
  const { rows } = await pool.query<{ exists: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS exists",
  );
  if (!rows[0]?.exists) return [...migrations];
  const { rows: applied } = await pool.query<{ version: number }>("SELECT version FROM schema_migrations");
  const done = new Set(applied.map((r) => r.version));
  return migrations.filter((m) => !done.has(m.version));
}

/** Whether the server has an extension installed in this database (e.g. "vector", "pg_trgm"). @internal */
export async function hasExtension(pool: pg.Pool, name: string): Promise<boolean> {
  const { rows } = await pool.query("SELECT 1 FROM pg_extension WHERE extname = $1", [name]);
  return rows.length > 0;
}
