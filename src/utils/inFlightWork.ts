/**
 * Counts work that must finish before the process exits (HTTP requests, turns, ticks),
 * so a graceful shutdown can wait for it.
 */
export class InFlightWork {
  private active = 0;
  private waiters: (() => void)[] = [];

  /** Number of pieces of work running now. */
  get size(): number {
    return this.active;
  }

  /** Marks the start of a piece of work; call the returned function exactly once when it ends. */
  begin(): () => void {
    this.active += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.active -= 1;
      if (this.active === 0) this.waiters.splice(0).forEach((wake) => wake());
    };
  }

  /** Runs `work` while counting it. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    const end = this.begin();
    try {
      return await work();
    } finally {
      end();
    }
  }

  /** Resolves true when nothing is running, or false when `timeoutMs` passes first. */
  drain(timeoutMs: number): Promise<boolean> {
    if (this.active === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(wake);
    });
  }
}
