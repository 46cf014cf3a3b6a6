/**
 * A small seeded PRNG (mulberry32) for tests and benches: the same seed gives the same numbers, so a
 * failing round or generated case replays (several suites take their seed from PROPERTY_SEED).
 */
export function prng(seed: number) {
  let state = seed >>> 0;
  /** A number in [0, 1). */
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** A whole number from 0 to n - 1. */
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Prng = ReturnType<typeof prng>;
