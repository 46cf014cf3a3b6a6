import { migrate } from "../src/db/migrate.js";
import { MIGRATIONS } from "../src/db/migrations/index.js";
import { PgChunkRepository } from "../src/db/repositories/chunkRepository.js";
import { PgConversationHistory } from "../src/db/repositories/conversationHistory.js";
import { PgConversationStore } from "../src/db/repositories/conversationStore.js";
import { PgMemoryRepository, type MemoryType } from "../src/db/repositories/memoryRepository.js";
import { memoryStorage } from "../src/db/storage.js";
import { LongTermMemory } from "../src/services/memory/longTermMemory.js";
import { MemoryService } from "../src/services/memory/index.js";
import { round } from "./measure.js";
import { withPglite } from "./pglite.js";
import { percentile } from "./stats.js";

const PHONE = "972501234567";
/** Remembered facts of the user (default: 200). */
const FACTS = 200;
/** Messages in the user's whole history (default: 2,000: 1,000 turns). */
const HISTORY = 2000;
/** Timed context builds, after untimed warm-up ones. */
const SAMPLES = 300;
const WARMUP = 30;
const DAY = 24 * 60 * 60 * 1000;

const SUBJECTS = [
  "dentist",
  "Dana",
  "the gym",
  "Rome",
  "the budget",
  "piano lessons",
  "the car",
  "Yoni",
  "sushi",
  "taxes",
]
  .concat([
    "the garden",
    "work trips",
    "the kids' school",
    "running",
    "coffee",
    "the landlord",
    "Haifa",
    "meetings",
  ])
  .concat(["פגישות", "הבוס", "אמא", "חדר כושר", "טיסות", "קניות"]);
const QUALITIES = ["early", "late", "short", "long", "quiet", "weekly", "cheap", "remote", "spicy", "formal"];
const THINGS = [
  "appointments",
  "calls",
  "flights",
  "lessons",
  "dinners",
  "reports",
  "walks",
  "visits",
  "trips",
  "emails",
].concat([
  "gifts",
  "hotels",
  "drives",
  "classes",
  "payments",
  "recipes",
  "movies",
  "books",
  "seats",
  "reviews",
]);
const TYPES: MemoryType[] = ["fact", "preference", "decision", "goal", "constraint", "entity"];
/** What users say at the start of a turn: the text relevance is computed against. */
const MESSAGES = [
  "Can you set up a meeting with Dana next Tuesday morning?",
  "Remind me to call the dentist tomorrow at 10",
  "What's on my calendar this week?",
  "I need to book flights to Rome for the conference",
  "תזכיר לי ללכת לחדר כושר מחר בבוקר",
  "מה יש לי היום?",
  "Add sushi to the shopping list",
  "thanks!",
];

/**
 * Context assembly with long-term memory on the embedded database: a user with a 1,000-turn
 * history, a full 10-message window, 20 conversation chunks (the most kept) of about 40 tokens and
 * 200 remembered facts. One sample is what context_assembly does for memory at the start of a turn:
 * `MemoryService.load` (the window from its table), `getRecentMessages`, and
 * `LongTermMemory.contextFor` (newest chunk summaries and ranked facts, two queries). The access record that
 * contextFor starts without waiting is awaited after each sample, untimed, as the next turn of a
 * user comes seconds later.
 */
export async function contextBuild(): Promise<Record<string, unknown>> {
  return withPglite(async (pool) => {
    await migrate(pool, MIGRATIONS);
    await pool.query("INSERT INTO users (phone, time_zone) VALUES ($1, 'Asia/Jerusalem')", [PHONE]);
    const now = Date.now();

    const history = new PgConversationHistory(pool);
    await pool.query(
      `INSERT INTO conversation_messages (user_phone, role, content, created_at)
       SELECT $1, CASE WHEN i % 2 = 0 THEN 'user' ELSE 'assistant' END,
              'Message ' || i || ' about ' || ($2::text[])[1 + i % cardinality($2::text[])],
              $3::timestamptz - ($4 - i) * interval '1 minute'
         FROM generate_series(0, $4 - 11) AS i`,
      [PHONE, SUBJECTS, new Date(now), HISTORY],
    );
    const memory = new MemoryService(new PgConversationStore(pool), { clock: () => now, history });
    await memory.load(PHONE);
    for (let i = 0; i < 5; i++) {
      await memory.addUserMessage(PHONE, `Can we talk about ${SUBJECTS[i]} later today?`);
      await memory.addAssistantMessage(PHONE, `Sure, ${SUBJECTS[i]} is on the list.`);
    }

    const facts = new PgMemoryRepository(pool);
    for (let i = 0; i < FACTS; i++) {
      const type = TYPES[i % TYPES.length]!;
      const subject = SUBJECTS[i % SUBJECTS.length]!;
      await facts.create(
        PHONE,
        { type, content: `About ${subject}: ${QUALITIES[i % 10]} ${THINGS[Math.floor(i / 10)]}` },
        now - (i % 90) * DAY,
      );
    }
    const { rows } = await pool.query<{ id: string }>(
      "SELECT id FROM conversation_messages WHERE user_phone = $1 ORDER BY id DESC OFFSET 10 LIMIT 1",
      [PHONE],
    );
    await pool.query(
      "INSERT INTO memory_profiles (user_phone, summary_through, facts_through) VALUES ($1, $2, $2)",
      [PHONE, rows[0]!.id],
    );
    const chunks = new PgChunkRepository(pool);
    for (let i = 0; i < 20; i++) {
      const summary = `- 2026-02-${String(i + 1).padStart(2, "0")}: "Talked about ${SUBJECTS[i % SUBJECTS.length]}"\n- Then planned the week`;
      await chunks.create(PHONE, {
        firstMessageId: i * 10 + 1,
        lastMessageId: i * 10 + 10,
        messageCount: 10,
        summary,
        keyTopics: [SUBJECTS[i % SUBJECTS.length]!],
        tokenCount: Math.ceil(summary.length / 3.5),
        startedAt: now - (20 - i) * DAY,
        endedAt: now - (20 - i) * DAY + 3_600_000,
      });
    }

    const stored = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM memories WHERE user_phone = $1 AND status = 'active'",
      [PHONE],
    );
    const longTerm = new LongTermMemory({
      storage: memoryStorage(pool),
      llm: null,
      memory,
      clock: () => now,
    });
    const samples: number[] = [];
    let contextChars = 0;
    let factsShown = 0;
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const message = MESSAGES[i % MESSAGES.length]!;
      const started = performance.now();
      await memory.load(PHONE);
      const recent = memory.getRecentMessages(PHONE);
      const context = await longTerm.contextFor(PHONE, message);
      const ms = performance.now() - started;
      await longTerm.idle();
      if (i < WARMUP) continue;
      samples.push(ms);
      if (recent.length !== 10 || context.text === undefined)
        throw new Error("context_build: incomplete context");
      contextChars = Math.max(contextChars, context.text.length);
      factsShown += context.factIds.length;
    }
    return {
      bench: "context_build",
      p50_ms: round(percentile(samples, 50)),
      p90_ms: round(percentile(samples, 90)),
      p99_ms: round(percentile(samples, 99)),
      facts: stored.rows[0]!.n,
      history_messages: HISTORY,
      facts_shown_avg: round(factsShown / SAMPLES),
      max_context_chars: contextChars,
      timed: "MemoryService.load + getRecentMessages + LongTermMemory.contextFor",
    };
  });
}
