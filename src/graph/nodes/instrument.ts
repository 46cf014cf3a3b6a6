import { Command } from "@langchain/langgraph";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";
import { MemoError } from "../../utils/errors.js";

type NodeResult = MemoUpdate | Command;
export type MemoNode = (state: MemoState, config: LangGraphRunnableConfig) => Promise<NodeResult>;

/** Thrown when a node is reached without a field it needs: a wiring bug, named precisely. */
export class NodeInputError extends MemoError {
  constructor(node: string, field: string) {
    super(`${node}: missing ${field} in state`, { node, field });
  }
}

/** Records the node's timing in `metadata.nodeExecutions`, whether it returns an update or a Command. */
export function instrument(name: string, node: MemoNode, clock: () => number): MemoNode {
  return async (state, config) => {
    const startTime = clock();
    const started = performance.now();
    const result = await node(state, config);
    const execution = { node: name, startTime, endTime: clock(), durationMs: performance.now() - started };
    if (result instanceof Command) {
      const update = (result.update ?? {}) as MemoUpdate;
      return new Command({
        update: { ...update, metadata: { ...update.metadata, nodeExecutions: [execution] } },
        goto: result.goto,
      });
    }
    return { ...result, metadata: { ...result.metadata, nodeExecutions: [execution] } };
  };
}
