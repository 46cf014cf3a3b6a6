/**
 * Spec 004's retrieval (§"Retrieval System"): every candidate memory — a fact, an episode, a chunk
 * of earlier conversation — is scored by five strategies and ranked by their weighted mean,
 *
 *   relevanceScore = Σ(weight_i × score_i) / Σ(weight_i)
 *
 * with 004's `RetrievalWeights` (semantic 0.4, keyword 0.3, recency 0.2, importance 0.1, access 0)
 * as the default configuration. Semantic similarity is 004's TF-IDF over the candidates' words
 * (their stored `search_text`, Hebrew prefixes and plurals as extra forms), or the cosine of
 * embeddings when both the query and the item have one. People are relationships: a query word
 * that names a person counts as matched on every item linked to that person, directly or through
 * an entity fact that links two names ("my sister Dana"). No I/O here: the candidates are read by
 * the repositories (one statement in the turn's read).
 */
import type { RetrievalWeights } from "../../types/retrieval.js";
import { queryWordsOf, type QueryWord } from "../../utils/memoryText.js";
import { normalizeForMatch } from "../../utils/fuzzy.js";
import { wordForms } from "../../utils/searchText.js";

/** What kind of memory an item is. */
type MemoryItemKind = "fact" | "episode" | "chunk";

/** One candidate memory, whatever its kind, as retrieval scores it. */
export interface MemoryItem {
  kind: MemoryItemKind;
  id: string;
  /** What it says (shown and matched). */
  text: string;
  /** Its stored search text (`noteSearchText`): its words with their other forms. */
  searchText: string;
  /** 0..1: a fact's importance, an episode's significance, 0.5 for a chunk. */
  importance: number;
  accessCount: number;
  /** Epoch ms. */
  lastAccessedAt: number;
  /** Epoch ms the item speaks of: when a fact became true, an episode happened, a chunk began. */
  at: number;
  /** Epoch ms it stopped being true (facts) or ended (chunks); null or absent while open. */
  until?: number | null;
  /** A fact whose start nobody said: once ended, it counts as true before its end (see `inPeriod`). */
  startUnknown?: boolean;
  /** People it speaks of, folded ("dana", "sister", "אחות"). */
  people?: readonly string[];
  /** An entity fact linking these people to each other ("User's sister is Dana"). */
  links?: boolean;
  /** Its embedding, when one was computed with the query's model. */
  embedding?: readonly number[] | null;
}

export type { RetrievalWeights };

/** Spec 004's defaults. */
export const DEFAULT_RETRIEVAL_WEIGHTS: Readonly<RetrievalWeights> = Object.freeze({
  semantic: 0.4,
  keyword: 0.3,
  recency: 0.2,
  importance: 0.1,
  access: 0,
});

export interface RetrievalQuery {
  text: string;
  /** Epoch ms: recency is measured from it. */
  now: number;
  weights?: Readonly<RetrievalWeights>;
  /** Only memories of this period: facts true at some time in it, episodes and chunks inside it. */
  during?: { from: number; to: number } | null;
  /** The query's embedding, when an embedding model is configured. */
  embedding?: readonly number[] | null;
  /** Cosine similarity at or under which embeddings count as unrelated (the model's scale; default: 0). */
  minSimilarity?: number;
}

/** The five strategies' scores, each 0..1. */
interface StrategyScores {
  semantic: number;
  keyword: number;
  recency: number;
  importance: number;
  access: number;
}

export interface RankedMemory {
  item: MemoryItem;
  /** The weighted mean of `scores`. */
  score: number;
  /** 0..1: how much the item speaks of the query (the better of semantic and keyword). */
  relevance: number;
  scores: StrategyScores;
}

const DAY_MS = 86_400_000;
/** How long before its end a fact whose start nobody said counts as holding (as `validDuring` reads it). */
const YEAR_MS = 365 * DAY_MS;
/** Recency halves every 30 days (spec 004's half-life). */
const RECENCY_HALF_LIFE_DAYS = 30;
/** Matched query words at which the keyword score is full: one shared word of two is half. */
const FULL_KEYWORD_WORDS = 2;
/** Accesses at which the access score is full. */
const FULL_ACCESS = 10;

/**
 * Whether an item belongs to a period: a fact true at some time in it (one whose start nobody said
 * and that has ended was true for the year before its end), anything else inside it.
 */
function inPeriod(item: MemoryItem, during: { from: number; to: number }): boolean {
  const end = item.until ?? null;
  if (item.kind === "fact")
    return (
      (item.at < during.to || (item.startUnknown === true && end !== null && end - YEAR_MS < during.to)) &&
      (end === null || end > during.from)
    );
  return item.at < during.to && (end ?? item.at) >= during.from;
}

/** The forms of a query word as a person's name may be said: "לדנה" → "דנה" too. */
const personForms = wordForms;

/**
 * The people each query word may name, widened by the entity facts among the items: "Dana" also
 * names "sister" once "User's sister is Dana" is a candidate, and the other way round.
 */
function linkedPeople(words: readonly QueryWord[], items: readonly MemoryItem[]): Set<string> {
  const known = new Set(items.flatMap((i) => i.people ?? []));
  const named = new Set<string>();
  for (const { word } of words) for (const form of personForms(word)) if (known.has(form)) named.add(form);
  if (named.size === 0) return named;
  // The closure over linking facts: a few rounds are enough for "sister" ↔ "Dana" ↔ "Dana Levi".
  for (let round = 0; round < 3; round++) {
    let grew = false;
    for (const item of items) {
      if (!item.links || !item.people?.some((p) => named.has(p))) continue;
      for (const p of item.people) {
        if (named.has(p)) continue;
        named.add(p);
        grew = true;
      }
    }
    if (!grew) break;
  }
  return named;
}

/** The terms of a search text with their counts. */
function termCounts(searchText: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of searchText.split(" ")) if (term !== "") counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : Math.max(0, dot / Math.sqrt(na * nb));
}

/**
 * Spec 004's TF-IDF similarity of the query to each item: tf = count / the item's largest count,
 * idf = log(N / df) over the candidates (smoothed, so a word every candidate holds still counts a
 * little), compared by cosine. A query word counts once, by the best of its forms.
 */
function tfidfScores(words: readonly QueryWord[], items: readonly MemoryItem[]): number[] {
  const docs = items.map((i) => termCounts(i.searchText));
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of doc.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const n = docs.length;
  const idf = (term: string) => Math.log(1 + n / (df.get(term) ?? n + 1));
  return docs.map((doc) => {
    if (doc.size === 0 || words.length === 0) return 0;
    const max = Math.max(...doc.values());
    let dot = 0;
    let queryNorm = 0;
    for (const { forms } of words) {
      const best = forms.reduce((b, f) => Math.max(b, doc.has(f) ? idf(f) : 0), 0);
      const weight = Math.max(...forms.map(idf));
      queryNorm += weight * weight;
      if (best > 0) {
        const form = forms.find((f) => doc.has(f) && idf(f) === best)!;
        dot += (doc.get(form)! / max) * best * weight;
      }
    }
    let docNorm = 0;
    for (const [term, c] of doc) docNorm += ((c / max) * idf(term)) ** 2;
    return queryNorm === 0 || docNorm === 0 ? 0 : Math.min(1, dot / Math.sqrt(queryNorm * docNorm));
  });
}

/**
 * The items ranked for the query, best first: those outside `during` (when given) left out, each
 * scored by the five strategies and their weighted mean. `minRelevance` keeps only items that
 * speak of the query at least that much (0, the default, keeps all: a strong preference may be
 * worth showing whatever the message says).
 */
export function rankMemories(
  query: RetrievalQuery,
  items: readonly MemoryItem[],
  options: { limit?: number; minRelevance?: number } = {},
): RankedMemory[] {
  const weights = query.weights ?? DEFAULT_RETRIEVAL_WEIGHTS;
  const total = weights.semantic + weights.keyword + weights.recency + weights.importance + weights.access;
  const pool = query.during ? items.filter((i) => inPeriod(i, query.during!)) : [...items];
  const words = queryWordsOf(query.text);
  const people = linkedPeople(words, pool);
  const semantic = tfidfScores(words, pool);
  const ranked = pool.map((item, index) => {
    const held = new Set(item.searchText.split(" "));
    const itemPeople = new Set(item.people ?? []);
    const linked = [...itemPeople].some((p) => people.has(p));
    let matched = 0;
    for (const { word, forms } of words) {
      if (forms.some((f) => held.has(f))) matched++;
      else if (linked && personForms(word).some((f) => people.has(f))) matched++;
    }
    const keyword = Math.min(1, matched / FULL_KEYWORD_WORDS);
    // By embeddings when both have one (rescaled above the model's noise floor), else TF-IDF.
    const floor = query.minSimilarity ?? 0;
    const byMeaning =
      query.embedding && item.embedding
        ? Math.max(0, (cosine(query.embedding, item.embedding) - floor) / (1 - floor))
        : semantic[index]!;
    // A person linked to the item, not named in it, makes it as relevant as naming them.
    const semanticScore = linked ? Math.max(byMeaning, 0.5) : byMeaning;
    const days = Math.max(0, query.now - Math.max(item.at, item.lastAccessedAt)) / DAY_MS;
    const scores: StrategyScores = {
      semantic: semanticScore,
      keyword,
      recency: Math.pow(0.5, days / RECENCY_HALF_LIFE_DAYS),
      importance: Math.min(1, Math.max(0, item.importance)),
      access: Math.min(1, item.accessCount / FULL_ACCESS),
    };
    const score =
      total <= 0
        ? 0
        : (weights.semantic * scores.semantic +
            weights.keyword * scores.keyword +
            weights.recency * scores.recency +
            weights.importance * scores.importance +
            weights.access * scores.access) /
          total;
    return { item, score, relevance: Math.max(scores.semantic, scores.keyword), scores };
  });
  const minRelevance = options.minRelevance ?? 0;
  return (
    ranked
      .filter((r) => r.relevance >= minRelevance && (minRelevance === 0 || r.relevance > 0))
      // Ties: the newer first, then by id, so a ranking never depends on the order rows were read in.
      .sort(
        (a, b) =>
          b.score - a.score ||
          b.item.at - a.item.at ||
          (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0),
      )
      .slice(0, options.limit ?? ranked.length)
  );
}

/** A person's name or relation as stored in `people`: normalized as query words are, possessive taken off. */
export function personKey(name: string): string {
  return normalizeForMatch(name.trim().replace(/['’]s$/u, ""));
}
