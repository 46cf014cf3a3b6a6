/**
 * The planner evaluation as a LangSmith experiment (docs/EVALS.md), when LANGSMITH_API_KEY is set:
 * the corpus is uploaded once as a dataset named by a hash of its content (the same corpus is the
 * same dataset, so experiments on it compare side by side in LangSmith's UI), and `evaluate` runs
 * each example through the planner's model call (the target) and scores it with the suite's own
 * checks as LangSmith evaluators. The client reads LANGSMITH_API_KEY and LANGSMITH_ENDPOINT.
 */
import { createHash } from "node:crypto";
import { Client } from "langsmith";
import { evaluate, type EvaluationResult, type EvaluatorT } from "langsmith/evaluation";
import { PLANNER_SYSTEM_PROMPT } from "../../src/prompts/plannerPrompt.js";
import type { LLMService } from "../../src/types/llm.js";
import type { PlannerItem } from "./corpus.js";
import { scoreItem, type GotPlan, type ItemResult, type ItemScore } from "./metrics.js";
import { runItem } from "./plannerRun.js";

/**
 * The dataset's name: the suite's, and the first 12 hex digits of the SHA-256 of what its examples
 * hold (each item's inputs and expectation; a note is not part of it). @internal
 */
export function plannerDatasetName(items: readonly PlannerItem[]): string {
  const content = items.map((item) => ({ inputs: inputsOf(item), expect: item.expect }));
  return `memo-planner-${createHash("sha256").update(JSON.stringify(content)).digest("hex").slice(0, 12)}`;
}

/** What an example's inputs hold: the item without its expectation. */
function inputsOf({ expect: _expect, note: _note, ...inputs }: PlannerItem): Record<string, unknown> {
  return inputs;
}

/** The dataset for `items`, uploaded unless one of its name (its content) is there already. */
async function ensureDataset(client: Client, items: readonly PlannerItem[], log: (line: string) => void) {
  const datasetName = plannerDatasetName(items);
  if (await client.hasDataset({ datasetName })) {
    const dataset = await client.readDataset({ datasetName });
    // A dataset of this name with another count is an upload that broke off: say so, never mix.
    if (dataset.example_count !== undefined && dataset.example_count !== items.length) {
      throw new Error(
        `LangSmith dataset ${datasetName} has ${dataset.example_count} examples, not ${items.length}: delete it and run again`,
      );
    }
    log(`langsmith: dataset ${datasetName} is there already`);
    return datasetName;
  }
  let dataset: Awaited<ReturnType<Client["createDataset"]>>;
  try {
    dataset = await client.createDataset(datasetName, {
      description: "Memo's planner corpus (evals/planner/): messages and the plans expected of them.",
      metadata: { contentHash: datasetName.slice("memo-planner-".length), items: items.length },
    });
  } catch (error) {
    // Another run created it in between (409): that run uploads the examples; use it.
    if (!(await client.hasDataset({ datasetName }))) throw error;
    log(`langsmith: dataset ${datasetName} was created by another run`);
    return datasetName;
  }
  await client.createExamples(
    items.map((item) => ({
      dataset_id: dataset.id,
      inputs: inputsOf(item),
      outputs: { expect: item.expect },
      metadata: { id: item.id, language: item.language, category: item.category },
    })),
  );
  log(`langsmith: uploaded dataset ${datasetName} (${items.length} examples)`);
  return datasetName;
}

/** A 0/1 or 0..1 score, or nothing when the check does not apply to the item. */
function result(key: string, score: number | boolean | null): EvaluationResult[] {
  return score === null ? [] : [{ key, score: typeof score === "boolean" ? Number(score) : score }];
}

/** The suite's checks as LangSmith evaluators, each a function of the run's outputs and the item. */
function evaluators(byId: ReadonlyMap<string, PlannerItem>): EvaluatorT[] {
  const scored = (
    check: (score: ItemScore, item: PlannerItem, got: GotPlan | null) => EvaluationResult[],
  ): EvaluatorT => {
    const evaluator = ({
      inputs,
      outputs,
    }: {
      inputs: Record<string, unknown>;
      outputs: Record<string, unknown>;
    }) => {
      const item = byId.get(String(inputs.id));
      if (!item) return { results: [] };
      const got = (outputs.plan as GotPlan | null) ?? null;
      return { results: check(scoreItem(item, got), item, got) };
    };
    return evaluator;
  };
  const shareOf = (score: ItemScore, right: (s: ItemScore["steps"][number]) => boolean) =>
    score.steps.length === 0 ? null : score.steps.filter(right).length / score.steps.length;
  return [
    scored((s) =>
      result(
        "operation_accuracy",
        shareOf(s, (step) => step.matched !== null),
      ),
    ),
    scored((s) =>
      result(
        "step_accuracy",
        shareOf(s, (step) => step.right),
      ),
    ),
    scored((s) => result("trajectory_strict", s.trajectory.strict)),
    scored((s) => result("trajectory_subset", s.trajectory.subset)),
    // A failed call asked nothing and planned nothing: it is a failure of its own, not a wrong question.
    scored((s, item, got) => result("asked_correctly", got === null ? null : s.asked === item.expect.ask)),
    scored((_s, _item, got) => result("call_failed", got === null)),
    scored((s) => result("dependencies", s.dependencies)),
    scored((s) => result("risk", s.risk)),
    scored((s) => result("plan_right", s.pass)),
  ];
}

/** Runs the corpus as a LangSmith experiment; returns each item's result, in corpus order. */
export async function runLangSmithExperiment(
  items: readonly PlannerItem[],
  llm: LLMService,
  options: {
    model: string;
    concurrency: number;
    log: (line: string) => void;
    onResult: (result: ItemResult) => void;
  },
): Promise<{ results: ItemResult[]; dataset: string; experiment: string }> {
  const client = new Client();
  const dataset = await ensureDataset(client, items, options.log);
  const byId = new Map(items.map((item) => [item.id, item]));
  const results = new Map<string, ItemResult>();
  const target = async (inputs: Record<string, unknown>) => {
    const item = byId.get(String(inputs.id));
    if (!item) throw new Error(`no corpus item ${String(inputs.id)}`);
    const outcome = await runItem(item, llm);
    results.set(item.id, outcome);
    options.onResult(outcome);
    return { plan: outcome.got, error: outcome.error, usage: outcome.usage };
  };
  // `evaluate` prints where to look on stdout, which carries the suite's table: sent to stderr.
  const print = console.log;
  console.log = (...args: unknown[]) => options.log(args.map(String).join(" "));
  let experiment: string;
  try {
    const outcome = await evaluate(target, {
      data: dataset,
      client,
      evaluators: evaluators(byId),
      experimentPrefix: `planner-${options.model}`,
      description: `Memo's planner with ${options.model}`,
      metadata: {
        model: options.model,
        plannerPrompt: createHash("sha256").update(PLANNER_SYSTEM_PROMPT).digest("hex").slice(0, 12),
      },
      maxConcurrency: options.concurrency,
    });
    experiment = outcome.experimentName;
    await client.awaitPendingTraceBatches();
  } finally {
    console.log = print;
  }
  return {
    results: items.map(
      (item) =>
        results.get(item.id) ?? {
          item,
          got: null,
          error: "not run by the LangSmith experiment",
          usage: null,
          score: scoreItem(item, null),
        },
    ),
    dataset,
    experiment,
  };
}
