/** A document's text cut into pieces search can find and quote, each on its page. */
export interface TextChunk {
  text: string;
  /** 1-based page; null for a text without pages. */
  page: number | null;
}

/** A chunk is closed once it reaches this many characters (default: 600)… */
const CHUNK_MIN = 600;
/** …and never grows past this many (default: 900): a longer sentence is cut at a space. */
const CHUNK_MAX = 900;

/** Sentences of a paragraph: cut after ., !, ?, … or ; followed by a space. */
function sentencesOf(paragraph: string): string[] {
  return paragraph.split(/(?<=[.!?…;])\s+/u).filter((s) => s.trim() !== "");
}

/** A piece longer than CHUNK_MAX, cut at spaces (or hard, when it has none). */
function cutLong(text: string): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > CHUNK_MAX) {
    const space = rest.lastIndexOf(" ", CHUNK_MAX);
    const at = space > CHUNK_MAX / 2 ? space : CHUNK_MAX;
    pieces.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * The pages' text in chunks of CHUNK_MIN–CHUNK_MAX characters, cut at paragraph and sentence
 * boundaries, never across pages (so each chunk has one page). `paged`: the pages are real pages
 * (a PDF's); otherwise chunks have no page.
 */
export function chunkPages(pages: readonly string[], paged: boolean): TextChunk[] {
  const chunks: TextChunk[] = [];
  pages.forEach((page, i) => {
    const number = paged ? i + 1 : null;
    let current = "";
    const close = () => {
      if (current.trim()) chunks.push({ text: current.trim(), page: number });
      current = "";
    };
    for (const paragraph of page.split(/\n+/)) {
      for (const sentence of sentencesOf(paragraph.trim()).flatMap(cutLong)) {
        if (current && current.length + 1 + sentence.length > CHUNK_MAX) close();
        current = current ? `${current}${current.endsWith("\n") ? "" : " "}${sentence}` : sentence;
        if (current.length >= CHUNK_MIN) close();
      }
      if (current) current += "\n";
    }
    close();
  });
  return chunks;
}
