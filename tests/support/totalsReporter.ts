import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints the run's totals as one plain line ("N passed, N failed, N skipped") after vitest's own
 * summary, the form CI reads in any language.
 */
export default class TotalsReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") totals.passed += 1;
        else if (state === "failed") totals.failed += 1;
        else totals.skipped += 1;
      }
    }
    process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
  }
}
