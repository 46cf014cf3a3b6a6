/**
 * A template's one body parameter. Meta refuses parameters with line breaks, tabs or more than
 * four spaces in a row, so lines are joined with " · "; a parameter longer than the limit is cut.
 */

/** Longest template parameter Memo sends (a template body holds at most 1,024 characters in all). */
const TEMPLATE_PARAMETER_LIMIT = 900;

const SEPARATOR = " · ";
const ELLIPSIS = "…";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * The largest cut position ≤ `limit` that falls between graphemes (so an emoji, a flag or a letter
 * with its marks stays whole); between code points when the first grapheme alone is too long.
 */
export function graphemeCutBefore(text: string, limit: number): number {
  let cut = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    const end = index + segment.length;
    if (end > limit) break;
    cut = end;
  }
  if (cut > 0) return cut;
  // Never between the two halves of a surrogate pair.
  const low = text.charCodeAt(limit);
  return low >= 0xdc00 && low <= 0xdfff ? limit - 1 : limit;
}

const linesOf = (text: string) => text.split(/\r?\n/).map((line) => line.replace(/\s+/g, " ").trim());

/** `text` as one line, as the parameter carries it (before any cut). */
const flatten = (text: string) => linesOf(text).filter(Boolean).join(SEPARATOR);

/** Whether `text` goes as a template parameter whole, uncut. */
export function fitsTemplateParameter(text: string): boolean {
  return flatten(text).length <= TEMPLATE_PARAMETER_LIMIT;
}

/**
 * The parameter `text` goes as (one line, cut with "…" past the limit), and `shown`: what the
 * user got, with its line breaks (the text itself when it fits; else its lines up to the cut,
 * the last one cut where the parameter is), so the conversation window keeps what was sent.
 */
export function templateParameter(text: string): { parameter: string; shown: string } {
  const flat = flatten(text);
  if (flat.length <= TEMPLATE_PARAMETER_LIMIT) return { parameter: flat || ELLIPSIS, shown: text };
  const cut = graphemeCutBefore(flat, TEMPLATE_PARAMETER_LIMIT - 1);
  const kept: string[] = [];
  /** Where the next non-empty line starts in `flat`. */
  let at = 0;
  for (const line of linesOf(text)) {
    if (line === "") {
      kept.push(line);
      continue;
    }
    if (at + line.length > cut) {
      kept.push(`${flat.slice(at, cut)}${ELLIPSIS}`);
      break;
    }
    kept.push(line);
    at += line.length + SEPARATOR.length;
  }
  return { parameter: `${flat.slice(0, cut)}${ELLIPSIS}`, shown: kept.join("\n") };
}
