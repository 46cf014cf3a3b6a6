// A data deletion request: everything Memo holds about one user is counted, then erased in one
// transaction, and nobody else's data is touched; `npm run delete-user` does it from the shell.
import { createHmac } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/db/migrate.js";
import { MIGRATIONS } from "../../src/db/migrations/index.js";
import {
  countUserData,
  KEPT_UNDER_KEY,
  eraseUserData,
  USER_TABLES,
  USER_REFERENCES,
} from "../../src/db/repositories/userDataRepository.js";
import { createPostgresDatabase, testDatabaseUrl, type TestDatabase } from "../support/db.js";
import { runEntry } from "../support/process.js";
import { deriveKey } from "../../src/services/google/secrets.js";

/** The tag a phone gets under the key TOKEN_ENCRYPTION_KEY (hex) derives. */
function tagWith(hexKey: string, phone: string): string {
  const key = deriveKey(Buffer.from(hexKey, "hex"), "phone-tag");
  return createHmac("sha256", key).update(phone).digest("hex").slice(0, 12);
}
import { createWhatsAppHarness, textMessage, type WhatsAppHarness } from "../support/whatsappHarness.js";

const ALICE = "972501110101";
const BOB = "972501110102";

/** Alice and Bob each leave a trail: messages, a reminder, a note, a remembered fact. */
async function seed(wa: WhatsAppHarness): Promise<void> {
  for (const phone of [ALICE, BOB]) {
    await wa.knownUser(phone);
    for (const text of [
      "remind me tomorrow at 9 to call mom",
      "note: the wifi password is hunter2",
      "I prefer morning meetings",
    ]) {
      await wa.deliver(textMessage(phone, text, wa.clock.now()));
      await wa.idle();
    }
  }
  await wa.memo.longTerm.idle();
}

async function rowsOf(pool: pg.Pool, phone: string): Promise<Record<string, number>> {
  return countUserData(pool, phone);
}

describe("erasing a user's data", () => {
  let wa: WhatsAppHarness;

  beforeAll(async () => {
    wa = await createWhatsAppHarness({ llm: "none" });
    await seed(wa);
  });

  afterAll(async () => {
    await wa.close();
  });

  it("counts the user's rows everywhere, then erases them all and nothing of anyone else", async () => {
    const pool = wa.db.pool;
    const before = await rowsOf(pool, ALICE);
    for (const table of [
      "users",
      "tasks",
      "notes",
      "memories",
      "conversation_messages",
      "inbox_messages",
      "outbound_messages",
      // The reminder and the note can be taken back with "undo": their journal goes too.
      "undo_journal",
    ])
      expect(before[table], table).toBeGreaterThan(0);
    const bobBefore = await rowsOf(pool, BOB);

    const erased = await eraseUserData(pool, ALICE);
    expect(erased).toEqual(before);
    expect(await rowsOf(pool, ALICE)).toEqual({});
    expect(await rowsOf(pool, BOB)).toEqual(bobBefore);
  });

  it("knows every table that holds a phone (a new table must be added to the list)", async () => {
    const { rows } = await wa.db.pool.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND (column_name LIKE '%phone%' OR column_name = 'thread_id')`,
    );
    const listed = new Set(
      [...USER_TABLES, ...USER_REFERENCES, ...KEPT_UNDER_KEY].map((t) => `${t.table}.${t.column}`),
    );
    const missing = rows.map((r) => `${r.table_name}.${r.column_name}`).filter((c) => !listed.has(c));
    expect(missing).toEqual([]);
  });
});

describe("npm run delete-user", () => {
  it("refuses a missing or bad phone with exit code 2 and one line", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "memo-delete-"));
    try {
      const none = runEntry("scripts/deleteUser.ts", { cwd: dir });
      expect(await none.exited).toBe(2);
      expect(none.stderr().trim()).toBe("delete-user: --phone is required (see --help)");
      const bad = runEntry("scripts/deleteUser.ts", { cwd: dir, args: ["--phone", "call me"] });
      expect(await bad.exited).toBe(2);
      expect(bad.stderr()).toContain("not a phone number");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(!testDatabaseUrl)(
    "on Postgres: counts by default and changes nothing; --yes erases",
    async () => {
      const database = await createPostgresDatabase(testDatabaseUrl!, "memo_delete");
      const pool = new pg.Pool({ connectionString: database.url, max: 2 });
      pool.on("error", () => undefined);
      const db: TestDatabase = { kind: "postgres", pool, close: () => Promise.resolve() };
      const dir = await mkdtemp(path.join(tmpdir(), "memo-delete-"));
      try {
        await migrate(pool, MIGRATIONS);
        const wa = await createWhatsAppHarness({ llm: "none", db });
        await seed(wa);
        await wa.close(false);
        const before = await rowsOf(pool, ALICE);
        const env = { DATABASE_URL: database.url, TOKEN_ENCRYPTION_KEY: "ab".repeat(32) };

        const dry = runEntry("scripts/deleteUser.ts", { cwd: dir, env, args: ["--phone", `+${ALICE}`] });
        expect(await dry.exited).toBe(0);
        const counted = JSON.parse(dry.stdout()) as {
          user: string;
          rows: Record<string, number>;
          erased: boolean;
        };
        expect(counted).toMatchObject({ rows: before, erased: false });
        expect(counted.user).toMatch(/^[0-9a-f]{12}$/);
        expect(dry.stdout()).not.toContain(ALICE);
        expect(await rowsOf(pool, ALICE)).toEqual(before);
        expect(counted.user).toBe(tagWith("ab".repeat(32), ALICE));

        const real = runEntry("scripts/deleteUser.ts", { cwd: dir, env, args: ["--phone", ALICE, "--yes"] });
        expect(await real.exited).toBe(0);
        expect(JSON.parse(real.stdout())).toMatchObject({ rows: before, erased: true, googleRevoked: false });
        expect(await rowsOf(pool, ALICE)).toEqual({});
        expect((await rowsOf(pool, BOB)).users).toBe(1);
      } finally {
        await pool.end();
        await database.drop();
        await rm(dir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
