import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgConversationHistory } from "../../src/db/repositories/conversationHistory.js";
import { PgConversationStore } from "../../src/db/repositories/conversationStore.js";
import { PgEpisodeRepository, type NewEpisode } from "../../src/db/repositories/episodeRepository.js";
import { memoryStorage } from "../../src/db/storage.js";
import { LongTermMemory } from "../../src/services/memory/longTermMemory.js";
import { MemoryService } from "../../src/services/memory/memoryService.js";
import { fakeClock } from "../support/clock.js";
import { backends, type TestDatabase } from "../support/db.js";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
let n = 0;
const nextPhone = () => `97254000${String(++n).padStart(4, "0")}`;

describe.each(backends)("episodes on $name", (backend) => {
  let db: TestDatabase;
  let episodes: PgEpisodeRepository;

  beforeAll(async () => {
    db = await backend.create();
    episodes = new PgEpisodeRepository(db.pool);
  });
  afterAll(async () => db?.close());

  async function newUser(): Promise<string> {
    const phone = nextPhone();
    await db.pool.query("INSERT INTO users (phone, time_zone) VALUES ($1, 'Asia/Jerusalem')", [phone]);
    return phone;
  }

  const T0 = Date.parse("2026-11-12T09:30:00Z");
  const episode = (over: Partial<NewEpisode> = {}): NewEpisode => ({
    kind: "decision",
    title: "Go to Eilat for the trip",
    summary: "We decided to go to Eilat for the trip",
    occurredAt: T0,
    ...over,
  });

  /** A conversation as the graph drives it: window + history, background work after each turn. */
  function setup() {
    const clock = fakeClock("2026-11-12T09:30:00Z");
    const history = new PgConversationHistory(db.pool);
    const memory = new MemoryService(new PgConversationStore(db.pool), { clock: clock.now, history });
    const longTerm = new LongTermMemory({
      storage: memoryStorage(db.pool),
      llm: null,
      memory,
      clock: clock.now,
    });
    async function turn(phone: string, said: string, answer = "Noted.") {
      await memory.load(phone);
      await memory.addUserMessage(phone, said);
      clock.advance(1000);
      await memory.addAssistantMessage(phone, answer);
      clock.advance(MINUTE);
      await longTerm.schedule(phone, memory.getRecentMessages(phone).length);
      await longTerm.idle();
    }
    return { clock, longTerm, turn };
  }

  describe("the repository", () => {
    it("stores once per operation key, finds by words with Hebrew prefixes, only the owner's", async () => {
      const phone = await newUser();
      const other = await newUser();
      const first = await episodes.create(phone, episode({ operationKey: "k1" }), T0);
      const again = await episodes.create(phone, episode({ operationKey: "k1", title: "changed" }), T0);
      expect(first.created).toBe(true);
      expect(again).toMatchObject({
        created: false,
        episode: { id: first.episode.id, title: "Go to Eilat for the trip" },
      });
      await episodes.create(
        phone,
        episode({
          kind: "problem_solved",
          title: "הנזילה",
          summary: "סוף סוף תיקנתי את הנזילה",
          occurredAt: T0 + DAY,
        }),
        T0,
      );
      await episodes.create(other, episode({ title: "Go to Eilat with the kids" }), T0);

      expect(
        (await episodes.search(phone, "what did we decide about the trip?")).map((e) => e.title),
      ).toEqual(["Go to Eilat for the trip"]);
      // "בנזילה" finds "הנזילה": one-letter prefixes understood.
      expect((await episodes.search(phone, "מה עם בנזילה")).map((e) => e.title)).toEqual(["הנזילה"]);
      expect(await episodes.search(phone, "piano lessons")).toEqual([]);
      // Words naming nothing: every one in the range, filtered by kind.
      expect((await episodes.search(phone, "", { kinds: ["decision"] })).map((e) => e.title)).toEqual([
        "Go to Eilat for the trip",
      ]);
      expect((await episodes.list(phone, { from: T0 + 1 })).map((e) => e.title)).toEqual(["הנזילה"]);
      expect(await episodes.count(phone)).toBe(2);
      expect(await episodes.count(other)).toBe(1);
      expect(await episodes.delete(other, [first.episode.id])).toEqual([]);
      expect(await episodes.count(phone)).toBe(2);
    });

    it("consolidates: merges overlapping episodes, then keeps the most significant, newest first", async () => {
      const phone = await newUser();
      const a = await episodes.create(phone, episode({ turnStart: 10, turnEnd: 11, significance: 0.6 }), T0);
      await episodes.create(
        phone,
        episode({
          title: "Go to Eilat for the trip!",
          participants: ["user", "Dana"],
          turnStart: 11,
          turnEnd: 14,
          significance: 0.9,
          occurredAt: T0 + 2 * MINUTE,
        }),
        T0,
      );
      await episodes.create(
        phone,
        episode({ kind: "issue_identified", title: "The boiler is broken", significance: 0.2 }),
        T0,
      );
      await episodes.create(
        phone,
        episode({ kind: "pivot", title: "Train instead of car", significance: 0.5, occurredAt: T0 - DAY }),
        T0,
      );
      await episodes.create(
        phone,
        episode({
          kind: "task_completed",
          title: "Tax report",
          significance: 0.5,
          occurredAt: T0 + 5 * MINUTE,
        }),
        T0,
      );

      expect(await episodes.consolidate(phone, 3)).toEqual({ merged: 1, capped: 1 });
      const left = await episodes.list(phone);
      expect(left.map((e) => e.title)).toEqual([
        "Train instead of car",
        "Go to Eilat for the trip!",
        "Tax report",
      ]);
      expect(left[1]).toMatchObject({
        id: a.episode.id,
        occurredAt: T0,
        turnStart: 10,
        turnEnd: 14,
        participants: ["user", "Dana"],
      });
      expect(left[1]!.significance).toBeCloseTo(0.9, 5);
      // The merged text is found by its words.
      expect((await episodes.search(phone, "Dana")).map((e) => e.id)).toEqual([a.episode.id]);
    });

    it("gives the narrative arc in thirds, oldest first, with the key moments", async () => {
      const phone = await newUser();
      for (let i = 0; i < 6; i++)
        await episodes.create(
          phone,
          episode({ title: `Moment ${i}`, significance: i % 2 ? 0.8 : 0.3, occurredAt: T0 + i * DAY }),
          T0,
        );
      const arc = await episodes.getNarrativeArc(phone);
      const titles = (list: { title: string }[]) => list.map((e) => e.title);
      expect(titles(arc.beginning)).toEqual(["Moment 0", "Moment 1"]);
      expect(titles(arc.middle)).toEqual(["Moment 2", "Moment 3"]);
      expect(titles(arc.end)).toEqual(["Moment 4", "Moment 5"]);
      expect(titles(arc.keyMoments)).toEqual(["Moment 1", "Moment 3", "Moment 5"]);
    });

    it("deletes the episodes of deleted messages by their turn range", async () => {
      const phone = await newUser();
      await episodes.create(phone, episode({ turnStart: 20, turnEnd: 24 }), T0);
      await episodes.create(phone, episode({ title: "Other", turnStart: 30, turnEnd: 30 }), T0);
      await episodes.create(phone, episode({ title: "No turn" }), T0);
      expect((await episodes.deleteFromMessages(phone, [22, 99])).map((e) => e.title)).toEqual([
        "Go to Eilat for the trip",
      ]);
      expect((await episodes.list(phone)).map((e) => e.title).sort()).toEqual(["No turn", "Other"]);
    });
  });

  describe("long-term memory", () => {
    it("records a moment the user tells with its message and date, and a task completed in a turn", async () => {
      const phone = await newUser();
      const { longTerm, turn, clock } = setup();
      await turn(phone, "We decided to go to Eilat for the trip");
      await turn(phone, "what's the weather like?");
      const [decision] = (await longTerm.recall(phone, "what did we decide about the trip", "Asia/Jerusalem"))
        .episodes;
      expect(decision).toMatchObject({ kind: "decision", title: "Go to Eilat for the trip", occurredAt: T0 });
      const { rows } = await db.pool.query<{ content: string }>(
        "SELECT content FROM conversation_messages WHERE id = $1",
        [decision!.turnStart],
      );
      expect(rows[0]!.content).toBe("We decided to go to Eilat for the trip");
      expect(await episodes.count(phone)).toBe(1);

      clock.advance(MINUTE);
      const at = clock.now();
      await longTerm.schedule(phone, 10, [{ id: "task-1", text: "call the plumber", at }]);
      await longTerm.schedule(phone, 10, [{ id: "task-1", text: "call the plumber", at }]);
      await longTerm.idle();
      expect((await longTerm.recall(phone, "plumber", "Asia/Jerusalem")).episodes).toEqual([
        expect.objectContaining({ kind: "task_completed", title: "Call the plumber", occurredAt: at }),
      ]);
      expect((await longTerm.counts(phone)).episodes).toBe(2);
    });

    it("forget: the fact's message takes its episode, an episode speaking of the fact goes, others stay", async () => {
      const phone = await newUser();
      const { longTerm, turn } = setup();
      await turn(phone, "We decided to go to Eilat for the trip");
      await turn(phone, "I finally fixed the leak");
      await episodes.create(
        phone,
        episode({ kind: "task_completed", title: "Booked the hotel for the Eilat trip", turnStart: null }),
        T0,
      );
      const facts = await longTerm.findFacts(phone, "go to Eilat for the trip");
      const report = await longTerm.forget(phone, [facts[0]!.id]);
      expect(report.facts).toEqual(["Decided to go to Eilat for the trip"]);
      expect(report.episodes).toBe(2);
      expect((await episodes.list(phone)).map((e) => e.title)).toEqual(["The leak"]);

      const erased = await longTerm.forgetEverything(phone);
      expect(erased.episodes).toBe(1);
      expect(await episodes.count(phone)).toBe(0);
    });

    it("the daily consolidation merges episodes of every user", async () => {
      const [p1, p2] = [await newUser(), await newUser()];
      const { longTerm } = setup();
      for (const phone of [p1, p2]) {
        await episodes.create(phone, episode({ turnStart: 1, turnEnd: 1 }), T0);
        await episodes.create(phone, episode({ turnStart: 1, turnEnd: 2 }), T0);
      }
      const report = await longTerm.consolidate();
      expect(report.episodesMerged).toBeGreaterThanOrEqual(2);
      expect(await episodes.count(p1)).toBe(1);
      expect(await episodes.count(p2)).toBe(1);
    });
  });
});
