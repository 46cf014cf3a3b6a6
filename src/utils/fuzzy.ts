/**
 * Which stored task or list a user's loose words mean ("the dentist thing", "shoping list",
 * "להתקשר לאמא"). Pure functions, no I/O: callers pass the candidates and how to read their text.
 */

/** Score at or above which an item is a plausible match (default: 0.55). */
export const DEFAULT_THRESHOLD = 0.55;
/** How far below the best an item may score and still be asked about (default: 0.15). */
const DEFAULT_MARGIN = 0.15;
/** Below this an item is not even worth naming in a "not found" reply. */
const CLOSEST_FLOOR = 0.15;
/** How many near names a "not found" reply offers. */
const CLOSEST_LIMIT = 3;

/*
 * Why these numbers (the scores quoted are from the cases in tests/resolution/fuzzyMatch.test.ts):
 * - Threshold. A query word found in a name of two to six words scores 0.67–0.82 ("mom" on
 *   "Call mom" 0.79, "אמא" on "להתקשר לאמא" through the stripped ל 0.67). Half of a two-word query
 *   found scores about 0.5 ("shopping list" on "Packing list" 0.51, "the dentist thing" on "Dentist
 *   appointment" 0.48), and words alone cannot tell a filler ("thing") from a real difference
 *   ("shopping"); acting on the packing list when the user meant one that does not exist is worse
 *   than asking, so 0.55 leaves those out, and they come back as `closest` instead. Names sharing no
 *   word with the query live on trigrams alone, under 0.2.
 * - Margin. Names that both contain what the user said differ only by how much else they say:
 *   "call" 0.81 vs 0.77, "dentist" 0.79 vs 0.74, "קניות" 0.81 vs 0.81; the user has not said which,
 *   so those are asked about. A typo-corrected or fully named item leads by 0.2 or more ("shoping
 *   list" 0.93 vs 0.52, "רשימת קניות" 0.65 vs 0.43). 0.15 sits between the two groups.
 */

/** Token weights: how much of the query a name covers matters more than how much of the name is said. */
const QUERY_COVERAGE_WEIGHT = 0.7;
const NAME_COVERAGE_WEIGHT = 0.3;
/** Word overlap carries identity; trigrams only refine it (typos inside words, ties between lengths). */
const TOKEN_WEIGHT = 0.8;
const TRIGRAM_WEIGHT = 0.2;
/** A word with its Hebrew prefix stripped ("לאמא" for "אמא") is slightly less sure than the word itself. */
const PREFIX_MATCH_WEIGHT = 0.9;

const FINAL_LETTERS: Record<string, string> = { ך: "כ", ם: "מ", ן: "נ", ף: "פ", ץ: "צ" };
/** Normalized like the words they are compared with ("עם" is "עמ" by then). */
const STOP_WORDS = new Set(
  [
    ...["the", "a", "an", "my", "to", "of", "for", "and", "with", "on", "at", "in"],
    ...["את", "של", "עם", "על", "ה", "ל"],
    // Words people add when naming a task or reminder ("the dentist thing", "המשימה של הבנק").
    ...["thing", "task", "reminder", "one", "item", "משימה", "המשימה", "תזכורת", "התזכורת", "הדבר"],
  ].map(normalizeForMatch),
);
/** One-letter Hebrew prefixes: and, the, in, to, from, that, as. */
export const HEBREW_PREFIXES = new Set(["ו", "ה", "ב", "ל", "מ", "ש", "כ"]);

/** Lower case; Hebrew niqqud and cantillation (U+0591–U+05C7) removed; final letters ך ם ן ף ץ → כ מ נ פ צ; Latin diacritics removed (NFKD); geresh/gershayim, quotes, maqaf, hyphens and all punctuation → space; whitespace collapsed, trimmed. */
export function normalizeForMatch(text: string): string {
  return (
    text
      .toLowerCase()
      // NFKD splits "é" into "e" + accent, and Hebrew presentation forms (U+FB1D–U+FB4F)
      // into letter + points.
      .normalize("NFKD")
      // Niqqud, cantillation and Latin accents are all combining marks. Maqaf, paseq and sof pasuq,
      // though inside U+0591–U+05C7, are punctuation and fall to the next step as word breaks.
      .replace(/\p{M}/gu, "")
      // Zero-width characters and direction marks are no word break: "mi\u200Blk" is "milk".
      .replace(/\p{Cf}/gu, "")
      .replace(/[ךםןףץ]/g, (letter) => FINAL_LETTERS[letter] ?? letter)
      // Anything that is not a letter or digit separates words: quotes, geresh, hyphens, emoji.
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim()
  );
}

/** Sentence punctuation, quotes, dashes and brackets: how a name is said, not which name it is. */
const SENTENCE_MARKS = /[.,!?;:…'"‘’“”׳״()[\]{}\-‐-―־]/gu;

/**
 * A name as written, apart from case, spacing, invisible characters and sentence punctuation: the
 * symbols normalization drops still count. "100_%" and "100" normalize alike, and "%" or "_" to
 * nothing, but each is its own name; "call MOM." is still "Call mom".
 */
export function literalOf(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\p{Cf}/gu, "")
    .replace(SENTENCE_MARKS, " ")
    .replace(/\s+/gu, " ")
    .trim();
}

/** The normalized words, without stop words that carry no identity (the, my, את, של…) and naming fillers (thing, task, reminder, משימה, תזכורת…). @internal */
export function matchTokens(text: string): string[] {
  return wordsOf(normalizeForMatch(text));
}

function wordsOf(normalized: string): string[] {
  if (normalized === "") return [];
  return normalized.split(" ").filter((word) => !STOP_WORDS.has(word));
}

/** 0..1: how well `query` names `candidate`. Combines token overlap (a query token matches a candidate token when equal, when one is the other with one Hebrew prefix letter ו ה ב ל מ ש כ stripped, or when they are within a small edit distance for words of 5+ letters) with character-trigram similarity of the whole normalized strings. An exact normalized match is 1. */
export function similarity(query: string, candidate: string): number {
  return createScorer(query)(candidate).score;
}

export interface Match<T> {
  item: T;
  score: number;
}

/** Items scored against the query, best first; ties keep input order. */
export function rankMatches<T>(query: string, items: readonly T[], textOf: (item: T) => string): Match<T>[] {
  return rankScored(query, items, textOf).map(({ item, score }) => ({ item, score }));
}

export type MatchDecision<T> =
  | { kind: "one"; match: Match<T> }
  /** Best first, all plausible ones. */
  | { kind: "several"; matches: Match<T>[] }
  /** Up to 3 nearest names (may be empty), best first, for a helpful "not found". */
  | { kind: "none"; closest: Match<T>[] };

export interface MatchOptions {
  /** Score at or above which an item is a plausible match (default: 0.55). */
  threshold?: number;
  /** How far below the best an item may score and still be asked about (default: 0.15). */
  margin?: number;
}

/** The decision for a query: one clear match, several plausible ones to ask about, or none. */
export function decideMatch<T>(
  query: string,
  items: readonly T[],
  textOf: (item: T) => string,
  options: MatchOptions = {},
): MatchDecision<T> {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const margin = options.margin ?? DEFAULT_MARGIN;
  if (literalOf(query) === "") return { kind: "none", closest: [] };

  const ranked = rankScored(query, items, textOf);
  // The user typed a name exactly: that item is meant, however many others contain the same words.
  // Several items with that same name are a real ambiguity, and only they are candidates. Written
  // the same way ("100_%") comes before said the same way ("100").
  const literal = ranked.filter((scored) => scored.literal).map(toMatch);
  if (literal.length === 1) return { kind: "one", match: literal[0]! };
  if (literal.length > 1) return { kind: "several", matches: literal };
  const exact = ranked.filter((scored) => scored.exact).map(toMatch);
  if (exact.length === 1) return { kind: "one", match: exact[0]! };
  if (exact.length > 1) return { kind: "several", matches: exact };

  const best = ranked[0];
  if (best === undefined || best.score < threshold) {
    const closest = ranked.filter((scored) => scored.score >= CLOSEST_FLOOR).slice(0, CLOSEST_LIMIT);
    return { kind: "none", closest: closest.map(toMatch) };
  }
  const plausible = ranked.filter(
    (scored) => scored.score >= threshold && best.score - scored.score <= margin,
  );
  if (plausible.length === 1) return { kind: "one", match: toMatch(best) };
  return { kind: "several", matches: plausible.map(toMatch) };
}

interface Scored<T> extends Match<T> {
  /** The item's normalized text equals the query's. */
  exact: boolean;
  /** The item's text is the query's as written (case, spacing and invisible characters aside). */
  literal: boolean;
}

function toMatch<T>({ item, score }: Scored<T>): Match<T> {
  return { item, score };
}

function rankScored<T>(query: string, items: readonly T[], textOf: (item: T) => string): Scored<T>[] {
  const score = createScorer(query);
  const scored = items.map((item) => ({ item, ...score(textOf(item)) }));
  // Array.prototype.sort is stable, so equal scores keep input order.
  return scored.sort((a, b) => b.score - a.score);
}

/**
 * Prepares the query once (normalization, words, trigrams) and returns a function scoring one
 * candidate text.
 */
function createScorer(
  query: string,
): (candidate: string) => { score: number; exact: boolean; literal: boolean } {
  const normalizedQuery = normalizeForMatch(query);
  const literalQuery = literalOf(query);
  const queryWords = wordsOf(normalizedQuery);
  const queryTrigrams = trigramsOf(normalizedQuery);
  // A user's names repeat words ("call", "list", "לקנות"): each distinct word is weighed against
  // the query's words once per scorer, not once per name it appears in.
  const weightsByWord = new Map<string, readonly number[]>();
  const weightsOf = (candidateWord: string): readonly number[] => {
    let weights = weightsByWord.get(candidateWord);
    if (weights === undefined) {
      weights = queryWords.map((queryWord) => wordMatchWeight(queryWord, candidateWord));
      weightsByWord.set(candidateWord, weights);
    }
    return weights;
  };

  return (candidate) => {
    const normalizedCandidate = normalizeForMatch(candidate);
    if (normalizedQuery === normalizedCandidate) {
      // Only names said alike can be written alike; a name of symbols alone ("%") matches itself only.
      const literal = literalQuery !== "" && literalOf(candidate) === literalQuery;
      if (normalizedQuery === "") return { score: literal ? 1 : 0, exact: literal, literal };
      return { score: 1, exact: true, literal };
    }
    if (normalizedQuery === "" || normalizedCandidate === "")
      return { score: 0, exact: false, literal: false };
    const tokens = tokenOverlap(queryWords.length, wordsOf(normalizedCandidate), weightsOf);
    const trigrams = trigramDice(queryTrigrams, normalizedQuery.length, normalizedCandidate);
    // Capped below 1 so that only an exact name scores 1.
    return {
      score: Math.min(0.99, TOKEN_WEIGHT * tokens + TRIGRAM_WEIGHT * trigrams),
      exact: false,
      literal: false,
    };
  };
}

/**
 * 0..1 word overlap: each query word is paired with at most one candidate word, strongest pairs
 * first, so "list list" does not count one "list" twice. Mostly how much of the query the name
 * covers, partly how much of the name the query covers (so "mom" prefers "Call mom" over a long
 * name that also mentions mom).
 */
function tokenOverlap(
  queryWordCount: number,
  candidateWords: readonly string[],
  weightsOf: (candidateWord: string) => readonly number[],
): number {
  if (queryWordCount === 0 || candidateWords.length === 0) return 0;
  const pairs: { q: number; c: number; weight: number }[] = [];
  for (let c = 0; c < candidateWords.length; c++) {
    const weights = weightsOf(candidateWords[c]!);
    for (let q = 0; q < queryWordCount; q++) {
      const weight = weights[q]!;
      if (weight > 0) pairs.push({ q, c, weight });
    }
  }
  if (pairs.length === 0) return 0;
  pairs.sort((a, b) => b.weight - a.weight);
  const usedQuery = new Set<number>();
  const usedCandidate = new Set<number>();
  let matched = 0;
  for (const { q, c, weight } of pairs) {
    if (usedQuery.has(q) || usedCandidate.has(c)) continue;
    usedQuery.add(q);
    usedCandidate.add(c);
    matched += weight;
  }
  return (
    QUERY_COVERAGE_WEIGHT * (matched / queryWordCount) +
    NAME_COVERAGE_WEIGHT * (matched / candidateWords.length)
  );
}

/** A word without a plural ending: Hebrew ים / ות (normalized "ימ"), English s / es. */
export function singular(word: string): string {
  if (/^[\u05d0-\u05ea]{4,}$/.test(word)) return word.replace(/(ימ|ות)$/, "");
  if (/^[a-z]{4,}$/.test(word)) return word.replace(/(?<=[sxz]|ch|sh)es$|s$/, "");
  return word;
}

/** 0..1: equal words 1, a Hebrew prefix or plural ending apart 0.9, a typo apart 1 − edits/length, otherwise 0. */
function wordMatchWeight(a: string, b: string): number {
  if (a === b) return 1;
  // "מלפפון" and "מלפפונים", "egg" and "eggs".
  if (singular(a) === singular(b)) return PREFIX_MATCH_WEIGHT;
  if (isPrefixed(a, b) || isPrefixed(b, a)) return PREFIX_MATCH_WEIGHT;
  // Both prefixed, differently: "הבנק" and "לבנק" are both "בנק".
  if (
    a.length === b.length &&
    a.length >= 3 &&
    a.slice(1) === b.slice(1) &&
    HEBREW_PREFIXES.has(a[0]!) &&
    HEBREW_PREFIXES.has(b[0]!)
  )
    return PREFIX_MATCH_WEIGHT;
  const shorter = Math.min(a.length, b.length);
  // Short words are too close to each other for typo tolerance ("call"/"mall", "אמא"/"אבא").
  const allowed = shorter >= 8 ? 2 : shorter >= 5 ? 1 : 0;
  if (allowed === 0) return 0;
  const distance = boundedEditDistance(a, b, allowed);
  return distance <= allowed ? 1 - distance / Math.max(a.length, b.length) : 0;
}

/** `longer` is `word` with one Hebrew prefix letter in front ("לאמא", "אמא"); the rest keeps 2+ letters. */
function isPrefixed(longer: string, word: string): boolean {
  return (
    word.length >= 2 &&
    longer.length === word.length + 1 &&
    HEBREW_PREFIXES.has(longer[0]!) &&
    longer.endsWith(word)
  );
}

/**
 * Edit distance counting a swap of neighbours as one edit ("teh"), or `limit + 1` as soon as it is
 * known to exceed `limit`: ranking compares many word pairs and almost all are far apart.
 */
function boundedEditDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, beforePrevious[j - 2]! + 1);
      }
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Character trigrams of the text padded with a space, so word edges count ("ca" starting "call"),
 * with how often each occurs. A trigram is keyed by its three UTF-16 codes packed into one number
 * (48 bits, exact in a double): ranking thousands of names would otherwise make a string per trigram.
 */
function trigramsOf(normalized: string): Map<number, number> {
  const padded = ` ${normalized} `;
  const trigrams = new Map<number, number>();
  for (let i = 0; i + 3 <= padded.length; i++) {
    const key = trigramKey(padded, i);
    trigrams.set(key, (trigrams.get(key) ?? 0) + 1);
  }
  return trigrams;
}

function trigramKey(text: string, at: number): number {
  return (text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1)) * 0x10000 + text.charCodeAt(at + 2);
}

/**
 * Dice coefficient of the query's trigrams and the candidate's, counting repeats:
 * 2·shared / (query trigrams + candidate trigrams); a padded text of n + 2 characters has n
 * trigrams. Only trigrams the query has are tallied, so a candidate costs lookups, not a collection.
 */
function trigramDice(query: ReadonlyMap<number, number>, querySize: number, candidate: string): number {
  if (querySize === 0 || candidate.length === 0) return 0;
  const padded = ` ${candidate} `;
  let taken: Map<number, number> | undefined;
  let shared = 0;
  for (let i = 0; i + 3 <= padded.length; i++) {
    const key = trigramKey(padded, i);
    const available = query.get(key);
    if (available === undefined) continue;
    taken ??= new Map();
    const used = taken.get(key) ?? 0;
    if (used < available) {
      taken.set(key, used + 1);
      shared++;
    }
  }
  return (2 * shared) / (querySize + candidate.length);
}
