import type { UndoService } from "../../../services/undo/undoJournal.js";
import { undoQuestion } from "../../../services/undo/replies.js";
import type { CapabilityContext, EntityResolution, EntityResolver } from "../../../types/capability.js";
import type {
  ConversationMessage,
  DisambiguationState,
  PlanStep,
  ResolverResult,
} from "../../../types/index.js";
import { operationIdOf } from "../../plan/operationId.js";
import type { MetaFunction } from "../../../contracts/meta.js";

/**
 * How many of the user's messages ago a change made at `changedAt` (epoch ms) was, counting this
 * one: 0 when nothing the user said came between it and this message, null when the conversation
 * kept (a short window) no longer reaches back to it, so what came between is not known.
 */
function messagesAgo(messages: readonly ConversationMessage[], changedAt: number): number | null {
  // The window's last user message is this one.
  const earlier = messages.filter((m) => m.role === "user").slice(0, -1);
  const since = earlier.filter((m) => m.timestamp > changedAt).length;
  const reaches = messages.some((m) => m.role !== "system" && m.timestamp <= changedAt);
  if (!reaches) return null;
  return since === 0 ? 0 : since + 1;
}

/**
 * Entity resolution of meta steps. An "undo" after the user said something else since their last
 * change names that change and asks first (D12), as a confirmation through the HITL gate like
 * every other question; on "yes" the executor undoes exactly that turn (`turn`), on "no" nothing.
 * An undo right after the change, or quoting Memo's answer to it (which names it), is not asked
 * about; other meta steps pass through.
 */
export class UndoEntityResolver implements EntityResolver {
  readonly capability = "meta" as const;

  constructor(private readonly undo: Pick<UndoService, "pending">) {}

  async resolve(
    step: PlanStep,
    result: ResolverResult,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const args = result.args ?? {};
    if (
      result.functionName !== ("meta.undo" satisfies MetaFunction) ||
      typeof args.quoted === "string" ||
      typeof args.turn === "string"
    )
      return { status: "resolved", args };
    // Nothing to take back (or this turn already did, a re-run): the executor says what there is.
    const pending = await this.undo.pending(
      context.phone,
      operationIdOf(context.state.traceId, step.id),
      context.now,
    );
    if (!pending) return { status: "resolved", args };
    const ago = messagesAgo(context.state.recentMessages, pending.createdAt);
    if (ago === 0) return { status: "resolved", args };
    return {
      status: "confirm",
      question: undoQuestion(pending, ago, context.language),
      args: { ...args, turn: pending.turnId },
    };
  }

  /** Undo asks no "which one?": a selection leaves the step as it was. */
  applySelection(_step: PlanStep, disambiguation: DisambiguationState): Promise<EntityResolution> {
    return Promise.resolve({ status: "resolved", args: disambiguation.originalArgs });
  }
}
