import { similarity } from "../../utils/fuzzy.js";
import { lexemesOf, queryWordsOf } from "../../utils/memoryText.js";
import { noteSearchText, toTsQuery } from "../../utils/searchText.js";
import type { Queryable } from "../transaction.js";

/** What an episode is (spec 004 Layer 4 "Episode Types"). */
export const EPISODE_KINDS = [
  "decision",
  "problem_solved",
  "breakthrough",
  "issue_identified",
  "task_completed",
  "pivot",
] as const;
export type EpisodeKind = (typeof EPISODE_KINDS)[number];

/** Episodes kept per user at most: past it the least significant, then oldest, go (spec 004 maxEpisodicMemories, default: 100). */
const MAX_EPISODES = 100;
/** From this significance an episode is a key moment of the narrative arc (spec 004). */
const KEY_MOMENT = 0.7;
/** Titles at least this similar (utils/fuzzy) are near-identical: consolidation may merge them (default: 0.8). */
const MERGE_SIMILARITY = 0.8;
/** Episodes of the same kind and title this close in time are adjacent even without overlapping turns (default: 30 minutes). */
const ADJACENT_MS = 30 * 60 * 1000;

/** A moment of one user's conversation worth telling again (spec 004 `EpisodicMemory`). */
export interface Episode {
  id: string;
  kind: EpisodeKind;
  /** What happened, short: "Go to Eilat for the trip". */
  title: string;
  /** The user's own sentence it came from, or the model's one-line account. */
  summary: string;
  /** What led to it ("instead of Haifa"), "" when nothing. */
  context: string;
  outcome: string | null;
  /** Who took part: "user", and the people named with them. */
  participants: string[];
  /** -1..1. */
  emotionalValence: number;
  /** 0..1. */
  significance: number;
  /** Ids of facts or other episodes it relates to. */
  linkedMemories: string[];
  /** The conversation messages it came from (ids), null when it came from none. */
  turnStart: number | null;
  turnEnd: number | null;
  /** When it happened (epoch ms): the message's time. */
  occurredAt: number;
  accessCount: number;
  /** Epoch ms. */
  lastAccessedAt: number;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms. */
  updatedAt: number;
}

export interface NewEpisode {
  kind: EpisodeKind;
  title: string;
  summary?: string;
  context?: string;
  outcome?: string | null;
  participants?: readonly string[];
  /** -1..1 (default: 0). */
  emotionalValence?: number;
  /** 0..1 (default: 0.5). */
  significance?: number;
  linkedMemories?: readonly string[];
  turnStart?: number | null;
  turnEnd?: number | null;
  /** Epoch ms. */
  occurredAt: number;
  /** Names the operation that makes it: a second create with the same key stores nothing. */
  operationKey?: string;
}

/** Which episodes a search or listing considers. */
export interface EpisodeRange {
  /** Only those that happened at or after this instant (epoch ms). */
  from?: number;
  /** Only those that happened before this instant (epoch ms). */
  to?: number;
  /** Only these kinds (default: all). */
  kinds?: readonly EpisodeKind[];
  /** At most this many (default: 10 for a search, 100 for a listing). */
  limit?: number;
}

/** spec 004 `getNarrativeArc`: the user's episodes in thirds, oldest first, and the key moments. */
export interface NarrativeArc {
  beginning: Episode[];
  middle: Episode[];
  end: Episode[];
  /** Significance ≥ 0.7, oldest first. */
  keyMoments: Episode[];
}

/** What consolidation did for one user. */
export interface EpisodeConsolidation {
  /** Episodes merged into another (deleted). */
  merged: number;
  /** Episodes deleted past the cap. */
  capped: number;
}

/** Storage of episodes (`memory_episodes`). Every per-user method takes the phone that scopes it. */
interface EpisodeRepository {
  /** Stores an episode at `now` (epoch ms); one with the same `operationKey` is returned instead. */
  create(phone: string, episode: NewEpisode, now: number): Promise<{ episode: Episode; created: boolean }>;
  /**
   * The candidate episodes for the words (Hebrew prefixes understood), most significant and newest
   * first, at most `range.limit` (default: 10); every one in the range when the words name nothing.
   * Ranking is the caller's (spec 004 retrieval).
   */
  search(phone: string, words: string, range?: EpisodeRange): Promise<Episode[]>;
  /** The episodes in the range, oldest first. */
  list(phone: string, range?: EpisodeRange): Promise<Episode[]>;
  getNarrativeArc(phone: string): Promise<NarrativeArc>;
  /** Merges the user's overlapping episodes (see `mergeEpisodes`), then keeps at most `max`. */
  consolidate(phone: string, max?: number): Promise<EpisodeConsolidation>;
  /** Deletes past `max` episodes: the least significant, then the oldest. Returns how many. */
  cap(phone: string, max?: number): Promise<number>;
  /** Users with episodes after `afterPhone` in phone order, at most `limit` (consolidation's batches). */
  usersAfter(afterPhone: string | null, limit: number): Promise<string[]>;
  /** Records that these episodes were recalled at `now`. */
  recordAccess(phone: string, ids: readonly string[], now: number): Promise<void>;
  count(phone: string): Promise<number>;
  /** Deletes the user's episodes among `ids`; returns those deleted. */
  delete(phone: string, ids: readonly string[]): Promise<Episode[]>;
  /** Deletes the user's episodes that came from any of these conversation messages; returns those deleted. */
  deleteFromMessages(phone: string, messageIds: readonly number[]): Promise<Episode[]>;
  /** Deletes all the user's episodes; returns how many. */
  deleteAll(phone: string): Promise<number>;
}

/** A `memory_episodes` row as a query returns it, or as JSON (`to_jsonb`: instants as text, ids as numbers). */
interface EpisodeRow {
  id: string;
  kind: EpisodeKind;
  title: string;
  summary: string;
  context: string;
  outcome: string | null;
  participants: string[];
  emotional_valence: number;
  significance: number;
  linked_memories: string[];
  turn_start: string | number | null;
  turn_end: string | number | null;
  occurred_at: Date | string;
  access_count: number;
  last_accessed_at: Date | string;
  search_text: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = [
  ...["id", "kind", "title", "summary", "context", "outcome", "participants", "emotional_valence"],
  ...["significance", "linked_memories", "turn_start", "turn_end", "occurred_at", "access_count"],
  ...["last_accessed_at", "search_text", "created_at", "updated_at"],
].join(", ");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const millis = (at: Date | string): number => (at instanceof Date ? at.getTime() : Date.parse(at));
const orNull = (n: string | number | null): number | null => (n === null ? null : Number(n));
const clamp = (n: number, min: number, max: number) =>
  Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : 0;
const cut = (text: string, max: number) => text.replaceAll("\u0000", "").trim().slice(0, max);

function toEpisode(row: EpisodeRow): Episode {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    summary: row.summary,
    context: row.context,
    outcome: row.outcome,
    participants: row.participants,
    emotionalValence: row.emotional_valence,
    significance: row.significance,
    linkedMemories: row.linked_memories,
    turnStart: orNull(row.turn_start),
    turnEnd: orNull(row.turn_end),
    occurredAt: millis(row.occurred_at),
    accessCount: row.access_count,
    lastAccessedAt: millis(row.last_accessed_at),
    createdAt: millis(row.created_at),
    updatedAt: millis(row.updated_at),
  };
}

/** The words an episode is found by: its title, summary, context, outcome and participants, normalized. */
function searchTextOf(
  e: Pick<Episode, "title" | "summary" | "context" | "outcome" | "participants">,
): string {
  return noteSearchText([e.title, e.summary, e.context, e.outcome ?? ""].join(" "), null, e.participants);
}

/** The statement that reads the candidate episodes for a query (as `RelevantFactsQuery`). */
export interface RelevantEpisodesQuery {
  /** One statement; the phone is `$1`, `params` follow from the first number it was asked for. */
  sql: string;
  params: unknown[];
  /** The rows read (as returned, or as `to_jsonb` of them), as episodes (ranked by the caller). */
  parse(rows: readonly unknown[]): Episode[];
}

/**
 * The episodes speaking of the query's words (through the text-search index), most significant and
 * newest first, at most `candidates`, in one statement that other reads can embed
 * (`PgConversationStore.loadTurn`); ranking is the caller's (spec 004 retrieval). A query naming
 * nothing reads none.
 */
export function relevantEpisodes(query: string, candidates: number, first: number): RelevantEpisodesQuery {
  const [terms, limit] = [first, first + 1].map((n) => `$${n}`);
  return {
    sql: `SELECT ${COLUMNS} FROM memory_episodes
           WHERE user_phone = $1 AND ${terms}::text IS NOT NULL AND search @@ to_tsquery('simple', ${terms})
           ORDER BY significance DESC, occurred_at DESC LIMIT ${limit}`,
    params: [toTsQuery(lexemesOf(queryWordsOf(query))), candidates],
    parse: (rows) => (rows as EpisodeRow[]).map(toEpisode),
  };
}

/** A group of episodes consolidation turns into one: the kept row and the rows merged into it. */
interface Merge {
  kept: Episode;
  dropped: string[];
}

function rangesMeet(a: Episode, b: Episode): boolean {
  if (a.turnStart === null || a.turnEnd === null || b.turnStart === null || b.turnEnd === null) return false;
  return a.turnStart <= b.turnEnd && b.turnStart <= a.turnEnd;
}

/**
 * spec 004 "Consolidate episodic memories (merge overlapping)", planned in code (no I/O): episodes
 * of the same kind whose titles are near-identical (utils/fuzzy similarity ≥ 0.8) and whose turn
 * ranges overlap, or which happened within 30 minutes of each other, become one: the earliest
 * row's id and time, turn range widened to cover all, participants and links unioned, the text and
 * valence of the most significant (the later on a tie), the highest significance, accesses summed.
 * Returns only the groups of two or more.
 * @internal
 */
export function mergeEpisodes(episodes: readonly Episode[]): Merge[] {
  const groups: { members: Episode[]; last: number }[] = [];
  for (const episode of [...episodes].sort((a, b) => a.occurredAt - b.occurredAt)) {
    const group = groups.find(
      (g) =>
        g.members[0]!.kind === episode.kind &&
        g.members.some(
          (m) =>
            similarity(m.title, episode.title) >= MERGE_SIMILARITY &&
            (rangesMeet(m, episode) || Math.abs(episode.occurredAt - m.occurredAt) <= ADJACENT_MS),
        ),
    );
    if (group) {
      group.members.push(episode);
      group.last = episode.occurredAt;
    } else groups.push({ members: [episode], last: episode.occurredAt });
  }
  return groups
    .filter((g) => g.members.length > 1)
    .map(({ members }) => {
      const first = members[0]!;
      const best = members.reduce((a, b) => (b.significance >= a.significance ? b : a));
      const starts = members.flatMap((m) => (m.turnStart === null ? [] : [m.turnStart]));
      const ends = members.flatMap((m) => (m.turnEnd === null ? [] : [m.turnEnd]));
      const kept: Episode = {
        ...best,
        id: first.id,
        occurredAt: first.occurredAt,
        createdAt: first.createdAt,
        turnStart: starts.length > 0 ? Math.min(...starts) : null,
        turnEnd: ends.length > 0 ? Math.max(...ends) : null,
        participants: [...new Set(members.flatMap((m) => m.participants))],
        linkedMemories: [...new Set(members.flatMap((m) => m.linkedMemories))],
        significance: Math.max(...members.map((m) => m.significance)),
        accessCount: members.reduce((n, m) => n + m.accessCount, 0),
        lastAccessedAt: Math.max(...members.map((m) => m.lastAccessedAt)),
      };
      return { kept, dropped: members.filter((m) => m.id !== first.id).map((m) => m.id) };
    });
}

/** EpisodeRepository in plain SQL, on the pool or on a transaction's client. */
export class PgEpisodeRepository implements EpisodeRepository {
  constructor(private readonly db: Queryable) {}

  async create(
    phone: string,
    episode: NewEpisode,
    now: number,
  ): Promise<{ episode: Episode; created: boolean }> {
    const shaped = {
      title: cut(episode.title, 300),
      summary: cut(episode.summary ?? "", 1000),
      context: cut(episode.context ?? "", 1000),
      outcome: episode.outcome == null ? null : cut(episode.outcome, 1000),
      participants: [...new Set((episode.participants ?? []).map((p) => cut(p, 100)).filter(Boolean))],
    };
    const at = new Date(now);
    const inserted = await this.db.query<EpisodeRow>(
      `INSERT INTO memory_episodes (user_phone, kind, title, summary, context, outcome, participants,
                                    emotional_valence, significance, linked_memories, turn_start, turn_end,
                                    occurred_at, last_accessed_at, search_text, created_by_operation,
                                    created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $14, $14)
       ON CONFLICT (user_phone, created_by_operation) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        phone,
        episode.kind,
        shaped.title,
        shaped.summary,
        shaped.context,
        shaped.outcome,
        shaped.participants,
        clamp(episode.emotionalValence ?? 0, -1, 1),
        clamp(episode.significance ?? 0.5, 0, 1),
        [...(episode.linkedMemories ?? [])],
        episode.turnStart ?? null,
        episode.turnEnd ?? episode.turnStart ?? null,
        new Date(episode.occurredAt),
        at,
        searchTextOf(shaped),
        episode.operationKey ?? null,
      ],
    );
    if (inserted.rows[0]) return { episode: toEpisode(inserted.rows[0]), created: true };
    const existing = await this.db.query<EpisodeRow>(
      `SELECT ${COLUMNS} FROM memory_episodes WHERE user_phone = $1 AND created_by_operation = $2`,
      [phone, episode.operationKey],
    );
    if (!existing.rows[0])
      throw new Error(`episode of operation ${episode.operationKey} vanished during its insert`);
    return { episode: toEpisode(existing.rows[0]), created: false };
  }

  async search(phone: string, words: string, range: EpisodeRange = {}): Promise<Episode[]> {
    const terms = toTsQuery(lexemesOf(queryWordsOf(words)));
    const { rows } = await this.db.query<EpisodeRow>(
      `SELECT ${COLUMNS} FROM memory_episodes
        WHERE user_phone = $1 AND ($2::text IS NULL OR search @@ to_tsquery('simple', $2))
          AND ($3::timestamptz IS NULL OR occurred_at >= $3) AND ($4::timestamptz IS NULL OR occurred_at < $4)
          AND ($5::text[] IS NULL OR kind = ANY($5))
        ORDER BY significance DESC, occurred_at DESC, id LIMIT $6`,
      [phone, terms, ...this.rangeParams(range), range.limit ?? 10],
    );
    return rows.map(toEpisode);
  }

  async list(phone: string, range: EpisodeRange = {}): Promise<Episode[]> {
    const { rows } = await this.db.query<EpisodeRow>(
      `SELECT ${COLUMNS} FROM (
         SELECT ${COLUMNS} FROM memory_episodes
          WHERE user_phone = $1
            AND ($2::timestamptz IS NULL OR occurred_at >= $2) AND ($3::timestamptz IS NULL OR occurred_at < $3)
            AND ($4::text[] IS NULL OR kind = ANY($4))
          ORDER BY occurred_at DESC, id LIMIT $5) AS newest
        ORDER BY occurred_at, id`,
      [phone, ...this.rangeParams(range), range.limit ?? MAX_EPISODES],
    );
    return rows.map(toEpisode);
  }

  private rangeParams(range: EpisodeRange): unknown[] {
    return [
      range.from === undefined ? null : new Date(range.from),
      range.to === undefined ? null : new Date(range.to),
      range.kinds === undefined ? null : [...range.kinds],
    ];
  }

  async getNarrativeArc(phone: string): Promise<NarrativeArc> {
    const all = await this.list(phone, { limit: 10 * MAX_EPISODES });
    const third = Math.ceil(all.length / 3);
    return {
      beginning: all.slice(0, third),
      middle: all.slice(third, 2 * third),
      end: all.slice(2 * third),
      keyMoments: all.filter((e) => e.significance >= KEY_MOMENT),
    };
  }

  async consolidate(phone: string, max: number = MAX_EPISODES): Promise<EpisodeConsolidation> {
    const { rows } = await this.db.query<EpisodeRow>(
      `SELECT ${COLUMNS} FROM memory_episodes WHERE user_phone = $1 ORDER BY occurred_at, id`,
      [phone],
    );
    let merged = 0;
    for (const { kept, dropped } of mergeEpisodes(rows.map(toEpisode))) {
      const deleted = await this.delete(phone, dropped);
      merged += deleted.length;
      await this.db.query(
        `UPDATE memory_episodes
            SET title = $3, summary = $4, context = $5, outcome = $6, participants = $7, emotional_valence = $8,
                significance = $9, linked_memories = $10, turn_start = $11, turn_end = $12, access_count = $13,
                last_accessed_at = $14, search_text = $15, updated_at = now()
          WHERE user_phone = $1 AND id = $2`,
        [
          phone,
          kept.id,
          kept.title,
          kept.summary,
          kept.context,
          kept.outcome,
          kept.participants,
          kept.emotionalValence,
          kept.significance,
          kept.linkedMemories,
          kept.turnStart,
          kept.turnEnd,
          kept.accessCount,
          new Date(kept.lastAccessedAt),
          searchTextOf(kept),
        ],
      );
    }
    return { merged, capped: await this.cap(phone, max) };
  }

  async cap(phone: string, max: number = MAX_EPISODES): Promise<number> {
    const result = await this.db.query(
      `DELETE FROM memory_episodes WHERE user_phone = $1 AND id IN (
         SELECT id FROM memory_episodes WHERE user_phone = $1
          ORDER BY significance DESC, occurred_at DESC, id OFFSET $2)`,
      [phone, Math.max(0, max)],
    );
    return result.rowCount ?? 0;
  }

  async usersAfter(afterPhone: string | null, limit: number): Promise<string[]> {
    const { rows } = await this.db.query<{ user_phone: string }>(
      `SELECT DISTINCT user_phone FROM memory_episodes WHERE $1::text IS NULL OR user_phone > $1
        ORDER BY user_phone LIMIT $2`,
      [afterPhone, limit],
    );
    return rows.map((r) => r.user_phone);
  }

  async recordAccess(phone: string, ids: readonly string[], now: number): Promise<void> {
    const valid = ids.filter((id) => UUID.test(id));
    if (valid.length === 0) return;
    await this.db.query(
      `UPDATE memory_episodes SET access_count = access_count + 1, last_accessed_at = $3
        WHERE user_phone = $1 AND id = ANY($2::uuid[])`,
      [phone, valid, new Date(now)],
    );
  }

  async count(phone: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM memory_episodes WHERE user_phone = $1",
      [phone],
    );
    return rows[0]!.n;
  }

  async delete(phone: string, ids: readonly string[]): Promise<Episode[]> {
    const valid = ids.filter((id) => UUID.test(id));
    if (valid.length === 0) return [];
    const { rows } = await this.db.query<EpisodeRow>(
      `DELETE FROM memory_episodes WHERE user_phone = $1 AND id = ANY($2::uuid[]) RETURNING ${COLUMNS}`,
      [phone, valid],
    );
    return rows.map(toEpisode);
  }

  async deleteFromMessages(phone: string, messageIds: readonly number[]): Promise<Episode[]> {
    if (messageIds.length === 0) return [];
    const { rows } = await this.db.query<EpisodeRow>(
      `DELETE FROM memory_episodes
        WHERE user_phone = $1 AND turn_start IS NOT NULL
          AND EXISTS (SELECT 1 FROM unnest($2::bigint[]) AS m(id)
                       WHERE m.id BETWEEN turn_start AND COALESCE(turn_end, turn_start))
        RETURNING ${COLUMNS}`,
      [phone, [...messageIds]],
    );
    return rows.map(toEpisode);
  }

  async deleteAll(phone: string): Promise<number> {
    const result = await this.db.query("DELETE FROM memory_episodes WHERE user_phone = $1", [phone]);
    return result.rowCount ?? 0;
  }
}
