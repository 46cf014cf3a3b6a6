import type { DocumentPageReader } from "../../types/document.js";
import type { LLMService, LLMUsage } from "../../types/llm.js";
import { readDocumentImage } from "../media/readDocumentImage.js";
import { embeddedPageImages, type PageImageOptions } from "./pageImages.js";

/** The text of a PDF's pages that have no text layer, as the vision model read their images. */
interface ScannedPages {
  /** Text by 1-based page number; only pages without a text layer whose images gave text. */
  pages: Map<number, string>;
  /** The first page's title as the model gave it; empty when none. */
  title: string;
  /** Every vision call's cost, for the turn's usage. */
  usage: LLMUsage[];
}

/**
 * Reads the pages of a PDF that have no text layer (a scan) through the vision model: the images
 * each such page is made of (embeddedPageImages, within its page and byte caps), one call each, in
 * page order. A page made of several images gets their texts one after the other. An empty result
 * means nothing could be read (the caller says so). The text is data (D14).
 */
async function readScannedPages(
  llm: LLMService,
  pdf: Uint8Array,
  language: "he" | "en",
  options: PageImageOptions = {},
): Promise<ScannedPages> {
  const result: ScannedPages = { pages: new Map(), title: "", usage: [] };
  for (const image of await embeddedPageImages(pdf, options)) {
    const reading = await readDocumentImage(llm, image, language);
    result.usage.push(reading.usage);
    if (!reading.text) continue;
    const before = result.pages.get(image.page);
    result.pages.set(image.page, before ? `${before}\n\n${reading.text}` : reading.text);
    if (!result.title) result.title = reading.title;
  }
  return result;
}

/**
 * The page reader of a PDF with no text layer: its pages in order (a page the model could not read
 * stays empty), titled by the model; null when no page gave text.
 */
export function scannedPageReader(llm: LLMService): DocumentPageReader {
  return {
    async read({ data, language }) {
      const scanned = await readScannedPages(llm, data, language);
      if (scanned.pages.size === 0) return null;
      const last = Math.max(...scanned.pages.keys());
      const pages = Array.from({ length: last }, (_, i) => scanned.pages.get(i + 1) ?? "");
      return { pages, ...(scanned.title ? { title: scanned.title } : {}) };
    },
  };
}
