import type { CapabilityName } from "../../types/index.js";
import { replyLanguage } from "../../utils/language.js";
import { capabilityLabel, t } from "../../utils/userMessages.js";
import type { MemoGraphDeps } from "../deps.js";
import type { MemoState, MemoUpdate, UserContext } from "../state/MemoState.js";
import { NodeInputError } from "./instrument.js";

/** The plan flag a capability needs, where one applies. */
const FLAG: Partial<Record<CapabilityName, keyof UserContext["capabilities"]>> = {
  calendar: "calendar",
  gmail: "gmail",
  database: "database",
  "second-brain": "secondBrain",
};

/** Why a capability cannot run for this user, or null when it can. */
export function blockReason(
  capability: CapabilityName,
  user: UserContext,
  registered: boolean,
): "connect_google" | "unavailable" | null {
  if (!registered) return "unavailable";
  const flag = FLAG[capability];
  if (flag && !user.capabilities[flag]) return "unavailable";
  // Gmail has no built-in stand-in: it needs the user's Google account.
  if (capability === "gmail" && !user.googleConnected) return "connect_google";
  return null;
}

/** capability_check: stops the turn, with the fixed message, when a step needs what the user lacks (spec 001 §4). */
export function createCapabilityCheckNode(deps: MemoGraphDeps) {
  return (state: MemoState): Promise<MemoUpdate> => {
    if (!state.plannerOutput) throw new NodeInputError("capability_check", "plannerOutput");
    const language = replyLanguage(state.user.language);
    for (const step of state.plannerOutput.plan) {
      const reason = blockReason(step.capability, state.user, deps.capabilities.has(step.capability));
      if (!reason) continue;
      deps.logger.info(
        { node: "capability_check", capability: step.capability, reason, traceId: state.traceId },
        "step blocked",
      );
      const label = capabilityLabel(language, step.capability);
      return Promise.resolve({
        finalResponse: t(language, reason === "connect_google" ? "connectGoogle" : "capabilityUnavailable", {
          capability: label,
        }),
        error: {
          type: "permission",
          message: `${step.capability}: ${reason}`,
          failedNode: "capability_check",
          failedStep: step.id,
        },
      });
    }
    return Promise.resolve({});
  };
}
