import { normalizeForMatch } from "../../utils/fuzzy.js";
import type { ConversationChunk, NewChunk } from "../../db/repositories/chunkRepository.js";
import type { HistoryMessage } from "../../db/repositories/conversationHistory.js";
import type { MemoryWorkload } from "../../db/repositories/memoryProfileRepository.js";
import { sameStatement, type Fact, type FoundFact } from "../../db/repositories/memoryRepository.js";
import type { MemoryRepositories } from "../../db/storage.js";
import type { Storage } from "../../db/transaction.js";
import { describeError } from "../../utils/errors.js";
import type { Logger } from "../../utils/logger.js";
import { LLMError } from "../llm/llmError.js";
import type { LLMService } from "../../types/llm.js";
import { MAX_TOTAL_MESSAGES } from "./conversationWindow.js";
import {
  mayHoldFacts,
  extractFactsByRules,
  extractable,
  factExtractionSchema,
  factMessages,
  KNOWN_FACTS_SHOWN,
  type KnownFact,
  factsFromAnswer,
  type ExtractedFact,
} from "./factExtraction.js";
import {
  ATTRIBUTE_ASKING_WORDS,
  CONTEXT_CHUNK_CANDIDATES,
  chunkItem,
  episodeItem,
  factItem,
  formatMemoryContext,
  rankFacts,
  type MemoryContext,
} from "./memoryContext.js";
import { readPastPeriod, withoutPeriod } from "../../nlu/pastTime.js";
import type { Recollection } from "../secondBrain/ports.js";
import {
  completedTaskEpisode,
  episodesFromAnswer,
  extractEpisodesByRules,
  type CompletedTask,
  type ExtractedEpisode,
} from "./episodes.js";
import type { Episode } from "../../db/repositories/episodeRepository.js";
import {
  distinctiveWords,
  echoesFact,
  isMemoryCommand,
  mentionsFact,
  lexemesOf,
  queryWordsOf,
  type QueryWord,
  withoutNoteCommand,
} from "../../utils/memoryText.js";
import { phoneTag } from "../../utils/phone.js";
import { currentTurn, inBackgroundOfTurn, type TurnContext } from "../../utils/turnContext.js";
import type { LongTermRead, MemoryService } from "./memoryService.js";
import {
  CHUNK_SUMMARY_MAX_TOKENS,
  chunkAnswerSchema,
  chunkMessages,
  dedupeTopics,
  extractiveLines,
  extractiveSummary,
  fitSummary,
  forgetMessages,
  keyTopicsOf,
  mergedSummary,
  mergedTopics,
  summarizable,
} from "./summary.js";
import { CHUNK_SIZE, MAX_CHUNKS, estimateTokens } from "./limits.js";
import {
  DEFAULT_RETRIEVAL_WEIGHTS,
  rankMemories,
  type MemoryItem,
  type RetrievalWeights,
} from "./retrieval.js";
import { DEFAULT_MIN_SIMILARITY, type Embedder } from "../secondBrain/embeddings.js";

/** Memories a question about the past is answered with at most (spec 004 retrievalTopK is 10; a chat reply is shorter). */
const RECALL_LIMIT = 5;
/** Candidates of each kind read for a question about the past. */
const RECALL_CANDIDATES = 30;
/**
 * The facts a question may be answered with: when it names nobody ("where do I live?"), a fact
 * about someone else ("User's sister lives in Eilat") does not answer what the user's own fact
 * about the same attribute does.
 */
function aboutTheAsker(facts: readonly Fact[], words: readonly QueryWord[]): Fact[] {
  // A word of the question, not one that only asks for an attribute, held by a fact about
  // someone else names them ("אחותי", "Dana", "sister").
  const naming = words.flatMap((w) => w.forms).filter((f) => !ATTRIBUTE_ASKING_WORDS.has(f));
  const others = facts.filter((f) => f.subject !== null && f.subject !== "user");
  if (others.some((f) => naming.some((w) => f.people.includes(w) || ` ${f.searchText} `.includes(` ${w} `))))
    return [...facts];
  const own = new Set(facts.filter((f) => f.subject === "user" && f.attribute).map((f) => f.attribute));
  return facts.filter((f) => f.subject === null || f.subject === "user" || !own.has(f.attribute));
}

/**
 * Verbs of asking about what was said ("what did I tell you…", "על מה דיברנו…"): they name no
 * memory, so a question made only of them and a period asks for everything of that period.
 */
const RECALL_VERBS: ReadonlySet<string> = new Set(
  [
    ...["say", "said", "tell", "told", "talk", "talked", "discuss", "discussed", "mention", "mentioned"],
    ...["happen", "happened", "update", "updated", "speak", "spoke", "know", "remember", "recall"],
    ...["אמרתי", "אמרנו", "סיפרתי", "סיפרנו", "דיברנו", "דברנו", "קרה", "עדכנתי", "הזכרתי", "יודע", "זוכר"],
  ].map(normalizeForMatch),
);
/** Milliseconds the embedding of a question and its candidates may take before words alone decide. */
const RECALL_EMBED_MS = 3000;
/** The same for a turn's context: the planner waits for it (default: 1,000). */
const CONTEXT_EMBED_MS = 1000;
/** How much a memory must speak of the question to answer it: one of two words, or a linked person. */
const RECALL_MIN_RELEVANCE = 0.25;

/** Messages read for chunks at most per round: four chunks (default: 40). */
const FOLD_BATCH = CHUNK_SIZE * 4;
/** User messages read for facts at most per extraction (default: 20). */
const FACT_BATCH = 20;
/** Fold and extraction rounds per `process` call, so a long backlog cannot hold one user (default: 5). */
const MAX_ROUNDS = 5;
/** Facts updated or archived per statement by consolidation (default: 1000). */
const CONSOLIDATION_BATCH = 1000;
/** Statements per consolidation step at most: 1,000,000 facts (default: 1000). */
const CONSOLIDATION_MAX_BATCHES = 1000;
/** Users whose episodes one consolidation batch reads (default: 100). */
const CONSOLIDATION_USERS = 100;
/** The user's newest messages searched for repeats of a forgotten fact (default: 2000). */
const REPEAT_SCAN = 2000;
/** The newest messages of a chunk an extractive summary is rebuilt from (default: 400). */
const REBUILD_SCAN = 400;
/** Tries of a chunk rewrite that loses a race with a concurrent merge (default: 3). */
const REWRITE_TRIES = 3;
/** Merges per `process` call at most, so a user far past MAX_CHUNKS catches up over a few calls (default: 10). */
const MAX_MERGES = 10;

export interface LongTermMemoryOptions {
  /** The conversation history, summaries, facts and what "forget" erases (db/storage memoryStorage). */
  storage: Storage<MemoryRepositories>;
  /** The LLM (node "memory"), or null: then summaries are extractive and facts come from patterns. */
  llm: LLMService | null;
  /** "rules" forces the extractive summary and pattern facts even with an LLM (default: "llm" when there is one). */
  mode?: "llm" | "rules";
  /** The short-term window, for "forget" (default: none, only the database is changed). */
  memory?: MemoryService;
  /** Where background failures are reported (default: none). */
  logger?: Logger;
  /** Epoch milliseconds now (default: `Date.now`). */
  clock?: () => number;
  /** Spec 004's retrieval weights (default: 0.4 / 0.3 / 0.2 / 0.1 / 0, MEMORY_RETRIEVAL_WEIGHTS). */
  weights?: Readonly<RetrievalWeights>;
  /**
   * The embedding model (EMBEDDINGS_MODEL), or none: a turn's message and a question about the
   * past are then compared with what Memo remembers by meaning, one request each; without one,
   * or when it fails or is late, by TF-IDF (spec 004).
   */
  embedder?: Embedder | null;
}

/**
 * Whether a user message says again what a forgotten fact holds: the rules find a near-identical
 * fact in it (in a note command, in what the note keeps), or it is nearly the sentence a forgotten
 * fact came from. Merely naming the same thing ("the jazz festival" after "Likes jazz") is not a
 * repeat, nor is saying the opposite ("I don't like coffee" after "I like coffee").
 */
function repeatsAny(
  message: HistoryMessage,
  facts: readonly Fact[],
  sources: readonly HistoryMessage[],
): boolean {
  if (sources.some((source) => sameStatement(message.content, source.content))) return true;
  const found = extractFactsByRules({ ...message, content: withoutNoteCommand(message.content) });
  return found.some((f) => facts.some((fact) => sameStatement(f.content, fact.content)));
}

/** The chunks one round made, to store. */
interface Fold {
  chunks: NewChunk[];
  /** The newest message put into a chunk: the new chunking cursor. */
  through: number;
  /** Every message put into a chunk (all must still be stored for the chunks to be saved). */
  ids: number[];
  /** The round read a full batch: more may wait. */
  full: boolean;
}

/** The facts one round found, to store. */
interface FactsFound {
  found: ExtractedFact[];
  /** The episodes in the same messages (stored under the same cursor). */
  episodes: ExtractedEpisode[];
  /** The newest user message read. */
  through: number;
  /** The round read a full batch: more may wait. */
  full: boolean;
}

/** What one `process` call did. */
export interface ProcessReport {
  /** Messages put into chunks. */
  folded: number;
  /** Chunks made. */
  chunks: number;
  /** Merges of the two oldest chunks. */
  merged: number;
  /** Facts stored. */
  factsCreated: number;
  /** Near-identical facts refreshed instead. */
  factsRefreshed: number;
  /** Episodes stored (from the messages, and tasks completed in the turns). */
  episodesCreated: number;
  /** Steps that failed (logged). */
  failures: number;
}

/** What a question about the past found (a `Recollection` with the whole stored items). */
export interface MemoryRecall extends Recollection {
  facts: Fact[];
  episodes: Episode[];
  chunks: ConversationChunk[];
  /** Everything returned, in one ranking across kinds, best first, with its spec 004 score. */
  ranked: { kind: "fact" | "episode" | "chunk"; id: string; score: number }[];
}

/** What "forget that I…" removed. */
export interface ForgetReport {
  /** The texts of the facts deleted (what the reply names). */
  facts: string[];
  /** The ids of the facts deleted. */
  factIds: string[];
  /** Notes deleted: those made from the facts' source messages and from the user's repeats of them. */
  notes: number;
  /** Episodes deleted: those of the messages deleted, and those speaking of the facts. */
  episodes: number;
  /** Conversation messages deleted: the facts' sources, the user's repeats of them and Memo's replies echoing them. */
  messages: number;
  /** Messages dropped from the short-term window (those, and Memo's echoes kept only there). */
  windowMessages: number;
  /** Latest actions dropped from the window: those whose summary echoes a fact. */
  latestActions: number;
  /** Chunk summaries rewritten without them (0: none spoke of them). */
  chunksRewritten: number;
}

/** How much "forget everything" would erase. */
export interface MemoryCounts {
  /** Facts, active and archived. */
  facts: number;
  notes: number;
  /** Episodes (what was decided, solved, completed… and when). */
  episodes: number;
  /** The user has conversation chunks. */
  hasSummary: boolean;
}

/** What "forget everything" erased. */
export interface EraseReport {
  facts: number;
  notes: number;
  episodes: number;
  messages: number;
  /** 1 when the user had a memory profile (the background work's cursors). */
  profiles: number;
  /** Conversation chunks erased. */
  chunks: number;
  /** Answered inbox messages (their stored text) erased. */
  inbox: number;
  /** Messages Memo sent whose stored text was erased (the rows stay: they track delivery). */
  outbound: number;
}

export interface ConsolidationReport {
  /** Active facts whose decay was recomputed. */
  decayed: number;
  /** Facts archived (old, importance × decay below 0.3). */
  archived: number;
  /** Episodes merged into an overlapping one. */
  episodesMerged: number;
  /** Episodes deleted past the per-user cap (100). */
  episodesCapped: number;
}

/**
 * Long-term memory (spec 000 §2.2, spec 004 layers 2–3): the conversation chunks summarizing what
 * has left the short-term window and the facts remembered about the user, kept in Postgres.
 *
 * Context assembly reads it with `contextFor` (two indexed queries). After each turn `schedule`
 * starts the background work (`process`): making a chunk of every 10 messages that left the window
 * (merging the two oldest past 20) and extracting facts, by the LLM or by rules. That work advances its cursors only from the value
 * it read, so several instances never fold a message twice, and it never holds a transaction open
 * across an LLM call (the embedded database has one connection). Its failures are logged with the
 * user's hash and the step, never with message text, and never thrown.
 */
export class LongTermMemory {
  private readonly storage: Storage<MemoryRepositories>;
  private readonly llm: LLMService | null;
  private readonly memory: MemoryService | undefined;
  private readonly logger: Logger | undefined;
  private readonly clock: () => number;
  private readonly weights: Readonly<RetrievalWeights>;
  private readonly embedder: Embedder | null;
  private readonly history: MemoryRepositories["history"];
  private readonly profiles: MemoryRepositories["profiles"];
  private readonly chunks: MemoryRepositories["chunks"];
  private readonly facts: MemoryRepositories["facts"];
  /** Per phone, the background run in progress. */
  private readonly running = new Map<string, Promise<void>>();
  /** Per phone, the window size and turn of a run asked for while one was in progress. */
  private readonly again = new Map<string, { windowSize: number; turn: TurnContext | undefined }>();
  /** Access records not yet written. */
  private readonly writes = new Set<Promise<void>>();
  /** Per phone, tasks completed in turns whose episodes the next round stores. */
  private readonly completed = new Map<string, CompletedTask[]>();

  constructor(options: LongTermMemoryOptions) {
    this.storage = options.storage;
    this.llm = options.mode === "rules" ? null : options.llm;
    this.memory = options.memory;
    this.logger = options.logger;
    this.clock = options.clock ?? Date.now;
    this.weights = options.weights ?? DEFAULT_RETRIEVAL_WEIGHTS;
    this.embedder = options.embedder ?? null;
    ({
      history: this.history,
      profiles: this.profiles,
      chunks: this.chunks,
      facts: this.facts,
    } = options.storage.repositories);
  }

  /** Whether summaries and facts are made by the LLM ("llm") or by rules ("rules"). */
  get mode(): "llm" | "rules" {
    return this.llm ? "llm" : "rules";
  }

  // ---- context assembly ----

  /** The facts the rules find in a user message (no I/O): what Memo will remember of it. */
  factsInMessage(message: string): string[] {
    return extractFactsByRules({
      id: 0,
      role: "user",
      content: message,
      whatsappMessageId: null,
      createdAt: 0,
    }).map((fact) => fact.content);
  }

  /**
   * The planner's long-term context for this message (at most 500 estimated tokens): up to 6
   * remembered facts (at most 40%), those speaking of the message first, then the most valuable;
   * and the newest chunk summaries in the rest (see `formatMemoryContext`). Records, without waiting, that the facts speaking of
   * the message were used; those shown for their value alone keep decaying, so they can still be
   * archived. A failure is logged and gives no context: the turn goes on with the recent window alone.
   * With `read` (what the turn's first read brought: `MemoryService.beginTurn`) nothing is read here.
   */
  async contextFor(
    phone: string,
    message: string,
    read?: LongTermRead | null,
    timeZone?: string,
  ): Promise<MemoryContext> {
    const now = read?.now ?? this.clock();
    try {
      const [chunks, facts] = read
        ? [read.chunks, read.facts]
        : await Promise.all([
            this.chunks.newest(phone, CONTEXT_CHUNK_CANDIDATES),
            this.facts.relevant(phone, message, { now }),
          ]);
      // The episodes the turn's read found by the message's words, ranked as facts are (spec 004).
      const found = read?.episodes ?? [];
      const factItems = facts.map(factItem);
      const episodeItems = found.map(episodeItem);
      // With an embedding model, the message and the candidates are compared by meaning (one
      // request, at most CONTEXT_EMBED_MS; else TF-IDF, as without one).
      const embedding = await this.embedInto(
        phone,
        message,
        [...factItems, ...episodeItems],
        CONTEXT_EMBED_MS,
      );
      const query = {
        text: message,
        now,
        weights: this.weights,
        ...(embedding && {
          embedding,
          minSimilarity: this.embedder?.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
        }),
      };
      const ranked = rankFacts(query, facts, factItems);
      const byId = new Map(found.map((e) => [e.id, e]));
      const episodes = rankMemories(query, episodeItems).map((r) => ({
        episode: byId.get(r.item.id)!,
        score: r.score,
        relevance: r.relevance,
      }));
      const context = formatMemoryContext(
        chunks,
        ranked,
        { timeZone: timeZone ?? read?.timeZone ?? "UTC" },
        episodes,
      );
      const relevant = new Set(ranked.filter((r) => r.relevance > 0).map((r) => r.fact.id));
      const used = context.factIds.filter((id) => relevant.has(id));
      if (used.length > 0) this.recordAccess(phone, used, now);
      return context;
    } catch (error) {
      this.fail(phone, "contextFor", error);
      return { text: undefined, factIds: [] };
    }
  }

  private recordAccess(phone: string, ids: string[], now: number): void {
    const write: Promise<void> = this.facts
      .recordAccess(phone, ids, now)
      .catch((error: unknown) => this.fail(phone, "recordAccess", error))
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  // ---- background work ----

  /**
   * Starts `process` for the phone; while one runs for the phone, calls are coalesced into one
   * more run after it. `windowSize` is how many newest messages the short-term window holds
   * (default: 10). Returns the run started or joined, which settles once it (and any run coalesced
   * into it) is over; it never rejects, so it may be left unawaited. `completed`: the tasks the
   * turn completed, recorded as `task_completed` episodes by the run (kept in this process only).
   */
  schedule(
    phone: string,
    windowSize: number = MAX_TOTAL_MESSAGES,
    completed: readonly CompletedTask[] = [],
  ): Promise<void> {
    if (completed.length > 0) this.completed.set(phone, [...(this.completed.get(phone) ?? []), ...completed]);
    const running = this.running.get(phone);
    if (running) {
      this.again.set(phone, { windowSize, turn: currentTurn() });
      return running;
    }
    const run = async (): Promise<void> => {
      try {
        let next: { windowSize: number; turn: TurnContext | undefined } | undefined = {
          windowSize,
          turn: currentTurn(),
        };
        while (next !== undefined) {
          const size = next.windowSize;
          // Each round in a context of its own, of the turn that asked for it: its LLM usage is
          // one write when the round ends, never part of that turn's.
          await inBackgroundOfTurn(() => this.process(phone, size), next.turn);
          next = this.again.get(phone);
          this.again.delete(phone);
        }
      } finally {
        // In the same synchronous step as the last check, so no schedule() call falls in between.
        this.running.delete(phone);
      }
    };
    // process() logs its own failures; this only guards against an unhandled rejection.
    const started = run().catch((error: unknown) => this.fail(phone, "schedule", error));
    this.running.set(phone, started);
    return started;
  }

  /** Resolves once no background run and no access record is in progress (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.writes.size > 0) {
      await Promise.allSettled([...this.running.values(), ...this.writes]);
    }
  }

  /** Users with background work waiting (for the scheduler's sweep after a restart), at most `limit`. */
  pendingUsers(limit: number, windowSize: number = MAX_TOTAL_MESSAGES): Promise<string[]> {
    return this.profiles.pendingUsers(windowSize, CHUNK_SIZE, limit);
  }

  /**
   * The background work for one user: makes a chunk of every 10 messages that have left a window
   * of `windowSize` past the last chunk and extracts facts from new user messages, a few rounds at
   * most; then merges the two oldest chunks while there are more than 20. Each round is one read
   * (the profile and both steps' messages) and, when there is something to store, one write.
   * Never throws: failures are logged and counted, and retried on the next call.
   */
  async process(phone: string, windowSize: number = MAX_TOTAL_MESSAGES): Promise<ProcessReport> {
    const report: ProcessReport = {
      folded: 0,
      chunks: 0,
      merged: 0,
      factsCreated: 0,
      factsRefreshed: 0,
      episodesCreated: 0,
      failures: 0,
    };
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let work: MemoryWorkload;
      try {
        // With a model, the facts that hold now come in the same read: the extraction call is
        // shown them, to say which one a new fact replaces.
        work = await this.profiles.workload(
          phone,
          Math.max(0, windowSize),
          FOLD_BATCH,
          FACT_BATCH,
          this.llm ? KNOWN_FACTS_SHOWN : 0,
        );
      } catch (error) {
        this.fail(phone, "process", error);
        report.failures++;
        return report;
      }
      let fold: Fold | null = null;
      try {
        fold = await this.makeChunks(phone, work);
      } catch (error) {
        this.fail(phone, "makeChunks", error);
        report.failures++;
      }
      let facts: FactsFound | null = null;
      try {
        facts = await this.extractFacts(phone, work);
      } catch (error) {
        this.fail(phone, "extractFacts", error);
        report.failures++;
      }
      const done = this.takeCompleted(phone, work);
      if (!fold && !facts && done.length === 0) break;
      let more = false;
      try {
        const stored = await this.store(phone, work, fold, facts, done);
        report.episodesCreated += stored.episodes;
        if (fold && stored.folded) {
          report.folded += fold.ids.length;
          report.chunks += fold.chunks.length;
          more ||= fold.full;
        } else if (fold) {
          this.logger?.debug({ user: phoneTag(phone), step: "makeChunks" }, "chunks already made");
        }
        if (facts && stored.facts) {
          report.factsCreated += stored.facts.created;
          report.factsRefreshed += stored.facts.refreshed;
          more ||= facts.full;
        } else if (facts) {
          this.logger?.debug({ user: phoneTag(phone), step: "extractFacts" }, "facts already extracted");
        }
      } catch (error) {
        this.fail(phone, "storeMemory", error);
        report.failures++;
        // Tried again by the next round (their operation keys store each once).
        if (done.length > 0)
          this.completed.set(phone, [...done.map((d) => d.task), ...(this.completed.get(phone) ?? [])]);
      }
      if (!more) break;
    }
    if (report.chunks > 0) {
      try {
        report.merged = await this.mergeChunks(phone);
      } catch (error) {
        this.fail(phone, "mergeChunks", error);
        report.failures++;
      }
    }
    return report;
  }

  /**
   * The tasks completed in turns since the last round, as episodes: each from the newest fresh
   * user message sent at or before its completion (that turn's), when the round read it.
   */
  private takeCompleted(
    phone: string,
    work: MemoryWorkload,
  ): { task: CompletedTask; episode: ExtractedEpisode }[] {
    const tasks = this.completed.get(phone) ?? [];
    this.completed.delete(phone);
    return tasks.map((task) => {
      const source = work.freshUserMessages.filter((m) => m.createdAt <= task.at).at(-1);
      return { task, episode: completedTaskEpisode(task, source?.id ?? null) };
    });
  }

  /**
   * Merges the user's two oldest chunks while they have more than MAX_CHUNKS (spec 004 "Chunk
   * Compression"), at most MAX_MERGES times; a merge that loses a race reads again. Returns how
   * many merges it made.
   */
  private async mergeChunks(phone: string): Promise<number> {
    let merged = 0;
    for (let i = 0; i < MAX_MERGES; i++) {
      const { count, oldest } = await this.chunks.oldest(phone);
      if (count <= MAX_CHUNKS || oldest.length < 2) break;
      const [older, newer] = oldest as [ConversationChunk, ConversationChunk];
      const summary = mergedSummary(older.summary, newer.summary);
      const done = await this.chunks.merge(phone, older, newer, {
        summary,
        keyTopics: mergedTopics(older.keyTopics, newer.keyTopics),
        tokenCount: estimateTokens(summary),
      });
      if (done) merged++;
    }
    return merged;
  }

  /**
   * Stores one round's work in one write: the chunks (when the chunking cursor is still the one
   * read), the facts and episodes (when their cursor is still the one read), each independently
   * of the other, and the episodes of tasks completed. A single statement runs on its own; more
   * run in one short transaction, after any LLM call.
   */
  private async store(
    phone: string,
    work: MemoryWorkload,
    fold: Fold | null,
    facts: FactsFound | null,
    done: readonly { episode: ExtractedEpisode }[] = [],
  ): Promise<{ folded: boolean; facts: { created: number; refreshed: number } | null; episodes: number }> {
    const now = this.clock();
    const { profile } = work;
    const saidAt = new Map(work.freshUserMessages.map((m) => [m.id, m.createdAt]));
    const write = async ({ profiles, chunks, facts: memories, episodes: moments }: MemoryRepositories) => {
      let episodes = 0;
      const keep = async (
        found: readonly ExtractedEpisode[],
        key: (e: ExtractedEpisode, i: number) => string,
      ) => {
        for (const [i, extracted] of found.entries()) {
          const { sourceMessageId: _source, operationKey: _key, ...episode } = extracted;
          const result = await moments.create(phone, { ...episode, operationKey: key(extracted, i) }, now);
          if (result.created) episodes++;
        }
      };
      await keep(
        done.map((d) => d.episode),
        (e) => e.operationKey!,
      );
      let advanced = false;
      // Facts first: with `create`, their cursor's write makes the profile the chunk cursor needs.
      if (facts)
        advanced = await profiles.advanceFacts(phone, profile.factsThrough, facts.through, now, !work.exists);
      else if (fold && !work.exists) await profiles.create(phone);
      // The cursor moves only from the value read (and only while every message is still
      // stored): whoever moves it makes these chunks, so no chunk is made twice.
      const folded = fold
        ? await profiles.saveSummary(
            phone,
            { summary: profile.summary, summaryThrough: fold.through },
            { summary: profile.summary, summaryThrough: profile.summaryThrough },
            fold.ids,
            now,
          )
        : false;
      if (fold && folded) for (const chunk of fold.chunks) await chunks.create(phone, chunk);
      if (!facts || !advanced) {
        if (episodes > 0) await moments.cap(phone);
        return { folded, facts: null, episodes };
      }
      let created = 0;
      for (const [i, fact] of facts.found.entries()) {
        const result = await memories.create(
          phone,
          {
            type: fact.type,
            content: fact.content,
            importance: fact.importance,
            sourceMessageId: fact.sourceMessageId,
            operationKey: `message:${fact.sourceMessageId}:${i}`,
            subject: fact.subject ?? null,
            attribute: fact.attribute ?? null,
            people: fact.people ?? [],
            // A fact said now holds from the moment it was said, unless the user said when.
            validFrom: fact.validFrom ?? saidAt.get(fact.sourceMessageId) ?? now,
            precision: fact.precision ?? "instant",
            replaces: fact.replaces ?? [],
          },
          now,
        );
        if (result.created) created++;
      }
      await keep(facts.episodes, (e, i) => `episode:${e.sourceMessageId}:${i}`);
      if (episodes > 0) await moments.cap(phone);
      return { folded, facts: { created, refreshed: facts.found.length - created }, episodes };
    };
    const episodeCount = done.length + (facts ? facts.episodes.length : 0);
    const statements =
      (fold ? 1 + fold.chunks.length : 0) +
      (facts ? 1 + facts.found.length : 0) +
      (!work.exists && !facts ? 1 : 0) +
      (episodeCount > 0 ? episodeCount + 1 : 0);
    return statements > 1 ? this.storage.transaction(write) : write(this.storage.repositories);
  }

  /**
   * The chunks of the messages that left the window past the last chunk: one per CHUNK_SIZE, in
   * order (what is left over waits for the next round); null when fewer than CHUNK_SIZE wait.
   */
  private async makeChunks(phone: string, work: MemoryWorkload): Promise<Fold | null> {
    const { profile } = work;
    const left = [...work.outsideWindow];
    const full = left.length === FOLD_BATCH;
    // A request about memory is chunked together with Memo's answer to it, which may still be
    // in the window: both are then left out of the summary. (One that cannot be read is no such
    // request: it is logged below.)
    const memoryCommand = (m: HistoryMessage) => {
      try {
        return isMemoryCommand(m.content);
      } catch {
        return false;
      }
    };
    // Whole chunks only; a chunk never ends on such a request (its answer would be in the next).
    for (;;) {
      while (left.length > 0 && left.at(-1)!.role === "user" && memoryCommand(left.at(-1)!)) left.pop();
      const cut = left.length % CHUNK_SIZE;
      if (cut === 0) break;
      left.length -= cut;
    }
    if (left.length === 0) return null;

    // A message the extractive summary cannot read is left out of it (logged once): the cursor
    // still moves past it, so it cannot stop every later chunk.
    const readable = new Set(
      this.readSkipping(phone, "makeChunks", left, (batch) => {
        extractiveLines(batch, profile.timeZone);
        return batch;
      }),
    );
    // Over the whole batch, so an answer to a memory request in the next chunk is left out too.
    const kept = new Set(summarizable(left.filter((m) => readable.has(m))));
    const chunks: NewChunk[] = [];
    for (let start = 0; start < left.length; start += CHUNK_SIZE) {
      const range = left.slice(start, start + CHUNK_SIZE);
      const said = range.filter((m) => kept.has(m));
      const { summary, topics } =
        said.length === 0
          ? { summary: "", topics: [] }
          : await this.chunkSummary(phone, said, profile.timeZone);
      chunks.push({
        firstMessageId: range[0]!.id,
        lastMessageId: range.at(-1)!.id,
        messageCount: range.length,
        summary,
        keyTopics: topics,
        tokenCount: estimateTokens(summary),
        startedAt: range[0]!.createdAt,
        endedAt: range.at(-1)!.createdAt,
      });
    }
    return { chunks, through: left.at(-1)!.id, ids: left.map((m) => m.id), full };
  }

  /**
   * One chunk's summary and key topics: by the LLM (one call), or extractive with topics counted
   * in code without one, in rules mode or when it fails.
   */
  private async chunkSummary(
    phone: string,
    messages: HistoryMessage[],
    timeZone: string,
  ): Promise<{ summary: string; topics: string[] }> {
    if (this.llm) {
      try {
        const { value } = await this.llm.structured(
          "memory",
          chunkAnswerSchema,
          chunkMessages(messages, timeZone),
          {
            name: "conversation_chunk",
          },
        );
        const summary = fitSummary(value.summary, CHUNK_SUMMARY_MAX_TOKENS);
        if (summary !== "") return { summary, topics: dedupeTopics(value.topics) };
      } catch (error) {
        this.fail(phone, "chunkLLM", error);
      }
    }
    return {
      summary: extractiveSummary("", extractiveLines(messages, timeZone)),
      topics: keyTopicsOf(messages),
    };
  }

  /** The facts in the user messages past the facts cursor, or null when there are none. */
  private async extractFacts(phone: string, work: MemoryWorkload): Promise<FactsFound | null> {
    const fresh = work.freshUserMessages;
    if (fresh.length === 0) return null;
    const { facts: found, episodes } = await this.factsIn(
      phone,
      extractable(fresh),
      work.profile.timeZone,
      work.known,
    );
    return { found, episodes, through: fresh.at(-1)!.id, full: fresh.length === FACT_BATCH };
  }

  /** The facts and episodes in these user messages: by the LLM (one call), or by rules without one or when it fails. */
  private async factsIn(
    phone: string,
    messages: HistoryMessage[],
    timeZone: string,
    known: readonly KnownFact[],
  ): Promise<{ facts: ExtractedFact[]; episodes: ExtractedEpisode[] }> {
    // Questions, commands and small talk are not sent: most turns then cost no memory call. A
    // message the rules cannot read is skipped (logged once: the cursor moves past it).
    const candidates = this.readSkipping(phone, "extractFacts", messages, (batch) =>
      batch.filter(mayHoldFacts),
    );
    if (candidates.length === 0) return { facts: [], episodes: [] };
    if (this.llm) {
      try {
        const { value } = await this.llm.structured(
          "memory",
          factExtractionSchema,
          factMessages(candidates, known),
          {
            name: "remembered_facts",
          },
        );
        return {
          facts: factsFromAnswer(value, candidates, known, timeZone),
          episodes: episodesFromAnswer(value.episodes, candidates),
        };
      } catch (error) {
        this.fail(phone, "factsLLM", error);
      }
    }
    return {
      facts: this.readSkipping(phone, "factRules", candidates, (batch) =>
        batch.flatMap((m) => extractFactsByRules(m, timeZone)),
      ),
      episodes: this.readSkipping(phone, "episodeRules", candidates, (batch) =>
        batch.flatMap(extractEpisodesByRules),
      ),
    };
  }

  // ---- chat commands ----

  private recordEpisodeAccess(phone: string, ids: string[]): void {
    const write: Promise<void> = this.storage.repositories.episodes
      .recordAccess(phone, ids, this.clock())
      .catch((error: unknown) => this.fail(phone, "recordEpisodeAccess", error))
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  /**
   * Every fact kept about the user, each with its `status`: active ones first, then archived ones
   * (the user can see and erase all of it), most valuable first ("what do you remember about
   * me?"). Waits for the phone's background run, so a fact just said is listed.
   */
  async listFacts(phone: string, options: { history?: boolean } = {}): Promise<Fact[]> {
    await this.settle(phone);
    return this.facts.list(phone, "all", { closed: options.history ?? false });
  }

  /**
   * What Memo remembers that answers a question about the past (spec 004 retrieval): a period the
   * question names ("in March", "last month", "במרץ") is read in code in the user's zone, and then
   * the facts that held at some time in it answer (004 getValidAt); without one, the facts that
   * hold now. Ranked by 004's weights; only those that speak of the question (their words, the
   * attribute its verb names, a person linked to one it names) count. Their use is recorded.
   */
  async recall(phone: string, question: string, timeZone: string): Promise<MemoryRecall> {
    await this.settle(phone);
    const now = this.clock();
    const period = readPastPeriod(question, now, timeZone);
    const text = period ? withoutPeriod(question, period) : question;
    const words = queryWordsOf(text).filter((w) => !w.forms.some((f) => RECALL_VERBS.has(f)));
    const lexemes = lexemesOf(words);
    // "what did I tell you in April?": the period is the whole question; all of it may answer.
    const periodOnly = period !== null && words.length === 0;
    const during = period && { from: period.from, to: period.to };
    const { episodes: moments } = this.storage.repositories;
    const [facts, episodes, chunks] = await Promise.all([
      during
        ? this.facts.validDuring(phone, during.from, during.to)
        : this.facts.relevant(phone, text, { now }),
      during
        ? moments.list(phone, { ...during, limit: RECALL_CANDIDATES })
        : moments.search(phone, text, { limit: RECALL_CANDIDATES }),
      this.chunks.find(phone, lexemes, during, RECALL_CANDIDATES),
    ]);
    const items = [
      ...aboutTheAsker(facts, words).map(factItem),
      ...episodes.map(episodeItem),
      ...chunks.map(chunkItem),
    ];
    const embedding = await this.embedInto(phone, text, items);
    const ranked = rankMemories(
      {
        text,
        now,
        weights: this.weights,
        ...(during && { during }),
        ...(embedding && {
          embedding,
          minSimilarity: this.embedder?.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
        }),
      },
      items,
      { limit: RECALL_LIMIT, minRelevance: periodOnly ? 0 : RECALL_MIN_RELEVANCE },
    );
    const picked = <T extends { id: string }>(kind: string, all: readonly T[]): T[] => {
      const byId = new Map(all.map((x) => [x.id, x]));
      return ranked.filter((r) => r.item.kind === kind).map((r) => byId.get(r.item.id)!);
    };
    const episodesPicked = picked("episode", episodes);
    // A decision is kept both as a fact and as an episode: the episode (with its day) answers.
    const told = (f: Fact) =>
      f.sourceMessageId !== null &&
      episodesPicked.some(
        (e) =>
          e.turnStart !== null &&
          e.turnStart <= f.sourceMessageId! &&
          f.sourceMessageId! <= (e.turnEnd ?? e.turnStart),
      );
    const result = {
      facts: picked("fact", facts).filter((f) => !told(f)),
      episodes: episodesPicked,
      chunks: picked("chunk", chunks),
    };
    if (result.facts.length > 0)
      this.recordAccess(
        phone,
        result.facts.map((f) => f.id),
        now,
      );
    if (result.episodes.length > 0)
      this.recordEpisodeAccess(
        phone,
        result.episodes.map((e) => e.id),
      );
    const kept = new Set([...result.facts, ...result.episodes, ...result.chunks].map((x) => x.id));
    return {
      period: period && { from: period.from, to: period.to, precision: period.precision },
      ...result,
      ranked: ranked
        .filter((r) => kept.has(r.item.id))
        .map((r) => ({ kind: r.item.kind, id: r.item.id, score: r.score })),
    };
  }

  /**
   * With an embedding model: the question's vector, and each item's in `items`, from one request
   * (at most RECALL_EMBED_MS); null without a model, without items, or when it fails or is late
   * (logged): the question is then compared by TF-IDF.
   */
  private async embedInto(
    phone: string,
    question: string,
    items: MemoryItem[],
    withinMs: number = RECALL_EMBED_MS,
  ): Promise<number[] | null> {
    const embedder = this.embedder;
    if (!embedder || items.length === 0) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no embedding within ${withinMs} ms`)), withinMs);
    });
    try {
      const texts = [question, ...items.map((i) => i.text)];
      const vectors = await Promise.race([embedder.embed(texts), late]);
      if (vectors.length !== texts.length)
        throw new Error(`${vectors.length} vectors for ${texts.length} texts`);
      items.forEach((item, i) => (item.embedding = vectors[i + 1]!));
      return vectors[0]!;
    } catch (error) {
      this.logger?.warn(
        { user: phoneTag(phone), step: "memoryEmbedding", error: describeError(error) },
        "long-term memory compared by words only",
      );
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The facts (active or archived) the user's words may mean ("forget that I prefer morning
   * meetings"), best first, scored 0..1 on the fact and on the message it came from. Waits for
   * the phone's background run, so a fact still being extracted is found.
   */
  async findFacts(phone: string, words: string): Promise<FoundFact[]> {
    await this.settle(phone);
    return this.facts.find(phone, words);
  }

  /**
   * Forgets these facts of the user: deletes them, the source messages and the user's repeats of
   * them (see `repeatsAny`), the notes made from those messages, and Memo's replies echoing them
   * (see `echoesFact`), in the history and in the window, with the latest actions echoing them;
   * then rewrites every chunk summary speaking of them without them (LLM rewrite checked in code,
   * else an extractive rebuild from the chunk's messages that leaves out every sentence speaking of them). Unknown or others' ids are ignored.
   */
  async forget(phone: string, factIds: readonly string[]): Promise<ForgetReport> {
    await this.settle(phone);
    const nothing: ForgetReport = {
      facts: [],
      factIds: [],
      notes: 0,
      episodes: 0,
      messages: 0,
      windowMessages: 0,
      latestActions: 0,
      chunksRewritten: 0,
    };
    const doomed = await this.facts.getMany(phone, factIds);
    if (doomed.length === 0) return nothing;
    const forgotten = doomed.map((f) => f.content);
    const echoes = (text: string) => forgotten.some((fact) => echoesFact(text, fact));

    // Read and scanned before the transaction: the scan is CPU work over up to 2,000 messages, and
    // the embedded database's one connection serves every user while a transaction holds it.
    const sourceIds = [
      ...new Set(doomed.flatMap((f) => (f.sourceMessageId === null ? [] : [f.sourceMessageId]))),
    ];
    const [sources, said, replies, moments] = await Promise.all([
      this.history.getMany(phone, sourceIds),
      this.history.between(phone, 0, null, { role: "user", order: "desc", limit: REPEAT_SCAN }),
      this.history.between(phone, 0, null, { role: "assistant", order: "desc", limit: REPEAT_SCAN }),
      this.storage.repositories.episodes.list(phone),
    ]);
    // An episode saying the forgotten fact goes with it, whatever message it came from.
    const speaking = moments.filter((e) =>
      forgotten.some((fact) =>
        [e.title, e.summary, e.context, e.outcome ?? ""].some(
          (text) => mentionsFact(text, fact) || echoesFact(text, fact),
        ),
      ),
    );
    // The same thing said again was refreshed into the same fact, not stored twice: it goes too.
    const repeats = said.filter((m) => !sourceIds.includes(m.id) && repeatsAny(m, doomed, sources));
    const echoed = replies.filter((m) => echoes(m.content));
    const userIds = [...sourceIds, ...repeats.map((m) => m.id)];
    const messages = [...sources, ...repeats, ...echoed];

    const removed = await this.storage.transaction(async ({ facts, notes, history, episodes }) => {
      const deleted = await facts.delete(
        phone,
        doomed.map((f) => f.id),
      );
      if (deleted.length === 0) return null;
      // What a forgotten fact had ended holds again ("forget that I moved to Haifa": Tel Aviv).
      const gone = new Set(deleted.map((f) => f.id));
      // Each until the forgotten one stopped holding (Tel Aviv until Jerusalem, when Haifa between
      // them is forgotten), or again now when it still held.
      await facts.reopen(
        phone,
        deleted.flatMap((f) =>
          f.relationships
            .filter((r) => !gone.has(r.targetId))
            .map((r) => ({ id: r.targetId, until: f.validUntil })),
        ),
      );
      // Before the messages: deleting one sets its notes' source_message_id to NULL.
      const notesDeleted = await notes.deleteFromMessages(phone, userIds);
      const episodesDeleted =
        (await episodes.deleteFromMessages(phone, [...userIds, ...echoed.map((m) => m.id)])).length +
        (
          await episodes.delete(
            phone,
            speaking.map((e) => e.id),
          )
        ).length;
      const messagesDeleted = await history.delete(
        phone,
        messages.map((m) => m.id),
      );
      return {
        factIds: new Set(deleted.map((f) => f.id)),
        notesDeleted,
        episodesDeleted,
        messagesDeleted,
      };
    });
    if (!removed) return nothing;
    const facts = doomed.filter((f) => removed.factIds.has(f.id));

    const key = (m: { role: string; content: string }) => `${m.role}\u0000${m.content}`;
    const gone = new Set(messages.map(key));
    const windowMessages =
      (await this.memory?.dropMessages(
        phone,
        (m) => gone.has(key(m)) || (m.role === "assistant" && echoes(m.content)),
      )) ?? 0;
    const latestActions = (await this.memory?.dropLatestActions(phone, (a) => echoes(a.summary))) ?? 0;
    const chunksRewritten = await this.rewriteChunks(
      phone,
      facts.map((f) => f.content),
    );
    return {
      facts: facts.map((f) => f.content),
      factIds: facts.map((f) => f.id),
      notes: removed.notesDeleted,
      episodes: removed.episodesDeleted,
      messages: removed.messagesDeleted,
      windowMessages,
      latestActions,
      chunksRewritten,
    };
  }

  /** Rewrites every chunk whose summary speaks of the forgotten facts without them; returns how many changed. */
  private async rewriteChunks(phone: string, forgotten: readonly string[]): Promise<number> {
    const speaksOf = (text: string) => forgotten.some((f) => mentionsFact(text, f));
    let rewritten = 0;
    for (const chunk of await this.chunks.list(phone)) {
      if (!speaksOf(chunk.summary)) continue;
      if (await this.rewriteChunk(phone, chunk, forgotten, speaksOf)) rewritten++;
    }
    return rewritten;
  }

  /**
   * Rewrites one chunk's summary without the forgotten facts: by the LLM, kept only when it no
   * longer speaks of them, else rebuilt extractively from the chunk's messages. A rewrite that
   * loses a race (a merge changed the chunk) reads the chunk again. True when it changed.
   */
  private async rewriteChunk(
    phone: string,
    first: ConversationChunk,
    forgotten: readonly string[],
    speaksOf: (text: string) => boolean,
  ): Promise<boolean> {
    let chunk: ConversationChunk | undefined = first;
    for (let attempt = 0; attempt < REWRITE_TRIES && chunk; attempt++) {
      let next: string | null = null;
      if (this.llm) {
        try {
          const { value } = await this.llm.text("memory", forgetMessages(chunk.summary, forgotten));
          const cap = Math.max(CHUNK_SUMMARY_MAX_TOKENS, chunk.tokenCount);
          const text = fitSummary(value, cap);
          if (!speaksOf(text)) next = text;
          else
            this.logger?.warn(
              { user: phoneTag(phone), step: "forgetChunk" },
              "rewritten chunk summary still speaks of it",
            );
        } catch (error) {
          this.fail(phone, "forgetChunkLLM", error);
        }
      }
      next ??= await this.rebuiltSummary(phone, chunk, speaksOf);
      if (next === chunk.summary) return false;
      // A topic naming what is forgotten goes too ("meetings" of "Prefers morning meetings").
      const named = new Set(forgotten.flatMap((f) => distinctiveWords(f).flatMap((w) => w.forms)));
      const topics = chunk.keyTopics.filter(
        (topic) => !speaksOf(topic) && !queryWordsOf(topic).some((w) => w.forms.some((f) => named.has(f))),
      );
      if (await this.chunks.rewrite(phone, chunk, next, topics, estimateTokens(next))) return true;
      const id: string = chunk.id;
      chunk = (await this.chunks.list(phone)).find((c) => c.id === id);
      if (chunk && !speaksOf(chunk.summary)) return false;
    }
    this.logger?.warn({ user: phoneTag(phone), step: "forgetChunk" }, "chunk kept changing; not rewritten");
    return false;
  }

  /**
   * The extractive summary of a chunk's messages (its newest 400), leaving out sentences `exclude`
   * rejects; a merged chunk is labelled "Earlier:" again.
   */
  private async rebuiltSummary(
    phone: string,
    chunk: ConversationChunk,
    exclude: (sentence: string) => boolean,
  ): Promise<string> {
    const [messages, profile] = await Promise.all([
      this.history.between(phone, chunk.firstMessageId - 1, chunk.lastMessageId, {
        order: "desc",
        limit: REBUILD_SCAN,
      }),
      this.profiles.ensure(phone),
    ]);
    const budget = Math.max(CHUNK_SUMMARY_MAX_TOKENS, chunk.tokenCount);
    const lines = extractiveSummary(
      "",
      extractiveLines(messages.reverse(), profile.timeZone, exclude),
      budget,
    );
    return chunk.mergedFrom > 1 && lines !== "" ? `Earlier: ${lines}` : lines;
  }

  /** How much "forget everything" would erase (for its confirmation question), after the phone's background run. */
  async counts(phone: string): Promise<MemoryCounts> {
    await this.settle(phone);
    const [facts, notes, episodes, chunks] = await Promise.all([
      this.facts.count(phone),
      this.storage.repositories.notes.count(phone),
      this.storage.repositories.episodes.count(phone),
      this.chunks.count(phone),
    ]);
    return { facts, notes, episodes, hasSummary: chunks > 0 };
  }

  /**
   * The conversation-history id of the user's message with this WhatsApp id (without one, their
   * newest message without one): the provenance of a note made in this turn. Undefined when the
   * message is not in the history.
   */
  async sourceMessageId(phone: string, whatsappMessageId: string | undefined): Promise<number | undefined> {
    return (await this.history.userMessageId(phone, whatsappMessageId)) ?? undefined;
  }

  /**
   * Erases everything Memo keeps about the user's conversations in one transaction: facts, notes,
   * episodes, history, conversation chunks, the answered inbox messages and the text of what Memo sent them; then the
   * short-term window. The user's tasks, lists and calendar stay.
   */
  async forgetEverything(phone: string): Promise<EraseReport> {
    await this.settle(phone);
    const report = await this.storage.transaction(async (tx) => {
      const facts = await tx.facts.deleteAll(phone);
      const notes = await tx.notes.deleteAll(phone);
      const episodes = await tx.episodes.deleteAll(phone);
      const chunks = await tx.chunks.deleteAll(phone);
      const messages = await tx.history.deleteAll(phone);
      const profiles = await tx.profiles.delete(phone);
      // Answered inbox rows keep the text of what the user sent until RETENTION_DAYS: erased too.
      // The message being answered now is still pending; it goes with the retention period.
      const inbox = await tx.inbox.deleteAnswered(phone);
      // What Memo sent keeps its row (delivery status), not its text.
      const outbound = await tx.outbound.eraseBodies(phone);
      return { facts, notes, episodes, messages, profiles, chunks, inbox, outbound };
    });
    await this.memory?.clearConversation(phone);
    return report;
  }

  /** Waits for the phone's background run, if one is in progress (its failures are already logged). */
  private async settle(phone: string): Promise<void> {
    await this.running.get(phone);
  }

  // ---- consolidation ----

  /**
   * The periodic job (spec 004 "Memory Consolidation"), across users in bounded batches: recomputes
   * every active fact's decay at `now`, then archives facts older than 30 days whose importance ×
   * decay is below 0.3; then, user by user, merges overlapping episodes and keeps each user's 100
   * most significant. Throws on a database failure (the scheduler logs it and tries next time).
   */
  async consolidate(now: number = this.clock()): Promise<ConsolidationReport> {
    let decayed = 0;
    let afterId: string | null = null;
    for (let i = 0; i < CONSOLIDATION_MAX_BATCHES; i++) {
      const batch = await this.facts.updateDecayBatch(now, afterId, CONSOLIDATION_BATCH);
      decayed += batch.updated;
      if (batch.updated < CONSOLIDATION_BATCH) break;
      afterId = batch.lastId;
    }
    let archived = 0;
    for (let i = 0; i < CONSOLIDATION_MAX_BATCHES; i++) {
      const count = await this.facts.archiveStaleBatch(now, CONSOLIDATION_BATCH);
      archived += count;
      if (count < CONSOLIDATION_BATCH) break;
    }
    let episodesMerged = 0;
    let episodesCapped = 0;
    let afterPhone: string | null = null;
    for (let i = 0; i < CONSOLIDATION_MAX_BATCHES; i++) {
      const users = await this.storage.repositories.episodes.usersAfter(afterPhone, CONSOLIDATION_USERS);
      for (const phone of users) {
        const done = await this.storage.repositories.episodes.consolidate(phone);
        episodesMerged += done.merged;
        episodesCapped += done.capped;
      }
      if (users.length < CONSOLIDATION_USERS) break;
      afterPhone = users.at(-1)!;
    }
    return { decayed, archived, episodesMerged, episodesCapped };
  }

  /**
   * `read` over the messages; when it throws, over those it can read alone. Each one it cannot
   * read is logged (its id, never its text) and left out, so one stored message that makes a step
   * throw never blocks that step for the user's later messages (the cursor moves past it).
   */
  private readSkipping<T>(
    phone: string,
    step: string,
    messages: readonly HistoryMessage[],
    read: (batch: readonly HistoryMessage[]) => T,
  ): T {
    try {
      return read(messages);
    } catch {
      const readable = messages.filter((message) => {
        try {
          read([message]);
          return true;
        } catch (error) {
          this.logger?.error(
            { user: phoneTag(phone), step, messageId: message.id, error: describeError(error) },
            "long-term memory skipped a message it cannot read",
          );
          return false;
        }
      });
      return read(readable);
    }
  }

  /** Logs a failure with the user's hash, the step and the error (never message text). */
  private fail(phone: string, step: string, error: unknown): void {
    // The user's daily LLM budget is spent: the rules stand in, as designed; nothing broke.
    if (error instanceof LLMError && error.kind === "over_budget") {
      this.logger?.debug({ user: phoneTag(phone), step }, "memory by rules: daily LLM budget spent");
      return;
    }
    const code = (error as { code?: unknown } | null)?.code;
    this.logger?.error(
      { user: phoneTag(phone), step, error: describeError(error), ...(typeof code === "string" && { code }) },
      "long-term memory failed",
    );
  }
}
