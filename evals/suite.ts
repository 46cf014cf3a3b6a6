/**
 * What `npm run eval -- <suite>` runs (docs/EVALS.md): each suite lives in `evals/<suite>/` and is
 * one entry of the registry in scripts/eval.ts.
 */

/** An OpenAI-compatible model to evaluate (model mode); absent: scripted mode, no model at all. */
export interface EvalModel {
  baseUrl: string;
  model: string;
  /** Default: "not-needed" (local servers accept any key). */
  apiKey: string;
}

export interface EvalOptions {
  model: EvalModel | null;
  /** How many ranked items count as retrieved (recall@k; default 5). */
  k: number;
  /** What a scripted model answers, in suites that script one (planner): the expected or wrong answers (default: expected). */
  scripted: "expected" | "wrong";
  /** Where to write what failed (planner; default: a file in the OS temp folder, named on stderr). */
  failures: string | null;
  /** Run as a LangSmith experiment too (planner; scripts/eval.ts: with a model when LANGSMITH_API_KEY is set, scripted only with --langsmith). */
  langsmith: boolean;
  /** Model calls at once (planner; default 4). */
  concurrency: number;
  /** Progress lines (stderr), never the results. */
  log: (line: string) => void;
}

/** A suite's outcome: lines to print, and everything measured for `--json`. */
export interface EvalReport {
  suite: string;
  mode: "scripted" | "model";
  lines: string[];
  json: unknown;
}

export interface EvalSuite {
  /** The name typed after `npm run eval --`, equal to its folder under evals/. */
  name: string;
  /** One line for `npm run eval -- --help`. */
  description: string;
  run(options: EvalOptions): Promise<EvalReport>;
}
