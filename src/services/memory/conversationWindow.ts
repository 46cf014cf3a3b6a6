import { CONVERSATION_MAX_AGE_MS } from "../../config/lifetimes.js";
import { HITL_TTL_MS } from "../../types/index.js";
import type { StoredWindow } from "../../db/repositories/conversationStore.js";

/** User, assistant and system messages kept per user (spec 000 §4.3). */
export const MAX_TOTAL_MESSAGES = 10;
/** Estimated tokens the kept messages may add up to. */
export const MAX_TOTAL_TOKENS = 500;
/**
 * Characters of added context (`metadata.addedContext`) kept with one user message: a quoted
 * reply or an image's analysis never takes most of the window.
 */
export const MAX_ADDED_CONTEXT_CHARS = 600;
/** Recent task snapshots kept per user. */
export const MAX_RECENT_TASKS = 4;
/** System messages kept per user; the oldest go first. */
export const MAX_SYSTEM_MESSAGES = 3;
/** Characters per estimated token. */
export const CHARS_PER_TOKEN = 3.5;
/** A disambiguation snapshot answers follow-ups for this long after its question ended (5 minutes). */
export const DISAMBIGUATION_EXPIRY_MS = 5 * 60 * 1000;
/** The longest a snapshot lives: its question's own life (HITL_TTL_MS), then DISAMBIGUATION_EXPIRY_MS. */
export const DISAMBIGUATION_MAX_LIFE_MS = HITL_TTL_MS + DISAMBIGUATION_EXPIRY_MS;
/** Latest actions kept per user, first in first out (spec 001). */
export const MAX_LATEST_ACTIONS = 10;
/** Latest actions handed to the planner, most recent first (spec 001). */
export const LATEST_ACTIONS_READ = 3;

/** A window with nothing in it. */
export function emptyWindow(): StoredWindow {
  return { messages: [], latestActions: [], disambiguation: null, recentTasks: [] };
}

/**
 * The window as it stands at `now`: messages and latest actions older than 12 hours and an expired
 * disambiguation are gone. When every message has aged out the conversation is over, and its
 * recent tasks go with it.
 */
export function pruneWindow(window: StoredWindow, now: number): StoredWindow {
  const fresh = (at: number) => now - at <= CONVERSATION_MAX_AGE_MS;
  const messages = window.messages.filter((m) => fresh(m.timestamp));
  const conversationEnded = messages.length === 0 && window.messages.length > 0;
  return {
    messages,
    latestActions: window.latestActions.filter((a) => fresh(a.createdAt)),
    disambiguation:
      window.disambiguation && window.disambiguation.expiresAt > now ? window.disambiguation : null,
    recentTasks: conversationEnded ? [] : window.recentTasks,
  };
}

interface CacheEntry {
  window: StoredWindow;
  /** Epoch ms of the last load or write. */
  touchedAt: number;
}

/**
 * The in-process cache of conversation windows, per phone, in front of the `conversation_windows`
 * table (D9). It holds what this instance last loaded or wrote; MemoryService keeps it in step with
 * the store.
 */
export class ConversationWindow {
  private readonly entries = new Map<string, CacheEntry>();

  /** The cached window, or undefined when this phone is not cached. */
  get(phone: string): StoredWindow | undefined {
    return this.entries.get(phone)?.window;
  }

  has(phone: string): boolean {
    return this.entries.has(phone);
  }

  /** Caches `window` for the phone, touched at `now`. */
  set(phone: string, window: StoredWindow, now: number): void {
    this.entries.set(phone, { window, touchedAt: now });
  }

  delete(phone: string): void {
    this.entries.delete(phone);
  }

  /** Evicts the entries not loaded or written for 12 hours, but those `keep` names; returns how many went. */
  evictIdle(now: number, keep: (phone: string) => boolean = () => false): number {
    let evicted = 0;
    for (const [phone, entry] of this.entries) {
      if (now - entry.touchedAt > CONVERSATION_MAX_AGE_MS && !keep(phone)) {
        this.entries.delete(phone);
        evicted++;
      }
    }
    return evicted;
  }

  /** Phones cached. */
  get size(): number {
    return this.entries.size;
  }
}
