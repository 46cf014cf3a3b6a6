import * as chrono from "chrono-node";
import { instantToLocal } from "../src/nlu/zonedTime.js";
import { judge, loadTimeCorpus, type TimeCase, type Verdict } from "../tests/support/timeCorpus.js";

/**
 * readTime over the hand-written time corpus (tests/nlu/timePhrases.jsonl), judged as in
 * tests/nlu/timePhrases.corpus.test.ts: exact, asked (Memo asks, safe) or silent_wrong (another
 * instant or rule, a time where none was said, or none where one was — D10 forbids it). Any
 * silent_wrong sets a non-zero exit code.
 *
 * For comparison, chrono-node (a general-purpose parser, English only) runs on the English cases:
 * `chrono.parse(text, { instant: now, timezone: <the zone's UTC offset at now, in minutes> },
 * { forwardDate: true })`, and its first result's start date, as a wall time in the case's zone, is
 * judged against the case like Memo's answer would be. chrono cannot ask, so each case is exact or
 * silent_wrong:
 * - "local": exact when the wall time is the expected one; another one, or no result, is silent_wrong;
 * - "every": exact when the wall time is the first expected occurrence (chrono has no repeats);
 * - "ask": any result is silent_wrong, and so is no result (a caller would take it as "no time");
 * - "none": no result is exact, any result silent_wrong.
 * chrono fills what the words leave out from now ("tomorrow" is tomorrow at now's clock time, not
 * Memo's 09:00), and takes a fixed offset, so an answer across a DST change is an hour off: both
 * are chrono's behaviour with this reference, and counted as such.
 */
export function timeCorpus(): Promise<Record<string, unknown>> {
  const corpus = loadTimeCorpus();
  const verdicts = corpus.map((c) => ({ c, verdict: judge(c).verdict }));
  const count = (list: { verdict: Verdict }[], verdict: Verdict) =>
    list.filter((v) => v.verdict === verdict).length;

  const english = verdicts.filter(({ c }) => !/\p{Script=Hebrew}/u.test(c.text));
  const chronoVerdicts = english.map(({ c }) => ({ verdict: judgeChrono(c) }));

  const exact = count(verdicts, "exact");
  const silentWrong = count(verdicts, "silent_wrong");
  const line = {
    bench: "time_corpus",
    cases: corpus.length,
    exact,
    asked: count(verdicts, "asked"),
    silent_wrong: silentWrong,
    exact_share: Number((exact / corpus.length).toFixed(3)),
    chrono_en_cases: english.length,
    chrono_exact: count(chronoVerdicts, "exact"),
    chrono_silent_wrong: count(chronoVerdicts, "silent_wrong"),
    memo_en_exact: count(english, "exact"),
    memo_en_silent_wrong: count(english, "silent_wrong"),
  };
  if (silentWrong > 0) {
    const wrong = verdicts.filter((v) => v.verdict === "silent_wrong").map(({ c }) => JSON.stringify(c.text));
    process.stderr.write(`time_corpus: ${silentWrong} silent_wrong case(s): ${wrong.join(", ")}\n`);
    process.exitCode = 1;
  }
  return Promise.resolve(line);
}

/** The zone's offset from UTC at an instant, in minutes. */
function offsetMinutes(at: number, timeZone: string): number {
  const l = instantToLocal(at, timeZone);
  const wallAsUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute);
  return Math.round((wallAsUtc - Math.floor(at / 60_000) * 60_000) / 60_000);
}

/** An instant as "YYYY-MM-DDTHH:mm" in a zone. */
function wall(at: number, timeZone: string): string {
  const l = instantToLocal(at, timeZone);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${l.year}-${p(l.month)}-${p(l.day)}T${p(l.hour)}:${p(l.minute)}`;
}

/** chrono's first result on a case, judged as described above. */
function judgeChrono(c: TimeCase): Verdict {
  const now = Date.parse(c.now);
  const [first] = chrono.parse(
    c.text,
    { instant: new Date(now), timezone: offsetMinutes(now, c.tz) },
    { forwardDate: true },
  );
  const said = first ? wall(first.start.date().getTime(), c.tz) : null;
  if ("none" in c.expect) return said === null ? "exact" : "silent_wrong";
  if ("local" in c.expect) return said === c.expect.local ? "exact" : "silent_wrong";
  if ("every" in c.expect) return said === c.expect.every[0] ? "exact" : "silent_wrong";
  return "silent_wrong";
}
