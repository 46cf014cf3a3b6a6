import { recognizeMemoryCommand } from "../../nlu/noteCommands.js";
import type { LongTermRead } from "../../services/memory/memoryService.js";
import { describeError } from "../../utils/errors.js";
import { detectLanguage } from "../../utils/language.js";
import { buildTimeContext } from "../../utils/timeContext.js";
import { ALL_IN_EVERY_TIER, capabilityAccess } from "../../config/planTiers.js";
import type { MemoGraphDeps } from "../deps.js";
import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";
import { NodeInputError } from "./instrument.js";

/** How many latest actions the planner sees (spec 001). */
const LATEST_ACTIONS_FOR_PLANNER = 3;

/**
 * The long-term memory for the planner, from what the turn's read brought (read here when it
 * brought none); a failure is logged and the turn goes on without it.
 */
async function longTermContext(
  deps: MemoGraphDeps,
  phone: string,
  message: string,
  read: LongTermRead | null,
  timeZone: string,
  traceId: string | undefined,
): Promise<string | undefined> {
  if (!deps.longTerm) return undefined;
  try {
    return (await deps.longTerm.contextFor(phone, message, read, timeZone)).text;
  } catch (error) {
    deps.logger.error(
      { node: "context_assembly", traceId, error: describeError(error) },
      "long-term memory could not be read",
    );
    return undefined;
  }
}

/**
 * context_assembly: takes the user the caller loaded (the transport), or loads it (created on
 * first contact) when called without one (tests, the replay, the chat script); starts the turn's
 * memory with one read (the window, the summary and the facts for the message), adds the message
 * to the window (saved with the turn's other changes when it ends: memory_update, or the question
 * a paused turn asks), and builds the time context (spec 000 §3.1).
 */
export function createContextAssemblyNode(deps: MemoGraphDeps) {
  return async (state: MemoState): Promise<MemoUpdate> => {
    const phone = state.threadId;
    if (!phone) throw new NodeInputError("context_assembly", "threadId");
    if (!state.input) throw new NodeInputError("context_assembly", "input");
    const { input } = state;

    const detected = detectLanguage(input.message);
    let user =
      input.user ??
      (await deps.users.getOrCreate(phone, {
        timeZone: deps.defaultTimeZone,
        ...(detected ? { language: detected } : {}),
      }));
    if (user.language === null && detected)
      user = (await deps.users.update(phone, { language: detected })) ?? user;

    const read = await deps.memory.beginTurn(phone, deps.longTerm ? { longTermFor: input.message } : {});
    if (input.triggerType === "user") {
      // "forget that I…" repeats what is to be forgotten: it stays out of long-term history.
      const memoryCommand = recognizeMemoryCommand(input.message) !== null;
      const metadata = {
        ...(input.imageContext ? { imageContext: input.imageContext } : {}),
        ...(memoryCommand ? { memoryCommand } : {}),
        ...(input.forwarded ? { forwarded: true } : {}),
      };
      await deps.memory.addUserMessage(phone, input.message, {
        ...(input.whatsappMessageId ? { whatsappMessageId: input.whatsappMessageId } : {}),
        ...(input.replyToMessageId ? { replyToMessageId: input.replyToMessageId } : {}),
        ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
      });
    }
    const longTermSummary = await longTermContext(
      deps,
      phone,
      input.message,
      read,
      user.timeZone,
      state.traceId,
    );

    const language = detected ?? user.language ?? "en";
    const now = deps.clock();
    return {
      authContext: { user },
      user: {
        phone,
        timezone: user.timeZone,
        language,
        planTier: user.planTier,
        googleConnected: user.googleConnected,
        capabilities: capabilityAccess(deps.planTiers ?? ALL_IN_EVERY_TIER, user),
        ...(user.displayName ? { userName: user.displayName } : {}),
      },
      now: buildTimeContext(now, user.timeZone, language),
      recentMessages: deps.memory.getRecentMessages(phone),
      latestActions: deps.memory.getLatestActions(phone, LATEST_ACTIONS_FOR_PLANNER),
      longTermSummary,
      metadata: { startTime: now },
    };
  };
}
