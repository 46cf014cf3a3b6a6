import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const TEST_FILES = ["tests/**/*.test.ts", "src/**/*.test.ts"];
/**
 * Files that need modules of their own, not the worker's: one replaces a module with vi.mock; the
 * LangGraph conformance suites decide which of their cases run from state a shared worker may
 * already hold (they skipped two cases when sharing).
 */
const ISOLATED_FILES = [
  "tests/memory/poisonedMessage.test.ts",
  "tests/db/checkpointer.conformance.test.ts",
  "tests/db/turnBufferedSaver.conformance.test.ts",
];

export default defineConfig({
  test: {
    // The checkpoint conformance suite (@langchain/langgraph-checkpoint-validation) needs globals.
    globals: true,
    globalSetup: ["tests/support/globalSetup.ts"],
    // Pinned zone: tests that depend on local time say which zone they mean.
    env: { TZ: "UTC" },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // One worker per core, not vitest's cores − 1: much of the suite waits on timers, child
    // processes and sockets, so two workers on two cores finish about a third sooner than one.
    maxWorkers: availableParallelism(),
    reporters: ["default", "./tests/support/totalsReporter.ts"],
    projects: [
      {
        extends: true,
        // Files of a worker share loaded modules (and its idle PGlite databases): importing the
        // graph, LangChain and PGlite once per worker, not once per file, about halves the suite.
        test: { name: "shared", include: TEST_FILES, exclude: ISOLATED_FILES, isolate: false },
      },
      { extends: true, test: { name: "isolated", include: ISOLATED_FILES } },
    ],
  },
});
