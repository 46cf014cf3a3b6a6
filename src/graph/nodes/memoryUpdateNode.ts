import { MEMORY_ACTIONS } from "../../nlu/noteCommands.js";
import type { LatestAction } from "../../types/index.js";
import type { MemoGraphDeps } from "../deps.js";
import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";
import { NodeInputError } from "./instrument.js";
import { settleDisambiguation } from "../hitl/disambiguationSnapshot.js";
import { recentTasksOf } from "../plan/recentTasks.js";

/** Capabilities whose results are answers, not actions on things "it" could refer to. */
const NOT_ACTIONS = new Set(["general", "meta"]);

/**
 * memory_update: the reply joins the conversation window (limits enforced there and in the
 * state reducer), and every successful action becomes a latest action (FIFO of 10; spec 001). The
 * turn's memory changes, the user's message included, are saved here in one write.
 */
export function createMemoryUpdateNode(deps: MemoGraphDeps) {
  return async (state: MemoState): Promise<MemoUpdate> => {
    const phone = state.threadId;
    if (!phone) throw new NodeInputError("memory_update", "threadId");
    const now = deps.clock();

    const actions = (state.plannerOutput?.plan ?? []).flatMap((step): LatestAction[] => {
      const result = state.executionResults.get(step.id);
      if (!result?.success || NOT_ACTIONS.has(step.capability)) return [];
      return [
        {
          createdAt: now,
          capability: step.capability,
          action: result.latestAction?.action ?? result.functionName,
          summary: result.latestAction?.summary ?? step.action,
          ...(result.latestAction?.when ? { when: result.latestAction.when } : {}),
          ...(result.latestAction?.externalIds ? { externalIds: result.latestAction.externalIds } : {}),
        },
      ];
    });
    // Held with the rest of the turn (a resumed turn did not start here), saved with the reply.
    deps.memory.holdWrites(phone);
    await deps.memory.pushLatestAction(phone, ...actions);
    // Also held: the tasks this turn created or completed, and what its disambiguation left.
    const recentTasks = recentTasksOf(state);
    await deps.memory.pushRecentTasks(phone, recentTasks);
    await settleDisambiguation(deps.memory, phone, state);
    const acted = actions.length > 0;

    if (!state.finalResponse) {
      await deps.memory.commit(phone);
      return { acted };
    }
    // The reply's numbered listing (the last one, if several steps showed one), so "done 2" can name it.
    const numbered = (state.plannerOutput?.plan ?? [])
      .map((step) => state.executionResults.get(step.id))
      .filter((result) => result?.success && result.numbered)
      .at(-1)?.numbered;
    const memoryCommand = (state.plannerOutput?.plan ?? []).some(
      (step) => step.capability === "second-brain" && MEMORY_ACTIONS.has(step.action),
    );
    const metadata = {
      ...(numbered ? { numbered } : {}),
      ...(memoryCommand ? { memoryCommand } : {}),
      // A saved text's offer: "1 and 2" after this reply adds its items (graph/plan/offerAnswer.ts).
      ...(state.documentOffer ? { documentOffer: state.documentOffer } : {}),
    };
    // Memo's message ends the turn: everything it held is saved with it, in one write.
    await deps.memory.addAssistantMessage(
      phone,
      state.finalResponse,
      undefined,
      Object.keys(metadata).length > 0 ? metadata : undefined,
    );
    // Summaries and remembered facts are worked out after the reply, in the background, when the
    // turn leaves them work (enough messages left the window, or the user may have said something to
    // keep); the tasks it completed become episodes there too, never a statement of this turn.
    const completed = recentTasks.filter((task) => task.completed).map((task) => ({ ...task, at: now }));
    if (deps.memory.takeLongTermWork(phone) || completed.length > 0)
      deps.longTerm?.schedule(phone, deps.memory.getRecentMessages(phone).length, completed);
    // The reply as memory stored it, so state and window agree.
    const message = deps.memory.getRecentMessages(phone).at(-1);
    return { acted, ...(message ? { recentMessages: [message] } : {}) };
  };
}
