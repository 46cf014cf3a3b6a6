import type { Reporter, TestModule } from "vitest/node";

/** How many of the slowest test files the run lists at its end. */
const SLOWEST_SHOWN = 15;

/**
 * The slowest test files of the run, slowest first, one a line: seconds spent importing the file
 * and running its tests and hooks, and the file's path. Where to look first to make the suite faster.
 */
function slowestFiles(testModules: readonly TestModule[]): string {
  const costs = testModules.map((module) => {
    const { collectDuration, duration } = module.diagnostic();
    return { file: module.relativeModuleId, seconds: (collectDuration + duration) / 1000 };
  });
  costs.sort((a, b) => b.seconds - a.seconds);
  const lines = costs.slice(0, SLOWEST_SHOWN).map((c) => `${c.seconds.toFixed(1).padStart(7)} s  ${c.file}`);
  return `\nSlowest ${lines.length} test files (import + tests):\n${lines.join("\n")}\n`;
}

/**
 * Prints the slowest test files, then the run's totals as one plain line ("N passed, N failed,
 * N skipped") after vitest's own summary, the form CI reads in any language.
 */
export default class TotalsReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    process.stdout.write(slowestFiles(testModules));
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
