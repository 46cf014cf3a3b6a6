import { noteSearchText, toTsQuery, wordForms } from "../../utils/searchText.js";
import pg from "pg";
import { withTransaction, type Queryable } from "../transaction.js";
import { isUuid } from "./taskRepository.js";

/** A note the user asked Memo to keep (the second brain). Times are ISO strings. */
export interface Note {
  id: string;
  content: string;
  category: string | null;
  /** Free labels, as given. */
  tags: string[];
  /** 0..1 (default: 0.5). */
  importance: number;
  /** conversation_messages.id of the message the note came from, as a decimal string. */
  sourceMessageId: string | null;
  /** The model of the stored embedding; null while the note has none. */
  embeddingModel: string | null;
  createdAt: string;
  updatedAt: string;
  /** The document the note belongs to: its head note (title, pages) or one of its chunks. */
  document?: NoteDocument;
}

/** A document's note as search and replies see it (docs/MEMORY.md, "Documents"). */
interface NoteDocument {
  id: string;
  /** The document's head note (null only while it is being stored). */
  headNoteId: string | null;
  title: string;
  /** 1-based page of a chunk; null for the head note or a text without pages. */
  page: number | null;
  /** A chunk of the text (false: the head note). */
  chunk: boolean;
}

/** What a new note is made of. */
export interface NewNote {
  content: string;
  category?: string | null;
  tags?: readonly string[];
  /** 0..1 (default: 0.5). */
  importance?: number;
  sourceMessageId?: string | number | null;
  /** The creating operation: a second create with the same id stores nothing and returns the first note. */
  operationId?: string | null;
  /** The document the note belongs to; with a `chunkIndex` it is one of its chunks, which listings skip. */
  document?: { id: string; page: number | null; chunkIndex: number | null };
}

/** Fields an update may change. */
export interface NotePatch {
  content?: string;
  category?: string | null;
  tags?: readonly string[];
  importance?: number;
}

/** One candidate of a search list: the note and its score in that list (higher is better). */
export interface RankedNote {
  id: string;
  score: number;
}

/** A note waiting for an embedding of the current model. */
export interface PendingEmbedding {
  userPhone: string;
  id: string;
  content: string;
  category: string | null;
  tags: string[];
  /** The note's updated_at as the database writes it: the embedding is stored only if it still matches. */
  version: string;
}

/** How a database stores embeddings and finds similar words, detected once per repository. */
export interface NoteStorageFeatures {
  /** `embedding` is a pgvector `vector` column (else `real[]`, compared by memo_cosine_similarity). */
  vector: boolean;
  /** pg_trgm is installed (else trigram candidates fall back to substring matching). */
  trigram: boolean;
  /** An HNSW index (pgvector) covers `embedding`: large users' vector search may use it. */
  hnsw: boolean;
}

/**
 * Storage of notes. Every method that reads or changes a user's notes takes the owner's phone and
 * touches only their rows; only `pendingEmbeddings` (the background job's work list) spans users.
 */
export interface NoteRepository {
  /** Stores a note; with an `operationId` already used by this owner, returns that note instead. */
  create(phone: string, note: NewNote): Promise<Note>;
  /** Stores a document's chunk notes in one INSERT (each `document.chunkIndex` set); returns how many. */
  createChunks(
    phone: string,
    documentId: string,
    category: string,
    chunks: readonly { content: string; page: number | null }[],
    sourceMessageId: number | null,
  ): Promise<number>;
  get(phone: string, id: string): Promise<Note | null>;
  /** The owner's notes among `ids`, in the order of `ids`; unknown ids are skipped. */
  getMany(phone: string, ids: readonly string[]): Promise<Note[]>;
  /** The owner's notes, newest first, and how many there are in all (with the category filter); chunks of documents are skipped. */
  list(
    phone: string,
    options?: { limit?: number; offset?: number; category?: string },
  ): Promise<{ notes: Note[]; total: number }>;
  /**
   * Changes a note; null when the owner has none with this id. A change of what is embedded
   * (content, category or tags) clears the embedding, so the background job computes a new one.
   */
  update(phone: string, id: string, patch: NotePatch): Promise<Note | null>;
  /** Deletes the owner's notes among `ids`; returns those deleted. */
  delete(phone: string, ids: readonly string[]): Promise<Note[]>;
  /** Deletes all the owner's notes; returns how many. */
  deleteAll(phone: string): Promise<number>;
  /** Deletes the notes made from these conversation messages; returns how many. */
  deleteFromMessages(phone: string, messageIds: readonly number[]): Promise<number>;
  /** How many notes the user has (a document counts once: its chunks are not counted). */
  count(phone: string): Promise<number>;
  /**
   * Full-text candidates: notes having any form of any query word (one group of forms per word),
   * best first: by the summed rarity (idf) of the words they have, then by ts_rank_cd; and, per
   * group, whether any of the owner's notes has that word.
   */
  textCandidates(
    phone: string,
    groups: readonly (readonly string[])[],
    limit: number,
  ): Promise<{ notes: RankedNote[]; found: boolean[] }>;
  /**
   * Fuzzy candidates for words no note has (typos, unusual forms): among the notes having a word
   * that starts with the same three letters as one of the word's forms, pg_trgm's
   * word_similarity of each word to the note's search_text, counted when at least
   * `minSimilarity`, summed, best first. Without pg_trgm: how many of the words the note
   * contains as substrings.
   */
  trigramCandidates(
    phone: string,
    words: readonly string[],
    options: { limit: number; minSimilarity: number },
  ): Promise<RankedNote[]>;
  /** Semantic candidates: notes embedded by `model`, by cosine similarity to `vector`, at least `minSimilarity`, best first. */
  vectorCandidates(
    phone: string,
    vector: readonly number[],
    options: { model: string; limit: number; minSimilarity: number },
  ): Promise<RankedNote[]>;
  /** Up to `limit` notes of any user with no embedding of `model` (none, or another model's). */
  pendingEmbeddings(model: string, limit: number): Promise<PendingEmbedding[]>;
  /**
   * Stores a note's embedding, unless the note changed since `version` was read (or is gone):
   * returns whether it was stored.
   */
  setEmbedding(
    phone: string,
    id: string,
    vector: readonly number[],
    model: string,
    version: string,
  ): Promise<boolean>;
  /** What this database offers (cached after the first call). */
  features(): Promise<NoteStorageFeatures>;
}

interface NoteRow {
  id: string;
  content: string;
  category: string | null;
  tags: string[];
  importance: number;
  source_message_id: string | null;
  embedding_model: string | null;
  created_at: Date;
  updated_at: Date;
  /** updated_at as the database prints it, to the microsecond (a Date keeps only milliseconds). */
  version: string;
  document_id: string | null;
  page: number | null;
  chunk_index: number | null;
  document_title: string | null;
  document_note_id: string | null;
}

/** Every column but the embedding (6 KB a note, read only by the database itself). */
const NOTE_COLUMNS =
  "id, content, category, tags, importance, source_message_id, embedding_model, created_at, updated_at, " +
  "updated_at::text AS version, document_id, page, chunk_index, " +
  "(SELECT d.title FROM documents d WHERE d.id = notes.document_id) AS document_title, " +
  "(SELECT d.note_id FROM documents d WHERE d.id = notes.document_id) AS document_note_id";

/** Notes the user sees as notes: a document's chunks are found by search, never listed or counted. */
const LISTED = "chunk_index IS NULL";

const toNote = (row: NoteRow): Note => ({
  id: row.id,
  content: row.content,
  category: row.category,
  tags: row.tags,
  importance: row.importance,
  sourceMessageId: row.source_message_id === null ? null : String(row.source_message_id),
  embeddingModel: row.embedding_model,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  ...(row.document_id !== null && {
    document: {
      id: row.document_id,
      headNoteId: row.document_note_id,
      title: row.document_title ?? "",
      page: row.page,
      chunk: row.chunk_index !== null,
    },
  }),
});

/** A vector as pgvector reads it ("[0.1,0.2]"); non-finite numbers were rejected before. */
const vectorLiteral = (vector: readonly number[]) => `[${vector.join(",")}]`;

/** A LIKE pattern matching `text` anywhere, with LIKE's own characters escaped. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/** What embeddings are made of changed: the old vector no longer describes the note. */
const embeddedTextChanged = (before: Note, after: Required<Omit<NotePatch, "importance">>) =>
  before.content !== after.content ||
  before.category !== after.category ||
  before.tags.length !== after.tags.length ||
  before.tags.some((tag, i) => tag !== after.tags[i]);

/** Nearest notes of all users an HNSW search looks at (its hnsw.ef_search), of which the owner's are kept. */
const HNSW_CANDIDATES = 200;

/** The pool itself, not one client of it (a transaction's client is used as it is). */
const isPool = (db: Queryable): db is pg.Pool => db instanceof pg.Pool;

/** Attempts of an update whose note changed between its read and its write (default: 3). */
const UPDATE_ATTEMPTS = 3;

export interface PgNoteRepositoryOptions {
  /** What the database offers, instead of asking it (tests force the fallbacks with this). */
  features?: Partial<NoteStorageFeatures>;
}

/** NoteRepository in plain SQL, on the pool or on a transaction's client. */
export class PgNoteRepository implements NoteRepository {
  private detected: Promise<NoteStorageFeatures> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly options: PgNoteRepositoryOptions = {},
  ) {}

  features(): Promise<NoteStorageFeatures> {
    this.detected ??= this.detect().catch((error: unknown) => {
      // A failed detection (database down) is asked again next time, not cached.
      this.detected = undefined;
      throw error;
    });
    return this.detected;
  }

  /**
   * The embedding column's actual type decides the operators (a server given pgvector after the
   * notes table was made still has a real[] column); pg_trgm's presence decides trigram search.
   */
  private async detect(): Promise<NoteStorageFeatures> {
    const { rows } = await this.db.query<NoteStorageFeatures>(
      `SELECT EXISTS (SELECT 1 FROM pg_attribute
                       WHERE attrelid = 'notes'::regclass AND attname = 'embedding'
                         AND format_type(atttypid, atttypmod) LIKE 'vector%') AS vector,
              EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') AS trigram,
              EXISTS (SELECT 1 FROM pg_indexes
                       WHERE schemaname = current_schema() AND tablename = 'notes'
                         AND indexdef ~* 'USING hnsw \\(embedding vector_cosine_ops\\)') AS hnsw`,
    );
    const found = rows[0] ?? { vector: false, trigram: false, hnsw: false };
    const vector = this.options.features?.vector ?? found.vector;
    return {
      vector,
      trigram: this.options.features?.trigram ?? found.trigram,
      hnsw: vector && (this.options.features?.hnsw ?? found.hnsw),
    };
  }

  async create(phone: string, note: NewNote): Promise<Note> {
    const tags = [...(note.tags ?? [])];
    const category = note.category ?? null;
    const operationId = note.operationId ?? null;
    const { rows } = await this.db.query<NoteRow>(
      `INSERT INTO notes (user_phone, content, category, tags, search_text, importance, source_message_id,
                          created_by_operation, document_id, page, chunk_index)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (user_phone, created_by_operation) DO NOTHING
       RETURNING ${NOTE_COLUMNS}`,
      [
        phone,
        note.content,
        category,
        tags,
        noteSearchText(note.content, category, tags),
        note.importance ?? 0.5,
        note.sourceMessageId ?? null,
        operationId,
        note.document?.id ?? null,
        note.document?.page ?? null,
        note.document?.chunkIndex ?? null,
      ],
    );
    if (rows[0]) return toNote(rows[0]);
    // Only an operation id already used by this owner conflicts (a NULL one never does).
    const existing = await this.db.query<NoteRow>(
      `SELECT ${NOTE_COLUMNS} FROM notes WHERE user_phone = $1 AND created_by_operation = $2`,
      [phone, operationId],
    );
    if (!existing.rows[0]) throw new Error(`note of operation ${operationId} vanished during its insert`);
    return toNote(existing.rows[0]);
  }

  async createChunks(
    phone: string,
    documentId: string,
    category: string,
    chunks: readonly { content: string; page: number | null }[],
    sourceMessageId: number | null,
  ): Promise<number> {
    if (chunks.length === 0) return 0;
    const { rowCount } = await this.db.query(
      `INSERT INTO notes (user_phone, content, category, tags, search_text, importance, source_message_id,
                          document_id, page, chunk_index)
       SELECT $1, chunk.content, $2, '{}'::text[], chunk.search_text, 0.5, $3, $4, chunk.page, chunk.chunk_index
         FROM unnest($5::text[], $6::text[], $7::int[], $8::int[])
              AS chunk(content, search_text, page, chunk_index)`,
      [
        phone,
        category,
        sourceMessageId,
        documentId,
        chunks.map((chunk) => chunk.content),
        chunks.map((chunk) => noteSearchText(chunk.content, category, [])),
        chunks.map((chunk) => chunk.page),
        chunks.map((_, index) => index),
      ],
    );
    return rowCount ?? chunks.length;
  }

  async get(phone: string, id: string): Promise<Note | null> {
    return (await this.getMany(phone, [id]))[0] ?? null;
  }

  async getMany(phone: string, ids: readonly string[]): Promise<Note[]> {
    const valid = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    if (valid.length === 0) return [];
    const { rows } = await this.db.query<NoteRow>(
      `SELECT ${NOTE_COLUMNS} FROM notes WHERE user_phone = $1 AND id = ANY($2::uuid[])`,
      [phone, valid],
    );
    const byId = new Map(rows.map((row) => [row.id, toNote(row)]));
    return valid.flatMap((id) => byId.get(id) ?? []);
  }

  async list(
    phone: string,
    options: { limit?: number; offset?: number; category?: string } = {},
  ): Promise<{ notes: Note[]; total: number }> {
    const category = options.category ?? null;
    const { rows } = await this.db.query<NoteRow>(
      `SELECT ${NOTE_COLUMNS} FROM notes
        WHERE user_phone = $1 AND ${LISTED} AND ($2::text IS NULL OR lower(category) = lower($2))
        ORDER BY created_at DESC, seq DESC
        LIMIT $3 OFFSET $4`,
      [phone, category, Math.max(0, options.limit ?? 20), Math.max(0, options.offset ?? 0)],
    );
    const counted = await this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM notes
        WHERE user_phone = $1 AND ${LISTED} AND ($2::text IS NULL OR lower(category) = lower($2))`,
      [phone, category],
    );
    return { notes: rows.map(toNote), total: counted.rows[0]?.total ?? 0 };
  }

  async update(phone: string, id: string, patch: NotePatch): Promise<Note | null> {
    if (!isUuid(id)) return null;
    for (let attempt = 1; ; attempt++) {
      const { rows: read } = await this.db.query<NoteRow>(
        `SELECT ${NOTE_COLUMNS} FROM notes WHERE user_phone = $1 AND id = $2`,
        [phone, id],
      );
      if (!read[0]) return null;
      const before = toNote(read[0]);
      const after = {
        content: patch.content ?? before.content,
        category: patch.category === undefined ? before.category : patch.category,
        tags: patch.tags === undefined ? before.tags : [...patch.tags],
      };
      const reembed = embeddedTextChanged(before, after);
      // Written only over the version read: a concurrent change is read again, never overwritten.
      const { rows } = await this.db.query<NoteRow>(
        `UPDATE notes
            SET content = $4, category = $5, tags = $6, search_text = $7, importance = $8,
                embedding = CASE WHEN $9::boolean THEN NULL ELSE embedding END,
                embedding_model = CASE WHEN $9::boolean THEN NULL ELSE embedding_model END,
                updated_at = now()
          WHERE user_phone = $1 AND id = $2 AND updated_at = $3::timestamptz
          RETURNING ${NOTE_COLUMNS}`,
        [
          phone,
          before.id,
          read[0].version,
          after.content,
          after.category,
          after.tags,
          noteSearchText(after.content, after.category, after.tags),
          patch.importance ?? before.importance,
          reembed,
        ],
      );
      if (rows[0]) return toNote(rows[0]);
      if (attempt >= UPDATE_ATTEMPTS) throw new Error(`note ${before.id} kept changing during its update`);
    }
  }

  async delete(phone: string, ids: readonly string[]): Promise<Note[]> {
    const valid = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    if (valid.length === 0) return [];
    const { rows } = await this.db.query<NoteRow>(
      `DELETE FROM notes WHERE user_phone = $1 AND id = ANY($2::uuid[]) RETURNING ${NOTE_COLUMNS}`,
      [phone, valid],
    );
    const byId = new Map(rows.map((row) => [row.id, toNote(row)]));
    return valid.flatMap((id) => byId.get(id) ?? []);
  }

  async deleteAll(phone: string): Promise<number> {
    const { rowCount } = await this.db.query("DELETE FROM notes WHERE user_phone = $1", [phone]);
    return rowCount ?? 0;
  }

  async deleteFromMessages(phone: string, messageIds: readonly number[]): Promise<number> {
    const { rowCount } = await this.db.query(
      "DELETE FROM notes WHERE user_phone = $1 AND source_message_id = ANY($2::bigint[])",
      [phone, messageIds],
    );
    return rowCount ?? 0;
  }

  async count(phone: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notes WHERE user_phone = $1 AND ${LISTED}`,
      [phone],
    );
    return rows[0]!.n;
  }

  async textCandidates(
    phone: string,
    groups: readonly (readonly string[])[],
    limit: number,
  ): Promise<{ notes: RankedNote[]; found: boolean[] }> {
    const queries = groups.map((group) => toTsQuery(group));
    const usable = queries.flatMap((query, i) => (query === null ? [] : [{ query, i }]));
    const any = toTsQuery(groups.flat());
    const found = groups.map(() => false);
    if (usable.length === 0 || any === null) return { notes: [], found };
    // Per word: does the note have it (by any of its forms), and how many of the matching notes
    // do. A note scores the rarity of the words it has among them, ln(1 + matching / having),
    // so having more of the words, and the rarer ones, counts most (an idf over the notes the
    // query touches, which needs no count of all the owner's notes). ts_rank_cd (normalization 1:
    // divided by 1 + log(length)) only separates notes having the same words.
    const has = usable.map(({ i }, k) => `(n.search @@ to_tsquery('simple', $${k + 4}))::int AS h${i}`);
    const df = usable.map(({ i }) => `sum(h${i}) OVER ()::int AS df${i}`);
    const idf = usable.map(({ i }) => `CASE WHEN df${i} > 0 THEN h${i} * ln(1 + m / df${i}) ELSE 0 END`);
    const { rows } = await this.db.query<RankedNote & Record<string, number>>(
      `WITH matched AS (
         SELECT n.id, n.created_at, n.seq, ts_rank_cd(n.search, q, 1) AS density, ${has.join(", ")}
           FROM notes n, to_tsquery('simple', $2) AS q
          WHERE n.user_phone = $1 AND n.search @@ q),
       counted AS (SELECT matched.*, count(*) OVER ()::float8 AS m, ${df.join(", ")} FROM matched)
       SELECT id, ${usable.map(({ i }) => `df${i}`).join(", ")},
              (${idf.join(" + ")} + 0.001 * density / (1 + density))::float8 AS score
         FROM counted
        ORDER BY score DESC, created_at DESC, seq DESC
        LIMIT $3`,
      [phone, any, limit, ...usable.map(({ query }) => query)],
    );
    for (const { i } of usable) found[i] = (rows[0]?.[`df${i}`] ?? 0) > 0;
    return { notes: rows.map(({ id, score }) => ({ id, score })), found };
  }

  async trigramCandidates(
    phone: string,
    words: readonly string[],
    options: { limit: number; minSimilarity: number },
  ): Promise<RankedNote[]> {
    const terms = [...new Set(words)].filter((word) => word.length > 0);
    if (terms.length === 0) return [];
    const { trigram } = await this.features();
    if (!trigram) {
      // Without pg_trgm: how many of the words the note contains (a word inside a longer one counts).
      const { rows } = await this.db.query<RankedNote>(
        `SELECT id, score FROM (
           SELECT n.id, n.created_at, n.seq,
                  (SELECT count(*) FROM unnest($2::text[]) AS p WHERE n.search_text LIKE p)::float8 AS score
             FROM notes n
            WHERE n.user_phone = $1 AND n.search_text LIKE ANY($2::text[])) AS c
          ORDER BY score DESC, created_at DESC, seq DESC
          LIMIT $3`,
        [phone, terms.map(containsPattern), options.limit],
      );
      return rows;
    }
    // Candidates come from the full-text index (a word starting like one of the word's forms):
    // trigram similarity of every note would cost a scan of the owner's notes per word (pg_trgm's
    // own index is only chosen by the planner for selective words). Misspellings rarely touch
    // the first letters.
    const prefixes = [
      ...new Set(
        terms
          .flatMap(wordForms)
          .filter((form) => form.length >= 4)
          .map((f) => f.slice(0, 3)),
      ),
    ];
    const startsLike = toTsQuery(prefixes, { prefix: true });
    if (startsLike === null) return [];
    const { rows } = await this.db.query<RankedNote>(
      `SELECT id, score FROM (
         SELECT n.id, n.created_at, n.seq,
                (SELECT sum(s) FROM (SELECT word_similarity(w, n.search_text) AS s
                                       FROM unnest($2::text[]) AS w) AS per_word
                  WHERE s >= $3)::float8 AS score
           FROM notes n
          WHERE n.user_phone = $1 AND n.search @@ to_tsquery('simple', $4)) AS c
        WHERE score IS NOT NULL
        ORDER BY score DESC, created_at DESC, seq DESC
        LIMIT $5`,
      [phone, terms, options.minSimilarity, startsLike, options.limit],
    );
    return rows;
  }

  async vectorCandidates(
    phone: string,
    vector: readonly number[],
    options: { model: string; limit: number; minSimilarity: number },
  ): Promise<RankedNote[]> {
    const features = await this.features();
    if (features.hnsw) {
      const nearest = await this.approximateNearest(phone, vector, options);
      if (nearest) return nearest.filter((row) => row.score >= options.minSimilarity);
    }
    const { rows } = features.vector
      ? await this.db.query<RankedNote>(
          // `<=>` is pgvector's cosine distance: 1 − cosine similarity.
          `SELECT id, (1 - (embedding <=> $2::vector))::float8 AS score
             FROM notes
            WHERE user_phone = $1 AND embedding_model = $3 AND embedding IS NOT NULL
            ORDER BY embedding <=> $2::vector, created_at DESC
            LIMIT $4`,
          [phone, vectorLiteral(vector), options.model, options.limit],
        )
      : await this.db.query<RankedNote>(
          `SELECT id, score FROM (
             SELECT id, created_at, memo_cosine_similarity(embedding, $2::real[])::float8 AS score
               FROM notes
              WHERE user_phone = $1 AND embedding_model = $3 AND embedding IS NOT NULL) AS c
            ORDER BY score DESC, created_at DESC
            LIMIT $4`,
          [phone, vector, options.model, options.limit],
        );
    return rows.filter((row) => row.score >= options.minSimilarity);
  }

  /**
   * The owner's nearest notes through the HNSW index, or null when the index cannot answer for
   * them. The index orders every user's notes together, so the nearest HNSW_CANDIDATES of all
   * notes are taken and the owner's kept: enough when the owner has most of the notes (the
   * embedded database of one household), and then a few milliseconds instead of a scan of
   * thousands of vectors. When fewer than `limit` of them are the owner's (a small user among many,
   * or one with few notes), null: the exact scan of the owner's notes is both cheap and right.
   * Approximate: a near note the graph walk misses is missed.
   */
  private async approximateNearest(
    phone: string,
    vector: readonly number[],
    options: { model: string; limit: number },
  ): Promise<RankedNote[] | null> {
    const query = `SELECT id, (1 - distance)::float8 AS score FROM (
         SELECT id, user_phone, embedding_model, embedding <=> $1::vector AS distance
           FROM notes ORDER BY embedding <=> $1::vector LIMIT $2
         -- OFFSET 0 keeps the owner filter out of the index scan: the index answers for everyone.
         OFFSET 0) AS nearest
        WHERE user_phone = $3 AND embedding_model = $4
        ORDER BY distance
        LIMIT $5`;
    const params = [vectorLiteral(vector), HNSW_CANDIDATES, phone, options.model, options.limit];
    const run = async (db: Queryable) => (await db.query<RankedNote>(query, params)).rows;
    // The search breadth is a setting of the session (pgvector returns at most hnsw.ef_search
    // rows), and the planner, which cannot see that a vector distance costs more than a page
    // read, would sort a sequential scan instead: both are set for this one transaction.
    const rows = isPool(this.db)
      ? await withTransaction(this.db, async (client) => {
          await client.query(`SET LOCAL hnsw.ef_search = ${HNSW_CANDIDATES}`);
          await client.query("SET LOCAL enable_seqscan = off");
          return run(client);
        })
      : await run(this.db);
    return rows.length >= options.limit ? rows : null;
  }

  async pendingEmbeddings(model: string, limit: number): Promise<PendingEmbedding[]> {
    // Never embedded (the partial index notes_unembedded) first; then those of another model.
    const { rows } = await this.db.query<{
      user_phone: string;
      id: string;
      content: string;
      category: string | null;
      tags: string[];
      version: string;
    }>(
      `(SELECT user_phone, id, content, category, tags, updated_at::text AS version
          FROM notes WHERE embedding IS NULL LIMIT $2)
       UNION ALL
       (SELECT user_phone, id, content, category, tags, updated_at::text AS version
          FROM notes WHERE embedding IS NOT NULL AND embedding_model IS DISTINCT FROM $1 LIMIT $2)
       LIMIT $2`,
      [model, limit],
    );
    return rows.map((row) => ({
      userPhone: row.user_phone,
      id: row.id,
      content: row.content,
      category: row.category,
      tags: row.tags,
      version: row.version,
    }));
  }

  async setEmbedding(
    phone: string,
    id: string,
    vector: readonly number[],
    model: string,
    version: string,
  ): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { vector: pgvector } = await this.features();
    // updated_at is left alone: an embedding is not a change the user made.
    const { rowCount } = await this.db.query(
      `UPDATE notes SET embedding = $3::${pgvector ? "vector" : "real[]"}, embedding_model = $4
        WHERE user_phone = $1 AND id = $2 AND updated_at = $5::timestamptz`,
      [phone, id, pgvector ? vectorLiteral(vector) : vector, model, version],
    );
    return (rowCount ?? 0) > 0;
  }
}
