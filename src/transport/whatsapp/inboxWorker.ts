import { withTurn, type CarriedUsage, type TurnContext } from "../../utils/turnContext.js";
import type {
  AdvanceStep,
  Advanced,
  InboxMessage,
  InboxRepository,
} from "../../db/repositories/inboxRepository.js";
import type { NewOutboundMessage } from "../../db/repositories/outboundMessageRepository.js";
import { describeError } from "../../utils/errors.js";
import type { InFlightWork } from "../../utils/inFlightWork.js";
import type { Logger } from "../../utils/logger.js";
import { LeaseLostError, type PhoneLease, type PhoneLocks } from "./phoneLocks.js";
import { HeldRecords } from "./whatsAppSender.js";

/** Runs the turn of one inbox message; throws when the turn failed and may be retried. */
export interface InboxHandler {
  /**
   * Runs the turn; sends only while `lease` is confirmed (else throws LeaseLostError). The records
   * of what it sent may be left in `sent`: the worker writes them with the message's end.
   */
  process(message: InboxMessage, lease: PhoneLease, sent: HeldRecords): Promise<void>;
  /** Whether an earlier attempt already sent the answer (the process died right after). */
  answered(message: InboxMessage): Promise<boolean>;
  /** After the last failed attempt: tell the user, briefly, that their message was not handled. */
  giveUp(message: InboxMessage, error: string, lease: PhoneLease, sent: HeldRecords): Promise<void>;
}

/**
 * How handling one message ended for the phone's run: stop (the lease is lost, or the worker is
 * stopping), or go on, ending the message with `finish` in the statement that takes the next one.
 */
type Outcome = "stop" | { finish?: AdvanceStep["finish"] };

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
 * told (`kick`, after the webhook stored messages), on a slow poll (work stored by another
 * instance, phones another instance held, rows left by a crash), and when a phone's run ends if
 * work may have been left for then (a kick came during the run's last statement or after it, or
 * the last look found more phones than it could take).
 *
 * Database work per message (issue 22): one statement takes a phone's lease with its next message
 * and counts the attempt (`InboxRepository.claim`); one records the turn's reply, adds its LLM
 * usage to the user's day, ends the message, takes the next one and lets the lease go with the
 * phone's last message (`advance`).
 */
export class InboxWorker {
  private readonly active = new Map<string, Promise<void>>();
  private scanning = false;
  /** The look for work under way, if any (stop waits for it). */
  private currentScan: Promise<void> | undefined;
  /** Ends retry back-offs early when the worker stops. */
  private readonly sleepers = new Set<() => void>();
  private rescan = false;
  /** Kicks so far: a run that ends looks again when one came since its last statement. */
  private kicks = 0;
  /** The last look left phones waiting (all slots taken, or lost to another worker). */
  private backlogged = false;
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

  private prepared: Promise<void> | undefined;

  /** Looks for work now (coalesced: a look already running looks once more when it ends). */
  kick(): void {
    if (this.stopped) return;
    this.kicks += 1;
    if (this.scanning) {
      // The look under way looks once more before it ends.
      this.rescan = true;
      return;
    }
    this.currentScan = this.scan();
  }

  /** Stops taking new work; resolves when the turns running now have ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    this.wakeSleepers();
    // A look under way may still be taking a lease: let it finish (it lets the lease go).
    await this.currentScan;
    await Promise.all(this.active.values());
  }

  /** Resolves once no phone is being worked off and no look is running (tests, benchmarks). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Waits before a retry, or less when the worker stops meanwhile. */
  private async backOff(ms: number): Promise<void> {
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    this.sleepers.add(wake);
    try {
      await Promise.race([this.sleep(ms), woken]);
    } finally {
      this.sleepers.delete(wake);
    }
  }

  private wakeSleepers(): void {
    for (const wake of this.sleepers) wake();
  }

  private isIdle(): boolean {
    return this.active.size === 0 && !this.scanning;
  }

  private settle(): void {
    if (this.isIdle()) this.idleWaiters.splice(0).forEach((wake) => wake());
  }

  /** Takes leases on waiting phones and starts their runs, up to `concurrency`; only one at a time (see kick). */
  private async scan(): Promise<void> {
    this.scanning = true;
    const { inbox, locks } = this.options;
    try {
      await (this.prepared ??= locks.prepare()).catch((error: unknown) => {
        this.prepared = undefined;
        throw error;
      });
      do {
        this.rescan = false;
        const free = this.options.concurrency - this.active.size;
        if (this.stopped) break;
        if (free <= 0) {
          // Work announced now waits for a slot: the next run that ends looks again.
          this.backlogged = true;
          break;
        }
        const takenAt = Date.now();
        const claim = await inbox.claim({
          owner: locks.owner,
          ttlSeconds: locks.ttlSeconds,
          limit: free,
          exclude: [...this.active.keys()],
        });
        this.backlogged = claim.more;
        for (const { phone, token, message } of claim.phones) {
          const lease = locks.adopt(phone, token, takenAt);
          if (this.stopped) {
            await this.letGo(lease, message);
            continue;
          }
          this.active.set(phone, this.runPhone(lease, message));
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

  /** Lets a lease go, first taking back the attempt counted for a message that never ran. */
  private async letGo(lease: PhoneLease, unrun: InboxMessage | null): Promise<void> {
    if (unrun) await this.options.inbox.giveBackAttempt(unrun.waMessageId, lease.token);
    await this.options.locks.release(lease);
  }

  /**
   * Works off one phone's pending messages in order, starting with `first` (its attempt already
   * counted by the claim), then lets the phone go.
   */
  private async runPhone(lease: PhoneLease, first: InboxMessage | null): Promise<void> {
    const { phone, token } = lease;
    const { inbox, locks } = this.options;
    let healthy = true;
    /** The next message, its attempt counted, not yet started. */
    let next = first;
    /** The database let the lease go with the phone's last message. */
    let released = false;
    let kicksSeen = this.kicks;
    /** What the current message's turn sent and has not recorded yet. */
    let sent: HeldRecords | undefined;
    /** Where the current message's turn leaves its LLM usage for the advance (see CarriedUsage). */
    let carrier: TurnContext["usageCarrier"];
    try {
      if (!next) {
        kicksSeen = this.kicks;
        ({ next, released } = await inbox.advance(phone, token, { then: "next" }));
      }
      while (next && !this.stopped && lease.held()) {
        const message = next;
        next = null;
        let outcome: Outcome;
        sent = this.heldRecords(lease);
        const end = this.options.inFlight?.begin();
        try {
          // Every log line, LLM call and trace of this message's turn carries its id and user; its
          // LLM usage is left in `carrier`, to be written by the advance that ends the message.
          carrier = {};
          const turn: TurnContext = {
            traceId: message.waMessageId,
            phone,
            trigger: "user",
            usageCarrier: carrier,
          };
          const records = sent;
          outcome = await withTurn(turn, () => this.handle(message, lease, records));
        } finally {
          end?.();
        }
        if (outcome === "stop") break;
        // Records the reply, ends the message and takes the next one; when stopping, lets the phone go instead.
        kicksSeen = this.kicks;
        const step = await this.advanceWith(sent, takeUsage(carrier), lease, {
          ...(outcome.finish ? { finish: outcome.finish } : {}),
          then: this.stopped ? "release" : "next",
        });
        ({ next, released } = step);
        // The lease was lost: the new holder ends the message.
        if (outcome.finish && !step.finished) break;
        if (!next && !released && !this.stopped) {
          // Found but not counted (only if the row changed meanwhile), or the lease is gone: look once more.
          kicksSeen = this.kicks;
          ({ next, released } = await inbox.advance(phone, token, { then: "next" }));
        }
      }
    } catch (error) {
      healthy = false;
      this.options.logger.error({ err: error, phone }, "inbox run for a phone failed");
    } finally {
      // A turn that ended without an advance (lease lost, worker stopping, a failed statement):
      // the budget writes its usage on its own.
      takeUsage(carrier)?.unwritten();
      await sent?.flush();
      if (released) locks.forget(lease);
      else
        await this.letGo(lease, next).catch((error: unknown) =>
          this.options.logger.error({ err: error, phone }, "could not release phone lease"),
        );
      this.active.delete(phone);
      // A message stored while this run was ending found the phone busy, and one stored while all
      // slots were taken found no slot: look again. After a storage error, leave it to the poll
      // instead of spinning.
      if (healthy && (this.kicks !== kicksSeen || this.backlogged)) this.kick();
      this.settle();
    }
  }

  /** Holds a turn's send records; written on their own (if need be) by an advance that only records. */
  private heldRecords(lease: PhoneLease): HeldRecords {
    return new HeldRecords((record) => this.record(lease, record), this.options.logger);
  }

  /** Records sent messages in a step that changes nothing else. */
  private async record(lease: PhoneLease, record: readonly NewOutboundMessage[]): Promise<void> {
    await this.options.inbox.advance(lease.phone, lease.token, { record, then: "hold" });
  }

  /**
   * `inbox.advance` carrying the records `sent` holds and the turn's LLM `usage`. Should it fail,
   * the usage goes back to the budget, which writes it on its own, and the records are written on
   * their own once more: a reply recorded is never sent again, even if the message runs again.
   */
  private async advanceWith(
    sent: HeldRecords,
    usage: CarriedUsage | undefined,
    lease: PhoneLease,
    step: AdvanceStep,
  ): Promise<Advanced> {
    const { messages, done } = sent.take();
    try {
      const advanced = await this.options.inbox.advance(lease.phone, lease.token, {
        ...step,
        ...(messages.length > 0 ? { record: messages } : {}),
        ...(usage ? { usage } : {}),
      });
      usage?.written(advanced.usage ?? null);
      return advanced;
    } catch (error) {
      // Written once either way: the statement that failed wrote nothing.
      usage?.unwritten();
      if (messages.length === 0) throw error;
      // The record may be what failed: written on its own (logged if it cannot be), the message
      // still ends, so a reply that went out is never sent again for want of its record.
      await this.record(lease, messages).catch((cause: unknown) =>
        this.options.logger.error({ err: cause, phone: lease.phone }, "could not record a sent message"),
      );
      return await this.options.inbox.advance(lease.phone, lease.token, step);
    } finally {
      done();
    }
  }

  /** Runs one message's turn (its first attempt already counted); says how to end it. */
  private async handle(message: InboxMessage, lease: PhoneLease, sent: HeldRecords): Promise<Outcome> {
    const { inbox, logger, maxAttempts, handler } = this.options;
    const id = message.waMessageId;
    const ageMs = this.clock() - message.sentAt.getTime();
    if (ageMs > this.options.maxAgeMs) {
      // A redelivery after a long outage: answering it now as if fresh would surprise the user.
      logger.warn({ event: "INBOX_EXPIRED", messageId: id, ageMs }, "message too old to answer; recorded");
      const minutes = Math.round(ageMs / 60_000);
      return {
        finish: { waMessageId: id, status: "expired", error: `not answered: ${minutes} minutes old` },
      };
    }
    let lastError = message.lastError ?? "the turn was interrupted (process stopped)";
    let attempt: number | null = message.attempts;
    for (;;) {
      if (attempt === null) return "stop";
      if (attempt > maxAttempts) {
        // Attempts ran out across restarts. If the last one got its answer out before the
        // process died, the message was handled after all.
        if (await handler.answered(message)) return { finish: { waMessageId: id, status: "done" } };
        break;
      }
      try {
        await handler.process({ ...message, attempts: attempt }, lease, sent);
        return { finish: { waMessageId: id, status: "done" } };
      } catch (error) {
        // What the failed attempt sent is recorded before anything else (the next attempt's
        // `answered` reads it), and its send slot let go before the back-off.
        await sent.flush();
        if (error instanceof LeaseLostError) return "stop";
        lastError = describeError(error);
        logger.error({ err: error, messageId: id, attempt, maxAttempts }, "turn failed");
        // Some failures must not re-run the turn (a reply that could not be delivered).
        if (attempt >= maxAttempts || (error as { rerunnable?: unknown }).rerunnable === false) break;
        await this.backOff((this.options.retryDelayMs ?? ((n) => n * n * 1000))(attempt));
        // Shutting down: the message stays pending and runs after the restart.
        if (this.stopped) return "stop";
      }
      attempt = await inbox.beginAttempt(id, lease.token);
    }
    logger.error(
      { event: "INBOX_FAILED", messageId: id, error: lastError },
      "message given up after retries",
    );
    // Marked failed first, keeping the lease for the apology: if it cannot be sent, it is not
    // retried on every poll.
    const failed = await inbox.advance(lease.phone, lease.token, {
      finish: { waMessageId: id, status: "failed", error: lastError },
      then: "hold",
    });
    if (!failed.finished) return "stop";
    try {
      await handler.giveUp(message, lastError, lease, sent);
    } catch (error) {
      logger.error({ err: error, messageId: id }, "could not tell the user their message failed");
    }
    return {};
  }
}

/** Takes the turn's LLM usage left in `carrier` (once), if any. */
function takeUsage(carrier: TurnContext["usageCarrier"]): CarriedUsage | undefined {
  const usage = carrier?.usage;
  if (carrier) delete carrier.usage;
  return usage;
}
