import { describe, expect, it } from "vitest";
import { median, percentile } from "../../bench/stats.js";

describe("bench statistics", () => {
  it("takes the median of odd and even counts", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("interpolates percentiles between ranks", () => {
    const samples = Array.from({ length: 101 }, (_, i) => i);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile([10, 20], 75)).toBe(17.5);
  });

  it("refuses an empty sample", () => {
    expect(() => median([])).toThrow(/no samples/);
  });
});
