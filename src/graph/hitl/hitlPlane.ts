import { INTERRUPT } from "@langchain/langgraph";
import type { CheckpointTuple } from "@langchain/langgraph";
import type { UserRepository } from "../../db/repositories/userRepository.js";
import { t } from "../../messages/index.js";
import { recognizeCalendarQuestion } from "../../nlu/calendarQuestions.js";
import { isUndoCommand, recognizeCommand } from "../../nlu/commands.js";
import { recognizeMemoryCommand, recognizeNoteCommand } from "../../nlu/noteCommands.js";
import type { MemoryService } from "../../services/memory/index.js";
import type { RuntimeMetrics } from "../../services/metrics/metrics.js";
import { HITL_TTL_MS, type HITLInterruptPayload, type TriggerType, type User } from "../../types/index.js";
import type { MemoReply } from "../../types/reply.js";
import type { MemoState } from "../../types/state.js";
import { detectLanguage, replyLanguage } from "../../utils/language.js";
import type { Logger } from "../../utils/logger.js";
import type { CapabilityRegistry } from "../capabilities/registry.js";
import { numberedItems } from "../nodes/replyContextNode.js";
import { asksSomethingElse, requestsSomethingElse } from "../plan/timeAnswer.js";
import { leavesQuestion, looksLikeAnswer } from "./validateAnswer.js";

/**
 * How far past expiresAt hitl_gate still takes an answer the plane accepted in time (the turn's
 * own time): past it, the gate says the question expired instead of acting on the answer.
 */
export const HITL_EXPIRY_GRACE_MS = 60_000;

/** An inbound message as the plane reads it: its text and what the transport knows besides. */
interface HitlMessage {
  text: string;
  whatsappMessageId?: string | undefined;
  replyToMessageId?: string | undefined;
  optionId?: string | undefined;
  triggerType?: TriggerType | undefined;
  /** WhatsApp marked it forwarded: someone else's words, never an answer (D14). */
  forwarded?: boolean | undefined;
  user?: User | undefined;
}

/**
 * What the plane decides for one message before the graph runs: what of the thread to clear
 * first ("thread": its checkpoints, the question is over; "buffer": only this turn's read), then
 * what answers — resuming the paused graph with it, a fresh turn, the stale-reply guard's answer,
 * or the open question again (a word that could answer it or an invitation). `notice` is said
 * before the reply (the question expired, or was left for a new command); `expired` marks the
 * reply's status.
 */
interface HitlDecision {
  clear: readonly ("thread" | "buffer")[];
  next: "resume" | "fresh" | "stale" | "askWhich";
  notice?: string;
  expired?: boolean;
  /** The expired question's language. */
  language?: "he" | "en";
}

interface HitlPlaneDeps {
  memory: MemoryService;
  users: UserRepository;
  logger: Logger;
  /** Epoch milliseconds. */
  clock: () => number;
  /** Trace ids when the message has no WhatsApp id. */
  newId: () => string;
  /** Counts expired questions (default: none). */
  metrics?: RuntimeMetrics | undefined;
  /**
   * The capabilities that read some messages as their own in code (default: none): a "yes"-like
   * word one of them claims (a typed "stop" or "מאשרת" while an invitation is open) is no stale reply.
   */
  capabilities?: Pick<CapabilityRegistry, "recognize"> | undefined;
}

/** The question as sent: its text, and its options numbered when they are choices. */
export function renderQuestion(
  payload: Pick<HITLInterruptPayload, "question" | "options" | "expectedInput">,
): string {
  if (payload.options.length === 0 || payload.expectedInput === "yes_no") return payload.question;
  return `${payload.question}\n${payload.options.map((o, i) => `${i + 1}. ${o.label}`).join("\n")}`;
}

/** The open question of a thread: the pending interrupt write of its latest checkpoint, if any. */
export function openQuestion(stored: CheckpointTuple | undefined): HITLInterruptPayload | undefined {
  return (stored?.pendingWrites ?? [])
    .filter(([, channel]) => channel === INTERRUPT)
    .flatMap(([, , value]) => (Array.isArray(value) ? value : [value]) as { value?: unknown }[])
    .at(-1)?.value as HITLInterruptPayload | undefined;
}

/**
 * The HITL plane's decisions taken before the graph runs (spec 001 §5; hitl_gate takes those inside
 * it): whether a message answers the open question, comes too late for it (HITL_TTL_MS), leaves it
 * for a new command, could answer it or an invitation, or is a stray "yes"/"2" with nothing open
 * (the stale-reply guard). They need the checkpoint read before any graph run, and two of them
 * answer without one, so they live here; MemoRuntime carries a decision out (invoke or resume).
 */
export class HitlPlane {
  constructor(private readonly deps: HitlPlaneDeps) {}

  /** Decides what answers `message`, given the thread's open question (`pending`) and whether it has checkpoints. */
  async decide(
    threadId: string,
    message: HitlMessage,
    pending: HITLInterruptPayload | undefined,
    stored: boolean,
  ): Promise<HitlDecision> {
    const { logger } = this.deps;
    const answerLike =
      (looksLikeAnswer(message.text) || !!message.optionId) &&
      (message.triggerType ?? "user") === "user" &&
      !message.forwarded;

    if (pending) {
      const age = this.deps.clock() - pending.createdAt;
      if (age <= HITL_TTL_MS) {
        const answer = { text: message.text, ...(message.optionId ? { optionId: message.optionId } : {}) };
        // A typed answer to an invitation ("accept", "מאשרת", "stop") while another question is open:
        // quoting the invitation says which it answers (the question is left); unquoted, it could
        // answer either, so neither is taken: the question stays, and the reply says how to answer each.
        const claimed = !message.optionId && !message.forwarded && (await this.claimed(threadId, message));
        if (claimed && !message.replyToMessageId) return { clear: ["buffer"], next: "askWhich" };
        // A forwarded "yes" or "2" is someone else's word, not the user's answer (D14): the question
        // is left, as for a new command, and the forwarded text is handled as what it is.
        // A question read in code (a time) is also left for a question asked instead of its answer
        // ("when is Rosh Hashana?"): never read as the time it names.
        // It is left too for a request of its own ("remind me tomorrow at 5 to call Dana"), even one
        // the grammar cannot read whole; a reply of only time words answers it.
        const leaves = (text: string): boolean =>
          pending.freeTextAllowed === true
            ? asksSomethingElse(text, this.deps.clock()) ||
              requestsSomethingElse(text, this.deps.clock(), (words) => this.isCommand(words))
            : this.isCommand(text);
        if (message.forwarded || claimed || leavesQuestion(pending, answer, leaves)) {
          // A new command, not the answer: the question is left (nothing was done for it) and the
          // command runs, rather than being lost as a bad answer or read as one.
          logger.info(
            { event: "HITL_LEFT_FOR_COMMAND", hitlId: pending.hitlId, threadId },
            "a new command instead of an answer",
          );
          // Its choices can still be named for 5 minutes (cut in the new command's own write).
          if (pending.kind === "disambiguation") await this.deps.memory.endDisambiguationQuestion(threadId);
          // Said in the new message's language, the turn's own (not the question's).
          const language = replyLanguage(
            detectLanguage(message.text) ?? message.user?.language ?? pending.language,
          );
          return { clear: ["thread"], next: "fresh", notice: t(language, "hitlLeft") };
        }
        return { clear: [], next: "resume" };
      }
      logger.info(
        { event: "HITL_EXPIRED", hitlId: pending.hitlId, ageMs: age, threadId },
        "pending question expired",
      );
      this.deps.metrics?.questionExpired();
      const expired = {
        notice: t(pending.language, "hitlExpired"),
        expired: true,
        language: pending.language,
      };
      // A late "yes" must never be taken as a new instruction: the question it answered is gone.
      const late = answerLike && !message.replyToMessageId && !(await this.claimed(threadId, message));
      return { clear: ["thread"], next: late ? "stale" : "fresh", ...expired };
    }

    // A finished thread left behind (a delete that failed) must not leak into this turn.
    const clear = stored ? (["thread"] as const) : [];
    // "בטל" answers a question as "cancel"; with none open (nor one just expired, above) it is "undo".
    if (
      answerLike &&
      !isUndoCommand(message.text) &&
      !message.replyToMessageId &&
      !(await this.justSentAList(threadId)) &&
      !(await this.claimed(threadId, message))
    ) {
      // Nothing runs the graph on this path; the read primed for it must not linger.
      return { clear: [...clear, "buffer"], next: "stale" };
    }
    return { clear, next: "fresh" };
  }

  /** "yes" or "2" with no question open: say so instead of guessing (spec 001 stale-reply guard). */
  async staleReply(threadId: string, message: HitlMessage): Promise<MemoReply> {
    const user = message.user ?? (await this.deps.users.get(threadId));
    const language = replyLanguage(detectLanguage(message.text) ?? user?.language);
    this.deps.logger.info({ event: "HITL_STALE_REPLY", threadId }, "answer with no open question");
    const text = t(language, "staleReply");
    await this.recordMessage(threadId, message);
    const storedMessageId = await this.deps.memory.addAssistantMessage(threadId, text);
    return {
      status: "completed",
      text,
      options: [],
      traceId: message.whatsappMessageId ?? this.deps.newId(),
      ...(storedMessageId ? { storedMessageId } : {}),
    };
  }

  /**
   * The open question again, after a word that could answer it or an invitation: which one it is
   * for is not guessed (a "yes" to a deletion, or joining a household). Nothing is resumed.
   */
  async askWhichIsAnswered(
    threadId: string,
    message: HitlMessage,
    pending: HITLInterruptPayload,
    traceId: string,
  ): Promise<MemoReply> {
    this.deps.logger.info(
      { event: "HITL_OR_INVITATION", hitlId: pending.hitlId, threadId },
      "answer or invitation?",
    );
    await this.recordMessage(threadId, message);
    const question = `${t(pending.language, "hitlOrInvitation")}\n\n${pending.question}`;
    const text = renderQuestion({ ...pending, question });
    const storedMessageId = await this.deps.memory.addAssistantMessage(threadId, text);
    return {
      status: "waiting",
      text,
      question,
      options: pending.options,
      expectedInput: pending.expectedInput,
      hitlId: pending.hitlId,
      traceId,
      ...(storedMessageId ? { storedMessageId } : {}),
    };
  }

  /**
   * The user's message in the window, held to be saved with Memo's next message (the reply, or
   * the question asked again) in one write: for an answer no graph node records (a resumed turn).
   */
  async recordMessage(threadId: string, message: HitlMessage): Promise<void> {
    await this.deps.memory.load(threadId);
    this.deps.memory.holdWrites(threadId);
    await this.deps.memory.addUserMessage(threadId, message.text, {
      ...(message.whatsappMessageId ? { whatsappMessageId: message.whatsappMessageId } : {}),
      ...(message.replyToMessageId ? { replyToMessageId: message.replyToMessageId } : {}),
    });
  }

  /** Whether a capability reads the message as its own (a typed "stop" while an invitation is open). */
  private async claimed(threadId: string, message: HitlMessage): Promise<boolean> {
    const { capabilities } = this.deps;
    if (!capabilities) return false;
    const language = replyLanguage(detectLanguage(message.text) ?? message.user?.language);
    const context = {
      phone: threadId,
      language,
      ...(message.replyToMessageId ? { replyToMessageId: message.replyToMessageId } : {}),
    };
    return (await capabilities.recognize(message.text, context)) !== null;
  }

  /** Whether the message is a whole command of Memo's no-model grammar (never "בטל", a question's cancel). */
  private isCommand(message: string): boolean {
    if (isUndoCommand(message)) return false;
    const now = this.deps.clock();
    return (
      recognizeCommand(message, now, "UTC") !== null ||
      recognizeCalendarQuestion(message, now, "UTC", "diaspora") !== null ||
      recognizeNoteCommand(message, now, "UTC") !== null ||
      recognizeMemoryCommand(message) !== null
    );
  }

  /** Whether Memo's last message was a numbered list, so "2" picks an item of it. */
  private async justSentAList(threadId: string): Promise<boolean> {
    await this.deps.memory.load(threadId);
    const last = this.deps.memory.getRecentMessages(threadId).at(-1);
    return last?.role === "assistant" && numberedItems(last.content).size > 0;
  }
}

/** The reply with the plane's notice before it and its status marked, as the decision says. */
export function withNotice(reply: MemoReply, decision: HitlDecision): MemoReply {
  const text = decision.notice ? `${decision.notice}\n\n${reply.text}` : reply.text;
  const status = decision.expired && reply.status !== "failed" ? "expired" : reply.status;
  return { ...reply, text, status };
}

/** The trace id of the paused graph, from the thread's latest checkpoint ("" when none). */
export function pausedTraceId(stored: CheckpointTuple | undefined): string {
  const values: Partial<MemoState> = stored?.checkpoint.channel_values ?? {};
  return values.traceId ?? "";
}
