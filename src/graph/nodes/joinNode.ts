import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";

/** join: notes whether every step failed (an error) or only some did (the writer says which). */
export function createJoinNode() {
  return (state: MemoState): Promise<MemoUpdate> => {
    const results = (state.plannerOutput?.plan ?? []).map((s) => state.executionResults.get(s.id));
    const failures = results.filter((r) => r && !r.success);
    if (results.length > 0 && failures.length === results.length) {
      return Promise.resolve({
        error: {
          type: "internal",
          message: `all ${results.length} step(s) failed`,
          failedNode: "join",
          failedStep: failures[0]?.stepId,
        },
      });
    }
    return Promise.resolve({});
  };
}
