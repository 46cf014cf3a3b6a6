/**
 * The words a note is found by. Notes are stored with `search_text`: their content, category and
 * tags normalized as fuzzy matching normalizes names (lower case, no niqqud, final letters folded,
 * punctuation as spaces), followed by the other forms of their words: Hebrew words without their
 * one-letter prefixes (ו ה ב ל מ ש כ) and words without their plural endings. The `simple`
 * text-search configuration then needs no dictionary, so Hebrew and English work alike, and a
 * query expanded the same way meets the note whichever form either side used ("בפגישה" finds
 * "פגישה" and the other way round, "recipe" finds "recipes").
 */
import { HEBREW_PREFIXES, normalizeForMatch, singular } from "./fuzzy.js";

/** Most query words used; the rest of a long query adds little and costs a scan each. */
const MAX_QUERY_WORDS = 8;

/**
 * Words that say what the user is asking, not what the note says: question words, pronouns,
 * "find", "note", "saved". Normalized like the words they are compared with (final letters folded).
 * Only queries drop them; a note's own text keeps every word.
 */
const QUERY_STOP_WORDS = new Set(
  [
    // English: articles, prepositions, pronouns, auxiliaries, question words, search verbs.
    ...["the", "a", "an", "my", "to", "of", "for", "and", "or", "with", "on", "at", "in", "by", "from"],
    ...["about", "is", "are", "was", "were", "be", "do", "does", "did", "have", "has", "had", "can"],
    ...["could", "would", "should", "will", "i", "me", "we", "our", "you", "your", "it", "its", "that"],
    ...["this", "these", "those", "there", "what", "whats", "where", "which", "who", "whose", "how"],
    ...["when", "why", "any", "some", "all", "again", "please", "find", "show", "tell", "give", "get"],
    ...["search", "look", "looking", "up", "remember", "remind", "saved", "save", "wrote", "note"],
    ...["notes", "told", "said", "know"],
    // Hebrew: the same roles.
    ...["של", "את", "על", "עם", "אל", "מה", "מי", "איפה", "איך", "מתי", "למה", "כמה", "איזה", "איזו"],
    ...["אני", "אתה", "את", "הוא", "היא", "אנחנו", "זה", "זאת", "זו", "יש", "אין", "לי", "לך", "שלי"],
    ...["שלך", "שלנו", "גם", "או", "כל", "רק", "עוד", "היה", "הייתה", "היו", "תמצא", "מצא", "תמצאי"],
    ...["תן", "תני", "תראה", "תראי", "הראה", "תגיד", "תגידי", "רשמתי", "שמרתי", "כתבתי", "אמרתי"],
    ...["פתק", "פתקים", "הפתק", "רשומה", "תזכיר", "תזכירי", "זוכר", "זוכרת", "בבקשה", "שוב", "ה"],
  ].map(normalizeForMatch),
);

const HEBREW_WORD = /^[\u05d0-\u05ea]+$/;
/** What a lexeme may contain once normalized: letters and digits only, so it is safe in a tsquery. */
const LEXEME = /^[\p{L}\p{N}]+$/u;

/**
 * The forms a normalized word is also found by: without one or two Hebrew prefix letters (leaving
 * at least 2, resp. 3 letters, so "לגנ" gives "גנ" but short words are not whittled away), and
 * each of those without a plural ending (Hebrew ים/ות, with ות also as the singular ה; English
 * s, es, ies → y). The word itself comes first.
 */
export function wordForms(word: string): string[] {
  const stems = [word];
  if (HEBREW_WORD.test(word)) {
    if (word.length >= 3 && HEBREW_PREFIXES.has(word[0]!)) {
      stems.push(word.slice(1));
      if (word.length >= 5 && HEBREW_PREFIXES.has(word[1]!)) stems.push(word.slice(2));
    }
  }
  const forms = new Set<string>();
  for (const stem of stems) {
    forms.add(stem);
    const single = singular(stem);
    if (single !== stem && single.length >= 2) forms.add(single);
    if (HEBREW_WORD.test(stem)) {
      // The feminine plural ות is mostly the plural of a singular in ה ("מתנות", "מתנה").
      if (stem.length >= 4 && stem.endsWith("ות")) forms.add(`${stem.slice(0, -2)}ה`);
    } else if (/^[a-z]{4,}$/.test(stem)) {
      // singular() takes "es" off after s/x/z ("boxes"); "sizes" and "roses" only lose the "s".
      if (stem.endsWith("s") && !stem.endsWith("ss")) forms.add(stem.slice(0, -1));
      if (stem.endsWith("ies") && stem.length >= 5) forms.add(`${stem.slice(0, -3)}y`);
    }
  }
  return [...forms];
}

/**
 * The text stored in `search_text`: the normalized content, category and tags, each word followed
 * (at its first occurrence) by its other forms (see `wordForms`), so a form sits where its word is
 * and proximity ranking still sees the words together.
 */
export function noteSearchText(content: string, category?: string | null, tags?: readonly string[]): string {
  const base = [content, category ?? "", ...(tags ?? [])]
    .map(normalizeForMatch)
    .filter((part) => part !== "")
    .join(" ");
  if (base === "") return "";
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of base.split(" ")) {
    out.push(word);
    if (seen.has(word)) continue;
    seen.add(word);
    for (const form of wordForms(word).slice(1)) out.push(form);
  }
  return out.join(" ");
}

/** What a search query is looked up by. */
export interface QueryTerms {
  /** The query's own words, normalized, without stop words and one-letter words, in order, at most 8. */
  words: string[];
  /** Every form of each word (`wordForms`), one group per word: a note matches a word by any of its forms. */
  groups: string[][];
  /** All the forms of all the words: the lexemes of the full-text query. */
  lexemes: string[];
}

/**
 * The query's words and lexemes. Stop words ("what", "where", "my", "מה", "איפה", "של") are
 * dropped; a query made only of stop words keeps them, since they are then all it says.
 */
export function queryTerms(query: string): QueryTerms {
  const normalized = normalizeForMatch(query);
  if (normalized === "") return { words: [], groups: [], lexemes: [] };
  const all = [...new Set(normalized.split(" "))].filter((word) => word.length >= 2 || /\d/.test(word));
  const meaningful = all.filter((word) => !QUERY_STOP_WORDS.has(word));
  const words = (meaningful.length > 0 ? meaningful : all).slice(0, MAX_QUERY_WORDS);
  const groups = words.map(wordForms);
  return { words, groups, lexemes: [...new Set(groups.flat())] };
}

/**
 * The argument of `to_tsquery('simple', …)` matching any of the lexemes (with `prefix`: any word
 * starting with one of them), or null when there are none. Each lexeme is letters and digits only
 * (anything else is dropped, never passed on) and quoted, so no user text can become tsquery syntax.
 */
export function toTsQuery(lexemes: readonly string[], options: { prefix?: boolean } = {}): string | null {
  const suffix = options.prefix ? ":*" : "";
  const safe = [...new Set(lexemes)].filter((lexeme) => LEXEME.test(lexeme));
  return safe.length > 0 ? safe.map((lexeme) => `'${lexeme}'${suffix}`).join(" | ") : null;
}

/** Lower case, NFKC, Hebrew points and cantillation removed, one space between words: text for matching. */
export function foldForMatching(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\u0591-\u05C7]/gu, "")
    .toLocaleLowerCase()
    .replace(/\s+/gu, " ")
    .trim();
}
