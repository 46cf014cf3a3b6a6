import { Command } from "@langchain/langgraph";
import type {
  DisambiguationState,
  ExecutionResult,
  HITLOption,
  HITLRequest,
  PlanStep,
} from "../../types/index.js";
import { replyLanguage } from "../../utils/language.js";
import { t } from "../../messages/index.js";
import type { MemoGraphDeps } from "../deps.js";
import { plannedRisky, plannerConfirmed, yesNoOptions } from "./hitlGateNode.js";
import { activeGroup, answersFor } from "../plan/executionGroups.js";
import { failedResult } from "../plan/failedResult.js";
import type { EntityResolution } from "../../types/capability.js";
import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";
import { capabilityContext } from "./resolverRouterNode.js";

export const ENTITY_RESOLUTION_ENDS = ["executor", "hitl_gate"] as const;

/** Actions that remove something (tasks, lists, events, notes, facts, emails). */
const DELETES = /delete|remove|trash|forget|clear/i;

/** Marks the args of a step held for a question asked about several steps at once. */
const ASKED_WITH = "__askedWith";

/** Marks the args of a step held for its own risk confirmation: the question, naming what it changes. */
const RISK_QUESTION = "__riskQuestion";

/** The question id (in place of a step id) of "this plan deletes several things". */
const BULK_DELETES = "plan:deletes";

/** What a step is about, for a question: the resolver's words for it, the planner's, or its action. */
function labelOf(state: MemoState, step: PlanStep): string {
  const sources = [state.resolverResults.get(step.id)?.args, step.constraints, step.changes];
  for (const args of sources) {
    for (const key of ["text", "title", "name", "target", "content", "query", "subject"]) {
      const value = args?.[key];
      if (typeof value === "string" && value.trim() !== "") return value.trim().slice(0, 80);
    }
  }
  return step.action.replace(/_/g, " ");
}

/** Disambiguation lists show at most this many candidates. */
const MAX_CANDIDATES = 10;

/** "Edit" rounds of one approval question before Memo leaves the action undone. @internal */
export const MAX_APPROVAL_EDITS = 5;

function approvalOptions(language: "he" | "en"): HITLOption[] {
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
    // Steps resolved in this pass without a question (not those just confirmed or approved).
    const freshlyResolved = new Set<string>();
    // Fresh steps the several-deletes question, answered yes, already named.
    const confirmedTogether = new Set<string>();
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
        // Steps asked about together share the first one's answer.
        const askedWith = typeof awaiting[ASKED_WITH] === "string" ? awaiting[ASKED_WITH] : step.id;
        const answers = answersFor(state, askedWith);
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
          const { [ASKED_WITH]: _asked, [RISK_QUESTION]: _question, ...args } = awaiting;
          executorArgs.set(step.id, args);
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
          freshlyResolved.add(step.id);
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

    // A plan of several delete steps deletes several things: asked once, in code, before the first
    // of them runs, like a single step that deletes several. Holds across groups (steps chained by
    // dependsOn) and around other questions: no delete of such a plan runs unconfirmed.
    const planDeletes = (state.plannerOutput?.plan ?? []).filter((step) => DELETES.test(step.action));
    if (planDeletes.length > 1) {
      const answer = answersFor(state, BULK_DELETES)
        .filter((a) => a.reason === "policy_confirmation")
        .at(-1);
      const decision = Array.isArray(answer?.value) ? answer.value[0] : answer?.value;
      const fresh = group.filter((step) => freshlyResolved.has(step.id) && DELETES.test(step.action));
      if (decision === "yes") {
        for (const step of fresh) confirmedTogether.add(step.id);
      } else if (decision === "no") {
        for (const step of fresh) {
          executorArgs.delete(step.id);
          executionResults.set(step.id, failedResult(step, "CANCELLED", t(language, "cancelled")));
        }
      } else if (decision !== "yes") {
        for (const step of fresh) {
          pendingExecutorArgs[step.id] = { ...executorArgs.get(step.id), [ASKED_WITH]: BULK_DELETES };
          executorArgs.delete(step.id);
        }
        const held = group.some(
          (step) =>
            pendingExecutorArgs[step.id]?.[ASKED_WITH] === BULK_DELETES ||
            (state.pendingExecutorArgs[step.id]?.[ASKED_WITH] === BULK_DELETES &&
              !state.executorArgs.has(step.id) &&
              !state.executionResults.has(step.id)),
        );
        if (held && !hitlRequest) {
          const names = planDeletes.map((step) => `• ${labelOf(state, step)}`);
          hitlRequest = {
            kind: "confirmation",
            source: "policy",
            reason: "policy_confirmation",
            question: t(language, "confirmDeleteSeveral", {
              count: String(planDeletes.length),
              names: names.join("\n"),
            }),
            options: yesNoOptions(language),
            expectedInput: "yes_no",
            returnTo: { node: "entity_resolution", mode: "apply_selection" },
            stepId: BULK_DELETES,
          };
        }
      }
    }

    // A plan the planner marked risky (high risk, needs approval: e.g. a delete asked for in forwarded
    // text) asks before each step that changes something, naming the action and the exact entity
    // (D12), unless this turn already asked about it: its own confirm/approve question, the
    // several-deletes question, or the planner's own question. A disambiguation answer chose which
    // one, it did not agree to the action, so that step is still asked. Fast-path commands the user
    // typed are planned low-risk and never asked here.
    if (plannedRisky(state) && !plannerConfirmed(state)) {
      for (const step of group) {
        const args = executorArgs.get(step.id);
        if (!args || !freshlyResolved.has(step.id) || confirmedTogether.has(step.id)) continue;
        const entityResolver = deps.capabilities.entityResolverFor(step.capability);
        const question = await entityResolver?.confirmation?.(
          step,
          args,
          capabilityContext(deps, state, step.id),
        );
        if (!question) continue;
        pendingExecutorArgs[step.id] = { ...args, [RISK_QUESTION]: question };
        executorArgs.delete(step.id);
      }
      // One question at a time: the first held step not yet answered (answered ones are handled above).
      const unanswered = group
        .map((step) => ({ step, held: pendingExecutorArgs[step.id] ?? state.pendingExecutorArgs[step.id] }))
        .find(
          ({ step, held }) =>
            typeof held?.[RISK_QUESTION] === "string" &&
            !executorArgs.has(step.id) &&
            !executionResults.has(step.id) &&
            !state.executorArgs.has(step.id) &&
            !state.executionResults.has(step.id) &&
            !answersFor(state, step.id).some((a) => a.reason === "policy_confirmation"),
        );
      if (unanswered && !hitlRequest) {
        hitlRequest = {
          kind: "confirmation",
          source: "policy",
          reason: "policy_confirmation",
          question: String(unanswered.held![RISK_QUESTION]),
          options: yesNoOptions(language),
          expectedInput: "yes_no",
          returnTo: { node: "entity_resolution", mode: "apply_selection" },
          stepId: unanswered.step.id,
        };
      }
    }

    const update: MemoUpdate = { executorArgs, executionResults, disambiguation, pendingExecutorArgs };
    if (hitlRequest) return new Command({ update: { ...update, hitlRequest }, goto: "hitl_gate" });
    return new Command({ update, goto: "executor" });
  };
}
