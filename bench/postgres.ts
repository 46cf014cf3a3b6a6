import { createPostgresDatabase } from "../tests/support/db.js";

/** The Postgres server the benches use: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the machine's. */
const BENCH_POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ||
  process.env.TEST_DATABASE_URL ||
  "postgresql://postgres@127.0.0.1:5432/test";

/** Why a Postgres bench printed "skipped". */
export const NO_POSTGRES = "no Postgres at BENCH_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432";

/** A scratch database on that server (dropped by `drop`), or undefined when none answers. */
export function postgresDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  return createPostgresDatabase(BENCH_POSTGRES_URL, "memo_bench").catch(() => undefined);
}
