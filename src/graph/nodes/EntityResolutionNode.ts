import { Command } from "@langchain/langgraph";
import type { DisambiguationState, ExecutionResult, HITLOption, HITLRequest } from "../../types/index.js";
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

/** "Edit" rounds of one approval question before Memo leaves the action undone. */
export const MAX_APPROVAL_EDITS = 5;

export function approvalOptions(language: "he" | "en"): HITLOption[] {
  return [
    { id: "approve", label: t(language, "approve") },
    { id: "edit", label: t(language, "edit") },
    { id: "cancel", label: t(language, "cancel") },
  ];
}

/** The approval question of a step: approve / edit / cancel (edit only when the resolver can revise), answered back at entity_resolution. */
function approvalRequest(
  question: string,
  stepId: string,
  language: "he" | "en",
  canEdit: boolean,
): HITLRequest {
  return {
    kind: "approval",
    source: "policy",
    reason: "policy_approval",
    question,
    options: approvalOptions(language).filter((o) => canEdit || o.id !== "edit"),
    expectedInput: "single_choice",
    returnTo: { node: "entity_resolution", mode: "apply_selection" },
    stepId,
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

      const entityResolver = deps.capabilities.entityResolverFor(step.capability);
      // A step that asked for confirmation or approval: the answer decides, with the args it was asked about.
      const awaiting = state.pendingExecutorArgs[step.id];
      let outcome: EntityResolution | undefined;
      if (awaiting) {
        const answers = answersFor(state, step.id);
        const answer = answers
          .filter((a) => ["policy_confirmation", "policy_approval", "approval_edit"].includes(a.reason))
          .at(-1);
        if (!answer) continue;
        const choice = Array.isArray(answer.value) ? answer.value[0] : answer.value;
        if (answer.reason === "approval_edit") {
          if (!entityResolver?.revise) {
            executionResults.set(step.id, failedResult(step, "CANCELLED", t(language, "cancelled")));
            continue;
          }
          outcome = await entityResolver.revise(
            step,
            awaiting,
            String(answer.value),
            capabilityContext(deps, state, step.id),
          );
        } else if (choice === "yes" || choice === "approve") {
          executorArgs.set(step.id, awaiting);
          continue;
        } else if (choice === "edit" && entityResolver?.revise) {
          if (hitlRequest) continue;
          const edits = answers.filter((a) => a.reason === "approval_edit").length;
          if (edits >= MAX_APPROVAL_EDITS) {
            executionResults.set(step.id, failedResult(step, "CANCELLED", t(language, "tooManyEdits")));
            continue;
          }
          hitlRequest = {
            kind: "clarification",
            source: "policy",
            reason: "approval_edit",
            question: t(language, "askEdit"),
            options: [],
            expectedInput: "free_text",
            returnTo: { node: "entity_resolution", mode: "apply_selection" },
            stepId: step.id,
          };
          continue;
        } else {
          executionResults.set(step.id, failedResult(step, "CANCELLED", t(language, "cancelled")));
          continue;
        }
      }

      if (!entityResolver) {
        executorArgs.set(step.id, result.args ?? {});
        continue;
      }
      const context = capabilityContext(deps, state, step.id);
      const pending = state.disambiguation;
      if (outcome) {
        // revised above
      } else if (pending && pending.stepId === step.id && !pending.resolved) {
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
        case "approve":
          if (hitlRequest) break;
          pendingExecutorArgs[step.id] = outcome.args;
          hitlRequest = approvalRequest(outcome.question, step.id, language, !!entityResolver.revise);
          break;
      }
    }

    const update: MemoUpdate = { executorArgs, executionResults, disambiguation, pendingExecutorArgs };
    if (hitlRequest) return new Command({ update: { ...update, hitlRequest }, goto: "hitl_gate" });
    return new Command({ update, goto: "executor" });
  };
}
