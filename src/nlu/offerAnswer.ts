/**
 * The answer to Memo's numbered offer of what a document proposes (issue 37): "1 and 2", "1,2",
 * "2", "all", "both", "none", "הכל", "את שניהם", "1 ו-2", "אף אחד", "לא תודה". Read in code, whole:
 * a message that says anything else is no answer.
 */

/** Which of the offered items the user chose (numbers as said, 1-based, in order, no repeats). */
type OfferAnswer = { kind: "all" } | { kind: "none" } | { kind: "numbers"; numbers: number[] };

const ALL = new Set([
  ...["all", "all of them", "add all", "add all of them", "add them all", "yes all", "everything"],
  ...["הכל", "הכול", "את הכל", "את הכול", "כולם", "את כולם", "כולן", "את כולן", "תוסיף הכל", "תוסיף את הכל"],
  ...["הוסף הכל", "הוסף את הכל", "כן הכל", "כן, הכל"],
]);
/** "Both" is all of two items only. */
const BOTH = new Set(["both", "both of them", "add both", "שניהם", "את שניהם", "שתיהן", "את שתיהן"]);
const NONE = new Set([
  ...[
    "none",
    "none of them",
    "neither",
    "nothing",
    "no thanks",
    "no thank you",
    "no, thanks",
    "no, thank you",
  ],
  ...["אף אחד", "אף אחת", "אף אחד מהם", "כלום", "שום דבר", "לא תודה", "לא, תודה", "לא צריך", "לא צריך תודה"],
]);
/** Words a list of numbers may open with ("add 1 and 2", "תוסיף את 1 ו-2"). */
const OPENING = /^(?:please\s+)?(?:add|take|תוסיף|תוסיפי|הוסף|הוסיפי)\s+(?:את\s+)?|^את\s+/u;
/** Words between numbers: "and", "&", "+", "ו", "את". */
const JOINERS = new Set(["and", "&", "+", "ו", "את", "גם"]);

/** Lower case, spaces folded, closing punctuation and emoji dropped. */
function tidy(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .replace(/[\s.!?…\p{Extended_Pictographic}\uFE0F]+$/u, "")
    .trim();
}

/**
 * What `text` chose of an offer of `count` items, or null when it is no answer to it. Numbers
 * outside 1..count are kept as said: the caller says there is no such item, never guesses.
 */
export function readOfferAnswer(text: string, count: number): OfferAnswer | null {
  const said = tidy(text);
  if (ALL.has(said) || (count === 2 && BOTH.has(said))) return { kind: "all" };
  if (NONE.has(said)) return { kind: "none" };
  if (said.length > 40) return null;
  const tokens = said
    .replace(OPENING, "")
    .split(/[\s,;/]+/u)
    .map((token) => token.replace(/^ו-?(?=\d)/u, ""))
    .filter((token) => token !== "" && token !== "-");
  const numbers: number[] = [];
  for (const token of tokens) {
    if (JOINERS.has(token)) continue;
    // Any count of digits: "1 and 99999999999" is an answer naming an item there is not.
    if (!/^\d{1,15}$/u.test(token)) return null;
    const n = Number(token);
    if (!numbers.includes(n)) numbers.push(n);
  }
  return numbers.length > 0 ? { kind: "numbers", numbers } : null;
}
