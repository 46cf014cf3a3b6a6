/**
 * The `planner` suite (docs/EVALS.md): the planner's model call over a labelled corpus of messages
 * in English and Hebrew. With --base-url it measures that model; without, a scripted model in
 * process answers the expected plans (the harness must score it 100 %) or, with --scripted wrong,
 * deliberately wrong ones (the harness must flag each). With `langsmith` (scripts/eval.ts decides
 * it) the run is also a LangSmith experiment on the corpus as a dataset.
 */
import { appendFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeError } from "../../src/utils/errors.js";
import type { EvalModel, EvalOptions, EvalReport, EvalSuite } from "../suite.js";
import { loadPlannerCorpus, type PlannerItem } from "./corpus.js";
import { runLangSmithExperiment } from "./langsmithExperiment.js";
import type { ItemResult } from "./metrics.js";
import { formatReport, plannerReport, type PlannerReport } from "./report.js";
import { plannerLLM, preflight, runPlanner } from "./plannerRun.js";
import { startScriptedPlanner, type ScriptedMode } from "./scriptedModel.js";

/** The scripted model's name: not in Memo's model table, so its cost counts as 0. */
const SCRIPTED_MODEL = "scripted-planner";

/** What one run of the suite produced. */
interface PlannerEvalRun {
  results: ItemResult[];
  report: PlannerReport;
  /** The LangSmith dataset and experiment, when one ran. */
  langsmith: { dataset: string; experiment: string } | null;
}

/** One line of the failures file: the item, what was expected and what came back, and why it failed. */
function failureLine(r: ItemResult): string {
  return JSON.stringify({
    id: r.item.id,
    language: r.item.language,
    category: r.item.category,
    message: r.item.message,
    why: r.score.why,
    expected: r.item.expect,
    got: r.got ? { ...r.got.output, clarificationQuestion: r.got.clarificationQuestion } : null,
    error: r.error,
    item: r.item,
  });
}

/**
 * Runs `items` through the planner with `model`, or a scripted model when it is null; as a
 * LangSmith experiment too when `langsmith` (the client reads LANGSMITH_API_KEY and
 * LANGSMITH_ENDPOINT). One call with the first item goes first: a server that is not there or
 * refuses the key stops the run (throws) before anything is spent. `onResult` is told of each
 * item as it is scored.
 * @internal
 */
export async function runPlannerEval(
  items: readonly PlannerItem[],
  options: {
    model: EvalModel | null;
    scripted: ScriptedMode;
    concurrency: number;
    langsmith: boolean;
    log: (line: string) => void;
    onResult?: (result: ItemResult) => void;
  },
): Promise<PlannerEvalRun> {
  const scripted = options.model ? null : await startScriptedPlanner(items, options.scripted);
  const onResult = options.onResult ?? (() => undefined);
  try {
    const model = options.model ?? {
      baseUrl: scripted!.baseUrl,
      model: SCRIPTED_MODEL,
      apiKey: "not-needed",
    };
    const llm = plannerLLM(model);
    await preflight(items, llm, model);
    if (options.langsmith) {
      const run = await runLangSmithExperiment(items, llm, {
        model: model.model,
        concurrency: options.concurrency,
        log: options.log,
        onResult,
      });
      return {
        results: run.results,
        report: plannerReport(run.results),
        langsmith: { dataset: run.dataset, experiment: run.experiment },
      };
    }
    const results = await runPlanner(items, llm, {
      concurrency: options.concurrency,
      log: options.log,
      onResult,
    });
    return { results, report: plannerReport(results), langsmith: null };
  } finally {
    await scripted?.close();
  }
}

async function run(options: EvalOptions): Promise<EvalReport> {
  const items = loadPlannerCorpus();
  const mode = options.model ? "model" : "scripted";
  // Checked writable before anything runs, and written as failures come, so a paid run that breaks
  // off keeps what it found.
  const path = options.failures ?? join(tmpdir(), `memo-planner-failures-${Date.now()}.jsonl`);
  await writeFile(path, "").catch((error: unknown) => {
    throw new Error(
      `planner: cannot write the failures file ${path} (${describeError(error)}); nothing was run`,
      {
        cause: error,
      },
    );
  });
  let writing = Promise.resolve();
  const { results, report, langsmith } = await runPlannerEval(items, {
    model: options.model,
    scripted: options.scripted,
    // The scripted model answers at once: more at a time only costs memory.
    concurrency: options.model ? options.concurrency : 8,
    langsmith: options.langsmith,
    log: options.log,
    onResult: (r) => {
      if (r.score.pass) return;
      const line = `${failureLine(r)}\n`;
      writing = writing.then(() => appendFile(path, line));
    },
  });
  await writing;
  const failed = results.filter((r) => !r.score.pass);
  options.log(`planner: ${failed.length} failures written to ${path}`);
  const who = options.model
    ? options.model.model
    : options.scripted === "expected"
      ? "the scripted model (expected plans: must be 1.00)"
      : "the scripted model (wrong plans: must be flagged)";
  return {
    suite: "planner",
    mode,
    lines: [
      ...formatReport(
        `planner: ${who}, ${items.length} messages; the model's plan before the plan policies`,
        report,
      ),
      ...(langsmith ? [`langsmith: experiment ${langsmith.experiment} on dataset ${langsmith.dataset}`] : []),
      `failures (${failed.length}): ${path}`,
    ],
    json: {
      model: options.model?.model ?? SCRIPTED_MODEL,
      scripted: options.model ? null : options.scripted,
      report,
      langsmith,
      results: results.map((r) => ({
        id: r.item.id,
        pass: r.score.pass,
        why: r.score.why,
        usage: r.usage,
      })),
    },
  };
}

export const plannerSuite: EvalSuite = {
  name: "planner",
  description:
    "the planner's model call over a labelled corpus: steps, trajectory, questions, risk, cost (scripted or --base-url)",
  run,
};
