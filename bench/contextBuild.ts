import pg from "pg";
import { migrate } from "../src/db/migrate.js";
import { MIGRATIONS } from "../src/db/migrations/index.js";
import { PgChunkRepository } from "../src/db/repositories/chunkRepository.js";
import { PgConversationHistory } from "../src/db/repositories/conversationHistory.js";
import { PgConversationStore } from "../src/db/repositories/conversationStore.js";
import { EPISODE_KINDS, PgEpisodeRepository } from "../src/db/repositories/episodeRepository.js";
import { PgMemoryRepository, type MemoryType } from "../src/db/repositories/memoryRepository.js";
import { memoryStorage } from "../src/db/storage.js";
import { LongTermMemory } from "../src/services/memory/longTermMemory.js";
import { MemoryService } from "../src/services/memory/index.js";
import { round } from "./measure.js";
import { withPglite } from "./pglite.js";
import { NO_POSTGRES, postgresDatabase } from "./postgres.js";
import { percentile } from "./stats.js";

const PHONE = "972501234567";
/** Remembered facts of the user holding now (default: 200). */
const FACTS = 200;
/** Of those, facts that replaced an older one (closed at the newer one's start): every fourth (default: 50). */
const REPLACED_EVERY = 4;
/** Episodes of the user (default: 100, spec 004's cap). */
const EPISODES = 100;
/** Conversation chunks of the user (default: 20, the most kept). */
const CHUNKS = 20;
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
 * Context assembly with long-term memory, on the embedded database and on Postgres: a user with a
 * 1,000-turn history, a full 10-message window, 20 conversation chunks (the most kept) of about
 * 40 tokens, 100 episodes and 250 facts with validity (200 holding now; 50 closed by the newer
 * fact that replaced them). One sample is what context_assembly does for memory at the start of a
 * turn: `MemoryService.beginTurn` (the window, the newest chunk summaries, the candidate facts and
 * the episodes speaking of the message, in one statement: `PgConversationStore.loadTurn`),
 * `getRecentMessages`, and `LongTermMemory.contextFor` with what that read brought (spec 004
 * scoring of the facts by `rankMemories`, then formatting; no I/O). `read_*` and `rank_*` time the
 * two parts apart. No embedding request is made: a turn's context is ranked by TF-IDF. The turn's
 * end (`commit`, nothing to write) and the access record that contextFor starts without waiting
 * are awaited after each sample, untimed, as the next turn of a user comes seconds later.
 */
export async function contextBuild(): Promise<Record<string, unknown>[]> {
  const lines = [await withPglite((pool) => contextOn(pool, "pglite"))];
  const database = await postgresDatabase();
  if (!database) return [...lines, { bench: "context_build", database: "postgres", skipped: NO_POSTGRES }];
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  try {
    lines.push(await contextOn(pool, "postgres"));
  } finally {
    await pool.end();
    await database.drop();
  }
  return lines;
}

async function contextOn(pool: pg.Pool, backend: "pglite" | "postgres"): Promise<Record<string, unknown>> {
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
    const thing = THINGS[Math.floor(i / 10)]!;
    const validFrom = now - (i % 90) * DAY;
    // Every fourth holds since it replaced an older one about the same thing, now closed.
    const replaced =
      i % REPLACED_EVERY === 0
        ? await facts.create(
            PHONE,
            {
              type,
              content: `Used to want ${subject} ${thing} on ${SUBJECTS[(i + 7) % SUBJECTS.length]}`,
              validFrom: validFrom - 200 * DAY,
              precision: "month",
            },
            validFrom - 200 * DAY,
          )
        : null;
    await facts.create(
      PHONE,
      {
        type,
        content: `About ${subject}: ${QUALITIES[i % 10]} ${thing}`,
        validFrom,
        ...(replaced && { replaces: [replaced.fact.id] }),
      },
      validFrom,
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
  for (let i = 0; i < CHUNKS; i++) {
    const summary = `- 2026-02-${String(i + 1).padStart(2, "0")}: "Talked about ${SUBJECTS[i % SUBJECTS.length]}"\n- Then planned the week`;
    await chunks.create(PHONE, {
      firstMessageId: i * 10 + 1,
      lastMessageId: i * 10 + 10,
      messageCount: 10,
      summary,
      keyTopics: [SUBJECTS[i % SUBJECTS.length]!],
      tokenCount: Math.ceil(summary.length / 3.5),
      startedAt: now - (CHUNKS - i) * DAY,
      endedAt: now - (CHUNKS - i) * DAY + 3_600_000,
    });
  }
  const episodes = new PgEpisodeRepository(pool);
  for (let i = 0; i < EPISODES; i++) {
    const subject = SUBJECTS[i % SUBJECTS.length]!;
    await episodes.create(
      PHONE,
      {
        kind: EPISODE_KINDS[i % EPISODE_KINDS.length]!,
        title: `${QUALITIES[i % 10]} ${THINGS[i % THINGS.length]} for ${subject}`,
        summary: `The user settled on ${QUALITIES[i % 10]} ${THINGS[i % THINGS.length]} for ${subject}.`,
        participants: ["user"],
        significance: 0.5 + (i % 4) / 10,
        occurredAt: now - (i % 90) * DAY - i * 60_000,
      },
      now,
    );
  }

  const stored = await pool.query<{ holding: number; closed: number; episodes: number; chunks: number }>(
    `SELECT count(*) FILTER (WHERE valid_until IS NULL)::int AS holding,
            count(*) FILTER (WHERE valid_until IS NOT NULL)::int AS closed,
            (SELECT count(*)::int FROM memory_episodes WHERE user_phone = $1) AS episodes,
            (SELECT count(*)::int FROM conversation_chunks WHERE user_phone = $1) AS chunks
       FROM memories WHERE user_phone = $1 AND status = 'active'`,
    [PHONE],
  );
  const longTerm = new LongTermMemory({
    storage: memoryStorage(pool),
    llm: null,
    memory,
    clock: () => now,
  });
  const samples: number[] = [];
  const reads: number[] = [];
  const ranks: number[] = [];
  let contextChars = 0;
  let factsShown = 0;
  let episodesRead = 0;
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const message = MESSAGES[i % MESSAGES.length]!;
    const started = performance.now();
    const read = await memory.beginTurn(PHONE, { longTermFor: message });
    const recent = memory.getRecentMessages(PHONE);
    const readAt = performance.now();
    const context = await longTerm.contextFor(PHONE, message, read);
    const ended = performance.now();
    await memory.commit(PHONE);
    await longTerm.idle();
    if (i < WARMUP) continue;
    samples.push(ended - started);
    reads.push(readAt - started);
    ranks.push(ended - readAt);
    if (!read || recent.length !== 10 || read.chunks.length === 0 || context.text === undefined)
      throw new Error("context_build: incomplete context");
    contextChars = Math.max(contextChars, context.text.length);
    factsShown += context.factIds.length;
    episodesRead += read.episodes?.length ?? 0;
  }
  const counts = stored.rows[0]!;
  return {
    bench: "context_build",
    database: backend,
    p50_ms: round(percentile(samples, 50)),
    p95_ms: round(percentile(samples, 95)),
    p99_ms: round(percentile(samples, 99)),
    read_p50_ms: round(percentile(reads, 50)),
    rank_p50_ms: round(percentile(ranks, 50)),
    facts_holding: counts.holding,
    facts_closed: counts.closed,
    episodes: counts.episodes,
    chunks: counts.chunks,
    history_messages: HISTORY,
    facts_shown_avg: round(factsShown / SAMPLES),
    episodes_read_avg: round(episodesRead / SAMPLES),
    max_context_chars: contextChars,
    timed: "MemoryService.beginTurn (loadTurn) + getRecentMessages + LongTermMemory.contextFor",
  };
}
