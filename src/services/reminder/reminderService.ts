import { randomUUID } from "node:crypto";
import type { SchedulerSettings } from "../../config/env.js";
import { CLAIM_LEASE_MS } from "../../config/lifetimes.js";
import type { Delivery, DeliveryLedger } from "../../db/repositories/deliveryLedger.js";
import type { ReminderRepositories } from "../../db/storage.js";
import type { Storage } from "../../db/transaction.js";
import type { LLMService } from "../../types/llm.js";
import type { MessageSender } from "../../types/outbound.js";
import type { Logger } from "../../utils/logger.js";
import type { ReminderMetrics } from "../metrics/metrics.js";
import type { PassReport, ReminderJobs } from "../scheduler/jobs.js";
import type { DigestSource } from "./digest.js";
import { HouseholdNotices } from "./householdNotices.js";
import { MorningDigest } from "./morningDigest.js";
import { DEFER_AFTER_MS, ReminderDelivery, type DeliveryOutcome } from "./reminderDelivery.js";
import { RingClaims, type RingClaim } from "./ringClaims.js";
import { WeeklyReview } from "./weeklyReview.js";

/** Rows claimed per transaction, and transactions per pass at most. */
const CLAIM_BATCH = 500;
const MAX_BATCHES = 40;

export interface ReminderServiceDeps {
  /** Due tasks and digests to claim, and the delivery ledger (db/storage reminderStorage). */
  storage: Storage<ReminderRepositories>;
  /** null: no WhatsApp client at all (nothing can be sent; deliveries fail loudly). */
  sender: MessageSender | null;
  llm: LLMService | null;
  logger: Logger;
  clock: () => number;
  /** Resolves when the clock reaches `atMs` (default: a timer); tests move a fake clock. */
  sleepUntil?: (atMs: number) => Promise<void>;
  settings: SchedulerSettings;
  /** Counts deliveries by kind and outcome, and the late ones (default: not counted). */
  metrics?: ReminderMetrics;
}

/**
 * Reminders, nudges, overdue notices, household notices and morning digests (spec 002 §9, D8):
 * the due pass the scheduler runs. Due rows are claimed in short transactions (FOR UPDATE SKIP
 * LOCKED) that also record each occurrence in the delivery ledger under a unique key and move the
 * task to its next ring (RingClaims, MorningDigest, HouseholdNotices); the messages are sent after
 * the commit, each under a claim token, paced per user (in the database) and overall (in process)
 * (ReminderDelivery). This class builds the four on one ledger and runs them as one pass.
 */
export class ReminderService implements ReminderJobs {
  private readonly ledger: DeliveryLedger;
  private readonly rings: RingClaims;
  private readonly digest: MorningDigest;
  private readonly weekly: WeeklyReview;
  private readonly household: HouseholdNotices;
  private readonly delivery: ReminderDelivery;

  constructor(private readonly deps: ReminderServiceDeps) {
    const { storage, sender, llm, logger, clock, sleepUntil, settings, metrics } = deps;
    this.ledger = storage.repositories.deliveries;
    this.rings = new RingClaims({ storage, logger, clock, settings });
    this.digest = new MorningDigest({ storage, llm, logger, clock, settings });
    this.weekly = new WeeklyReview({ storage, logger, clock, settings });
    this.household = new HouseholdNotices({ storage, clock });
    this.delivery = new ReminderDelivery({
      ledger: this.ledger,
      sender,
      logger,
      clock,
      sleepUntil,
      settings,
      metrics,
      digest: {
        complete: (content, phone) =>
          content.kind === "weekly"
            ? this.weekly.complete(content, phone)
            : this.digest.complete(content, phone),
        polish: (text, language) => this.digest.polish(text, language),
      },
    });
  }

  /**
   * Stops sending: a pass that is running hands back what it has not sent yet (released for the
   * next pass of any instance, so a restart sends it at once rather than after the claim lease).
   */
  stop(): void {
    this.delivery.stop();
  }

  /** Sends again after stop() (the scheduler started anew). */
  resume(): void {
    this.delivery.resume();
  }

  /** Adds a section source to the morning digest (the day's) and the weekly review (the week's). */
  addDigestSource(source: DigestSource): void {
    this.digest.addSource(source);
    this.weekly.addSource(source);
  }

  /**
   * One pass: takes over deliveries a crashed instance left, claims due reminders and digests,
   * and sends what this instance claimed. Resolves when everything claimed has been handled.
   */
  async runDue(): Promise<PassReport> {
    const { clock } = this.deps;
    const token = randomUUID();
    const started = performance.now();
    // No more than the overall pace can send within the pass's horizon: the rest stays due for
    // the next pass (or another instance), so a pass stays short.
    const budget = Math.max(
      CLAIM_BATCH,
      Math.floor((this.deps.settings.maxPerSecond * DEFER_AFTER_MS) / 1000),
    );
    const reclaimed = await this.ledger.reclaim(token, clock(), CLAIM_LEASE_MS, budget);
    const claimed: Delivery[] = [...reclaimed];
    let skipped = 0;
    for (let batch = 0; batch < MAX_BATCHES && claimed.length < budget; batch++) {
      const rings = await this.rings.claim(token, Math.min(CLAIM_BATCH, budget - claimed.length));
      claimed.push(...rings.deliveries);
      if (rings.locked < CLAIM_BATCH) break;
    }
    for (let batch = 0; batch < MAX_BATCHES && claimed.length < budget; batch++) {
      const digests = await this.digest.claim(token, Math.min(CLAIM_BATCH, budget - claimed.length));
      claimed.push(...digests.deliveries);
      skipped += digests.skipped;
      if (digests.locked < CLAIM_BATCH) break;
    }
    for (let batch = 0; batch < MAX_BATCHES && claimed.length < budget; batch++) {
      const reviews = await this.weekly.claim(token, Math.min(CLAIM_BATCH, budget - claimed.length));
      claimed.push(...reviews.deliveries);
      skipped += reviews.skipped;
      if (reviews.locked < CLAIM_BATCH) break;
    }
    if (claimed.length < budget)
      claimed.push(...(await this.household.claim(token, Math.min(CLAIM_BATCH, budget - claimed.length))));
    const claimMs = performance.now() - started;
    const outcomes = await this.delivery.send(claimed);
    const count = (status: DeliveryOutcome) => outcomes.filter((o) => o === status).length;
    const report: PassReport = {
      claimed: claimed.length,
      sent: count("sent"),
      failed: count("failed"),
      undeliverable: count("undeliverable"),
      skipped: skipped + count("skipped"),
      reclaimed: reclaimed.length,
      deferred: count("deferred"),
      claimMs,
      sendMs: performance.now() - started - claimMs,
    };
    if (report.claimed > 0 || report.skipped > 0)
      this.deps.logger.info({ event: "SCHEDULER_PASS", ...report }, "scheduler pass");
    return report;
  }

  /** Claims up to `limit` due task rings under `token` (one transaction; see RingClaims). */
  claimRings(token: string, limit: number): Promise<RingClaim> {
    return this.rings.claim(token, limit);
  }

  /**
   * Sends claimed deliveries: each user's in order, users side by side. Returns each one's outcome.
   * Household messages a turn records go out through here too.
   */
  send(deliveries: readonly Delivery[]): Promise<DeliveryOutcome[]> {
    return this.delivery.send(deliveries);
  }

  /**
   * A status webhook said a message failed. A free-form reminder refused for being outside the
   * 24-hour window (131047) is queued once more, to go as the template on the next pass.
   */
  onDeliveryFailed(update: { waMessageId: string; errorCode?: number; errorTitle?: string }): Promise<void> {
    return this.delivery.onDeliveryFailed(update);
  }

  /** Drops ledger rows older than the retention period; returns how many. */
  prune(beforeMs: number): Promise<number> {
    return this.ledger.prune(beforeMs);
  }

  /** The ledger, for support tools and tests. */
  get deliveries(): DeliveryLedger {
    return this.ledger;
  }
}
