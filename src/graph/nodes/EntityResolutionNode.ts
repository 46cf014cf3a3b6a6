import { Command } from "@langchain/langgraph";
import type { DisambiguationState, ExecutionResult, HITLRequest, PlanStep } from "../../types/index.js";
import { replyLanguage } from "../../utils/language.js";
import { t } from "../../utils/userMessages.js";
import type { MemoGraphDeps } from "../deps.js";
import { yesNoOptions } from "./HITLGateNode.js";
import { activeGroup, answersFor } from "../plan/executionGroups.js";
import type { EntityResolution } from "../registry.js";
import type { MemoState, MemoUpdate } from "../state/MemoState.js";
import { capabilityContext } from "./ResolverRouterNode.js";

export const ENTITY_RESOLUTION_ENDS = ["executor", "hitl_gate"] as const;

/** Disambiguation lists show at most this many candidates. */
export const MAX_CANDIDATES = 10;

function notExecuted(step: PlanStep, message: string, errorCode: string): ExecutionResult {
  return {
    stepId: step.id,
    success: false,
    errorCode,
    error: message,
    durationMs: 0,
    functionName: step.action,
    args: {},
  };
}

/**
 * entity_resolution: turns each resolved step's semantic args into ID-resolved `executorArgs`
 * (spec 001 §7). Several matches → a disambiguation question (template, machine-controlled options);
 * none → a failed result with a helpful message; a risky operation → a confirmation. On resume
 * (`apply_selection`) the user's choice is applied. Steps with no entity resolver pass through.
 */
export function createEntityResolutionNode(deps: MemoGraphDeps) {
  return async (state: MemoState): Promise<Command> => {
    const language = replyLanguage(state.user.language);
    const group = activeGroup(state) ?? [];
    const executorArgs = new Map<string, Record<string, unknown>>();
    const executionResults = new Map<string, ExecutionResult>();
    let disambiguation: DisambiguationState | undefined = state.disambiguation;
    let hitlRequest: HITLRequest | null = null;

    for (const step of group) {
      const result = state.resolverResults.get(step.id);
      if (
        !result ||
        result.type !== "execute" ||
        state.executorArgs.has(step.id) ||
        state.executionResults.has(step.id)
      )
        continue;
      const entityResolver = deps.capabilities.entityResolverFor(step.capability);
      if (!entityResolver) {
        executorArgs.set(step.id, result.args ?? {});
        continue;
      }
      const context = capabilityContext(deps, state, step.id);
      const pending = state.disambiguation;
      let outcome: EntityResolution;
      if (pending && pending.stepId === step.id && !pending.resolved) {
        const answer = context.answers.filter((a) => a.reason === "disambiguation").at(-1);
        if (!answer) continue;
        const selection = Array.isArray(answer.value) ? answer.value : [answer.value];
        outcome = await entityResolver.applySelection(step, pending, selection, context);
        disambiguation = { ...pending, userSelection: selection, resolved: true };
      } else {
        const confirmation = answersFor(state, step.id)
          .filter((a) => a.reason === "policy_confirmation")
          .at(-1);
        if (confirmation?.value === "no") {
          executionResults.set(step.id, notExecuted(step, t(language, "cancelled"), "CANCELLED"));
          continue;
        }
        outcome = await entityResolver.resolve(step, result, context);
        if (outcome.status === "confirm" && confirmation?.value === "yes") {
          outcome = { status: "resolved", args: result.args ?? {} };
        }
      }

      switch (outcome.status) {
        case "resolved":
          executorArgs.set(step.id, outcome.args);
          break;
        case "not_found":
          executionResults.set(step.id, notExecuted(step, outcome.message, "NOT_FOUND"));
          break;
        case "disambiguation": {
          if (hitlRequest) break; // one question at a time; this step waits for the next pass
          const candidates = outcome.disambiguation.candidates.slice(0, MAX_CANDIDATES);
          disambiguation = { ...outcome.disambiguation, candidates, resolved: false };
          hitlRequest = {
            kind: "disambiguation",
            source: "entity_resolution",
            reason: "disambiguation",
            question: t(language, "disambiguate", { entity: outcome.entityLabel }),
            options: candidates.map((c) => ({ id: c.id, label: c.displayText })),
            expectedInput: outcome.disambiguation.allowMultiple ? "multi_choice" : "single_choice",
            returnTo: { node: "entity_resolution", mode: "apply_selection" },
            stepId: step.id,
          };
          break;
        }
        case "confirm":
          if (hitlRequest) break;
          hitlRequest = {
            kind: "confirmation",
            source: "policy",
            reason: "policy_confirmation",
            question: outcome.question,
            options: yesNoOptions(language),
            expectedInput: "yes_no",
            returnTo: { node: "entity_resolution", mode: "apply_selection" },
            stepId: step.id,
          };
          break;
      }
    }

    const update: MemoUpdate = { executorArgs, executionResults, disambiguation };
    if (hitlRequest) return new Command({ update: { ...update, hitlRequest }, goto: "hitl_gate" });
    return new Command({ update, goto: "executor" });
  };
}
