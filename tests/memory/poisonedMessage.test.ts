// One stored message that makes the background memory work throw (as the huge-number reminder
// once did in mayHoldFacts) is skipped and logged once; the user's later facts are still found and
// later summaries still folded, instead of every later turn failing on it again.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { memoryStorage } from "../../src/db/storage.js";
import { PgConversationHistory } from "../../src/db/repositories/conversationHistory.js";
import { PgConversationStore } from "../../src/db/repositories/conversationStore.js";
import { PgChunkRepository } from "../../src/db/repositories/chunkRepository.js";
import { PgMemoryProfileRepository } from "../../src/db/repositories/memoryProfileRepository.js";
import { LongTermMemory } from "../../src/services/memory/longTermMemory.js";
import { MemoryService } from "../../src/services/memory/memoryService.js";
import type * as MemoryText from "../../src/utils/memoryText.js";
import { fakeClock } from "../support/clock.js";
import { pgliteBackend, type TestDatabase } from "../support/db.js";
import { FakeLLM } from "../support/fakeLLM.js";
import { captureLogs } from "../support/logs.js";

/** A message the memory code cannot read: splitting it into sentences throws, in every step that reads it. */
const POISON = "poisoned message";

vi.mock("../../src/utils/memoryText.js", async (importOriginal) => {
  const original = await importOriginal<typeof MemoryText>();
  return {
    ...original,
    sentencesOf: (text: string) => {
      if (text.includes(POISON)) throw new RangeError("Invalid time value");
      return original.sentencesOf(text);
    },
    statementsOf: (text: string, bare: (sentence: string) => string) => {
      if (text.includes(POISON)) throw new RangeError("Invalid time value");
      return original.statementsOf(text, bare);
    },
  };
});

let db: TestDatabase;
beforeAll(async () => {
  db = await pgliteBackend.create();
});
afterAll(async () => db?.close());

let n = 0;
async function newUser(): Promise<string> {
  const phone = `97253900${String(++n).padStart(4, "0")}`;
  await db.pool.query("INSERT INTO users (phone, time_zone) VALUES ($1, 'Asia/Jerusalem')", [phone]);
  return phone;
}

/** A conversation as the graph drives it: window and history, background work after each turn. */
function conversation(llm: FakeLLM | null) {
  const clock = fakeClock();
  const { logger, lines } = captureLogs();
  const history = new PgConversationHistory(db.pool);
  const memory = new MemoryService(new PgConversationStore(db.pool), { clock: clock.now, history });
  const longTerm = new LongTermMemory({
    storage: memoryStorage(db.pool),
    llm,
    memory,
    logger,
    clock: clock.now,
  });
  return {
    longTerm,
    /** Log lines about skipped messages, as [step, message id]. */
    skipped: () =>
      lines()
        .filter((l) => l.msg === "long-term memory skipped a message it cannot read")
        .map((l) => [l.step, l.messageId]),
    failures: () => lines().filter((l) => l.msg === "long-term memory failed"),
    async turn(phone: string, said: string) {
      await memory.load(phone);
      await memory.addUserMessage(phone, said);
      clock.advance(1000);
      await memory.addAssistantMessage(phone, "Done.");
      clock.advance(60_000);
      await longTerm.schedule(phone, memory.getRecentMessages(phone).length);
      await longTerm.idle();
    },
  };
}

const poisonedId = async (phone: string) =>
  (await new PgConversationHistory(db.pool).between(phone, 0, null)).find((m) => m.content.includes(POISON))!
    .id;

describe("a stored message the memory work cannot read", () => {
  it("is skipped and logged once; the next fact is remembered and the chunk is still made (rules)", async () => {
    const phone = await newUser();
    const c = conversation(null);
    await c.turn(phone, `I was told: ${POISON}`);
    await c.turn(phone, "I'm allergic to peanuts");
    // Enough later turns for both messages to leave the window of 10 and be put into a chunk.
    for (const said of [
      "I live in Haifa",
      "thanks",
      "I work at Acme",
      "ok",
      "I have two kids",
      "great",
      "fine",
      "good",
    ])
      await c.turn(phone, said);

    const facts = (await c.longTerm.listFacts(phone)).map((f) => f.content);
    expect(facts).toEqual(expect.arrayContaining(["Allergic to peanuts", "Lives in Haifa", "Has two kids"]));
    const id = await poisonedId(phone);
    expect(c.skipped()).toEqual([
      ["extractFacts", id],
      ["makeChunks", id],
    ]);
    expect(c.failures()).toEqual([]);
    const profile = await new PgMemoryProfileRepository(db.pool).ensure(phone);
    expect(profile.summaryThrough).toBeGreaterThan(id);
    expect(profile.factsThrough).toBeGreaterThan(id);
    const [chunk] = await new PgChunkRepository(db.pool).list(phone);
    expect(chunk!.summary).toContain("allergic to peanuts");
    expect(chunk!.summary).not.toContain(POISON);
  });

  it("never reaches the model, and the facts in the same batch still do (LLM)", async () => {
    const phone = await newUser();
    const llm = new FakeLLM((node, messages) => {
      const text = JSON.stringify(messages.at(-1)?.content ?? "");
      return text.includes("peanuts")
        ? {
            facts: [
              {
                message: 1,
                type: "constraint",
                content: "Allergic to peanuts",
                importance: 0.6,
                subject: "user",
                attribute: "",
                people: [],
                since: "",
                replaces: [],
              },
            ],
          }
        : { facts: [] };
    });
    const c = conversation(llm);
    await c.turn(phone, `I was told: ${POISON}`);
    await c.turn(phone, "I'm allergic to peanuts");
    await c.turn(phone, "I'm allergic to peanuts, I said");

    expect((await c.longTerm.listFacts(phone)).map((f) => f.content)).toEqual(["Allergic to peanuts"]);
    expect(llm.calls.some((call) => JSON.stringify(call.messages).includes(POISON))).toBe(false);
    expect(c.skipped()).toEqual([["extractFacts", await poisonedId(phone)]]);
  });
});
