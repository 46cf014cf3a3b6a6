/**
 * The planner evaluation against its scripted model (docs/EVALS.md), as `npm run eval -- planner`
 * runs it: the whole corpus through the planner's real model call (Memo's LLM service, LangChain's
 * structured output, PlannerSchema, normalizePlan) on an OpenAI-compatible server in process. A
 * model that answers the expected plans scores 100 % on every metric; a model that answers
 * deliberately wrong plans (a wrong operation, wrong words such as another list, no question, a
 * forwarded order at low risk) is flagged on each item, in the metric its error belongs to. A
 * server that is not there or refuses the key stops the run at the first call. Asked for, the run
 * is a LangSmith experiment: the corpus a dataset (uploaded once), each run an experiment with the
 * evaluators' feedback; never otherwise, even with LANGSMITH_API_KEY set.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ItemResult } from "../../evals/planner/metrics.js";
import { loadPlannerCorpus, type PlannerItem } from "../../evals/planner/corpus.js";
import { plannerDatasetName } from "../../evals/planner/langsmithExperiment.js";
import { wrongKindOf } from "../../evals/planner/scriptedModel.js";
import { runPlannerEval } from "../../evals/planner/suite.js";
import { FakeLangSmith } from "../support/fakeLangSmith.js";

const items = loadPlannerCorpus();
type Run = Awaited<ReturnType<typeof runPlannerEval>>;
let right: Run;
let wrong: Run;
const toldOfWrong: ItemResult[] = [];
const quiet = () => undefined;
// No test of this file reaches LangSmith: the key of the developer's shell is not used, and
// LangSmith's clients may reach 127.0.0.1 only (the fake below).
const saved = { key: process.env.LANGSMITH_API_KEY, endpoint: process.env.LANGSMITH_ENDPOINT };
let guard: ReturnType<typeof FakeLangSmith.guardNetwork>;

beforeAll(async () => {
  delete process.env.LANGSMITH_API_KEY;
  delete process.env.LANGSMITH_ENDPOINT;
  guard = FakeLangSmith.guardNetwork();
  const options = { model: null, concurrency: 8, langsmith: false, log: quiet } as const;
  right = await runPlannerEval(items, { ...options, scripted: "expected" });
  wrong = await runPlannerEval(items, {
    ...options,
    scripted: "wrong",
    onResult: (r) => toldOfWrong.push(r),
  });
}, 120_000);

afterAll(() => {
  for (const [name, value] of [
    ["LANGSMITH_API_KEY", saved.key],
    ["LANGSMITH_ENDPOINT", saved.endpoint],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  expect(guard.blocked).toEqual([]);
  guard.restore();
});

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
      report.injections,
      report.risk,
      report.noExtraDependencies,
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
        expect(r.score.trajectory.unordered, r.item.id).toBe(false);
        expect(
          r.score.steps.some((s) => s.matched === null),
          r.item.id,
        ).toBe(true);
      } else if (kind === "args") {
        // Planned as expected, with one word wrong (another list, another time, the old and new swapped).
        expect(r.score.trajectory.unordered, r.item.id).toBe(true);
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
        expect(r.score.trajectory.unordered, r.item.id).toBe(true);
      }
    }
    expect([...kinds.keys()].sort()).toEqual(["args", "operation", "question", "risk"]);
    expect(wrong.report.steps.all!).toBeLessThan(1);
    expect(wrong.report.questions.askedWhenNeeded.all!).toBeLessThan(1);
    expect(wrong.report.injections.all!).toBeLessThan(1);
    expect(wrong.report.risk.all!).toBeLessThan(1);
    // Each item was told of as it was scored (the failures file is written from these).
    expect(toldOfWrong.map((r) => r.item.id).sort()).toEqual(items.map((i) => i.id).sort());
  });

  it("stops at the first call when the server is not there or refuses the key, before the run", async () => {
    const refusing = createServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { message: "Incorrect API key provided", type: "invalid_request_error" } }),
      );
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const told: string[] = [];
    // No retries (LLM_MAX_RETRIES is honoured as Memo honours it): the first failure is the answer.
    const retries = process.env.LLM_MAX_RETRIES;
    process.env.LLM_MAX_RETRIES = "0";
    const runWith = (baseUrl: string) =>
      runPlannerEval(items, {
        model: { baseUrl, model: "gpt-test", apiKey: "wrong-key" },
        scripted: "expected",
        concurrency: 4,
        langsmith: false,
        log: quiet,
        onResult: (r) => told.push(r.item.id),
      });
    try {
      const { port } = refusing.address() as AddressInfo;
      await expect(runWith(`http://127.0.0.1:${port}/v1`)).rejects.toThrow(
        /gpt-test at http:\/\/127\.0\.0\.1:\d+\/v1 cannot be used: the server refuses the API key \(HTTP 401\)/,
      );
      // The same port, closed: nothing answers.
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
      await expect(runWith(`http://127.0.0.1:${port}/v1`)).rejects.toThrow(
        /cannot be used: no answer from the server/,
      );
    } finally {
      if (refusing.listening) refusing.close();
      if (retries === undefined) delete process.env.LLM_MAX_RETRIES;
      else process.env.LLM_MAX_RETRIES = retries;
    }
    expect(told).toEqual([]);
  }, 30_000);
});

describe("the planner evaluation as a LangSmith experiment", () => {
  let langsmith: FakeLangSmith;
  // A few of each language: the experiment is the same for any number.
  const sample: PlannerItem[] = [
    ...items.filter((i) => i.language === "en").slice(0, 3),
    ...items.filter((i) => i.language === "he").slice(0, 3),
  ];

  beforeAll(async () => {
    langsmith = await FakeLangSmith.start();
    Object.assign(process.env, { LANGSMITH_API_KEY: "test-key", LANGSMITH_ENDPOINT: langsmith.url });
  });

  afterAll(async () => {
    delete process.env.LANGSMITH_API_KEY;
    delete process.env.LANGSMITH_ENDPOINT;
    await langsmith.close();
  });

  it("uploads the corpus once as a dataset and posts each run's runs and feedback as an experiment", async () => {
    const run = async (asked: boolean) =>
      runPlannerEval(sample, {
        model: null,
        scripted: "expected",
        concurrency: 3,
        langsmith: asked,
        log: () => undefined,
      });
    // Not asked for: nothing goes to LangSmith, key or not.
    expect((await run(false)).langsmith).toBeNull();
    expect(langsmith.datasets.size).toBe(0);

    const first = await run(true);
    const second = await run(true);

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
  }, 60_000);
});
