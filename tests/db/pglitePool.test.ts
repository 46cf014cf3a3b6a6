import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPglitePool } from "../../src/db/pglitePool.js";
import type pg from "pg";

// Regression: through PGlite's plain node-postgres adapter, a single failed query left the shared
// connection unusable ("Connection terminated unexpectedly", another query's rows, a spinning CPU).
describe("PGlite pool after errors", () => {
  let pglite: PGlite;
  let pool: pg.Pool;
  const count = async () =>
    (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM t WHERE a > $1", [0])).rows[0]!.n;

  beforeAll(async () => {
    pglite = await PGlite.create();
    pool = createPglitePool(pglite);
    await pool.query("CREATE TABLE t (a int CHECK (a > 0))");
  });
  afterAll(async () => {
    await pool.end();
    await pglite.close();
  });

  it.each([
    ["a simple query", "INSERT INTO t VALUES (-1)", undefined, /check constraint/],
    ["a parameterized query", "INSERT INTO t VALUES ($1)", [-1], /check constraint/],
    ["a query on a missing table", "SELECT * FROM nope WHERE a = $1", [1], /does not exist/],
  ])("reports the error of %s and keeps serving", async (_label, sql, params, message) => {
    await expect(pool.query(sql, params)).rejects.toThrow(message);
    expect(await count()).toBe(0);
    await pool.query("INSERT INTO t VALUES ($1)", [7]);
    expect(await count()).toBe(1);
    await pool.query("DELETE FROM t");
  });

  it("starts the next client clean when one is destroyed inside a transaction", async () => {
    const client = await pool.connect();
    await client.query("BEGIN");
    await client.query("INSERT INTO t VALUES ($1)", [5]);
    client.release(new Error("caller gave up"));
    expect(await count()).toBe(0);
    expect((await pool.query("SELECT 41 + $1::int AS x", [1])).rows).toEqual([{ x: 42 }]);
  });

  it("recovers when a client is destroyed right after a failed parameterized query", async () => {
    const client = await pool.connect();
    const error = await client.query("INSERT INTO t VALUES ($1)", [-2]).catch((e: unknown) => e);
    client.release(error as Error);
    const results = await Promise.all(
      [1, 2, 3].map((i) => pool.query<{ a: number }>("INSERT INTO t VALUES ($1) RETURNING a", [i])),
    );
    expect(results.map((r) => r.rows[0]!.a)).toEqual([1, 2, 3]);
    expect(await count()).toBe(3);
  });

  it("serves prepared statements again after a client that prepared them was destroyed", async () => {
    const prepared = (n: number) => ({
      name: "pglite-pool-test",
      text: "SELECT $1::int + 1 AS x",
      values: [n],
    });
    const client = await pool.connect();
    expect((await client.query<{ x: number }>(prepared(1))).rows).toEqual([{ x: 2 }]);
    client.release(new Error("caller gave up"));
    expect((await pool.query<{ x: number }>(prepared(2))).rows).toEqual([{ x: 3 }]);
    expect((await pool.query<{ x: number }>(prepared(3))).rows).toEqual([{ x: 4 }]);
  });
});
