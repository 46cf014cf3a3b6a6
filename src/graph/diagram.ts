import { createCoreCapabilities } from "./capabilities/core/coreCapabilities.js";
import { buildMemoGraph } from "./memoGraph.js";
import type { MemoGraphDeps } from "./deps.js";
import { createLogger } from "../utils/logger.js";

/** The compiled graph drawn as Mermaid, for docs/ARCHITECTURE.md. Services are never called. */
export async function memoGraphMermaid(): Promise<string> {
  const unused = new Proxy({}, { get: () => () => Promise.reject(new Error("not called when drawing")) });
  const deps: MemoGraphDeps = {
    users: unused as MemoGraphDeps["users"],
    memory: unused as MemoGraphDeps["memory"],
    llm: null,
    capabilities: createCoreCapabilities(),
    logger: createLogger("silent"),
    clock: Date.now,
    newId: () => "",
    defaultTimeZone: "Asia/Jerusalem",
  };
  const drawable = await buildMemoGraph(deps).getGraphAsync();
  return drawable.drawMermaid({ withStyles: false }).trim();
}
