import { mkdir } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { vector } from "@electric-sql/pglite-pgvector";
import type { AppConfig } from "../config/env.js";
import { createPglitePool } from "./pglitePool.js";
import { DatabaseUnavailableError, describeError } from "../utils/errors.js";
import type { Logger } from "../utils/logger.js";

/** The one SQL path of the app (D2): a pg.Pool, over a Postgres server or embedded PGlite. */
export interface Database {
  /** Which engine answers. */
  readonly kind: "postgres" | "pglite";
  /** Where it lives, safe to log: host/port/database or the PGlite folder, never a password. */
  readonly target: string;
  readonly pool: pg.Pool;
  /** Ends the pool and, for PGlite, closes the engine so its files are consistent. */
  close(): Promise<void>;
}

/** Extensions loaded into every embedded database. */
export const PGLITE_EXTENSIONS = { vector, pg_trgm };

/** A connection string with its password removed, for messages and logs. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    parsed.search = "";
    return parsed.toString();
  } catch {
    return "(unparseable database URL)";
  }
}

/** Opens the embedded database stored in `dataDir`, creating the folder when needed. */
async function openPglite(dataDir: string, logger?: Logger): Promise<Database> {
  const absolute = path.resolve(dataDir);
  const folder = path.join(absolute, "pglite");
  await mkdir(folder, { recursive: true });
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({ dataDir: folder, extensions: PGLITE_EXTENSIONS });
  } catch (error) {
    throw new DatabaseUnavailableError(
      `Cannot open embedded database in ${folder}: ${describeError(error)}`,
      {
        dataDir: folder,
      },
    );
  }
  const pool = createPglitePool(pglite);
  pool.on("error", (error) => logger?.error({ err: error, database: folder }, "database pool error"));
  return {
    kind: "pglite",
    target: `pglite:${folder}`,
    pool,
    async close() {
      await pool.end();
      await pglite.close();
    },
  };
}

/** Opens a pool on a Postgres server and proves it answers. */
async function openPostgres(
  config: Extract<AppConfig["database"], { kind: "postgres" }>,
  logger?: Logger,
): Promise<Database> {
  const target = redactDatabaseUrl(config.url);
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolMax,
    connectionTimeoutMillis: config.connectTimeoutMs,
    // TLS comes from the URL (sslmode, sslrootcert), as node-postgres reads it; see docs/DATABASE.md.
  });
  // An idle client that loses its server emits here; without a listener it would crash the process.
  pool.on("error", (error) => logger?.error({ err: error, database: target }, "database pool error"));
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(`Cannot reach database ${target}: ${describeError(error)}`, {
      database: target,
    });
  }
  return {
    kind: "postgres",
    target,
    pool,
    close: () => pool.end(),
  };
}

/** Opens the database the configuration names: Postgres when DATABASE_URL is set, PGlite otherwise. */
export function openDatabase(config: AppConfig["database"], logger?: Logger): Promise<Database> {
  return config.kind === "postgres" ? openPostgres(config, logger) : openPglite(config.dataDir, logger);
}
