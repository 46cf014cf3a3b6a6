/**
 * The planner evaluation's report: its scored items (metrics.ts) added up per capability,
 * operation, category and language, and printed as aligned tables like the memory suite's.
 */
import { PLANNER_CATEGORIES, actionsOf, type PlannerItem } from "./corpus.js";
import type { ItemResult, StepScore } from "./metrics.js";

/** A share over all, English and Hebrew (null: none counted). */
interface Share {
  n: number;
  all: number | null;
  en: number | null;
  he: number | null;
}

function share<T extends { item: PlannerItem }>(of: readonly T[], right: (r: T) => boolean): Share {
  const mean = (xs: readonly T[]) => (xs.length === 0 ? null : xs.filter(right).length / xs.length);
  return {
    n: of.length,
    all: mean(of),
    en: mean(of.filter((r) => r.item.language === "en")),
    he: mean(of.filter((r) => r.item.language === "he")),
  };
}

/** One expected step of one item. */
interface StepRow {
  item: PlannerItem;
  step: StepScore;
}

/** Everything the planner suite reports. */
export interface PlannerReport {
  items: number;
  /** Step accuracy (capability, action and args right) per expected capability and operation, over the items scored on their steps. */
  byCapability: Record<string, Share>;
  byOperation: Record<string, Share>;
  /** Step accuracy over every expected step. */
  steps: Share;
  /** Whole plans right (every check) per category and overall. */
  byCategory: Record<string, Share>;
  plans: Share;
  /** Over the items scored on their steps (not those that must ask, nor refusals). */
  trajectory: { strict: Share; unordered: Share; subset: Share; superset: Share };
  dependencies: Share;
  /** Items (2+ steps) whose plan has no dependency beyond those expected. */
  noExtraDependencies: Share;
  intent: Share;
  /**
   * Over the calls that returned a plan: asked, of the items that must ask (recall); not asked, of
   * those that must not; must ask, of those that asked (precision).
   */
  questions: { askedWhenNeeded: Share; quietWhenNot: Share; precision: Share };
  /** Injected instructions at high risk or refused. */
  injections: Share;
  /** Risk at least as expected, of the other items that name one (sending email…). */
  risk: Share;
  /** Calls that failed (no plan), of all items. */
  failed: Share;
  failedCalls: number;
  /** Means per message. */
  cost: {
    inputTokens: number;
    outputTokens: number;
    latencyMs: number;
    latencyP95Ms: number;
    costUsd: number;
  };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The report over every item's result. */
export function plannerReport(results: readonly ItemResult[]): PlannerReport {
  const onSteps = results.filter((r) => r.score.onSteps);
  const stepRows: StepRow[] = onSteps.flatMap((r) => r.score.steps.map((step) => ({ item: r.item, step })));
  const grouped = <K extends string>(keys: readonly K[], keyOf: (row: StepRow) => K) =>
    Object.fromEntries(
      keys.map((k) => [
        k,
        share(
          stepRows.filter((row) => keyOf(row) === k),
          (row) => row.step.right,
        ),
      ]),
    );
  const capabilities = [...new Set(stepRows.map((r) => r.step.expected.capability))].sort();
  const operationOf = (row: StepRow) => `${row.step.expected.capability}.${actionsOf(row.step.expected)[0]!}`;
  const operations = [...new Set(stepRows.map(operationOf))].sort();
  const called = results.filter((r) => r.got !== null);
  const latencies = results.flatMap((r) => (r.usage ? [r.usage.latencyMs] : [])).sort((a, b) => a - b);
  const usages = results.flatMap((r) => (r.usage ? [r.usage] : []));
  return {
    items: results.length,
    byCapability: grouped(capabilities, (row) => row.step.expected.capability),
    byOperation: grouped(operations, operationOf),
    steps: share(stepRows, (row) => row.step.right),
    byCategory: Object.fromEntries(
      PLANNER_CATEGORIES.map((c) => [
        c,
        share(
          results.filter((r) => r.item.category === c),
          (r) => r.score.pass,
        ),
      ]),
    ),
    plans: share(results, (r) => r.score.pass),
    trajectory: {
      strict: share(onSteps, (r) => r.score.trajectory.strict),
      unordered: share(onSteps, (r) => r.score.trajectory.unordered),
      subset: share(onSteps, (r) => r.score.trajectory.subset),
      superset: share(onSteps, (r) => r.score.trajectory.superset),
    },
    dependencies: share(
      onSteps.filter((r) => r.score.dependencies !== null),
      (r) => r.score.dependencies === true,
    ),
    noExtraDependencies: share(
      onSteps.filter((r) => r.score.dependencies !== null),
      (r) => r.score.extraDependencies === 0,
    ),
    intent: share(called, (r) => r.score.intent),
    questions: {
      askedWhenNeeded: share(
        called.filter((r) => r.item.expect.ask),
        (r) => r.score.asked,
      ),
      quietWhenNot: share(
        called.filter((r) => !r.item.expect.ask),
        (r) => !r.score.asked,
      ),
      precision: share(
        called.filter((r) => r.score.asked),
        (r) => r.item.expect.ask,
      ),
    },
    injections: share(
      results.filter((r) => r.item.category === "injection"),
      (r) => r.score.risk === true,
    ),
    risk: share(
      results.filter((r) => r.item.category !== "injection" && r.score.risk !== null),
      (r) => r.score.risk === true,
    ),
    failed: share(results, (r) => r.got === null),
    failedCalls: results.length - called.length,
    cost: {
      inputTokens: mean(usages.map((u) => u.inputTokens)),
      outputTokens: mean(usages.map((u) => u.outputTokens)),
      latencyMs: mean(latencies),
      latencyP95Ms: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.95))] ?? 0,
      costUsd: mean(usages.map((u) => u.costUsd)),
    },
  };
}

/** The report as aligned text lines, like the memory suite's table. */
export function formatReport(title: string, report: PlannerReport): string[] {
  const cell = (value: number | null) => (value === null ? "—" : value.toFixed(2));
  const row = (label: string, s: Share) =>
    `${label.padEnd(38)}${String(s.n).padStart(5)}${cell(s.all).padStart(7)}${cell(s.en).padStart(7)}${cell(s.he).padStart(7)}`;
  const header = (label: string) =>
    `${label.padEnd(38)}${"n".padStart(5)}${"all".padStart(7)}${"en".padStart(7)}${"he".padStart(7)}`;
  const rows = (record: Record<string, Share>) =>
    Object.entries(record)
      .filter(([, s]) => s.n > 0)
      .map(([k, s]) => row(`  ${k}`, s));
  const c = report.cost;
  return [
    title,
    "",
    header("step accuracy, per capability"),
    ...rows(report.byCapability),
    row("  all steps", report.steps),
    "",
    header("step accuracy, per operation"),
    ...rows(report.byOperation),
    "",
    header("plans right (all checks), per category"),
    ...rows(report.byCategory),
    row("  all plans", report.plans),
    "",
    header("agreement"),
    row("  trajectory strict (same order)", report.trajectory.strict),
    row("  trajectory unordered", report.trajectory.unordered),
    row("  trajectory subset (no extra step)", report.trajectory.subset),
    row("  trajectory superset (none missing)", report.trajectory.superset),
    row("  dependencies (2+ steps)", report.dependencies),
    row("  no extra dependency (2+ steps)", report.noExtraDependencies),
    row("  intentType", report.intent),
    row("  asked, when it must", report.questions.askedWhenNeeded),
    row("  did not ask, when it must not", report.questions.quietWhenNot),
    row("  had to ask, when it asked", report.questions.precision),
    row("  injections high risk or refused", report.injections),
    row("  risk high enough (other items)", report.risk),
    row("  calls failed (no plan)", report.failed),
    "",
    `per message: ${c.inputTokens.toFixed(0)} input + ${c.outputTokens.toFixed(0)} output tokens, ` +
      `${c.latencyMs.toFixed(0)} ms (p95 ${c.latencyP95Ms.toFixed(0)} ms), $${c.costUsd.toFixed(5)}`,
  ];
}
