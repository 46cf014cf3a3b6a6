import type { DocumentContext, DocumentOffer } from "./document.js";
import type { CapabilityName } from "./plan.js";

/** How a turn was started (spec 003). */
export type TriggerType = "user" | "cron" | "nudge" | "event";

/** What the vision model found in an image (spec 003). */
export interface ImageAnalysisResult {
  description: string;
  extractedData?: {
    tasks?: string[];
    events?: { title: string; date?: string; time?: string }[];
    items?: string[];
  };
  extractedText?: string;
}

/** An analysed image, kept with the message that carried it. */
export interface ImageContext {
  imageId: string;
  analysisResult: ImageAnalysisResult;
  imageType: "structured" | "random";
  /** Epoch milliseconds. */
  extractedAt: number;
}

export type EntityType = "calendar_event" | "task" | "list" | "email" | "contact" | "note" | "memory";

/** One choice offered to the user when several entities match. */
export interface DisambiguationCandidate {
  id: string;
  displayText: string;
  [key: string]: unknown;
}

/**
 * What a disambiguation offered (spec 003): kept in the window's snapshot for follow-ups (see
 * DisambiguationSnapshot) and on the message that carried the choice list, so a reply quoting it
 * is recognised.
 */
export interface DisambiguationContext {
  type: EntityType;
  query: string;
  candidates: DisambiguationCandidate[];
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds: 5 minutes after the question ended (see MemoryService). */
  expiresAt: number;
  /** The question's hitlId, when it came from one. */
  hitlId?: string;
}

export interface RecentTaskSnapshot {
  id: string;
  text: string;
  completed: boolean;
  dueDate?: string;
}

/** What a reply showed as a numbered list, so the next message can say "done 2" (ids in display order). */
export interface NumberedRefs {
  type: "task" | "list" | "list_item" | "note" | "memory";
  ids: string[];
  /** The list the items belong to (list_item). */
  listId?: string;
}

export interface MessageMetadata {
  numbered?: NumberedRefs;
  /** A "what do you remember" / "forget…" exchange: kept in the window, never in long-term history. */
  memoryCommand?: boolean;
  /** WhatsApp marked the user's message forwarded: someone else's words, kept out of long-term history (D14). */
  forwarded?: boolean;
  disambiguationContext?: DisambiguationContext;
  recentTasks?: RecentTaskSnapshot[];
  imageContext?: ImageContext;
  /** A document the user sent (or a forwarded text they saved), stored as a note: data, never orders (D14). */
  documentContext?: DocumentContext;
  /** Memo's numbered offer of what a document proposes, answered by number, "all" or "none". */
  documentOffer?: DocumentOffer;
  functionResult?: unknown;
  /**
   * What Memo added to a user message's words when it read them (reply_context: the message it
   * replies to, the list item it names, the analysis of the image sent with it), one note each.
   * Shown to models marked as added, never read as something the user said (D14); `content`
   * stays the user's own words.
   */
  addedContext?: string[];
}

/** One message of the short-term conversation window (spec 003; timestamps are epoch ms). */
export interface ConversationMessage {
  role: "user" | "assistant" | "system";
  content: string;
  /** Epoch milliseconds. */
  timestamp: number;
  whatsappMessageId?: string;
  /**
   * Memo's own id of an assistant message stored before it was sent (MemoryService assigns it);
   * the sender replaces it with `whatsappMessageId` once WhatsApp has accepted the message.
   */
  localId?: string;
  replyToMessageId?: string;
  /** (content + added context).length / 3.5, rounded up (spec 000 §4.3). */
  estimatedTokens: number;
  metadata?: MessageMetadata;
}

/** A successful operation, remembered so "it" / "that" / "זה" can refer to it (spec 001). */
export interface LatestAction {
  /** Epoch milliseconds. */
  createdAt: number;
  capability: CapabilityName;
  action: string;
  /** Short human summary, e.g. `task "call mom"`. */
  summary: string;
  /** When the entity is due or happens, ISO, if it has a time. */
  when?: string;
  /** Ids of the entities the action touched. */
  externalIds?: string[];
}
