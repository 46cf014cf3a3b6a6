import { afterEach, describe, expect, it } from "vitest";
import { hasExtension, migrate, pendingMigrations } from "../../src/db/migrate.js";
import { MIGRATIONS, type Migration } from "../../src/db/migrations/index.js";
import { MigrationError } from "../../src/utils/errors.js";
import { backends, requireExtension, type TestDatabase } from "../support/db.js";

describe.each(backends)("migrations on $name", (backend) => {
  let db: TestDatabase;
  afterEach(async () => db?.close());

  async function tableExists(name: string): Promise<boolean> {
    const { rows } = await db.pool.query<{ exists: boolean }>(
      "SELECT to_regclass($1) IS NOT NULL AS exists",
      [name],
    );
    return rows[0]!.exists;
  }

  it("applies every migration once, records it, and a second run is a no-op", async () => {
    db = await backend.create({ migrated: false });
    expect((await pendingMigrations(db.pool, MIGRATIONS)).map((m) => m.name)).toEqual(
      MIGRATIONS.map((m) => m.name),
    );

    expect(await migrate(db.pool, MIGRATIONS)).toEqual(MIGRATIONS.map((m) => m.name));
    expect(await tableExists("users")).toBe(true);
    expect(await pendingMigrations(db.pool, MIGRATIONS)).toEqual([]);

    expect(await migrate(db.pool, MIGRATIONS)).toEqual([]);
    const { rows } = await db.pool.query("SELECT version, name FROM schema_migrations ORDER BY version");
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
  });

  it("turns an existing rolling summary into chunk 0 ('Earlier: …'), so nothing is lost", async () => {
    db = await backend.create({ migrated: false });
    await migrate(
      db.pool,
      MIGRATIONS.filter((m) => m.version < 19),
    );
    await db.pool.query("INSERT INTO users (phone) VALUES ('972500000001'), ('972500000002')");
    const { rows: ids } = await db.pool.query<{ id: string }>(
      `INSERT INTO conversation_messages (user_phone, role, content, created_at)
       SELECT '972500000001', 'user', 'message ' || n, timestamptz '2026-03-01 10:00Z' + n * interval '1 hour'
         FROM generate_series(1, 6) AS n RETURNING id`,
    );
    await db.pool.query(
      `INSERT INTO memory_profiles (user_phone, summary, summary_through)
       VALUES ('972500000001', '- Likes tea', $1), ('972500000002', '', 0)`,
      [ids[3]!.id],
    );
    await migrate(db.pool, MIGRATIONS);
    const { rows } = await db.pool.query(
      `SELECT user_phone, chunk_number, first_message_id::int AS first, last_message_id::int AS last,
              message_count, summary, merged_from, started_at, ended_at
         FROM conversation_chunks ORDER BY user_phone`,
    );
    expect(rows).toEqual([
      {
        user_phone: "972500000001",
        chunk_number: 0,
        first: Number(ids[0]!.id),
        last: Number(ids[3]!.id),
        message_count: 4,
        summary: "Earlier: - Likes tea",
        merged_from: 1,
        started_at: new Date("2026-03-01T11:00:00Z"),
        ended_at: new Date("2026-03-01T14:00:00Z"),
      },
    ]);
    const { rows: profiles } = await db.pool.query(
      "SELECT summary, summary_through::int AS through FROM memory_profiles ORDER BY user_phone",
    );
    expect(profiles).toEqual([
      { summary: "", through: Number(ids[3]!.id) },
      { summary: "", through: 0 },
    ]);
  });

  it("rolls a failing migration back and names it with the database's error", async () => {
    db = await backend.create();
    const broken: Migration = {
      version: 9000,
      name: "broken_widgets",
      sql: "CREATE TABLE widgets (id int); INSERT INTO no_such_table VALUES (1);",
    };
    const error = await migrate(db.pool, [...MIGRATIONS, broken]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/9000_broken_widgets failed: .*no_such_table/);
    // Nothing of it stays behind, and it is still pending.
    expect(await tableExists("widgets")).toBe(false);
    expect((await pendingMigrations(db.pool, [...MIGRATIONS, broken])).map((m) => m.name)).toEqual([
      "broken_widgets",
    ]);
    // The pool is still usable afterwards.
    await expect(db.pool.query("SELECT 1")).resolves.toBeTruthy();
  });

  it("refuses a list whose recorded history differs from the code", async () => {
    db = await backend.create();
    const renamed = MIGRATIONS.map((m, i) => (i === 0 ? { ...m, name: "people" } : m));
    await expect(migrate(db.pool, renamed)).rejects.toThrow(
      /recorded as "users" but the code calls it "people"/,
    );
  });

  it("refuses an out-of-order list before touching the database", async () => {
    db = await backend.create({ migrated: false });
    await expect(migrate(db.pool, [...MIGRATIONS].reverse())).rejects.toThrow(/out of order/);
    expect(await tableExists("schema_migrations")).toBe(false);
  });

  it("installs pg_trgm for fuzzy matching", async ({ skip }) => {
    db = await backend.create();
    await requireExtension(db, "pg_trgm", skip);
    const { rows } = await db.pool.query<{ close: boolean }>(
      "SELECT similarity('shopping', 'shoping') > 0.5 AS close",
    );
    expect(rows[0]!.close).toBe(true);
  });

  it("installs pgvector for embeddings where the server has it", async ({ skip }) => {
    db = await backend.create();
    await requireExtension(db, "vector", skip);
    expect(await hasExtension(db.pool, "vector")).toBe(true);
    const { rows } = await db.pool.query<{ distance: number }>(
      "SELECT '[1,2,3]'::vector <-> '[1,2,5]'::vector AS distance",
    );
    expect(rows[0]!.distance).toBe(2);
  });
});

describe.runIf(backends.some((b) => b.name === "postgres"))("migrations from two instances at once", () => {
  it("apply each migration exactly once", async () => {
    const backend = backends.find((b) => b.name === "postgres")!;
    const db = await backend.create({ migrated: false });
    try {
      const [a, b] = await Promise.all([migrate(db.pool, MIGRATIONS), migrate(db.pool, MIGRATIONS)]);
      expect([...a, ...b].sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
    } finally {
      await db.close();
    }
  });
});
