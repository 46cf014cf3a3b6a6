import type {
  NewNote,
  Note,
  NotePatch,
  NoteRepository,
  RankedNote,
} from "../../db/repositories/noteRepository.js";
import { MemoError, describeError } from "../../utils/errors.js";
import type { Logger } from "../../utils/logger.js";
import { phoneTag } from "../../utils/phone.js";
import { EmbeddingBackfill } from "./embeddingBackfill.js";
import { DEFAULT_MIN_SIMILARITY, checkEmbeddings, type Embedder } from "./embeddings.js";
import { queryTerms } from "../../utils/searchText.js";

/** Longest note, in characters (the notes table's check). */
const MAX_NOTE_LENGTH = 4000;
/** Longest category, in characters (the notes table's check). */
const MAX_CATEGORY_LENGTH = 100;
/** Tags kept per note, and characters per tag. */
const MAX_TAGS = 20;
const MAX_TAG_LENGTH = 50;

/** The search list a note was found in. */
export type MatchSource = "text" | "trigram" | "vector";

/**
 * How much each list counts in the fusion (spec 004's retrieval weights): semantic 0.4 and
 * keyword 0.3 as in 004. Trigrams are the fuzzy half of keyword matching (typos, word endings), so
 * they get half the keyword weight: a note found by both word lists still outranks one found by
 * its misspelling alone, and a typo-only match still outranks nothing.
 */
const SEARCH_WEIGHTS: Readonly<Record<MatchSource, number>> = {
  vector: 0.4,
  text: 0.3,
  trigram: 0.15,
};
/** Recency and importance, 004's 0.2 and 0.1: they only order notes whose fused scores tie. */
const TIE_BREAK_WEIGHTS = { recency: 0.2, importance: 0.1 };
/** Reciprocal rank fusion's k: a list's n-th item adds weight / (k + n). */
const RRF_K = 60;
/** Days for a note's recency to halve (004's decay half-life). */
const RECENCY_HALF_LIFE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Shorter words are not matched fuzzily: one letter off makes another word ("car", "cat"). */
const MIN_FUZZY_WORD = 4;

/** One search result. */
export interface NoteSearchHit {
  note: Note;
  /** 0..1: the fused score over the best a note could get from the lists searched. */
  score: number;
  /** The lists the note was found in, in the order text, trigram, vector. */
  matchedBy: MatchSource[];
}

export interface SecondBrainServiceOptions {
  notes: NoteRepository;
  /** The embedding model; null or absent: notes are searched by words only. */
  embedder?: Embedder | null;
  /** The background embedding job (default: one made from `notes`, `embedder` and `logger`). */
  backfill?: EmbeddingBackfill;
  logger: Logger;
  /** Epoch milliseconds now, for recency (default: Date.now). */
  clock?: () => number;
  /** Milliseconds a query's embedding may take before the search goes on by words (default: 3,000). */
  queryEmbeddingTimeoutMs?: number;
  /** Candidates taken from each list (default: 30). */
  candidates?: number;
  /** pg_trgm word similarity a misspelled query word needs to count (default: 0.5). */
  minWordSimilarity?: number;
}

/** A note's content, category or tags are not acceptable (empty, too long). */
export class NoteValidationError extends MemoError {}

/** The query's embedding did not come in time. */
class QueryEmbeddingTimeout extends MemoError {}

/**
 * The second brain (spec 000 §2.6): the notes a user asked Memo to keep, and hybrid search over
 * them. Search fuses up to three ranked lists by reciprocal rank: full-text (the query's words in
 * any of their indexed forms, rarer words counting more), trigram (query words no note has as
 * such: misspelled, or inflected beyond the indexed forms) and, when an embedding model is
 * configured and the query could be embedded in time, vector similarity. Every list only holds
 * notes with a real match (a word, a similar word, a vector above the model's minimum
 * similarity), so a search never returns "the nearest of everything". Without embeddings it works
 * by words alone. Note and query text never reach the logs.
 */
export class SecondBrainService {
  /** The background embedding job: kick it at start-up, stop it at shutdown. */
  readonly backfill: EmbeddingBackfill;
  private readonly notes: NoteRepository;
  private readonly embedder: Embedder | null;
  private readonly logger: Logger;
  private readonly clock: () => number;
  private readonly queryEmbeddingTimeoutMs: number;
  private readonly candidates: number;
  private readonly minWordSimilarity: number;

  constructor(options: SecondBrainServiceOptions) {
    this.notes = options.notes;
    this.embedder = options.embedder ?? null;
    this.logger = options.logger;
    this.clock = options.clock ?? Date.now;
    this.queryEmbeddingTimeoutMs = options.queryEmbeddingTimeoutMs ?? 3_000;
    this.candidates = options.candidates ?? 30;
    this.minWordSimilarity = options.minWordSimilarity ?? 0.5;
    this.backfill =
      options.backfill ??
      new EmbeddingBackfill({ notes: options.notes, embedder: this.embedder, logger: options.logger });
  }

  /**
   * Stores a note (once per `operationId`) and has its embedding computed in the background.
   * Throws NoteValidationError for empty or too long content.
   */
  async store(phone: string, note: NewNote): Promise<Note> {
    const stored = await this.notes.create(phone, {
      ...note,
      content: cleanContent(note.content),
      category: cleanCategory(note.category),
      tags: cleanTags(note.tags),
      importance: clampImportance(note.importance),
    });
    if (stored.embeddingModel === null) this.backfill.kick();
    return stored;
  }

  get(phone: string, id: string): Promise<Note | null> {
    return this.notes.get(phone, id);
  }

  getMany(phone: string, ids: readonly string[]): Promise<Note[]> {
    return this.notes.getMany(phone, ids);
  }

  /** The user's notes, newest first (default: 20 from the first), and how many there are. */
  list(
    phone: string,
    options: { limit?: number; offset?: number; category?: string } = {},
  ): Promise<{ notes: Note[]; total: number }> {
    return this.notes.list(phone, options);
  }

  /** Changes a note; null when the user has none with this id. A changed text is embedded again. */
  async update(phone: string, id: string, patch: NotePatch): Promise<Note | null> {
    const updated = await this.notes.update(phone, id, {
      ...(patch.content !== undefined && { content: cleanContent(patch.content) }),
      ...(patch.category !== undefined && { category: cleanCategory(patch.category) }),
      ...(patch.tags !== undefined && { tags: cleanTags(patch.tags) }),
      ...(patch.importance !== undefined && { importance: clampImportance(patch.importance) }),
    });
    if (updated && updated.embeddingModel === null) this.backfill.kick();
    return updated;
  }

  /** Deletes the user's notes among `ids`; returns those deleted. */
  delete(phone: string, ids: readonly string[]): Promise<Note[]> {
    return this.notes.delete(phone, ids);
  }

  /** Deletes all the user's notes; returns how many. */
  deleteAll(phone: string): Promise<number> {
    return this.notes.deleteAll(phone);
  }

  /**
   * The user's notes that best match `query`, best first (default: at most 5). Empty when nothing
   * matches. A failing or slow embedding model makes it a search by words, never an error.
   */
  async search(phone: string, query: string, options: { limit?: number } = {}): Promise<NoteSearchHit[]> {
    const limit = Math.max(1, options.limit ?? 5);
    const terms = queryTerms(query);
    if (terms.words.length === 0) return [];
    const embedder = this.embedder;
    // The semantic list starts as soon as the query is embedded, beside the word lists.
    const semantic = this.embedQuery(phone, query).then((vector) =>
      vector && embedder
        ? this.notes.vectorCandidates(phone, vector, {
            model: embedder.model,
            limit: this.candidates,
            minSimilarity: embedder.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
          })
        : null,
    );
    const lexical = (async () => {
      const text = await this.notes.textCandidates(phone, terms.groups, this.candidates);
      // Fuzzy matching is for the words no note has as such: misspelled, or in a form the index
      // does not know. A word some note has is already matched exactly.
      const unknown = terms.words.filter((word, i) => !text.found[i] && word.length >= MIN_FUZZY_WORD);
      const trigram = await this.notes.trigramCandidates(phone, unknown, {
        limit: this.candidates,
        minSimilarity: this.minWordSimilarity,
      });
      return { text: text.notes, trigram };
    })();
    const [{ text, trigram }, vector] = await Promise.all([lexical, semantic]);
    // Without a query vector the semantic list is not searched at all (and not counted in `score`).
    const lists: Partial<Record<MatchSource, RankedNote[]>> = { text, trigram, ...(vector && { vector }) };
    return this.fuse(phone, lists, limit);
  }

  /** The query's embedding, or null (no model, failure, timeout: logged without the query). */
  private async embedQuery(phone: string, query: string): Promise<number[] | null> {
    const embedder = this.embedder;
    if (!embedder) return null;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new QueryEmbeddingTimeout(`no embedding within ${this.queryEmbeddingTimeoutMs} ms`)),
        this.queryEmbeddingTimeoutMs,
      );
    });
    try {
      const texts = [query.trim()];
      const vectors = checkEmbeddings(
        embedder.model,
        texts,
        await Promise.race([embedder.embed(texts), timeout]),
      );
      return vectors[0]!;
    } catch (error) {
      this.logger.warn(
        { user: phoneTag(phone), model: embedder.model, error: describeError(error) },
        "note search query not embedded; searching by words only",
      );
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Reciprocal rank fusion: a note gets weight / (RRF_K + rank) from each list it is in, where
   * notes of equal score in a list share their rank. Fused ties are ordered by 004's recency
   * (0.2) and importance (0.1), then newest first.
   */
  private async fuse(
    phone: string,
    lists: Partial<Record<MatchSource, RankedNote[]>>,
    limit: number,
  ): Promise<NoteSearchHit[]> {
    const fused = new Map<string, { score: number; matchedBy: MatchSource[] }>();
    let best = 0;
    for (const source of ["text", "trigram", "vector"] as const) {
      const list = lists[source];
      if (!list) continue;
      best += SEARCH_WEIGHTS[source] / (RRF_K + 1);
      for (const [id, rank] of sharedRanks(list)) {
        const entry = fused.get(id) ?? { score: 0, matchedBy: [] };
        entry.score += SEARCH_WEIGHTS[source] / (RRF_K + rank);
        entry.matchedBy.push(source);
        fused.set(id, entry);
      }
    }
    if (fused.size === 0) return [];
    const notes = await this.notes.getMany(phone, [...fused.keys()]);
    const now = this.clock();
    const tieBreak = (note: Note) => {
      const ageDays = Math.max(0, now - Date.parse(note.createdAt)) / DAY_MS;
      const recency = 0.5 ** (ageDays / RECENCY_HALF_LIFE_DAYS);
      return TIE_BREAK_WEIGHTS.recency * recency + TIE_BREAK_WEIGHTS.importance * note.importance;
    };
    return notes
      .map((note) => ({ note, ...fused.get(note.id)!, order: tieBreak(note) }))
      .sort(
        (a, b) =>
          b.score - a.score ||
          b.order - a.order ||
          b.note.createdAt.localeCompare(a.note.createdAt) ||
          a.note.id.localeCompare(b.note.id),
      )
      .slice(0, limit)
      .map(({ note, score, matchedBy }) => ({ note, score: Math.min(1, score / best), matchedBy }));
  }
}

/** Each id's rank in a best-first list, equal scores sharing the better rank (1, 2, 2, 4). */
function sharedRanks(list: readonly RankedNote[]): Map<string, number> {
  const ranks = new Map<string, number>();
  list.forEach((item, i) => {
    const previous = list[i - 1];
    const rank = previous && previous.score === item.score ? ranks.get(previous.id)! : i + 1;
    if (!ranks.has(item.id)) ranks.set(item.id, rank);
  });
  return ranks;
}

function cleanContent(content: string): string {
  const trimmed = content.trim();
  if (trimmed === "") throw new NoteValidationError("a note needs content", { capability: "notes" });
  if (trimmed.length > MAX_NOTE_LENGTH) {
    throw new NoteValidationError(`a note is at most ${MAX_NOTE_LENGTH} characters`, {
      capability: "notes",
      length: trimmed.length,
    });
  }
  return trimmed;
}

function cleanCategory(category: string | null | undefined): string | null {
  const trimmed = category?.trim() ?? "";
  return trimmed === "" ? null : trimmed.slice(0, MAX_CATEGORY_LENGTH);
}

/** Trimmed, non-empty, each once (ignoring case), at most MAX_TAGS of MAX_TAG_LENGTH characters. */
function cleanTags(tags: readonly string[] | undefined): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const tag of tags ?? []) {
    const trimmed = tag.trim().slice(0, MAX_TAG_LENGTH);
    const key = trimmed.toLowerCase();
    if (trimmed === "" || seen.has(key)) continue;
    seen.add(key);
    kept.push(trimmed);
    if (kept.length === MAX_TAGS) break;
  }
  return kept;
}

function clampImportance(importance: number | undefined): number | undefined {
  if (importance === undefined || !Number.isFinite(importance)) return undefined;
  return Math.min(1, Math.max(0, importance));
}
