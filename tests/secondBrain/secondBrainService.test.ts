// The second brain's service on every backend: storing and editing notes, background embeddings
// (computed once, back-filled when a model is configured later, recomputed after an edit, retried
// after failures), hybrid search with and without embeddings, and privacy of the logs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgNoteRepository } from "../../src/db/repositories/noteRepository.js";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { EmbeddingBackfill } from "../../src/services/secondBrain/embeddingBackfill.js";
import {
  NoteValidationError,
  SecondBrainService,
} from "../../src/services/secondBrain/secondBrainService.js";
import type { Embedder } from "../../src/services/secondBrain/embeddings.js";
import { createLogger } from "../../src/utils/logger.js";
import { backends, type TestDatabase } from "../support/db.js";
import { createHashingEmbedder } from "../support/hashingEmbedder.js";
import { captureLogs } from "../support/logs.js";

/** An embedder that fails while `failing` is set, and counts calls running at once. */
function flakyEmbedder(model = "flaky-v1") {
  const inner = createHashingEmbedder({ model });
  const state = { failing: true, calls: 0, running: 0, maxRunning: 0, texts: [] as string[] };
  const embedder: Embedder = {
    model,
    minSimilarity: inner.minSimilarity,
    async embed(texts) {
      state.calls += 1;
      state.running += 1;
      state.maxRunning = Math.max(state.maxRunning, state.running);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (state.failing) throw new Error("429 Rate limit reached for text-embedding-3-small");
        state.texts.push(...texts);
        return inner.embed(texts);
      } finally {
        state.running -= 1;
      }
    },
  };
  return { embedder, state };
}

/** Resolves once `check` holds, polling every 10 ms, or fails after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(backends)("second brain on $name", (backend) => {
  let db: TestDatabase;
  let notes: PgNoteRepository;
  let n = 0;
  const silent = createLogger("silent");
  const newUser = async () => {
    const phone = `97253${String(++n).padStart(7, "0")}`;
    await new PgUserRepository(db.pool).getOrCreate(phone);
    return phone;
  };
  const embeddingsOf = async (phone: string) => {
    const { rows } = await db.pool.query<{ content: string; model: string | null; has: boolean }>(
      `SELECT content, embedding_model AS model, embedding IS NOT NULL AS has
         FROM notes WHERE user_phone = $1 ORDER BY seq`,
      [phone],
    );
    return rows;
  };

  beforeAll(async () => {
    db = await backend.create();
    notes = new PgNoteRepository(db.pool);
  });
  afterAll(async () => db?.close());

  it("cleans what it stores: trimmed content, empty category dropped, tags deduplicated", async () => {
    const service = new SecondBrainService({ notes, logger: silent });
    const phone = await newUser();
    const note = await service.store(phone, {
      content: "  Gate code 4471 \n",
      category: "  ",
      tags: [" home ", "Home", "", "gate"],
      importance: 7,
    });
    expect(note).toMatchObject({
      content: "Gate code 4471",
      category: null,
      tags: ["home", "gate"],
      importance: 1,
    });
    await expect(service.store(phone, { content: "   " })).rejects.toBeInstanceOf(NoteValidationError);
    await expect(service.store(phone, { content: "x".repeat(4001) })).rejects.toBeInstanceOf(
      NoteValidationError,
    );
    await expect(service.update(phone, note.id, { content: "" })).rejects.toBeInstanceOf(NoteValidationError);
  });

  it("searches by words with no embedding model at all, and stores no vectors", async () => {
    const service = new SecondBrainService({ notes, logger: silent });
    const phone = await newUser();
    const wifi = await service.store(phone, {
      content: "Home WiFi password: sunflower2024",
      category: "passwords",
    });
    await service.store(phone, { content: "Office wifi is on the sticker" });
    await service.store(phone, { content: "עוגת שוקולד של אמא: 200 גרם שוקולד מריר" });
    await service.backfill.idle();
    expect((await embeddingsOf(phone)).every((row) => !row.has && row.model === null)).toBe(true);

    const hits = await service.search(phone, "what's the home wifi password?");
    expect(hits[0]!.note.id).toBe(wifi.id);
    expect(hits[0]!.matchedBy).toEqual(["text"]);
    expect(hits[0]!.score).toBeGreaterThan(0);
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
    // A misspelled word is found by trigrams; a Hebrew prefix by the indexed forms.
    expect((await service.search(phone, "pasword sunflowr"))[0]!.note.id).toBe(wifi.id);
    expect((await service.search(phone, "pasword"))[0]!.matchedBy).toEqual(["trigram"]);
    expect((await service.search(phone, "מתכון לעוגת שוקולד"))[0]!.note.content).toMatch(/^עוגת שוקולד/);
    // Nothing related: nothing returned, not the nearest of everything.
    expect(await service.search(phone, "xylophone concert")).toEqual([]);
    expect(await service.search(phone, "?!")).toEqual([]);
    expect(await service.search(phone, "wifi", { limit: 1 })).toHaveLength(1);
  });

  it("back-fills embeddings when a model is configured later, once per note, and again after an edit", async () => {
    const phone = await newUser();
    const before = new SecondBrainService({ notes, logger: silent });
    const parking = await before.store(phone, { content: "Parked at Azrieli mall, level -3, section C4" });
    await before.store(phone, { content: "Dentist Dr. Perets, phone 09-7654321" });
    await before.store(phone, { content: "Bike lock code 8812" });
    expect((await embeddingsOf(phone)).map((row) => row.has)).toEqual([false, false, false]);

    // A restart with a model configured: the start-up kick embeds what is waiting.
    const embedder = createHashingEmbedder();
    const backfill = new EmbeddingBackfill({ notes, embedder, logger: silent, batchSize: 2, delayMs: 1 });
    const service = new SecondBrainService({ notes, embedder, backfill, logger: silent });
    backfill.kick();
    await backfill.idle();
    expect(await embeddingsOf(phone)).toEqual([
      expect.objectContaining({ has: true, model: embedder.model }),
      expect.objectContaining({ has: true, model: embedder.model }),
      expect.objectContaining({ has: true, model: embedder.model }),
    ]);
    const embeddedTexts = embedder.texts;

    // Nothing pending: another run embeds nothing.
    expect(await backfill.runOnce()).toMatchObject({ pending: 0, embedded: 0, failed: false });
    backfill.kick();
    await backfill.idle();
    expect(embedder.texts).toBe(embeddedTexts);

    // An edit makes the note pending again; only that note is embedded again.
    await service.update(phone, parking.id, { content: "Parked at Azrieli mall, level -2, section B1" });
    await backfill.idle();
    expect(embedder.texts).toBe(embeddedTexts + 1);
    expect((await embeddingsOf(phone))[0]).toMatchObject({ has: true, model: embedder.model });

    // A note stored now is embedded in the background, without being awaited by store().
    await service.store(phone, { content: "Gym locker combination 19-07-33" });
    await backfill.idle();
    expect((await embeddingsOf(phone)).every((row) => row.has)).toBe(true);

    const hits = await service.search(phone, "where did I park at the mall");
    expect(hits[0]!.note.id).toBe(parking.id);
    // "mall" is a word of the note, "park" only starts "parked" (trigrams), and the vectors are close.
    expect(hits[0]!.matchedBy).toEqual(["text", "trigram", "vector"]);

    // Another model later: every note is embedded again under it, since vectors of two models
    // are never compared.
    const next = createHashingEmbedder({ model: "test-hashing-v2" });
    const nextBackfill = new EmbeddingBackfill({ notes, embedder: next, logger: silent, delayMs: 1 });
    nextBackfill.kick();
    await nextBackfill.idle();
    expect((await embeddingsOf(phone)).every((row) => row.model === "test-hashing-v2")).toBe(true);
  });

  it("logs a failing model without note text, retries later, and keeps searching by words", async () => {
    const phone = await newUser();
    const logs = captureLogs();
    const { embedder, state } = flakyEmbedder();
    const backfill = new EmbeddingBackfill({
      notes,
      embedder,
      logger: logs.logger,
      delayMs: 1,
      retryDelayMs: 30,
    });
    const service = new SecondBrainService({ notes, embedder, backfill, logger: logs.logger });
    const secret = await service.store(phone, {
      content: "Safe combination is 31-41-59 behind the painting",
    });
    await backfill.idle();
    expect((await embeddingsOf(phone))[0]!.has).toBe(false);

    // The query cannot be embedded either: the search goes on by words.
    const hits = await service.search(phone, "safe combination behind painting");
    expect(hits.map((h) => h.note.id)).toEqual([secret.id]);
    expect(hits[0]!.matchedBy).toEqual(["text"]);

    // Retried on its own, and stored once the model answers again.
    const failedCalls = state.calls;
    await eventually(() => state.calls > failedCalls);
    state.failing = false;
    await eventually(async () => (await embeddingsOf(phone))[0]!.has, 10_000);
    backfill.stop();
    expect(state.maxRunning).toBe(1);

    const lines = logs.lines();
    expect(lines.some((l) => l.msg === "note embedding failed; will retry later")).toBe(true);
    expect(lines.some((l) => l.msg === "note search query not embedded; searching by words only")).toBe(true);
    const logged = JSON.stringify(lines);
    for (const privateText of ["31-41-59", "painting", "combination", phone])
      expect(logged).not.toContain(privateText);
  });

  it("gives up on a slow query embedding after the timeout and answers by words", async () => {
    const phone = await newUser();
    const logs = captureLogs();
    const hashing = createHashingEmbedder();
    const slow: Embedder = {
      model: hashing.model,
      // Notes embed at once; a query (one text) never answers.
      embed: (texts) =>
        texts.length === 1 && texts[0] === "bike lock" ? new Promise(() => undefined) : hashing.embed(texts),
    };
    const service = new SecondBrainService({
      notes,
      embedder: slow,
      logger: logs.logger,
      queryEmbeddingTimeoutMs: 50,
    });
    const lock = await service.store(phone, { content: "Bike lock code 8812" });
    await service.backfill.idle();
    const started = Date.now();
    const hits = await service.search(phone, "bike lock");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(hits.map((h) => [h.note.id, h.matchedBy])).toEqual([[lock.id, ["text"]]]);
    expect(logs.lines().some((l) => String(l.error).includes("no embedding within 50 ms"))).toBe(true);
  });

  it("never runs two back-fills at once, however often it is kicked", async () => {
    const phone = await newUser();
    const { embedder, state } = flakyEmbedder("serial-v1");
    state.failing = false;
    const backfill = new EmbeddingBackfill({ notes, embedder, logger: silent, batchSize: 3, delayMs: 1 });
    const service = new SecondBrainService({ notes, embedder, backfill, logger: silent });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => service.store(phone, { content: `note number ${i}` })),
    );
    for (let i = 0; i < 5; i++) backfill.kick();
    await Promise.all([backfill.runOnce(), backfill.runOnce()]);
    await backfill.idle();
    expect(state.maxRunning).toBe(1);
    expect((await embeddingsOf(phone)).every((row) => row.model === "serial-v1")).toBe(true);
    // Each note was embedded once (other suites' notes are embedded too: only this user's are counted).
    const mine = state.texts.filter((t) => t.startsWith("note number"));
    expect(new Set(mine).size).toBe(12);
    expect(mine).toHaveLength(12);
  });

  it("does nothing in the background without a model", async () => {
    const backfill = new EmbeddingBackfill({ notes, embedder: null, logger: silent });
    backfill.kick();
    await backfill.idle();
    expect(await backfill.runOnce()).toEqual({ pending: 0, embedded: 0, stale: 0, failed: false });
  });

  it("orders notes the lists tie by importance, then recency", async () => {
    const phone = await newUser();
    let now = Date.parse("2026-03-05T10:00:00Z");
    const service = new SecondBrainService({ notes, logger: silent, clock: () => now });
    const low = await service.store(phone, { content: "Locker code 1234", importance: 0.2 });
    const high = await service.store(phone, { content: "Locker code 5678", importance: 0.9 });
    const plain = await service.store(phone, { content: "Locker code 9012" });
    const hits = await service.search(phone, "locker code");
    // Same words, same length: the lists cannot tell them apart; importance orders them.
    expect(hits.map((h) => h.note.id)).toEqual([high.id, plain.id, low.id]);
    expect(new Set(hits.map((h) => h.score)).size).toBe(1);
    // A note much older than the others loses the recency part of the tie-break (0.2 × 0.5^(days/30)).
    await db.pool.query("UPDATE notes SET created_at = now() - interval '365 days' WHERE id = $1", [high.id]);
    now = Date.now();
    expect((await service.search(phone, "locker code")).map((h) => h.note.id)).toEqual([
      plain.id,
      low.id,
      high.id,
    ]);
  });
});
