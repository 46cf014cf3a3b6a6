import { randomUUID } from "node:crypto";
import type { ConversationHistory, NewHistoryMessage } from "../../db/repositories/conversationHistory.js";
import type { ConversationStore, StoredWindow } from "../../db/repositories/conversationStore.js";
import type { ChunkSummary } from "../../db/repositories/chunkRepository.js";
import type { Fact } from "../../db/repositories/memoryRepository.js";
import type { Episode } from "../../db/repositories/episodeRepository.js";
import type {
  ConversationMessage,
  ImageContext,
  LatestAction,
  MessageMetadata,
  RecentTaskSnapshot,
} from "../../types/conversation.js";
import type { DisambiguationSnapshot } from "../../types/execution.js";
import { describeError } from "../../utils/errors.js";
import type { Logger } from "../../utils/logger.js";
import { phoneTag } from "../../utils/phone.js";
import type { WindowCache } from "../scheduler/jobs.js";
import {
  ConversationWindow,
  DISAMBIGUATION_EXPIRY_MS,
  DISAMBIGUATION_MAX_LIFE_MS,
  LATEST_ACTIONS_READ,
  MAX_ADDED_CONTEXT_CHARS,
  MAX_LATEST_ACTIONS,
  MAX_RECENT_TASKS,
  MAX_TOTAL_MESSAGES,
  emptyWindow,
  pruneWindow,
} from "./conversationWindow.js";
import {
  CHUNK_SIZE,
  capText,
  enforceMemoryLimits,
  estimateTokens,
  messageTokens,
  totalTokens,
} from "./limits.js";
import { mayHoldFacts } from "./factExtraction.js";
import { CONTEXT_CHUNK_CANDIDATES } from "./memoryContext.js";

export interface MemoryServiceOptions {
  /** Epoch milliseconds now (default: `Date.now`). */
  clock?: () => number;
  /** Where store failures are reported (default: none; they are rethrown either way). */
  logger?: Logger;
  /**
   * The whole-conversation history (default: none). Every user, assistant and proactive message
   * that joins the window is also appended there, after the window is saved; system notes and
   * "what do you remember" / "forget" exchanges (`metadata.memoryCommand`) are not. A failed append
   * is logged and the turn goes on: the window keeps the message, only long-term memory misses it.
   * A store that `keepsHistory` writes these messages itself, with the window: then this is used
   * only for proactive messages (`appendProactiveMessage`).
   */
  history?: ConversationHistory;
}

/** What `beginTurn` read of long-term memory for the message, for the planner's context. */
export interface LongTermRead {
  /** The newest conversation chunks' summaries, newest first. */
  chunks: ChunkSummary[];
  /** The candidate facts for the message, holding now (ranked by `LongTermMemory.contextFor`). */
  facts: Fact[];
  /** The user's zone, for the dates the context names (null: not read). */
  timeZone: string | null;
  /** The candidate episodes speaking of the message's words (absent: none read). */
  episodes?: Episode[];
  /** The instant they were ranked at (epoch ms). */
  now: number;
}

/** A turn's window changes held back to be saved together (see `beginTurn`). */
interface HeldWrites {
  /** The cached window has changes not saved yet. */
  dirty: boolean;
  /** Messages that joined the window since the last save, for the history, in order. */
  joined: ConversationMessage[];
}

export interface AddUserMessageOptions {
  whatsappMessageId?: string;
  replyToMessageId?: string;
  metadata?: MessageMetadata;
}

/** How a message is added: the user's options, and an assistant message's `localId`. */
interface AddMessageOptions extends AddUserMessageOptions {
  localId?: string | undefined;
}

export interface ConversationStats {
  messageCount: number;
  totalTokens: number;
  /** Epoch ms, or null without messages. */
  oldestTimestamp: number | null;
  /** Epoch ms, or null without messages. */
  newestTimestamp: number | null;
  latestActionCount: number;
}

/** The notes, cut so that together they hold at most MAX_ADDED_CONTEXT_CHARS characters. */
function capAddedContext(notes: readonly string[]): string[] {
  const kept: string[] = [];
  let room = MAX_ADDED_CONTEXT_CHARS;
  for (const note of notes) {
    if (room <= 0) break;
    const { text, cut } = capText(note, room);
    kept.push(cut ? `${text}…` : text);
    room -= text.length + 1;
  }
  return kept;
}

/** A JSON-only copy (what the store will hand back), so callers never share objects with the cache. */
function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The window with its snapshot living at most DISAMBIGUATION_EXPIRY_MS past `endedAt` (itself when unchanged). */
function cutSnapshot(window: StoredWindow, endedAt: number): StoredWindow {
  const snapshot = window.disambiguation;
  const expiresAt = endedAt + DISAMBIGUATION_EXPIRY_MS;
  if (!snapshot || snapshot.expiresAt <= expiresAt) return window;
  return { ...window, disambiguation: { ...snapshot, expiresAt } };
}

/**
 * Short-term conversation memory per user (spec 000 §4.1): recent messages, latest actions, the
 * disambiguation snapshot and recent tasks.
 *
 * Every write reaches the ConversationStore before the reply does, so a restart or another
 * instance sees the same recent conversation (D9); the in-process ConversationWindow is only a
 * cache in front of it. Reads are synchronous and answer from the cache, so a turn first awaits
 * `load(phone)` or `beginTurn(phone)`; a phone never loaded reads as empty. A write to a phone not
 * cached loads it first, so it never overwrites a stored window it has not seen. Writes for one
 * phone are assumed to come from the turn that holds that phone (D4); within this instance they are
 * saved in the order they were made.
 *
 * Outside a turn each write is saved at once. Between `beginTurn` (or `holdWrites`) and the turn's
 * end, changes are cached and held, then saved in one write with the messages' history: when Memo's
 * message joins the window (the reply, or the question a paused turn asks) or on `commit`. Held
 * changes of a turn that failed are saved by the phone's next load, before it reads, so nothing the
 * user said is lost (the inbox's retry of the message then finds it stored).
 */
export class MemoryService implements WindowCache {
  private readonly cache = new ConversationWindow();
  private readonly clock: () => number;
  private readonly logger: Logger | undefined;
  private readonly history: ConversationHistory | undefined;
  /** Per phone, the end of the chain of loads and writes, which run one at a time in call order. */
  private readonly tails = new Map<string, Promise<void>>();
  /** Per phone in a turn, the changes held until the turn's one write. */
  private readonly held = new Map<string, HeldWrites>();
  /**
   * Per phone in a turn: whether what left the window is unknown (a resumed turn, not read) and
   * whether a user message may hold facts.
   */
  private readonly turnChanges = new Map<string, { unknown: boolean; mayHoldFacts: boolean }>();
  /**
   * Per cached phone, messages that left the window (aged out at a turn's read or pushed out by a
   * newer one) since the last background round was started: a chunk is due once CHUNK_SIZE wait.
   */
  private readonly leftSinceRound = new Map<string, number>();
  /**
   * Per phone, when its disambiguation question ended outside a turn (left for a new command):
   * the snapshot's life is cut at the phone's next `beginTurn`, in that turn's write.
   */
  private readonly questionsEnded = new Map<string, number>();

  constructor(
    private readonly store: ConversationStore,
    options: MemoryServiceOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.logger = options.logger;
    this.history = options.history;
  }

  /**
   * Re-reads one user's window from the store into the cache (at the start of every turn, so
   * another instance's writes are seen). Drops messages older than 12 h and an expired
   * disambiguation.
   */
  async load(phone: string): Promise<void> {
    await this.serially(phone, async () => {
      await this.loadNow(phone);
      this.held.delete(phone);
    });
  }

  /**
   * Starts a turn: saves what an earlier failed turn still held, then reads the window (as `load`)
   * and, with `longTermFor` (the user's message) and a store that keeps long-term memory, the
   * newest chunk summaries and the facts for it, in the same read. Until the turn's end (see the class) its
   * changes are held. Returns what it read of long-term memory, or null when it read none.
   */
  async beginTurn(phone: string, options: { longTermFor?: string } = {}): Promise<LongTermRead | null> {
    let read: LongTermRead | null = null;
    await this.serially(phone, async () => {
      // Logged by the save; never in the way of the read (as in `loadNow`).
      await this.flushHeld(phone).catch(() => undefined);
      const now = this.clock();
      const text = options.longTermFor;
      let stored: StoredWindow | null;
      if (text !== undefined && this.store.loadTurn) {
        const turn = await this.reportFailure(phone, "load", () =>
          this.store.loadTurn!(phone, { text, now, chunks: CONTEXT_CHUNK_CANDIDATES }),
        );
        stored = turn.window;
        read = {
          chunks: turn.chunks,
          facts: turn.facts,
          timeZone: turn.timeZone,
          episodes: turn.episodes,
          now,
        };
      } else {
        stored = await this.reportFailure(phone, "load", () => this.store.load(phone));
      }
      const window = this.withQuestionEnded(phone, pruneWindow(stored ?? emptyWindow(), now));
      this.cache.set(phone, window.window, now);
      this.held.set(phone, { dirty: window.changed, joined: [] });
      this.countLeft(phone, (stored?.messages.length ?? 0) - window.window.messages.length);
      this.turnChanges.set(phone, { unknown: false, mayHoldFacts: false });
    });
    return read;
  }

  /**
   * Holds this phone's changes from now until the turn's end (see the class), without reading:
   * for a turn that resumes a paused one. A no-op when they are held already.
   */
  holdWrites(phone: string): void {
    if (this.held.has(phone)) return;
    this.held.set(phone, { dirty: false, joined: [] });
    // Not read by beginTurn: whether something left the window is unknown, so assume it did.
    this.turnChanges.set(phone, { unknown: true, mayHoldFacts: false });
  }

  /**
   * Whether the turn under way leaves long-term memory work for a background round the caller
   * starts: at least CHUNK_SIZE messages left the window since the last such round (a chunk is
   * due; counting starts again), a user message may hold facts, or it is unknown (outside a turn,
   * a resumed turn). Turns of plain commands ("add milk to my list") and turns that pushed fewer messages
   * out cost no background round; what they pass over is read by the next round that runs (or
   * the scheduler's sweep).
   */
  takeLongTermWork(phone: string): boolean {
    const changes = this.turnChanges.get(phone);
    // Taken: what later changes outside a turn do is not this turn's.
    this.turnChanges.delete(phone);
    // A round started for facts chunks only what it finds waiting: the count goes on until CHUNK_SIZE.
    const chunkDue = (this.leftSinceRound.get(phone) ?? 0) >= CHUNK_SIZE;
    if (chunkDue) this.leftSinceRound.delete(phone);
    return !changes || changes.unknown || changes.mayHoldFacts || chunkDue;
  }

  /** Ends the turn: saves the changes it held, with their history, in one write (none when nothing changed). */
  async commit(phone: string): Promise<void> {
    await this.serially(phone, async () => {
      try {
        await this.flushHeld(phone);
      } finally {
        this.held.delete(phone);
      }
    });
  }

  // ---- messages ----

  /** Adds the user's message; a WhatsApp id already in the window is not added twice (redelivery, re-run turn). */
  async addUserMessage(phone: string, content: string, options: AddUserMessageOptions = {}): Promise<void> {
    await this.addMessage(phone, "addUserMessage", "user", content, options);
  }

  /**
   * Keeps with the user's newest message (the one with `whatsappMessageId`, when given) what Memo
   * added to its words (`metadata.addedContext`, at most MAX_ADDED_CONTEXT_CHARS characters),
   * counted in its tokens; the window's limits apply again. Its `content` stays the user's words,
   * which is all the history (and so long-term memory) keeps. A no-op when there is no such message.
   */
  async addContextToUserMessage(
    phone: string,
    notes: readonly string[],
    whatsappMessageId?: string,
  ): Promise<void> {
    if (notes.length === 0) return;
    await this.update(phone, "addContextToUserMessage", (window) => {
      const index = window.messages.findLastIndex(
        (m) =>
          m.role === "user" && (whatsappMessageId === undefined || m.whatsappMessageId === whatsappMessageId),
      );
      if (index < 0) return null;
      const messages = [...window.messages];
      const message = messages[index]!;
      const metadata = { ...message.metadata, addedContext: capAddedContext(notes) };
      const annotated = { ...message, metadata };
      messages[index] = { ...annotated, estimatedTokens: messageTokens(annotated) };
      return { ...window, messages: enforceMemoryLimits(messages) };
    });
  }

  /**
   * Adds the assistant's message; a WhatsApp id already in the window is not added twice. A
   * message stored before it is sent (no WhatsApp id yet) gets a `localId`, returned here, which
   * the sender later hands to `setAssistantMessageId`; null when the message carries its WhatsApp
   * id or was already in the window.
   */
  async addAssistantMessage(
    phone: string,
    content: string,
    whatsappMessageId?: string,
    metadata?: MessageMetadata,
  ): Promise<string | null> {
    const localId = whatsappMessageId === undefined ? randomUUID() : undefined;
    const added = await this.addMessage(phone, "addAssistantMessage", "assistant", content, {
      whatsappMessageId,
      metadata,
      localId,
    });
    // Memo's message ends a turn: what it held is saved now, with it, before anyone reads it.
    if (this.held.has(phone)) await this.commit(phone);
    return added ? (localId ?? null) : null;
  }

  /**
   * Adds a message Memo started outside a turn (a reminder, a digest) straight to the stored
   * window, in one statement, then reloads it: a turn of the same user running on another
   * instance at that moment is never overwritten.
   */
  async appendProactiveMessage(
    phone: string,
    content: string,
    whatsappMessageId?: string,
    /** What the message shows numbered (the weekly review's overdue tasks), for "done 2". */
    metadata?: MessageMetadata,
  ): Promise<void> {
    await this.serially(phone, async () => {
      // A turn of this phone running here keeps its held changes, saved first so they come before.
      await this.flushHeld(phone);
      const message: ConversationMessage = {
        role: "assistant",
        content,
        timestamp: this.clock(),
        estimatedTokens: estimateTokens(content),
        ...(whatsappMessageId !== undefined && { whatsappMessageId }),
        ...(metadata && { metadata }),
      };
      await this.reportFailure(phone, "appendProactiveMessage", () => this.store.append(phone, message));
      await this.appendToHistory(phone, message, true);
      await this.loadNow(phone);
    });
  }

  /** Adds a system note; at most 3 are kept, the oldest go first. */
  async addSystemMessage(phone: string, content: string): Promise<void> {
    await this.addMessage(phone, "addSystemMessage", "system", content, {});
  }

  /** The newest `limit` messages (default: 10), oldest first. */
  getRecentMessages(phone: string, limit = MAX_TOTAL_MESSAGES): ConversationMessage[] {
    if (limit <= 0) return [];
    return jsonCopy(this.read(phone).messages.slice(-limit));
  }

  /** Whether the window holds this user message (and, when given, with this WhatsApp id). */
  hasUserMessage(phone: string, content: string, whatsappMessageId?: string): boolean {
    return this.read(phone).messages.some(
      (m) =>
        m.role === "user" &&
        m.content === content &&
        (whatsappMessageId === undefined || m.whatsappMessageId === whatsappMessageId),
    );
  }

  getLastUserMessage(phone: string): ConversationMessage | null {
    return this.findNewest(phone, (m) => m.role === "user");
  }

  /** The message, of either side, whose WhatsApp id the user replied to; null when it has left the window. */
  getRepliedToMessage(phone: string, replyToMessageId: string): ConversationMessage | null {
    return this.findNewest(phone, (m) => m.whatsappMessageId === replyToMessageId);
  }

  /**
   * Sets the WhatsApp id of the stored assistant message `localId` names (what
   * `addAssistantMessage` returned; the transport learns the id after sending). A no-op when that
   * message has left the window. With a store that `readsSentIds` (the sender recorded the id
   * with `localId`), only the cached window changes: the store's next read fills the id in.
   */
  async setAssistantMessageId(phone: string, localId: string, whatsappMessageId: string): Promise<void> {
    const change = (window: StoredWindow): StoredWindow | null => {
      const index = window.messages.findIndex((m) => m.localId === localId);
      if (index < 0) return null;
      const messages = [...window.messages];
      const { localId: _sent, ...message } = messages[index]!;
      messages[index] = { ...message, whatsappMessageId };
      return { ...window, messages };
    };
    if (!this.store.readsSentIds) return this.update(phone, "setAssistantMessageId", change);
    await this.serially(phone, () => {
      const window = this.cache.get(phone);
      const next = window && change(window);
      if (next) this.cache.set(phone, next, this.clock());
      return Promise.resolve();
    });
  }

  // ---- disambiguation ----

  /**
   * The disambiguation snapshot (spec 000 §5.1), or null when there is none or it has expired. It
   * lives while its question is open and 5 minutes (DISAMBIGUATION_EXPIRY_MS) after the question
   * ended: expired, left for a new command, cancelled. An answered question's is cleared.
   */
  getDisambiguationContext(phone: string): DisambiguationSnapshot | null {
    const context = this.read(phone).disambiguation;
    return context && context.expiresAt > this.clock() ? jsonCopy(context) : null;
  }

  /**
   * Keeps the snapshot of a disambiguation question as it is asked; `expiresAt` is the question's
   * expiry plus 5 minutes, and never more than DISAMBIGUATION_MAX_LIFE_MS from now.
   */
  async setDisambiguationContext(phone: string, context: DisambiguationSnapshot): Promise<void> {
    await this.update(phone, "setDisambiguationContext", (window, now) => ({
      ...window,
      disambiguation: {
        ...jsonCopy(context),
        expiresAt: Math.min(context.expiresAt, now + DISAMBIGUATION_MAX_LIFE_MS),
      },
    }));
  }

  /**
   * The snapshot's question ended now without an answer (left for a new command, cancelled, given
   * up on): the snapshot lives 5 more minutes at most. In a turn it is held with the turn's write;
   * outside one (the HITL plane, before the new command's turn starts) it is applied by the
   * phone's next `beginTurn`, in that turn's one write, so it never costs a query of its own.
   */
  async endDisambiguationQuestion(phone: string): Promise<void> {
    if (!this.held.has(phone)) {
      this.questionsEnded.set(phone, this.clock());
      return;
    }
    await this.update(phone, "endDisambiguationQuestion", (window, now) => {
      const cut = cutSnapshot(window, now);
      return cut === window ? null : cut;
    });
  }

  async clearDisambiguationContext(phone: string): Promise<void> {
    await this.update(phone, "clearDisambiguationContext", (window) =>
      window.disambiguation ? { ...window, disambiguation: null } : null,
    );
  }

  // ---- image context ----

  /**
   * The image context of the newest message carrying one in the window. Whether it is recent
   * enough to use is the caller's call (`extractedAt`).
   */
  getLastImageContext(phone: string): ImageContext | null {
    return (
      this.findNewest(phone, (m) => m.metadata?.imageContext !== undefined)?.metadata?.imageContext ?? null
    );
  }

  // ---- recent tasks ----

  /**
   * Adds task snapshots, replacing older snapshots of the same ids; keeps the 4 newest. memory_update
   * pushes the tasks a turn created or completed, held with the turn's write; none: no change.
   */
  async pushRecentTasks(phone: string, tasks: RecentTaskSnapshot[]): Promise<void> {
    if (tasks.length === 0) return;
    await this.update(phone, "pushRecentTasks", (window) => {
      const incoming = jsonCopy(tasks);
      const ids = new Set(incoming.map((t) => t.id));
      const kept = window.recentTasks.filter((t) => !ids.has(t.id));
      return { ...window, recentTasks: [...kept, ...incoming].slice(-MAX_RECENT_TASKS) };
    });
  }

  /** Recent task snapshots, oldest first. */
  getRecentTasks(phone: string): RecentTaskSnapshot[] {
    return jsonCopy(this.read(phone).recentTasks);
  }

  async clearRecentTasks(phone: string): Promise<void> {
    await this.update(phone, "clearRecentTasks", (window) =>
      window.recentTasks.length > 0 ? { ...window, recentTasks: [] } : null,
    );
  }

  // ---- latest actions (spec 001) ----

  /** Remembers a successful action; the 10 newest are kept, first in first out. */
  async pushLatestAction(phone: string, ...actions: LatestAction[]): Promise<void> {
    if (actions.length === 0) return;
    await this.update(phone, "pushLatestAction", (window) => ({
      ...window,
      latestActions: [...window.latestActions, ...actions.map((a) => jsonCopy(a))].slice(-MAX_LATEST_ACTIONS),
    }));
  }

  /**
   * Removes the latest actions `match` selects, here and in the store ("forget that I…": an action
   * whose summary quotes what is forgotten). Returns how many were removed.
   */
  async dropLatestActions(phone: string, match: (action: LatestAction) => boolean): Promise<number> {
    let dropped = 0;
    await this.update(phone, "dropLatestActions", (window) => {
      const latestActions = window.latestActions.filter((a) => !match(jsonCopy(a)));
      dropped = window.latestActions.length - latestActions.length;
      return dropped > 0 ? { ...window, latestActions } : null;
    });
    return dropped;
  }

  /** The newest `limit` actions (default: 3), most recent first. */
  getLatestActions(phone: string, limit = LATEST_ACTIONS_READ): LatestAction[] {
    if (limit <= 0) return [];
    return jsonCopy(this.read(phone).latestActions.slice(-limit).reverse());
  }

  // ---- the whole conversation ----

  /** Forgets everything about the user's conversation, here and in the store. */
  async clearConversation(phone: string): Promise<void> {
    await this.serially(phone, async () => {
      this.cache.set(phone, emptyWindow(), this.clock());
      const held = this.held.get(phone);
      if (held) this.held.set(phone, { dirty: false, joined: [] });
      await this.reportFailure(phone, "clearConversation", () => this.store.delete(phone));
    });
  }

  /**
   * Removes the messages `match` selects from the window, here and in the store ("forget that
   * I…"); the history is the caller's to change. Returns how many were removed.
   */
  async dropMessages(phone: string, match: (message: ConversationMessage) => boolean): Promise<number> {
    let dropped = 0;
    await this.update(phone, "dropMessages", (window) => {
      const messages = window.messages.filter((m) => !match(jsonCopy(m)));
      dropped = window.messages.length - messages.length;
      return dropped > 0 ? { ...window, messages } : null;
    });
    return dropped;
  }

  getStats(phone: string): ConversationStats {
    const { messages, latestActions } = this.read(phone);
    return {
      messageCount: messages.length,
      totalTokens: totalTokens(messages),
      oldestTimestamp: messages[0]?.timestamp ?? null,
      newestTimestamp: messages.at(-1)?.timestamp ?? null,
      latestActionCount: latestActions.length,
    };
  }

  /** Evicts cache entries idle for 12 h (the table keeps them; `load()` brings them back). */
  cleanup(): void {
    this.cache.evictIdle(this.clock(), (phone) => this.held.has(phone));
    // What a finished turn did to the window is only read at its end.
    for (const phone of this.turnChanges.keys()) if (!this.held.has(phone)) this.turnChanges.delete(phone);
    // Counts of evicted phones go with them: the scheduler's sweep folds what they leave waiting.
    for (const phone of this.leftSinceRound.keys())
      if (!this.cache.has(phone)) this.leftSinceRound.delete(phone);
  }

  // ---- internals ----

  /** The window with the snapshot's life cut where its question ended outside a turn (see `endDisambiguationQuestion`). */
  private withQuestionEnded(phone: string, window: StoredWindow): { window: StoredWindow; changed: boolean } {
    const endedAt = this.questionsEnded.get(phone);
    if (endedAt === undefined) return { window, changed: false };
    this.questionsEnded.delete(phone);
    const cut = cutSnapshot(window, endedAt);
    return { window: cut, changed: cut !== window };
  }

  /** The cached window as it stands now (aged-out entries hidden), empty when not cached. */
  private read(phone: string): StoredWindow {
    const window = this.cache.get(phone);
    return window ? pruneWindow(window, this.clock()) : emptyWindow();
  }

  private findNewest(
    phone: string,
    predicate: (m: ConversationMessage) => boolean,
  ): ConversationMessage | null {
    const found = this.read(phone).messages.findLast(predicate);
    return found ? jsonCopy(found) : null;
  }

  private async addMessage(
    phone: string,
    op: string,
    role: ConversationMessage["role"],
    content: string,
    options: AddMessageOptions,
  ): Promise<boolean> {
    let added: ConversationMessage | null = null;
    await this.update(
      phone,
      op,
      (window, now) => {
        const { whatsappMessageId, localId, replyToMessageId, metadata } = options;
        if (
          whatsappMessageId !== undefined &&
          window.messages.some((m) => m.role === role && m.whatsappMessageId === whatsappMessageId)
        ) {
          return null;
        }
        const message: ConversationMessage = {
          role,
          content,
          timestamp: now,
          estimatedTokens: estimateTokens(content),
          ...(whatsappMessageId !== undefined && { whatsappMessageId }),
          ...(localId !== undefined && { localId }),
          ...(replyToMessageId !== undefined && { replyToMessageId }),
          ...(metadata !== undefined && { metadata: jsonCopy(metadata) }),
        };
        added = message;
        return { ...window, messages: enforceMemoryLimits([...window.messages, message]) };
      },
      () => added,
    );
    return added !== null;
  }

  /**
   * The messages of `joined` the history keeps: not system notes, not exchanges about memory, not
   * forwarded messages (someone else's words: facts and summaries are of what the user said, D14).
   */
  private historyOf(joined: readonly ConversationMessage[]): NewHistoryMessage[] {
    return joined
      .filter((m) => m.role !== "system" && !m.metadata?.memoryCommand && !m.metadata?.forwarded)
      .map((m) => ({
        role: m.role,
        content: m.content,
        createdAt: m.timestamp,
        ...(m.whatsappMessageId !== undefined && { whatsappMessageId: m.whatsappMessageId }),
      }));
  }

  /**
   * Saves the window with the history of the messages that joined it: in one write when the store
   * keeps the history (if that fails, the window alone), else the window, then each message through
   * `history`. A failed history write is logged, never fatal (see `history`).
   */
  private async save(
    phone: string,
    op: string,
    window: StoredWindow,
    joined: readonly ConversationMessage[],
  ) {
    const rows = this.historyOf(joined);
    if (this.store.keepsHistory) {
      if (rows.length === 0) {
        await this.reportFailure(phone, op, () => this.store.save(phone, window));
        return;
      }
      try {
        await this.store.save(phone, window, rows);
      } catch (error) {
        // As with a failed append (see `history`): the window is saved without the history rows
        // and the turn goes on; should the window itself fail, that is reported and thrown.
        this.logFailure(phone, "appendHistory", error, "conversation history failed");
        await this.reportFailure(phone, op, () => this.store.save(phone, window));
      }
      return;
    }
    await this.reportFailure(phone, op, () => this.store.save(phone, window));
    for (const message of joined) await this.appendToHistory(phone, message);
  }

  /** Saves what the phone's turn held, if anything; it is held no more either way. Runs in the phone's chain. */
  private async flushHeld(phone: string): Promise<void> {
    const held = this.held.get(phone);
    const window = this.cache.get(phone);
    if (!held?.dirty || !window) return;
    const joined = held.joined;
    this.held.set(phone, { dirty: false, joined: [] });
    await this.save(phone, "commit", window, joined);
  }

  /** Adds `left` messages (when positive) to those that left the phone's window since the last round. */
  private countLeft(phone: string, left: number): void {
    if (left > 0) this.leftSinceRound.set(phone, (this.leftSinceRound.get(phone) ?? 0) + left);
  }

  /** Records, for `takeLongTermWork`, what a change in the turn did to the window. */
  private noteTurnChange(
    phone: string,
    before: StoredWindow,
    after: StoredWindow,
    added: ConversationMessage | null,
  ): void {
    // Counted in and out of turns alike (a reminder appended outside one pushes messages out too).
    this.countLeft(phone, before.messages.length + (added ? 1 : 0) - after.messages.length);
    const changes = this.turnChanges.get(phone);
    if (!changes) return;
    if (
      added?.role === "user" &&
      mayHoldFacts({
        id: 0,
        role: "user",
        content: added.content,
        whatsappMessageId: added.whatsappMessageId ?? null,
        createdAt: added.timestamp,
      })
    )
      changes.mayHoldFacts = true;
  }

  /**
   * Appends a message that joined the window to the history (when there is one and the store does
   * not keep it). Runs in the phone's chain, so history ids follow the window's order. Never
   * throws: see `history`. `always`: also with a store that keeps history (its `append` does not).
   */
  private async appendToHistory(phone: string, message: ConversationMessage, always = false): Promise<void> {
    if (!this.history || (this.store.keepsHistory && !always)) return;
    const [row] = this.historyOf([message]);
    if (!row) return;
    try {
      await this.history.append(phone, row);
    } catch (error) {
      this.logFailure(phone, "appendHistory", error, "conversation history failed");
    }
  }

  /** Logs a failed store call by its message and code only: a database error's detail can quote the row. */
  private logFailure(phone: string, op: string, error: unknown, message: string): void {
    const code = (error as { code?: unknown } | null)?.code;
    this.logger?.error(
      { user: phoneTag(phone), op, error: describeError(error), ...(typeof code === "string" && { code }) },
      message,
    );
  }

  /**
   * Runs `task` after the phone's earlier loads and writes have finished, so a save never lands
   * after a later one and a load never reads back a window a write is still changing.
   */
  private serially(phone: string, task: () => Promise<void>): Promise<void> {
    const run = (this.tails.get(phone) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => undefined);
    this.tails.set(phone, tail);
    void tail.then(() => {
      if (this.tails.get(phone) === tail) this.tails.delete(phone);
    });
    return run;
  }

  /** Saves what a turn held (a failed one's: logged, never in the way of the read), then reads the window. */
  private async loadNow(phone: string): Promise<void> {
    await this.flushHeld(phone).catch(() => undefined);
    const stored = await this.reportFailure(phone, "load", () => this.store.load(phone));
    const now = this.clock();
    this.cache.set(phone, pruneWindow(stored ?? emptyWindow(), now), now);
  }

  /**
   * Applies `change` to the user's current window (loaded first when not cached), caches the
   * result and saves it, or holds it in a turn. `change` returns null when there is nothing to
   * change; `joined` names the message it added, if any, for the history.
   */
  private update(
    phone: string,
    op: string,
    change: (window: StoredWindow, now: number) => StoredWindow | null,
    joined?: () => ConversationMessage | null,
  ): Promise<void> {
    return this.serially(phone, async () => {
      if (!this.cache.has(phone)) await this.loadNow(phone);
      const now = this.clock();
      const current = this.read(phone);
      const next = change(current, now);
      if (!next) return;
      // Cached first: should the save fail, the next load() brings the cache back in step.
      this.cache.set(phone, next, now);
      const message = joined?.() ?? null;
      this.noteTurnChange(phone, current, next, message);
      const held = this.held.get(phone);
      if (held) {
        held.dirty = true;
        if (message) held.joined.push(message);
        return;
      }
      await this.save(phone, op, next, message ? [message] : []);
    });
  }

  /** Logs a failed store call with its context and rethrows it. */
  private async reportFailure<T>(phone: string, op: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      this.logFailure(phone, op, error, "conversation store failed");
      throw error;
    }
  }
}
