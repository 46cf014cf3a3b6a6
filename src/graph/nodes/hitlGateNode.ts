import { Command, interrupt } from "@langchain/langgraph";
import {
  CONFIDENCE_THRESHOLD,
  HITL_TTL_MS,
  MAX_HITL_ATTEMPTS,
  MAX_HITL_ROUNDS,
  type HITLAnswer,
  type HITLExpectedInput,
  type HITLInterruptPayload,
  type HITLOption,
  type HITLRequest,
  type HITLResult,
  type PendingHITL,
  type CapabilityName,
  CAPABILITY_NAMES,
} from "../../types/index.js";
import { replyLanguage } from "../../utils/language.js";
import { quotedInline } from "../../utils/quotedText.js";
import { capabilityLabel, t, type MessageKey } from "../../messages/index.js";
import type { MemoGraphDeps } from "../deps.js";
import { plannedCreations, riskyPlanAsker, type PlannedCreation } from "../plan/planPolicy.js";
import { cancelsChoice, validateAnswer } from "../hitl/validateAnswer.js";
import { HITL_EXPIRY_GRACE_MS, renderQuestion } from "../hitl/hitlPlane.js";
import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";

/** Where hitl_gate can send the graph. */
export const HITL_GATE_ENDS = [
  "hitl_gate",
  "planner",
  "resolver_router",
  "entity_resolution",
  "response_writer",
] as const;

const INVALID_PREFIX: Record<HITLExpectedInput, MessageKey> = {
  yes_no: "invalidYesNo",
  single_choice: "invalidSingle",
  multi_choice: "invalidMulti",
  free_text: "invalidFreeText",
};

export function yesNoOptions(language: "he" | "en"): HITLOption[] {
  return [
    { id: "yes", label: t(language, "yes") },
    { id: "no", label: t(language, "no") },
  ];
}

/** "Is this about tasks and reminders or calendar?" when the words point several ways; else a general ask. */
function clarifyWording(language: "he" | "en", suggestions: string[]): string {
  const labels = suggestions
    .filter((c): c is CapabilityName => (CAPABILITY_NAMES as readonly string[]).includes(c))
    .map((c) => capabilityLabel(language, c));
  if (labels.length < 2) return t(language, "clarifyQuestion");
  return t(language, "clarifyBetween", { options: labels.join(` ${t(language, "or")} `) });
}

/** Whether the planner marked the plan risky: high risk or needing approval (spec 002 §5.2). */
export function plannedRisky(state: MemoState): boolean {
  const planner = state.plannerOutput;
  return !!planner && (planner.riskLevel === "high" || planner.needsApproval);
}

/** The question id (in place of a step id) of the planner's question naming what a risky plan creates. */
const PLANNED_CREATIONS = "plan:creates";

/** At most this many creations are named in the planner's question. */
const MAX_NAMED_CREATIONS = 10;

/** The user's yeses to the planner's own "high risk" / "needs approval" questions this turn. */
function plannerYeses(state: MemoState) {
  return Object.values(state.hitlResults).filter(
    (r) => (r.reason === "high_risk" || r.reason === "needs_approval") && r.value === "yes",
  );
}

/**
 * Whether the user already said yes to the planner's own question about the whole plan this turn.
 * A yes to the question naming only what the plan creates leaves its other changes to be asked
 * about in code, each by name (entity_resolution).
 */
export function plannerConfirmed(state: MemoState): boolean {
  return plannerYeses(state).some((r) => r.stepId !== PLANNED_CREATIONS);
}

/** "That adds 30 things to your calendar at once: • Standup • …": what a risky plan creates, and where. */
function creationsQuestion(language: "he" | "en", creations: PlannedCreation[]): string {
  const where = [...new Set(creations.map((c) => c.capability))]
    .map((c) => capabilityLabel(language, c))
    .join(", ");
  const labels = creations.flatMap((c) => (c.label ? [c.label] : []));
  const count = creations.length;
  if (labels.length === 0) return t(language, "confirmCreateUnnamed", { count, where });
  const names = labels.slice(0, MAX_NAMED_CREATIONS).map((label) => `• ${quotedInline(label)}`);
  if (labels.length > MAX_NAMED_CREATIONS)
    names.push(t(language, "confirmCreate.more", { count: labels.length - MAX_NAMED_CREATIONS }));
  return t(language, "confirmCreate", { count, where, names: names.join("\n") });
}

/**
 * What the planner's output asks for, if anything (spec 002 §5.2 triggers). A risky plan whose
 * every step is a change its capability asks about itself (or only reads) is asked about there,
 * step by step, naming each thing it changes (entity_resolution), not here. A risky plan that
 * creates things asks here, since no capability asks before creating: naming what it creates and
 * how many when the rest of the plan is asked about in code, else with one question for the whole
 * plan (D12).
 * @internal
 */
export function plannerTrigger(
  state: MemoState,
  confirmsInCode: (capability: CapabilityName) => boolean = () => false,
): HITLRequest | null {
  const planner = state.plannerOutput;
  if (!planner) return null;
  const language = replyLanguage(state.user.language);
  const own = state.clarificationQuestion?.trim();
  if (planner.confidence < CONFIDENCE_THRESHOLD || planner.missingFields.length > 0) {
    const lowConfidence = planner.confidence < CONFIDENCE_THRESHOLD;
    return {
      kind: "clarification",
      source: "planner",
      reason: lowConfidence ? "intent_unclear" : "missing_fields",
      question:
        own ||
        (lowConfidence
          ? clarifyWording(language, state.routingSuggestions)
          : t(language, "missingFields", { fields: planner.missingFields.join(", ") })),
      options: [],
      expectedInput: "free_text",
      returnTo: { node: "planner", mode: "replan" },
    };
  }
  if (!plannedRisky(state) || plannerYeses(state).length > 0) return null;
  const asker = riskyPlanAsker(planner.plan, confirmsInCode);
  // A forwarded message's plan asks because someone else wrote it (D14): the question says so.
  const why = state.input?.forwarded ? `${t(language, "forwardedAsks")}\n` : "";
  if (asker === "creations") {
    return {
      kind: planner.needsApproval ? "approval" : "confirmation",
      source: "planner",
      reason: planner.needsApproval ? "needs_approval" : "high_risk",
      question: why + creationsQuestion(language, plannedCreations(planner.plan)),
      options: yesNoOptions(language),
      expectedInput: "yes_no",
      returnTo: { node: "resolver_router", mode: "continue" },
      stepId: PLANNED_CREATIONS,
    };
  }
  if (asker === "planner") {
    return {
      kind: planner.needsApproval ? "approval" : "confirmation",
      source: "planner",
      reason: planner.needsApproval ? "needs_approval" : "high_risk",
      question: why + (own || t(language, "confirmQuestion")),
      options: yesNoOptions(language),
      expectedInput: "yes_no",
      returnTo: { node: "resolver_router", mode: "continue" },
    };
  }
  return null;
}

/** The question text with its options numbered, as sent when buttons are not available. */
function payloadFor(pending: PendingHITL, attempt: number): HITLInterruptPayload {
  const prefix = attempt > 0 ? `${t(pending.language, INVALID_PREFIX[pending.expectedInput])}\n` : "";
  const question = `${prefix}${pending.question}`;
  return {
    hitlId: pending.hitlId,
    kind: pending.kind,
    question,
    description: renderQuestion({ question, options: pending.options, expectedInput: pending.expectedInput }),
    options: pending.options,
    expectedInput: pending.expectedInput,
    language: pending.language,
    createdAt: pending.createdAt,
    expiresAt: pending.expiresAt,
    attempt,
    reason: pending.reason,
    ...(pending.freeTextAllowed ? { freeTextAllowed: true } : {}),
  };
}

/**
 * The answer a resume carries: MemoRuntime's `{ text, optionId? }`, or what LangGraph Studio's
 * resume box sends (a string, or JSON: a number or a boolean is the words `17`, `true`); null for
 * any other shape.
 */
function answerOf(resumed: unknown): HITLAnswer | null {
  if (typeof resumed === "string") return { text: resumed };
  if (typeof resumed === "number" || typeof resumed === "boolean") return { text: String(resumed) };
  if (typeof resumed !== "object" || resumed === null) return null;
  const { text, optionId } = resumed as { text?: unknown; optionId?: unknown };
  if (typeof text !== "string") return null;
  return { text, ...(typeof optionId === "string" ? { optionId } : {}) };
}

/**
 * hitl_gate: the single HITL control plane (spec 001 §5).
 * Forward path: turns a trigger (a node's request, or the planner's conditions) into `pendingHITL`
 * and comes back to itself, so the question is in the checkpoint before the graph pauses.
 * Ask/resume path: interrupts with the question; validates the answer against `expectedInput`,
 * re-asking with the same hitlId when it is invalid; stores a valid one in `hitlResults` and
 * routes to `returnTo`. "no" to a confirmation ends the turn without acting.
 */
export function createHITLGateNode(deps: MemoGraphDeps) {
  return (state: MemoState): Promise<Command> => {
    const language = replyLanguage(state.user.language);
    const pending = state.pendingHITL;

    if (pending) {
      if (state.hitlRequest) {
        deps.logger.warn(
          { event: "HITL_DUPLICATE_ATTEMPT", hitlId: pending.hitlId, traceId: state.traceId },
          "second HITL trigger ignored",
        );
      }
      // The HITL plane decides expiry before the run; this is defense in depth, with room for the turn's own time.
      if (deps.questionsExpire !== false && deps.clock() > pending.expiresAt + HITL_EXPIRY_GRACE_MS) {
        return Promise.resolve(
          new Command({
            update: { pendingHITL: null, hitlRequest: null, finalResponse: t(language, "hitlExpired") },
            goto: "response_writer",
          }),
        );
      }
      for (let attempt = 0; attempt < MAX_HITL_ATTEMPTS; attempt++) {
        // On resume, earlier interrupt() calls return their recorded answers in order.
        const answer = answerOf(interrupt<HITLInterruptPayload, unknown>(payloadFor(pending, attempt)));
        // Something no user could send (a list, an object without text): an invalid answer, asked again.
        if (!answer) continue;
        if (cancelsChoice(pending, answer)) {
          return Promise.resolve(
            new Command({
              update: { pendingHITL: null, hitlRequest: null, finalResponse: t(language, "cancelled") },
              goto: "response_writer",
            }),
          );
        }
        const validation = validateAnswer(pending, answer);
        if (!validation.ok) continue;
        const result: HITLResult = {
          hitlId: pending.hitlId,
          kind: pending.kind,
          reason: pending.reason,
          returnTo: pending.returnTo,
          ...(pending.stepId ? { stepId: pending.stepId } : {}),
          // Kept with the answer: a re-plan shows the planner what it asked, not only the reply.
          question: pending.question,
          raw: answer.optionId
            ? (pending.options.find((o) => o.id === answer.optionId)?.label ?? answer.text)
            : answer.text,
          value: validation.value,
          answeredAt: deps.clock(),
        };
        const update: MemoUpdate = {
          pendingHITL: null,
          hitlRequest: null,
          hitlResults: { [pending.hitlId]: result },
        };
        // A "no" to a question the planner asked before acting ends the turn; later steps decide for themselves.
        if (pending.source === "planner" && pending.expectedInput === "yes_no" && validation.value === "no") {
          return Promise.resolve(
            new Command({
              update: { ...update, finalResponse: t(language, "cancelled") },
              goto: "response_writer",
            }),
          );
        }
        return Promise.resolve(new Command({ update, goto: pending.returnTo.node }));
      }
      return Promise.resolve(
        new Command({
          update: { pendingHITL: null, hitlRequest: null, finalResponse: t(language, "tooManyInvalid") },
          goto: "response_writer",
        }),
      );
    }

    const request =
      state.hitlRequest ??
      plannerTrigger(state, (capability) => deps.capabilities.confirmsInCode(capability));
    if (!request) return Promise.resolve(new Command({ goto: "resolver_router" }));
    // Only re-plans loop back to the planner; other questions are bounded by the router's passes.
    const replan = request.returnTo.node === "planner";
    if (replan && state.hitlRounds >= MAX_HITL_ROUNDS) {
      return Promise.resolve(
        new Command({
          update: { hitlRequest: null, finalResponse: t(language, "tooManyRounds") },
          goto: "response_writer",
        }),
      );
    }
    const now = deps.clock();
    const created: PendingHITL = {
      ...request,
      hitlId: deps.newId(),
      language,
      createdAt: now,
      expiresAt: now + HITL_TTL_MS,
    };
    deps.logger.info(
      {
        event: "HITL_OPENED",
        hitlId: created.hitlId,
        kind: created.kind,
        reason: created.reason,
        traceId: state.traceId,
      },
      "asking the user",
    );
    return Promise.resolve(
      new Command({
        update: { pendingHITL: created, hitlRequest: null, hitlRounds: state.hitlRounds + (replan ? 1 : 0) },
        goto: "hitl_gate",
      }),
    );
  };
}
