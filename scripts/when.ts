// `npm run --silent when -- [--tz <zone>] [--now <ISO>] "<text>"`: the time in a message, as JSON.
// `npm run --silent when -- --batch`: one JSON request per stdin line, one JSON answer per line.
import readline from "node:readline";
import { parseArgs } from "node:util";
import { DEFAULT_WHEN_TIME_ZONE, whenFor, whenForLine, type WhenJson } from "../src/nlu/whenJson.js";

const HELP = `Usage:
  npm run --silent when -- [--tz <IANA zone>] [--now <ISO date-time>] "<text>"
  npm run --silent when -- --batch < requests.jsonl

Finds the time in the text (Hebrew or English) and prints one JSON object:
  {"kind":"instant","at":"<UTC ISO>","local":"YYYY-MM-DDTHH:mm","timeZone":"…","text":"<rest>"}
  {"kind":"recurring","recurrence":{"type":…,"time":"HH:mm",…},"firstAt":"<UTC ISO>","timeZone":"…","text":"…"}
and exits 0; prints {"error":"…"} and exits 1 when the text has no time, or --tz / --now is bad.

Options:
  --tz <zone>    IANA time zone (default: ${DEFAULT_WHEN_TIME_ZONE})
  --now <ISO>    the current time, e.g. 2026-03-11T08:00:00Z; without Z or an offset it is wall
                 time in --tz (default: the machine's clock)
  --batch        read JSON lines {"text","tz","now"} (tz and now optional, same defaults) from
                 standard input; write one JSON answer per line in the same order, {"error"} for a
                 bad line (an empty line too); always exits 0
  -h, --help     this text`;

function print(result: WhenJson): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function runBatch(): Promise<void> {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    print(whenForLine(line, Date.now()));
  }
}

function runOnce(args: { tz?: string; now?: string }, words: string[]): number {
  if (words.length === 0) {
    print({ error: "no text given (see --help)" });
    return 1;
  }
  const result = whenFor({ text: words.join(" "), ...args }, Date.now());
  print(result);
  return "error" in result ? 1 : 0;
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        tz: { type: "string" },
        now: { type: "string" },
        batch: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    print({ error: error instanceof Error ? error.message : String(error) });
    return 1;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (values.batch) {
    await runBatch();
    return 0;
  }
  const { tz, now } = values;
  return runOnce({ ...(tz !== undefined ? { tz } : {}), ...(now !== undefined ? { now } : {}) }, positionals);
}

process.exitCode = await main();
