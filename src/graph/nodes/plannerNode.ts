import { calendarOptionsOf } from "../../nlu/holidays.js";
import { isUndoCommand } from "../../nlu/commands.js";
import { fastPathTurn, recognizedTurn, type FastPathTurn } from "../plan/fastPath.js";
import { offerAnswerTurn } from "../plan/offerAnswer.js";
import { isSaveTextCommand } from "../../nlu/saveTextCommand.js";
import { textToSave } from "../../services/documents/savedText.js";
import { applyPlanPolicies, documentIsData, forwardedIsData } from "../plan/planPolicy.js";
import {
  buildPlannerMessages,
  planFieldsRecord,
  PlannerSchema,
  type PlannerWireAnswer,
} from "../../prompts/plannerPrompt.js";
import type { PlannerOutput, PlanStep } from "../../types/index.js";
import { describeError } from "../../utils/errors.js";
import { replyLanguage } from "../../utils/language.js";
import { latestNumbered, numberedElsewhere } from "../entities/references.js";
import { snapshotChoiceTurn } from "../hitl/disambiguationSnapshot.js";
import { t } from "../../messages/index.js";
import type { MemoGraphDeps } from "../deps.js";
import { userTextOf } from "../errorText.js";
import { llmUsageUpdate } from "../state/metadata.js";
import type { MemoUpdate } from "../state/memoState.js";
import type { MemoState } from "../../types/state.js";
import { NodeInputError } from "./instrument.js";

/** Keyword hints of which capability a message is about, for natural clarification questions. */
const ROUTING_PATTERNS: [RegExp, string][] = [
  [/remind|task|todo|nudge|list|תזכיר|תזכורת|משימ|רשימ|נדנד/i, "database"],
  [/meeting|calendar|event|schedule|פגישה|יומן|אירוע/i, "calendar"],
  [/e-?mail|inbox|gmail|מייל|דואר/i, "gmail"],
  [/note|remember that|פתק|תרשום|תזכור ש/i, "second-brain"],
];

function routingSuggestions(message: string): string[] {
  return ROUTING_PATTERNS.filter(([pattern]) => pattern.test(message)).map(([, capability]) => capability);
}

/**
 * Unique step ids, and dependencies only on steps that exist (the rest dropped): the model's plan
 * as the planner node hands it to its policies (the planner evaluation scores this: evals/planner/).
 */
export function normalizePlan(answer: PlannerWireAnswer): PlannerOutput {
  const seen = new Set<string>();
  const plan: PlanStep[] = answer.plan.map((step, i) => {
    const id = seen.has(step.id) ? `${step.id}_${i + 1}` : step.id;
    seen.add(id);
    // The pairs strict mode made the model write, back into the records every step reader takes.
    return {
      ...step,
      id,
      constraints: planFieldsRecord(step.constraints),
      changes: planFieldsRecord(step.changes),
    };
  });
  const ids = new Set(plan.map((s) => s.id));
  return {
    intentType: answer.intentType,
    confidence: answer.confidence,
    riskLevel: answer.riskLevel,
    needsApproval: answer.needsApproval,
    missingFields: answer.missingFields,
    plan: plan.map((s) => ({ ...s, dependsOn: s.dependsOn.filter((d) => ids.has(d) && d !== s.id) })),
  };
}

/**
 * "save it" / "תשמור" right after a forwarded message or a long pasted text: the text is stored as
 * a note (a document of its own, D14: data) and what it proposes is offered back by number. Null
 * when the message is no such command or nothing is there to save.
 */
async function saveTextTurn(
  deps: MemoGraphDeps,
  state: MemoState,
  language: "he" | "en",
): Promise<MemoUpdate | null> {
  const user = state.authContext?.user;
  if (!deps.savedTexts || !user || state.input.forwarded || !isSaveTextCommand(state.input.message))
    return null;
  const found = textToSave(state.recentMessages, state.input.message, {
    ...(state.input.replyToMessageId ? { quoted: state.input.replyToMessageId } : {}),
    // A pasted request Memo carried out is no text to keep.
    actedAfter: (timestamp) => state.latestActions.some((action) => action.createdAt >= timestamp),
  });
  if (!found) return null;
  if (found === "nothing") return { finalResponse: t(language, "offers.nothingToSave") };
  const { document, offer, usage } = await deps.savedTexts.save({
    phone: state.threadId,
    user,
    language,
    text: found.text,
    source: found.source,
    now: state.now.epochMs,
    // The offer's model call is the user's like any other: past the daily budget it is made without.
    withModel: !deps.budget || (await deps.budget.admit(state.input.userPhone)),
    operationId: `${state.traceId}:save`,
    turnId: state.traceId,
  });
  const saved = t(language, "offers.saved", { title: document.title });
  return {
    finalResponse: offer ? `${saved}\n\n${offer.text}` : saved,
    ...(offer ? { documentOffer: offer.offer } : {}),
    ...(usage ? { metadata: llmUsageUpdate(usage) } : {}),
  };
}

/** planner: natural language → plan, by one structured LLM call (spec 002 §5.2). */
export function createPlannerNode(deps: MemoGraphDeps) {
  return async (state: MemoState): Promise<MemoUpdate> => {
    if (!state.input || !state.now) throw new NodeInputError("planner", "input/now");
    const language = replyLanguage(state.user.language);
    // A choice named from a disambiguation list whose question ended ("the second one"): its step.
    const chosen = snapshotChoiceTurn(deps.memory, state, state.now.epochMs);
    if (chosen) return chosen;
    // "1 and 2", "all", "none" after a document's numbered offer: its items, added in code (D13).
    const offered = state.input.forwarded
      ? null
      : offerAnswerTurn(
          state.input.message,
          state.recentMessages,
          state.now.epochMs,
          state.user.timezone,
          language,
          state.input.replyToMessageId,
        );
    if (offered) return offered;
    // "save it" after a forwarded message or a long pasted text: kept as a note, with its offer.
    const saved = await saveTextTurn(deps, state, language);
    if (saved) return saved;
    const quoted = state.input.replyToMessageId;
    const quotedUndo =
      quoted && deps.undo && isUndoCommand(state.input.message)
        ? { messageId: quoted, latest: await deps.undo.quotesLatest(state.threadId, quoted) }
        : undefined;
    // A message whose meaning depends on the user's data ("accept" while invitations to them are
    // open) is read by its capability in code, with or without a model, before anything else.
    const recognized = await deps.capabilities.recognize(state.input.message, {
      phone: state.threadId,
      language,
      ...(quoted ? { replyToMessageId: quoted } : {}),
    });
    // Planned in code, a forwarded message's plan still asks before it changes anything (D14).
    // So does one made beside a document, when it changes something that exists.
    const forwardedTurn = {
      forwarded: state.input.forwarded === true,
      document: state.input.documentContext !== undefined,
      traceId: state.traceId,
    };
    const forwarded = (turn: FastPathTurn): FastPathTurn => ({
      ...turn,
      plannerOutput: documentIsData(
        forwardedIsData(turn.plannerOutput, forwardedTurn, deps.logger),
        forwardedTurn,
        deps.logger,
      ),
    });
    if (recognized) return forwarded(recognizedTurn(recognized.capability, recognized.step));
    // "What can you do?", "hi", "my tasks", "remind me tomorrow at 9 to…" need no model: planned
    // and resolved in code, the same with or without one.
    const fast = fastPathTurn(
      state.input.message,
      state.now.epochMs,
      state.user.timezone,
      (c) => deps.capabilities.has(c),
      deps.fastPath ?? true,
      latestNumbered(state.recentMessages),
      {
        language,
        askUnread: !deps.llm,
        withModel: !!deps.llm,
        numberedElsewhere: numberedElsewhere(state.recentMessages, state.latestActions),
        ...(quotedUndo ? { quotedUndo } : {}),
        ...(state.authContext?.user ? { calendar: calendarOptionsOf(state.authContext.user) } : {}),
      },
    );
    if (fast) return forwarded(fast);
    if (!deps.llm) {
      // "I prefer morning meetings" needs no model to be remembered: say so instead of "I can't".
      // Only the user's own words: a forwarded message is someone else's (D14).
      const remembered = state.input.forwarded
        ? []
        : (deps.longTerm?.factsInMessage(state.input.message) ?? []);
      if (remembered.length > 0) {
        return {
          finalResponse: t(language, "rememberedNoLLM", {
            facts: remembered.map((f) => `“${f}”`).join(", "),
          }),
        };
      }
      return {
        finalResponse: t(language, "noLLM"),
        error: { type: "validation", message: "no LLM configured", failedNode: "planner" },
      };
    }
    // The user's LLM allowance for today is spent: fast-path commands (above) still work.
    if (deps.budget && !(await deps.budget.admit(state.input.userPhone))) {
      deps.logger.warn(
        {
          event: "LLM_BUDGET_REACHED",
          node: "planner",
          dailyUsd: deps.budget.dailyUsdOf(state.user.planTier),
        },
        "daily LLM budget reached; answering fast-path commands only",
      );
      return {
        finalResponse: t(language, "budgetReached"),
        error: { type: "validation", message: "daily LLM budget reached", failedNode: "planner" },
      };
    }
    try {
      const { value, usage } = await deps.llm.structured(
        "planner",
        PlannerSchema,
        buildPlannerMessages(state),
        { name: "plan" },
      );
      return {
        plannerOutput: applyPlanPolicies(
          normalizePlan(value),
          {
            // The user's own words only: a time inside a quoted message or an image's text is data (D14).
            message: state.input.message,
            nowMs: state.now.epochMs,
            timeZone: state.user.timezone,
            traceId: state.traceId,
            ...(state.input.forwarded ? { forwarded: true } : {}),
            ...(state.input.documentContext ? { document: true } : {}),
          },
          deps.logger,
        ),
        clarificationQuestion: value.clarificationQuestion ?? undefined,
        routingSuggestions: routingSuggestions(state.input.message),
        metadata: llmUsageUpdate(usage),
      };
    } catch (error) {
      deps.logger.error({ err: error, node: "planner", traceId: state.traceId }, "planner failed");
      return {
        finalResponse: userTextOf(error, language, { unexplained: "llmFailed" }),
        error: { type: "api_error", message: describeError(error), failedNode: "planner" },
      };
    }
  };
}
