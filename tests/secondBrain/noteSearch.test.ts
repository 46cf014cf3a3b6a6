import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgNoteRepository } from "../../src/db/repositories/noteRepository.js";
import type { Embedder } from "../../src/services/secondBrain/embeddings.js";
import { SecondBrainService } from "../../src/services/secondBrain/secondBrainService.js";
import { backends, type TestDatabase } from "../support/db.js";
import { createHashingEmbedder } from "../support/hashingEmbedder.js";
import { captureLogs } from "../support/logs.js";

const ALICE = "972501111111";
const BOB = "972502222222";

async function addUsers(db: TestDatabase, ...phones: string[]): Promise<void> {
  for (const phone of phones) {
    await db.pool.query(
      "INSERT INTO users (phone, time_zone) VALUES ($1, 'Asia/Jerusalem') ON CONFLICT DO NOTHING",
      [phone],
    );
  }
}

function service(db: TestDatabase, embedder: Embedder | null = null) {
  const { logger, lines } = captureLogs();
  const notes = new SecondBrainService({ notes: new PgNoteRepository(db.pool), embedder, logger });
  return { notes, lines };
}

const contents = (hits: { note: { content: string } }[]) => hits.map((h) => h.note.content);

describe.each(backends)("notes on $name", (backend) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await backend.create();
    await addUsers(db, ALICE, BOB);
  });
  afterAll(async () => db.close());

  it("stores once per operation, lists newest first, updates and deletes only the owner's notes", async () => {
    const { notes } = service(db);
    const first = await notes.store(ALICE, { content: "Locker code 4412", operationId: "t1:s1" });
    const again = await notes.store(ALICE, { content: "Locker code 4412", operationId: "t1:s1" });
    expect(again.id).toBe(first.id);
    await notes.store(ALICE, { content: "Dana's shoe size is 38", operationId: "t2:s1" });
    const listed = await notes.list(ALICE, { limit: 10 });
    expect(listed.total).toBe(2);
    expect(contents(listed.notes.map((note) => ({ note })))).toEqual([
      "Dana's shoe size is 38",
      "Locker code 4412",
    ]);

    // Bob can neither change nor delete Alice's note by its id.
    expect(await notes.update(BOB, first.id, { content: "hacked" })).toBeNull();
    expect(await notes.delete(BOB, [first.id])).toEqual([]);
    expect((await notes.update(ALICE, first.id, { content: "Locker code 5521" }))?.content).toBe(
      "Locker code 5521",
    );
    expect(contents((await notes.search(ALICE, "locker")).slice(0, 1))).toEqual(["Locker code 5521"]);
    expect((await notes.delete(ALICE, [first.id])).map((n) => n.id)).toEqual([first.id]);
    expect(await notes.search(ALICE, "locker")).toEqual([]);
    await notes.deleteAll(ALICE);
  });

  it("isolation: no search path (words, trigrams, vectors) returns another user's notes", async () => {
    const embedder = createHashingEmbedder();
    const { notes } = service(db, embedder);
    const shared = ["wifi password HappyCat42", "גן הילדים של נועה נפתח בשמונה", "Parking level -2, spot 14"];
    for (const [i, content] of shared.entries()) {
      await notes.store(ALICE, { content: `${content} (alice)`, operationId: `a${i}` });
      await notes.store(BOB, { content: `${content} (bob)`, operationId: `b${i}` });
    }
    while ((await notes.backfill.runOnce()).embedded > 0);
    for (const query of ["wifi password", "wify pasword", "גן ילדים", "parking spot", "alice", "bob"]) {
      for (const [phone, own] of [
        [ALICE, "(alice)"],
        [BOB, "(bob)"],
      ] as const) {
        const hits = await notes.search(phone, query, { limit: 10 });
        for (const content of contents(hits)) expect(content).toContain(own);
      }
    }
    await notes.deleteAll(ALICE);
    await notes.deleteAll(BOB);
  });

  it("embeds in the background: none without a model, back-filled when one is configured, again after an edit", async () => {
    const plain = service(db).notes;
    const note = await plain.store(ALICE, {
      content: "Grandma's cake: 3 eggs, 200g flour",
      operationId: "e1",
    });
    const embedded = async () =>
      (
        await db.pool.query<{ model: string | null; has: boolean }>(
          "SELECT embedding_model AS model, embedding IS NOT NULL AS has FROM notes WHERE id = $1",
          [note.id],
        )
      ).rows[0]!;
    expect(await embedded()).toEqual({ model: null, has: false });

    const embedder = createHashingEmbedder();
    const withModel = service(db, embedder).notes;
    await withModel.backfill.runOnce();
    expect(await embedded()).toEqual({ model: "test-hashing-v1", has: true });
    // Once per note: a second pass embeds nothing.
    expect((await withModel.backfill.runOnce()).embedded).toBe(0);

    await withModel.update(ALICE, note.id, { content: "Grandma's cake: 4 eggs, 250g flour" });
    expect(await embedded()).toEqual({ model: null, has: false });
    await withModel.backfill.runOnce();
    expect(await embedded()).toEqual({ model: "test-hashing-v1", has: true });
    await withModel.deleteAll(ALICE);
  });

  it("a failing embedding model is logged without note text, and search keeps working by words", async () => {
    const failing: Embedder = {
      model: "broken-model",
      minSimilarity: 0.2,
      embed: () => Promise.reject(new Error("503 from the embedding API")),
    };
    const { notes, lines } = service(db, failing);
    await notes.store(ALICE, { content: "The secret gate code is 1948", operationId: "f1" });
    const report = await notes.backfill.runOnce();
    expect(report.failed).toBe(true);
    expect(contents(await notes.search(ALICE, "gate code"))).toEqual(["The secret gate code is 1948"]);
    expect(lines().some((line) => line.event !== undefined || line.msg !== undefined)).toBe(true);
    expect(JSON.stringify(lines())).not.toContain("1948");
    notes.backfill.stop();
    await notes.deleteAll(ALICE);
  });
});
