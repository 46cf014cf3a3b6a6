import { createHash } from "node:crypto";
import type { DocumentRepositories } from "../../db/storage.js";
import type { DocumentWithText, StoredDocument } from "../../db/repositories/documentRepository.js";
import type { Storage } from "../../db/transaction.js";
import type { DocumentContext, ExtractedDocument } from "../../types/document.js";
import { chunkPages } from "./chunking.js";

/** Characters of a document's text its head note and its context show (default: 400). */
const EXCERPT_CHARS = 400;
/** Longest original file kept in Postgres (default: 5 MB); a larger one keeps only its text. */
const ORIGINAL_MAX_BYTES = 5 * 1024 * 1024;
/** Characters of a title kept (the documents table's check). */
const TITLE_CHARS = 200;
/** Characters of a title a chunk carries as its category (the notes table's check). */
const CATEGORY_CHARS = 100;
/** Characters of a file name kept (the documents table's check), its extension kept. */
const FILE_NAME_CHARS = 300;
/** Chunks kept of one document (with MAX_CHARS of extraction, about all of them). */
const MAX_CHUNKS = 400;

export interface StoreOptions {
  /** The storing operation (e.g. the WhatsApp message id): a retried turn stores the document once. */
  operationId?: string;
  /** conversation_messages.id of the message it came with. */
  sourceMessageId?: number;
  /** The file's size in bytes and its bytes, for the size and the SHA-256 recorded. */
  file?: Uint8Array;
}

/** The start of a text on one line, cut at a word. */
function excerptOf(text: string, max = EXCERPT_CHARS): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A file name within FILE_NAME_CHARS, its extension (up to 10 characters) kept. */
function fileNameWithin(name: string | null): string | null {
  if (name === null || name.length <= FILE_NAME_CHARS) return name;
  const extension = /\.[^.\s]{1,10}$/.exec(name)?.[0] ?? "";
  return `${name.slice(0, FILE_NAME_CHARS - extension.length - 1)}…${extension}`;
}

/** What a stored document hands a turn. */
function contextOf(document: StoredDocument, noteId: string, excerpt: string): DocumentContext {
  return {
    documentId: document.id,
    noteId,
    title: document.title,
    fileName: document.fileName,
    source: document.source,
    pageCount: document.pageCount,
    excerpt,
  };
}

/**
 * Documents in the second brain (docs/MEMORY.md, "Documents"): a document is a row in
 * `documents`, one head note (title, file name, pages, the start of its text) and chunk notes
 * (600–900 characters, each with its page) that the notes' hybrid search finds. Everything is in
 * Postgres; nothing on local disk.
 */
export class DocumentService {
  constructor(
    private readonly storage: Storage<DocumentRepositories>,
    /** Called after a document is stored: its notes wait for embeddings (the background job's kick). */
    private readonly onStored: () => void = () => undefined,
  ) {}

  /**
   * Stores a document, its head note and its chunks in one transaction, and returns what a turn
   * needs of it. With an `operationId` already used, returns the document stored then.
   */
  async store(
    phone: string,
    extracted: ExtractedDocument,
    options: StoreOptions = {},
  ): Promise<DocumentContext> {
    const text = extracted.pages.join("\n\n");
    const excerpt = excerptOf(text);
    const title = excerptOf(extracted.title, TITLE_CHARS) || "Document";
    const paged = extracted.source === "pdf" || extracted.source === "scan";
    const pageCount = paged ? Math.max(extracted.pages.length, extracted.pageCount ?? 0) : 1;
    const fileName = fileNameWithin(extracted.fileName);
    const original =
      extracted.original && extracted.original.data.byteLength <= ORIGINAL_MAX_BYTES
        ? extracted.original
        : null;
    const stored = await this.storage.transaction(async ({ documents, notes }) => {
      const { document, created } = await documents.insert(phone, {
        title,
        fileName,
        mimeType: extracted.mimeType,
        source: extracted.source,
        pageCount,
        byteSize: options.file?.byteLength ?? 0,
        sha256: options.file ? createHash("sha256").update(options.file).digest("hex") : null,
        original,
        operationId: options.operationId ?? null,
      });
      if (!created && document.noteId) return contextOf(document, document.noteId, excerpt);
      const head = await notes.create(phone, {
        content: headContent(title, fileName, pageCount, paged, excerpt),
        category: null,
        tags: [],
        sourceMessageId: options.sourceMessageId ?? null,
        document: { id: document.id, page: null, chunkIndex: null },
      });
      const category = title.slice(0, CATEGORY_CHARS);
      const chunks = chunkPages(extracted.pages, paged).slice(0, MAX_CHUNKS);
      await notes.createChunks(
        phone,
        document.id,
        category,
        chunks.map((chunk) => ({ content: chunk.text, page: chunk.page })),
        options.sourceMessageId ?? null,
      );
      await documents.setHeadNote(phone, document.id, head.id);
      return contextOf(document, head.id, excerpt);
    });
    this.onStored();
    return stored;
  }

  /**
   * The document an operation stored already (a retried message), with its text by page; null when
   * none. The caller then skips reading the file (and any vision calls) again.
   */
  async storedBy(
    phone: string,
    operationId: string,
  ): Promise<{ context: DocumentContext; pages: string[] } | null> {
    return this.keptAs(await this.storage.repositories.documents.byOperation(phone, operationId));
  }

  /** The document of these very bytes the user sent before (the newest), with its text by page; null when none. */
  async storedSame(
    phone: string,
    file: Uint8Array,
  ): Promise<{ context: DocumentContext; pages: string[] } | null> {
    const sha256 = createHash("sha256").update(file).digest("hex");
    return this.keptAs(await this.storage.repositories.documents.bySha256(phone, sha256));
  }

  private keptAs(found: DocumentWithText | null): { context: DocumentContext; pages: string[] } | null {
    if (!found?.document.noteId) return null;
    const pages: string[] = [];
    for (const chunk of found.chunks) {
      const at = (chunk.page ?? 1) - 1;
      while (pages.length <= at) pages.push("");
      pages[at] = pages[at] ? `${pages[at]}\n${chunk.text}` : chunk.text;
    }
    const excerpt = excerptOf(pages.join("\n\n"));
    return { context: contextOf(found.document, found.document.noteId, excerpt), pages };
  }

  /** The user's documents, newest first (default: 10), and how many there are. */
  list(
    phone: string,
    page: { limit?: number; offset?: number } = {},
  ): Promise<{ documents: StoredDocument[]; total: number }> {
    return this.storage.repositories.documents.list(phone, {
      limit: page.limit ?? 10,
      offset: page.offset ?? 0,
    });
  }
}

/** The head note: what "my notes" shows of a document. */
function headContent(
  title: string,
  fileName: string | null,
  pages: number,
  paged: boolean,
  excerpt: string,
): string {
  const about = [fileName, paged ? `${pages} p.` : null].filter(Boolean).join(" · ");
  return [`📄 ${title}${about ? ` (${about})` : ""}`, excerpt].filter((part) => part !== "").join("\n");
}
