import { noteSearchText, queryTerms } from "../../utils/searchText.js";

/** The longest quote of a note shown in a reply. */
const QUOTE_CHARS = 120;

/** A note's words for a reply: one line, at most QUOTE_CHARS characters, cut at a word. */
export function quoteOf(content: string, max = QUOTE_CHARS): string {
  const line = content.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The part of a long text (a document's chunk) a search was about: from the sentence that has the
 * most of the query's words (in any of their indexed forms; the first of those tied), quoted as
 * quoteOf quotes; from the start when no sentence has one. Words of `title` (the document's, which
 * every chunk is about) do not count when the query has others.
 */
export function passageOf(content: string, query: string, max = QUOTE_CHARS, title = ""): string {
  const { groups } = queryTerms(query);
  const titled = new Set(noteSearchText(title).split(" "));
  const topical = groups.filter((forms) => !forms.some((form) => titled.has(form)));
  const sentences = content.split(/(?<=[.!?…;:])\s+|\n+/u);
  const bestOf = (wanted: readonly (readonly string[])[]) => {
    let best = 0;
    let at = 0;
    sentences.forEach((sentence, i) => {
      const words = new Set(noteSearchText(sentence).split(" "));
      const score = wanted.filter((forms) => forms.some((form) => words.has(form))).length;
      if (score > best) [best, at] = [score, i];
    });
    return { best, at };
  };
  // The topic's words first; when no sentence has them, any of the query's (a title may name the topic).
  const topic = topical.length > 0 ? bestOf(topical) : { best: 0, at: 0 };
  const { at } = topic.best > 0 ? topic : bestOf(groups);
  return quoteOf(at > 0 ? sentences.slice(at).join(" ") : content, max);
}
