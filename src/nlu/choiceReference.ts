import { decideMatch, literalOf } from "../utils/fuzzy.js";

/** Ordinal words, by the position they name (1-based; 0: the last). */
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
  last: 0,
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
  אחרון: 0,
  אחרונה: 0,
};

/** How a message points at one of the choices Memo offered. */
type ChoiceReference = { kind: "position"; n: number } | { kind: "words"; words: string };

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
 * message replies to the choice list): then "2" and the candidate's own words count too.
 */
function choiceReference(text: string, quoted: boolean): ChoiceReference | null {
  const said = literalOf(text)
    .replace(/[.!?]+$/u, "")
    .trim();
  if (said === "") return null;
  if (quoted && /^\d{1,2}$/.test(said)) return { kind: "position", n: Number(said) };
  const numbered = EN_NUMBERED.exec(said) ?? HE_NUMBERED.exec(said);
  if (numbered) return { kind: "position", n: Number(numbered[1]) };
  const position = EN_POSITION.exec(said)?.[1] ?? HE_POSITION.exec(said)?.[1];
  if (position !== undefined && ORDINALS[position] !== undefined)
    return { kind: "position", n: ORDINALS[position] };
  for (const pattern of [...EN_WORDS, HE_WORDS]) {
    const words = pattern.exec(said)?.[1];
    if (words) return { kind: "words", words };
  }
  return quoted ? { kind: "words", words: said } : null;
}

/**
 * The index (0-based) of the one choice among `labels` that `text` refers to (see
 * `choiceReference`), or null when it is no such reference, or its words fit several labels or
 * none: never a guess between two.
 */
export function chosenIndex(text: string, labels: readonly string[], quoted: boolean): number | null {
  const reference = choiceReference(text, quoted);
  if (!reference || labels.length === 0) return null;
  if (reference.kind === "position") {
    const index = reference.n === 0 ? labels.length - 1 : reference.n - 1;
    return index >= 0 && index < labels.length ? index : null;
  }
  const indexed = labels.map((label, index) => ({ label, index }));
  const decision = decideMatch(reference.words, indexed, (c) => c.label);
  return decision.kind === "one" ? decision.match.item.index : null;
}
