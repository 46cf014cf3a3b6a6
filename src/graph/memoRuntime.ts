import type { MemoReply } from "../types/reply.js";
import { Command } from "@langchain/langgraph";
import type { TurnBufferedSaver } from "../db/turnBufferedSaver.js";
import type { MemoryService } from "../services/memory/index.js";
import { MAX_MESSAGE_CHARS, capText } from "../services/memory/limits.js";
import {
  MAX_HITL_ROUNDS,
  type HITLInterruptPayload,
  type DocumentContext,
  type ImageContext,
  type TriggerType,
  type User,
} from "../types/index.js";
import type { UserRepository } from "../db/repositories/userRepository.js";
import { detectLanguage, replyLanguage } from "../utils/language.js";
import type { Logger } from "../utils/logger.js";
import { normalizePhone } from "../utils/phone.js";
import { currentTurn, withTurn } from "../utils/turnContext.js";
import { t } from "../messages/index.js";
import { HitlPlane, openQuestion, pausedTraceId, renderQuestion, withNotice } from "./hitl/hitlPlane.js";
import { choseFromSnapshot, offeredIn, snapshotOf } from "./hitl/disambiguationSnapshot.js";
import { userTextOf } from "./errorText.js";
import { MAX_PLAN_STEPS } from "../prompts/plannerPrompt.js";
import { MEMORY_ACTIONS } from "../nlu/noteCommands.js";
import type { MemoGraph } from "./memoGraph.js";
import type { CapabilityRegistry } from "./capabilities/registry.js";
import type { Tracing } from "../services/tracing/tracing.js";
import type { RuntimeMetrics } from "../services/metrics/metrics.js";
import type { MemoState } from "../types/state.js";
import type { ExecutionMetadata } from "../types/state.js";

/** What the transport knows about an inbound message besides its text. */
export interface InvokeOptions {
  whatsappMessageId?: string;
  replyToMessageId?: string;
  /** WhatsApp marked the message forwarded: its words are someone else's (D14). */
  forwarded?: boolean;
  /** The id of a tapped button or list row (interactive reply). */
  optionId?: string;
  triggerType?: TriggerType;
  imageContext?: ImageContext;
  /** The document the message's caption is about (D14: data, never the user's request). */
  documentContext?: DocumentContext;
  audioTranscription?: string;
  /**
   * The sender as the transport loaded it: context_assembly and the stale-reply guard use it
   * instead of loading it again, and its phone (normalised at the webhook) is the thread's, as is.
   */
  user?: User;
  /**
   * Whether the durable checkpointer holds checkpoints of the thread (an open question), as the
   * transport read it with the user at the turn's start, under the phone's lease: the runtime then
   * does not look again (false: nothing to read at all). Default: the runtime looks itself.
   */
  threadStored?: boolean;
}

export interface MemoRuntimeDeps {
  graph: MemoGraph;
  checkpointer: TurnBufferedSaver;
  memory: MemoryService;
  users: UserRepository;
  logger: Logger;
  /** Epoch milliseconds (default: Date.now). */
  clock: () => number;
  /** Trace ids when the message has no WhatsApp id. */
  newId: () => string;
  /** LangSmith tracing of each turn (default: none, no callbacks at all). */
  tracing?: Tracing | null;
  /** Counts turns and questions (default: none). */
  metrics?: RuntimeMetrics;
  /** The LangSmith thread of a phone's turns (default: the user's own, from their keyed tag). */
  traceThreadId?: (phone: string) => string;
  /**
   * The capabilities that read some messages as their own in code (default: none): a "yes"-like
   * word one of them claims (a typed "stop" or "מאשרת" while an invitation is open) is no stale reply.
   */
  capabilities?: Pick<CapabilityRegistry, "recognize">;
}

/**
 * Graph steps one run may take. A plan has at most MAX_PLAN_STEPS steps; each costs at most three
 * steps (router, entity resolution, executor) per pass, and the router allows a few passes per step
 * for questions; plus the fixed steps of a turn. LangGraph's default (25) cut plans of 5 steps.
 */
const RECURSION_LIMIT = 20 + 3 * MAX_PLAN_STEPS * (MAX_HITL_ROUNDS + 2);

type Interrupted = MemoState & { __interrupt__?: { value?: unknown }[] };

/** A run's reply, and whether it acted on a choice from a disambiguation snapshot (not sent). */
/** The run reply's `chose`, when the turn took a snapshot's choice. */
function chosenIn(result: Partial<MemoState>): { chose?: string } {
  const chose = choseFromSnapshot(result);
  return chose === undefined ? {} : { chose };
}

/** `chose`: the hitlId of the question whose snapshot the turn took its choice from. */
type RunReply = MemoReply & { chose?: string };

/**
 * Runs turns through the graph, one phone = one thread (spec 001).
 *
 * What answers a message is the HITL plane's decision (graph/hitl/hitlPlane.ts: resume the open
 * question, drop an expired one, leave it for a new command, answer a stale "yes"); the runtime
 * carries it out: it invokes or resumes the graph, and nothing else.
 *
 * Within a graph run only context_assembly (the message) and memory_update (the reply) write the
 * conversation window. Outside one it is written only where no node can: the answer to an open
 * question before the paused graph resumes and the plane's own answers (the HITL plane), and the
 * question after the graph paused, with a disambiguation's snapshot (here: no node runs after
 * interrupt()). Each stored reply's
 * `localId` comes back as `storedMessageId`, for the sender to link.
 */
export class MemoRuntime {
  /** The HITL plane's decisions before a run: answer, expiry, a new command, a stale reply. */
  private readonly hitl: HitlPlane;

  constructor(private readonly deps: MemoRuntimeDeps) {
    this.hitl = new HitlPlane(deps);
  }

  /**
   * Handles one inbound message as the HITL plane decides: resumes the open question with it, or
   * drops a question older than HITL_TTL_MS and handles the message fresh, or answers a stray
   * "yes"/"2" when nothing is open, or runs a new turn. After a completed turn the thread's
   * checkpoints are deleted.
   * Never throws for errors of ours: they come back as status "failed".
   *
   * With `options.user` (the transport) the phone is that user's, already normalised; without it
   * (tests, the replay, the chat script) `phone` may be written any way and is normalised here.
   */
  async invokeMemoGraph(phone: string, message: string, options: InvokeOptions = {}): Promise<MemoReply> {
    const started = performance.now();
    // What reaches a model (and the stored history) is bounded; the reply says what was read.
    const read = capText(message, MAX_MESSAGE_CHARS);
    const reply = await this.turn(phone, read.text, options);
    const seconds = (performance.now() - started) / 1000;
    this.deps.metrics?.turnFinished(reply.status, options.triggerType ?? "user", seconds);
    if (!read.cut) return reply;
    const chars = MAX_MESSAGE_CHARS.toLocaleString("en-US");
    const note = t(replyLanguage(detectLanguage(message)), "messageCut", { chars });
    return { ...reply, text: reply.text ? `${note}\n\n${reply.text}` : note };
  }

  private async turn(phone: string, message: string, options: InvokeOptions): Promise<MemoReply> {
    const threadId = options.user?.phone ?? normalizePhone(phone);
    // Called outside the inbox (tests, replays, the chat script): the turn gets its own context,
    // so its log lines, LLM costs and trace are still the user's.
    const context = currentTurn();
    if (context?.phone !== threadId) {
      const traceId = options.whatsappMessageId ?? this.deps.newId();
      const turn = { traceId, phone: threadId, trigger: options.triggerType ?? ("user" as const) };
      return withTurn(turn, () => this.turn(phone, message, options));
    }
    try {
      return await this.handle(threadId, message, options);
    } catch (error) {
      this.deps.logger.error({ err: error, threadId }, "turn could not start");
      await this.deps.checkpointer.discard(threadId);
      return {
        status: "failed",
        text: userTextOf(error, replyLanguage(detectLanguage(message))),
        options: [],
        traceId: options.whatsappMessageId ?? "",
      };
    }
  }

  /** Carries out what the HITL plane decides for the message: resume the paused graph, or run, or its answer. */
  private async handle(threadId: string, message: string, options: InvokeOptions): Promise<MemoReply> {
    const { checkpointer } = this.deps;
    const stored = await checkpointer.readLatest(threadId, options.threadStored);
    const pending = openQuestion(stored);
    const said = { ...options, text: message };
    const decision = await this.hitl.decide(threadId, said, pending, stored !== undefined);
    for (const clear of decision.clear) {
      if (clear === "thread") await checkpointer.deleteThread(threadId);
      else await checkpointer.discard(threadId);
    }
    const traceId = pausedTraceId(stored);
    switch (decision.next) {
      case "resume":
        return this.resume(threadId, message, options, pending!, traceId);
      case "askWhich":
        return this.hitl.askWhichIsAnswered(threadId, said, pending!, traceId);
      case "stale":
        return withNotice(await this.hitl.staleReply(threadId, said), decision);
      case "fresh": {
        const { chose, ...reply } = await this.fresh(threadId, message, options);
        // A choice from the list of the question that just ended (expired, or left) was still
        // taken: say so, not that it was dropped or that nothing was done for it; the reply's
        // status is the turn's own (done, or a confirmation asked).
        const taken = chose !== undefined && chose === pending?.hitlId;
        const notice = taken
          ? {
              ...decision,
              notice: t(
                pending.language,
                decision.expired ? "hitlExpiredChoiceTaken" : "hitlLeftChoiceTaken",
              ),
              expired: false,
            }
          : decision;
        return withNotice(reply, notice);
      }
    }
  }

  /** Resumes the paused graph with the answer to its open question. */
  private async resume(
    threadId: string,
    message: string,
    options: InvokeOptions,
    pending: HITLInterruptPayload,
    traceId: string,
  ): Promise<MemoReply> {
    await this.hitl.recordMessage(threadId, { ...options, text: message });
    // The turn that asked was admitted to the LLM budget; its answer finishes it, whatever it costs.
    const turn = currentTurn();
    if (turn) turn.llmAdmitted = true;
    const resume = new Command({
      resume: { text: message, ...(options.optionId ? { optionId: options.optionId } : {}) },
    });
    const { chose: _fromSnapshot, ...reply } = await this.run(resume, threadId, traceId, message, true);
    // Settled, unless the turn failed (the question stays open) or it was asked again (invalid answer).
    if (reply.status !== "failed" && reply.hitlId !== pending.hitlId) this.deps.metrics?.questionAnswered();
    return reply;
  }

  /** Drops the phone's open question, if any (it could not be delivered, so no answer can come). */
  async dropQuestion(phone: string): Promise<void> {
    await this.deps.checkpointer.deleteThread(normalizePhone(phone));
  }

  private async fresh(threadId: string, message: string, options: InvokeOptions): Promise<RunReply> {
    const traceId = options.whatsappMessageId ?? currentTurn()?.traceId ?? this.deps.newId();
    const input = {
      threadId,
      traceId,
      input: {
        message,
        triggerType: options.triggerType ?? "user",
        userPhone: threadId,
        ...(options.whatsappMessageId ? { whatsappMessageId: options.whatsappMessageId } : {}),
        ...(options.replyToMessageId ? { replyToMessageId: options.replyToMessageId } : {}),
        ...(options.forwarded ? { forwarded: true } : {}),
        ...(options.imageContext ? { imageContext: options.imageContext } : {}),
        ...(options.documentContext ? { documentContext: options.documentContext } : {}),
        ...(options.audioTranscription ? { audioTranscription: options.audioTranscription } : {}),
        ...(options.user ? { user: options.user } : {}),
      },
    };
    return this.run(input, threadId, traceId, message, false, input.input.triggerType);
  }

  /** Runs the graph; `stored` says the thread has durable checkpoints (a resumed question). */
  private async run(
    input: unknown,
    threadId: string,
    traceId: string,
    message: string,
    stored: boolean,
    trigger: TriggerType = "user",
  ): Promise<RunReply> {
    const { tracing, traceThreadId } = this.deps;
    const config = {
      // One memo-turn trace in LangSmith, in the user's thread (nothing at all when tracing is off).
      ...tracing?.turnConfig({
        phone: threadId,
        traceId,
        trigger,
        ...(traceThreadId ? { threadId: traceThreadId(threadId) } : {}),
      }),
      configurable: { thread_id: threadId },
      durability: "exit" as const,
      recursionLimit: RECURSION_LIMIT,
    };
    const started = performance.now();
    try {
      const result = (await this.deps.graph.invoke(input as never, config)) as Interrupted;
      const interrupt = result.__interrupt__?.[0]?.value as HITLInterruptPayload | undefined;
      this.logTurn(
        threadId,
        traceId,
        interrupt ? "waiting" : "completed",
        result.metadata,
        performance.now() - started,
      );
      if (interrupt) {
        // The question is on disk before anyone sees it.
        await this.deps.checkpointer.flush(threadId);
        const text = renderQuestion(interrupt);
        // "Which of these should I forget?" names what is to be forgotten: never in long-term history.
        const memoryCommand = (result.plannerOutput?.plan ?? []).some(
          (step) => step.capability === "second-brain" && MEMORY_ACTIONS.has(step.action),
        );
        // Choices offered can be named after the question ends: the snapshot is held with the
        // question, saved in its one write, and the list's message knows it carried them.
        const snapshot = snapshotOf(result, interrupt);
        if (snapshot) await this.deps.memory.setDisambiguationContext(threadId, snapshot);
        // A choice taken this turn (then asked to confirm) is made: should the new question be
        // left or expire, its list must not be chosen from again.
        else if (result.disambiguation?.resolved) await this.deps.memory.clearDisambiguationContext(threadId);
        const metadata = {
          ...(memoryCommand ? { memoryCommand } : {}),
          ...(snapshot ? { disambiguationContext: offeredIn(snapshot) } : {}),
        };
        const storedMessageId = await this.deps.memory.addAssistantMessage(
          threadId,
          text,
          undefined,
          Object.keys(metadata).length > 0 ? metadata : undefined,
        );
        // A re-ask of the same question (after an invalid answer) is not a new one.
        if (interrupt.attempt === 0) this.deps.metrics?.questionOpened();
        return {
          status: "waiting",
          text,
          question: interrupt.question,
          options: interrupt.options,
          expectedInput: interrupt.expectedInput,
          hitlId: interrupt.hitlId,
          traceId,
          ...(storedMessageId ? { storedMessageId } : {}),
          ...chosenIn(result),
        };
      }
      // A completed turn keeps nothing: its own writes were never stored, a resumed one's are deleted.
      await this.deps.checkpointer.discard(threadId);
      if (stored) await this.deps.checkpointer.deleteThread(threadId);
      const language = replyLanguage(result.user?.language);
      // memory_update stored the reply last in the window it hands back.
      const last = result.finalResponse ? result.recentMessages?.at(-1) : undefined;
      const storedMessageId = last?.role === "assistant" ? last.localId : undefined;
      return {
        status: "completed",
        text: result.finalResponse ?? t(language, "internalError"),
        options: [],
        traceId,
        ...(result.acted ? { acted: true } : {}),
        ...(storedMessageId ? { storedMessageId } : {}),
        ...chosenIn(result),
      };
    } catch (error) {
      this.deps.logger.error({ err: error, threadId, traceId }, "turn failed");
      // Drop what this run wrote; a question already on disk stays open, so a retry of this
      // message (the inbox's) resumes it instead of finding nothing.
      await this.deps.checkpointer
        .discard(threadId)
        .catch((e: unknown) =>
          this.deps.logger.error({ err: e, threadId }, "could not clear the turn's buffer"),
        );
      // What the turn held of memory (the user's message) is saved: it stays said, retried or not.
      await this.deps.memory.commit(threadId).catch(() => undefined);
      return {
        status: "failed",
        text: userTextOf(error, replyLanguage(detectLanguage(message))),
        options: [],
        traceId,
      };
    }
  }

  /** One log line per turn: status, duration, and LLM calls, tokens and cost by node. */
  private logTurn(
    threadId: string,
    traceId: string,
    status: string,
    metadata: ExecutionMetadata | undefined,
    ms: number,
  ): void {
    const byNode: Record<string, { calls: number; tokens: number; costUsd: number; model: string }> = {};
    for (const usage of metadata?.llmUsage ?? []) {
      const entry = (byNode[usage.node] ??= { calls: 0, tokens: 0, costUsd: 0, model: usage.model });
      entry.calls += 1;
      entry.tokens += usage.inputTokens + usage.outputTokens;
      entry.costUsd += usage.costUsd;
    }
    this.deps.logger.info(
      {
        event: "turn",
        threadId,
        traceId,
        status,
        ms: Math.round(ms),
        llmCalls: metadata?.llmCalls ?? 0,
        tokens: metadata?.totalTokens ?? 0,
        costUsd: metadata?.totalCost ?? 0,
        byNode,
      },
      "turn finished",
    );
  }
}
