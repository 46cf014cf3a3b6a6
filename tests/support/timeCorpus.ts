/**
 * The time corpus (tests/nlu/timePhrases.jsonl): hand-written messages with the wall time, the
 * first three occurrences, or the question Memo must ask; and how readTime's answer to one case
 * is judged. Shared by the corpus test and `npm run bench -- time_corpus`.
 */
import { readFileSync } from "node:fs";
import { readTime, type TimeReading, type UnclearReason } from "../../src/nlu/parseTime.js";
import { nextOccurrence } from "../../src/nlu/recurrence.js";
import { instantToLocal } from "../../src/nlu/zonedTime.js";

/** What a case expects: a wall time, three occurrences, a question, or no time at all. */
export type Expectation =
  { local: string } | { every: [string, string, string] } | { ask: UnclearReason } | { none: true };

export interface TimeCase {
  text: string;
  tz: string;
  now: string;
  expect: Expectation;
  tags: string[];
  /** The message names a zone other than the user's. */
  zone?: boolean;
}

/**
 * - exact: the answer is the expected one (the same question, for a question);
 * - asked: Memo asks where an answer was expected, or asks for another reason (safe, not exact);
 * - silent_wrong: another instant or rule than meant, a time where none was said, or no time where
 *   one was (the words would end up in a task's title): never allowed.
 */
export type Verdict = "exact" | "asked" | "silent_wrong";

export function loadTimeCorpus(): TimeCase[] {
  return readFileSync(new URL("../nlu/timePhrases.jsonl", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as TimeCase);
}

/** A wall time as "YYYY-MM-DDTHH:mm". */
function wall(at: number, timeZone: string): string {
  const l = instantToLocal(at, timeZone);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${l.year}-${p(l.month)}-${p(l.day)}T${p(l.hour)}:${p(l.minute)}`;
}

/** What readTime said, in the corpus's own terms. */
function describe(reading: TimeReading | null): Expectation {
  if (!reading) return { none: true };
  if (reading.kind === "unclear") return { ask: reading.reason };
  if (reading.kind === "instant") return { local: wall(reading.at, reading.timeZone) };
  const occurrences: number[] = [reading.firstAt];
  while (occurrences.length < 3) {
    const next = nextOccurrence(reading.recurrence, reading.timeZone, occurrences.at(-1)!);
    if (next === null) break;
    occurrences.push(next);
  }
  return { every: occurrences.map((at) => wall(at, reading.timeZone)) as [string, string, string] };
}

/** One case run through readTime: what it said and the verdict. */
export function judge(c: TimeCase): { actual: Expectation; verdict: Verdict } {
  const actual = describe(readTime(c.text, Date.parse(c.now), c.tz));
  const same = JSON.stringify(actual) === JSON.stringify(c.expect);
  if (same) return { actual, verdict: "exact" };
  return { actual, verdict: "ask" in actual && !("none" in c.expect) ? "asked" : "silent_wrong" };
}
