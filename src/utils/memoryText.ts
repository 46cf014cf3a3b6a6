/**
 * Words of remembered facts and of the user's messages, for lookup and relevance (no I/O).
 *
 * Facts are stored with the same `search_text` as notes (`noteSearchText`: the normalized content,
 * then the other forms of its words, e.g. Hebrew words without their one-letter prefix, words
 * without their plural ending), so "בבוקר" finds "בוקר" and "meetings" finds "meeting". A message
 * is matched word by word, each word under all its forms (`wordForms`).
 */
import { normalizeForMatch } from "./fuzzy.js";
import { noteSearchText, wordForms } from "./searchText.js";

const normalizedSet = (words: readonly string[]) => new Set(words.map(normalizeForMatch));

/** Words that say nothing about what a message is about (English and Hebrew, normalized). */
const STOP_WORDS = normalizedSet([
  ...["i", "me", "my", "mine", "myself", "we", "us", "our", "you", "your", "he", "she", "him", "her"],
  ...["his", "it", "its", "they", "them", "their", "a", "an", "the", "and", "or", "but", "if", "then"],
  ...["so", "of", "to", "in", "on", "at", "for", "with", "about", "from", "by", "as", "into", "is"],
  ...["am", "are", "was", "were", "be", "been", "being", "do", "does", "did", "have", "has", "had"],
  ...["will", "would", "can", "could", "should", "shall", "may", "might", "not", "no", "yes", "this"],
  ...["that", "these", "those", "there", "here", "what", "when", "where", "who", "why", "how"],
  ...["which", "please", "thanks", "thank", "ok", "okay", "just", "also", "very", "really", "too"],
  ...["some", "any", "all", "up", "out", "get", "got", "let", "im", "dont", "don", "doesn", "didn"],
  ...["ll", "re", "ve", "s", "t", "d", "m", "than", "more", "most", "much", "many", "now", "again"],
  ...["אני", "אתה", "את", "אתם", "אתן", "הוא", "היא", "הם", "הן", "אנחנו", "של", "שלי", "שלך", "שלו"],
  ...["שלה", "שלנו", "עם", "על", "אל", "מן", "זה", "זאת", "זו", "גם", "רק", "כל", "לא", "כן", "יש"],
  ...["אין", "מה", "מי", "מתי", "איפה", "איך", "למה", "כמה", "האם", "או", "אבל", "אם", "כי", "היה"],
  ...["הייתה", "היתה", "יהיה", "להיות", "תודה", "בבקשה", "אוקי", "טוב", "עוד", "כבר", "אז", "פה"],
  ...["שם", "לי", "לך", "לו", "לה", "לנו", "אותי", "אותו", "אותה", "הזה", "הזאת", "מאוד", "ממש"],
  ...["אחד", "אחת", "ה", "ו", "ב", "ל", "מ", "ש", "כ"],
]);

/**
 * Verbs that say how the user feels about something rather than what it is ("prefers", "likes",
 * "מעדיף"): left out of relevance and of a fact's distinctive words, so "I'd like a meeting" is
 * not taken for "Likes jazz".
 */
const GENERIC_WORDS = normalizedSet([
  ...["prefer", "prefers", "preferred", "like", "likes", "liked", "love", "loves", "loved", "hate"],
  ...["hates", "hated", "dislike", "dislikes", "enjoy", "enjoys", "want", "wants", "need", "needs"],
  ...["decided", "decide", "decides", "chose", "choose", "chosen", "went", "picked", "plan", "plans"],
  ...["planning", "aim", "aims", "goal", "user", "users", "name", "named", "favorite", "favourite"],
  ...["must", "cannot", "cant", "always", "usually", "never", "remember", "memo"],
  ...["מעדיף", "מעדיפה", "אוהב", "אוהבת", "שונא", "שונאת", "רוצה", "צריך", "צריכה", "החלטתי"],
  ...["החלטה", "בחרתי", "בחירה", "חייב", "חייבת", "אסור", "מטרה", "המטרה", "מתכנן", "מתכננת"],
  ...["תזכור", "תזכרי", "שם", "אהוב", "האהוב", "אהובה", "האהובה", "תמיד", "אף", "פעם"],
]);

/** The normalized content words of a text (stop words and one-letter words left out), each once, in order. */
export function contentWords(text: string): string[] {
  const normalized = normalizeForMatch(text);
  if (normalized === "") return [];
  // A Hebrew stop word behind a prefix letter ("שאני", "בזה") is still one.
  const words = normalized
    .split(" ")
    .filter((w) => w.length >= 2 && !wordForms(w).some((f) => STOP_WORDS.has(f)));
  return [...new Set(words)];
}

/** One word of a query, with the forms under which a stored text may hold it. */
export interface QueryWord {
  word: string;
  forms: readonly string[];
}

/** The words of a message that can make a fact relevant: content words, generic verbs left out. */
export function queryWordsOf(text: string): QueryWord[] {
  return contentWords(text)
    .filter((w) => !GENERIC_WORDS.has(w))
    .map((word) => ({ word, forms: wordForms(word) }));
}

/** Every form of every query word, once: the operands of a text-search OR query. */
export function lexemesOf(words: readonly QueryWord[]): string[] {
  return [...new Set(words.flatMap((w) => w.forms))];
}

/** How many of the query words a stored search text holds, in any of their forms. */
function matchedWordCount(words: readonly QueryWord[], searchText: string): number {
  if (words.length === 0) return 0;
  const held = new Set(searchText.split(" "));
  let matched = 0;
  for (const { forms } of words) if (forms.some((f) => held.has(f))) matched++;
  return matched;
}

/** The words that make a fact itself ("morning", "meetings" in "Prefers morning meetings"). */
export function distinctiveWords(content: string): QueryWord[] {
  const words = queryWordsOf(content);
  return words.length > 0 ? words : contentWords(content).map((word) => ({ word, forms: wordForms(word) }));
}

/** Abbreviations a period does not end a sentence after (lower case, without their last period). */
const ABBREVIATIONS = new Set(["dr", "mr", "mrs", "ms", "st", "prof", "inc", "jr", "sr", "vs", "e.g", "i.e"]);

/**
 * Whether a piece ending in one period goes on in the next: the period closes an abbreviation
 * ("Dr.", "e.g.") or a single-letter initial ("J. K. Rowling").
 */
function periodGoesOn(piece: string): boolean {
  const last = /(?:^|[\s(“"'„])((?:[A-Za-z]\.)*[A-Za-z]+)\.$/u.exec(piece)?.[1];
  if (last === undefined || /[.!?]{2}$/u.test(piece)) return false;
  return last.length === 1 || ABBREVIATIONS.has(last.toLowerCase());
}

/** The text without Hebrew points (niqqud), the rest as it was. */
export function withoutPoints(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0591-\u05bd\u05bf-\u05c7]/g, "")
    .normalize("NFC");
}

/**
 * The sentences of a user's message that state something (not questions, requests to Memo or
 * small talk), each as `bare` leaves it (lead-ins and closing punctuation off): what facts and
 * episodes are read from.
 */
export function statementsOf(text: string, bare: (sentence: string) => string): string[] {
  const statements: string[] = [];
  for (const raw of sentencesOf(text)) {
    if (isQuestion(raw)) continue;
    const sentence = bare(raw);
    if (sentence === "" || isQuestion(sentence) || isCommand(sentence) || isSmallTalk(sentence)) continue;
    statements.push(sentence);
  }
  return statements;
}

/**
 * Sentences of a text, each trimmed with its closing punctuation; blank ones left out. A line
 * break always ends one; a period after an abbreviation or an initial does not.
 */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let current = "";
  const close = () => {
    const sentence = current.trim();
    if (/[\p{L}\p{N}]/u.test(sentence)) sentences.push(sentence);
    current = "";
  };
  for (const [piece] of text.matchAll(/[^.!?\n]+[.!?]*|\n/gu)) {
    if (piece === "\n") {
      close();
      continue;
    }
    current += piece;
    if (!periodGoesOn(current)) close();
  }
  close();
  return sentences;
}

/** The lines of a text, or its sentences when it is one paragraph. */
export function unitsOf(text: string): string[] {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length > 1 ? lines : sentencesOf(text);
}

/** Words that frame a fact rather than say it ("User's wife…", "Goal: …"); a reply need not repeat them. */
const FRAMING_WORDS = normalizedSet(["user", "users", "memo", "remember", "goal", "name", "named"]);

/**
 * Verbs by meaning: a fact saying one ("Prefers morning meetings") is echoed only by a text saying
 * the same verb in some form ("you prefer morning meetings"), not by one merely naming its object.
 */
const VERB_FAMILIES: readonly ReadonlySet<string>[] = [
  ["prefer", "prefers", "preferred", "preferring", "מעדיף", "מעדיפה", "מעדיפים", "מעדיפות"],
  ["like", "likes", "liked", "liking", "love", "loves", "loved", "loving", "adore", "adores", "adored"],
  ["אוהב", "אוהבת", "אוהבים", "אוהבות"],
  ["hate", "hates", "hated", "hating", "dislike", "dislikes", "disliked", "שונא", "שונאת", "שונאים"],
  ["enjoy", "enjoys", "enjoyed", "enjoying", "נהנה", "נהנית", "נהנים"],
  ["want", "wants", "wanted", "wanting", "רוצה", "רוצים", "רוצות"],
  ["need", "needs", "needed", "needing", "צריך", "צריכה", "צריכים", "צריכות"],
].map(normalizedSet);

/** Content words a one-word fact's echo may hold at most: "Got it, you're vegetarian", not a long reply. */
const SHORT_ECHO_WORDS = 3;

/**
 * Whether one line or sentence of `text` repeats the fact itself (Memo's "📝 Noted: “I'm allergic
 * to peanuts”", "Got it, you prefer morning meetings"): every distinctive word of the fact, the
 * same verb of liking or wanting when it has one, and the same negation. A fact of one such word
 * is echoed only by a short sentence. Stricter than `mentionsFact`, for deleting whole messages.
 */
export function echoesFact(text: string, factContent: string): boolean {
  const words = contentWords(factContent).filter((w) => !FRAMING_WORDS.has(w));
  const families = VERB_FAMILIES.filter((family) => words.some((w) => family.has(w)));
  const distinctive = words
    .filter((w) => !GENERIC_WORDS.has(w))
    .map((word) => ({ word, forms: wordForms(word) }));
  const required = distinctive.length + families.length;
  if (distinctive.length === 0) return false;
  const negated = isNegated(factContent);
  return unitsOf(text).some((unit) => {
    if (isNegated(unit) !== negated) return false;
    const held = new Set(noteSearchText(unit).split(" "));
    if (!distinctive.every(({ forms }) => forms.some((f) => held.has(f)))) return false;
    if (!families.every((family) => [...held].some((w) => family.has(w)))) return false;
    return required >= 2 || contentWords(unit).length <= SHORT_ECHO_WORDS;
  });
}

/**
 * Whether one line or sentence of `text` still speaks of the fact: it holds at least two thirds of
 * the fact's distinctive words (all of them when there are one or two).
 */
export function mentionsFact(text: string, factContent: string): boolean {
  const words = distinctiveWords(factContent);
  if (words.length === 0) return false;
  const needed = words.length <= 2 ? words.length : Math.ceil((words.length * 2) / 3);
  return unitsOf(text).some((unit) => matchedWordCount(words, noteSearchText(unit)) >= needed);
}

const QUESTION_WORDS = normalizedSet([
  ...["what", "when", "where", "who", "whom", "whose", "why", "how", "which"],
  ...["מה", "מתי", "איפה", "איך", "למה", "מדוע", "מי", "האם", "כמה", "איזה", "איזו", "אילו", "היכן"],
]);

/** Words that open a request to Memo rather than a statement about the user (normalized). */
const COMMAND_WORDS = normalizedSet([
  ...["remind", "add", "create", "delete", "remove", "cancel", "show", "list", "set", "schedule"],
  ...["book", "move", "reschedule", "mark", "complete", "finish", "send", "email", "reply", "forget"],
  ...["check", "call", "find", "search", "open", "update", "change", "rename", "tell", "give"],
  ...["make", "put", "clear", "undo", "help", "connect", "disconnect", "stop", "start", "snooze"],
  ...["note", "save", "write", "read", "summarize", "draft"],
  ...["תזכיר", "תזכירי", "הזכר", "תוסיף", "תוסיפי", "הוסף", "הוסיפי", "תיצור", "תיצרי", "צור"],
  ...["תמחק", "תמחקי", "מחק", "בטל", "תבטל", "תבטלי", "תראה", "תראי", "הראה", "הצג", "תציג"],
  ...["קבע", "תקבע", "תקבעי", "תזיז", "תזיזי", "תעביר", "תעבירי", "סמן", "תסמן", "תסמני", "שלח"],
  ...["תשלח", "תשלחי", "שכח", "תשכח", "תשכחי", "תעדכן", "תעדכני", "עדכן", "חפש", "תחפש", "תחפשי"],
  ...["תן", "תני", "תרשום", "תרשמי", "רשום", "תשמור", "תשמרי", "שמור"],
]);
/** Words said before a request that do not change it ("please remind…", "memo, add…"). */
const LEAD_IN_WORDS = normalizedSet(["please", "pls", "plz", "hey", "hi", "memo", "בבקשה", "היי"]);

/** Whole messages that are greetings, thanks or acknowledgements (normalized). */
const SMALL_TALK = normalizedSet([
  ...["hi", "hello", "hey", "thanks", "thank you", "thanks a lot", "thx", "ty", "ok", "okay", "k"],
  ...["cool", "great", "nice", "sure", "yes", "no", "yep", "nope", "yeah", "good", "perfect"],
  ...["good morning", "good night", "good evening", "bye", "lol", "done", "got it", "sounds good"],
  ...["ok thanks", "ok thank you", "great thanks", "awesome", "fine", "alright", "all right"],
  ...["שלום", "היי", "הי", "תודה", "תודה רבה", "אוקי", "סבבה", "בסדר", "כן", "לא", "יופי"],
  ...["מעולה", "בוקר טוב", "לילה טוב", "ערב טוב", "ביי", "אחלה", "מצוין", "נהדר", "טוב", "בדיוק"],
]);

function firstWords(sentence: string): string[] {
  const words = normalizeForMatch(sentence).split(" ").filter(Boolean);
  let start = 0;
  while (start < words.length - 1 && LEAD_IN_WORDS.has(words[start]!)) start++;
  return words.slice(start);
}

/** A question: it ends with "?" or opens with a question word (what, when, מה, מתי…). */
export function isQuestion(sentence: string): boolean {
  if (/[?？]\s*$/u.test(sentence)) return true;
  const first = firstWords(sentence)[0];
  return first !== undefined && QUESTION_WORDS.has(first);
}

/** A request to Memo ("remind me…", "add…", "תזכיר לי…"), not a statement about the user. */
export function isCommand(sentence: string): boolean {
  const words = firstWords(sentence);
  if (words.length === 0) return false;
  if (COMMAND_WORDS.has(words[0]!)) return true;
  const normalized = words.join(" ");
  return /\bremind me\b|(?:^|\s)(?:תזכיר|תזכירי) לי(?:\s|$)|\bcan you\b|\bcould you\b|\bwould you\b/u.test(
    normalized,
  );
}

/** Greetings, thanks and acknowledgements, or nothing but one word. */
export function isSmallTalk(sentence: string): boolean {
  const normalized = normalizeForMatch(sentence);
  if (normalized === "" || SMALL_TALK.has(normalized)) return true;
  return contentWords(sentence).length === 0;
}

/**
 * A message about Memo's memory itself ("forget that I…", "what do you remember about me?",
 * "שכח ש…"): never summarized or mined for facts, nor is Memo's answer to it.
 */
export function isMemoryCommand(text: string): boolean {
  const normalized = firstWords(text).join(" ");
  return (
    /^(?:forget|delete|erase|wipe|clear)\b.*\b(?:that|about|everything|memory|memories|all|me)\b/u.test(
      normalized,
    ) ||
    /^forget\b/u.test(normalized) ||
    /^what do you (?:remember|know) about me\b/u.test(normalized) ||
    /^(?:שכח|תשכח|תשכחי|שכחי)(?:\s|$)/u.test(normalized) ||
    /^מה (?:אתה|את) (?:זוכר|זוכרת|יודע|יודעת) עלי/u.test(normalized) ||
    /^(?:מחק|תמחק|תמחקי) (?:את )?(?:כל )?(?:הזיכרונ|הזכרונ|מה ש)/u.test(normalized)
  );
}

// ---- note commands ----

/**
 * The opening of a note command ("note: …", "note to self …", "remember that …", "save a note …",
 * "פתק: …", "תרשום …", "תזכור ש…"): what follows is kept by the second brain as a note, never
 * mined for facts (a note may hold a secret the planner must not see every turn).
 */
const NOTE_COMMAND_EN =
  /^(?:(?:please|pls|plz|hey|hi|memo|can you|could you|would you)[,\s]+)*(?:(?:new\s+|quick\s+)?note(?:\s+to\s+self)?\b|(?:add|save|take|make|write)(?:\s+down)?\s+(?:a\s+|this\s+)?note\b(?:\s+that\b)?|remember\s+that\b)/iu;
const NOTE_COMMAND_HE =
  /^(?:(?:בבקשה|ממו|היי|אפשר|תוכל|תוכלי)[,\s]+)*(?:(?:פתק|הערה)(?:\s+(?:חדש|חדשה))?\s*[:\-–]|פתק(?![\p{L}])|(?:תרשום|רשום|תרשמי|רשמי)(?![\p{L}])|(?:שמור|תשמור|תשמרי)(?:\s+לי)?\s+(?:פתק|הערה)(?![\p{L}])|(?:תזכור|תזכרי|זכור|זכרי)\s+(?:את\s+זה\s*:?|ש))/u;

function noteCommandLead(text: string): RegExpExecArray | null {
  const trimmed = text.trimStart();
  return NOTE_COMMAND_EN.exec(trimmed) ?? NOTE_COMMAND_HE.exec(trimmed);
}

/** A message asking Memo to keep a note ("note: my bank PIN is 4412", "תזכור שהקוד הוא 1234"). */
export function isNoteCommand(text: string): boolean {
  return noteCommandLead(text) !== null;
}

/** What a note command keeps ("note: I'm allergic to peanuts" → "I'm allergic to peanuts"); other text as it is. */
export function withoutNoteCommand(text: string): string {
  const lead = noteCommandLead(text);
  if (!lead) return text;
  return text
    .trimStart()
    .slice(lead[0].length)
    .replace(/^[\s:\-–,]+/u, "");
}

// ---- negation ----

/** Words that negate what a sentence says (normalized; "don't" is normalized to "don t"). */
const NEGATION_WORDS = normalizedSet([
  ...["not", "no", "never", "cannot", "dont", "doesnt", "didnt", "cant", "isnt", "arent", "wasnt"],
  ...["werent", "mustnt", "shouldnt", "couldnt", "wouldnt", "hasnt", "havent", "aint"],
  ...["לא", "אין", "בלי", "איני", "אינני", "אינו", "אינה", "אינם", "אינן"],
]);
/** What an English negative contraction says without its negation ("can't" → "can", "isn't" → "is"). */
const UNNEGATED: ReadonlyMap<string, string> = new Map<string, string>([
  ...["can", "cannot", "cant"].map((w): [string, string] => [w, "can"]),
  ["won", "will"],
  ...["don", "dont", "doesn", "doesnt", "didn", "didnt", "ain", "aint"].map((w): [string, string] => [w, ""]),
]);

/** "אף פעם" (never), normalized (final letters as their plain forms). */
const AF = normalizeForMatch("אף");
const PAAM = normalizeForMatch("פעם");

/** The normalized words of a text with its negations marked: each is null where a negation stood. */
function negationMarked(text: string): (string | null)[] {
  const words = normalizeForMatch(text).split(" ").filter(Boolean);
  const marked: (string | null)[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    if (next === "t" && word.length >= 2 && word.endsWith("n")) {
      // "don t", "can t", "isn t": a contraction split at its apostrophe.
      marked.push(null, UNNEGATED.get(word) ?? word.slice(0, -1));
      i++;
    } else if (word === AF && next === PAAM) {
      marked.push(null);
      i++;
    } else if (NEGATION_WORDS.has(word) || wordForms(word).some((f) => NEGATION_WORDS.has(f))) {
      marked.push(null);
      const kept = UNNEGATED.get(word) ?? (/^[a-z]+nt$/.test(word) ? word.slice(0, -2) : undefined);
      if (kept) marked.push(kept);
    } else {
      marked.push(word);
    }
  }
  return marked;
}

/** Whether a text says "not": not, n't, never, no, cannot, לא, אין, אף פעם, בלי… */
export function isNegated(text: string): boolean {
  return negationMarked(text).includes(null);
}

/** The text (normalized) without its negations: "Can't meet on Fridays" → "can meet on fridays". */
export function withoutNegation(text: string): string {
  return negationMarked(text)
    .filter((w): w is string => w !== null && w !== "")
    .join(" ");
}
