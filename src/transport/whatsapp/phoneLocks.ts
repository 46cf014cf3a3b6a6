import { randomUUID } from "node:crypto";
import type { PgPhoneLeaseRepository } from "../../db/repositories/phoneLeaseRepository.js";
import { MemoError } from "../../utils/errors.js";
import type { Logger } from "../../utils/logger.js";

/** The right to work off one phone's inbox (D4), held by one worker at a time. */
export interface PhoneLease {
  readonly phone: string;
  /** Fencing token: inbox updates made under the lease check it, so a holder that lost it cannot. */
  readonly token: string;
  /** False once the lease is known to be lost (a renewal found it taken, or renewals kept failing). */
  held(): boolean;
  /**
   * Whether the lease is still ours, before something that cannot be undone (a send): known
   * without asking while it was taken or renewed less than half its lifetime ago, else asked of
   * the database.
   */
  confirm(): Promise<boolean>;
}

export interface PhoneLocks {
  /** Gets ready to hand out leases (clears stale ones where this process owns the database). */
  prepare(): Promise<void>;
  /** Who takes leases (one per process): a statement that takes leases along with work writes it. */
  readonly owner: string;
  /** Seconds a lease lives without renewal. */
  readonly ttlSeconds: number;
  /** Takes the phone's lease if no one holds a live one; never waits. */
  tryAcquire(phone: string): Promise<PhoneLease | null>;
  /**
   * Holds a lease for `owner` that another statement took (InboxRepository.claim): renewed,
   * confirmed and let go like one from tryAcquire. `takenAt` (epoch ms) is from before that statement.
   */
  adopt(phone: string, token: string, takenAt: number): PhoneLease;
  release(lease: PhoneLease): Promise<void>;
  /** Stops renewing a lease the database already let go (InboxRepository.advance released it). */
  forget(lease: PhoneLease): void;
  /** Stops renewing and lets every lease of this process go. */
  close(): Promise<void>;
}

/** Thrown where work must stop because the phone's lease went to another worker. */
export class LeaseLostError extends MemoError {
  /** The new holder runs the message; running it here again would answer twice. */
  readonly rerunnable = false;
}

export interface PhoneLeasesOptions {
  /** Seconds a lease lives without renewal: how long a crashed instance's phones wait (default: 30). */
  ttlSeconds: number;
  /**
   * This process is the database's only user (embedded PGlite): leases left by an earlier run of
   * it are stale and are cleared at start, instead of waiting for them to expire.
   */
  exclusive: boolean;
  logger: Logger;
  /**
   * A monotonic clock in milliseconds (default: performance.now), for how long ago a lease was
   * known live; tests move it to stand for a process that stalled.
   */
  elapsed?: () => number;
}

/**
 * Phone leases in Postgres (the table `inbox_phone_leases`): taken with one upsert that only wins
 * over an expired lease, renewed every third of their lifetime while held, deleted on release. A
 * process that dies stops renewing, and its phones are taken over when the leases expire. Works
 * through any pooler (no session state), and holds no connection between statements.
 */
export class PgPhoneLeases implements PhoneLocks {
  /** Identifies this process's leases. */
  readonly owner = randomUUID();
  private readonly leases = new Map<string, HeldLease>();
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly elapsed: () => number;

  constructor(
    private readonly store: PgPhoneLeaseRepository,
    private readonly options: PhoneLeasesOptions,
  ) {
    this.elapsed = options.elapsed ?? (() => performance.now());
  }

  get ttlSeconds(): number {
    return this.options.ttlSeconds;
  }

  async prepare(): Promise<void> {
    if (this.options.exclusive) await this.store.clear();
    this.heartbeat ??= setInterval(() => void this.renew(), (this.options.ttlSeconds * 1000) / 3).unref();
  }

  async tryAcquire(phone: string): Promise<PhoneLease | null> {
    const takenAt = Date.now();
    const token = await this.store.acquire(phone, this.owner, this.options.ttlSeconds);
    return token === null ? null : this.adopt(phone, token, takenAt);
  }

  adopt(phone: string, token: string, takenAt: number): PhoneLease {
    // `takenAt` is wall-clock; how long ago is measured on the monotonic clock from here.
    const knownLiveAt = this.elapsed() - Math.max(0, Date.now() - takenAt);
    const lease = new HeldLease(phone, token, takenAt, knownLiveAt, (l) => this.confirm(l));
    this.leases.set(phone, lease);
    return lease;
  }

  /**
   * Workers take a lease over only once it expired (the upsert in `acquire`), and its expiry was
   * set by a statement sent after `knownLiveAt`: it is still ours for a lifetime after that. Half a
   * lifetime is trusted without asking (the heartbeat renews every third, so a working process
   * never asks); the other half covers clock-rate drift and the send itself. Both clocks must
   * agree: the monotonic one stands still while the machine is suspended, the wall clock jumps
   * ahead then. A process that stalled or slept past it, or whose renewals failed, asks the
   * database by renewing that lease alone (a look that did not extend it would not restart the
   * trusted half: the lease may have had a second left). (A lease row deleted by hand, or by erasing the user, while a turn runs is not seen
   * until the statement that ends the message, which is fenced by it.)
   */
  private async confirm(lease: HeldLease): Promise<boolean> {
    if (lease.lost) return false;
    const trusted = (this.options.ttlSeconds * 1000) / 2;
    if (this.elapsed() - lease.knownLiveAt < trusted && Date.now() - lease.renewedAt < trusted) return true;
    // The look is a renewal of this one lease: live, it now runs a lifetime from this statement,
    // so the trusted half starts again here.
    const askedAt = this.elapsed();
    const askedAtWall = Date.now();
    const live = (await this.store.renew(this.owner, [lease.token], this.options.ttlSeconds)).length > 0;
    if (live) {
      lease.knownLiveAt = Math.max(lease.knownLiveAt, askedAt);
      lease.renewedAt = Math.max(lease.renewedAt, askedAtWall);
    } else this.lose(lease, "confirm");
    return live;
  }

  async release(lease: PhoneLease): Promise<void> {
    if (this.leases.get(lease.phone) === lease) this.leases.delete(lease.phone);
    await this.store.release(lease.phone, lease.token);
  }

  forget(lease: PhoneLease): void {
    if (this.leases.get(lease.phone) === lease) this.leases.delete(lease.phone);
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.leases.clear();
    await this.store.releaseAll(this.owner);
  }

  /**
   * Extends every lease still held (the heartbeat calls this every third of the ttl); one that is
   * no longer ours is marked lost. Only the leases held when it started are judged: one taken while
   * the renewal ran is new and live.
   */
  async renew(): Promise<void> {
    const leases = [...this.leases.values()].filter((l) => !l.lost);
    if (leases.length === 0) return;
    const startedAt = Date.now();
    const startedElapsed = this.elapsed();
    try {
      const renewed = new Set(
        await this.store.renew(
          this.owner,
          leases.map((l) => l.token),
          this.options.ttlSeconds,
        ),
      );
      for (const lease of leases) {
        if (renewed.has(lease.token)) {
          lease.renewedAt = startedAt;
          lease.knownLiveAt = Math.max(lease.knownLiveAt, startedElapsed);
        } else this.lose(lease, "renewal");
      }
    } catch (error) {
      this.options.logger.error({ err: error, leases: leases.length }, "could not renew phone leases");
      // Without a renewal for a whole lifetime, another instance may hold them by now.
      for (const lease of leases) {
        if (Date.now() - lease.renewedAt > this.options.ttlSeconds * 1000)
          this.lose(lease, "renewals failing");
      }
    }
  }

  private lose(lease: HeldLease, how: string): void {
    if (lease.lost) return;
    lease.lost = true;
    this.options.logger.warn(
      { event: "INBOX_LEASE_LOST", how },
      "a phone's inbox lease was lost; its work stops here",
    );
  }
}

class HeldLease implements PhoneLease {
  lost = false;

  constructor(
    readonly phone: string,
    readonly token: string,
    /** When the lease was last known live in the database (epoch ms, taken before the statement). */
    public renewedAt: number,
    /** The same moment on the monotonic clock (`PhoneLeasesOptions.elapsed`). */
    public knownLiveAt: number,
    private readonly check: (lease: HeldLease) => Promise<boolean>,
  ) {}

  held(): boolean {
    return !this.lost;
  }

  confirm(): Promise<boolean> {
    return this.check(this);
  }
}
