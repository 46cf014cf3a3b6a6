import type { Migration } from "./types.js";

/**
 * Documents (issue 37; docs/MEMORY.md, "Documents"): a PDF, DOCX or text file, a photo of a page,
 * a forwarded message or a long pasted text, kept in Postgres only (several instances share the
 * database, D9; nothing on local disk).
 *
 * - `documents`: one row per document: title, file name, MIME type, where its text came from,
 *   pages, size, SHA-256, and the original file only when re-extraction needs it (a scan or a
 *   photo, read by the image model), under DocumentService's cap. `note_id` is its head note.
 * - `notes.document_id`, `page`, `chunk_index`: a document is one head note (title, file name,
 *   pages, the start of its text: what "my notes" shows) and chunk notes (its text in pieces of
 *   600–900 characters, each with its page) that the existing hybrid search finds (words,
 *   trigrams, embeddings by the background job) but note listings and counts skip
 *   (`chunk_index IS NULL`).
 *
 * Deleting a document deletes its notes; deleting its head note deletes the document (and so its
 * chunks). Both cascade with the user.
 */
export const documentsMigration: Migration = {
  version: 24,
  name: "documents",
  sql: `
    CREATE TABLE documents (
      id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_phone           text NOT NULL REFERENCES users (phone) ON DELETE CASCADE,
      note_id              uuid REFERENCES notes (id) ON DELETE CASCADE,
      title                text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
      file_name            text CHECK (length(file_name) <= 300),
      mime_type            text,
      source               text NOT NULL
                           CHECK (source IN ('pdf', 'docx', 'text', 'photo', 'scan', 'forwarded', 'pasted')),
      page_count           integer NOT NULL CHECK (page_count >= 0),
      byte_size            integer NOT NULL DEFAULT 0 CHECK (byte_size >= 0),
      sha256               text,
      original             bytea,
      original_mime_type   text,
      created_by_operation text,
      created_at           timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_phone, created_by_operation)
    );
    CREATE INDEX documents_owner ON documents (user_phone, created_at);
    CREATE INDEX documents_note ON documents (note_id);

    ALTER TABLE notes ADD COLUMN document_id uuid REFERENCES documents (id) ON DELETE CASCADE;
    ALTER TABLE notes ADD COLUMN page integer;
    ALTER TABLE notes ADD COLUMN chunk_index integer;
    CREATE INDEX notes_document ON notes (document_id, chunk_index);
  `,
};
