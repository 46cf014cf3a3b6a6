import { median } from "./stats.js";

/** Timed turns per series (default 150), after untimed warm-up turns (default 20). */
export const TURNS = 150;
const WARMUP = 20;

export function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * Times each series turn by turn in rotation, so all of them see the same machine (GC, JIT, other
 * load): the median ms of each, by name.
 */
export async function interleaved<K extends string>(
  series: Record<K, (i: number) => Promise<void>>,
  turns = TURNS,
  warmup = WARMUP,
): Promise<Record<K, number>> {
  const names = Object.keys(series) as K[];
  const samples = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let i = 0; i < warmup + turns; i++) {
    for (const name of names) {
      const t = performance.now();
      await series[name](i);
      if (i >= warmup) samples.get(name)?.push(performance.now() - t);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(samples.get(name) ?? [])])) as Record<
    K,
    number
  >;
}

/** Times `subject` against `floor`, interleaved: medians in ms and their ratio. */
export async function againstFloor(
  subject: (i: number) => Promise<void>,
  floor: () => Promise<void>,
  turns = TURNS,
  warmup = WARMUP,
): Promise<{ median_ms: number; floor_ms: number; ratio: number }> {
  const { subject: medianMs, floor: floorMs } = await interleaved({ subject, floor }, turns, warmup);
  return { median_ms: round(medianMs), floor_ms: round(floorMs), ratio: round(medianMs / floorMs) };
}
