import type { InboxMessage, InboxRepository } from "../../db/repositories/InboxRepository.js";
import { describeError } from "../../utils/errors.js";
import type { InFlightWork } from "../../utils/InFlightWork.js";
import type { Logger } from "../../utils/logger.js";
import type { PhoneLocks } from "./PhoneLocks.js";

/** Runs the turn of one inbox message; throws when the turn failed and may be retried. */
export interface InboxHandler {
  process(message: InboxMessage): Promise<void>;
  /** After the last failed attempt: tell the user, briefly, that their message was not handled. */
  giveUp(message: InboxMessage, error: string): Promise<void>;
}

export interface InboxWorkerOptions {
  inbox: InboxRepository;
  locks: PhoneLocks;
  handler: InboxHandler;
  logger: Logger;
  /** Counts turns, so shutdown waits for them. */
  inFlight?: InFlightWork;
  /** Phones worked off at once (default: 8). */
  concurrency: number;
  /** Messages older than this are recorded but not answered (default: 24 h). */
  maxAgeMs: number;
  /** Attempts at one message's turn (default: 3). */
  maxAttempts: number;
  /** Milliseconds between looks for work that no webhook announced (default: 5000). */
  pollIntervalMs?: number;
  /** Milliseconds before retry `n` (1-based) of a failed turn (default: 1 s, 4 s, 9 s…). */
  retryDelayMs?: (attempt: number) => number;
  /** Epoch milliseconds (default: Date.now). */
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Works off the inbox (D4): each phone's messages one at a time, in WhatsApp timestamp order,
 * under that phone's lock; different phones in parallel up to `concurrency`. It looks for work when
 * told (`kick`, after the webhook stored messages), when a phone's run ends, and on a slow poll
 * (work stored by another instance, phones another instance held, rows left by a crash).
 */
export class InboxWorker {
  private readonly active = new Map<string, Promise<void>>();
  private scanning = false;
  private rescan = false;
  private stopped = true;
  private poll: NodeJS.Timeout | undefined;
  private readonly clock: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly options: InboxWorkerOptions) {
    this.clock = options.clock ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Starts working: unfinished rows from before a restart are picked up at once. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.poll = setInterval(() => this.kick(), this.options.pollIntervalMs ?? 5000).unref();
    this.kick();
  }

  /** Looks for work now (coalesced: a look already running looks once more when it ends). */
  kick(): void {
    if (this.stopped) return;
    void this.scan();
  }

  /** Stops taking new work; resolves when the turns running now have ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    await Promise.all(this.active.values());
  }

  /** Resolves once no phone is being worked off and no look is running (tests, benchmarks). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    return this.active.size === 0 && !this.scanning;
  }

  private settle(): void {
    if (this.isIdle()) this.idleWaiters.splice(0).forEach((wake) => wake());
  }

  private async scan(): Promise<void> {
    if (this.scanning) {
      this.rescan = true;
      return;
    }
    this.scanning = true;
    try {
      do {
        this.rescan = false;
        const free = this.options.concurrency - this.active.size;
        if (free <= 0 || this.stopped) break;
        // More phones than free slots: some may be held by another instance.
        const phones = await this.options.inbox.phonesWithPending(free * 4, [...this.active.keys()]);
        for (const phone of phones) {
          if (this.active.size >= this.options.concurrency || this.stopped) break;
          if (this.active.has(phone)) continue;
          if (!(await this.options.locks.tryAcquire(phone))) continue;
          const run = this.runPhone(phone);
          this.active.set(phone, run);
        }
      } while (this.rescan);
    } catch (error) {
      // The next kick or poll tries again; nothing is lost, the rows stay pending.
      this.options.logger.error({ err: error }, "inbox scan failed");
    } finally {
      this.scanning = false;
      this.settle();
    }
  }

  /** Works off one phone's pending messages in order, then lets the phone go. */
  private async runPhone(phone: string): Promise<void> {
    let healthy = true;
    try {
      for (;;) {
        if (this.stopped) break;
        const message = await this.options.inbox.nextPending(phone);
        if (!message) break;
        const end = this.options.inFlight?.begin();
        try {
          await this.handle(message);
        } finally {
          end?.();
        }
      }
    } catch (error) {
      healthy = false;
      this.options.logger.error({ err: error, phone }, "inbox run for a phone failed");
    } finally {
      await this.options.locks
        .release(phone)
        .catch((error: unknown) =>
          this.options.logger.error({ err: error, phone }, "could not release phone lock"),
        );
      this.active.delete(phone);
      // A message stored while this run was ending found the phone busy: look again. After a
      // storage error, leave it to the poll instead of spinning.
      if (healthy) this.kick();
      this.settle();
    }
  }

  private async handle(message: InboxMessage): Promise<void> {
    const { inbox, logger, maxAttempts } = this.options;
    const id = message.waMessageId;
    const ageMs = this.clock() - message.sentAt.getTime();
    if (ageMs > this.options.maxAgeMs) {
      // A redelivery after a long outage: answering it now as if fresh would surprise the user.
      logger.warn({ event: "INBOX_EXPIRED", messageId: id, ageMs }, "message too old to answer; recorded");
      await inbox.finish(id, "expired", `not answered: ${Math.round(ageMs / 60_000)} minutes old`);
      return;
    }
    let lastError = message.lastError ?? "the turn was interrupted (process stopped)";
    for (;;) {
      const attempt = await inbox.beginAttempt(id);
      if (attempt > maxAttempts) break;
      try {
        await this.options.handler.process({ ...message, attempts: attempt });
        await inbox.finish(id, "done");
        return;
      } catch (error) {
        lastError = describeError(error);
        logger.error({ err: error, messageId: id, attempt, maxAttempts }, "turn failed");
        // Some failures must not re-run the turn (a reply that could not be delivered).
        if (attempt >= maxAttempts || (error as { rerunnable?: unknown }).rerunnable === false) break;
        await this.sleep((this.options.retryDelayMs ?? ((n) => n * n * 1000))(attempt));
      }
    }
    logger.error(
      { event: "INBOX_FAILED", messageId: id, error: lastError },
      "message given up after retries",
    );
    try {
      await this.options.handler.giveUp(message, lastError);
    } catch (error) {
      logger.error({ err: error, messageId: id }, "could not tell the user their message failed");
    }
    await inbox.finish(id, "failed", lastError);
  }
}
