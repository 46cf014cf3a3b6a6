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

/**
 * Everything that makes up the database's schema (tables, columns, indexes, constraints, triggers,
 * functions, sequences, extensions, applied migrations), as one hash: equal hashes, equal schemas.
 */
const SCHEMA_FINGERPRINT = `
  SELECT md5(string_agg(part, E'\\n' ORDER BY part)) AS fingerprint FROM (
    SELECT concat_ws(' ', table_name, column_name, data_type, column_default, is_nullable) AS part
      FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL SELECT tgrelid::regclass || ' ' || tgname FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT proname || ' ' || md5(prosrc) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
    UNION ALL SELECT 'sequence ' || sequence_name FROM information_schema.sequences WHERE sequence_schema = 'public'
    UNION ALL SELECT 'extension ' || extname || ' ' || extversion FROM pg_extension
    UNION ALL SELECT 'schema ' || nspname FROM pg_namespace
    UNION ALL SELECT 'migration ' || version || ' ' || name FROM schema_migrations
  ) parts`;

/** Empties every table and restarts every sequence, as a just-migrated database has them. */
const EMPTY_TABLES = `
  DO $$
  DECLARE
    tables text;
    sequence text;
  BEGIN
    SELECT string_agg(format('%I', tablename), ', ') INTO tables
      FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations';
    IF tables IS NOT NULL THEN
      EXECUTE 'TRUNCATE ' || tables || ' RESTART IDENTITY CASCADE';
    END IF;
    FOR sequence IN SELECT format('%I', sequence_name) FROM information_schema.sequences WHERE sequence_schema = 'public'
    LOOP
      EXECUTE 'ALTER SEQUENCE ' || sequence || ' RESTART';
    END LOOP;
  END $$`;

/** The checkpointer's tables (PostgresSaver.setup()), which a just-migrated database does not have. */
const DROP_CHECKPOINTER_TABLES =
  "DROP TABLE IF EXISTS checkpoints, checkpoint_blobs, checkpoint_writes, checkpoint_migrations";

/**
 * Migrated PGlite instances that a suite has closed, emptied and ready to hand out again.
 * Starting a PGlite (instantiating Postgres, unpacking the template) costs about a second; a test
 * creates a database of its own each time, so this worker reuses one once it is as new again.
 */
const idlePglites: PGlite[] = [];
/** At most this many idle instances per worker (each holds about 100 MB). */
const MAX_IDLE_PGLITES = 2;
let migratedFingerprint: string | undefined;

async function fingerprintOf(pglite: PGlite): Promise<string> {
  const { rows } = await pglite.query<{ fingerprint: string }>(SCHEMA_FINGERPRINT);
  return rows[0]!.fingerprint;
}

/**
 * Brings a closed suite's instance back to the state of a just-migrated one: no rows, sequences at
 * their start, no checkpointer tables, a clean session. Returns false (and the instance should be
 * closed) when that cannot be promised: a schema changed by the test, an open transaction, an error.
 */
async function resetToMigrated(pglite: PGlite): Promise<boolean> {
  try {
    // DISCARD ALL refuses to run inside a transaction, so a test that left one open is not reused.
    await pglite.exec("DISCARD ALL");
    await pglite.exec(DROP_CHECKPOINTER_TABLES);
    if ((await fingerprintOf(pglite)) !== migratedFingerprint) return false;
    await pglite.exec(EMPTY_TABLES);
    return true;
  } catch {
    return false;
  }
}

async function migratedPglite(): Promise<PGlite> {
  const reused = idlePglites.pop();
  if (reused) return reused;
  const pglite = await PGlite.create({ loadDataDir: await pgliteTemplate(), extensions: PGLITE_EXTENSIONS });
  const pool = createPglitePool(pglite);
  await migrate(pool, MIGRATIONS);
  await pool.end();
  migratedFingerprint ??= await fingerprintOf(pglite);
  return pglite;
}

/** In-memory PGlite, loaded from the run's template; a migrated one may be a reused, emptied instance. */
export const pgliteBackend: TestBackend = {
  name: "pglite",
  async create({ migrated = true } = {}) {
    const pglite = migrated
      ? await migratedPglite()
      : await PGlite.create({ loadDataDir: await pgliteTemplate(), extensions: PGLITE_EXTENSIONS });
    const pool = createPglitePool(pglite);
    return {
      kind: "pglite",
      pool,
      async close() {
        await pool.end();
        if (migrated && idlePglites.length < MAX_IDLE_PGLITES && (await resetToMigrated(pglite))) {
          idlePglites.push(pglite);
        } else {
          await pglite.close();
        }
      },
    };
  },
};

/**
 * A new database on the server of `adminUrl`: its URL, and a way to drop it. Empty, or a copy of
 * the database named `template` (CREATE DATABASE … TEMPLATE copies its files, faster than migrating).
 */
export async function createPostgresDatabase(
  adminUrl: string,
  prefix = "memo_test",
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
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

/**
 * A new database on the TEST_DATABASE_URL server per suite, dropped afterwards; a migrated one is
 * a copy of the run's migrated template database (see globalSetup.ts).
 */
function postgresBackend(adminUrl: string): TestBackend {
  return {
    name: "postgres",
    async create({ migrated = true } = {}) {
      const database = await createPostgresDatabase(
        adminUrl,
        undefined,
        migrated ? inject("postgresTemplateName") : undefined,
      );
      const pool = new pg.Pool({ connectionString: database.url, max: 5 });
      // DROP DATABASE … WITH (FORCE) at teardown can terminate a client that is still closing;
      // the pool reports that on "error", which must be heard (as the service's own pools do).
      pool.on("error", () => undefined);
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
