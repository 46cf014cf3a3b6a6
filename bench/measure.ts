import { median } from "./stats.js";

/** Timed turns per series (default 150), after untimed warm-up turns (default 20). */
export const TURNS = 150;
export const WARMUP = 20;

export function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * Times `subject` against `floor`, alternating them turn by turn so both series see the same
 * machine (GC, JIT, other load): medians in ms and their ratio.
 */
export async function againstFloor(
  subject: (i: number) => Promise<void>,
  floor: () => Promise<void>,
  turns = TURNS,
  warmup = WARMUP,
): Promise<{ median_ms: number; floor_ms: number; ratio: number }> {
  const samples: number[] = [];
  const floorSamples: number[] = [];
  for (let i = 0; i < warmup + turns; i++) {
    let t = performance.now();
    await subject(i);
    if (i >= warmup) samples.push(performance.now() - t);
    t = performance.now();
    await floor();
    if (i >= warmup) floorSamples.push(performance.now() - t);
  }
  const medianMs = median(samples);
  const floorMs = median(floorSamples);
  return { median_ms: round(medianMs), floor_ms: round(floorMs), ratio: round(medianMs / floorMs) };
}
