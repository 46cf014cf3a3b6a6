// `npm run bench`: every benchmark, one JSON line each on stdout. Ratios are taken against a
// baseline measured in the same run, because the machines are noisy.
import { checkpointTurn } from "./checkpointTurn.js";
import { contextBuild } from "./contextBuild.js";
import { documents } from "./documents.js";
import { endToEnd } from "./endToEnd.js";
import { fastPath } from "./fastPath.js";
import { graphOverhead } from "./graphOverhead.js";
import { httpClient } from "./httpClient.js";
import { llmCalls } from "./llmCalls.js";
import { notesSearch } from "./notesSearch.js";
import { schedulerTick } from "./schedulerTick.js";
import { timeCorpus } from "./timeCorpus.js";
import { turnBudget } from "./turnBudget.js";
import { webhookAck } from "./webhookAck.js";

const BENCHES: Record<string, () => Promise<Record<string, unknown> | Record<string, unknown>[]>> = {
  checkpoint_turn: checkpointTurn,
  context_build: contextBuild,
  documents,
  end_to_end: endToEnd,
  fast_path: fastPath,
  graph_overhead: graphOverhead,
  http_client: httpClient,
  llm_calls: llmCalls,
  notes_search: notesSearch,
  scheduler_tick: schedulerTick,
  time_corpus: timeCorpus,
  turn_budget: turnBudget,
  webhook_ack: webhookAck,
};

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(BENCHES)) {
  if (only.length > 0 && !only.includes(name)) continue;
  const result = await run();
  for (const line of Array.isArray(result) ? result : [result])
    process.stdout.write(`${JSON.stringify(line)}\n`);
}
