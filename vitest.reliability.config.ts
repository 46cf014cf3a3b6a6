import { defineConfig } from "vitest/config";

// `npm run test:reliability`: the reliability suite (tests/reliability/) at the full scale
// (100 phones × 5 messages, 10,000 webhook bodies…). `npm test` runs the same files trimmed.
if (!process.env.TEST_DATABASE_URL) {
  throw new Error(
    "npm run test:reliability needs TEST_DATABASE_URL: a Postgres server whose user may CREATE DATABASE, e.g. postgresql://postgres@127.0.0.1:5432/test",
  );
}

export default defineConfig({
  test: {
    include: ["tests/reliability/**/*.test.ts"],
    // The PGlite template the embedded instances start from (crashBurst.test.ts).
    globalSetup: ["tests/support/globalSetup.ts"],
    env: { TZ: "UTC", RELIABILITY_SCALE: "full" },
    // Each file runs several Memo processes: one file at a time, so they do not starve each other.
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 180_000,
  },
});
