/**
 * The planner evaluation against its scripted model (docs/EVALS.md), as `npm run eval -- planner`
 * runs it: the whole corpus through the planner's real model call (Memo's LLM service, LangChain's
 * structured output, PlannerSchema, normalizePlan) on an OpenAI-compatible server in process. A
 * model that answers the expected plans scores 100 % on every metric; a model that answers
 * deliberately wrong plans (a wrong operation, wrong words such as another list, no question, a
 * forwarded order at low risk) is flagged on each item, in the metric its error belongs to. With LANGSMITH_API_KEY, the corpus is a
 * LangSmith dataset (uploaded once) and each run an experiment with the evaluators' feedback.
 */
import { loadPlannerCorpus, type PlannerItem } from "../../evals/planner/corpus.js";
import { plannerDatasetName } from "../../evals/planner/langsmithExperiment.js";
import { wrongKindOf } from "../../evals/planner/scriptedModel.js";
import { runPlannerEval } from "../../evals/planner/suite.js";
import { FakeLangSmith } from "../support/fakeLangSmith.js";

const items = loadPlannerCorpus();
type Run = Awaited<ReturnType<typeof runPlannerEval>>;
let right: Run;
let wrong: Run;

beforeAll(async () => {
  const quiet = () => undefined;
  right = await runPlannerEval(items, { model: null, scripted: "expected", concurrency: 8, log: quiet });
  wrong = await runPlannerEval(items, { model: null, scripted: "wrong", concurrency: 8, log: quiet });
}, 120_000);

describe("the planner evaluation, scripted", () => {
  it("scores a model that answers the expected plans 100 % on every metric", () => {
    const { report } = right;
    expect(
      right.results.filter((r) => !r.score.pass).map((r) => `${r.item.id}: ${r.score.why.join("; ")}`),
    ).toEqual([]);
    expect(report.failedCalls).toBe(0);
    const shares = [
      report.steps,
      report.plans,
      ...Object.values(report.byCapability),
      ...Object.values(report.byOperation),
      ...Object.values(report.byCategory).filter((s) => s.n > 0),
      ...Object.values(report.trajectory),
      report.dependencies,
      report.intent,
      ...Object.values(report.questions),
      report.risk,
    ];
    for (const share of shares) expect(share.all).toBe(1);
    expect(report.cost.inputTokens).toBeGreaterThan(500);
    expect(report.cost.outputTokens).toBeGreaterThan(0);
  });

  it("flags every deliberately wrong plan, in the metric its error belongs to", () => {
    const kinds = new Map<string, number>();
    for (const [index, r] of wrong.results.entries()) {
      const kind = wrongKindOf(r.item, index);
      if (kind === null) {
        expect(r.score.pass, r.item.id).toBe(true);
        continue;
      }
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      expect(r.score.pass, `${r.item.id} (${kind})`).toBe(false);
      if (kind === "operation") {
        expect(r.score.trajectory.strict, r.item.id).toBe(false);
        expect(
          r.score.steps.some((s) => s.matched === null),
          r.item.id,
        ).toBe(true);
      } else if (kind === "args") {
        // Planned as expected, with words the user did not say (another list, another name).
        expect(r.score.trajectory.strict, r.item.id).toBe(true);
        expect(
          r.score.steps.some((s) => s.matched !== null && s.missingArgs.length > 0),
          r.item.id,
        ).toBe(true);
      } else if (kind === "question") {
        expect(r.score.asked, r.item.id).toBe(false);
        expect(r.score.why, r.item.id).toContain("did not ask");
      } else {
        // A forwarded order planned as the user's own, at low risk.
        expect(r.score.risk, r.item.id).toBe(false);
        expect(r.score.trajectory.strict, r.item.id).toBe(true);
      }
    }
    expect([...kinds.keys()].sort()).toEqual(["args", "operation", "question", "risk"]);
    expect(wrong.report.steps.all!).toBeLessThan(1);
    expect(wrong.report.questions.askedWhenNeeded.all!).toBeLessThan(1);
    expect(wrong.report.risk.all!).toBeLessThan(1);
  });
});

describe("the planner evaluation as a LangSmith experiment", () => {
  let langsmith: FakeLangSmith;
  let guard: ReturnType<typeof FakeLangSmith.guardNetwork>;
  const saved = { key: process.env.LANGSMITH_API_KEY, endpoint: process.env.LANGSMITH_ENDPOINT };
  // A few of each language: the experiment is the same for any number.
  const sample: PlannerItem[] = [
    ...items.filter((i) => i.language === "en").slice(0, 3),
    ...items.filter((i) => i.language === "he").slice(0, 3),
  ];

  beforeAll(async () => {
    langsmith = await FakeLangSmith.start();
    guard = FakeLangSmith.guardNetwork();
    Object.assign(process.env, { LANGSMITH_API_KEY: "test-key", LANGSMITH_ENDPOINT: langsmith.url });
  });

  afterAll(async () => {
    for (const [name, value] of [
      ["LANGSMITH_API_KEY", saved.key],
      ["LANGSMITH_ENDPOINT", saved.endpoint],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    guard.restore();
    await langsmith.close();
  });

  it("uploads the corpus once as a dataset and posts each run's runs and feedback as an experiment", async () => {
    const run = async () =>
      runPlannerEval(sample, { model: null, scripted: "expected", concurrency: 3, log: () => undefined });
    const first = await run();
    const second = await run();

    // One dataset, named by the corpus's content, with one example per item and its expected plan.
    const datasets = [...langsmith.datasets.values()];
    expect(datasets.map((d) => d.name)).toEqual([plannerDatasetName(sample)]);
    expect(first.langsmith?.dataset).toBe(datasets[0]!.name);
    const examples = [...langsmith.examples.values()];
    expect(examples.map((e) => e.inputs.id).sort()).toEqual(sample.map((i) => i.id).sort());
    for (const example of examples) {
      const item = sample.find((i) => i.id === example.inputs.id)!;
      expect(example.outputs, item.id).toEqual({ expect: item.expect });
      expect(example.inputs.message, item.id).toBe(item.message);
    }

    // Two experiments on it, each a run per example, scored by the evaluators.
    const experiments = [...langsmith.sessions.values()];
    expect(experiments.map((s) => s.name)).toEqual([
      first.langsmith!.experiment,
      second.langsmith!.experiment,
    ]);
    for (const experiment of experiments) {
      expect(experiment.name).toMatch(/^planner-scripted-planner/);
      expect(experiment.reference_dataset_id).toBe(datasets[0]!.id);
      const runs = langsmith.roots().filter((r) => r.session_name === experiment.name);
      expect(runs.map((r) => r.reference_example_id).sort()).toEqual(examples.map((e) => e.id).sort());
      for (const r of runs) {
        const scores = Object.fromEntries(
          langsmith.feedback.filter((f) => f.run_id === r.id).map((f) => [f.key, Number(f.score)]),
        );
        expect(scores, r.id).toMatchObject({
          trajectory_strict: 1,
          trajectory_subset: 1,
          asked_correctly: 1,
          plan_right: 1,
        });
      }
    }
    expect(first.report.plans.all).toBe(1);
    expect(guard.blocked).toEqual([]);
  }, 60_000);
});
