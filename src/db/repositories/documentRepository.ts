import type { DocumentSource } from "../../types/document.js";
import type { Queryable } from "../transaction.js";
import { isUuid } from "./taskRepository.js";

/** A stored document (docs/MEMORY.md, "Documents"). Times are ISO strings. */
export interface StoredDocument {
  id: string;
  /** Its head note (null only while it is being stored). */
  noteId: string | null;
  title: string;
  fileName: string | null;
  mimeType: string | null;
  source: DocumentSource;
  pageCount: number;
  byteSize: number;
  createdAt: string;
}

/** A stored document with its head note's content and its chunks' text by page, in order. */
export interface DocumentWithText {
  document: StoredDocument;
  head: string;
  chunks: { page: number | null; text: string }[];
}

/** What a new document row is made of; its text goes into notes (NoteRepository). */
export interface NewDocument {
  title: string;
  fileName: string | null;
  mimeType: string | null;
  source: DocumentSource;
  pageCount: number;
  byteSize: number;
  sha256: string | null;
  /** The original file, kept only when re-extraction needs it (the caller enforces the cap). */
  original: { data: Uint8Array; mimeType: string } | null;
  /** The storing operation: a second insert with the same id stores nothing and returns the first. */
  operationId: string | null;
}

/** Storage of documents; every method is scoped by the owner's phone. */
interface DocumentRepository {
  /** Stores the row; `created` false when this owner's `operationId` stored one already (that one is returned). */
  insert(phone: string, document: NewDocument): Promise<{ document: StoredDocument; created: boolean }>;
  /** Links the document to its head note. */
  setHeadNote(phone: string, id: string, noteId: string): Promise<void>;
  /** The owner's documents, newest first, and how many there are. */
  list(
    phone: string,
    page?: { limit?: number; offset?: number },
  ): Promise<{ documents: StoredDocument[]; total: number }>;
  /**
   * The document this owner's `operationId` stored, with its head note's content and its chunks'
   * text by page (in order); null when none (a retried message reads its file only once).
   */
  byOperation(phone: string, operationId: string): Promise<DocumentWithText | null>;
  /** The owner's newest document of these bytes (its sha256, hex), as `byOperation` gives it; null when none. */
  bySha256(phone: string, sha256: string): Promise<DocumentWithText | null>;
  /** The owner's documents whose head notes are among `noteIds`. */
  byHeadNotes(phone: string, noteIds: readonly string[]): Promise<StoredDocument[]>;
}

interface DocumentRow {
  id: string;
  note_id: string | null;
  title: string;
  file_name: string | null;
  mime_type: string | null;
  source: DocumentSource;
  page_count: number;
  byte_size: number;
  created_at: Date;
}

/** Every column but the original file (read only when re-extracting). */
const COLUMNS = "id, note_id, title, file_name, mime_type, source, page_count, byte_size, created_at";

const toDocument = (row: DocumentRow): StoredDocument => ({
  id: row.id,
  noteId: row.note_id,
  title: row.title,
  fileName: row.file_name,
  mimeType: row.mime_type,
  source: row.source,
  pageCount: row.page_count,
  byteSize: row.byte_size,
  createdAt: row.created_at.toISOString(),
});

/** DocumentRepository in plain SQL, on the pool or on a transaction's client. */
export class PgDocumentRepository implements DocumentRepository {
  constructor(private readonly db: Queryable) {}

  async insert(
    phone: string,
    document: NewDocument,
  ): Promise<{ document: StoredDocument; created: boolean }> {
    const { rows } = await this.db.query<DocumentRow>(
      `INSERT INTO documents (user_phone, title, file_name, mime_type, source, page_count, byte_size, sha256,
                              original, original_mime_type, created_by_operation)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (user_phone, created_by_operation) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        phone,
        document.title,
        document.fileName,
        document.mimeType,
        document.source,
        document.pageCount,
        document.byteSize,
        document.sha256,
        document.original ? Buffer.from(document.original.data) : null,
        document.original?.mimeType ?? null,
        document.operationId,
      ],
    );
    if (rows[0]) return { document: toDocument(rows[0]), created: true };
    // Only an operation id already used by this owner conflicts (a NULL one never does).
    const existing = await this.db.query<DocumentRow>(
      `SELECT ${COLUMNS} FROM documents WHERE user_phone = $1 AND created_by_operation = $2`,
      [phone, document.operationId],
    );
    if (!existing.rows[0])
      throw new Error(`document of operation ${document.operationId} vanished during its insert`);
    return { document: toDocument(existing.rows[0]), created: false };
  }

  async setHeadNote(phone: string, id: string, noteId: string): Promise<void> {
    await this.db.query("UPDATE documents SET note_id = $3 WHERE user_phone = $1 AND id = $2", [
      phone,
      id,
      noteId,
    ]);
  }

  async list(
    phone: string,
    page: { limit?: number; offset?: number } = {},
  ): Promise<{ documents: StoredDocument[]; total: number }> {
    const { rows } = await this.db.query<DocumentRow & { total: number }>(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM documents
        WHERE user_phone = $1 AND note_id IS NOT NULL
        ORDER BY created_at DESC, id
        LIMIT $2 OFFSET $3`,
      [phone, Math.max(0, page.limit ?? 20), Math.max(0, page.offset ?? 0)],
    );
    if (rows.length === 0 && (page.offset ?? 0) > 0) {
      const counted = await this.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM documents WHERE user_phone = $1 AND note_id IS NOT NULL",
        [phone],
      );
      return { documents: [], total: counted.rows[0]?.n ?? 0 };
    }
    return { documents: rows.map(toDocument), total: rows[0]?.total ?? 0 };
  }

  async byOperation(phone: string, operationId: string): Promise<DocumentWithText | null> {
    const { rows } = await this.db.query<DocumentRow>(
      `SELECT ${COLUMNS} FROM documents
        WHERE user_phone = $1 AND created_by_operation = $2 AND note_id IS NOT NULL`,
      [phone, operationId],
    );
    return this.withNotes(phone, rows[0]);
  }

  async bySha256(phone: string, sha256: string): Promise<DocumentWithText | null> {
    const { rows } = await this.db.query<DocumentRow>(
      `SELECT ${COLUMNS} FROM documents
        WHERE user_phone = $1 AND sha256 = $2 AND note_id IS NOT NULL
        ORDER BY created_at DESC LIMIT 1`,
      [phone, sha256],
    );
    return this.withNotes(phone, rows[0]);
  }

  /** A stored document with its head note's content and its chunks' text by page, in order. */
  private async withNotes(phone: string, row: DocumentRow | undefined): Promise<DocumentWithText | null> {
    if (!row) return null;
    const notes = await this.db.query<{ id: string; content: string; page: number | null }>(
      `SELECT id, content, page FROM notes
        WHERE user_phone = $1 AND document_id = $2
        ORDER BY chunk_index NULLS FIRST`,
      [phone, row.id],
    );
    const head = notes.rows.find((note) => note.id === row.note_id)?.content ?? "";
    const chunks = notes.rows
      .filter((note) => note.id !== row.note_id)
      .map((note) => ({ page: note.page, text: note.content }));
    return { document: toDocument(row), head, chunks };
  }

  async byHeadNotes(phone: string, noteIds: readonly string[]): Promise<StoredDocument[]> {
    const valid = [...new Set(noteIds.filter(isUuid).map((id) => id.toLowerCase()))];
    if (valid.length === 0) return [];
    const { rows } = await this.db.query<DocumentRow>(
      `SELECT ${COLUMNS} FROM documents WHERE user_phone = $1 AND note_id = ANY($2::uuid[])`,
      [phone, valid],
    );
    return rows.map(toDocument);
  }
}
