import type { CapabilityName } from "../../types/index.js";
import { replyLanguage } from "../../utils/language.js";
import { capabilityLabel, t } from "../../messages/index.js";
import type { MemoGraphDeps } from "../deps.js";
import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";
import type { UserContext } from "../../types/state.js";
import { NodeInputError } from "./instrument.js";
import { ALL_IN_EVERY_TIER, tierIncludes, userAllows, type PlanTiers } from "../../config/planTiers.js";

/**
 * Why a capability cannot run for this user, or null when it can. In this order: not built here;
 * not in the user's tier (PLAN_TIERS); Gmail before Google is connected; turned off for the user.
 */
function blockReason(
  capability: CapabilityName,
  user: UserContext,
  registered: boolean,
  tiers: PlanTiers,
): "connect_google" | "not_in_plan" | "unavailable" | null {
  if (!registered) return "unavailable";
  if (!tierIncludes(tiers, user.planTier, capability)) return "not_in_plan";
  // Gmail has no built-in stand-in: it needs the user's Google account.
  if (capability === "gmail" && !user.googleConnected) return "connect_google";
  if (!userAllows(user.capabilities, capability)) return "unavailable";
  return null;
}

/** The fixed reply of a step blocked for a reason other than Google. */
const REFUSAL = { not_in_plan: "notInPlan", unavailable: "capabilityUnavailable" } as const;

/**
 * The "connect Google" reply of a blocked step: with a connect link right away when one can be
 * made, saying access was lost when it was, else the plain "say connect Google" text.
 */
async function connectGoogleReply(
  deps: MemoGraphDeps,
  phone: string,
  language: "he" | "en",
  capability: string,
  traceId: string | undefined,
): Promise<string> {
  if (!deps.google) return t(language, "connectGoogle", { capability });
  try {
    const status = await deps.google.status(phone);
    const url = await deps.google.connectLink(phone);
    if (status === "lost") {
      return url ? t(language, "google.lost", { capability, url }) : t(language, "google.lostNoLink");
    }
    return url
      ? t(language, "google.connectWithLink", { capability, url })
      : t(language, "connectGoogle", { capability });
  } catch (error) {
    // No link this time; the fixed text still tells the user what to do.
    deps.logger.error({ err: error, node: "capability_check", traceId }, "connect link failed");
    return t(language, "connectGoogle", { capability });
  }
}

/**
 * capability_check: stops the turn, with the fixed message, when a step needs what the user lacks
 * (spec 001 §4): a capability outside their plan tier, Google, or one not available here.
 */
export function createCapabilityCheckNode(deps: MemoGraphDeps) {
  return async (state: MemoState): Promise<MemoUpdate> => {
    if (!state.plannerOutput) throw new NodeInputError("capability_check", "plannerOutput");
    const language = replyLanguage(state.user.language);
    for (const step of state.plannerOutput.plan) {
      const reason = blockReason(
        step.capability,
        state.user,
        deps.capabilities.has(step.capability),
        deps.planTiers ?? ALL_IN_EVERY_TIER,
      );
      if (!reason) continue;
      deps.logger.info(
        {
          node: "capability_check",
          capability: step.capability,
          reason,
          planTier: state.user.planTier,
          traceId: state.traceId,
        },
        "step blocked",
      );
      const label = capabilityLabel(language, step.capability);
      return {
        finalResponse:
          reason === "connect_google"
            ? await connectGoogleReply(deps, state.user.phone, language, label, state.traceId)
            : t(language, REFUSAL[reason], { capability: label }),
        error: {
          type: "permission",
          message: `${step.capability}: ${reason}`,
          failedNode: "capability_check",
          failedStep: step.id,
        },
      };
    }
    return {};
  };
}
