import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { PGLITE_EXTENSIONS } from "../../src/db/database.js";
import { migrate } from "../../src/db/migrate.js";
import { MIGRATIONS } from "../../src/db/migrations/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A dumped, freshly initialized PGlite data folder; each test database loads a copy (~0.4 s, not ~3 s). */
    pgliteTemplatePath: string;
    /**
     * A migrated database on the TEST_DATABASE_URL server (empty when it is unset) that each
     * migrated test database there copies with CREATE DATABASE … TEMPLATE instead of migrating.
     */
    postgresTemplateName: string;
  }
}

/** Runs `sql` on the TEST_DATABASE_URL server's admin database. */
async function onServer(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** Creates and migrates the run's Postgres template database; returns its name. */
async function createPostgresTemplate(adminUrl: string): Promise<string> {
  const name = `memo_template_${process.pid}_${randomBytes(4).toString("hex")}`;
  await onServer(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // One connection, closed before any copy: CREATE DATABASE … TEMPLATE needs the template unused.
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  try {
    await migrate(pool, MIGRATIONS);
  } finally {
    await pool.end();
  }
  return name;
}

/**
 * Runs once per test run: initializes PGlite a single time and hands its files to every worker,
 * and migrates one Postgres template database when TEST_DATABASE_URL is set.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), "memo-test-"));
  const file = path.join(dir, "pglite-template.tar");
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const dump = await pglite.dumpDataDir("none");
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  project.provide("pgliteTemplatePath", file);
  const adminUrl = process.env.TEST_DATABASE_URL || undefined;
  const postgresTemplate = adminUrl ? await createPostgresTemplate(adminUrl) : undefined;
  project.provide("postgresTemplateName", postgresTemplate ?? "");
  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (adminUrl && postgresTemplate)
      await onServer(adminUrl, `DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`);
  };
}
