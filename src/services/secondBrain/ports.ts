/**
 * What the second-brain capability (resolver, entity resolver, executor) needs from storage: the
 * user's notes and their remembered facts. Narrow on purpose; the services behind them live in
 * SecondBrainService (notes) and LongTermMemory (facts, summary, forgetting).
 */

/** One note of the user. */
export interface StoredNote {
  id: string;
  content: string;
  category: string | null;
  tags: string[];
  /** ISO instants. */
  createdAt: string;
  updatedAt: string;
  /** The document the note belongs to: its head note, or one of its chunks (with its page). */
  document?: {
    id: string;
    headNoteId: string | null;
    title: string;
    page: number | null;
    chunk: boolean;
  };
}

/** A stored document as listings show it. */
interface ListedDocument {
  id: string;
  /** Its head note: what a listing numbers and "forget document 2" deletes. */
  noteId: string | null;
  title: string;
  source: string;
  pageCount: number;
  /** ISO instant. */
  createdAt: string;
}

/** The user's documents (PDF, Word, text files kept as notes). */
export interface DocumentsPort {
  /** Newest first. */
  list(phone: string, page: { limit: number }): Promise<{ documents: ListedDocument[]; total: number }>;
}

/** A note found by a search, best first. */
export interface NoteMatch {
  note: StoredNote;
  /** Higher is better; only comparable within one search. */
  score: number;
}

export interface NotesPort {
  /** Stores a note; the same `operationId` twice stores it once (a re-run turn). */
  store(
    phone: string,
    input: {
      content: string;
      category?: string;
      tags?: string[];
      sourceMessageId?: number;
      operationId: string;
    },
  ): Promise<StoredNote>;
  getMany(phone: string, ids: readonly string[]): Promise<StoredNote[]>;
  /** Newest first. */
  list(
    phone: string,
    page: { limit: number; offset?: number },
  ): Promise<{ notes: StoredNote[]; total: number }>;
  update(phone: string, id: string, patch: { content: string }): Promise<StoredNote | null>;
  /** The notes deleted (ids of other users' notes, or already deleted ones, are skipped). */
  delete(phone: string, ids: readonly string[]): Promise<StoredNote[]>;
  search(phone: string, query: string, options: { limit: number }): Promise<NoteMatch[]>;
}

/** One remembered fact (004 long-term memory). */
export interface RememberedFact {
  id: string;
  type: string;
  content: string;
  /** "archived": faded by consolidation (old, rarely relevant), still kept and erasable. */
  status?: string;
  /** Epoch ms it became true, how finely that was said, and when it stopped (null: it holds). */
  validFrom: number;
  precision: "instant" | "day" | "week" | "month" | "year";
  validUntil: number | null;
}

/** What a question about the past found (spec 004 retrieval, getValidAt when it names a period). */
export interface Recollection {
  /** The period the question named ("in March"), read in code; null when it named none. */
  period: { from: number; to: number; precision: "day" | "week" | "month" | "year" } | null;
  /** The facts that answer it, best first (those of the period when it named one). */
  facts: RememberedFact[];
  /** The episodes that answer it (what was decided, solved, done), best first. */
  episodes: { kind: string; title: string; outcome: string | null; occurredAt: number }[];
  /** The summaries of earlier conversation that answer it, best first. */
  chunks: { summary: string; startedAt: number; endedAt: number }[];
}

export interface MemoryPort {
  /**
   * Every fact kept that holds now, active first (archived ones too: the user sees everything
   * Memo keeps); with `history`, also those that stopped being true, after them.
   */
  listFacts(phone: string, options?: { history?: boolean }): Promise<RememberedFact[]>;
  /** What Memo remembers that answers a question about the past ("where did I live in March?"). */
  recall(phone: string, question: string, timeZone: string): Promise<Recollection>;
  /** Facts the user's words name, best first, with a 0..1 score. */
  findFacts(phone: string, words: string): Promise<(RememberedFact & { score: number })[]>;
  /** Forgets facts, the notes of their messages and the messages; the summary is made again without them. */
  forget(phone: string, factIds: string[]): Promise<{ facts: string[]; notes: number }>;
  /** Erases facts, notes, summary and conversation history. */
  forgetEverything(phone: string): Promise<unknown>;
  /** How much "forget everything" would erase. */
  counts(phone: string): Promise<{ facts: number; notes: number; hasSummary: boolean }>;
  /** The conversation-history id of the user's message with this WhatsApp id (the newest user message without one). */
  sourceMessageId(phone: string, whatsappMessageId: string | undefined): Promise<number | undefined>;
}
