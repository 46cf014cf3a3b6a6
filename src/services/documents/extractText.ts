import mammoth from "mammoth";
import { getDocumentProxy } from "unpdf";
import type { DocumentSource, ExtractedDocument } from "../../types/document.js";
import { t } from "../../messages/index.js";
import { MemoError } from "../../utils/errors.js";
import { pageText, type PlacedText } from "./readingOrder.js";
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
  // A phone may send a PDF as a bare binary: its name says what it is.
  const generic = !mime || mime === "application/octet-stream";
  if (mime === "application/pdf" || (generic && /\.pdf$/i.test(fileName ?? ""))) return "pdf";
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

/** Pages read, how many the file has, and whether reading stopped at a limit. */
interface RawPages {
  pages: string[];
  pageCount: number;
  cutShort: boolean;
  /** The title the file itself carries (a PDF's document information), when it has one worth showing. */
  title?: string;
}

async function extractPdf(data: Uint8Array): Promise<RawPages> {
  if (!inflatesWithin(data, PDF_MAX_INFLATED)) throw new Error("the PDF's streams inflate past the cap");
  // pdf.js takes the buffer over (transfers it): it gets a copy, the caller keeps the original.
  const pdf = await getDocumentProxy(new Uint8Array(data));
  const deadline = performance.now() + PDF_DEADLINE_MS;
  try {
    const title = await ownTitle(pdf);
    const titled = title ? { title } : {};
    const pages: string[] = [];
    let characters = 0;
    const last = Math.min(pdf.numPages, MAX_PAGES);
    for (let n = 1; n <= last; n++) {
      if (characters > MAX_CHARS || performance.now() > deadline)
        return { pages, pageCount: pdf.numPages, cutShort: true, ...titled };
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
    return {
      pages,
      pageCount: pdf.numPages,
      cutShort: pdf.numPages > last || characters > MAX_CHARS,
      ...titled,
    };
  } finally {
    await pdf.cleanup();
  }
}

/**
 * The title a PDF's producer wrote into its document information (a browser prints the page's
 * <title>, a word processor the document's): kept when it has words and is not a file name or a
 * placeholder ("Untitled", "Microsoft Word - letter.docx").
 */
async function ownTitle(pdf: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<string | undefined> {
  try {
    const { info } = (await pdf.getMetadata()) as { info?: { Title?: unknown } };
    const title = typeof info?.Title === "string" ? tidyPage(info.Title).replace(/\n/g, " ") : "";
    if ((title.match(/\p{L}/gu)?.length ?? 0) < 3) return undefined;
    if (/^(untitled|microsoft\s+(word|powerpoint)\b|document\d*$)/i.test(title)) return undefined;
    if (/\.(pdf|docx?|html?|txt|odt|rtf)$/i.test(title)) return undefined;
    return title;
  } catch {
    return undefined;
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
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    text = new TextDecoder("windows-1255").decode(data);
  }
  // A zero byte is no text file's: a binary file sent as text is unreadable, not stored as noise.
  if (text.includes("\u0000")) throw new Error("a zero byte in a text file");
  return text;
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
  return (
    text
      .replace(/\r\n?/g, "\n")
      // Control characters (a PDF's stray ones): Postgres refuses a zero byte in text.
      .replace(/(?![\n\t])\p{Cc}/gu, "")
      .split("\n")
      .map((line) => line.replace(/[ \t\u00A0]+/g, " ").trim())
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}

/**
 * The file's own title, else the first line with at least three letters, cut to TITLE_CHARS; else
 * the file name without its extension.
 */
function titleOf(
  own: string | undefined,
  pages: readonly string[],
  fileName: string | null,
  language: "he" | "en",
): string {
  if (own) return own.length > TITLE_CHARS ? `${own.slice(0, TITLE_CHARS - 1).trimEnd()}…` : own;
  for (const page of pages) {
    for (const line of page.split("\n")) {
      const trimmed = line.trim();
      if ((trimmed.match(/\p{L}/gu)?.length ?? 0) < 3) continue;
      return trimmed.length > TITLE_CHARS ? `${trimmed.slice(0, TITLE_CHARS - 1).trimEnd()}…` : trimmed;
    }
  }
  const bare = fileName?.replace(/\.[^.]{1,8}$/, "").trim();
  return bare || t(language, "documents.untitled");
}

/**
 * A document's text, page by page in reading order, and its title. A PDF with no text layer gives
 * pages that are all empty (the caller decides: a page reader, or "could not be read"). Throws
 * DocumentUnreadableError when the file cannot be opened as its kind.
 */
export async function extractText(
  data: Uint8Array,
  kind: DocumentKind,
  file: { fileName: string | null; mimeType: string | null; language?: "he" | "en" },
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
    title: titleOf(raw.title, pages, file.fileName, file.language ?? "en"),
    pages,
    ...(capped.pageCount > pages.length ? { pageCount: capped.pageCount } : {}),
    ...(capped.cutShort ? { cutShort: true as const } : {}),
  };
}

/** Whether extraction found any text at all (a scanned PDF has none). */
export function hasText(document: ExtractedDocument): boolean {
  return document.pages.some((page) => /\p{L}|\p{N}/u.test(page));
}
