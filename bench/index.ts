// `npm run bench`: every benchmark, one JSON line each on stdout. Ratios are taken against a
// baseline measured in the same run, because the machines are noisy.
import { checkpointTurn } from "./checkpointTurn.js";
import { graphOverhead } from "./graphOverhead.js";

const BENCHES: Record<string, () => Promise<Record<string, unknown>>> = {
  checkpoint_turn: checkpointTurn,
  graph_overhead: graphOverhead,
};

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(BENCHES)) {
  if (only.length > 0 && !only.includes(name)) continue;
  process.stdout.write(`${JSON.stringify(await run())}\n`);
}
