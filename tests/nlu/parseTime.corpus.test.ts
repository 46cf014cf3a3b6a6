import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { whenFor, type WhenJson } from "../../src/nlu/whenJson.js";

/** One corpus case: a message, its zone and now, and the exact JSON `npm run when` must print. */
interface CorpusCase {
  text: string;
  tz: string;
  now: string;
  expected: WhenJson;
}

/**
 * Hand-written expectations, one case per line (tests/nlu/timeCorpus.jsonl): local wall times
 * converted with the known 2026 offsets of each zone, including both DST changes of Jerusalem
 * (27 March, 25 October) and New York (8 March, 1 November).
 */
const corpus = readFileSync(new URL("./timeCorpus.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as CorpusCase);

/** A clock that must not be read: every case names its own now. */
const UNUSED_CLOCK = Number.NaN;

describe("time corpus", () => {
  it("has at least 150 cases over three zones, in Hebrew and English, with and without a time", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    expect(new Set(corpus.map((c) => c.tz))).toEqual(
      new Set(["Asia/Jerusalem", "America/New_York", "Asia/Kolkata"]),
    );
    expect(corpus.filter((c) => /\p{Script=Hebrew}/u.test(c.text)).length).toBeGreaterThanOrEqual(50);
    expect(corpus.filter((c) => "error" in c.expected).length).toBeGreaterThanOrEqual(25);
    expect(
      corpus.filter((c) => "kind" in c.expected && c.expected.kind === "recurring").length,
    ).toBeGreaterThanOrEqual(50);
    for (const dstDay of ["2026-03-27", "2026-10-25", "2026-03-08", "2026-11-01"]) {
      const onThatDay = corpus.filter((c) => JSON.stringify(c.expected).includes(`"${dstDay}T`));
      expect(onThatDay.length, dstDay).toBeGreaterThanOrEqual(4);
    }
  });

  it.each(corpus.map((c) => [c.text, c.tz, c.now, c] as const))("%j in %s at %s", (_text, _tz, _now, c) => {
    const actual = whenFor({ text: c.text, tz: c.tz, now: c.now }, UNUSED_CLOCK);
    expect(actual).toStrictEqual(c.expected);
    // Field order is part of the printed shape.
    expect(JSON.stringify(actual)).toBe(JSON.stringify(c.expected));
  });
});
