/**
 * A PDF page's text in reading order from the pieces pdf.js places on it (docs/MEMORY.md,
 * "Documents"). pdf.js keeps each RTL item's own characters in logical order but lays a line's
 * items out as seen, so a Hebrew line reads backwards; this turns the visual order back into the
 * logical one, the way the Unicode bidi algorithm (UAX #9) displays it, and reads columns one
 * after the other.
 */

/** One piece of text pdf.js places on a page: its string, position and width. */
export interface PlacedText {
  str: string;
  x: number;
  y: number;
  width: number;
  /** The font's height, for telling a word gap from glyphs set close. */
  height: number;
}

type Direction = "rtl" | "ltr";

const RTL_LETTER = /[\u0590-\u05FF\u0600-\u06FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const RTL_LETTERS = /[\u0590-\u05FF\u0600-\u06FF\uFB1D-\uFDFF\uFE70-\uFEFF]/gu;
/** Strong left-to-right letters (digits are weak: "08:15" alone says nothing of the line). */
const LTR_LETTER = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]/u;
const LTR_LETTERS = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]/gu;
const STRONG =
  /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF\u0590-\u05FF\u0600-\u06FF\uFB1D-\uFDFF\uFE70-\uFEFF]/gu;
const DIGIT = /[0-9]/u;
/** A gap between items wider than this many font heights splits a line into columns. */
const COLUMN_GAP = 3;
/** Brackets as an RTL run shows them, and as they were written. */
const MIRROR: Record<string, string> = {
  "(": ")",
  ")": "(",
  "[": "]",
  "]": "[",
  "{": "}",
  "}": "{",
  "<": ">",
  ">": "<",
};

/** A piece's kind in an RTL line: Hebrew/Arabic, Latin (letters), a number (digits, no letters), or neutral. */
function kindOf(text: string): "rtl" | "latin" | "number" | "neutral" {
  if (RTL_LETTER.test(text)) return "rtl";
  if (LTR_LETTER.test(text)) return "latin";
  if (DIGIT.test(text)) return "number";
  return "neutral";
}

function mirrored(text: string): string {
  return text.replace(/[()[\]{}<>]/g, (c) => MIRROR[c] ?? c);
}

/**
 * A line's direction: in a right-to-left page, any line with Hebrew is RTL ("במוזיאון Science
 * Museum"); in a left-to-right page, the first strong letter seen from the left decides. A line
 * with no letters takes the page's.
 */
function lineDirection(visual: string, page: Direction): Direction {
  const hasRtl = RTL_LETTER.test(visual);
  if (!hasRtl) return LTR_LETTER.test(visual) ? "ltr" : page;
  if (page === "rtl") return "rtl";
  const first = visual.match(STRONG)?.[0] ?? "";
  return RTL_LETTER.test(first) ? "rtl" : "ltr";
}

/** A page's main direction: the side with more strong letters. */
function pageDirection(items: readonly PlacedText[]): Direction {
  let rtl = 0;
  let ltr = 0;
  for (const item of items) {
    rtl += item.str.match(RTL_LETTERS)?.length ?? 0;
    ltr += item.str.match(LTR_LETTERS)?.length ?? 0;
  }
  return rtl > ltr ? "rtl" : "ltr";
}

/**
 * One line's logical text from its items in visual order (left to right). For an RTL line the
 * units are reversed: a Latin run (Latin pieces, with the neutrals and numbers that follow a word:
 * "Science Museum", "Museum 2027") keeps its own left-to-right order; each number is a unit of its
 * own ("14:30 - 08:15" seen is "08:15 - 14:30" written, as UAX #9 shows numbers in RTL text);
 * brackets in the reversed pieces are mirrored back; punctuation pdf.js glued to the visual left
 * of a number (".14:30") ends it in reading order.
 */
function logicalLine(items: readonly PlacedText[], page: Direction): string {
  // Word gaps pdf.js did not write as space items (LibreOffice's PDFs) become spaces.
  const raw: string[] = [];
  items.forEach((item, i) => {
    const previous = items[i - 1];
    if (previous) {
      const gap = item.x - (previous.x + previous.width);
      const touching = /\s$/.test(previous.str) || /^\s/.test(item.str);
      if (!touching && gap > Math.max(1, item.height * 0.15)) raw.push(" ");
    }
    raw.push(item.str);
  });
  const visual = raw.join("");
  if (lineDirection(visual, page) === "ltr") return visual.replace(/\s+/g, " ").trim();
  // A piece of numbers only, with spaces between them ("14:30 - 08:15"), is several units.
  const pieces = raw.flatMap((piece) =>
    kindOf(piece) === "number" ? piece.split(/(\s+)/).filter((p) => p !== "") : [piece],
  );
  const units: string[] = [];
  let run: string[] = [];
  let runHasLatin = false;
  let pendingNeutral: string[] = [];
  const closeRun = () => {
    if (run.length > 0) units.push(ltrRunInRtl(run.join("")));
    run = [];
    runHasLatin = false;
    units.push(...pendingNeutral.map(mirrored));
    pendingNeutral = [];
  };
  for (const piece of pieces) {
    const kind = kindOf(piece);
    if (kind === "latin" || kind === "number") {
      // Only a run with a word in it reaches over spaces: numbers stay units of their own, but
      // "08:15-14:30" (a separator between numbers, no space) is one number (UAX #9, W4).
      const between = pendingNeutral.join("");
      const joined = runHasLatin || between === "" || (kind === "number" && /^[-/:.,]$/.test(between));
      if (run.length > 0 && !joined) closeRun();
      run.push(...pendingNeutral, piece);
      pendingNeutral = [];
      runHasLatin ||= kind === "latin";
    } else if (kind === "neutral" && run.length > 0) {
      pendingNeutral.push(piece);
    } else {
      closeRun();
      units.push(mirrored(piece));
    }
  }
  closeRun();
  return units.reverse().join("").replace(/\s+/g, " ").trim();
}

/** An LTR run inside an RTL line: punctuation on its visual left ends it in reading order (".14:30" → "14:30."). */
function ltrRunInRtl(run: string): string {
  const match = /^([.,;:!?]+)(.*)$/su.exec(run);
  return match ? `${match[2]}${match[1]}` : run;
}

interface Line {
  y: number;
  items: PlacedText[];
}

/** A line's items in visual order, split into columns where the gap is wider than COLUMN_GAP font heights. */
function segmentsOf(line: Line): PlacedText[][] {
  const sorted = [...line.items].sort((a, b) => a.x - b.x);
  const segments: PlacedText[][] = [];
  sorted.forEach((item, i) => {
    const previous = sorted[i - 1];
    const gap = previous ? item.x - (previous.x + previous.width) : 0;
    if (!previous || gap > COLUMN_GAP * Math.max(item.height, previous.height)) segments.push([item]);
    else segments.at(-1)!.push(item);
  });
  return segments;
}

const left = (segment: readonly PlacedText[]) => Math.min(...segment.map((item) => item.x));
const right = (segment: readonly PlacedText[]) => Math.max(...segment.map((item) => item.x + item.width));

/**
 * The page's lines in reading order, columns read one after the other: a run of lines split by a
 * wide gap is a block of columns, each read top to bottom (the right one first in an RTL page); a
 * line that crosses the gap (a heading across the page) ends the block.
 */
function readingLines(lines: readonly Line[], direction: Direction): Line[] {
  const out: Line[] = [];
  let columns: { split: number; left: Line[]; right: Line[] } | null = null;
  const closeBlock = () => {
    if (!columns) return;
    const [first, second] =
      direction === "rtl" ? [columns.right, columns.left] : [columns.left, columns.right];
    out.push(...first, ...second);
    columns = null;
  };
  for (const line of lines) {
    const segments = segmentsOf(line);
    if (segments.length === 2) {
      const split = (right(segments[0]!) + left(segments[1]!)) / 2;
      if (!columns || Math.abs(columns.split - split) > 5 * (line.items[0]?.height ?? 10)) {
        closeBlock();
        columns = { split, left: [], right: [] };
      }
      columns.left.push({ y: line.y, items: segments[0]! });
      columns.right.push({ y: line.y, items: segments[1]! });
      continue;
    }
    if (columns && segments.length === 1) {
      const only = segments[0]!;
      if (right(only) <= columns.split) {
        columns.left.push(line);
        continue;
      }
      if (left(only) >= columns.split) {
        columns.right.push(line);
        continue;
      }
    }
    closeBlock();
    // More than two pieces far apart (a table row): read as one line.
    out.push(line);
  }
  closeBlock();
  return out;
}

/** A page's text in reading order: its items grouped into lines by their baseline, top to bottom. */
export function pageText(items: readonly PlacedText[]): string {
  const lines: Line[] = [];
  for (const item of items) {
    if (item.str === "") continue;
    const tolerance = Math.max(2, item.height * 0.4);
    const line = lines.find((l) => Math.abs(l.y - item.y) <= tolerance);
    if (line) line.items.push(item);
    else lines.push({ y: item.y, items: [item] });
  }
  // PDF's y grows upwards: the top line has the largest y.
  lines.sort((a, b) => b.y - a.y);
  const direction = pageDirection(items);
  const ordered = readingLines(lines, direction);
  // A paragraph break is a gap clearly wider than the page's closest line spacing; the lines of
  // one paragraph are joined with a space (a sentence wrapped by the producer reads whole).
  const gaps = lines.slice(1).map((line, i) => lines[i]!.y - line.y);
  const lineGap = Math.min(...gaps.filter((gap) => gap > 1));
  let text = "";
  ordered.forEach((line, i) => {
    const logical = logicalLine(
      [...line.items].sort((a, b) => a.x - b.x),
      direction,
    );
    if (!logical) return;
    const previous = ordered[i - 1];
    const gap = previous ? previous.y - line.y : 0;
    if (text) text += gap > lineGap * 1.3 || gap < 0 ? "\n" : " ";
    text += logical;
  });
  return text;
}
