import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { memoGraphMermaid } from "../../src/graph/diagram.js";
import { ARCHITECTURE_DOC, graphBlockOf } from "../../scripts/docsGraphBlock.js";

describe("docs/ARCHITECTURE.md", () => {
  it("shows the graph as it is compiled (run `npm run docs:graph` after changing the wiring)", async () => {
    const block = graphBlockOf(await readFile(ARCHITECTURE_DOC, "utf8"));
    expect(block).not.toBeNull();
    expect(block).toBe(await memoGraphMermaid());
  });

  it("draws every node of the spec", async () => {
    const mermaid = await memoGraphMermaid();
    for (const node of [
      "context_assembly",
      "reply_context",
      "planner",
      "capability_check",
      "hitl_gate",
      "resolver_router",
      "entity_resolution",
      "executor",
      "join",
      "response_formatter",
      "response_writer",
      "memory_update",
    ]) {
      expect(mermaid).toContain(node);
    }
  });
});
