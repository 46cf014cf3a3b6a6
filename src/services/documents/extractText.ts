import mammoth from "mammoth";
import { getDocumentProxy } from "unpdf";
import type { DocumentSource, ExtractedDocument } from "../../types/document.js";
import { MemoError } from "../../utils/errors.js";
import { inflatesWithin } from "./rawPdfObjects.js";
import { checkZipSizes } from "./zipSizes.js";

/**
 * A document's text in reading order (docs/MEMORY.md, "Documents"): PDF through pdf.js (unpdf),
 * DOCX through mammoth, plain text through TextDecoder. Nothing is written to disk.
 */

/** What kind of file a document is, by its MIME type or, for text, its file name; null: not one Memo reads. */
export type DocumentKind = "pdf" | "docx" | "text";

const DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
/** File names read as plain text whatever MIME type the phone gave them. */
const TEXT_NAME = /\.(?:txt|md|markdown|csv)$/i;

/** The kind of a document, from its MIME type and file name; null when Memo cannot read it. */
export function documentKind(
  mimeType: string | null | undefined,
  fileName?: string | null,
): DocumentKind | null {
  const mime = (mimeType ?? "").split(";")[0]!.trim().toLowerCase();
  if (mime === "application/pdf" || (!mime && /\.pdf$/i.test(fileName ?? ""))) return "pdf";
  if (mime === DOCX_MIME || /\.docx$/i.test(fileName ?? "")) return "docx";
  if (mime === "text/plain" || mime === "text/markdown" || mime === "text/csv") return "text";
  if (TEXT_NAME.test(fileName ?? "")) return "text";
  return null;
}

/** The file was of its kind but its text could not be read (corrupt, encrypted, not what it said). */
export class DocumentUnreadableError extends MemoError {}

/** Characters a title keeps. */
const TITLE_CHARS = 80;
/** Pages of a PDF read; a longer file keeps its first ones and the reply says it was cut short. */
const MAX_PAGES = 200;
/** Characters of text kept in all (about 400 chunks); the rest is cut and the reply says so. */
const MAX_CHARS = 300_000;
/** Milliseconds a PDF's pages are read for; what was read by then is kept, cut short. */
const PDF_DEADLINE_MS = 30_000;
/** What a PDF's compressed streams may inflate to in all before pdf.js opens it. */
const PDF_MAX_INFLATED = 64 * 1024 * 1024;
/** A DOCX's word/document.xml and all its entries, inflated: past these it is refused unread. */
const DOCX_MAX_DOCUMENT_XML = 20 * 1024 * 1024;
const DOCX_MAX_TOTAL = 50 * 1024 * 1024;

/** One piece of text pdf.js places on a page: its string, position and width. */
interface PlacedText {
  str: string;
  x: number;
  y: number;
  width: number;
  /** The font's height, for telling a word gap from glyphs set close. */
  height: number;
}

const RTL_LETTER = /[\u0590-\u05FF\u0600-\u06FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const RTL_LETTERS = /[\u0590-\u05FF\u0600-\u06FF\uFB1D-\uFDFF\uFE70-\uFEFF]/gu;
/** Strong left-to-right letters (digits are weak: "08:15" alone says nothing of the line). */
const LTR_LETTERS = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]/gu;
const LTR_OR_DIGIT = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF0-9]/u;

type Direction = "rtl" | "ltr" | "neutral";

/** An item's direction: RTL letters make it RTL, Latin letters or digits LTR, else neutral (spaces, punctuation). */
function directionOf(text: string): Direction {
  if (RTL_LETTER.test(text)) return "rtl";
  if (LTR_OR_DIGIT.test(text)) return "ltr";
  return "neutral";
}

/** A line's own direction: the side with more strong letters; null when it has none (only digits, marks). */
function lineDirection(text: string): "rtl" | "ltr" | null {
  const rtl = text.match(RTL_LETTERS)?.length ?? 0;
  const ltr = text.match(LTR_LETTERS)?.length ?? 0;
  if (rtl === 0 && ltr === 0) return null;
  return rtl >= ltr ? "rtl" : "ltr";
}

/**
 * One line's logical text from its items in visual order (left to right). pdf.js keeps each RTL
 * item's own characters in logical order but lays a line's items out as seen, so an RTL line reads
 * backwards ("2027 במרץ 1 תאריך:"). For an RTL line the runs are reversed, keeping each LTR run
 * (consecutive LTR items and the neutral spaces between them: "Science Museum", "08:15") in its
 * own left-to-right order; punctuation pdf.js glued to the visual left of a number (".14:30")
 * is the end of that run in reading order.
 */
function logicalLine(
  items: readonly PlacedText[],
  inherited: "rtl" | "ltr",
): { text: string; dir: "rtl" | "ltr" } {
  // Word gaps pdf.js did not write as space items (LibreOffice's PDFs) become spaces.
  const pieces: string[] = [];
  items.forEach((item, i) => {
    const previous = items[i - 1];
    if (previous) {
      const gap = item.x - (previous.x + previous.width);
      const touching = /\s$/.test(previous.str) || /^\s/.test(item.str);
      if (!touching && gap > Math.max(1, item.height * 0.15)) pieces.push(" ");
    }
    pieces.push(item.str);
  });
  const visual = pieces.join("");
  const dir = lineDirection(visual) ?? inherited;
  if (dir === "ltr") return { text: visual.replace(/\s+/g, " ").trim(), dir };
  // Units in visual order: an LTR run (LTR pieces with the neutrals between them), or one other piece.
  const units: string[] = [];
  let run: string[] = [];
  let pendingNeutral: string[] = [];
  const closeRun = () => {
    if (run.length > 0) units.push(ltrRunInRtl(run.join("")));
    run = [];
    units.push(...pendingNeutral);
    pendingNeutral = [];
  };
  for (const piece of pieces) {
    const direction = directionOf(piece);
    if (direction === "ltr") {
      run.push(...pendingNeutral, piece);
      pendingNeutral = [];
    } else if (direction === "neutral" && run.length > 0) {
      pendingNeutral.push(piece);
    } else {
      closeRun();
      units.push(piece);
    }
  }
  closeRun();
  return { text: units.reverse().join("").replace(/\s+/g, " ").trim(), dir };
}

/** An LTR run inside an RTL line: punctuation on its visual left ends it in reading order (".14:30" → "14:30."). */
function ltrRunInRtl(run: string): string {
  const match = /^([.,;:!?]+)(.*)$/su.exec(run);
  return match ? `${match[2]}${match[1]}` : run;
}

/** A page's text in reading order: its items grouped into lines by their baseline, top to bottom. */
function pageText(items: readonly PlacedText[]): string {
  const lines: { y: number; items: PlacedText[] }[] = [];
  for (const item of items) {
    if (item.str === "") continue;
    const tolerance = Math.max(2, item.height * 0.4);
    const line = lines.find((l) => Math.abs(l.y - item.y) <= tolerance);
    if (line) line.items.push(item);
    else lines.push({ y: item.y, items: [item] });
  }
  // PDF's y grows upwards: the top line has the largest y.
  lines.sort((a, b) => b.y - a.y);
  // A paragraph break is a gap clearly wider than the page's closest line spacing; the lines of
  // one paragraph are joined with a space (a sentence wrapped by the producer reads whole).
  const gaps = lines.slice(1).map((line, i) => lines[i]!.y - line.y);
  const lineGap = Math.min(...gaps.filter((gap) => gap > 1));
  let direction: "rtl" | "ltr" = "ltr";
  let text = "";
  lines.forEach((line, i) => {
    const logical = logicalLine(
      [...line.items].sort((a, b) => a.x - b.x),
      direction,
    );
    direction = logical.dir;
    if (!logical.text) return;
    if (text) text += i > 0 && gaps[i - 1]! > lineGap * 1.3 ? "\n" : " ";
    text += logical.text;
  });
  return text;
}

/** Pages read, how many the file has, and whether reading stopped at a limit. */
interface RawPages {
  pages: string[];
  pageCount: number;
  cutShort: boolean;
}

async function extractPdf(data: Uint8Array): Promise<RawPages> {
  if (!inflatesWithin(data, PDF_MAX_INFLATED)) throw new Error("the PDF's streams inflate past the cap");
  // pdf.js takes the buffer over (transfers it): it gets a copy, the caller keeps the original.
  const pdf = await getDocumentProxy(new Uint8Array(data));
  const deadline = performance.now() + PDF_DEADLINE_MS;
  try {
    const pages: string[] = [];
    let characters = 0;
    const last = Math.min(pdf.numPages, MAX_PAGES);
    for (let n = 1; n <= last; n++) {
      if (characters > MAX_CHARS || performance.now() > deadline)
        return { pages, pageCount: pdf.numPages, cutShort: true };
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const placed: PlacedText[] = [];
      for (const item of content.items) {
        if (!("str" in item)) continue;
        placed.push({
          str: item.str,
          x: item.transform[4] as number,
          y: item.transform[5] as number,
          width: item.width,
          height: item.height || Math.abs(item.transform[3] as number) || 10,
        });
      }
      const text = pageText(placed);
      characters += text.length;
      pages.push(text);
      page.cleanup();
    }
    return { pages, pageCount: pdf.numPages, cutShort: pdf.numPages > last || characters > MAX_CHARS };
  } finally {
    await pdf.cleanup();
  }
}

async function extractDocx(data: Uint8Array): Promise<RawPages> {
  // A zip bomb is refused before mammoth (JSZip) inflates it whole.
  checkZipSizes(data, {
    named: "word/document.xml",
    maxNamed: DOCX_MAX_DOCUMENT_XML,
    maxEntry: DOCX_MAX_DOCUMENT_XML,
    maxTotal: DOCX_MAX_TOTAL,
  });
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(data) });
  return { pages: [value], pageCount: 1, cutShort: false };
}

/**
 * Plain text: UTF-16 when it starts with a byte-order mark, else UTF-8 (its BOM dropped), else
 * (not valid UTF-8) windows-1255, what Hebrew Windows writes.
 */
function decodeText(data: Uint8Array): string {
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder("utf-16le").decode(data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder("utf-16be").decode(data.subarray(2));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return new TextDecoder("windows-1255").decode(data);
  }
}

/** Pages cut to MAX_CHARS characters in all: the page where the cap falls is cut, later ones dropped. */
function capCharacters(raw: RawPages): RawPages {
  const pages: string[] = [];
  let left = MAX_CHARS;
  for (const page of raw.pages) {
    if (page.length > left) {
      pages.push(page.slice(0, left));
      return { pages, pageCount: raw.pageCount, cutShort: true };
    }
    left -= page.length;
    pages.push(page);
  }
  return { pages, pageCount: raw.pageCount, cutShort: raw.cutShort };
}

/** Blank lines folded, spaces trimmed, Windows line ends made plain. */
function tidyPage(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[ \t\u00A0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The first line with at least three letters, cut to TITLE_CHARS; else the file name without its extension. */
function titleOf(pages: readonly string[], fileName: string | null): string {
  for (const page of pages) {
    for (const line of page.split("\n")) {
      const trimmed = line.trim();
      if ((trimmed.match(/\p{L}/gu)?.length ?? 0) < 3) continue;
      return trimmed.length > TITLE_CHARS ? `${trimmed.slice(0, TITLE_CHARS - 1).trimEnd()}…` : trimmed;
    }
  }
  const bare = fileName?.replace(/\.[^.]{1,8}$/, "").trim();
  return bare || "Document";
}

/**
 * A document's text, page by page in reading order, and its title. A PDF with no text layer gives
 * pages that are all empty (the caller decides: a page reader, or "could not be read"). Throws
 * DocumentUnreadableError when the file cannot be opened as its kind.
 */
export async function extractText(
  data: Uint8Array,
  kind: DocumentKind,
  file: { fileName: string | null; mimeType: string | null },
): Promise<ExtractedDocument> {
  let raw: RawPages;
  try {
    raw =
      kind === "pdf"
        ? await extractPdf(data)
        : kind === "docx"
          ? await extractDocx(data)
          : { pages: [decodeText(data)], pageCount: 1, cutShort: false };
  } catch (error) {
    throw new DocumentUnreadableError(`the ${kind} file could not be opened`, { kind }, { cause: error });
  }
  const capped = capCharacters(raw);
  const pages = capped.pages.map(tidyPage);
  const source: DocumentSource = kind;
  return {
    source,
    fileName: file.fileName,
    mimeType: file.mimeType,
    title: titleOf(pages, file.fileName),
    pages,
    ...(capped.pageCount > pages.length ? { pageCount: capped.pageCount } : {}),
    ...(capped.cutShort ? { cutShort: true as const } : {}),
  };
}

/** Whether extraction found any text at all (a scanned PDF has none). */
export function hasText(document: ExtractedDocument): boolean {
  return document.pages.some((page) => /\p{L}|\p{N}/u.test(page));
}
