// `npm run eval -- <suite> [--base-url URL --model NAME --api-key KEY] [--k 5] [--json out.json] …`:
// runs an evaluation suite of evals/<suite>/ (docs/EVALS.md). Without --base-url a suite runs
// scripted, with no model (or a scripted one); with it, Memo talks to that OpenAI-compatible
// server. The results are printed on stdout (progress on stderr), and with --json also written as JSON.
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { memorySuite } from "../evals/memory/suite.js";
import { plannerSuite } from "../evals/planner/suite.js";
import type { EvalModel, EvalSuite } from "../evals/suite.js";

/** Every suite, by the name typed after `npm run eval --`. A new suite is one more entry. */
const SUITES: readonly EvalSuite[] = [memorySuite, plannerSuite];

const USAGE = `npm run eval -- <suite> [--base-url URL --model NAME [--api-key KEY]] [--k 5] [--json out.json]
       [--failures out.jsonl] [--concurrency 4] [--scripted expected|wrong] [--langsmith]

suites:
${SUITES.map((s) => `  ${s.name.padEnd(10)} ${s.description}`).join("\n")}

  --base-url  an OpenAI-compatible server (e.g. http://127.0.0.1:8080/v1): model mode
  --model     the model every node uses (required with --base-url)
  --api-key   its key (default: OPENAI_API_KEY, else "not-needed")
  --k         ranked items that count as retrieved in scripted mode (memory; default: 5)
  --json      also write the full results to this file
  --failures  write what failed here, one JSON a line (planner; default: a file in the temp folder)
  --concurrency  model calls at once (planner; default: 4)
  --scripted  without --base-url, what the scripted model answers: expected (scores 1.00) or
              wrong (every item wrong in one way, to see the harness flag it) (planner; default: expected)

  --langsmith run the planner suite as a LangSmith experiment too (needs LANGSMITH_API_KEY; with
              --base-url that is the default when the key is set; scripted runs only with this flag)

With LANGSMITH_API_KEY set (and LANGSMITH_ENDPOINT for another LangSmith), the planner suite with a
model also uploads its corpus as a dataset and runs as a LangSmith experiment.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function parsed() {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (error) {
    // An unknown or malformed flag: say which, with the usage, not a stack trace.
    return fail(error instanceof Error ? error.message : String(error));
  }
}

const OPTIONS = {
  "base-url": { type: "string" },
  model: { type: "string" },
  "api-key": { type: "string" },
  k: { type: "string", default: "5" },
  json: { type: "string" },
  failures: { type: "string" },
  concurrency: { type: "string", default: "4" },
  scripted: { type: "string", default: "expected" },
  langsmith: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

const { values, positionals } = parsed();

if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const name = positionals[0];
if (!name || positionals.length > 1) fail("Name one suite.");
const suite = SUITES.find((s) => s.name === name) ?? fail(`No suite "${name}".`);
const k = Number(values.k);
if (!Number.isInteger(k) || k < 1) fail(`--k must be a whole number from 1 (got "${values.k}").`);
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1)
  fail(`--concurrency must be a whole number from 1 (got "${values.concurrency}").`);
const scripted = values.scripted;
if (scripted !== "expected" && scripted !== "wrong")
  fail(`--scripted is expected or wrong (got "${scripted}").`);
if (values.model !== undefined && values["base-url"] === undefined) fail("--model needs --base-url.");
if (values["base-url"] !== undefined && scripted !== "expected")
  fail("--scripted is for runs without --base-url.");
let model: EvalModel | null = null;
if (values["base-url"] !== undefined) {
  if (!/^https?:\/\/\S+$/.test(values["base-url"])) fail("--base-url must be an http:// or https:// URL.");
  if (!values.model) fail("--base-url needs --model.");
  model = {
    baseUrl: values["base-url"],
    model: values.model,
    apiKey: values["api-key"] ?? process.env.OPENAI_API_KEY ?? "not-needed",
  };
}

const hasLangSmithKey = (process.env.LANGSMITH_API_KEY ?? "") !== "";
if (values.langsmith && !hasLangSmithKey) fail("--langsmith needs LANGSMITH_API_KEY.");
// A scripted run is a check of the harness: it reaches LangSmith only when asked to.
const langsmith = values.langsmith || (model !== null && hasLangSmithKey);

const started = performance.now();
// A run that cannot start (no server, a refused key, a failures file it cannot write) says why, no stack trace.
const report = await suite
  .run({
    model,
    k,
    scripted,
    failures: values.failures ?? null,
    langsmith,
    concurrency,
    log: (line) => process.stderr.write(`${line}\n`),
  })
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
process.stdout.write(`${report.lines.join("\n")}\n`);
process.stderr.write(
  `${suite.name} (${report.mode}) took ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);
if (values.json) {
  await writeFile(values.json, `${JSON.stringify(report, null, 2)}\n`);
  process.stderr.write(`wrote ${values.json}\n`);
}
