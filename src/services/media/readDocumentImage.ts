import {
  DOCUMENT_IMAGE_SYSTEM_PROMPT,
  DocumentImageAnswerSchema,
} from "../../prompts/documentImagePrompt.js";
import type { LLMService, LLMUsage } from "../../types/llm.js";

/** The most text kept from one page (a dense A4 page is about 5,000 characters). */
const MAX_PAGE_CHARACTERS = 20_000;
/** The most characters of a title. */
const MAX_TITLE_CHARACTERS = 120;

/** A page's text as the vision model read it. */
export interface DocumentImageReading {
  /** The page's text in reading order (Hebrew in logical order), trimmed; empty when none. */
  text: string;
  /** A short title in the page's language; empty when the model gave none. */
  title: string;
  /** The image is a page with text at all (not a photo of people, a meme…). */
  isDocument: boolean;
  /** What the call cost, for the turn's usage. */
  usage: LLMUsage;
}

/**
 * Reads the text of a document's page from an image (a photo of a page, a page of a scanned PDF)
 * with the vision model, in reading order, with a short title and whether it is a document at all.
 * The text is data (D14): the prompt tells the model to transcribe orders, never follow them, and
 * nothing here acts on it.
 */
export async function readDocumentImage(
  llm: LLMService,
  image: { data: Buffer; mimeType: string },
  language: "he" | "en",
): Promise<DocumentImageReading> {
  const { value, usage } = await llm.structured(
    "imageAnalysis",
    DocumentImageAnswerSchema,
    [
      { role: "system", content: DOCUMENT_IMAGE_SYSTEM_PROMPT },
      {
        role: "user",
        content: [
          { type: "text", text: `The user's language: ${language}` },
          { type: "image", mimeType: image.mimeType, data: image.data },
        ],
      },
    ],
    { name: "document_image" },
  );
  const text = value.text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+\n/g, "\n")
    .trim()
    .slice(0, MAX_PAGE_CHARACTERS);
  const title = value.title.replace(/\s+/g, " ").trim().slice(0, MAX_TITLE_CHARACTERS);
  return { text, title, isDocument: value.isDocument, usage };
}
