import { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { PGLITE_EXTENSIONS } from "../src/db/database.js";
import { createPglitePool } from "../src/db/pglitePool.js";

/** Runs `fn` on a fresh in-memory PGlite pool, closed afterwards. */
export async function withPglite<T>(fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const pool = createPglitePool(pglite);
  try {
    return await fn(pool);
  } finally {
    await pool.end();
    await pglite.close();
  }
}
