// Search quality on a committed set of notes and queries (tests/fixtures/notes/searchQuality.json):
// precision@1 and recall@3, by words only and with the local hashing embedder, on every backend.
// The floors sit just under what was measured when they were set (lexical P@1 48/52 = 0.923,
// R@3 49/52 = 0.942; hashing P@1 47/52 = 0.904, R@3 49/52 = 0.942): a change that loses a query
// fails here. The misses: the three cross-language queries (no lexical path exists, and the hashing
// embedder is no translator; recall@3 misses only these), "plumbr number" (the exact word "number"
// of two other notes outranks the misspelled "plumber", third), and with the hashing embedder
// "Noa shoe size", whose vector is nearest to Itai's note that says "shoe size" word for word.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgNoteRepository } from "../../src/db/repositories/noteRepository.js";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { SecondBrainService } from "../../src/services/secondBrain/secondBrainService.js";
import { createLogger } from "../../src/utils/logger.js";
import { backends, type TestDatabase } from "../support/db.js";
import { createHashingEmbedder } from "../support/hashingEmbedder.js";

interface Fixture {
  notes: { key: string; content: string; category?: string; tags?: string[] }[];
  queries: { query: string; expected: string; kind: string }[];
}

const fixture = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../fixtures/notes/searchQuality.json"), "utf8"),
) as Fixture;

const FLOORS = {
  lexical: { precisionAt1: 0.9, recallAt3: 0.92 },
  hashing: { precisionAt1: 0.88, recallAt3: 0.92 },
};

interface Quality {
  precisionAt1: number;
  recallAt3: number;
  misses: string[];
}

async function measure(
  service: SecondBrainService,
  phone: string,
  keyOf: Map<string, string>,
): Promise<Quality> {
  let first = 0;
  let inTop3 = 0;
  const misses: string[] = [];
  for (const { query, expected } of fixture.queries) {
    const keys = (await service.search(phone, query, { limit: 3 })).map((hit) => keyOf.get(hit.note.id));
    if (keys[0] === expected) first++;
    else misses.push(`${query} → ${keys.join(", ") || "nothing"} (expected ${expected})`);
    if (keys.includes(expected)) inTop3++;
  }
  const total = fixture.queries.length;
  return { precisionAt1: first / total, recallAt3: inTop3 / total, misses };
}

describe("the search quality fixture", () => {
  it("has at least 60 notes and 30 queries, in Hebrew and English, each query naming a note", () => {
    expect(fixture.notes.length).toBeGreaterThanOrEqual(60);
    expect(fixture.queries.length).toBeGreaterThanOrEqual(30);
    const keys = new Set(fixture.notes.map((note) => note.key));
    expect(keys.size).toBe(fixture.notes.length);
    for (const { expected } of fixture.queries) expect(keys).toContain(expected);
    const hebrew = (text: string) => /[\u05d0-\u05ea]/.test(text);
    expect(fixture.notes.filter((note) => hebrew(note.content)).length).toBeGreaterThanOrEqual(20);
    expect(fixture.queries.filter((q) => hebrew(q.query)).length).toBeGreaterThanOrEqual(15);
    expect(new Set(fixture.queries.map((q) => q.kind))).toEqual(
      new Set(["exact", "paraphrase", "prefix", "typo", "cross-language"]),
    );
  });
});

describe.each(backends)("search quality on $name", (backend) => {
  let db: TestDatabase;
  const phone = "972559990001";
  const keyOf = new Map<string, string>();
  let lexical: SecondBrainService;
  let hashing: SecondBrainService;

  beforeAll(async () => {
    db = await backend.create();
    await new PgUserRepository(db.pool).getOrCreate(phone);
    const notes = new PgNoteRepository(db.pool);
    const logger = createLogger("silent");
    lexical = new SecondBrainService({ notes, logger });
    hashing = new SecondBrainService({ notes, logger, embedder: createHashingEmbedder() });
    for (const { key, ...note } of fixture.notes) keyOf.set((await lexical.store(phone, note)).id, key);
    hashing.backfill.kick();
    await hashing.backfill.idle();
  });
  afterAll(async () => db?.close());

  it.each(["lexical", "hashing"] as const)(
    "%s: precision@1 and recall@3 stay above their floors",
    async (mode) => {
      const quality = await measure(mode === "lexical" ? lexical : hashing, phone, keyOf);
      console.info(
        `[${backend.name}] ${mode}: P@1 ${quality.precisionAt1.toFixed(3)}, R@3 ${quality.recallAt3.toFixed(3)} ` +
          `over ${fixture.queries.length} queries; misses:\n  ${quality.misses.join("\n  ")}`,
      );
      expect(quality.precisionAt1).toBeGreaterThanOrEqual(FLOORS[mode].precisionAt1);
      expect(quality.recallAt3).toBeGreaterThanOrEqual(FLOORS[mode].recallAt3);
    },
  );
});
