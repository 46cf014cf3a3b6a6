import { decideMatch, HEBREW_PREFIXES, literalOf, normalizeForMatch } from "../utils/fuzzy.js";

/** Ordinal words, by the position they name (1-based; "last" is its own kind of reference). */
const ORDINALS: Record<string, number> = {
  first: 1,
  "1st": 1,
  second: 2,
  "2nd": 2,
  third: 3,
  "3rd": 3,
  fourth: 4,
  "4th": 4,
  fifth: 5,
  "5th": 5,
  sixth: 6,
  "6th": 6,
  seventh: 7,
  "7th": 7,
  eighth: 8,
  "8th": 8,
  ninth: 9,
  "9th": 9,
  tenth: 10,
  "10th": 10,
  ראשון: 1,
  ראשונה: 1,
  שני: 2,
  שנייה: 2,
  שניה: 2,
  שלישי: 3,
  שלישית: 3,
  רביעי: 4,
  רביעית: 4,
  חמישי: 5,
  חמישית: 5,
  שישי: 6,
  שישית: 6,
  שביעי: 7,
  שביעית: 7,
  שמיני: 8,
  שמינית: 8,
  תשיעי: 9,
  תשיעית: 9,
  עשירי: 10,
  עשירית: 10,
};
/** "the last one", "האחרון", "האחרונה". */
const LAST = new Set(["last", "אחרון", "אחרונה"]);

/**
 * Words a reply quoting the choice list may add around a candidate's name or number without
 * saying anything else ("the bank please", "את זה של הבנק"): normalized as `normalizeForMatch`
 * reads them. Anything else in the reply (a verb, "keep", "don't", "לא", "תשאיר") makes it
 * something other than a choice.
 */
const QUOTED_FILLER = new Set(
  [
    ...["the", "one", "please", "pls", "that", "this", "i", "mean", "meant", "option", "number"],
    ...["ה", "את", "זה", "זו", "זאת", "הזה", "הזאת", "של", "בבקשה", "אחד", "אחת", "האחד", "האחת"],
    ...["אפשרות", "מספר", "מס"],
  ].map(normalizeForMatch),
);

/** How a message points at one of the choices Memo offered. */
type ChoiceReference =
  | { kind: "position"; n: number }
  | { kind: "last" }
  | { kind: "words"; words: string }
  | { kind: "name"; words: string[] };

/** "the second one", "the 2nd", "the last one", "option 2"; "השני", "את השנייה", "האחרון", "מספר 2". */
const EN_POSITION = /^(?:i meant |i mean )?(?:the )?([a-z0-9]+)(?: one)?(?: please)?$/;
const EN_NUMBERED = /^(?:option|number|no\.?|#) ?(\d{1,2})$/;
const HE_POSITION = /^(?:את )?ה(\S+?)(?: בבקשה)?$/u;
const HE_NUMBERED = /^(?:אפשרות|מספר|מס'?) ?(\d{1,2})$/u;
/** "the dentist one", "the one with the bank", "the one about the dentist". */
const EN_WORDS = [
  /^(?:i meant |i mean )?the (.+?) one(?: please)?$/,
  /^(?:i meant |i mean )?the one (?:with|about|for|called|named) (.+?)(?: please)?$/,
];
/** "זה של רופא השיניים", "את זאת עם הבנק", "האחד של הבנק", "של רופא השיניים". */
const HE_WORDS =
  /^(?:(?:את )?(?:זה|זו|זאת|הזה|הזאת|ההוא|ההיא|האחד|האחת) )?(?:של|עם|על|שנקרא|שנקראת) (.+?)(?: בבקשה)?$/u;

/**
 * How a message refers to one of a list of choices after the question that offered them ended:
 * by position ("the second one", "השני") or by words ("the dentist one", "זה של רופא השיניים").
 * The whole message must be such a reference: a command that mentions a candidate's words is not
 * one. A bare number is not either (spec 001's stale-reply rule reads it), unless `quoted` (the
 * message replies to the choice list): then "2" counts, and so does a candidate's name on its
 * own, with nothing but filler words around it ("the bank", "את הבנק בבקשה"): a reply quoting
 * the list that says anything else ("keep the bank one", "don't delete the bank", "לא את הבנק")
 * is no choice, whatever candidate it names. Positions count from 1: "0" is none.
 */
function choiceReference(text: string, quoted: boolean): ChoiceReference | null {
  const said = literalOf(text)
    .replace(/[.!?]+$/u, "")
    .trim();
  if (said === "") return null;
  const numbered = EN_NUMBERED.exec(said) ?? HE_NUMBERED.exec(said);
  if (numbered) return { kind: "position", n: Number(numbered[1]) };
  const position = EN_POSITION.exec(said)?.[1] ?? HE_POSITION.exec(said)?.[1];
  if (position !== undefined && LAST.has(position)) return { kind: "last" };
  if (position !== undefined && ORDINALS[position] !== undefined)
    return { kind: "position", n: ORDINALS[position] };
  for (const pattern of [...EN_WORDS, HE_WORDS]) {
    const words = pattern.exec(said)?.[1];
    if (words) return { kind: "words", words };
  }
  if (!quoted) return null;
  const words = normalizeForMatch(said)
    .split(" ")
    .filter((word) => word !== "" && !QUOTED_FILLER.has(word));
  if (words.length === 0) return null;
  if (words.length === 1 && /^\d{1,2}$/.test(words[0]!)) return { kind: "position", n: Number(words[0]) };
  return { kind: "name", words };
}

/** Whether a word the user said is one of a name's words, a Hebrew one-letter prefix aside ("הבנק", "לבנק"). */
function sameWord(said: string, word: string): boolean {
  const bare = (w: string) => (w.length > 2 && HEBREW_PREFIXES.has(w[0]!) ? w.slice(1) : w);
  return said === word || bare(said) === word || said === bare(word) || bare(said) === bare(word);
}

/**
 * The index (0-based) of the one choice among `labels` that `text` refers to (see
 * `choiceReference`), or null when it is no such reference, or its words fit several labels or
 * none: never a guess between two.
 */
export function chosenIndex(text: string, labels: readonly string[], quoted: boolean): number | null {
  const reference = choiceReference(text, quoted);
  if (!reference || labels.length === 0) return null;
  if (reference.kind === "last") return labels.length - 1;
  if (reference.kind === "position") {
    const index = reference.n - 1;
    return index >= 0 && index < labels.length ? index : null;
  }
  const indexed = labels.map((label, index) => ({ label, index }));
  if (reference.kind === "name") {
    // Every word said is one of the candidate's own: its name, nothing added.
    const named = indexed.filter(({ label }) => {
      const own = normalizeForMatch(label).split(" ");
      return reference.words.every((said) => own.some((word) => sameWord(said, word)));
    });
    if (named.length <= 1) return named[0]?.index ?? null;
    const decision = decideMatch(reference.words.join(" "), named, (c) => c.label);
    return decision.kind === "one" ? decision.match.item.index : null;
  }
  const decision = decideMatch(reference.words, indexed, (c) => c.label);
  return decision.kind === "one" ? decision.match.item.index : null;
}
