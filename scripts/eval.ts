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
       [--failures out.jsonl] [--concurrency 4] [--scripted expected|wrong]

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

With LANGSMITH_API_KEY set (and LANGSMITH_ENDPOINT for another LangSmith), the planner suite also
uploads its corpus as a dataset and runs as a LangSmith experiment.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "base-url": { type: "string" },
    model: { type: "string" },
    "api-key": { type: "string" },
    k: { type: "string", default: "5" },
    json: { type: "string" },
    failures: { type: "string" },
    concurrency: { type: "string", default: "4" },
    scripted: { type: "string", default: "expected" },
    help: { type: "boolean", short: "h", default: false },
  },
});

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

const started = performance.now();
const report = await suite.run({
  model,
  k,
  scripted,
  failures: values.failures ?? null,
  concurrency,
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${report.lines.join("\n")}\n`);
process.stderr.write(
  `${suite.name} (${report.mode}) took ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);
if (values.json) {
  await writeFile(values.json, `${JSON.stringify(report, null, 2)}\n`);
  process.stderr.write(`wrote ${values.json}\n`);
}
