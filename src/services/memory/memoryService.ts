import { randomUUID } from "node:crypto";
import type { ConversationHistory } from "../../db/repositories/conversationHistory.js";
import type { ConversationStore, StoredWindow } from "../../db/repositories/conversationStore.js";
import type {
  ConversationMessage,
  DisambiguationContext,
  ImageContext,
  LatestAction,
  MessageMetadata,
  RecentTaskSnapshot,
} from "../../types/conversation.js";
import { describeError } from "../../utils/errors.js";
import type { Logger } from "../../utils/logger.js";
import { phoneTag } from "../../utils/phone.js";
import {
  ConversationWindow,
  DISAMBIGUATION_EXPIRY_MS,
  LATEST_ACTIONS_READ,
  MAX_LATEST_ACTIONS,
  MAX_RECENT_TASKS,
  MAX_TOTAL_MESSAGES,
  emptyWindow,
  pruneWindow,
} from "./conversationWindow.js";
import { enforceMemoryLimits, estimateTokens, totalTokens } from "./limits.js";

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
   */
  history?: ConversationHistory;
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

/** A JSON-only copy (what the store will hand back), so callers never share objects with the cache. */
function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Short-term conversation memory per user (spec 000 §4.1): recent messages, latest actions, the
 * disambiguation snapshot and recent tasks.
 *
 * Every write goes through to the ConversationStore, so a restart or another instance sees the same
 * recent conversation (D9); the in-process ConversationWindow is only a cache in front of it. Reads
 * are synchronous and answer from the cache, so a turn first awaits `load(phone)`; a phone never
 * loaded reads as empty. A write to a phone not cached loads it first, so it never overwrites a
 * stored window it has not seen. Writes for one phone are assumed to come from the turn that holds
 * that phone (D4); within this instance they are saved in the order they were made.
 */
export class MemoryService {
  private readonly cache = new ConversationWindow();
  private readonly clock: () => number;
  private readonly logger: Logger | undefined;
  private readonly history: ConversationHistory | undefined;
  /** Per phone, the end of the chain of loads and writes, which run one at a time in call order. */
  private readonly tails = new Map<string, Promise<void>>();

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
    await this.serially(phone, () => this.loadNow(phone));
  }

  // ---- messages ----

  /** Adds the user's message; a WhatsApp id already in the window is not added twice (redelivery, re-run turn). */
  async addUserMessage(phone: string, content: string, options: AddUserMessageOptions = {}): Promise<void> {
    await this.addMessage(phone, "addUserMessage", "user", content, options);
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
    return added ? (localId ?? null) : null;
  }

  /**
   * Adds a message Memo started outside a turn (a reminder, a digest) straight to the stored
   * window, in one statement, then reloads it: a turn of the same user running on another
   * instance at that moment is never overwritten.
   */
  async appendProactiveMessage(phone: string, content: string, whatsappMessageId?: string): Promise<void> {
    await this.serially(phone, async () => {
      const message: ConversationMessage = {
        role: "assistant",
        content,
        timestamp: this.clock(),
        estimatedTokens: estimateTokens(content),
        ...(whatsappMessageId !== undefined && { whatsappMessageId }),
      };
      await this.reportFailure(phone, "appendProactiveMessage", () => this.store.append(phone, message));
      await this.appendToHistory(phone, message);
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
   * message has left the window.
   */
  async setAssistantMessageId(phone: string, localId: string, whatsappMessageId: string): Promise<void> {
    await this.update(phone, "setAssistantMessageId", (window) => {
      const index = window.messages.findIndex((m) => m.localId === localId);
      if (index < 0) return null;
      const messages = [...window.messages];
      const { localId: _sent, ...message } = messages[index]!;
      messages[index] = { ...message, whatsappMessageId };
      return { ...window, messages };
    });
  }

  // ---- disambiguation ----

  /** The disambiguation snapshot, or null when there is none or it has expired (5 minutes). */
  getDisambiguationContext(phone: string): DisambiguationContext | null {
    const context = this.read(phone).disambiguation;
    return context && context.expiresAt > this.clock() ? jsonCopy(context) : null;
  }

  /** Keeps a disambiguation snapshot for follow-ups; it expires 5 minutes from now at the latest. */
  async setDisambiguationContext(phone: string, context: DisambiguationContext): Promise<void> {
    await this.update(phone, "setDisambiguationContext", (window, now) => ({
      ...window,
      disambiguation: {
        ...jsonCopy(context),
        expiresAt: Math.min(context.expiresAt, now + DISAMBIGUATION_EXPIRY_MS),
      },
    }));
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

  /** Adds task snapshots, replacing older snapshots of the same ids; keeps the 4 newest. */
  async pushRecentTasks(phone: string, tasks: RecentTaskSnapshot[]): Promise<void> {
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
    this.cache.evictIdle(this.clock());
  }

  // ---- internals ----

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
      () => (added ? this.appendToHistory(phone, added) : Promise.resolve()),
    );
    return added !== null;
  }

  /**
   * Appends a message that joined the window to the history (when there is one). Runs in the
   * phone's chain, so history ids follow the window's order. Never throws: see `history`.
   */
  private async appendToHistory(phone: string, message: ConversationMessage): Promise<void> {
    if (!this.history || message.role === "system" || message.metadata?.memoryCommand) return;
    try {
      await this.history.append(phone, {
        role: message.role,
        content: message.content,
        createdAt: message.timestamp,
        ...(message.whatsappMessageId !== undefined && { whatsappMessageId: message.whatsappMessageId }),
      });
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      this.logger?.error(
        {
          user: phoneTag(phone),
          op: "appendHistory",
          error: describeError(error),
          ...(typeof code === "string" && { code }),
        },
        "conversation history failed",
      );
    }
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

  private async loadNow(phone: string): Promise<void> {
    const stored = await this.reportFailure(phone, "load", () => this.store.load(phone));
    const now = this.clock();
    this.cache.set(phone, pruneWindow(stored ?? emptyWindow(), now), now);
  }

  /**
   * Applies `change` to the user's current window (loaded first when not cached), caches the
   * result and saves it. `change` returns null when there is nothing to change.
   */
  private update(
    phone: string,
    op: string,
    change: (window: StoredWindow, now: number) => StoredWindow | null,
    afterSave?: () => Promise<void>,
  ): Promise<void> {
    return this.serially(phone, async () => {
      if (!this.cache.has(phone)) await this.loadNow(phone);
      const now = this.clock();
      const next = change(this.read(phone), now);
      if (!next) return;
      // Cached first: should the save fail, the next load() brings the cache back in step.
      this.cache.set(phone, next, now);
      await this.reportFailure(phone, op, () => this.store.save(phone, next));
      await afterSave?.();
    });
  }

  /** Logs a failed store call with its context and rethrows it. */
  private async reportFailure<T>(phone: string, op: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      // Message and code only: a database error's detail can quote the row, message text included.
      const code = (error as { code?: unknown } | null)?.code;
      this.logger?.error(
        { user: phoneTag(phone), op, error: describeError(error), ...(typeof code === "string" && { code }) },
        "conversation store failed",
      );
      throw error;
    }
  }
}
