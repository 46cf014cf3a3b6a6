/*
 * What the scheduler needs of the jobs it runs. The services that do the work implement these
 * (the reminder, memory services); the scheduler imports none of them, so the dependency points
 * one way: from the jobs to the scheduler.
 */

/** What one due pass did, for logs, metrics and tests. */
export interface PassReport {
  claimed: number;
  sent: number;
  failed: number;
  undeliverable: number;
  skipped: number;
  /** Deliveries taken over from a crashed or stuck instance (or handed back earlier to wait for their slot). */
  reclaimed: number;
  /** Deliveries whose send slot was too far ahead: handed back for a later pass. */
  deferred: number;
  /** Milliseconds spent claiming (the transactions), and sending. */
  claimMs: number;
  sendMs: number;
}

/** Reminders, nudges and digests (spec 002 §9): the due pass every minute, the daily prune. */
export interface ReminderJobs {
  /** One pass: claims what is due and sends it; resolves when everything claimed has been handled. */
  runDue(): Promise<PassReport>;
  /** Drops delivery records older than `beforeMs`; resolves with how many. */
  prune(beforeMs: number): Promise<number>;
  /** Stops sending: a running pass hands back what it has not sent yet. */
  stop(): void;
  /** Sends again after stop() (the scheduler started anew). */
  resume(): void;
}

/** The conversation window cache, emptied of idle users by the hourly job. */
export interface WindowCache {
  /** Forgets users idle past the conversation's age. */
  cleanup(): void;
}

/** Long-term memory's periodic work (spec 004 §Memory Consolidation). */
export interface MemoryJobs {
  /** Hourly: summaries and facts a turn left unfinished, notes still without an embedding. */
  sweep(): Promise<Record<string, number>>;
  /** Daily: decay of remembered facts, low-value old ones archived. */
  consolidate(now: number): Promise<Record<string, number>>;
}
