import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "../../src/db/storage.js";
import type { LLMNode } from "../../src/types/llm.js";
import {
  PgConversationHistory,
  type ConversationHistory,
} from "../../src/db/repositories/conversationHistory.js";
import { PgChunkRepository } from "../../src/db/repositories/chunkRepository.js";
import { PgConversationStore } from "../../src/db/repositories/conversationStore.js";
import { PgMemoryProfileRepository } from "../../src/db/repositories/memoryProfileRepository.js";
import { PgMemoryRepository } from "../../src/db/repositories/memoryRepository.js";
import type pg from "pg";
import type { LLMMessage } from "../../src/types/llm.js";
import { FACTS_PROMPT } from "../../src/prompts/factExtractionPrompt.js";
import { estimateTokens } from "../../src/services/memory/limits.js";
import { LongTermMemory } from "../../src/services/memory/longTermMemory.js";
import { FACTS_HEADING, SUMMARY_HEADING } from "../../src/services/memory/memoryContext.js";
import { MemoryService } from "../../src/services/memory/memoryService.js";
import { mentionsFact } from "../../src/utils/memoryText.js";
import { CHUNK_SUMMARY_PROMPT, FORGET_PROMPT } from "../../src/prompts/conversationSummaryPrompt.js";
import { fakeClock, type FakeClock } from "../support/clock.js";
import { backends, type TestDatabase } from "../support/db.js";
import { FakeLLM } from "../support/fakeLLM.js";
import type { MemoryPort } from "../../src/services/secondBrain/ports.js";
import { captureLogs } from "../support/logs.js";
import { prng } from "../support/random.js";

const MINUTE = 60_000;
const THINGS = ["car", "bike", "piano", "guitar", "laptop", "camera", "sofa", "boat", "drone", "tent"].concat(
  ["kayak", "printer", "telescope", "ukulele", "scooter", "violin", "tractor", "canoe", "easel", "lathe"],
);
const COLORS = ["red", "blue", "green", "black", "white", "yellow", "orange", "purple", "silver", "golden"];
const PLACES = [
  "garage",
  "office",
  "cabin",
  "attic",
  "basement",
  "studio",
  "balcony",
  "warehouse",
  "garden",
  "loft",
];
const DAY = 24 * 60 * MINUTE;

let n = 0;
/** A phone no other test in this file uses. */
const nextPhone = () => `97253000${String(++n).padStart(4, "0")}`;

/** The text of a message the service sent (memory calls send plain text only). */
const textOf = (message: LLMMessage | undefined) =>
  typeof message?.content === "string" ? message.content : "";
const userText = (messages: LLMMessage[]) => textOf(messages.at(-1));
const systemText = (messages: LLMMessage[]) => textOf(messages[0]);

describe.each(backends)("long-term memory on $name", (backend) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await backend.create();
  });
  afterAll(async () => db?.close());

  async function newUser(): Promise<string> {
    const phone = nextPhone();
    await db.pool.query("INSERT INTO users (phone, time_zone) VALUES ($1, 'Asia/Jerusalem')", [phone]);
    return phone;
  }

  /** A conversation as the graph drives it: window + history, background work after each turn. */
  function setup(options: { llm?: FakeLLM | null; clock?: FakeClock } = {}) {
    const clock = options.clock ?? fakeClock();
    const history = new PgConversationHistory(db.pool);
    const memory = new MemoryService(new PgConversationStore(db.pool), { clock: clock.now, history });
    const longTerm = new LongTermMemory({
      storage: memoryStorage(db.pool),
      llm: options.llm ?? null,
      memory,
      clock: clock.now,
    });
    async function turn(phone: string, said: string, answer = "Done.") {
      await memory.load(phone);
      await memory.addUserMessage(phone, said);
      clock.advance(1000);
      await memory.addAssistantMessage(phone, answer);
      clock.advance(MINUTE);
      await longTerm.schedule(phone, memory.getRecentMessages(phone).length);
      await longTerm.idle();
    }
    return { clock, history, memory, longTerm, turn };
  }

  const profileOf = (phone: string) => new PgMemoryProfileRepository(db.pool).ensure(phone);
  const historyOf = (phone: string) => new PgConversationHistory(db.pool).between(phone, 0, null);
  /** The user's chunks, oldest first. */
  const chunksOf = async (phone: string) => (await new PgChunkRepository(db.pool).list(phone)).reverse();
  /** Every chunk summary of the user, oldest first. */
  const summariesOf = async (phone: string) => (await chunksOf(phone)).map((c) => c.summary).join("\n");

  describe("conversation history", () => {
    it("stores a redelivered WhatsApp message once, per role, and messages without an id each time", async () => {
      const phone = await newUser();
      const history = new PgConversationHistory(db.pool);
      const first = await history.append(phone, {
        role: "user",
        content: "hi",
        whatsappMessageId: "wamid.1",
        createdAt: 1,
      });
      const again = await history.append(phone, {
        role: "user",
        content: "hi (redelivered)",
        whatsappMessageId: "wamid.1",
        createdAt: 2,
      });
      const other = await history.append(phone, {
        role: "assistant",
        content: "hello",
        whatsappMessageId: "wamid.1",
        createdAt: 3,
      });
      const plainA = await history.append(phone, { role: "assistant", content: "same", createdAt: 4 });
      const plainB = await history.append(phone, { role: "assistant", content: "same", createdAt: 4 });

      expect(again).toBe(first);
      expect(new Set([first, other, plainA, plainB]).size).toBe(4);
      const stored = await history.between(phone, 0, null);
      expect(stored.map((m) => [m.role, m.content])).toEqual([
        ["user", "hi"],
        ["assistant", "hello"],
        ["assistant", "same"],
        ["assistant", "same"],
      ]);
      expect(stored[0]).toMatchObject({ whatsappMessageId: "wamid.1", createdAt: 1 });
    });

    it("reads ranges, the newest ids and what has left a window, and deletes only the owner's rows", async () => {
      const phone = await newUser();
      const other = await newUser();
      const history = new PgConversationHistory(db.pool);
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) {
        ids.push(
          await history.append(phone, { role: i % 2 ? "assistant" : "user", content: `m${i}`, createdAt: i }),
        );
        await history.append(other, { role: "user", content: `other ${i}`, createdAt: i });
      }
      expect((await history.between(phone, ids[1]!, ids[3]!)).map((m) => m.content)).toEqual(["m2", "m3"]);
      expect(
        (await history.between(phone, 0, null, { role: "user", order: "desc", limit: 2 })).map(
          (m) => m.content,
        ),
      ).toEqual(["m4", "m2"]);
      expect(await history.newestIds(phone, 2)).toEqual([ids[5], ids[4]]);
      expect((await history.outsideWindow(phone, 0, 4, 10)).map((m) => m.content)).toEqual(["m0", "m1"]);
      expect((await history.outsideWindow(phone, ids[0]!, 4, 10)).map((m) => m.content)).toEqual(["m1"]);
      expect(await history.outsideWindow(phone, 0, 6, 10)).toEqual([]);

      const otherIds = (await history.between(other, 0, null)).map((m) => m.id);
      expect(await history.delete(phone, [ids[0]!, ...otherIds])).toBe(1);
      expect(await history.between(other, 0, null)).toHaveLength(6);
      expect(await history.deleteAll(phone)).toBe(5);
      expect(await history.between(other, 0, null)).toHaveLength(6);
    });
  });

  describe("MemoryService with a history", () => {
    it("appends user, assistant and proactive messages, never system notes, memory commands or a redelivery", async () => {
      const phone = await newUser();
      const { memory, clock } = setup();
      await memory.load(phone);
      await memory.addUserMessage(phone, "remind me to call mom", { whatsappMessageId: "wamid.a" });
      await memory.addUserMessage(phone, "remind me to call mom", { whatsappMessageId: "wamid.a" });
      clock.advance(1000);
      await memory.addAssistantMessage(phone, "When?");
      await memory.addSystemMessage(phone, "user is in Asia/Jerusalem");
      await memory.addUserMessage(phone, "what do you remember about me?", {
        metadata: { memoryCommand: true },
      });
      await memory.addAssistantMessage(phone, "You prefer tea.", undefined, { memoryCommand: true });
      await memory.appendProactiveMessage(phone, "⏰ Call mom", "wamid.r");

      const stored = await historyOf(phone);
      expect(stored.map((m) => [m.role, m.content, m.whatsappMessageId])).toEqual([
        ["user", "remind me to call mom", "wamid.a"],
        ["assistant", "When?", null],
        ["assistant", "⏰ Call mom", "wamid.r"],
      ]);
      // The same instants as the window's messages.
      expect(stored.map((m) => m.createdAt)).toEqual([
        Date.parse("2026-03-01T09:00:00Z"),
        Date.parse("2026-03-01T09:00:01Z"),
        Date.parse("2026-03-01T09:00:01Z"),
      ]);
      expect(memory.getRecentMessages(phone)).toHaveLength(6);
    });

    it("keeps the turn going when the history fails, and logs it without the text", async () => {
      const phone = await newUser();
      const { logger, lines } = captureLogs();
      const failing: ConversationHistory = {
        ...new PgConversationHistory(db.pool),
        append: () => Promise.reject(new Error("history down")),
      } as unknown as ConversationHistory;
      const memory = new MemoryService(new PgConversationStore(db.pool), { history: failing, logger });
      await memory.load(phone);
      await memory.addUserMessage(phone, "my secret plan");
      expect(memory.getRecentMessages(phone).map((m) => m.content)).toEqual(["my secret plan"]);
      const logged = lines().find((l) => l.msg === "conversation history failed");
      expect(logged).toMatchObject({ op: "appendHistory", error: "history down" });
      expect(JSON.stringify(lines())).not.toContain("secret");
    });

    it("drops chosen messages from the window and its store", async () => {
      const phone = await newUser();
      const { memory } = setup();
      await memory.load(phone);
      await memory.addUserMessage(phone, "keep");
      await memory.addUserMessage(phone, "drop me");
      expect(await memory.dropMessages(phone, (m) => m.content === "drop me")).toBe(1);
      expect(memory.getRecentMessages(phone).map((m) => m.content)).toEqual(["keep"]);
      await memory.load(phone);
      expect(memory.getRecentMessages(phone).map((m) => m.content)).toEqual(["keep"]);
    });
  });

  describe("conversation chunks", () => {
    it("makes a chunk once 10 messages have left the window, and moves its cursor to the last one", async () => {
      const phone = await newUser();
      const { turn, longTerm } = setup();
      for (let i = 1; i <= 9; i++) await turn(phone, `I like topic${i} a lot`);
      // 18 messages: 8 outside a window of 10, not yet a chunk.
      expect(await chunksOf(phone)).toEqual([]);
      expect((await profileOf(phone)).summaryThrough).toBe(0);
      await turn(phone, "I like topic10 a lot");

      const messages = await historyOf(phone);
      expect((await profileOf(phone)).summaryThrough).toBe(messages[9]!.id);
      const [chunk, ...more] = await chunksOf(phone);
      expect(more).toEqual([]);
      expect(chunk).toMatchObject({
        chunkNumber: 0,
        firstMessageId: messages[0]!.id,
        lastMessageId: messages[9]!.id,
        messageCount: 10,
        mergedFrom: 1,
        startedAt: messages[0]!.createdAt,
        endedAt: messages[9]!.createdAt,
      });
      expect(chunk!.summary.split("\n")).toEqual(
        [1, 2, 3, 4, 5].map((i) => `- 2026-03-01: "I like topic${i} a lot"`),
      );
      expect(chunk!.tokenCount).toBe(estimateTokens(chunk!.summary));
      // Key topics by a count over the chunk ("lot" in every message of the user, "done" in every
      // answer, then the topics said once), generic verbs such as "like" left out.
      expect(chunk!.keyTopics).toEqual(["lot", "done", "topic1", "topic2", "topic3"]);
      // What is still in the window is not in a chunk.
      expect(chunk!.summary).not.toContain("topic6");
      const again = await longTerm.process(phone, 10);
      expect(again).toMatchObject({ folded: 0, chunks: 0 });
    });

    it("makes each chunk once when two instances process the same user at the same time", async () => {
      const phone = await newUser();
      const clock = fakeClock();
      const history = new PgConversationHistory(db.pool);
      for (let i = 0; i < 40; i++) {
        await history.append(phone, {
          role: i % 2 ? "assistant" : "user",
          content: i % 2 ? "ok" : `I enjoy ${THINGS[i / 2]} lessons on weekends`,
          createdAt: clock.now() + i * MINUTE,
        });
      }
      const a = new LongTermMemory({ storage: memoryStorage(db.pool), llm: null, clock: clock.now });
      const b = new LongTermMemory({ storage: memoryStorage(db.pool), llm: null, clock: clock.now });
      const [ra, rb] = await Promise.all([a.process(phone, 10), b.process(phone, 10)]);

      expect(ra.folded + rb.folded).toBe(30);
      expect(ra.chunks + rb.chunks).toBe(3);
      expect(ra.factsCreated + rb.factsCreated).toBe(20);
      const chunks = await chunksOf(phone);
      const messages = await historyOf(phone);
      expect(chunks.map((c) => [c.chunkNumber, c.firstMessageId, c.lastMessageId])).toEqual([
        [0, messages[0]!.id, messages[9]!.id],
        [1, messages[10]!.id, messages[19]!.id],
        [2, messages[20]!.id, messages[29]!.id],
      ]);
      const lines = chunks.flatMap((c) => c.summary.split("\n"));
      expect(new Set(lines).size).toBe(lines.length);
      expect(lines).toHaveLength(15);
      expect((await profileOf(phone)).summaryThrough).toBe(messages[29]!.id);
      const facts = await a.listFacts(phone);
      expect(facts).toHaveLength(20);
      expect(new Set(facts.map((f) => f.content)).size).toBe(20);
    });

    it("merges the two oldest chunks past 20: 'Earlier: … Then: …', topics once, range widened", async () => {
      const phone = await newUser();
      const clock = fakeClock();
      const history = new PgConversationHistory(db.pool);
      // 230 messages: 220 leave a window of 10, 22 chunks' worth.
      for (let i = 0; i < 230; i++) {
        await history.append(phone, {
          role: i % 2 ? "assistant" : "user",
          content:
            i % 2
              ? "ok"
              : `My ${COLORS[(i / 2) % 10]} ${THINGS[(i / 2) % 20]} is in the ${PLACES[Math.floor(i / 20) % 10]}`,
          createdAt: clock.now() + i * MINUTE,
        });
      }
      const longTerm = new LongTermMemory({ storage: memoryStorage(db.pool), llm: null, clock: clock.now });
      const first = await longTerm.process(phone, 10);
      expect(first).toMatchObject({ chunks: 20, merged: 0 });
      const [c0, c1, c2] = await chunksOf(phone);
      const second = await longTerm.process(phone, 10);
      expect(second).toMatchObject({ chunks: 2, merged: 2 });

      const chunks = await chunksOf(phone);
      expect(chunks).toHaveLength(20);
      const messages = await historyOf(phone);
      const oldest = chunks[0]!;
      expect(oldest).toMatchObject({
        chunkNumber: 0,
        mergedFrom: 3,
        messageCount: 30,
        firstMessageId: messages[0]!.id,
        lastMessageId: messages[29]!.id,
        startedAt: messages[0]!.createdAt,
        endedAt: messages[29]!.createdAt,
      });
      expect(oldest.summary.startsWith("Earlier: ")).toBe(true);
      expect(oldest.summary).not.toContain("Earlier: Earlier");
      expect(oldest.summary.endsWith(`Then: ${c2!.summary}`)).toBe(true);
      expect(oldest.summary).toContain(c1!.summary.split("\n").at(-1)!);
      expect(oldest.tokenCount).toBeLessThanOrEqual(200);
      expect(new Set(oldest.keyTopics.map((t) => t.toLowerCase())).size).toBe(oldest.keyTopics.length);
      expect(oldest.keyTopics).toEqual(expect.arrayContaining(c0!.keyTopics.slice(0, 1)));
      // The rest keep their numbers; the newest chunk ends where the window begins.
      expect(chunks.slice(1).map((c) => c.chunkNumber)).toEqual(Array.from({ length: 19 }, (_, i) => i + 3));
      expect(chunks.at(-1)!.lastMessageId).toBe(messages[219]!.id);
    });

    it("asks the LLM once per chunk with exactly its messages, and stores its summary and topics", async () => {
      const phone = await newUser();
      const llm = new FakeLLM((_node: LLMNode, messages: LLMMessage[]) => {
        if (systemText(messages) === CHUNK_SUMMARY_PROMPT)
          return {
            summary: "- Planning a trip to Rome in May\n- Prefers aisle seats",
            topics: ["Rome", "trip", "rome", "seats"],
          };
        return { facts: [] };
      });
      const { turn } = setup({ llm });
      const said = [
        "We are planning a trip to Rome in May",
        "I prefer aisle seats",
        "Book nothing yet",
        "Still deciding on dates",
        "Dates later",
        "Fine",
        "Next week maybe",
        "Or the week after",
        "Let me check with Dan",
        "Dan says May is good",
        "So May it is",
        "Thanks",
      ];
      for (const text of said) await turn(phone, text, `Noted: ${text}`);

      const calls = llm.calls.filter((c) => systemText(c.messages) === CHUNK_SUMMARY_PROMPT);
      expect(calls).toHaveLength(1);
      expect(calls[0]!.node).toBe("memory");
      const sent = userText(calls[0]!.messages);
      expect(sent).toContain("User: We are planning a trip to Rome in May");
      expect(sent).toContain("Memo: Noted: Dates later");
      // 24 messages, a window of 10: the first ten made the chunk; the next four wait for more.
      expect(sent).not.toContain("Fine");
      const [chunk] = await chunksOf(phone);
      expect(chunk!.summary).toBe("- Planning a trip to Rome in May\n- Prefers aisle seats");
      expect(chunk!.keyTopics).toEqual(["Rome", "trip", "seats"]);
    });
  });

  describe("facts", () => {
    it("of a household member stay theirs: a 'we' statement about the other person is no fact of hers", async () => {
      const yossi = await newUser();
      const dana = await newUser();
      await db.pool.query(
        `INSERT INTO households (id, created_at) VALUES ('00000000-0000-4000-8000-0000000000bb', now());
         INSERT INTO household_members (household_id, phone, name, joined_at)
         VALUES ('00000000-0000-4000-8000-0000000000bb', '${yossi}', 'Yossi', now()),
                ('00000000-0000-4000-8000-0000000000bb', '${dana}', 'Dana', now())`,
      );
      // The model takes a fact about Dana from Yossi's words: it is Yossi's to remember, about his life.
      const llm = new FakeLLM((_node: LLMNode, messages: LLMMessage[]) =>
        systemText(messages) === FACTS_PROMPT
          ? {
              facts: [
                {
                  message: 1,
                  type: "entity",
                  content: "Partner Dana is vegetarian",
                  importance: 0.8,
                  subject: "user",
                  attribute: "",
                  people: [],
                  since: "",
                  replaces: [],
                },
              ],
            }
          : "summary",
      );
      const { turn, longTerm } = setup({ llm });
      await turn(yossi, "We don't eat meat at home, Dana is vegetarian");
      expect((await longTerm.listFacts(yossi)).map((f) => f.content)).toEqual(["Partner Dana is vegetarian"]);
      expect(await longTerm.listFacts(dana)).toEqual([]);
      expect(FACTS_PROMPT).toContain('A "we" statement');
    });

    it("are extracted by the LLM in one call per batch, with their source message; questions cost no call", async () => {
      const phone = await newUser();
      const llm = new FakeLLM((_node: LLMNode, messages: LLMMessage[]) => {
        if (systemText(messages) !== FACTS_PROMPT) return "summary";
        const text = userText(messages);
        return text.includes("morning")
          ? {
              facts: [
                {
                  message: 1,
                  type: "preference",
                  content: "Prefers morning meetings",
                  importance: 0.9,
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
      const { turn, longTerm } = setup({ llm });
      await turn(phone, "Honestly mornings work best, I prefer morning meetings");
      await turn(phone, "What's on today?");

      const calls = llm.calls.filter((c) => systemText(c.messages) === FACTS_PROMPT);
      // The question tells nothing about the user: the model is not asked about it.
      expect(calls).toHaveLength(1);
      expect(userText(calls[0]!.messages)).toBe(
        "Messages from the user:\n1. Honestly mornings work best, I prefer morning meetings",
      );
      const [fact] = await longTerm.listFacts(phone);
      const [source] = await historyOf(phone);
      expect(fact).toMatchObject({
        type: "preference",
        content: "Prefers morning meetings",
        importance: expect.closeTo(0.9, 5) as number,
        sourceMessageId: source!.id,
        status: "active",
      });
    });

    it("refreshes a near-identical fact instead of storing it twice", async () => {
      const phone = await newUser();
      const { turn, longTerm, clock } = setup();
      await turn(phone, "I prefer morning meetings");
      clock.advance(3 * DAY);
      await turn(phone, "I prefer morning meetings.");
      await turn(phone, "I prefer evening meetings on Fridays");
      const facts = await longTerm.listFacts(phone);
      expect(facts.map((f) => f.content).sort()).toEqual([
        "Prefers evening meetings on Fridays",
        "Prefers morning meetings",
      ]);
      const morning = facts.find((f) => f.content === "Prefers morning meetings")!;
      expect(morning.accessCount).toBe(1);
      expect(morning.lastAccessedAt).toBeGreaterThan(morning.createdAt);
    });

    it("never takes facts from note commands, by rules or by the LLM", async () => {
      const phone = await newUser();
      const { turn, longTerm } = setup();
      await turn(phone, "note: my bank PIN is 4412", "📝 Noted: “my bank PIN is 4412”");
      await turn(phone, "תזכור שהקוד של השער הוא 1234");
      await turn(phone, "remember that I'm allergic to peanuts");
      await turn(phone, "I live in Haifa");
      expect((await longTerm.listFacts(phone)).map((f) => f.content)).toEqual(["Lives in Haifa"]);

      const other = await newUser();
      const llm = new FakeLLM((_node: LLMNode, messages: LLMMessage[]) =>
        systemText(messages) === FACTS_PROMPT ? { facts: [] } : "summary",
      );
      await setup({ llm }).turn(other, "note: my bank PIN is 4412");
      const sent = llm.calls.filter((c) => systemText(c.messages) === FACTS_PROMPT);
      expect(sent.map((c) => userText(c.messages)).join("\n")).not.toContain("4412");
    });

    it("replaces a fact the user takes back instead of merging the opposites", async () => {
      const phone = await newUser();
      const { turn, longTerm, clock } = setup();
      await turn(phone, "אני אוהב קפה");
      await turn(phone, "I like black coffee");
      clock.advance(DAY);
      await turn(phone, "אני לא אוהב קפה");
      await turn(phone, "I don't like black coffee");
      expect((await longTerm.listFacts(phone)).map((f) => f.content).sort()).toEqual([
        "Doesn't like black coffee",
        "לא אוהב קפה",
      ]);
      // Taken back, not deleted: what was true until then is kept (spec 004 temporal validity).
      const history = await longTerm.listFacts(phone, { history: true });
      const liked = history.find((f) => f.content === "Likes black coffee")!;
      expect(liked.validUntil).toBeGreaterThan(liked.validFrom);
      expect(liked.validUntil).toBeLessThanOrEqual(clock.now());

      const repo = new PgMemoryRepository(db.pool);
      const fridays = await repo.create(
        phone,
        { type: "constraint", content: "Can meet on Fridays" },
        clock.now(),
      );
      const taken = await repo.create(
        phone,
        { type: "constraint", content: "Can't meet on Fridays" },
        clock.now(),
      );
      expect(taken.created).toBe(true);
      const contents = (await repo.list(phone, "all")).map((f) => f.content);
      expect(contents).toContain("Can't meet on Fridays");
      expect(contents).not.toContain("Can meet on Fridays");
      const [closed] = await repo.getMany(phone, [fridays.fact.id]);
      expect(closed!.validUntil).toBe(clock.now());
      expect(taken.fact.relationships).toEqual([
        { targetId: fridays.fact.id, type: "contradicts", strength: 1, createdAt: clock.now() },
      ]);
    });

    it("schedule() returns the run it starts or joins, which covers what was asked meanwhile", async () => {
      const phone = await newUser();
      const history = new PgConversationHistory(db.pool);
      // The run's database work waits until the second message is stored, so the run is still
      // going when schedule() is called again, however fast the database answers.
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const pool = db.pool;
      const gated = Object.create(pool, {
        query: {
          value: async (text: string, values?: unknown[]) => {
            await gate;
            return pool.query(text, values);
          },
        },
        connect: {
          value: async () => {
            await gate;
            return pool.connect();
          },
        },
      }) as typeof pool;
      const longTerm = new LongTermMemory({ storage: memoryStorage(gated), llm: null });
      await history.append(phone, { role: "user", content: "I live in Haifa", createdAt: Date.now() });
      const first = longTerm.schedule(phone);
      await history.append(phone, {
        role: "user",
        content: "I'm allergic to peanuts",
        createdAt: Date.now(),
      });
      const joined = longTerm.schedule(phone);
      open();
      expect(first).toBeInstanceOf(Promise);
      expect(joined).toBe(first);
      await joined;
      const stored = await new PgMemoryRepository(db.pool).list(phone);
      expect(stored.map((f) => f.content).sort()).toEqual(["Allergic to peanuts", "Lives in Haifa"]);
    });

    it("lists, finds and counts a fact said just before, while it is still being extracted", async () => {
      const phone = await newUser();
      const { memory, longTerm } = setup();
      const say = async (text: string) => {
        await memory.load(phone);
        await memory.addUserMessage(phone, text);
        // Not awaited, as after a real turn.
        void longTerm.schedule(phone, memory.getRecentMessages(phone).length);
      };
      await say("I'm allergic to peanuts");
      expect((await longTerm.listFacts(phone)).map((f) => f.content)).toEqual(["Allergic to peanuts"]);
      await say("I live in Haifa");
      expect((await longTerm.counts(phone)).facts).toBe(2);
      await say("My wife is Dana");
      const [found] = await longTerm.findFacts(phone, "that my wife is Dana");
      expect(found?.content).toBe("User's wife is Dana");
    });

    it("ignores questions, requests and small talk", async () => {
      const phone = await newUser();
      const { turn, longTerm } = setup();
      for (const text of [
        "Hi!",
        "Remind me to call mom at 5",
        "What do I prefer?",
        "thanks",
        "תזכיר לי לקנות חלב",
      ])
        await turn(phone, text);
      expect(await longTerm.listFacts(phone)).toEqual([]);
    });
  });

  describe("context for the planner", () => {
    async function seeded() {
      const phone = await newUser();
      const { longTerm, clock } = setup();
      const repo = new PgMemoryRepository(db.pool);
      for (let i = 0; i < 200; i++) {
        const content = `Keeps a ${COLORS[Math.floor(i / 20)]} ${THINGS[i % 20]} in the ${PLACES[i % 10]}`;
        await repo.create(
          phone,
          { type: i % 3 ? "fact" : "entity", content, importance: 0.5 },
          clock.now() - (i % 40) * DAY,
        );
      }
      // A strong preference, stated today: spec 004's weights put recency (0.2) before importance (0.1).
      await repo.create(
        phone,
        { type: "preference", content: "Prefers morning meetings", importance: 0.8 },
        clock.now(),
      );
      expect(await repo.list(phone)).toHaveLength(201);
      const chunks = new PgChunkRepository(db.pool);
      for (let c = 0; c < 20; c++) {
        const summary = Array.from(
          { length: 4 },
          (_, i) => `- 2026-02-${String(c + 1).padStart(2, "0")}: "Line ${c * 4 + i} of what was said"`,
        ).join("\n");
        const at = Date.UTC(2026, 1, c + 1, 9);
        await chunks.create(phone, {
          firstMessageId: c * 10 + 1,
          lastMessageId: c * 10 + 10,
          messageCount: 10,
          summary,
          keyTopics: [],
          tokenCount: estimateTokens(summary),
          startedAt: at,
          endedAt: at + 3_600_000,
        });
      }
      return { phone, longTerm, clock };
    }

    it("stays within its budget with 20 chunks and 200 facts, the relevant fact first", async () => {
      const { phone, longTerm } = await seeded();
      const context = await longTerm.contextFor(phone, "Can you set up a meeting with Dan tomorrow?");
      const [summarySection, factsSection] = context.text!.split("\n\n");
      expect(summarySection!.startsWith(SUMMARY_HEADING)).toBe(true);
      const summaryTokens = estimateTokens(summarySection!.slice(SUMMARY_HEADING.length + 1));
      // The newest chunks, oldest first, dated in the user's zone.
      expect(summarySection).toContain('(20 Feb 2026) - 2026-02-20: "Line 76 of what was said"');
      expect(summarySection).toContain("Line 79 of what was said");
      expect(summarySection).not.toContain("Line 0 of");
      expect(summarySection!.indexOf("(19 Feb 2026)")).toBeLessThan(summarySection!.indexOf("(20 Feb 2026)"));
      const factLines = factsSection!.split("\n").slice(1);
      expect(factsSection!.startsWith(FACTS_HEADING)).toBe(true);
      expect(factLines.length).toBeGreaterThan(0);
      expect(factLines.length).toBeLessThanOrEqual(6);
      const factTokens = factLines.reduce((sum, l) => sum + estimateTokens(l), 0);
      expect(factTokens).toBeLessThanOrEqual(200);
      // No larger than the rolling summary (300) and facts (200) were.
      expect(summaryTokens + factTokens).toBeLessThanOrEqual(500);
      expect(factLines[0]).toMatch(
        /^- \(preference\) Prefers morning meetings \(since \d{1,2} \w{3} \d{4}\)$/,
      );
      expect(context.factIds).toHaveLength(factLines.length);
    });

    it("puts facts speaking of the message's words first, and records their use", async () => {
      const { phone, longTerm, clock } = await seeded();
      clock.advance(1000);
      const context = await longTerm.contextFor(phone, "Anything new up in the attic?");
      const factLines = context.text!.split(`${FACTS_HEADING}\n`)[1]!.split("\n");
      expect(factLines).toHaveLength(6);
      expect(factLines.every((l) => l.includes("attic"))).toBe(true);
      await longTerm.idle();
      const used = await new PgMemoryRepository(db.pool).getMany(phone, context.factIds);
      expect(used.every((f) => f.accessCount === 1 && f.lastAccessedAt === clock.now())).toBe(true);
    });

    it("still shows a strong preference when the message shares no word with it", async () => {
      const { phone, longTerm } = await seeded();
      const context = await longTerm.contextFor(phone, "What's the weather like?");
      expect(context.text).toContain("- (preference) Prefers morning meetings");
    });

    it("records no use of a fact shown for its value alone, so it keeps decaying", async () => {
      const { phone, longTerm } = await seeded();
      const context = await longTerm.contextFor(phone, "What's the weather like?");
      expect(context.text).toContain("- (preference) Prefers morning meetings");
      await longTerm.idle();
      const repo = new PgMemoryRepository(db.pool);
      const shown = await repo.getMany(phone, context.factIds);
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every((f) => f.accessCount === 0)).toBe(true);
    });

    it("is empty for a user with no memory", async () => {
      const phone = await newUser();
      const { longTerm } = setup();
      expect(await longTerm.contextFor(phone, "hello")).toEqual({ text: undefined, factIds: [] });
    });

    it.each([["rules"], ["llm"]] as const)(
      "shows a preference said at message 1 after 40 more messages (%s)",
      async (mode) => {
        const phone = await newUser();
        const llm =
          mode === "llm"
            ? new FakeLLM((_node: LLMNode, messages: LLMMessage[]) => {
                if (systemText(messages) === CHUNK_SUMMARY_PROMPT)
                  return { summary: "- Talked about groceries", topics: ["groceries"] };
                const text = userText(messages);
                const index = text.split("\n").findIndex((l) => l.includes("prefer morning"));
                return index > 0
                  ? {
                      facts: [
                        {
                          message: index,
                          type: "preference",
                          content: "Prefers morning meetings",
                          importance: 0.6,
                        },
                      ],
                    }
                  : { facts: [] };
              })
            : null;
        const { turn, longTerm, memory } = setup({ llm });
        await turn(phone, "I prefer morning meetings", "Noted.");
        for (let i = 0; i < 20; i++)
          await turn(phone, `Add item${i} to the shopping list`, `Added item${i}.`);

        expect(memory.getRecentMessages(phone).some((m) => m.content.includes("morning"))).toBe(false);
        const context = await longTerm.contextFor(phone, "Set up a call with Dan next week");
        expect(context.text).toContain("Prefers morning meetings");
      },
    );
  });

  describe("forget", () => {
    /** A user who said a preference and where they live, each with a note, then chatted on. */
    async function remembered(llm: FakeLLM | null) {
      const phone = await newUser();
      const env = setup({ llm });
      await env.turn(phone, "I prefer morning meetings", "Noted.");
      await env.turn(phone, "I live in Haifa", "Noted.");
      const [meetingsMessage, , haifaMessage] = await historyOf(phone);
      await db.pool.query(
        `INSERT INTO notes (user_phone, content, search_text, source_message_id)
         VALUES ($1, 'Meetings: mornings only', 'meetings mornings only', $2),
                ($1, 'Address: Haifa', 'address haifa', $3)`,
        [phone, meetingsMessage!.id, haifaMessage!.id],
      );
      // 24 messages: the first ten (both statements among them) are a chunk.
      for (let i = 0; i < 10; i++) await env.turn(phone, `Add item${i} to the shopping list`, "Added.");
      expect(await chunksOf(phone)).toHaveLength(1);
      return { phone, ...env };
    }

    async function notesOf(phone: string): Promise<string[]> {
      const { rows } = await db.pool.query<{ content: string }>(
        "SELECT content FROM notes WHERE user_phone = $1 ORDER BY content",
        [phone],
      );
      return rows.map((r) => r.content);
    }

    it("removes the fact, its note, its message, and the chunk no longer mentions it (rules)", async () => {
      const { phone, longTerm } = await remembered(null);
      expect(await summariesOf(phone)).toContain("I prefer morning meetings");

      const [found] = await longTerm.findFacts(phone, "that I prefer morning meetings");
      expect(found!.content).toBe("Prefers morning meetings");
      expect(found!.score).toBeGreaterThan(0.8);
      const report = await longTerm.forget(phone, [found!.id]);

      expect(report.facts).toEqual(["Prefers morning meetings"]);
      expect(report.factIds).toEqual([found!.id]);
      expect(report).toMatchObject({ notes: 1, messages: 1, chunksRewritten: 1 });
      expect((await longTerm.listFacts(phone)).map((f) => f.content)).toEqual(["Lives in Haifa"]);
      expect(await notesOf(phone)).toEqual(["Address: Haifa"]);
      expect((await historyOf(phone)).some((m) => m.content.includes("morning"))).toBe(false);
      const summary = await summariesOf(phone);
      expect(mentionsFact(summary, "Prefers morning meetings")).toBe(false);
      expect(summary).not.toContain("morning");
      expect(summary).toContain("I live in Haifa");
      expect((await longTerm.contextFor(phone, "meetings next week")).text).not.toContain("morning");
    });

    it("removes it from the summary through the LLM, checked in code (llm)", async () => {
      const llm = new FakeLLM((_node: LLMNode, messages: LLMMessage[]) => {
        const system = systemText(messages);
        if (system === CHUNK_SUMMARY_PROMPT)
          return { summary: "- Prefers morning meetings\n- Lives in Haifa", topics: ["meetings", "Haifa"] };
        if (system === FORGET_PROMPT) return "- Lives in Haifa";
        const lines = userText(messages).split("\n");
        return {
          facts: lines.flatMap((line, i) =>
            line.includes("prefer morning")
              ? [
                  {
                    message: i,
                    type: "preference",
                    content: "Prefers morning meetings",
                    importance: 0.6,
                    subject: "user",
                    attribute: "",
                    people: [],
                    since: "",
                    replaces: [],
                  },
                ]
              : line.includes("Haifa")
                ? [
                    {
                      message: i,
                      type: "fact",
                      content: "Lives in Haifa",
                      importance: 0.5,
                      subject: "user",
                      attribute: "",
                      people: [],
                      since: "",
                      replaces: [],
                    },
                  ]
                : [],
          ),
        };
      });
      const { phone, longTerm } = await remembered(llm);
      expect(await summariesOf(phone)).toBe("- Prefers morning meetings\n- Lives in Haifa");

      const [found] = await longTerm.findFacts(phone, "I prefer morning meetings");
      const report = await longTerm.forget(phone, [found!.id]);
      expect(report).toMatchObject({ notes: 1, messages: 1, chunksRewritten: 1 });
      const forgetCall = llm.calls.find((c) => systemText(c.messages) === FORGET_PROMPT)!;
      expect(userText(forgetCall.messages)).toContain("Forget:\n- Prefers morning meetings");
      expect(await summariesOf(phone)).toBe("- Lives in Haifa");
      // The topic that named it went with it.
      expect((await chunksOf(phone))[0]!.keyTopics).toEqual(["Haifa"]);
      expect(await notesOf(phone)).toEqual(["Address: Haifa"]);
    });

    it("rebuilds the summary without it when the LLM's rewrite still speaks of it", async () => {
      const llm = new FakeLLM((_node: LLMNode, messages: LLMMessage[]) => {
        const system = systemText(messages);
        if (system === CHUNK_SUMMARY_PROMPT)
          return { summary: "- Prefers morning meetings\n- Lives in Haifa", topics: [] };
        if (system === FORGET_PROMPT) return "- Prefers morning meetings\n- Lives in Haifa";
        const lines = userText(messages).split("\n");
        const index = lines.findIndex((l) => l.includes("prefer morning"));
        return index > 0
          ? {
              facts: [
                {
                  message: index,
                  type: "preference",
                  content: "Prefers morning meetings",
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
      const { phone, longTerm } = await remembered(llm);
      const [found] = await longTerm.findFacts(phone, "morning meetings");
      await longTerm.forget(phone, [found!.id]);
      const summary = await summariesOf(phone);
      expect(mentionsFact(summary, "Prefers morning meetings")).toBe(false);
      expect(summary).toContain('"I live in Haifa"');
    });

    it("drops the message from the window while it is still there, and the user's repeats of it", async () => {
      const phone = await newUser();
      const { turn, longTerm, memory } = setup();
      await turn(phone, "I'm allergic to peanuts");
      await turn(phone, "Just so you know, I'm allergic to peanuts.");
      await turn(phone, "Add peanuts to the shopping list for Dan");
      const [fact] = await longTerm.listFacts(phone);
      const report = await longTerm.forget(phone, [fact!.id]);
      expect(report).toMatchObject({ messages: 2, windowMessages: 2 });
      // Naming peanuts again is not saying the fact again.
      const left = ["Done.", "Done.", "Add peanuts to the shopping list for Dan", "Done."];
      expect(memory.getRecentMessages(phone).map((m) => m.content)).toEqual(left);
      expect((await historyOf(phone)).map((m) => m.content)).toEqual(left);
    });

    it("deletes the notes made from the user's repeats of the fact too", async () => {
      const phone = await newUser();
      const { turn, longTerm } = setup();
      await turn(phone, "I'm allergic to peanuts");
      await turn(phone, "note: I'm allergic to peanuts");
      await turn(phone, "remember that I'm allergic to peanuts!");
      await turn(phone, "note: the gate code is 1234");
      const said = (await historyOf(phone)).filter((m) => m.role === "user");
      for (const [i, message] of said.entries())
        await db.pool.query(
          "INSERT INTO notes (user_phone, content, search_text, source_message_id) VALUES ($1, $2, $2, $3)",
          [phone, `note ${i}`, message.id],
        );
      const [fact] = await longTerm.listFacts(phone);
      const report = await longTerm.forget(phone, [fact!.id]);
      expect(report).toMatchObject({ notes: 3, messages: 3 });
      const { rows } = await db.pool.query<{ content: string }>(
        "SELECT content FROM notes WHERE user_phone = $1",
        [phone],
      );
      expect(rows.map((r) => r.content)).toEqual(["note 3"]);
    });

    it("deletes Memo's replies echoing the fact from the history, the window and the latest actions", async () => {
      const phone = await newUser();
      const { turn, longTerm, memory, clock } = setup();
      await turn(phone, "I'm allergic to peanuts", "Got it, you're allergic to peanuts.");
      await turn(phone, "Add peanuts to the shopping list for Dan", "Added peanuts to the shopping list.");
      await turn(phone, "note: I'm allergic to peanuts", "📝 Noted: “I'm allergic to peanuts”");
      const action = (summary: string) => ({
        createdAt: clock.now(),
        capability: "second-brain" as const,
        action: "store",
        summary,
      });
      await memory.pushLatestAction(
        phone,
        action('note "I\'m allergic to peanuts"'),
        action('item "peanuts"'),
      );

      const [fact] = await longTerm.listFacts(phone);
      const report = await longTerm.forget(phone, [fact!.id]);
      expect(report).toMatchObject({ messages: 4, windowMessages: 4, latestActions: 1 });
      const left = ["Add peanuts to the shopping list for Dan", "Added peanuts to the shopping list."];
      expect((await historyOf(phone)).map((m) => m.content)).toEqual(left);
      expect(memory.getRecentMessages(phone).map((m) => m.content)).toEqual(left);
      expect(memory.getLatestActions(phone).map((a) => a.summary)).toEqual(['item "peanuts"']);
      await memory.load(phone);
      expect(memory.getRecentMessages(phone).map((m) => m.content)).toEqual(left);
    });

    it("never deletes a later message saying the opposite", async () => {
      const phone = await newUser();
      const history = new PgConversationHistory(db.pool);
      const repo = new PgMemoryRepository(db.pool);
      const { longTerm } = setup();
      const append = (content: string) =>
        history.append(phone, { role: "user", content, createdAt: Date.now() });
      const coffee = await append("אני אוהב קפה שחור עם סוכר");
      await append("אני לא אוהב קפה שחור עם סוכר");
      const night = await append("I drink coffee at night");
      await append("I never drink coffee at night");
      const facts = [
        await repo.create(
          phone,
          { type: "preference", content: "אוהב קפה שחור עם סוכר", sourceMessageId: coffee },
          0,
        ),
        await repo.create(
          phone,
          { type: "fact", content: "Drinks coffee at night", sourceMessageId: night },
          0,
        ),
      ];
      const report = await longTerm.forget(
        phone,
        facts.map((f) => f.fact.id),
      );
      expect(report.messages).toBe(2);
      expect((await historyOf(phone)).map((m) => m.content)).toEqual([
        "אני לא אוהב קפה שחור עם סוכר",
        "I never drink coffee at night",
      ]);
    });

    it("scans for repeats before its transaction, and inside it only deletes", async () => {
      const { phone, memory } = await remembered(null);
      const inTransaction: string[] = [];
      // The app's pool, with every statement sent through a transaction's client recorded.
      const pool = {
        query: (...args: Parameters<pg.Pool["query"]>) => db.pool.query(...args),
        connect: async () => {
          const client = await db.pool.connect();
          return new Proxy(client, {
            get(target, prop, receiver) {
              if (prop === "query")
                return (text: string, values?: unknown[]) => {
                  inTransaction.push(text.trim().split(/\s+/)[0]!.toUpperCase());
                  return target.query(text, values);
                };
              return Reflect.get(target, prop, receiver) as unknown;
            },
          });
        },
      } as unknown as pg.Pool;
      const longTerm = new LongTermMemory({ storage: memoryStorage(pool), llm: null, memory });
      const [found] = await longTerm.findFacts(phone, "I prefer morning meetings");
      const report = await longTerm.forget(phone, [found!.id]);
      expect(report).toMatchObject({ facts: ["Prefers morning meetings"], notes: 1, messages: 1 });
      expect(inTransaction.length).toBeGreaterThan(2);
      expect(inTransaction.every((statement) => ["BEGIN", "COMMIT", "DELETE"].includes(statement))).toBe(
        true,
      );
    });

    it("finds facts by the words of Hebrew requests too", async () => {
      const phone = await newUser();
      const { turn, longTerm } = setup();
      await turn(phone, "אני מעדיפה פגישות בבוקר");
      await turn(phone, "אני גרה בחיפה");
      const [best] = await longTerm.findFacts(phone, "שאני מעדיפה פגישות בבוקר");
      expect(best!.content).toBe("מעדיפה פגישות בבוקר");
    });

    it("erases everything of one user in one go, and nothing of another", async () => {
      const { phone, longTerm, memory } = await remembered(null);
      const other = await remembered(null);
      // What the user sent also sits in the inbox until RETENTION_DAYS: answered rows go too.
      const inbox = (id: string, owner: string, status: string) =>
        db.pool.query(
          `INSERT INTO inbox_messages (wa_message_id, phone, type, sent_at, received_at, payload, status)
           VALUES ($1, $2, 'text', now(), now(), '{"text":{"body":"I live in Haifa"}}', $3)`,
          [id, owner, status],
        );
      await inbox("wamid.done", phone, "done");
      await inbox("wamid.now", phone, "pending");
      await inbox("wamid.other", other.phone, "done");
      // What Memo sent keeps its delivery status; its text goes.
      const outbound = (id: string, owner: string) =>
        db.pool.query(
          `INSERT INTO outbound_messages (wa_message_id, phone, body, status) VALUES ($1, $2, 'You live in Haifa', 'read')`,
          [id, owner],
        );
      await outbound("wamid.out", phone);
      await outbound("wamid.out.other", other.phone);
      const report = await longTerm.forgetEverything(phone);
      expect(report).toEqual({
        facts: 2,
        notes: 2,
        episodes: 0,
        messages: 24,
        profiles: 1,
        chunks: 1,
        inbox: 1,
        outbound: 1,
      });
      expect(await chunksOf(phone)).toEqual([]);
      expect(await chunksOf(other.phone)).toHaveLength(1);
      const { rows: sent } = await db.pool.query<{ id: string; body: string | null; status: string }>(
        "SELECT wa_message_id AS id, body, status FROM outbound_messages WHERE wa_message_id LIKE 'wamid.out%' ORDER BY 1",
      );
      expect(sent).toEqual([
        { id: "wamid.out", body: null, status: "read" },
        { id: "wamid.out.other", body: "You live in Haifa", status: "read" },
      ]);
      const { rows: left } = await db.pool.query<{ id: string }>(
        "SELECT wa_message_id AS id FROM inbox_messages ORDER BY wa_message_id",
      );
      expect(left.map((r) => r.id)).toEqual(["wamid.now", "wamid.other"]);
      expect(await longTerm.listFacts(phone)).toEqual([]);
      expect(await notesOf(phone)).toEqual([]);
      expect(await historyOf(phone)).toEqual([]);
      expect(await longTerm.contextFor(phone, "meetings")).toEqual({ text: undefined, factIds: [] });
      expect(memory.getRecentMessages(phone)).toEqual([]);

      expect(await other.longTerm.listFacts(other.phone)).toHaveLength(2);
      expect(await notesOf(other.phone)).toHaveLength(2);
      expect(await historyOf(other.phone)).toHaveLength(24);
    });
  });

  describe("as the second brain's memory port", () => {
    it("serves MemoryPort: counts for the confirmation, and the history id of this turn's message", async () => {
      const phone = await newUser();
      const { turn, longTerm, memory } = setup();
      // forgetEverything returns its counts where the port says void: the only difference.
      const port: Omit<MemoryPort, "forgetEverything"> = longTerm;
      expect(await port.counts(phone)).toEqual({ facts: 0, notes: 0, episodes: 0, hasSummary: false });
      await memory.load(phone);
      await memory.addUserMessage(phone, "note: wifi password is hunter2", { whatsappMessageId: "wamid.n1" });
      await memory.addUserMessage(phone, "typed in the simulator");
      const [viaWhatsApp, typed] = await historyOf(phone);
      expect(await port.sourceMessageId(phone, "wamid.n1")).toBe(viaWhatsApp!.id);
      expect(await port.sourceMessageId(phone, undefined)).toBe(typed!.id);
      expect(await port.sourceMessageId(phone, "wamid.unknown")).toBeUndefined();

      await db.pool.query(
        "INSERT INTO notes (user_phone, content, search_text, source_message_id) VALUES ($1, 'wifi', 'wifi', $2)",
        [phone, viaWhatsApp!.id],
      );
      for (let i = 0; i < 8; i++) await turn(phone, `I like color${i} shirts`);
      // 18 messages: 8 left the window, no chunk yet.
      expect((await port.counts(phone)).hasSummary).toBe(false);
      for (let i = 8; i < 10; i++) await turn(phone, `I like color${i} shirts`);
      const counts = await port.counts(phone);
      expect(counts).toMatchObject({ notes: 1, hasSummary: true });
      expect(counts.facts).toBe((await longTerm.listFacts(phone)).length);
    });
  });

  describe("isolation", () => {
    it("never lets one user's memories reach another (seeded random conversations)", async () => {
      const rand = prng(20260301).next;
      const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
      const templates = [
        (w: string) => `I prefer ${w} meetings`,
        (w: string) => `I live in ${w}`,
        (w: string) => `I'm allergic to ${w}`,
        (w: string) => `My goal is to visit ${w}`,
        (w: string) => `I decided to buy ${w}`,
        (w: string) => `Add ${w} to the shopping list`,
        (w: string) => `What about ${w}?`,
      ];
      const users = ["alpha", "bravo", "charlie"];
      const phones = new Map<string, string>();
      const { turn, longTerm } = setup();
      for (const name of users) phones.set(name, await newUser());
      for (let i = 0; i < 45; i++) {
        const name = pick(users);
        await turn(phones.get(name)!, pick(templates)(`${name}${Math.floor(rand() * 1000)}`));
      }

      const others = (name: string) => users.filter((u) => u !== name);
      for (const name of users) {
        const phone = phones.get(name)!;
        const facts = await longTerm.listFacts(phone);
        expect(facts.length).toBeGreaterThan(0);
        for (const fact of facts) expect(fact.content).toContain(name);
        const summary = await summariesOf(phone);
        const context = await longTerm.contextFor(phone, `${others(name).join(" ")} meetings shopping`);
        for (const other of others(name)) {
          expect(summary).not.toContain(other);
          expect(context.text ?? "").not.toContain(other);
          expect(await longTerm.findFacts(phone, `I prefer ${other} meetings`)).toSatisfy(
            (found: { content: string }[]) => found.every((f) => f.content.includes(name)),
          );
          // Another user's fact ids do nothing here.
          const theirs = (await longTerm.listFacts(phones.get(other)!)).map((f) => f.id);
          expect((await longTerm.forget(phone, theirs)).facts).toEqual([]);
          expect(await longTerm.listFacts(phones.get(other)!)).toHaveLength(theirs.length);
        }
      }
    });
  });

  describe("schema", () => {
    it("indexes the message a note or a memory came from (deleting messages sets it to NULL)", async () => {
      const { rows } = await db.pool.query<{ tablename: string }>(
        `SELECT tablename FROM pg_indexes
          WHERE tablename IN ('notes', 'memories') AND indexdef LIKE '%(source_message_id)%'
          ORDER BY tablename`,
      );
      expect(rows.map((r) => r.tablename)).toEqual(["memories", "notes"]);
    });
  });

  describe("pending work", () => {
    it("names users with messages not yet processed, and not once they are", async () => {
      const phone = await newUser();
      const history = new PgConversationHistory(db.pool);
      const longTerm = new LongTermMemory({ storage: memoryStorage(db.pool), llm: null });
      await history.append(phone, { role: "user", content: "I prefer tea", createdAt: Date.now() });
      expect(await longTerm.pendingUsers(10_000)).toContain(phone);
      await longTerm.process(phone);
      expect(await longTerm.pendingUsers(10_000)).not.toContain(phone);
    });
  });

  describe("consolidation", () => {
    let own: TestDatabase;
    beforeAll(async () => {
      own = await backend.create();
    });
    afterAll(async () => own?.close());

    it("halves decay after 30 days without use, adds the access boost, and archives old low-value facts", async () => {
      const clock = fakeClock();
      const t0 = clock.now();
      const phone = "972530099001";
      await own.pool.query("INSERT INTO users (phone) VALUES ($1)", [phone]);
      const repo = new PgMemoryRepository(own.pool);
      const longTerm = new LongTermMemory({ storage: memoryStorage(own.pool), llm: null, clock: clock.now });
      const idle = (await repo.create(phone, { type: "fact", content: "Owns a red bicycle" }, t0)).fact;
      const used = (await repo.create(phone, { type: "fact", content: "Works at Acme" }, t0)).fact;
      const goal = (await repo.create(phone, { type: "goal", content: "Aims to run a marathon" }, t0)).fact;
      const young = (
        await repo.create(phone, { type: "fact", content: "Likes green tea", importance: 0.2 }, t0 + 20 * DAY)
      ).fact;
      await repo.recordAccess(phone, [used.id], t0);
      await repo.recordAccess(phone, [used.id], t0);

      const first = await longTerm.consolidate(t0 + 30 * DAY);
      expect(first).toMatchObject({ decayed: 4, archived: 0 });
      const byId = async () => new Map((await repo.list(phone, "all")).map((f) => [f.id, f]));
      let facts = await byId();
      expect(facts.get(idle.id)!.decayFactor).toBeCloseTo(0.5, 5);
      expect(facts.get(used.id)!.decayFactor).toBeCloseTo(0.7, 5);

      const second = await longTerm.consolidate(t0 + 31 * DAY);
      expect(second.archived).toBe(1);
      facts = await byId();
      // 0.5 × 0.49 < 0.3: archived; 0.5 × 0.69, 0.8 × 0.49 stay; the young one is not 30 days old.
      expect(facts.get(idle.id)!.status).toBe("archived");
      expect(facts.get(used.id)!.status).toBe("active");
      expect(facts.get(goal.id)!.status).toBe("active");
      expect(facts.get(young.id)!.status).toBe("active");
      // The user still sees (and may erase) an archived fact: listed after the active ones.
      const listed = await longTerm.listFacts(phone);
      expect(listed.map((f) => f.status)).toEqual(["active", "active", "active", "archived"]);
      expect(listed.at(-1)).toMatchObject({ id: idle.id, status: "archived" });

      // Said again, an archived fact comes back rather than being stored twice.
      const again = await repo.create(phone, { type: "fact", content: "Owns a red bicycle" }, t0 + 32 * DAY);
      expect(again).toMatchObject({ created: false, fact: { id: idle.id, status: "active" } });
    });
  });
});
