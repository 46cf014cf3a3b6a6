import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "src/**/*.test.ts"],
    // The checkpoint conformance suite (@langchain/langgraph-checkpoint-validation) needs globals.
    globals: true,
    globalSetup: ["tests/support/globalSetup.ts"],
    // Pinned zone: tests that depend on local time say which zone they mean.
    env: { TZ: "UTC" },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ["default", "./tests/support/totalsReporter.ts"],
  },
});
