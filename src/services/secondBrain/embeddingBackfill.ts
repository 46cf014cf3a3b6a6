import type { NoteRepository } from "../../db/repositories/noteRepository.js";
import { describeError } from "../../utils/errors.js";
import type { Logger } from "../../utils/logger.js";
import { checkEmbeddings, noteEmbeddingText, type Embedder } from "./embeddings.js";

export interface EmbeddingBackfillOptions {
  notes: NoteRepository;
  /** The model notes are embedded with; null: nothing to do (notes are searched by words). */
  embedder: Embedder | null;
  logger: Logger;
  /** Notes per embedding call (default: 64). */
  batchSize?: number;
  /** Milliseconds from `kick()` to the run, so notes stored together share a call (default: 100). */
  delayMs?: number;
  /** Milliseconds before a failed run is tried again, doubling with each failure in a row (default: 30,000). */
  retryDelayMs?: number;
  /** Longest wait between retries (default: 600,000). */
  maxRetryDelayMs?: number;
}

/** What one batch did. */
export interface BackfillReport {
  /** Notes found waiting for an embedding (at most the batch size). */
  pending: number;
  /** Embeddings stored. */
  embedded: number;
  /** Notes changed or deleted while their embedding was computed: not stored (a changed one is pending again). */
  stale: number;
  /** The batch failed (logged); its notes stay pending. */
  failed: boolean;
}

const NOTHING: BackfillReport = { pending: 0, embedded: 0, stale: 0, failed: false };

/**
 * Computes note embeddings in the background: each note once per model, in batches, after it is
 * stored or changed (`kick()`), and at start-up for notes stored while no model was configured or
 * under another model. Runs never overlap within a process. Failures are logged (never with note
 * text) and retried later with a growing delay; nothing is thrown to the caller and search keeps
 * working by words meanwhile. Timers do not keep the process alive.
 *
 * Two instances may embed the same note at once; both store the same vector, so the only cost is
 * the duplicate call.
 */
export class EmbeddingBackfill {
  private readonly batchSize: number;
  private readonly delayMs: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  /** The end of the chain of runs: runs never overlap. */
  private tail: Promise<void> = Promise.resolve();
  /** Runs started and not yet finished (the one going and those queued behind it). */
  private active = 0;
  /** The next run, when one is scheduled: soon after a kick, or later after a failure. */
  private scheduled: {
    timer: NodeJS.Timeout;
    retry: boolean;
    started: Promise<void>;
    start: () => void;
  } | null = null;
  /** A kick arrived while a run was going: run again when it ends. */
  private kickedDuringRun = false;
  private failuresInARow = 0;
  private stopped = false;

  constructor(private readonly options: EmbeddingBackfillOptions) {
    this.batchSize = options.batchSize ?? 64;
    this.delayMs = options.delayMs ?? 100;
    this.retryDelayMs = options.retryDelayMs ?? 30_000;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 600_000;
  }

  /** The model notes are embedded with, or null. */
  get embedder(): Embedder | null {
    return this.options.embedder;
  }

  /**
   * Schedules a run soon, unless one is already scheduled, or running (then it runs once more
   * when done). While a failed run waits for its retry, a kick does not hurry it. No-op without
   * an embedder or after `stop()`.
   */
  kick(): void {
    if (!this.options.embedder || this.stopped) return;
    if (this.active > 0) {
      this.kickedDuringRun = true;
      return;
    }
    if (this.scheduled) return;
    this.schedule(this.delayMs, false);
  }

  /**
   * Embeds up to a batch of pending notes in one call and stores the vectors, after any run in
   * progress. Never throws: a failure is logged and reported with `failed: true`.
   */
  runOnce(): Promise<BackfillReport> {
    return this.exclusive(() => this.batch());
  }

  /**
   * Resolves when no run is going and none is about to start (a retry scheduled after a failure
   * does not count: it is "later"). For tests and graceful shutdown.
   */
  async idle(): Promise<void> {
    for (;;) {
      if (this.active > 0) await this.tail;
      else if (this.scheduled && !this.scheduled.retry) await this.scheduled.started;
      else return;
    }
  }

  /** Cancels any scheduled run; a run in progress finishes its batch. Later kicks do nothing. */
  stop(): void {
    this.stopped = true;
    if (this.scheduled) {
      clearTimeout(this.scheduled.timer);
      this.scheduled.start();
      this.scheduled = null;
    }
  }

  /** Runs `work` after every run before it; a kick that came meanwhile schedules another run. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    this.active += 1;
    const result = this.tail.then(work).finally(() => {
      this.active -= 1;
      if (this.active === 0 && this.kickedDuringRun) {
        this.kickedDuringRun = false;
        this.kick();
      }
    });
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private schedule(delayMs: number, retry: boolean): void {
    let start!: () => void;
    const started = new Promise<void>((resolve) => (start = resolve));
    const timer = setTimeout(() => {
      this.scheduled = null;
      this.exclusive(() => this.loop()).catch((error: unknown) => {
        this.options.logger.error({ error: describeError(error) }, "note embedding run failed");
      });
      start();
    }, delayMs);
    // A pending embedding never holds the process open; the next start-up kick finds it again.
    timer.unref();
    this.scheduled = { timer, retry, started, start };
  }

  /** Batches until nothing is pending, a batch fails (then a retry is scheduled) or it is stopped. */
  private async loop(): Promise<void> {
    for (;;) {
      this.kickedDuringRun = false;
      const report = await this.batch();
      if (this.stopped) return;
      if (report.failed) {
        this.failuresInARow += 1;
        const delay = Math.min(this.retryDelayMs * 2 ** (this.failuresInARow - 1), this.maxRetryDelayMs);
        this.schedule(delay, true);
        return;
      }
      this.failuresInARow = 0;
      // More may be waiting: a full batch, or notes edited while theirs was computed. A batch that
      // stored nothing stops the loop, so a note that can never be stored cannot spin it.
      const more = report.pending === this.batchSize || report.stale > 0;
      if (!(more && report.embedded > 0)) return;
    }
  }

  private async batch(): Promise<BackfillReport> {
    const { embedder, notes, logger } = this.options;
    if (!embedder) return NOTHING;
    let pending = 0;
    try {
      const work = await notes.pendingEmbeddings(embedder.model, this.batchSize);
      pending = work.length;
      if (work.length === 0) return NOTHING;
      const texts = work.map(noteEmbeddingText);
      const vectors = checkEmbeddings(embedder.model, texts, await embedder.embed(texts));
      let embedded = 0;
      for (const [i, note] of work.entries()) {
        if (await notes.setEmbedding(note.userPhone, note.id, vectors[i]!, embedder.model, note.version)) {
          embedded += 1;
        }
      }
      const stale = work.length - embedded;
      logger.debug({ model: embedder.model, embedded, stale }, "note embeddings stored");
      return { pending, embedded, stale, failed: false };
    } catch (error) {
      logger.warn(
        { model: embedder.model, pending, error: describeError(error) },
        "note embedding failed; will retry later",
      );
      return { pending, embedded: 0, stale: 0, failed: true };
    }
  }
}
