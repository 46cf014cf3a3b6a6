import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { PGLITE_EXTENSIONS } from "../../src/db/database.js";
import { createPglitePool } from "../../src/db/pglitePool.js";
import { hasExtension, migrate } from "../../src/db/migrate.js";
import { MIGRATIONS } from "../../src/db/migrations/index.js";

/** A database of its own for one suite, dropped by `close()`. */
export interface TestDatabase {
  readonly kind: "pglite" | "postgres";
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

export interface TestBackend {
  readonly name: "pglite" | "postgres";
  /** A fresh database; with `migrated: false` it has no tables at all. */
  create(options?: { migrated?: boolean }): Promise<TestDatabase>;
}

let template: Blob | undefined;

async function pgliteTemplate(): Promise<Blob> {
  template ??= new Blob([await readFile(inject("pgliteTemplatePath"))]);
  return template;
}

/** In-memory PGlite, loaded from the run's template. */
export const pgliteBackend: TestBackend = {
  name: "pglite",
  async create({ migrated = true } = {}) {
    const pglite = await PGlite.create({
      loadDataDir: await pgliteTemplate(),
      extensions: PGLITE_EXTENSIONS,
    });
    const pool = createPglitePool(pglite);
    if (migrated) await migrate(pool, MIGRATIONS);
    return {
      kind: "pglite",
      pool,
      async close() {
        await pool.end();
        await pglite.close();
      },
    };
  },
};

/** A new, empty database on the server of `adminUrl`: its URL, and a way to drop it. */
export async function createPostgresDatabase(
  adminUrl: string,
  prefix = "memo_test",
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/** A new database on the TEST_DATABASE_URL server per suite, dropped afterwards. */
function postgresBackend(adminUrl: string): TestBackend {
  return {
    name: "postgres",
    async create({ migrated = true } = {}) {
      const database = await createPostgresDatabase(adminUrl);
      const pool = new pg.Pool({ connectionString: database.url, max: 5 });
      // DROP DATABASE … WITH (FORCE) at teardown can terminate a client that is still closing;
      // the pool reports that on "error", which must be heard (as the service's own pools do).
      pool.on("error", () => undefined);
      if (migrated) await migrate(pool, MIGRATIONS);
      return {
        kind: "postgres",
        pool,
        async close() {
          await pool.end();
          await database.drop();
        },
      };
    },
  };
}

/** The Postgres server of the second leg, when TEST_DATABASE_URL is set. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;

/** Every storage backend this run covers: PGlite always, Postgres when TEST_DATABASE_URL is set. */
export const backends: readonly TestBackend[] = testDatabaseUrl
  ? [pgliteBackend, postgresBackend(testDatabaseUrl)]
  : [pgliteBackend];

/**
 * Skips the running test, with a printed reason, when the backend's server lacks an extension
 * (pgvector is not installed on the machine's Postgres). Returns only when it is there.
 */
export async function requireExtension(
  db: TestDatabase,
  name: string,
  skip: (note?: string) => never,
): Promise<void> {
  if (await hasExtension(db.pool, name)) return;
  const reason = `[${db.kind}] extension "${name}" is not installed on this server; test skipped`;
  console.warn(reason);
  skip(reason);
}
