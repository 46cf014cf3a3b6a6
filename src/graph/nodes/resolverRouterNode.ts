import { calendarOptionsOf } from "../../nlu/holidays.js";
import { Command } from "@langchain/langgraph";
import {
  MAX_HITL_ROUNDS,
  type ExecutionResult,
  type HITLRequest,
  type PlanStep,
  type ResolverResult,
} from "../../types/index.js";
import { mapWithConcurrency } from "../../utils/concurrency.js";
import { replyLanguage } from "../../utils/language.js";
import { t } from "../../messages/index.js";
import type { MemoGraphDeps } from "../deps.js";
import { activeGroup, answersFor, PlanCycleError } from "../plan/executionGroups.js";
import { failedResult } from "../plan/failedResult.js";
import { dependencyRefs, leftNothingFor } from "../plan/refs.js";
import { skippedStepText } from "../plan/skippedStep.js";
import { resolveTimeAnswer, TimeQuestionAbandoned } from "../plan/timeAnswer.js";
import { userTextOf } from "../errorText.js";
import { llmUsageUpdate } from "../state/metadata.js";
import type { CapabilityContext } from "../../types/capability.js";
import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";
import { NodeInputError } from "./instrument.js";

/** At most this many resolvers run at once (spec 003 MAX_PARALLEL_RESOLVERS). */
const MAX_PARALLEL_RESOLVERS = 3;

export const RESOLVER_ROUTER_ENDS = ["entity_resolution", "hitl_gate", "join", "response_writer"] as const;

/** The CapabilityContext of one step. */
export function capabilityContext(deps: MemoGraphDeps, state: MemoState, stepId: string): CapabilityContext {
  return {
    state,
    llm: deps.llm,
    logger: deps.logger,
    now: deps.clock(),
    language: replyLanguage(state.user.language),
    phone: state.threadId,
    answers: answersFor(state, stepId),
    dependencies: dependencyRefs(state, stepId),
  };
}

/**
 * resolver_router: runs the resolvers of the next dependency group in parallel (at most 3),
 * skipping steps already resolved (resume), then hands the group to entity_resolution. A resolver
 * that needs an answer sends the turn to hitl_gate; when every group has run, on to join.
 */
export function createResolverRouterNode(deps: MemoGraphDeps) {
  return async (state: MemoState): Promise<Command> => {
    if (!state.plannerOutput) throw new NodeInputError("resolver_router", "plannerOutput");
    const language = replyLanguage(state.user.language);
    let group: PlanStep[] | null;
    try {
      group = activeGroup(state);
    } catch (error) {
      if (!(error instanceof PlanCycleError)) throw error;
      deps.logger.error({ err: error, traceId: state.traceId }, "plan has a dependency cycle");
      return new Command({
        update: {
          finalResponse: userTextOf(error, language),
          error: { type: "validation", message: error.message, failedNode: "resolver_router" },
        },
        goto: "response_writer",
      });
    }
    if (!group) return new Command({ goto: "join" });
    // Each pass settles a group or asks a question; more passes than that means no progress.
    if (state.routerPasses > state.plannerOutput.plan.length * (MAX_HITL_ROUNDS + 2)) {
      deps.logger.error(
        { node: "resolver_router", passes: state.routerPasses, traceId: state.traceId },
        "plan made no progress",
      );
      return new Command({
        update: {
          finalResponse: t(language, "internalError"),
          error: { type: "internal", message: "resolver loop bound reached", failedNode: "resolver_router" },
        },
        goto: "response_writer",
      });
    }

    const executionResults = new Map<string, ExecutionResult>();
    // A step whose dependency failed, found nothing or was declined cannot run; the reply says what and why.
    const planSteps = new Map(state.plannerOutput.plan.map((s) => [s.id, s]));
    const runnable = group.filter((step) => {
      const failedDependency = step.dependsOn.find((d) => leftNothingFor(state.executionResults.get(d)));
      const dependency = failedDependency ? planSteps.get(failedDependency) : undefined;
      if (failedDependency)
        executionResults.set(
          step.id,
          failedResult(
            step,
            "DEPENDENCY_FAILED",
            dependency ? skippedStepText(state, step, dependency, language) : t(language, "internalError"),
          ),
        );
      return !failedDependency;
    });

    // Resolved steps are not resolved again; a step that asked is re-resolved once answered.
    const toResolve = runnable.filter((step) => {
      const previous = state.resolverResults.get(step.id);
      return !previous || (previous.type === "clarify" && answersFor(state, step.id).length > 0);
    });
    const resolved = await mapWithConcurrency(
      toResolve,
      MAX_PARALLEL_RESOLVERS,
      async (step): Promise<[PlanStep, ResolverResult | null]> => {
        const resolver = deps.capabilities.resolverFor(step);
        if (!resolver) {
          executionResults.set(
            step.id,
            failedResult(
              step,
              "NO_RESOLVER",
              t(language, "capabilityUnavailable", { capability: step.capability }),
            ),
          );
          return [step, null];
        }
        try {
          // A question about a time is answered in code, whichever path asked it (D10).
          const previous = state.resolverResults.get(step.id);
          if (previous?.resume) {
            const { now, language: lang, state: s } = capabilityContext(deps, state, step.id);
            const answers = answersFor(state, step.id);
            return [
              step,
              resolveTimeAnswer(
                { ...previous, resume: previous.resume },
                answers,
                now,
                s.user.timezone,
                lang,
                s.authContext?.user ? calendarOptionsOf(s.authContext.user) : {},
              ),
            ];
          }
          return [step, await resolver.resolve(step, capabilityContext(deps, state, step.id))];
        } catch (error) {
          if (error instanceof TimeQuestionAbandoned) {
            executionResults.set(step.id, failedResult(step, "NO_TIME_GIVEN", userTextOf(error, language)));
            return [step, null];
          }
          deps.logger.error(
            {
              err: error,
              node: "resolver_router",
              resolver: resolver.name,
              step: step.id,
              traceId: state.traceId,
            },
            "resolver failed",
          );
          executionResults.set(
            step.id,
            failedResult(step, "RESOLVER_FAILED", userTextOf(error, language, { unexplained: "llmFailed" })),
          );
          return [step, null];
        }
      },
    );

    const resolverResults = new Map<string, ResolverResult>();
    for (const [step, result] of resolved) if (result) resolverResults.set(step.id, result);
    // Every step of the group still waiting for an answer is asked about, one question at a time.
    const unanswered = runnable.find(
      (step) =>
        !executionResults.has(step.id) &&
        (resolverResults.get(step.id) ?? state.resolverResults.get(step.id))?.type === "clarify",
    );
    const question = unanswered
      ? (resolverResults.get(unanswered.id) ?? state.resolverResults.get(unanswered.id))
      : undefined;
    let hitlRequest: HITLRequest | null = null;
    if (unanswered && question) {
      const options = (question.options ?? []).map((label, i) => ({ id: `opt${i + 1}`, label }));
      hitlRequest = {
        kind: "clarification",
        source: "resolver",
        reason: "resolver_clarify",
        question: question.question ?? t(language, "clarifyQuestion"),
        options,
        expectedInput: options.length > 0 ? "single_choice" : "free_text",
        returnTo: { node: "resolver_router", mode: "continue" },
        stepId: unanswered.id,
        ...(question.resume ? { freeTextAllowed: true } : {}),
      };
    }
    const usages = [...resolverResults.values()].flatMap((r) => (r.llmUsage ? [r.llmUsage] : []));
    const update: MemoUpdate = {
      resolverResults,
      executionResults,
      routerPasses: state.routerPasses + 1,
      metadata: llmUsageUpdate(...usages),
    };
    if (hitlRequest) return new Command({ update: { ...update, hitlRequest }, goto: "hitl_gate" });
    return new Command({ update, goto: "entity_resolution" });
  };
}
