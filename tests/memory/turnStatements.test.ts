// What one turn costs the database in memory (window, history, summary, facts), counted through
// the runtime on every backend: one read and one write per turn, at most one read and one write of
// background work after a reply; and what those writes must still guarantee (another instance sees
// the conversation, history in window order, a failed turn keeps what the user said).
import { afterEach, describe, expect, it } from "vitest";
import { PgConversationHistory } from "../../src/db/repositories/conversationHistory.js";
import { PgConversationStore } from "../../src/db/repositories/conversationStore.js";
import { MemoryService } from "../../src/services/memory/memoryService.js";
import { backends } from "../support/db.js";
import { createHarness, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { countQueries, type QueryCounter } from "../support/queryCounter.js";
import { recordingCapability } from "../support/recordingCapability.js";

const MEMORY_TABLES =
  /\b(conversation_windows|conversation_messages|conversation_chunks|memory_profiles|memories)\b/;

type Kind = "turn read" | "turn write" | "background read" | "background write" | "other";

/** What a memory statement is: the turn's read or write, the background work's, or another (a command's). */
function kindOf(sql: string): Kind {
  if (/^(WITH facts|SELECT w\.state|SELECT state FROM conversation_windows)/.test(sql)) return "turn read";
  if (/^(WITH saved|INSERT INTO conversation_windows)/.test(sql)) return "turn write";
  if (/^WITH p /.test(sql)) return "background read";
  if (/^(INSERT|UPDATE|DELETE)/.test(sql)) return "background write";
  return "other";
}

/** The memory statements sent since `from` (an index into `counter.statements`), by kind, in order. */
function memoryStatements(counter: QueryCounter, from: number): Kind[] {
  return counter.statements
    .slice(from)
    .filter((sql) => MEMORY_TABLES.test(sql))
    .map(kindOf);
}

/** Sends a message and waits for the turn's background work; returns its memory statements. */
async function turn(h: Harness, text: string, id: string): Promise<{ status: string; memory: Kind[] }> {
  const from = counter!.statements.length;
  const reply = await h.say(text, { whatsappMessageId: id });
  await h.longTerm.idle();
  return { status: reply.status, memory: memoryStatements(counter!, from) };
}

/** The window and history as another instance (a restart) reads them. */
async function seenElsewhere(h: Harness) {
  const other = new MemoryService(new PgConversationStore(h.db.pool), { clock: h.clock.now });
  await other.load(PHONE);
  const history = await new PgConversationHistory(h.db.pool).between(PHONE, 0, null);
  return {
    window: other.getRecentMessages(PHONE).map((m) => `${m.role}: ${m.content}`),
    history: history.map((m) => `${m.role}: ${m.content}`),
    ids: history.map((m) => m.id),
  };
}

let h: Harness | undefined;
let counter: QueryCounter | undefined;
afterEach(async () => {
  counter?.restore();
  await h?.close();
  h = counter = undefined;
});

describe.each(backends)("memory statements of a turn ($name)", (backend) => {
  async function start(): Promise<{ h: Harness; executed: unknown[] }> {
    const db = recordingCapability();
    h = await createHarness({ db: await backend.create(), capabilities: db.register });
    await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem", language: "en" });
    counter = countQueries();
    return { h, executed: db.executed };
  }

  it("a completed command turn: one read, one write, and no background round (nothing for long-term memory)", async () => {
    const { h } = await start();
    h.server!.enqueue(plan({ steps: [step("s1", "database", "add_task")] }));
    expect(await turn(h, "add a task to call mom", "wamid.in1")).toEqual({
      status: "completed",
      memory: ["turn read", "turn write"],
    });
    h.server!.enqueue(plan({ steps: [step("s1", "database", "add_task")] }));
    expect(await turn(h, "add a task to call dad", "wamid.in2")).toEqual({
      status: "completed",
      memory: ["turn read", "turn write"],
    });

    const seen = await seenElsewhere(h);
    expect(seen.window).toEqual([
      "user: add a task to call mom",
      "assistant: did add_task",
      "user: add a task to call dad",
      "assistant: did add_task",
    ]);
    expect(seen.history).toEqual(seen.window);
    expect([...seen.ids].sort((a, b) => a - b)).toEqual(seen.ids);
  });

  it("a turn where the user may say something to keep gets its background round: one read, then its writes", async () => {
    const { h } = await start();
    h.server!.enqueue(plan({ steps: [step("s1", "database", "add_task")] }));
    const { memory } = await turn(
      h,
      "I moved to Haifa last week, add a task to call the movers",
      "wamid.in1",
    );
    expect(memory.slice(0, 3)).toEqual(["turn read", "turn write", "background read"]);
    expect(memory.filter((kind) => kind === "background read")).toHaveLength(1);
    expect(memory).toContain("background write");
  });

  it("command turns that push messages out of the window get a background round once a chunk is due", async () => {
    const { h } = await start();
    // Five turns fill the window (10 messages).
    for (let i = 1; i <= 5; i++) {
      h.server!.enqueue(plan({ steps: [step("s1", "database", "add_task")] }));
      expect((await turn(h, `add a task number ${i}`, `wamid.in${i}`)).memory).toEqual([
        "turn read",
        "turn write",
      ]);
    }
    // Each further turn pushes two out: turns 6 to 9 leave 2 to 8 waiting (fewer than CHUNK_SIZE,
    // no round), the tenth 10, and its round makes a chunk of them; the eleventh counts again.
    const rounds: boolean[] = [];
    for (let i = 6; i <= 11; i++) {
      h.server!.enqueue(plan({ steps: [step("s1", "database", "add_task")] }));
      rounds.push(
        (await turn(h, `add a task number ${i}`, `wamid.in${i}`)).memory.includes("background read"),
      );
    }
    expect(rounds).toEqual([false, false, false, false, true, false]);
    // The round made one chunk of the 10 messages that left (5 turns), and moved the cursor past them.
    const chunks = await h.db.pool.query<{ message_count: number }>(
      "SELECT message_count FROM conversation_chunks WHERE user_phone = $1",
      [PHONE],
    );
    expect(chunks.rows).toEqual([{ message_count: 10 }]);
    const folded = await h.db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM conversation_messages m JOIN memory_profiles p USING (user_phone)
        WHERE m.user_phone = $1 AND m.id <= p.summary_through`,
      [PHONE],
    );
    expect(Number(folded.rows[0]!.n)).toBe(10);
  });

  it("a question turn and its answer: one read and one write each", async () => {
    const { h, executed } = await start();
    h.server!.enqueue(plan({ needsApproval: true, steps: [step("s1", "database", "delete_all_tasks")] }));
    expect(await turn(h, "delete everything", "wamid.q")).toEqual({
      status: "waiting",
      memory: ["turn read", "turn write"],
    });
    // The question is seen elsewhere before the user can answer it.
    expect((await seenElsewhere(h)).window).toEqual([
      "user: delete everything",
      "assistant: Should I go ahead?",
    ]);

    expect(await turn(h, "yes", "wamid.a")).toEqual({
      status: "completed",
      memory: ["turn read", "turn write", "background read", "background write"],
    });
    expect(executed).toHaveLength(1);
    const seen = await seenElsewhere(h);
    expect(seen.window).toEqual([
      "user: delete everything",
      "assistant: Should I go ahead?",
      "user: yes",
      "assistant: did delete_all_tasks",
    ]);
    expect(seen.history).toEqual(seen.window);
    expect([...seen.ids].sort((a, b) => a - b)).toEqual(seen.ids);
  });

  it("a turn that fails keeps what the user said, and its retry does not store it twice", async () => {
    const { h } = await start();
    const push = h.memory.pushLatestAction.bind(h.memory);
    let fail = true;
    h.memory.pushLatestAction = (phone, ...actions) =>
      fail ? ((fail = false), Promise.reject(new Error("process died"))) : push(phone, ...actions);
    h.server!.enqueue(plan({ steps: [step("s1", "database", "add_task")] }));
    expect((await h.say("add milk", { whatsappMessageId: "wamid.f" })).status).toBe("failed");
    expect((await seenElsewhere(h)).history).toEqual(["user: add milk"]);

    h.server!.enqueue(plan({ steps: [step("s1", "database", "add_task")] }));
    expect((await h.say("add milk", { whatsappMessageId: "wamid.f" })).status).toBe("completed");
    const seen = await seenElsewhere(h);
    expect(seen.window).toEqual(["user: add milk", "assistant: did add_task"]);
    expect(seen.history).toEqual(seen.window);
  });

  it("keeps memory commands out of the history, in the same one write", async () => {
    const { h } = await start();
    h.server!.enqueue(plan({ steps: [step("s1", "database", "add_task")] }));
    await turn(h, "add a task to call mom", "wamid.1");
    const { memory } = await turn(h, "what do you remember about me?", "wamid.2");
    expect(memory.filter((kind) => kind === "turn write")).toHaveLength(1);
    const seen = await seenElsewhere(h);
    expect(seen.window).toContain("user: what do you remember about me?");
    expect(seen.history).not.toContain("user: what do you remember about me?");
  });
});
