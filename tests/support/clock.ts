/** A clock tests move by hand; `now` is what services take as their `clock` option (epoch ms). */
export interface FakeClock {
  readonly now: () => number;
  /** Moves time forward by `ms`. */
  advance(ms: number): void;
}

/** A fake clock starting at `start` (default: 2026-03-01T09:00:00Z). */
export function fakeClock(start: number | string = "2026-03-01T09:00:00Z"): FakeClock {
  let current = typeof start === "number" ? start : Date.parse(start);
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
  };
}
