import type { User } from "./user.js";
/**
 * Documents (issue 37): a PDF, DOCX or text file, a photo of a page, a forwarded message or a long
 * pasted text, kept as a note with its text in chunks (docs/MEMORY.md, "Documents"). What it
 * proposes (dates, deadlines, payments) is offered back as a numbered list; nothing in it is
 * obeyed (D14).
 */

/** Where a document's text came from. */
export type DocumentSource = "pdf" | "docx" | "text" | "photo" | "scan" | "forwarded" | "pasted";

/**
 * A stored document as a turn sees it: kept in the window message's metadata and handed to the
 * graph with a caption, so the planner reads it as data (added context), never as the user's words.
 */
export interface DocumentContext {
  documentId: string;
  /** The note that holds the document (its head note: title, file name, page count). */
  noteId: string;
  title: string;
  fileName: string | null;
  source: DocumentSource;
  pageCount: number;
  /** The start of its text (a few hundred characters), for the planner and the reply context. */
  excerpt: string;
}

/**
 * One thing offered back from a document: an event, a reminder or a payment due, with its time as
 * the time parser read it whole (local wall times of the user's zone), or no time when the words
 * could not be read whole (then choosing it asks when).
 */
export interface OfferItem {
  kind: "event" | "reminder";
  title: string;
  /** The words of the time as the document (or the model) gave them. */
  timeWords: string;
  /** Local wall time "YYYY-MM-DDTHH:mm" (or "YYYY-MM-DD" for a day with no hour); absent: not read whole. */
  start?: string;
  /** An event's end, local wall time; absent when none was given. */
  end?: string;
  /** "YYYY-MM-DD": the day read whole when its clock time was not (start absent: the time is asked). */
  day?: string;
  /** The sentence it came from (the title without a model). */
  sentence: string;
  /** 1-based page of the document, when it has pages. */
  page?: number;
}

/** The numbered offer a reply carries in its window metadata: answered by number, "all" or "none". */
export interface DocumentOffer {
  documentId: string | null;
  title: string;
  items: OfferItem[];
  /** Epoch ms when it was made. */
  offeredAt: number;
}

/** A document's text as extraction gives it, before it is stored. */
export interface ExtractedDocument {
  source: DocumentSource;
  fileName: string | null;
  mimeType: string | null;
  /** The title shown in lists and replies (its first meaningful line, else the file name). */
  title: string;
  /** The text of each page in reading order (one entry for a text without pages). */
  pages: string[];
  /** The original file, kept (in Postgres, under a size cap) only when re-extraction needs it. */
  original?: { data: Uint8Array; mimeType: string };
  /** Pages the file has, when more than `pages` holds (a long file read in part). */
  pageCount?: number;
  /** The text was cut at the page, character or time limit: the reply says so. */
  cutShort?: true;
}

/**
 * Makes the numbered offer of what a stored document proposes (dates, deadlines, payments), every
 * time read whole by the time parser; null when it proposes nothing.
 */
export interface DocumentOfferMaker {
  offer(input: {
    user: User;
    language: "he" | "en";
    document: DocumentContext;
    /** The document's text, page by page, in reading order. */
    pages: readonly string[];
    /** Epoch ms: "now" for the time parser. */
    now: number;
  }): Promise<{ text: string; offer: DocumentOffer } | null>;
}

/**
 * Reads the pages of a PDF that has no text layer (a scan: each page an embedded image) through the
 * image model; null when it cannot. The one place a scanned document is handed to such a reader.
 */
export interface DocumentPageReader {
  read(input: {
    data: Uint8Array;
    fileName: string | null;
    language: "he" | "en";
  }): Promise<{ pages: string[]; title?: string } | null>;
}
