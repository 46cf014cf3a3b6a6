import { normalizeForMatch, rankMatches, similarity } from "../../utils/fuzzy.js";
import { contentWords, isNegated, lexemesOf, queryWordsOf, withoutNegation } from "../../utils/memoryText.js";
import { noteSearchText, toTsQuery, wordForms } from "../../utils/searchText.js";
import type { Queryable } from "../transaction.js";

/** What a remembered item is (spec 004, Layer 3; `procedure` is not kept for a personal assistant). */
export const MEMORY_TYPES = ["fact", "preference", "decision", "goal", "constraint", "entity"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** Importance given when the extractor names none (spec 004's defaults). */
export const DEFAULT_IMPORTANCE: Readonly<Record<MemoryType, number>> = {
  fact: 0.5,
  decision: 0.7,
  preference: 0.6,
  entity: 0.5,
  constraint: 0.6,
  goal: 0.8,
};

/** Days after which an item nobody used is worth half as much (spec 004 calculateDecay). */
const DECAY_HALF_LIFE_DAYS = 30;
/** Each access adds this much to the decay factor, up to ACCESS_BOOST_MAX (spec 004). */
const ACCESS_BOOST_PER_USE = 0.1;
const ACCESS_BOOST_MAX = 0.5;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long before it was told a fact said without its start is taken to have held (see `validDuring`). */
const YEAR_MS = 365 * DAY_MS;

/** Items created longer ago than this may be archived (spec 004 consolidation, default: 30 days). */
const ARCHIVE_MIN_AGE_DAYS = 30;
/** Below this importance × decay an old item is archived (spec 004 consolidation). */
const ARCHIVE_BELOW = 0.3;

/**
 * Near-identical: a new fact scoring at least this against a stored one of the same user refreshes
 * that one instead of being stored again. "Prefers morning meetings" against "Prefers meetings in
 * the morning" scores about 0.93, against "Prefers evening meetings" about 0.65. Negation is not
 * near-identical however close the words ("Can't meet on Fridays" against "Can meet on Fridays"
 * scores 0.92): see `contradicts`.
 */
const DEDUPE_THRESHOLD = 0.85;
/** Below this a fact is not offered as what the user's words mean ("forget that I…"). */
const FIND_MIN_SCORE = 0.35;

/** spec 004 calculateDecay: 0.5^(days since access / 30) + min(0.1 × accesses, 0.5), at most 1. @internal */
export function calculateDecay(accessCount: number, lastAccessedAt: number, now: number): number {
  const days = Math.max(0, now - lastAccessedAt) / DAY_MS;
  const base = Math.pow(0.5, days / DECAY_HALF_LIFE_DAYS);
  return Math.min(1, base + Math.min(accessCount * ACCESS_BOOST_PER_USE, ACCESS_BOOST_MAX));
}

/** The same formula in SQL, at the instant in parameter `now` (a timestamptz), in float8 (numeric is slow). */
function decaySql(now: string): string {
  const days = `GREATEST(0, extract(epoch FROM (${now} - last_accessed_at))::float8) / ${DAY_MS / 1000}`;
  return `LEAST(1, power(0.5::float8, ${days} / ${DECAY_HALF_LIFE_DAYS})
            + LEAST(access_count * ${ACCESS_BOOST_PER_USE}, ${ACCESS_BOOST_MAX}))`;
}

/** A remembered item of one user. */
export interface Fact {
  id: string;
  type: MemoryType;
  /** Third person, e.g. "Prefers morning meetings". */
  content: string;
  /** Its stored search text (`noteSearchText`). */
  searchText: string;
  /** 0..1. */
  importance: number;
  accessCount: number;
  /** Epoch ms. */
  lastAccessedAt: number;
  /** As last computed (on access, at consolidation). */
  decayFactor: number;
  status: "active" | "archived";
  /** The conversation message it came from, null once that message is gone. */
  sourceMessageId: number | null;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms. */
  updatedAt: number;
  /** Epoch ms it became true (spec 004 validFrom). */
  validFrom: number;
  /** How finely that was said: "week" for "last week", "instant" when it is when the user said it. */
  precision: ValidFromPrecision;
  /** Epoch ms it stopped being true, or null while it holds (spec 004 validUntil). */
  validUntil: number | null;
  /** Whom it is about ("user", "sister", "dana"), when known. */
  subject: string | null;
  /** What about them ("residence", "birthday"), when known. */
  attribute: string | null;
  /** Spec 004's relationships to other facts (this one supersedes / contradicts them). */
  relationships: MemoryRelationship[];
  /** The people it speaks of, folded. */
  people: string[];
}

export type ValidFromPrecision = "instant" | "day" | "week" | "month" | "year";

/** Spec 004's MemoryRelationship. */
interface MemoryRelationship {
  targetId: string;
  type: "supersedes" | "contradicts" | "related_to";
  /** 0..1. */
  strength: number;
  /** Epoch ms. */
  createdAt: number;
}

export interface NewFact {
  type: MemoryType;
  content: string;
  /** 0..1 (default: the type's default importance). */
  importance?: number;
  sourceMessageId?: number | null;
  /** Names the operation that makes it: a second create with the same key stores nothing. */
  operationKey?: string;
  subject?: string | null;
  attribute?: string | null;
  people?: readonly string[];
  /** Epoch ms it became true (default: `now`). */
  validFrom?: number;
  precision?: ValidFromPrecision;
  /** Ids of the user's facts the extraction model said it replaces: they are closed (never deleted). */
  replaces?: readonly string[];
}

/** A fact found for the user's words: how well they name it (0..1), and the message it came from, when kept. */
export interface FoundFact extends Fact {
  score: number;
  sourceText: string | null;
}

export interface RelevantOptions {
  /** The instant decay is computed at, and at which the facts must hold (epoch ms). */
  now: number;
  /** Facts matching the query's words read from the table (default: 40). */
  matchingCandidates?: number;
  /** Facts read for their importance × decay alone (default: 20). */
  valueCandidates?: number;
}

/** Storage of remembered facts (`memories`). Every per-user method takes the phone that scopes it. */
interface MemoryRepository {
  /**
   * Stores a fact at `now` (epoch ms); a near-identical one of the user that still holds (active
   * or archived) is refreshed instead: made active, its importance raised to the new one's, its
   * access recorded. Nothing is deleted: the facts it ends are closed at its `validFrom` (spec 004
   * temporal validity) and named in its relationships — those it takes back ("Doesn't like
   * coffee" after "Likes coffee": `contradicts`), those about the same subject and attribute
   * ("Lives in Haifa" after "Lives in Tel Aviv": `supersedes`) and those in `replaces`.
   */
  create(phone: string, fact: NewFact, now: number): Promise<{ fact: Fact; created: boolean }>;
  /**
   * The user's facts of `status` (default: active; "all": active first) that still hold, most
   * valuable first; with `closed`, also those that stopped being true, after them.
   */
  list(phone: string, status?: Fact["status"] | "all", options?: { closed?: boolean }): Promise<Fact[]>;
  /**
   * Spec 004 getValidAt over a period: the user's facts (active or archived) that held at some
   * time in [from, to), at most `limit`. A fact said without when it began ("I live
   * in Tel Aviv") is known true from when it was said; once something newer ended it, it was true
   * before that too, from a start nobody said: it counts for the year before its end. Facts told
   * during the period count too ("what did I tell you in April?"). Newest first.
   */
  validDuring(phone: string, from: number, to: number, limit?: number): Promise<Fact[]>;
  getMany(phone: string, ids: readonly string[]): Promise<Fact[]>;
  /**
   * The user's facts (active and archived) that the words may mean, best first, scored on the
   * fact and on the message it came from (words and trigrams, Hebrew prefixes understood).
   */
  find(phone: string, words: string, limit?: number): Promise<FoundFact[]>;
  /**
   * The candidates for a message (ranked by the caller): the active facts holding now that speak
   * of its words or of people linked to them, and the most valuable ones.
   */
  relevant(phone: string, query: string, options: RelevantOptions): Promise<Fact[]>;
  /** Records that these facts were used at `now`: one more access, decay back to 1. */
  recordAccess(phone: string, ids: readonly string[], now: number): Promise<void>;
  /** How many facts the user has (active and archived). */
  count(phone: string): Promise<number>;
  /** Deletes the user's facts among `ids`; returns those deleted. */
  delete(phone: string, ids: readonly string[]): Promise<Fact[]>;
  /** Deletes all the user's facts; returns how many. */
  deleteAll(phone: string): Promise<number>;
  /**
   * After the facts that ended these were forgotten: each holds again until the forgotten one
   * stopped holding (`until`; null when it still held), when no remaining fact says it ended it.
   * Returns how many.
   */
  reopen(phone: string, ended: readonly { id: string; until: number | null }[]): Promise<number>;
  /**
   * Consolidation, across users: recomputes the decay of up to `batchSize` active facts with an id
   * above `afterId` (keyset order). Returns how many and the last id, null when none were left.
   */
  updateDecayBatch(
    now: number,
    afterId: string | null,
    batchSize: number,
  ): Promise<{ updated: number; lastId: string | null }>;
  /**
   * Consolidation, across users: archives up to `batchSize` active facts created more than 30 days
   * before `now` whose importance × decay is below 0.3. Returns how many.
   */
  archiveStaleBatch(now: number, batchSize: number): Promise<number>;
}

/** A `memories` row as a query returns it, or as JSON (`to_jsonb`: instants as text, ids as numbers). */
interface FactRow {
  id: string;
  type: MemoryType;
  content: string;
  search_text: string;
  importance: number;
  access_count: number;
  last_accessed_at: Date | string;
  decay_factor: number;
  status: Fact["status"];
  source_message_id: string | number | null;
  created_at: Date | string;
  updated_at: Date | string;
  valid_from: Date | string;
  valid_from_precision: ValidFromPrecision;
  valid_until: Date | string | null;
  subject: string | null;
  attribute: string | null;
  relationships: unknown;
  people: string[] | null;
}

/** Epoch ms of an instant read as a Date or as JSON text. */
const millis = (at: Date | string): number => (at instanceof Date ? at.getTime() : Date.parse(at));

const COLUMN_NAMES = [
  ...["id", "type", "content", "search_text", "importance", "access_count", "last_accessed_at"],
  ...["decay_factor", "status", "source_message_id", "created_at", "updated_at", "valid_from"],
  ...["valid_from_precision", "valid_until", "subject", "attribute", "relationships", "people"],
];
const COLUMNS = COLUMN_NAMES.join(", ");
/** The same columns of `memories m`, for joins. */
const M_COLUMNS = COLUMN_NAMES.map((c) => `m.${c}`).join(", ");

/** Only well-formed UUIDs reach a uuid column: anything else would be a query error, not "not found". */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toFact(row: FactRow): Fact {
  return {
    id: row.id,
    type: row.type,
    content: row.content,
    searchText: row.search_text,
    importance: row.importance,
    accessCount: row.access_count,
    lastAccessedAt: millis(row.last_accessed_at),
    decayFactor: row.decay_factor,
    status: row.status,
    sourceMessageId: row.source_message_id === null ? null : Number(row.source_message_id),
    createdAt: millis(row.created_at),
    updatedAt: millis(row.updated_at),
    validFrom: millis(row.valid_from),
    precision: row.valid_from_precision,
    validUntil: row.valid_until === null ? null : millis(row.valid_until),
    subject: row.subject,
    attribute: row.attribute,
    relationships: Array.isArray(row.relationships) ? (row.relationships as MemoryRelationship[]) : [],
    people: row.people ?? [],
  };
}

/** Facts that hold at the instant in `at` (spec 004 isValid). */
const HOLDS = (at: string) => `valid_from <= ${at} AND (valid_until IS NULL OR valid_until > ${at})`;

/** The statement that reads the candidate facts for a query, and how its rows are read. */
export interface RelevantFactsQuery {
  /** One statement; the phone is `$1`, `params` follow from the first number it was asked for. */
  sql: string;
  params: unknown[];
  /** The rows read (as returned, or as `to_jsonb` of them), as facts with their decay at `now`. */
  parse(rows: readonly unknown[]): Fact[];
}

/**
 * The candidate facts for a query, holding at `now`: those speaking of its words (through the
 * text-search index), those about people the words name or people linked to them by an entity
 * fact ("Dana" → "User's sister is Dana" → facts about the sister), and the most valuable by their
 * stored decay (kept fresh by access and consolidation), in one statement that other reads can
 * embed. Ranking is the caller's (spec 004 retrieval, in services/memory/retrieval.ts).
 */
export function relevantFacts(query: string, options: RelevantOptions, first: number): RelevantFactsQuery {
  const words = queryWordsOf(query);
  const [terms, matching, valued, named, at] = [0, 1, 2, 3, 4].map((n) => `$${first + n}`);
  const holds = HOLDS(`${at}::timestamptz`);
  return {
    sql: `(SELECT ${COLUMNS} FROM memories
            WHERE user_phone = $1 AND status = 'active' AND ${holds} AND ${terms}::text IS NOT NULL
              AND search @@ to_tsquery('simple', ${terms})
            ORDER BY importance * decay_factor DESC LIMIT ${matching})
          UNION
          (SELECT ${COLUMNS} FROM memories
            WHERE user_phone = $1 AND status = 'active' AND ${holds} AND cardinality(${named}::text[]) > 0
              AND people && ((SELECT COALESCE(array_agg(DISTINCT p), '{}'::text[]) FROM memories e, unnest(e.people) p
                               WHERE e.user_phone = $1 AND e.type = 'entity' AND e.status = 'active'
                                 AND e.people && ${named}::text[] AND ${holds}) || ${named}::text[])
            ORDER BY importance * decay_factor DESC LIMIT ${matching})
          UNION
          (SELECT ${COLUMNS} FROM memories
            WHERE user_phone = $1 AND status = 'active' AND ${holds}
            ORDER BY importance * decay_factor DESC, last_accessed_at DESC LIMIT ${valued})`,
    params: [
      toTsQuery(lexemesOf(words)),
      options.matchingCandidates ?? 40,
      options.valueCandidates ?? 20,
      [...new Set(words.flatMap((w) => w.forms))],
      new Date(options.now),
    ],
    parse: (rows) =>
      (rows as FactRow[]).map((row) => {
        const fact = toFact(row);
        fact.decayFactor = calculateDecay(fact.accessCount, fact.lastAccessedAt, options.now);
        return fact;
      }),
  };
}

const clamp01 = (n: number) => Math.min(1, Math.max(0, n));

/**
 * Whether a newer statement takes back an older one: one says "not" (not, n't, never, no, לא, אין,
 * אף פעם, בלי…) and the other does not, and apart from that they are near-identical ("Doesn't like
 * coffee" against "Likes coffee", "לא אוהב קפה" against "אוהב קפה").
 * @internal
 */
export function contradicts(newer: string, older: string): boolean {
  if (isNegated(newer) === isNegated(older)) return false;
  return (
    similarity(newer, older) >= DEDUPE_THRESHOLD ||
    similarity(withoutNegation(newer), withoutNegation(older)) >= DEDUPE_THRESHOLD
  );
}

/** Whether two statements say the same: near-identical, with the same negation. */
export function sameStatement(a: string, b: string): boolean {
  return isNegated(a) === isNegated(b) && similarity(a, b) >= DEDUPE_THRESHOLD;
}

/** Words in a "forget that I…" request that name no fact. */
const REQUEST_WORDS = new Set(
  [
    "forget",
    "remember",
    "delete",
    "erase",
    "remove",
    "שכח",
    "תשכח",
    "תשכחי",
    "שכחי",
    "תמחק",
    "תמחקי",
    "מחק",
  ].map(normalizeForMatch),
);

/** MemoryRepository in plain SQL, on the pool or on a transaction's client. */
export class PgMemoryRepository implements MemoryRepository {
  constructor(private readonly db: Queryable) {}

  async create(phone: string, fact: NewFact, now: number): Promise<{ fact: Fact; created: boolean }> {
    const content = fact.content.replaceAll("\u0000", "").trim().slice(0, 1000);
    const importance = clamp01(fact.importance ?? DEFAULT_IMPORTANCE[fact.type]);
    const at = new Date(now);
    const validFrom = new Date(Math.min(fact.validFrom ?? now, now));
    const subject = fact.subject?.trim() || null;
    const attribute = fact.attribute?.trim() || null;

    const precision = fact.precision ?? "instant";
    const { same, contradicted, superseded, laterStart } = await this.related(phone, content, {
      subject,
      attribute,
      validFrom,
      dated: precision !== "instant",
    });
    if (same) {
      const { rows } = await this.db.query<FactRow>(
        `UPDATE memories
            SET status = 'active', importance = GREATEST(importance, $3), access_count = access_count + 1,
                last_accessed_at = $4, decay_factor = 1, updated_at = $4
          WHERE user_phone = $1 AND id = $2
          RETURNING ${COLUMNS}`,
        [phone, same.id, importance, at],
      );
      if (rows[0]) return { fact: toFact(rows[0]), created: false };
    }

    const replaced = (fact.replaces ?? []).filter((id) => UUID.test(id));
    const relationships: MemoryRelationship[] = [
      ...contradicted.map((row) => ({
        targetId: row.id,
        type: "contradicts" as const,
        strength: 1,
        createdAt: now,
      })),
      ...[...new Set([...superseded.map((row) => row.id), ...replaced])]
        .filter((id) => !contradicted.some((row) => row.id === id))
        .map((id) => ({ targetId: id, type: "supersedes" as const, strength: 1, createdAt: now })),
    ];
    const inserted = await this.db.query<FactRow>(
      `WITH closed AS (
         UPDATE memories SET valid_until = $12, updated_at = $8
          WHERE user_phone = $1 AND id = ANY($11::uuid[]) AND valid_until IS NULL
            -- Never one about someone else (a model's "replaces" included), nor one that began after.
            AND (subject IS NULL OR $9::text IS NULL OR subject = $9)
            AND (valid_from <= $12 OR valid_from_precision = 'instant')
        RETURNING id)
       INSERT INTO memories (user_phone, type, content, search_text, importance, source_message_id,
                             created_by_operation, last_accessed_at, created_at, updated_at,
                             valid_from, valid_from_precision, valid_until, subject, attribute,
                             relationships, people)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $8, $12, $13, $14, $9, $10, $15::jsonb, $16)
       ON CONFLICT (user_phone, created_by_operation) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        phone,
        fact.type,
        content,
        noteSearchText(content),
        importance,
        fact.sourceMessageId ?? null,
        fact.operationKey ?? null,
        at,
        subject,
        attribute,
        relationships.map((r) => r.targetId),
        validFrom,
        precision,
        laterStart === null ? null : new Date(laterStart),
        JSON.stringify(relationships),
        [...new Set(fact.people ?? [])],
      ],
    );
    if (inserted.rows[0]) return { fact: toFact(inserted.rows[0]), created: true };
    const existing = await this.db.query<FactRow>(
      `SELECT ${COLUMNS} FROM memories WHERE user_phone = $1 AND created_by_operation = $2`,
      [phone, fact.operationKey],
    );
    if (!existing.rows[0])
      throw new Error(`memory of operation ${fact.operationKey} vanished during its insert`);
    return { fact: toFact(existing.rows[0]), created: false };
  }

  /**
   * The stored facts a new one relates to, among those that still hold: the one most like it when
   * near-identical and saying "not" as it does (refreshed, not stored twice); those it contradicts
   * (see `contradicts`); and those about the same subject and attribute that say something else.
   * Those were said before it, so it supersedes them ("I moved to Haifa last week" ends "I live in
   * Tel Aviv" said this morning: that was true until last week), unless both say when they began
   * and theirs is later: then the new one is an older state said late ("I lived in Paris in 2019"
   * after "I moved to Haifa in 2021"), which held until the earliest of them began (`laterStart`).
   */
  private async related(
    phone: string,
    content: string,
    about: { subject: string | null; attribute: string | null; validFrom: Date; dated: boolean },
  ): Promise<{
    same: FactRow | null;
    contradicted: FactRow[];
    superseded: FactRow[];
    laterStart: number | null;
  }> {
    const { subject, attribute } = about;
    const terms = [...new Set(contentWords(content).flatMap(wordForms))];
    const { rows } = await this.db.query<FactRow>(
      `SELECT ${COLUMNS} FROM memories
        WHERE user_phone = $1 AND valid_until IS NULL
          AND (search_text = $2 OR ($3::text IS NOT NULL AND search @@ to_tsquery('simple', $3))
               OR ($4::text IS NOT NULL AND subject = $4 AND attribute = $5))
        ORDER BY ($4::text IS NOT NULL AND subject = $4 AND attribute = $5) DESC, created_at DESC
        LIMIT 50`,
      [phone, noteSearchText(content), toTsQuery(terms), attribute === null ? null : subject, attribute],
    );
    let best: { row: FactRow; score: number } | null = null;
    const contradicted: FactRow[] = [];
    const superseded: FactRow[] = [];
    let laterStart: number | null = null;
    const negated = isNegated(content);
    const start = about.validFrom.getTime();
    const sameThing = (row: FactRow) =>
      subject !== null && attribute !== null && row.subject === subject && row.attribute === attribute;
    const supersede = (row: FactRow) => {
      const began = millis(row.valid_from);
      // An older state said late: it began before the stored one did (said with its start), or
      // more than a year before the stored one was told (said without: it was true that long
      // before, as `validDuring` assumes). It ends where the stored one begins.
      const older =
        about.dated && (row.valid_from_precision !== "instant" ? began > start : began - YEAR_MS > start);
      if (older) laterStart = laterStart === null ? began : Math.min(laterStart, began);
      else superseded.push(row);
    };
    for (const row of rows) {
      if (isNegated(row.content) !== negated) {
        if (contradicts(content, row.content)) contradicted.push(row);
        else if (sameThing(row)) supersede(row);
        continue;
      }
      const score = similarity(content, row.content);
      if (score >= DEDUPE_THRESHOLD && (best === null || score > best.score)) best = { row, score };
      else if (sameThing(row)) supersede(row);
    }
    return { same: best?.row ?? null, contradicted, superseded, laterStart };
  }

  async validDuring(phone: string, from: number, to: number, limit = 200): Promise<Fact[]> {
    const { rows } = await this.db.query<FactRow>(
      `SELECT ${COLUMNS} FROM memories
        WHERE user_phone = $1
          AND (((valid_until IS NULL OR valid_until > $2)
                AND (valid_from < $3
                     OR (valid_from_precision = 'instant' AND valid_until IS NOT NULL
                         AND valid_until - interval '1 year' < $3)))
               OR (created_at >= $2 AND created_at < $3))
        ORDER BY valid_from DESC, id LIMIT $4`,
      [phone, new Date(from), new Date(to), limit],
    );
    return rows.map(toFact);
  }

  async list(
    phone: string,
    status: Fact["status"] | "all" = "active",
    options: { closed?: boolean } = {},
  ): Promise<Fact[]> {
    const { rows } = await this.db.query<FactRow>(
      `SELECT ${COLUMNS} FROM memories
        WHERE user_phone = $1 AND ($2::text = 'all' OR status = $2) AND ($3 OR valid_until IS NULL)
        ORDER BY valid_until IS NULL DESC, status = 'active' DESC, importance * decay_factor DESC,
                 valid_from, created_at, id`,
      [phone, status, options.closed ?? false],
    );
    return rows.map(toFact);
  }

  async getMany(phone: string, ids: readonly string[]): Promise<Fact[]> {
    const valid = ids.filter((id) => UUID.test(id));
    if (valid.length === 0) return [];
    const { rows } = await this.db.query<FactRow>(
      `SELECT ${COLUMNS} FROM memories WHERE user_phone = $1 AND id = ANY($2::uuid[]) ORDER BY created_at, id`,
      [phone, valid],
    );
    return rows.map(toFact);
  }

  async find(phone: string, words: string, limit = 10): Promise<FoundFact[]> {
    // "forget that I prefer…" → "prefer…": the request and the filler name no fact.
    const query = contentWords(words)
      .filter((w) => !REQUEST_WORDS.has(w))
      .join(" ");
    if (query === "") return [];
    // Forgetting is rare and a user's facts are few hundred at most: score them all in code.
    const { rows } = await this.db.query<FactRow & { source_text: string | null }>(
      `SELECT ${M_COLUMNS}, c.content AS source_text
         FROM memories m
         LEFT JOIN conversation_messages c ON c.user_phone = m.user_phone AND c.id = m.source_message_id
        WHERE m.user_phone = $1
        ORDER BY m.created_at DESC
        LIMIT 2000`,
      [phone],
    );
    // Each fact is scored on its text and on the user's own words it came from; the better counts.
    const texts = rows.flatMap((row, i) => [
      { i, text: row.content },
      ...(row.source_text === null ? [] : [{ i, text: row.source_text }]),
    ]);
    const best = new Map<number, number>();
    for (const { item, score } of rankMatches(query, texts, (t) => t.text)) {
      if (!best.has(item.i)) best.set(item.i, score);
    }
    return [...best]
      .filter(([, score]) => score >= FIND_MIN_SCORE)
      .map(([i, score]) => {
        const row = rows[i]!;
        return { ...toFact(row), score, sourceText: row.source_text };
      })
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }

  async relevant(phone: string, query: string, options: RelevantOptions): Promise<Fact[]> {
    const relevant = relevantFacts(query, options, 2);
    const { rows } = await this.db.query<FactRow>(relevant.sql, [phone, ...relevant.params]);
    return relevant.parse(rows);
  }

  async recordAccess(phone: string, ids: readonly string[], now: number): Promise<void> {
    const valid = ids.filter((id) => UUID.test(id));
    if (valid.length === 0) return;
    // Just used: no time since access, so 0.5^0 = 1 and the decay is 1 whatever the boost.
    await this.db.query(
      `UPDATE memories SET access_count = access_count + 1, last_accessed_at = $3, decay_factor = 1
        WHERE user_phone = $1 AND id = ANY($2::uuid[])`,
      [phone, valid, new Date(now)],
    );
  }

  async count(phone: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM memories WHERE user_phone = $1",
      [phone],
    );
    return rows[0]!.n;
  }

  async delete(phone: string, ids: readonly string[]): Promise<Fact[]> {
    const valid = ids.filter((id) => UUID.test(id));
    if (valid.length === 0) return [];
    const { rows } = await this.db.query<FactRow>(
      `DELETE FROM memories WHERE user_phone = $1 AND id = ANY($2::uuid[]) RETURNING ${COLUMNS}`,
      [phone, valid],
    );
    return rows.map(toFact);
  }

  async reopen(phone: string, ended: readonly { id: string; until: number | null }[]): Promise<number> {
    const valid = ended.map((e) => ({ ...e, id: e.id.toLowerCase() })).filter((e) => UUID.test(e.id));
    if (valid.length === 0) return 0;
    const result = await this.db.query(
      `UPDATE memories m SET valid_until = r.until, updated_at = now()
         FROM unnest($2::uuid[], $3::timestamptz[]) AS r(id, until)
        WHERE m.user_phone = $1 AND m.id = r.id AND m.valid_until IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM memories n
                           WHERE n.user_phone = $1 AND n.id <> m.id
                             AND n.relationships @> jsonb_build_array(jsonb_build_object('targetId', m.id::text)))`,
      [phone, valid.map((e) => e.id), valid.map((e) => (e.until === null ? null : new Date(e.until)))],
    );
    return result.rowCount ?? 0;
  }

  async deleteAll(phone: string): Promise<number> {
    const result = await this.db.query("DELETE FROM memories WHERE user_phone = $1", [phone]);
    return result.rowCount ?? 0;
  }

  async updateDecayBatch(
    now: number,
    afterId: string | null,
    batchSize: number,
  ): Promise<{ updated: number; lastId: string | null }> {
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE memories m SET decay_factor = ${decaySql("$1::timestamptz")}
         FROM (SELECT id FROM memories
                WHERE status = 'active' AND ($2::uuid IS NULL OR id > $2)
                ORDER BY id LIMIT $3) AS batch
        WHERE m.id = batch.id
        RETURNING m.id`,
      [new Date(now), afterId, batchSize],
    );
    if (rows.length === 0) return { updated: 0, lastId: null };
    // uuid order is byte order, which is the order of their lower-case hex text.
    const lastId = rows.reduce((max, r) => (r.id > max ? r.id : max), rows[0]!.id);
    return { updated: rows.length, lastId };
  }

  async archiveStaleBatch(now: number, batchSize: number): Promise<number> {
    const result = await this.db.query(
      `UPDATE memories SET status = 'archived', updated_at = $1
        WHERE id IN (SELECT id FROM memories
                      WHERE status = 'active' AND created_at < $1::timestamptz - make_interval(days => $2)
                        AND importance * decay_factor < $3
                      LIMIT $4)`,
      [new Date(now), ARCHIVE_MIN_AGE_DAYS, ARCHIVE_BELOW, batchSize],
    );
    return result.rowCount ?? 0;
  }
}
