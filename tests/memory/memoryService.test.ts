import { beforeEach, describe, expect, it } from "vitest";
import {
  InMemoryConversationStore,
  type ConversationStore,
  type StoredWindow,
} from "../../src/db/repositories/conversationStore.js";
import { CONVERSATION_MAX_AGE_MS } from "../../src/config/lifetimes.js";
import {
  DISAMBIGUATION_EXPIRY_MS,
  DISAMBIGUATION_MAX_LIFE_MS,
} from "../../src/services/memory/conversationWindow.js";
import { MemoryService } from "../../src/services/memory/index.js";
import type {
  DisambiguationSnapshot,
  ImageContext,
  LatestAction,
  RecentTaskSnapshot,
} from "../../src/types/index.js";
import { disambiguationSnapshot } from "../support/disambiguationSnapshot.js";
import { fakeClock, type FakeClock } from "../support/clock.js";
import { captureLogs } from "../support/logs.js";

const PHONE = "972501112233";
const OTHER = "972504445566";
const MINUTE = 60_000;

function action(n: number, createdAt: number): LatestAction {
  return { createdAt, capability: "database", action: "create_task", summary: `task ${n}` };
}

function task(id: string, text = id): RecentTaskSnapshot {
  return { id, text, completed: false };
}

describe("MemoryService", () => {
  let clock: FakeClock;
  let store: InMemoryConversationStore;
  let memory: MemoryService;

  beforeEach(async () => {
    clock = fakeClock();
    store = new InMemoryConversationStore();
    memory = new MemoryService(store, { clock: clock.now });
    await memory.load(PHONE);
  });

  describe("messages", () => {
    it("keeps user, assistant and system messages in order with the clock's timestamps", async () => {
      await memory.addUserMessage(PHONE, "remind me to call mom", { whatsappMessageId: "wamid.in1" });
      clock.advance(1000);
      await memory.addAssistantMessage(PHONE, "When?", "wamid.out1");
      clock.advance(1000);
      await memory.addSystemMessage(PHONE, "user is in Asia/Jerusalem");

      const start = Date.parse("2026-03-01T09:00:00Z");
      expect(memory.getRecentMessages(PHONE)).toEqual([
        {
          role: "user",
          content: "remind me to call mom",
          timestamp: start,
          whatsappMessageId: "wamid.in1",
          estimatedTokens: 6,
        },
        {
          role: "assistant",
          content: "When?",
          timestamp: start + 1000,
          whatsappMessageId: "wamid.out1",
          estimatedTokens: 2,
        },
        { role: "system", content: "user is in Asia/Jerusalem", timestamp: start + 2000, estimatedTokens: 8 },
      ]);
      expect(memory.getRecentMessages(PHONE, 1).map((m) => m.content)).toEqual(["user is in Asia/Jerusalem"]);
      expect(memory.getRecentMessages(PHONE, 0)).toEqual([]);
    });

    it("keeps 10 messages and 500 tokens, and at most 3 system messages", async () => {
      for (let i = 0; i < 12; i++) await memory.addUserMessage(PHONE, `message ${i}`);
      expect(memory.getRecentMessages(PHONE).map((m) => m.content)).toEqual(
        Array.from({ length: 10 }, (_, i) => `message ${i + 2}`),
      );

      for (let i = 0; i < 5; i++) await memory.addSystemMessage(PHONE, `note ${i}`);
      const system = memory.getRecentMessages(PHONE).filter((m) => m.role === "system");
      expect(system.map((m) => m.content)).toEqual(["note 2", "note 3", "note 4"]);

      await memory.addAssistantMessage(PHONE, "x".repeat(1400)); // 400 tokens
      const stats = memory.getStats(PHONE);
      expect(stats.totalTokens).toBeLessThanOrEqual(500);
      expect(memory.getRecentMessages(PHONE).at(-1)!.content).toHaveLength(1400);
    });

    it("keeps what Memo added beside the user's words, at most 600 characters, counted in the 500 tokens", async () => {
      for (let i = 0; i < 6; i++) await memory.addAssistantMessage(PHONE, `${"y".repeat(200)} ${i}`);
      await memory.addUserMessage(PHONE, "add these", { whatsappMessageId: "wamid.in" });
      await memory.addAssistantMessage(PHONE, "Which list?");
      await memory.addContextToUserMessage(
        PHONE,
        ['Replying to Memo\'s message: "shopping"', `Recent image — text: ${"z".repeat(800)}`],
        "wamid.in",
      );
      const messages = memory.getRecentMessages(PHONE);
      const user = messages.find((m) => m.role === "user")!;
      expect(user.content).toBe("add these");
      const added = user.metadata!.addedContext!;
      expect(added[0]).toBe('Replying to Memo\'s message: "shopping"');
      expect(added.join("\n").length).toBeLessThanOrEqual(601);
      expect(added[1]!.endsWith("…")).toBe(true);
      expect(user.estimatedTokens).toBe(Math.ceil(9 / 3.5) + Math.ceil(added.join("\n").length / 3.5));
      // The longer message pushed older ones out: the window still holds 500 tokens at most.
      expect(memory.getStats(PHONE).totalTokens).toBeLessThanOrEqual(500);
      expect(messages.length).toBeLessThan(8);
      expect(messages.at(-1)!.content).toBe("Which list?");
    });

    it("does not add a message twice for the same WhatsApp id (redelivery, re-run turn)", async () => {
      await memory.addUserMessage(PHONE, "buy milk", { whatsappMessageId: "wamid.1" });
      await memory.addUserMessage(PHONE, "buy milk", { whatsappMessageId: "wamid.1" });
      await memory.addUserMessage(PHONE, "buy milk");
      expect(memory.getStats(PHONE).messageCount).toBe(2);
    });

    it("answers hasUserMessage and getLastUserMessage", async () => {
      expect(memory.getLastUserMessage(PHONE)).toBeNull();
      await memory.addUserMessage(PHONE, "first", { whatsappMessageId: "wamid.1" });
      await memory.addUserMessage(PHONE, "second");
      await memory.addAssistantMessage(PHONE, "reply");
      expect(memory.hasUserMessage(PHONE, "first")).toBe(true);
      expect(memory.hasUserMessage(PHONE, "first", "wamid.1")).toBe(true);
      expect(memory.hasUserMessage(PHONE, "first", "wamid.2")).toBe(false);
      expect(memory.hasUserMessage(PHONE, "reply")).toBe(false);
      expect(memory.getLastUserMessage(PHONE)?.content).toBe("second");
    });

    it("finds the message a WhatsApp reply points at, on either side", async () => {
      await memory.addUserMessage(PHONE, "dentist on Tuesday", { whatsappMessageId: "wamid.u1" });
      await memory.addAssistantMessage(PHONE, "1. Call mom\n2. Buy milk", "wamid.a1");
      await memory.addUserMessage(PHONE, "delete the second", {
        whatsappMessageId: "wamid.u2",
        replyToMessageId: "wamid.a1",
      });

      const reply = memory.getLastUserMessage(PHONE)!;
      expect(reply.replyToMessageId).toBe("wamid.a1");
      expect(memory.getRepliedToMessage(PHONE, reply.replyToMessageId!)?.content).toBe(
        "1. Call mom\n2. Buy milk",
      );
      expect(memory.getRepliedToMessage(PHONE, "wamid.u1")?.role).toBe("user");
      expect(memory.getRepliedToMessage(PHONE, "wamid.gone")).toBeNull();
    });

    it("sets the WhatsApp id on the stored assistant message it is handed, so replies to it are found", async () => {
      const earlier = await memory.addAssistantMessage(PHONE, "Done");
      clock.advance(1000);
      await memory.addUserMessage(PHONE, "thanks");
      clock.advance(1000);
      const sent = await memory.addAssistantMessage(PHONE, "Done");
      expect(sent).toEqual(expect.any(String));
      expect(sent).not.toBe(earlier);
      // A message stored with its WhatsApp id needs no link.
      expect(await memory.addAssistantMessage(PHONE, "Sent", "wamid.known")).toBeNull();
      await memory.setAssistantMessageId(PHONE, sent!, "wamid.sent");

      const [first, , linked] = memory.getRecentMessages(PHONE);
      expect(linked!.whatsappMessageId).toBe("wamid.sent");
      expect(linked!.localId).toBeUndefined();
      expect(first!.whatsappMessageId).toBeUndefined();
      expect(memory.getRepliedToMessage(PHONE, "wamid.sent")).toEqual(linked);
      expect((await store.load(PHONE))!.messages[2]!.whatsappMessageId).toBe("wamid.sent");

      await memory.setAssistantMessageId(PHONE, "never stored", "wamid.x");
      expect(memory.getRepliedToMessage(PHONE, "wamid.x")).toBeNull();
    });

    it("never lets a caller change the window through a returned object", async () => {
      await memory.addUserMessage(PHONE, "original");
      memory.getRecentMessages(PHONE)[0]!.content = "changed";
      memory.getLastUserMessage(PHONE)!.content = "changed";
      expect(memory.getLastUserMessage(PHONE)?.content).toBe("original");
    });
  });

  it("drops messages and latest actions older than 12 hours, and the conversation's recent tasks with them", async () => {
    await memory.addUserMessage(PHONE, "old");
    await memory.pushLatestAction(PHONE, action(1, clock.now()));
    await memory.pushRecentTasks(PHONE, [task("t1")]);
    clock.advance(6 * 60 * MINUTE);
    await memory.addUserMessage(PHONE, "newer");

    clock.advance(6 * 60 * MINUTE + 1); // "old" is now 12 h + 1 ms old
    const restarted = new MemoryService(store, { clock: clock.now });
    await restarted.load(PHONE);
    expect(restarted.getRecentMessages(PHONE).map((m) => m.content)).toEqual(["newer"]);
    expect(restarted.getLatestActions(PHONE)).toEqual([]);
    expect(restarted.getRecentTasks(PHONE)).toEqual([task("t1")]);
    // The cache of a long-running instance ages the same way without a reload.
    expect(memory.getRecentMessages(PHONE).map((m) => m.content)).toEqual(["newer"]);

    clock.advance(6 * 60 * MINUTE);
    await restarted.load(PHONE);
    expect(restarted.getRecentMessages(PHONE)).toEqual([]);
    expect(restarted.getRecentTasks(PHONE)).toEqual([]);
    expect(restarted.getStats(PHONE)).toEqual({
      messageCount: 0,
      totalTokens: 0,
      oldestTimestamp: null,
      newestTimestamp: null,
      latestActionCount: 0,
    });
  });

  describe("latest actions", () => {
    it("keeps the 10 newest, first in first out, and hands out the 3 most recent first", async () => {
      for (let n = 1; n <= 12; n++) {
        await memory.pushLatestAction(PHONE, action(n, clock.now()));
        clock.advance(1000);
      }
      expect(memory.getLatestActions(PHONE).map((a) => a.summary)).toEqual(["task 12", "task 11", "task 10"]);
      expect(memory.getLatestActions(PHONE, 20).map((a) => a.summary)).toEqual(
        Array.from({ length: 10 }, (_, i) => `task ${12 - i}`),
      );
      expect(memory.getStats(PHONE).latestActionCount).toBe(10);
      expect((await store.load(PHONE))!.latestActions).toHaveLength(10);
    });

    it("keeps the optional fields", async () => {
      const full: LatestAction = {
        createdAt: clock.now(),
        capability: "calendar",
        action: "create_event",
        summary: 'event "dentist"',
        when: "2026-03-03T07:30:00.000Z",
        externalIds: ["evt_1"],
      };
      await memory.pushLatestAction(PHONE, full);
      expect(memory.getLatestActions(PHONE)).toEqual([full]);
    });
  });

  describe("disambiguation", () => {
    function context(createdAt: number, lifetime = DISAMBIGUATION_EXPIRY_MS): DisambiguationSnapshot {
      return disambiguationSnapshot(createdAt, createdAt + lifetime);
    }

    it("answers until its expiry, then reads as null", async () => {
      const ctx = context(clock.now());
      await memory.setDisambiguationContext(PHONE, ctx);
      clock.advance(DISAMBIGUATION_EXPIRY_MS - 1);
      expect(memory.getDisambiguationContext(PHONE)).toEqual(ctx);
      clock.advance(1);
      expect(memory.getDisambiguationContext(PHONE)).toBeNull();
    });

    it("never keeps one longer than its question's 5 minutes and 5 more, whatever expiry it was given", async () => {
      await memory.setDisambiguationContext(PHONE, context(clock.now(), 60 * MINUTE));
      clock.advance(DISAMBIGUATION_MAX_LIFE_MS - 1);
      expect(memory.getDisambiguationContext(PHONE)).not.toBeNull();
      clock.advance(1);
      expect(memory.getDisambiguationContext(PHONE)).toBeNull();
    });

    it("lives 5 minutes after its question ended early, cut in the next turn's own write", async () => {
      await memory.setDisambiguationContext(PHONE, context(clock.now(), DISAMBIGUATION_MAX_LIFE_MS));
      clock.advance(MINUTE);
      // Outside a turn (the HITL plane): nothing is written until the next turn starts.
      await memory.endDisambiguationQuestion(PHONE);
      expect((await store.load(PHONE))!.disambiguation!.expiresAt).toBe(
        clock.now() - MINUTE + DISAMBIGUATION_MAX_LIFE_MS,
      );
      const ended = clock.now();
      clock.advance(MINUTE);
      await memory.beginTurn(PHONE);
      await memory.commit(PHONE);
      expect((await store.load(PHONE))!.disambiguation!.expiresAt).toBe(ended + DISAMBIGUATION_EXPIRY_MS);
      clock.advance(DISAMBIGUATION_EXPIRY_MS - MINUTE);
      expect(memory.getDisambiguationContext(PHONE)).toBeNull();
    });

    it("is cleared on request, and an expired one is not loaded back", async () => {
      await memory.setDisambiguationContext(PHONE, context(clock.now()));
      await memory.clearDisambiguationContext(PHONE);
      expect(memory.getDisambiguationContext(PHONE)).toBeNull();
      expect((await store.load(PHONE))!.disambiguation).toBeNull();

      await memory.setDisambiguationContext(PHONE, context(clock.now()));
      const other = new MemoryService(store, { clock: clock.now });
      await other.load(PHONE);
      expect(other.getDisambiguationContext(PHONE)?.candidates).toHaveLength(2);
      clock.advance(DISAMBIGUATION_EXPIRY_MS);
      await other.load(PHONE);
      expect(other.getDisambiguationContext(PHONE)).toBeNull();
    });
  });

  it("finds the image context of the newest message that carries one", async () => {
    const image = (imageId: string): ImageContext => ({
      imageId,
      analysisResult: { description: "a shopping list", extractedData: { items: ["milk", "eggs"] } },
      imageType: "structured",
      extractedAt: clock.now(),
    });
    expect(memory.getLastImageContext(PHONE)).toBeNull();
    await memory.addUserMessage(PHONE, "[image]", { metadata: { imageContext: image("img1") } });
    await memory.addUserMessage(PHONE, "[image]", { metadata: { imageContext: image("img2") } });
    await memory.addAssistantMessage(PHONE, "I see a shopping list");
    await memory.addUserMessage(PHONE, "add them all");
    expect(memory.getLastImageContext(PHONE)).toEqual(image("img2"));
  });

  describe("recent tasks", () => {
    it("keeps the 4 newest, a newer snapshot of a task replacing the older one", async () => {
      await memory.pushRecentTasks(PHONE, [task("t1"), task("t2"), task("t3")]);
      await memory.pushRecentTasks(PHONE, [task("t4"), task("t5")]);
      expect(memory.getRecentTasks(PHONE).map((t) => t.id)).toEqual(["t2", "t3", "t4", "t5"]);

      await memory.pushRecentTasks(PHONE, [{ ...task("t3"), completed: true }]);
      expect(memory.getRecentTasks(PHONE)).toEqual([
        task("t2"),
        task("t4"),
        task("t5"),
        { ...task("t3"), completed: true },
      ]);

      await memory.clearRecentTasks(PHONE);
      expect(memory.getRecentTasks(PHONE)).toEqual([]);
      expect((await store.load(PHONE))!.recentTasks).toEqual([]);
    });
  });

  describe("the cache in front of the store", () => {
    it("answers as empty for a phone never loaded", async () => {
      await memory.addUserMessage(PHONE, "hello");
      const fresh = new MemoryService(store, { clock: clock.now });
      expect(fresh.getRecentMessages(PHONE)).toEqual([]);
      expect(fresh.getLatestActions(PHONE)).toEqual([]);
      expect(fresh.getStats(PHONE).messageCount).toBe(0);
    });

    it("loads a phone before its first write, never overwriting what is stored", async () => {
      await memory.addUserMessage(PHONE, "from the first instance");
      const other = new MemoryService(store, { clock: clock.now });
      await other.addAssistantMessage(PHONE, "from the second");
      expect(other.getRecentMessages(PHONE).map((m) => m.content)).toEqual([
        "from the first instance",
        "from the second",
      ]);
    });

    it("saves overlapping writes in the order they were made", async () => {
      const slow = new SlowStore();
      const service = new MemoryService(slow, { clock: clock.now });
      await Promise.all([
        service.addUserMessage(PHONE, "one"),
        service.pushLatestAction(PHONE, action(1, clock.now())),
        service.addAssistantMessage(PHONE, "two"),
      ]);
      const saved = (await slow.load(PHONE))!;
      expect(saved.messages.map((m) => m.content)).toEqual(["one", "two"]);
      expect(saved.latestActions).toHaveLength(1);
    });

    it("evicts entries idle for 12 hours; load() brings them back", async () => {
      await memory.addUserMessage(PHONE, "hello");
      clock.advance(CONVERSATION_MAX_AGE_MS - MINUTE);
      memory.cleanup();
      expect(memory.getStats(PHONE).messageCount).toBe(1);
      clock.advance(MINUTE + 1);
      memory.cleanup();
      expect(memory.getStats(PHONE).messageCount).toBe(0);
      expect(await store.load(PHONE)).not.toBeNull();
    });

    it("clears a conversation here and in the store", async () => {
      await memory.addUserMessage(PHONE, "hello");
      await memory.pushLatestAction(PHONE, action(1, clock.now()));
      await memory.clearConversation(PHONE);
      expect(memory.getRecentMessages(PHONE)).toEqual([]);
      expect(memory.getLatestActions(PHONE)).toEqual([]);
      expect(await store.load(PHONE)).toBeNull();
    });

    it("keeps each phone's window to itself", async () => {
      await memory.load(OTHER);
      await memory.addUserMessage(PHONE, "mine", { whatsappMessageId: "wamid.mine" });
      await memory.pushLatestAction(PHONE, action(1, clock.now()));
      await memory.pushRecentTasks(PHONE, [task("t1")]);
      expect(memory.getRecentMessages(OTHER)).toEqual([]);
      expect(memory.hasUserMessage(OTHER, "mine")).toBe(false);
      expect(memory.getRepliedToMessage(OTHER, "wamid.mine")).toBeNull();
      expect(memory.getLatestActions(OTHER)).toEqual([]);
      expect(memory.getRecentTasks(OTHER)).toEqual([]);
      await memory.clearConversation(OTHER);
      expect(memory.getStats(PHONE).messageCount).toBe(1);
    });

    it("keeps the window when the history rows written with it fail: logged, the turn goes on", async () => {
      const { logger, lines } = captureLogs();
      const store = new HistoryRefusingStore();
      const service = new MemoryService(store, { clock: clock.now, logger });
      await service.load(PHONE);
      await service.addUserMessage(PHONE, "remember the milk", { whatsappMessageId: "wamid.1" });
      expect((await store.load(PHONE))?.messages.map((m) => m.content)).toEqual(["remember the milk"]);
      expect(lines().find((l) => l.msg === "conversation history failed")).toMatchObject({
        op: "appendHistory",
        error: "history table gone",
      });
      expect(lines().find((l) => l.msg === "conversation store failed")).toBeUndefined();
    });

    it("logs a failed save with its context but without the user's words or number, and rethrows", async () => {
      const { logger, lines } = captureLogs();
      const failing = new FailingStore(new Error("connection terminated"));
      const service = new MemoryService(failing, { clock: clock.now, logger });
      await service.load(PHONE);
      await expect(service.addUserMessage(PHONE, "my secret diagnosis")).rejects.toThrow(
        "connection terminated",
      );

      const logged = lines().find((l) => l.msg === "conversation store failed");
      expect(logged).toMatchObject({ level: 50, op: "addUserMessage", error: "connection terminated" });
      const text = JSON.stringify(lines());
      expect(text).not.toContain("secret");
      expect(text).not.toContain(PHONE);
      expect(text).not.toContain(PHONE.slice(-7));
    });
  });
});

/** A store whose saves take longer the earlier they were made, to catch out-of-order writes. */
class SlowStore extends InMemoryConversationStore {
  private delay = 30;
  override async save(phone: string, window: StoredWindow): Promise<void> {
    const wait = (this.delay = Math.max(this.delay - 10, 0));
    await new Promise((resolve) => setTimeout(resolve, wait));
    return super.save(phone, window);
  }
}

/** A store that loads nothing and refuses every save. */
class FailingStore implements ConversationStore {
  constructor(private readonly error: Error) {}
  load(): Promise<StoredWindow | null> {
    return Promise.resolve(null);
  }
  save(): Promise<void> {
    return Promise.reject(this.error);
  }
  delete(): Promise<void> {
    return Promise.reject(this.error);
  }
  append(): Promise<void> {
    return Promise.reject(this.error);
  }
}

/** A store that keeps history with the window, but whose history rows always fail. */
class HistoryRefusingStore extends InMemoryConversationStore {
  readonly keepsHistory = true;
  override save(phone: string, window: StoredWindow, history: readonly unknown[] = []): Promise<void> {
    if (history.length > 0) return Promise.reject(new Error("history table gone"));
    return super.save(phone, window);
  }
}
