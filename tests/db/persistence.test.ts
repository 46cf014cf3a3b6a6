import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, redactDatabaseUrl } from "../../src/db/database.js";
import { migrate } from "../../src/db/migrate.js";
import { MIGRATIONS } from "../../src/db/migrations/index.js";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { DatabaseUnavailableError } from "../../src/utils/errors.js";

describe("embedded database on disk", () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it("creates DATA_DIR and keeps a row written before a restart", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "memo-data-"));
    dirs.push(root);
    const dataDir = path.join(root, "nested", "data");

    const first = await openDatabase({ kind: "pglite", dataDir });
    expect((await stat(dataDir)).isDirectory()).toBe(true);
    await migrate(first.pool, MIGRATIONS);
    await new PgUserRepository(first.pool).getOrCreate("972501234567", {
      displayName: "Noa",
      language: "he",
    });
    await first.close();

    const second = await openDatabase({ kind: "pglite", dataDir });
    expect(await migrate(second.pool, MIGRATIONS)).toEqual([]);
    const user = await new PgUserRepository(second.pool).get("972501234567");
    await second.close();
    expect(user).toMatchObject({ displayName: "Noa", language: "he" });
  });
});

describe("Postgres connection failures", () => {
  it("names the database without its password and fails fast when nothing listens", async () => {
    const started = Date.now();
    const error = await openDatabase({
      kind: "postgres",
      url: "postgresql://nobody:hunter2@127.0.0.1:1/x",
      poolMax: 2,
      connectTimeoutMs: 5000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect((error as Error).message).toMatch(
      /^Cannot reach database postgresql:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/x: .*ECONNREFUSED/,
    );
    expect((error as Error).message).not.toContain("hunter2");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("redacts passwords and query parameters from URLs", () => {
    expect(
      redactDatabaseUrl(
        "postgresql://postgres.abc:pw@aws-0-eu.pooler.supabase.com:6543/postgres?sslmode=require",
      ),
    ).toBe("postgresql://postgres.abc:***@aws-0-eu.pooler.supabase.com:6543/postgres");
    expect(redactDatabaseUrl("::::")).toBe("(unparseable database URL)");
  });
});
