import { chosenIndex } from "../../nlu/choiceReference.js";
import type { MemoryService } from "../../services/memory/index.js";
import { DISAMBIGUATION_EXPIRY_MS } from "../../services/memory/conversationWindow.js";
import type {
  DisambiguationContext,
  DisambiguationSnapshot,
  HITLInterruptPayload,
  HITLResult,
  ResolverResult,
} from "../../types/index.js";
import type { MemoState } from "../../types/state.js";
import type { MemoUpdate } from "../state/memoState.js";
import { numberedItems } from "../nodes/replyContextNode.js";

/** Marks the answer a snapshot choice stands in for: its hitlId is the question's, after this. */
const FROM_SNAPSHOT = "snapshot:";

/**
 * The snapshot of a disambiguation question as it is asked (spec 000 §5.1): what it offered and
 * what a later choice acts with (the step, its resolver's result, entity_resolution's
 * DisambiguationState). It lives 5 minutes past the question's own expiry (MemoryService cuts it
 * shorter when the question ends earlier). Null when the paused state holds no such question.
 */
export function snapshotOf(
  state: Partial<MemoState>,
  question: HITLInterruptPayload,
): DisambiguationSnapshot | null {
  const pending = state.disambiguation;
  if (question.kind !== "disambiguation" || !pending || pending.resolved) return null;
  const step = state.plannerOutput?.plan.find((s) => s.id === pending.stepId);
  // The graph hands the Map back as it holds it; a state read back from a checkpoint may not.
  const results = state.resolverResults;
  const resolverResult = results instanceof Map ? results.get(pending.stepId) : undefined;
  if (!step || !resolverResult || !state.plannerOutput) return null;
  const { intentType, riskLevel, needsApproval } = state.plannerOutput;
  const { userSelection: _none, ...disambiguation } = pending;
  return {
    type: pending.type,
    query: pending.query,
    candidates: pending.candidates,
    createdAt: question.createdAt,
    expiresAt: question.expiresAt + DISAMBIGUATION_EXPIRY_MS,
    hitlId: question.hitlId,
    language: question.language,
    // On its own later: what it depended on this turn is not there any more.
    step: { ...step, dependsOn: [] },
    resolverResult: withoutUsage(resolverResult),
    plan: { intentType, riskLevel, needsApproval },
    disambiguation: { ...disambiguation, resolved: false },
  };
}

/** What the message that carried the choice list keeps of the snapshot, so a reply quoting it is known. */
export function offeredIn(snapshot: DisambiguationSnapshot): DisambiguationContext {
  const { type, query, candidates, createdAt, expiresAt, hitlId } = snapshot;
  return { type, query, candidates, createdAt, expiresAt, hitlId };
}

/**
 * The turn of a message that chooses one of a live snapshot's candidates after its question
 * ended (no question is open: the planner runs): it quotes the choice list ("2", or words naming
 * one), or names exactly one candidate by position or words ("the second one", "the dentist
 * one", "השני", "זה של רופא השיניים"). The turn is the stored step, resolved, with the choice as
 * the question's answer: entity_resolution applies it as it would have (risky operations still
 * ask, a candidate gone since is not found). Null when the message is no such choice (a normal
 * turn). A bare "2" or "yes" never gets here unquoted: the stale-reply rule answers it first.
 * Never a forwarded message (someone else's words, D14), and an unquoted reference only while
 * the choice list is still the latest list Memo sent: after another numbered list, "the last one"
 * may mean an item of that one.
 */
export function snapshotChoiceTurn(memory: MemoryService, state: MemoState, now: number): MemoUpdate | null {
  const snapshot = memory.getDisambiguationContext(state.threadId);
  if (!snapshot || state.input.triggerType !== "user" || state.input.forwarded) return null;
  const quotedId = state.input.replyToMessageId;
  const quotedMessage = quotedId ? memory.getRepliedToMessage(state.threadId, quotedId) : null;
  const quoted = quotedMessage?.metadata?.disambiguationContext?.hitlId === snapshot.hitlId;
  // A reply quoting another message is about that message, not the choices.
  if (quotedId && !quoted) return null;
  if (!quoted && !latestListOffered(memory, state.threadId, snapshot.hitlId)) return null;
  const labels = snapshot.candidates.map((c) => c.displayText);
  const index = chosenIndex(state.input.message, labels, quoted);
  const chosen = index === null ? undefined : snapshot.candidates[index];
  if (!chosen) return null;
  const { step } = snapshot;
  const answer: HITLResult = {
    hitlId: `${FROM_SNAPSHOT}${snapshot.hitlId}`,
    kind: "disambiguation",
    reason: "disambiguation",
    returnTo: { node: "entity_resolution", mode: "apply_selection" },
    stepId: step.id,
    raw: state.input.message,
    value: [chosen.id],
    answeredAt: now,
  };
  return {
    plannerOutput: { ...snapshot.plan, confidence: 1, missingFields: [], plan: [step] },
    resolverResults: new Map([[step.id, snapshot.resolverResult]]),
    disambiguation: snapshot.disambiguation,
    hitlResults: { [answer.hitlId]: answer },
  };
}

/**
 * Whether the latest of Memo's messages in the window that showed a numbered list or options is
 * the one that carried the question `hitlId`'s choices (false when it has left the window).
 */
function latestListOffered(memory: MemoryService, phone: string, hitlId: string): boolean {
  const lists = memory
    .getRecentMessages(phone)
    .filter(
      (m) =>
        m.role === "assistant" &&
        (m.metadata?.disambiguationContext !== undefined ||
          m.metadata?.numbered !== undefined ||
          numberedItems(m.content).size > 0),
    );
  return lists.at(-1)?.metadata?.disambiguationContext?.hitlId === hitlId;
}

/**
 * The hitlId of the question whose snapshot the turn took its choice from (`snapshotChoiceTurn`),
 * or undefined when it took none (an open question's answer is no snapshot choice).
 */
export function choseFromSnapshot(state: Partial<MemoState>): string | undefined {
  const id = Object.keys(state.hitlResults ?? {}).find((key) => key.startsWith(FROM_SNAPSHOT));
  return id?.slice(FROM_SNAPSHOT.length);
}

/**
 * What a finished turn leaves of the window's snapshot: an answered question's is cleared (the
 * choice was made, here or from the snapshot); one that ended unanswered (cancelled, too many
 * invalid answers) lives 5 more minutes. Held with the turn's write.
 */
export async function settleDisambiguation(
  memory: MemoryService,
  phone: string,
  state: MemoState,
): Promise<void> {
  const asked = state.disambiguation;
  if (!asked) return;
  if (asked.resolved) await memory.clearDisambiguationContext(phone);
  else await memory.endDisambiguationQuestion(phone);
}

/** The resolver's result without its LLM usage: that call was paid for by the turn that made it. */
function withoutUsage(result: ResolverResult): ResolverResult {
  const { llmUsage: _paid, ...rest } = result;
  return rest;
}
