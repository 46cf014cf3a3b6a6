import { readFileSync } from "node:fs";
import path from "node:path";
import { fastPathTurn } from "../src/graph/plan/fastPath.js";
import { percentile } from "./stats.js";

/** Thursday 5 March 2026, 12:00 in Jerusalem: the "now" the corpus was written against. */
const NOW = Date.parse("2026-03-05T10:00:00Z");
const ZONE = "Asia/Jerusalem";
/** Decisions timed per message; the first rounds warm the JIT and are dropped. */
const ROUNDS = 60;
const WARMUP = 10;

/**
 * The fast path over the committed scenario corpus (tests/nlu/fastPathCorpus.jsonl): the share of
 * messages decided with zero LLM calls, whether every command was taken and no free-form request
 * was, and how long one decision takes (per decision, over all messages and rounds).
 */
export function fastPath(): Promise<Record<string, unknown>> {
  const corpus = readFileSync(path.resolve(import.meta.dirname, "../tests/nlu/fastPathCorpus.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { text: string; expect: string });
  const registered = () => true;
  const samples: number[] = [];
  let decided = 0;
  let commandsDecided = 0;
  let freeFormCaptured = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const entry of corpus) {
      const started = performance.now();
      const turn = fastPathTurn(entry.text, NOW, ZONE, registered);
      const ms = performance.now() - started;
      if (round < WARMUP) continue;
      samples.push(ms);
      if (round !== WARMUP) continue;
      if (turn) decided++;
      if (entry.expect !== "planner" && turn) commandsDecided++;
      if (entry.expect === "planner" && turn) freeFormCaptured++;
    }
  }
  const commands = corpus.filter((e) => e.expect !== "planner").length;
  return Promise.resolve({
    bench: "fast_path",
    messages: corpus.length,
    share_zero_llm: Number((decided / corpus.length).toFixed(3)),
    commands_decided: `${commandsDecided}/${commands}`,
    free_form_captured: freeFormCaptured,
    p50_decision_ms: Number(percentile(samples, 50).toFixed(3)),
    p99_decision_ms: Number(percentile(samples, 99).toFixed(3)),
  });
}
