// Note storage on every backend (PGlite with pgvector; the machine's Postgres, with real[]
// embeddings, when TEST_DATABASE_URL is set): CRUD, idempotent creation, the three candidate
// lists, embeddings, and a property test that one user's search never returns another's notes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgNoteRepository } from "../../src/db/repositories/noteRepository.js";
import { documentStorage } from "../../src/db/storage.js";
import { DocumentService } from "../../src/services/documents/documentService.js";
import type { ExtractedDocument } from "../../src/types/document.js";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { SecondBrainService } from "../../src/services/secondBrain/secondBrainService.js";
import { queryTerms } from "../../src/utils/searchText.js";
import { createLogger } from "../../src/utils/logger.js";
import { backends, requireExtension, type TestDatabase } from "../support/db.js";
import { createHashingEmbedder, hashingEmbed } from "../support/hashingEmbedder.js";
import { prng } from "../support/random.js";

const SEED = Number(process.env.PROPERTY_SEED ?? 20260305);

/** A copy of `word` with one letter dropped (a typo), when it is long enough to stay recognizable. */
function typo(word: string, at: number): string {
  if (word.length < 5) return word;
  const i = 1 + (at % (word.length - 2));
  return word.slice(0, i) + word.slice(i + 1);
}

describe.each(backends)("note storage on $name", (backend) => {
  let db: TestDatabase;
  let notes: PgNoteRepository;
  let n = 0;
  /** A user no other test of this suite uses. */
  const newUser = async () => {
    const phone = `97254${String(++n).padStart(7, "0")}`;
    await new PgUserRepository(db.pool).getOrCreate(phone);
    return phone;
  };
  /** Owners of the given note ids, straight from the table. */
  const ownersOf = async (ids: readonly string[], database = db) => {
    const { rows } = await database.pool.query<{ user_phone: string }>(
      "SELECT DISTINCT user_phone FROM notes WHERE id = ANY($1::uuid[])",
      [ids],
    );
    return rows.map((r) => r.user_phone);
  };
  const text = (phone: string, query: string) => notes.textCandidates(phone, queryTerms(query).groups, 30);

  beforeAll(async () => {
    db = await backend.create();
    notes = new PgNoteRepository(db.pool);
  });
  afterAll(async () => db?.close());

  it("stores a note once per operation id and returns the first one on a repeat", async () => {
    const phone = await newUser();
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO conversation_messages (user_phone, role, content, created_at)
       VALUES ($1, 'user', 'keep this', now()) RETURNING id`,
      [phone],
    );
    const first = await notes.create(phone, {
      content: "Gate code 4471",
      category: "codes",
      tags: ["home", "gate"],
      importance: 0.8,
      sourceMessageId: rows[0]!.id,
      operationId: "trace-1:s1#0",
    });
    const again = await notes.create(phone, { content: "something else", operationId: "trace-1:s1#0" });
    expect(again).toEqual(first);
    expect(first).toMatchObject({
      content: "Gate code 4471",
      category: "codes",
      tags: ["home", "gate"],
      sourceMessageId: String(rows[0]!.id),
      embeddingModel: null,
    });
    expect(first.importance).toBeCloseTo(0.8);
    // The same operation id belongs to each owner separately.
    const other = await newUser();
    const theirs = await notes.create(other, { content: "their note", operationId: "trace-1:s1#0" });
    expect(theirs.id).not.toBe(first.id);
    // Without an operation id, every create stores a note.
    await notes.create(phone, { content: "one" });
    await notes.create(phone, { content: "one" });
    expect((await notes.list(phone)).total).toBe(3);
  });

  it("gets, lists newest first with a total, pages, filters by category", async () => {
    const phone = await newUser();
    const made = [];
    for (const [i, category] of ["a", "b", "a", null].entries()) {
      made.push(await notes.create(phone, { content: `note ${i}`, category }));
    }
    expect(await notes.get(phone, made[1]!.id)).toEqual(made[1]);
    expect(await notes.get(phone, "not-a-uuid")).toBeNull();
    expect((await notes.getMany(phone, [made[2]!.id, made[0]!.id, "junk"])).map((x) => x.content)).toEqual([
      "note 2",
      "note 0",
    ]);
    const page = await notes.list(phone, { limit: 2, offset: 1 });
    expect(page.total).toBe(4);
    expect(page.notes.map((x) => x.content)).toEqual(["note 2", "note 1"]);
    const beyond = await notes.list(phone, { limit: 2, offset: 10 });
    expect(beyond).toEqual({ notes: [], total: 4 });
    const onlyA = await notes.list(phone, { category: "A" });
    expect(onlyA.total).toBe(2);
    expect(onlyA.notes.map((x) => x.content)).toEqual(["note 2", "note 0"]);
  });

  it("updates a note, re-indexes its words, and clears the embedding only when its text changes", async () => {
    const phone = await newUser();
    const note = await notes.create(phone, { content: "Parking spot 112", tags: ["car"] });
    const pending = await notes.pendingEmbeddings("m1", 1000);
    const mine = pending.find((p) => p.id === note.id)!;
    expect(
      await notes.setEmbedding(phone, note.id, hashingEmbed("Parking spot 112"), "m1", mine.version),
    ).toBe(true);
    expect((await notes.get(phone, note.id))!.embeddingModel).toBe("m1");

    const important = await notes.update(phone, note.id, { importance: 0.9 });
    expect(important!.embeddingModel).toBe("m1");

    const moved = await notes.update(phone, note.id, { content: "Parking spot 240" });
    expect(moved).toMatchObject({ content: "Parking spot 240", tags: ["car"], embeddingModel: null });
    expect((await text(phone, "240")).notes.map((c) => c.id)).toEqual([note.id]);
    expect((await text(phone, "112")).notes).toEqual([]);

    // The vector computed for the old text arrives late: it is not stored.
    expect(
      await notes.setEmbedding(phone, note.id, hashingEmbed("Parking spot 112"), "m1", mine.version),
    ).toBe(false);
    const again = (await notes.pendingEmbeddings("m1", 1000)).find((p) => p.id === note.id)!;
    expect(
      await notes.setEmbedding(phone, note.id, hashingEmbed("Parking spot 240"), "m1", again.version),
    ).toBe(true);
    const retagged = await notes.update(phone, note.id, { tags: ["car", "work"] });
    expect(retagged).toMatchObject({ tags: ["car", "work"], embeddingModel: null });
    expect((await text(phone, "work")).notes.map((c) => c.id)).toEqual([note.id]);

    expect(await notes.update(phone, "6f1c4c1e-0000-4000-a000-000000000000", { content: "x" })).toBeNull();
    expect(await notes.update(await newUser(), note.id, { content: "stolen" })).toBeNull();
    expect((await notes.get(phone, note.id))!.content).toBe("Parking spot 240");
  });

  describe("documents", () => {
    const letter = (pages: string[], fileName: string | null = "letter.pdf"): ExtractedDocument => ({
      source: "pdf",
      fileName,
      mimeType: "application/pdf",
      title: "School letter",
      pages,
    });
    const rowsOf = async (phone: string) => {
      const { rows } = await db.pool.query<{ documents: number; heads: number; chunks: number }>(
        `SELECT (SELECT count(*)::int FROM documents WHERE user_phone = $1) AS documents,
                (SELECT count(*)::int FROM notes WHERE user_phone = $1 AND document_id IS NOT NULL
                   AND chunk_index IS NULL) AS heads,
                (SELECT count(*)::int FROM notes WHERE user_phone = $1 AND chunk_index IS NOT NULL) AS chunks`,
        [phone],
      );
      return rows[0]!;
    };
    const paragraph = (page: number) =>
      Array.from({ length: 12 }, (_, i) => `Page ${page} sentence ${i} about the museum trip.`).join(" ");

    it("stores a document once per operation id, and finds it again by that id with its text by page", async () => {
      const phone = await newUser();
      const service = new DocumentService(documentStorage(db.pool));
      const extracted = letter([paragraph(1), paragraph(2)]);
      const first = await service.store(phone, extracted, { operationId: "document:wamid.1" });
      const again = await service.store(phone, extracted, { operationId: "document:wamid.1" });
      expect(again.documentId).toBe(first.documentId);
      const stored = await rowsOf(phone);
      expect(stored.documents).toBe(1);
      expect(stored.heads).toBe(1);
      const found = await service.storedBy(phone, "document:wamid.1");
      expect(found?.context.documentId).toBe(first.documentId);
      expect(found?.pages).toHaveLength(2);
      expect(found?.pages[1]).toContain("Page 2 sentence 0");
      expect(await service.storedBy(phone, "document:other")).toBeNull();
    });

    it("keeps the real page count of a file read in part, and a long file name cut to 300 with its extension", async () => {
      const phone = await newUser();
      const service = new DocumentService(documentStorage(db.pool));
      const name = `${"x".repeat(400)}.pdf`;
      const context = await service.store(phone, { ...letter([paragraph(1)], name), pageCount: 20 });
      expect(context.pageCount).toBe(20);
      expect(context.fileName!.length).toBeLessThanOrEqual(300);
      expect(context.fileName!.endsWith(".pdf")).toBe(true);
    });

    it("stores at most 400 chunks, in one statement", async () => {
      const phone = await newUser();
      const service = new DocumentService(documentStorage(db.pool));
      await service.store(
        phone,
        letter(Array.from({ length: 450 }, (_, i) => paragraph(i + 1).slice(0, 650))),
      );
      expect((await rowsOf(phone)).chunks).toBe(400);
    });

    it("deleting the head note deletes the document and its chunks; a chunk knows its head; erasure removes all", async () => {
      const phone = await newUser();
      const service = new DocumentService(documentStorage(db.pool));
      const context = await service.store(phone, letter([paragraph(1), paragraph(2)]));
      const { rows } = await db.pool.query<{ id: string }>(
        "SELECT id FROM notes WHERE user_phone = $1 AND chunk_index IS NOT NULL",
        [phone],
      );
      const [chunk] = await notes.getMany(phone, [rows[0]!.id]);
      expect(chunk?.document).toMatchObject({ chunk: true, headNoteId: context.noteId });
      await notes.delete(phone, [context.noteId]);
      expect(await rowsOf(phone)).toEqual({ documents: 0, heads: 0, chunks: 0 });

      await service.store(phone, letter([paragraph(1)]));
      await notes.deleteAll(phone);
      expect(await rowsOf(phone)).toEqual({ documents: 0, heads: 0, chunks: 0 });
    });
  });

  it("deletes only the owner's notes, and all of them on request", async () => {
    const phone = await newUser();
    const other = await newUser();
    const a = await notes.create(phone, { content: "a" });
    const b = await notes.create(phone, { content: "b" });
    const theirs = await notes.create(other, { content: "c" });
    const deleted = await notes.delete(phone, [b.id, theirs.id, "nope"]);
    expect(deleted.map((x) => x.content)).toEqual(["b"]);
    expect(await notes.get(other, theirs.id)).not.toBeNull();
    await notes.create(phone, { content: "d" });
    expect(await notes.deleteAll(phone)).toBe(2);
    expect(await notes.get(phone, a.id)).toBeNull();
    expect((await notes.list(other)).total).toBe(1);
  });

  it("ranks full-text candidates by how many of the query's words, and the rarer ones, a note has", async () => {
    const phone = await newUser();
    const both = await notes.create(phone, { content: "Noa's sizes: shoes 31, pants 8" });
    const common = await notes.create(phone, { content: "Itai: shoe size 27, clothes size 4" });
    await notes.create(phone, { content: "Noa wants a treehouse" });
    await notes.create(phone, { content: "Nothing about it" });
    const found = await text(phone, "Noa shoe size");
    expect(found.found).toEqual([true, true, true]);
    expect(found.notes[0]!.id).toBe(both.id);
    expect(found.notes.map((c) => c.id)).toContain(common.id);
    expect(found.notes).toHaveLength(3);
    // Hebrew prefixes on either side: "בפגישה" is found by "פגישה" and the other way round.
    const meeting = await notes.create(phone, { content: "סיכום בפגישה עם אורלי: התקציב הוקפא" });
    expect((await text(phone, "פגישה")).notes.map((c) => c.id)).toEqual([meeting.id]);
    expect((await text(phone, "והתקציב")).notes.map((c) => c.id)).toEqual([meeting.id]);
    expect((await text(phone, "פגישה xyzzy")).found).toEqual([true, false]);
  });

  it("finds misspelled words by trigram similarity, with and without pg_trgm", async () => {
    const phone = await newUser();
    const plumber = await notes.create(phone, { content: "Plumber Moshe fixed the sink, 052-3344556" });
    const pilates = await notes.create(phone, { content: "שיעור פילאטיס אצל ענבל, ימי שני" });
    await notes.create(phone, { content: "Book club on Thursday" });
    const trigram = (words: string[]) =>
      notes.trigramCandidates(phone, words, { limit: 30, minSimilarity: 0.5 });
    if ((await notes.features()).trigram) {
      expect((await trigram(["plumbr"])).map((c) => c.id)).toEqual([plumber.id]);
      expect((await trigram(["פילטיס"])).map((c) => c.id)).toEqual([pilates.id]);
      expect(await trigram(["xylophone"])).toEqual([]);
    }
    // Without pg_trgm (forced): substrings of the normalized text.
    const plain = new PgNoteRepository(db.pool, { features: { trigram: false } });
    const like = await plain.trigramCandidates(phone, ["plumb", "100%_"], { limit: 30, minSimilarity: 0.5 });
    expect(like.map((c) => c.id)).toEqual([plumber.id]);
  });

  it("stores embeddings per model and finds the nearest notes above the minimum similarity", async () => {
    const phone = await newUser();
    const wifi = await notes.create(phone, { content: "Home wifi password sunflower" });
    const cake = await notes.create(phone, { content: "Chocolate cake recipe" });
    const unembedded = await notes.create(phone, { content: "Wifi router reset steps" });
    for (const note of [wifi, cake]) {
      const pending = (await notes.pendingEmbeddings("m1", 10_000)).find((p) => p.id === note.id)!;
      expect(pending).toMatchObject({ userPhone: phone, content: note.content, tags: [] });
      await notes.setEmbedding(phone, note.id, hashingEmbed(note.content), "m1", pending.version);
    }
    const query = hashingEmbed("wifi password");
    const near = await notes.vectorCandidates(phone, query, { model: "m1", limit: 30, minSimilarity: 0.2 });
    expect(near.map((c) => c.id)).toEqual([wifi.id]);
    expect(near[0]!.score).toBeGreaterThan(0.5);
    const all = await notes.vectorCandidates(phone, query, { model: "m1", limit: 30, minSimilarity: -1 });
    expect(all.map((c) => c.id)).toEqual([wifi.id, cake.id]);
    expect(all.map((c) => c.id)).not.toContain(unembedded.id);
    // Another model's vectors are never compared with this one's, and are pending for it.
    expect(await notes.vectorCandidates(phone, query, { model: "m2", limit: 30, minSimilarity: -1 })).toEqual(
      [],
    );
    const forM2 = (await notes.pendingEmbeddings("m2", 10_000)).map((p) => p.id);
    expect(forM2).toEqual(expect.arrayContaining([wifi.id, cake.id, unembedded.id]));
    const forM1 = (await notes.pendingEmbeddings("m1", 10_000)).map((p) => p.id);
    expect(forM1).toContain(unembedded.id);
    expect(forM1).not.toContain(wifi.id);
  });

  it("uses the HNSW index for a user with most of the notes, and the exact scan otherwise", async ({
    skip,
  }) => {
    const own = await backend.create();
    try {
      await requireExtension(own, "vector", skip);
      const indexed = new PgNoteRepository(own.pool);
      // Migration 10 makes the index wherever pgvector is.
      expect((await indexed.features()).hnsw).toBe(true);
      const exact = new PgNoteRepository(own.pool, { features: { hnsw: false } });
      const users = new PgUserRepository(own.pool);
      const big = "972550000001";
      const small = "972550000002";
      await users.getOrCreate(big);
      await users.getOrCreate(small);
      const topics = [
        "wifi password",
        "cake recipe",
        "parking spot",
        "shoe size",
        "dentist phone",
        "gift idea",
      ];
      for (let i = 0; i < 60; i++) {
        const phone = i < 50 ? big : small;
        const note = await indexed.create(phone, { content: `${topics[i % topics.length]} number ${i}` });
        const pending = (await indexed.pendingEmbeddings("m1", 1000)).find((p) => p.id === note.id)!;
        await indexed.setEmbedding(phone, note.id, hashingEmbed(note.content), "m1", pending.version);
      }
      const query = hashingEmbed("wifi password");
      // Unrelated topics tie near 0, in no particular order: only the related ones are compared.
      const options = { model: "m1", limit: 30, minSimilarity: 0.2 };
      const exactBig = await exact.vectorCandidates(big, query, options);
      const approxBig = await indexed.vectorCandidates(big, query, options);
      // On 60 notes the graph walk sees them all: the same notes as the exact scan, the owner's only.
      expect(exactBig.length).toBeGreaterThanOrEqual(8);
      expect(approxBig.map((c) => c.id).sort()).toEqual(exactBig.map((c) => c.id).sort());
      expect(
        await ownersOf(
          approxBig.map((c) => c.id),
          own,
        ),
      ).toEqual([big]);
      // Ten notes are fewer than the list wants: the exact scan answers, still the owner's only.
      const smallList = await indexed.vectorCandidates(small, query, options);
      expect(smallList).toEqual(await exact.vectorCandidates(small, query, options));
      expect(smallList.length).toBeGreaterThan(0);
      expect(
        await ownersOf(
          smallList.map((c) => c.id),
          own,
        ),
      ).toEqual([small]);
    } finally {
      await own.close();
    }
  });

  it("never returns another user's notes, through any list (property test)", async () => {
    const random = prng(SEED);
    const alice = await newUser();
    const bob = await newUser();
    const shared = [
      "Home wifi password sunflower2024",
      "הסיסמה של הוויפי אצל ההורים",
      "Banana bread: 3 bananas, 1 egg, flour",
      "עוגת שוקולד של אמא",
      "Dentist Dr. Perets, phone 09-7654321",
      "רופא השיניים ברחוב ויצמן",
      "Parked at the mall, level -3",
      "חניתי בחניון של בית החולים",
    ];
    const embedder = createHashingEmbedder({ minSimilarity: 0.1 });
    const service = new SecondBrainService({ notes, embedder, logger: createLogger("silent") });
    // Overlapping notebooks: the same notes for both, some only for one, in random order.
    for (const phone of [alice, bob]) {
      for (const content of shared) if (random.int(4) > 0) await service.store(phone, { content });
      await service.store(phone, { content: `Private note of ${phone}: locker 19-07-33` });
    }
    await service.backfill.idle();
    await service.backfill.runOnce();
    const words = shared.flatMap((s) => s.split(/[\s:,.]+/)).filter((w) => w.length >= 3);
    let vectorHits = 0;
    let trigramHits = 0;
    for (let round = 0; round < 40; round++) {
      const phone = random.pick([alice, bob]);
      const query = Array.from({ length: 1 + random.int(3) }, (_, i) => {
        const word = random.pick(words);
        return random.int(3) === 0 ? typo(word, round + i) : word;
      }).join(" ");
      const hits = await service.search(phone, query, { limit: 10 });
      vectorHits += hits.filter((h) => h.matchedBy.includes("vector")).length;
      trigramHits += hits.filter((h) => h.matchedBy.includes("trigram")).length;
      if (hits.length > 0) expect(await ownersOf(hits.map((h) => h.note.id)), query).toEqual([phone]);
    }
    // The property covered the fuzzy and semantic paths, not only the full-text one.
    expect(vectorHits).toBeGreaterThan(0);
    expect(trigramHits).toBeGreaterThan(0);
  });
});
