import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  InMemoryConversationStore,
  PgConversationStore,
  type ConversationStore,
  type StoredWindow,
} from "../../src/db/repositories/conversationStore.js";
import { PgEpisodeRepository } from "../../src/db/repositories/episodeRepository.js";
import { PgChunkRepository } from "../../src/db/repositories/chunkRepository.js";
import { MemoryService } from "../../src/services/memory/index.js";
import { InvalidPhoneError } from "../../src/utils/errors.js";
import { fakeClock } from "../support/clock.js";
import { backends, type TestDatabase } from "../support/db.js";
import { disambiguationSnapshot } from "../support/disambiguationSnapshot.js";

let n = 0;
/** A phone no other test in this file uses. */
const nextPhone = () => `97252000${String(++n).padStart(4, "0")}`;

function sampleWindow(text: string): StoredWindow {
  return {
    messages: [
      {
        role: "user",
        content: text,
        timestamp: 1_772_355_600_000,
        whatsappMessageId: "wamid.1",
        estimatedTokens: Math.ceil(text.length / 3.5),
        metadata: {
          imageContext: {
            imageId: "img1",
            analysisResult: { description: "receipt", extractedText: "₪42" },
            imageType: "structured",
            extractedAt: 1_772_355_500_000,
          },
        },
      },
      { role: "assistant", content: "Got it", timestamp: 1_772_355_601_000, estimatedTokens: 2 },
    ],
    latestActions: [
      {
        createdAt: 1_772_355_601_000,
        capability: "database",
        action: "create_task",
        summary: `task "${text}"`,
        externalIds: ["t1"],
      },
    ],
    disambiguation: disambiguationSnapshot(1_772_355_600_000, 1_772_355_900_000, [
      { id: "t1", displayText: "Call mom", extra: { rank: 1 } },
    ]),
    recentTasks: [{ id: "t1", text, completed: false, dueDate: "2026-03-02" }],
  };
}

interface StoreUnderTest {
  name: string;
  open(): Promise<{ store: ConversationStore; db?: TestDatabase }>;
}

const implementations: StoreUnderTest[] = [
  { name: "in memory", open: () => Promise.resolve({ store: new InMemoryConversationStore() }) },
  ...backends.map((backend): StoreUnderTest => ({
    name: `Postgres on ${backend.name}`,
    async open() {
      const db = await backend.create();
      return { store: new PgConversationStore(db.pool), db };
    },
  })),
];

describe.each(implementations)("ConversationStore $name", (implementation) => {
  let store: ConversationStore;
  let db: TestDatabase | undefined;

  beforeAll(async () => {
    ({ store, db } = await implementation.open());
  });
  afterAll(async () => db?.close());

  it("returns null for a phone with no window, and the saved window as it was", async () => {
    const phone = nextPhone();
    expect(await store.load(phone)).toBeNull();
    const window = sampleWindow("call mom (אמא) 📞");
    await store.save(phone, window);
    expect(await store.load(phone)).toEqual(window);
  });

  it("replaces the window on a second save, and forgets it on delete", async () => {
    const phone = nextPhone();
    await store.save(phone, sampleWindow("first"));
    const second = { ...sampleWindow("second"), disambiguation: null, recentTasks: [] };
    await store.save(phone, second);
    expect(await store.load(phone)).toEqual(second);
    await store.delete(phone);
    expect(await store.load(phone)).toBeNull();
    await expect(store.delete(phone)).resolves.toBeUndefined();
  });

  it("keeps each phone's window to itself", async () => {
    const a = nextPhone();
    const b = nextPhone();
    await store.save(a, sampleWindow("for a"));
    await store.save(b, sampleWindow("for b"));
    await store.delete(a);
    expect(await store.load(a)).toBeNull();
    expect((await store.load(b))!.messages[0]!.content).toBe("for b");
  });

  it("stores text Postgres jsonb would refuse: NUL characters and a half-cut emoji", async () => {
    const phone = nextPhone();
    const cut = "📞".slice(0, 1);
    await store.save(phone, sampleWindow(`a\u0000b ${cut}!`));
    expect((await store.load(phone))!.messages[0]!.content).toBe("ab \uFFFD!");
  });

  it("refuses a phone that is not normalized, so one user's memory is never split", async () => {
    await expect(store.save("+972 52-000-0001", sampleWindow("x"))).rejects.toBeInstanceOf(InvalidPhoneError);
  });
});

describe.each(backends)("conversation memory written through to $name", (backend) => {
  let db: TestDatabase;
  const clock = fakeClock();
  const service = () => new MemoryService(new PgConversationStore(db.pool), { clock: clock.now });

  beforeAll(async () => {
    db = await backend.create();
  });
  afterAll(async () => db?.close());

  async function rowCount(phone: string): Promise<number> {
    const { rows } = await db.pool.query<{ count: string }>(
      "SELECT count(*) FROM conversation_windows WHERE user_phone = $1",
      [phone],
    );
    return Number(rows[0]!.count);
  }

  it("shows a second instance, or this one after a restart, the same recent conversation", async () => {
    const phone = nextPhone();
    const first = service();
    await first.load(phone);
    await first.addUserMessage(phone, "remind me to call mom", { whatsappMessageId: "wamid.1" });
    await first.addAssistantMessage(phone, "When should I remind you?", "wamid.2");
    await first.pushLatestAction(phone, {
      createdAt: clock.now(),
      capability: "database",
      action: "create_task",
      summary: 'task "call mom"',
    });

    const second = service();
    await second.load(phone);
    expect(second.getRecentMessages(phone)).toEqual(first.getRecentMessages(phone));
    expect(second.getLatestActions(phone)).toEqual(first.getLatestActions(phone));
    expect(second.getRepliedToMessage(phone, "wamid.2")?.content).toBe("When should I remind you?");

    // The second instance answers; the first sees it at its next turn's load().
    await second.addUserMessage(phone, "tomorrow at 9", { replyToMessageId: "wamid.2" });
    expect(first.getLastUserMessage(phone)?.content).toBe("remind me to call mom");
    await first.load(phone);
    expect(first.getLastUserMessage(phone)?.content).toBe("tomorrow at 9");
  });

  it("removes the row when a conversation is cleared", async () => {
    const phone = nextPhone();
    const memory = service();
    await memory.addUserMessage(phone, "hello");
    expect(await rowCount(phone)).toBe(1);
    await memory.clearConversation(phone);
    expect(await rowCount(phone)).toBe(0);
    const other = service();
    await other.load(phone);
    expect(other.getRecentMessages(phone)).toEqual([]);
  });

  it("reads what it can of a damaged document instead of failing the turn", async () => {
    const phone = nextPhone();
    const good = sampleWindow("kept").messages[1]!;
    await db.pool.query("INSERT INTO conversation_windows (user_phone, state) VALUES ($1, $2)", [
      phone,
      JSON.stringify({ messages: [{ role: "user" }, good], latestActions: "oops", disambiguation: {} }),
    ]);
    expect(await new PgConversationStore(db.pool).load(phone)).toEqual({
      messages: [good],
      latestActions: [],
      disambiguation: null,
      recentTasks: [],
    });
  });

  it("keeps a message's added context apart from its words, and reads documents stored without it", async () => {
    const phone = nextPhone();
    const first = service();
    await first.load(phone);
    await first.addUserMessage(phone, "done 2", { whatsappMessageId: "wamid.a" });
    await first.addContextToUserMessage(phone, ['Item 2 of the list Memo sent: "Call mom"'], "wamid.a");
    const second = service();
    await second.load(phone);
    expect(second.getRecentMessages(phone)[0]).toMatchObject({
      content: "done 2",
      metadata: { addedContext: ['Item 2 of the list Memo sent: "Call mom"'] },
    });

    // A document from before added context, and one whose added context is damaged.
    const older = nextPhone();
    const old = sampleWindow("kept").messages;
    await db.pool.query("INSERT INTO conversation_windows (user_phone, state) VALUES ($1, $2)", [
      older,
      JSON.stringify({
        messages: [...old, { ...old[1]!, metadata: { addedContext: "not a list" } }],
        latestActions: [],
      }),
    ]);
    expect((await new PgConversationStore(db.pool).load(older))?.messages).toEqual(old);
  });

  it("never shows one phone's window to another", async () => {
    const a = nextPhone();
    const b = nextPhone();
    const memory = service();
    await memory.addUserMessage(a, "a's secret", { whatsappMessageId: "wamid.a" });
    await memory.addUserMessage(b, "b's note");
    await memory.clearConversation(b);

    const other = service();
    await other.load(a);
    await other.load(b);
    expect(other.getRecentMessages(b)).toEqual([]);
    expect(other.getRepliedToMessage(b, "wamid.a")).toBeNull();
    expect(other.getRecentMessages(a).map((m) => m.content)).toEqual(["a's secret"]);
  });

  it("a reminder appended by another instance never overwrites a turn, and the turn's next load sees it", async () => {
    const phone = nextPhone();
    const turn = service();
    const scheduler = service();
    await turn.load(phone);
    await turn.addUserMessage(phone, "what's on today?", { whatsappMessageId: "wamid.t1" });
    // The scheduler, on another instance, adds its reminder while the turn runs.
    await scheduler.appendProactiveMessage(phone, "⏰ Reminder: stretch", "wamid.r1");
    expect(scheduler.getRecentMessages(phone).map((m) => m.content)).toEqual([
      "what's on today?",
      "⏰ Reminder: stretch",
    ]);
    // A turn's whole-window write can drop the reminder's entry, never the turn's own messages.
    await turn.addAssistantMessage(phone, "Nothing today.", "wamid.t2");
    const after = service();
    await after.load(phone);
    expect(after.getRecentMessages(phone).map((m) => m.content)).toEqual([
      "what's on today?",
      "Nothing today.",
    ]);

    // Appended between turns, it is there for the next one, with its WhatsApp id for reply-to.
    await scheduler.appendProactiveMessage(phone, "🔁 Reminder: water the plants", "wamid.r2");
    await turn.load(phone);
    expect(turn.getRecentMessages(phone).at(-1)?.content).toBe("🔁 Reminder: water the plants");
    expect(turn.getRepliedToMessage(phone, "wamid.r2")?.content).toBe("🔁 Reminder: water the plants");
  });

  it("appends to a phone with no window yet", async () => {
    const phone = nextPhone();
    await service().appendProactiveMessage(phone, "☀️ Good morning!", "wamid.d1");
    const reader = service();
    await reader.load(phone);
    expect(reader.getRecentMessages(phone).map((m) => m.content)).toEqual(["☀️ Good morning!"]);
  });
});

describe.each(backends)("PgConversationStore with the history ($name)", (backend) => {
  let db: TestDatabase;
  let store: PgConversationStore;
  beforeAll(async () => {
    db = await backend.create();
    store = new PgConversationStore(db.pool, { history: true });
  });
  afterAll(async () => db?.close());

  const user = async () => {
    const phone = nextPhone();
    await db.pool.query("INSERT INTO users (phone, time_zone) VALUES ($1, 'UTC')", [phone]);
    return phone;
  };
  const historyOf = async (phone: string) =>
    (
      await db.pool.query<{ role: string; content: string }>(
        "SELECT role, content FROM conversation_messages WHERE user_phone = $1 ORDER BY id",
        [phone],
      )
    ).rows.map((r) => `${r.role}: ${r.content}`);

  it("saves the window and appends its messages in one statement, in order, a redelivery once", async () => {
    const phone = await user();
    const rows = [
      { role: "user" as const, content: "a\u0000b", whatsappMessageId: "wamid.u1", createdAt: 1_000 },
      { role: "assistant" as const, content: "reply", createdAt: 2_000 },
    ];
    await store.save(phone, sampleWindow("x"), rows);
    await store.save(phone, sampleWindow("y"), [rows[0]!]);
    expect(await historyOf(phone)).toEqual(["user: ab", "assistant: reply"]);
    expect((await store.load(phone))!.messages[0]!.content).toBe("y");
  });

  it("still saves the window of a phone with no user row (no history to keep)", async () => {
    const phone = nextPhone();
    await store.save(phone, sampleWindow("z"), [{ role: "user", content: "hi", createdAt: 1_000 }]);
    expect((await store.load(phone))!.messages[0]!.content).toBe("z");
    expect(await historyOf(phone)).toEqual([]);
  });

  it("reads the window, the newest chunk summaries, the facts and the episodes for a message in one statement", async () => {
    const phone = await user();
    expect(await store.loadTurn(phone, { text: "coffee", now: Date.now() })).toEqual({
      window: null,
      chunks: [],
      facts: [],
      timeZone: "UTC",
      episodes: [],
    });
    await store.save(phone, sampleWindow("w"));
    const chunks = new PgChunkRepository(db.pool);
    for (const [i, summary] of ["Likes tea.", "Bought a kettle.", "Visited Haifa."].entries()) {
      await chunks.create(phone, {
        firstMessageId: i * 10 + 1,
        lastMessageId: i * 10 + 10,
        messageCount: 10,
        summary,
        keyTopics: [],
        tokenCount: 3,
        startedAt: Date.UTC(2026, 10, 12 + i),
        endedAt: Date.UTC(2026, 10, 12 + i, 5),
      });
    }
    await db.pool.query(
      `INSERT INTO memories (user_phone, type, content, search_text, importance)
       VALUES ($1, 'preference', 'Drinks coffee black', 'drinks coffee black', 0.8),
              ($1, 'fact', 'Has a dog', 'has a dog', 0.5)`,
      [phone],
    );
    const read = await store.loadTurn(phone, { text: "more coffee please", now: Date.now(), chunks: 2 });
    expect(read.window).toEqual(sampleWindow("w"));
    // The newest two, newest first, with their times and the user's zone.
    expect(read.chunks.map((c) => c.summary)).toEqual(["Visited Haifa.", "Bought a kettle."]);
    expect(read.chunks[0]).toMatchObject({
      startedAt: Date.UTC(2026, 10, 14),
      endedAt: Date.UTC(2026, 10, 14, 5),
    });
    expect(read.chunks[0]!.timeZone).toMatch(/\w/);
    expect(read.facts.map((f) => f.content).sort()).toEqual(["Drinks coffee black", "Has a dog"]);
    expect(read.facts[0]!.createdAt).toBeGreaterThan(0);
    // A fact that stopped being true is not read for the planner.
    await db.pool.query(
      "UPDATE memories SET valid_until = now() - interval '1 day' WHERE content = 'Has a dog'",
    );
    const later = await store.loadTurn(phone, { text: "more coffee please", now: Date.now() });
    expect(later.facts.map((f) => f.content)).toEqual(["Drinks coffee black"]);
    // Only the episodes speaking of the message's words.
    expect(read.episodes).toEqual([]);
    const episodes = new PgEpisodeRepository(db.pool);
    await episodes.create(
      phone,
      { kind: "decision", title: "Switch to decaf coffee", occurredAt: 5_000 },
      6_000,
    );
    await episodes.create(phone, { kind: "task_completed", title: "Walk the dog", occurredAt: 5_000 }, 6_000);
    const again = await store.loadTurn(phone, { text: "more coffee please", now: Date.now() });
    expect(again.episodes.map((e) => [e.title, e.occurredAt])).toEqual([["Switch to decaf coffee", 5_000]]);
  });
});
