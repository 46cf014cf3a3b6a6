import type pg from "pg";

/** Anything that runs a query: the pool, or one client inside a transaction. */
export type Queryable = Pick<pg.Pool, "query">;

/**
 * Runs `work` in one transaction on one client of the pool: committed when it resolves, rolled
 * back when it throws. `work` must use only the client it is given (PGlite's pool has one
 * connection, so a query on the pool from inside would wait forever).
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Repositories on the pool, and transactions that hand their work repositories of their own. */
export interface Storage<R> {
  /** The repositories on the pool: each statement commits on its own. */
  readonly repositories: R;
  /** Runs `work` in one transaction, on repositories built on its client: all of it commits, or none. */
  transaction<T>(work: (repositories: R) => Promise<T>): Promise<T>;
}

/** Storage over the pool; `on` builds the repositories on one connection (the pool, or a transaction's client). */
export function storageOf<R>(pool: pg.Pool, on: (db: Queryable) => R): Storage<R> {
  return {
    repositories: on(pool),
    transaction: (work) => withTransaction(pool, (client) => work(on(client))),
  };
}
