/**
 * Memo's own long-term memory behind the evaluation's `MemoryUnderTest`: a fresh embedded database
 * per history, a user in the history's zone, the fixed extraction stored through the product's
 * repositories at the times it was said (so temporal validity is worked out by the product: a
 * newer fact about the same subject and attribute closes the older one), and each question asked
 * of Memo's recall at its time: `LongTermMemory.recall`, the same call "where did I live in
 * March?" makes in a chat (a period the question names read in code, 004 getValidAt, one ranking
 * of facts, episodes and chunks by 004's weights, the product's relevance floor). What it returns
 * passed that floor, so all of it counts as relevant.
 */
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_EXTENSIONS } from "../../src/db/database.js";
import { migrate } from "../../src/db/migrate.js";
import { MIGRATIONS } from "../../src/db/migrations/index.js";
import { createPglitePool } from "../../src/db/pglitePool.js";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { memoryStorage } from "../../src/db/storage.js";
import { LongTermMemory } from "../../src/services/memory/longTermMemory.js";
import { estimateTokens } from "../../src/services/memory/limits.js";
import { localInstant, type Extraction, type History } from "./dataset.js";
import type { ItemKind, LoadedMemory, MemoryUnderTest } from "./scripted.js";

/** The evaluated user: one per database. */
const PHONE = "972500000035";

/** A just-migrated database's files: each history's database starts from them (a migration run costs about a second). */
let migrated: Promise<Blob> | undefined;

async function migratedTemplate(): Promise<Blob> {
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const pool = createPglitePool(pglite);
  try {
    await migrate(pool, MIGRATIONS);
    return await pglite.dumpDataDir("none");
  } finally {
    await pool.end();
    await pglite.close();
  }
}

async function load(history: History, extraction: Extraction): Promise<LoadedMemory> {
  migrated ??= migratedTemplate();
  const pglite = await PGlite.create({ loadDataDir: await migrated, extensions: PGLITE_EXTENSIONS });
  const pool = createPglitePool(pglite);
  const close = async () => {
    await pool.end();
    await pglite.close();
  };
  try {
    await new PgUserRepository(pool).getOrCreate(PHONE, {
      timeZone: history.timeZone,
      language: history.language,
    });
    const storage = memoryStorage(pool);
    const zone = history.timeZone;
    const keyOf = new Map<string, string>();
    for (const fact of extraction.facts) {
      const saidAt = localInstant(fact.saidAt, zone);
      const { fact: stored } = await storage.repositories.facts.create(
        PHONE,
        {
          type: fact.type,
          content: fact.content,
          ...(fact.importance !== undefined && { importance: fact.importance }),
          subject: fact.subject,
          attribute: fact.attribute,
          people: fact.people ?? [],
          // "I moved last week": true from a day the user named, not from when it was said.
          ...(fact.validFrom
            ? { validFrom: localInstant(fact.validFrom, zone), precision: "day" as const }
            : {}),
        },
        saidAt,
      );
      keyOf.set(stored.id, fact.key);
    }
    for (const episode of extraction.episodes) {
      const occurredAt = localInstant(episode.occurredAt, zone);
      const { episode: stored } = await storage.repositories.episodes.create(
        PHONE,
        {
          kind: episode.kind,
          title: episode.title,
          summary: episode.summary,
          outcome: episode.outcome ?? null,
          participants: episode.participants,
          significance: episode.significance,
          occurredAt,
        },
        occurredAt,
      );
      keyOf.set(stored.id, episode.key);
    }
    for (const chunk of extraction.chunks) {
      const startedAt = localInstant(chunk.startedAt, zone);
      const endedAt = localInstant(chunk.endedAt, zone);
      const stored = await storage.repositories.chunks.create(PHONE, {
        firstMessageId: 0,
        lastMessageId: 0,
        messageCount: 10,
        summary: chunk.summary,
        keyTopics: chunk.keyTopics,
        tokenCount: estimateTokens(chunk.summary),
        startedAt,
        endedAt,
      });
      keyOf.set(stored.id, chunk.key);
    }
    let now = 0;
    const memory = new LongTermMemory({ storage, llm: null, mode: "rules", clock: () => now });
    return {
      async recall(question, askedAt) {
        now = askedAt;
        const { ranked } = await memory.recall(PHONE, question, zone);
        // Recall records the use of what it returned; the next question sees it, as a user's would.
        await memory.idle();
        // Everything recall returns passed the product's relevance floor: all of it counts as relevant.
        return ranked.map(({ kind, id, score }) => ({
          key: keyOf.get(id) ?? `unknown:${id}`,
          kind,
          score,
          relevant: true,
        }));
      },
      async close() {
        await memory.idle();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The kinds of extraction item Memo's memory stores and recalls today. */
const KINDS: ReadonlySet<ItemKind> = new Set<ItemKind>(["fact", "episode", "chunk"]);

/** Memo's long-term memory, as the evaluation's scripted mode drives it. */
export function productMemory(): MemoryUnderTest {
  return { kinds: KINDS, load };
}
