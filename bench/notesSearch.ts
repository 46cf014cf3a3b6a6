import type pg from "pg";
import { migrate } from "../src/db/migrate.js";
import { MIGRATIONS } from "../src/db/migrations/index.js";
import { PgNoteRepository } from "../src/db/repositories/noteRepository.js";
import { SecondBrainService } from "../src/services/secondBrain/secondBrainService.js";
import { noteEmbeddingText } from "../src/services/secondBrain/embeddings.js";
import { noteSearchText } from "../src/utils/searchText.js";
import { createLogger } from "../src/utils/logger.js";
import { createHashingEmbedder, hashingEmbed } from "../tests/support/hashingEmbedder.js";
import { round } from "./measure.js";
import { withPglite } from "./pglite.js";
import { percentile } from "./stats.js";
import { prng } from "../tests/support/random.js";

const NOTES = 10_000;
const PHONE = "972501234567";
/** Other users' notes in the same table, so the owner filter has work to do. */
const OTHER_USERS = 20;
const OTHER_NOTES_EACH = 50;
/** Rows per INSERT while seeding (each carries its 1536-number embedding as text). */
const SEED_BATCH = 250;
/** Rounds over the query list; the first is untimed warm-up. */
const ROUNDS = 6;

const PEOPLE = [
  "Dana",
  "Yossi",
  "Noa",
  "Itai",
  "Michal",
  "Avi",
  "Shira",
  "Tom",
  "Orly",
  "Ronit",
  "דני",
  "מיכל",
  "נועה",
  "יונתן",
  "רותי",
  "אבי",
  "שירה",
  "סבתא",
  "אמא",
  "אבא",
];
const PLACES = [
  "Tel Aviv",
  "Haifa",
  "Jaffa",
  "Holon",
  "Ramat Gan",
  "Herzliya",
  "ירושלים",
  "חיפה",
  "כפר סבא",
  "רעננה",
  "חולון",
  "אתונה",
];
const TEMPLATES: ((pick: <T>(xs: readonly T[]) => T, n: () => number) => string)[] = [
  (p, n) =>
    `WiFi at ${p(PEOPLE)}'s place: network ${p(PEOPLE)}_${n()}, password ${p(["sunflower", "blue", "tiger", "ocean"])}${n()}`,
  (p, n) => `הסיסמה של הוויפי אצל ${p(PEOPLE)}: ${p(["home", "net", "wifi"])}${n()}`,
  (p, n) =>
    `Recipe for ${p(["banana bread", "shakshuka", "lentil soup", "pancakes", "hummus", "pasta bake"])}: ${(n() % 6) + 2} eggs, ${n() % 400} g flour, bake ${n() % 60} min`,
  (p, n) =>
    `מתכון ל${p(["עוגת שוקולד", "מרק עדשים", "סלט קינואה", "לחם מחמצת", "פשטידה"])}: ${(n() % 5) + 1} כוסות קמח, ${(n() % 4) + 1} ביצים, ${n() % 50} דקות בתנור`,
  (p, n) =>
    `Gift idea for ${p(PEOPLE)}: ${p(["headphones", "a book", "perfume", "a pottery class", "Lego set", "a watch"])} under ${n() % 500} NIS`,
  (p) => `רעיון למתנה ל${p(PEOPLE)}: ${p(["בושם", "ספר", "שעון", "שובר", "שיעור קדרות"])} ליום ההולדת`,
  (p) =>
    `Book recommendation from ${p(PEOPLE)}: ${p(["Project Hail Mary", "Thinking Fast and Slow", "Sapiens", "The Overstory", "Dune"])}`,
  (p, n) =>
    `Dr. ${p(PEOPLE)} ${p(["dermatologist", "pediatrician", "dentist", "family doctor"])} in ${p(PLACES)}, phone 03-${n()}`,
  (p, n) => `רופא ${p(["שיניים", "משפחה", "עור", "ילדים"])} ד"ר ${p(PEOPLE)} ב${p(PLACES)}, טלפון 09-${n()}`,
  (p, n) =>
    `Parked at ${p(["the mall", "the hospital", "work", "the airport"])} level -${(n() % 4) + 1}, section ${p(["A", "B", "C", "D"])}${n() % 9}`,
  (p, n) =>
    `חניתי ב${p(["חניון", "קניון", "בית החולים", "תחנה"])} קומה ${n() % 5}, ליד ${p(["המעלית", "היציאה", "הקופות"])}`,
  (p, n) =>
    `${p(PEOPLE)}'s sizes: shoes ${(n() % 20) + 20}, pants ${(n() % 12) + 2}, shirt ${p(["S", "M", "L"])}`,
  (p, n) => `מידות של ${p(PEOPLE)}: נעליים ${(n() % 20) + 20}, מכנסיים ${(n() % 12) + 2}`,
  (p, n) =>
    `Meeting with ${p(PEOPLE)}: ${p(["budget", "hiring", "roadmap", "launch"])} ${p(["frozen", "approved", "delayed", "moved to Q" + ((n() % 4) + 1)])}`,
  (p, n) => `${p(["Alarm", "Gate", "Locker", "Bike lock", "Safe"])} code ${n()}`,
  (p, n) => `קוד ${p(["לבניין", "לשער", "לכספת", "לארונית"])} של ${p(PEOPLE)}: ${n()}#`,
];

/** One user's notes: realistic shapes (codes, recipes, gifts, doctors, parking, sizes) with varied details. */
function corpus(count: number, random: () => number): { content: string; category: string | null }[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const n = () => Math.floor(random() * 10_000);
  return Array.from({ length: count }, (_, i) => ({
    content: TEMPLATES[i % TEMPLATES.length]!(pick, n),
    category:
      random() < 0.7
        ? pick(["home", "health", "food", "gifts", "work", "בית", "בריאות", "מתכונים", "ילדים"])
        : null,
  }));
}

const QUERIES = [
  "wifi password",
  "what's the wifi password at Dana's",
  "הסיסמה של הוויפי",
  "banana bread recipe",
  "מתכון לעוגת שוקולד",
  "gift for Michal",
  "רעיון למתנה לאמא",
  "book Tom recommended",
  "dermatologist in Haifa",
  "רופא שיניים בכפר סבא",
  "where did I park at the airport",
  "איפה חניתי בקניון",
  "Noa shoe size",
  "מידות של יונתן",
  "hiring freeze",
  "gate code",
  "קוד לבניין של סבתא",
  "pasword",
  "shakshuka",
  "פשטידה",
  "sapiens",
  "budget approved",
  "something not in any note at all",
  "lentil soup",
];

/** Seeds notes (with their embeddings, as the backfill would have left them) in batches. */
async function seed(
  pool: pg.Pool,
  phone: string,
  notes: { content: string; category: string | null }[],
): Promise<void> {
  for (let start = 0; start < notes.length; start += SEED_BATCH) {
    const batch = notes.slice(start, start + SEED_BATCH);
    const vectors = batch.map((note) => hashingEmbed(noteEmbeddingText({ ...note, tags: [] })));
    await pool.query(
      `INSERT INTO notes (user_phone, content, category, search_text, embedding, embedding_model, created_at)
       SELECT $1, c, cat, s, e::vector, $6, now() - (i * interval '1 hour')
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(c, cat, s, e, i)`,
      [
        phone,
        batch.map((note) => note.content),
        batch.map((note) => note.category),
        batch.map((note) => noteSearchText(note.content, note.category)),
        vectors.map((vector) => `[${vector.map((x) => x.toFixed(6)).join(",")}]`),
        "test-hashing-v1",
      ],
    );
  }
}

/** Times every query ROUNDS times (the first round untimed); returns the samples and how many queries found something. */
async function timeSearches(service: SecondBrainService): Promise<{ samples: number[]; withHits: number }> {
  const samples: number[] = [];
  let withHits = 0;
  for (let roundNo = 0; roundNo < ROUNDS; roundNo++) {
    for (const query of QUERIES) {
      const started = performance.now();
      const found = await service.search(PHONE, query, { limit: 5 });
      const ms = performance.now() - started;
      if (roundNo > 0) samples.push(ms);
      else if (found.length > 0) withHits++;
    }
  }
  return { samples, withHits };
}

const ms = (samples: number[], p: number) => round(percentile(samples, p));

/**
 * Note search at scale: 10,000 notes of one user (plus 1,000 of 20 others) on in-memory PGlite,
 * every note embedded by the local hashing embedder (1,536 dimensions, like
 * text-embedding-3-small); SecondBrainService.search() over a mixed list of English, Hebrew,
 * misspelled and unmatched queries, each one full-text, trigram (for unknown words) and vector
 * candidates, fusion and loading the hits. The query's embedding is local, so the times are the
 * database's and the service's own (an OpenAI call adds its round trip).
 *
 * p50_ms/p95_ms: the schema as migrated (the vector list through the HNSW index of migration
 * 10); exact_*: the same after dropping that index (an exact scan of the owner's vectors, the
 * baseline); lexical_*: the same searches with no embedding model.
 */
export async function notesSearch(): Promise<Record<string, unknown>> {
  return withPglite(async (pool) => {
    await migrate(pool, MIGRATIONS);
    // The same corpus every run.
    const random = prng(20260305).next;
    const started = performance.now();
    const phones = [
      PHONE,
      ...Array.from({ length: OTHER_USERS }, (_, i) => `97250${String(i).padStart(7, "0")}`),
    ];
    await pool.query("INSERT INTO users (phone) SELECT unnest($1::text[])", [phones]);
    await seed(pool, PHONE, corpus(NOTES, random));
    for (const other of phones.slice(1)) await seed(pool, other, corpus(OTHER_NOTES_EACH, random));
    await pool.query("ANALYZE notes");
    const seedS = (performance.now() - started) / 1000;

    const logger = createLogger("silent");
    // A new repository for each: index detection is cached per instance.
    const notes = () => new PgNoteRepository(pool);
    const hybrid = await timeSearches(
      new SecondBrainService({ notes: notes(), embedder: createHashingEmbedder(), logger }),
    );
    const lexical = await timeSearches(new SecondBrainService({ notes: notes(), logger }));
    await pool.query("DROP INDEX notes_embedding_hnsw");
    const exact = await timeSearches(
      new SecondBrainService({ notes: notes(), embedder: createHashingEmbedder(), logger }),
    );
    return {
      bench: "notes_search",
      notes: NOTES,
      backend: "pglite",
      queries: QUERIES.length,
      samples: hybrid.samples.length,
      p50_ms: ms(hybrid.samples, 50),
      p95_ms: ms(hybrid.samples, 95),
      lexical_p50_ms: ms(lexical.samples, 50),
      lexical_p95_ms: ms(lexical.samples, 95),
      exact_p50_ms: ms(exact.samples, 50),
      exact_p95_ms: ms(exact.samples, 95),
      queries_with_hits: hybrid.withHits,
      seed_s: round(seedS),
    };
  });
}
