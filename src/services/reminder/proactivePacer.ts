/**
 * The overall pace of proactive messages from this instance: at most `perSecond` sends start in
 * any second, spaced evenly. (The per-user gap lives in the database, where every instance sees
 * it; this one is per process, so with N instances set PROACTIVE_MAX_PER_SECOND to the account's
 * limit divided by N.)
 */
export class ProactivePacer {
  private nextSlot = 0;

  constructor(
    private readonly options: {
      perSecond: number;
      clock: () => number;
      /** Resolves once the clock has reached `atMs`. */
      sleepUntil: (atMs: number) => Promise<void>;
    },
  ) {}

  /** When the next send could start (now, or the next free slot). */
  nextSlotAt(): number {
    return Math.max(this.options.clock(), this.nextSlot);
  }

  /** Waits for this send's turn. */
  async acquire(): Promise<void> {
    const { perSecond, clock, sleepUntil } = this.options;
    const now = clock();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / perSecond;
    if (slot > now) await sleepUntil(slot);
  }
}
