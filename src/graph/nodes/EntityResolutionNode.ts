import { Command } from "@langchain/langgraph";
import type { DisambiguationState, ExecutionResult, HITLRequest } from "../../types/index.js";
import { replyLanguage } from "../../utils/language.js";
import { t } from "../../utils/userMessages.js";
import type { MemoGraphDeps } from "../deps.js";
import { yesNoOptions } from "./HITLGateNode.js";
import { activeGroup, answersFor } from "../plan/executionGroups.js";
import { failedResult } from "../plan/failedResult.js";
import type { EntityResolution } from "../registry.js";
import type { MemoState, MemoUpdate } from "../state/MemoState.js";
import { capabilityContext } from "./ResolverRouterNode.js";

export const ENTITY_RESOLUTION_ENDS = ["executor", "hitl_gate"] as const;

/** Disambiguation lists show at most this many candidates. */
export const MAX_CANDIDATES = 10;

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

    const pendingExecutorArgs: Record<string, Record<string, unknown>> = {};
    for (const step of group) {
      const result = state.resolverResults.get(step.id);
      if (
        !result ||
        result.type !== "execute" ||
        state.executorArgs.has(step.id) ||
        state.executionResults.has(step.id)
      )
        continue;

      // A step that asked for confirmation: the answer decides, with the args it was asked about.
      const awaiting = state.pendingExecutorArgs[step.id];
      if (awaiting) {
        const confirmation = answersFor(state, step.id)
          .filter((a) => a.reason === "policy_confirmation")
          .at(-1);
        if (confirmation?.value === "yes") executorArgs.set(step.id, awaiting);
        else if (confirmation)
          executionResults.set(step.id, failedResult(step, "CANCELLED", t(language, "cancelled")));
        continue;
      }

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
        outcome = await entityResolver.resolve(step, result, context);
      }

      switch (outcome.status) {
        case "resolved":
          executorArgs.set(step.id, outcome.args);
          break;
        case "not_found":
          executionResults.set(step.id, failedResult(step, "NOT_FOUND", outcome.message));
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
          pendingExecutorArgs[step.id] = outcome.args;
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

    const update: MemoUpdate = { executorArgs, executionResults, disambiguation, pendingExecutorArgs };
    if (hitlRequest) return new Command({ update: { ...update, hitlRequest }, goto: "hitl_gate" });
    return new Command({ update, goto: "executor" });
  };
}
