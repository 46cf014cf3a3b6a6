import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgMemoryRepository } from "../../src/db/repositories/memoryRepository.js";
import { memoryStorage } from "../../src/db/storage.js";
import { LongTermMemory } from "../../src/services/memory/longTermMemory.js";
import type { Embedder } from "../../src/services/secondBrain/embeddings.js";
import { pgliteBackend, type TestDatabase } from "../support/db.js";
import { captureLogs } from "../support/logs.js";

const PHONE = "972530009001";
const NOW = Date.UTC(2026, 10, 20, 9);

/** Meaning without shared words: cars, drinks, anything else. */
function meaning(text: string): number[] {
  if (/car|mazda|automobile|vehicle|רכב|מכונית/iu.test(text)) return [1, 0, 0];
  if (/tea|coffee|drink/iu.test(text)) return [0, 1, 0];
  return [0, 0, 1];
}

/** An embedding model answering by `meaning`, counting its requests; `fail` makes it throw. */
function fakeEmbedder(fail = false): Embedder & { requests: string[][] } {
  const requests: string[][] = [];
  return {
    model: "fake-meaning",
    minSimilarity: 0.3,
    requests,
    embed(texts) {
      requests.push(texts);
      return fail ? Promise.reject(new Error("embeddings down")) : Promise.resolve(texts.map(meaning));
    },
  };
}

let db: TestDatabase;
beforeAll(async () => {
  db = await pgliteBackend.create();
  await db.pool.query("INSERT INTO users (phone, time_zone) VALUES ($1, 'Asia/Jerusalem')", [PHONE]);
  const repo = new PgMemoryRepository(db.pool);
  await repo.create(PHONE, { type: "fact", content: "Drives a white Mazda 3" }, NOW - 5 * 86_400_000);
  await repo.create(PHONE, { type: "preference", content: "Prefers green tea" }, NOW);
});
afterAll(async () => {
  await db.close();
});

const memory = (embedder: Embedder | null) =>
  new LongTermMemory({ storage: memoryStorage(db.pool), llm: null, clock: () => NOW, embedder });

describe("semantic retrieval with an embedding model (spec 004)", () => {
  it("finds by meaning what shares no word with the question, in one request", async () => {
    const embedder = fakeEmbedder();
    const found = await memory(embedder).recall(
      PHONE,
      "what did I tell you about my automobile?",
      "Asia/Jerusalem",
    );
    expect(found.facts.map((f) => f.content)).toEqual(["Drives a white Mazda 3"]);
    expect(embedder.requests).toHaveLength(1);
    // Without the model, words alone: nothing shared, nothing found.
    const byWords = await memory(null).recall(
      PHONE,
      "what did I tell you about my automobile?",
      "Asia/Jerusalem",
    );
    expect(byWords.facts).toEqual([]);
  });

  it("puts what the message means first in the planner's context", async () => {
    const embedder = fakeEmbedder();
    const context = await memory(embedder).contextFor(
      PHONE,
      "the automobile makes a noise",
      null,
      "Asia/Jerusalem",
    );
    expect(context.text).toMatch(/Remembered about the user\n- \(fact\) Drives a white Mazda 3/);
    // By words, the newer preference comes first.
    const byWords = await memory(null).contextFor(
      PHONE,
      "the automobile makes a noise",
      null,
      "Asia/Jerusalem",
    );
    expect(byWords.text).toMatch(/Remembered about the user\n- \(preference\) Prefers green tea/);
  });

  it("a failing embedding request leaves words alone deciding, logged, the turn unharmed", async () => {
    const logs = captureLogs();
    const longTerm = new LongTermMemory({
      storage: memoryStorage(db.pool),
      llm: null,
      clock: () => NOW,
      embedder: fakeEmbedder(true),
      logger: logs.logger,
    });
    const context = await longTerm.contextFor(PHONE, "the automobile makes a noise", null, "Asia/Jerusalem");
    expect(context.text).toContain("Prefers green tea");
    expect(logs.lines().some((l) => l.msg === "long-term memory compared by words only")).toBe(true);
  });
});
