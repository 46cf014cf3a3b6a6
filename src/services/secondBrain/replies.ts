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
