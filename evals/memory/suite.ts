/**
 * The `memory` suite (docs/EVALS.md): Memo's long-term memory over multi-session histories, in the
 * spirit of LongMemEval. Scripted mode prints recall@k of the right facts, episodes and chunks per
 * category and language; model mode prints answer accuracy.
 */
import type { EvalOptions, EvalReport, EvalSuite } from "../suite.js";
import { loadMemoryDataset } from "./dataset.js";
import { formatTable, scoreTable, type QuestionResult } from "./metrics.js";
import { runWithModel } from "./modelRun.js";
import { productMemory } from "./productMemory.js";
import { ITEM_KINDS, runScripted } from "./scripted.js";

/** The questions that scored below 1, for reading what went wrong. */
function misses(results: readonly QuestionResult[]): string[] {
  return results
    .filter((r) => r.score < 1)
    .map(
      (r) =>
        `  ${r.question.id} (${r.score.toFixed(2)}) ${r.question.question} → ${r.detail.replace(/\s+/g, " ").slice(0, 160)}`,
    );
}

async function run(options: EvalOptions): Promise<EvalReport> {
  const dataset = loadMemoryDataset();
  const counts = `${dataset.cases.length} histories, ${dataset.questions.length} questions`;
  if (options.model) {
    const results = await runWithModel(dataset, options.model, options.log);
    const rows = scoreTable(results);
    return {
      suite: "memory",
      mode: "model",
      lines: [
        ...formatTable(`memory: answer accuracy with ${options.model.model} (${counts})`, rows),
        "",
        "missed:",
        ...misses(results),
      ],
      json: {
        model: options.model.model,
        rows,
        results: results.map((r) => ({ id: r.question.id, score: r.score, reply: r.detail })),
      },
    };
  }
  const memory = productMemory();
  const { results, setAside } = await runScripted(dataset, memory, { k: options.k, log: options.log });
  const rows = scoreTable(results);
  const missing = ITEM_KINDS.filter((kind) => !memory.kinds.has(kind)).map((kind) => `${kind}s`);
  const aside =
    setAside.length === 0
      ? []
      : [
          "",
          `set aside: ${setAside.length} questions keyed to ${missing.join(" or ")}, which Memo's memory does not recall yet`,
        ];
  return {
    suite: "memory",
    mode: "scripted",
    lines: [
      ...formatTable(
        `memory: recall@${options.k} of the expected items; abstention: nothing relevant (${counts})`,
        rows,
      ),
      ...aside,
      "",
      "missed:",
      ...misses(results),
    ],
    json: {
      k: options.k,
      rows,
      results: results.map((r) => ({ id: r.question.id, score: r.score, recalled: r.recalled })),
      setAside: setAside.map((q) => q.id),
    },
  };
}

export const memorySuite: EvalSuite = {
  name: "memory",
  description:
    "long-term memory over multi-session histories: recall@k (scripted) or answer accuracy (--base-url)",
  run,
};
