import type { MemoryJobs } from "../scheduler/jobs.js";
import type { SecondBrainService } from "../secondBrain/secondBrainService.js";
import type { LongTermMemory } from "./longTermMemory.js";

/** Users whose unfinished summary or fact work one hourly sweep takes up (default: 100). */
const SWEEP_USERS = 100;
/** Users worked on at once by a sweep: their LLM calls run in parallel (default: 4). */
const SWEEP_CONCURRENCY = 4;

/**
 * The scheduler's long-term memory work: hourly, what turns left unfinished (an instance that
 * stopped before its background work ran) and notes still without an embedding; daily, the
 * consolidation of remembered facts (004: decay, low-value old facts archived).
 */
export function createMemoryJobs(longTerm: LongTermMemory, notes: SecondBrainService): MemoryJobs {
  return {
    async sweep() {
      const phones = await longTerm.pendingUsers(SWEEP_USERS);
      // Only the sweep's own runs are awaited (turns keep starting others), a few at a time.
      let next = 0;
      const worker = async () => {
        while (next < phones.length) await longTerm.schedule(phones[next++]!);
      };
      await Promise.all(Array.from({ length: Math.min(SWEEP_CONCURRENCY, phones.length) }, worker));
      // Kicked rather than run here: the backfill drains every pending note, batch by batch.
      notes.backfill.kick();
      return { users: phones.length };
    },
    async consolidate(now) {
      const { decayed, archived } = await longTerm.consolidate(now);
      return { decayed, archived };
    },
  };
}
