/**
 * The hand-written time corpus (tests/nlu/timePhrases.jsonl) against readTime: its shape, no case
 * silently wrong (D10: exactly right or asked, never another instant), and a floor on the share
 * answered exactly. The same judge runs in `npm run bench -- time_corpus`.
 */
import { describe, expect, it } from "vitest";
import { judge, loadTimeCorpus, type TimeCase, type Verdict } from "../support/timeCorpus.js";

const corpus = loadTimeCorpus();

/** The share of cases answered exactly, below which the test fails (the rest are asked). */
const EXACT_SHARE_FLOOR = 0.95;

/** One tag per rule of docs/NLU.md (time parser) the corpus must exercise. */
const RULE_TAGS = [
  "minutes", // "quarter to 8", "15h30", "ten thirty"
  "ambiguous", // bare hour 1–6 with no am/pm
  "part_of_day", // morning/afternoon/evening/night, alone and with an hour
  "zones", // "8am PST", "שעון ישראל"
  "dst", // D6 around the four 2026 changes
  "weekday_abbrev", // "thu.", "יום ה׳"
  "named_dates", // "July 18", "18 ביולי"
  "amounts", // "a couple of", "an hour and a half", "בעוד רבע שעה"
  "unread", // time words left unread are asked
  "calendar_words", // next week, end of the month, מחרתיים
  "past", // one-off times not ahead of now
  "recurrence", // every…, כל…
  "absurd", // beyond the horizon, huge numbers
  "none", // no time named at all
  "compact_clock", // "ב-2130", "בשעה 1930", "19.30"; a number left beside a read time is asked
  "meridiem", // am/pm in every spelling: "a m", "p. m.", "seven thirty pm", "7 o'clock pm"
  "same_time", // "same time tomorrow", "מחר באותה שעה": now's wall time on the day named
  "season_zones", // "EDT", "BST", "CEST": their own offset; out of their season, asked
  "seconds", // "15:23:24", "9:01:10 AM": read to the second, repeats to the minute
  "holidays", // "on Christmas at 6 pm", "בפסח", "every year on 15 Shevat"
];

const ZONES = ["Asia/Jerusalem", "America/New_York", "Asia/Kolkata"];

/** The four 2026 DST changes of the corpus zones (local dates); Asia/Kolkata has none. */
const DST_CHANGES = [
  { zone: "Asia/Jerusalem", date: "2026-03-27" },
  { zone: "Asia/Jerusalem", date: "2026-10-25" },
  { zone: "America/New_York", date: "2026-03-08" },
  { zone: "America/New_York", date: "2026-11-01" },
];
const DAY_MS = 86_400_000;
/** "Around" a change: within a week of it, or the case's span (now → last expected time) crosses it. */
const AROUND_MS = 7 * DAY_MS;

/** The wall times a case expects, as rough epoch ms (zone offsets do not matter at a week's scale). */
function expectedTimes(c: TimeCase): number[] {
  if ("local" in c.expect) return [Date.parse(`${c.expect.local}Z`)];
  if ("every" in c.expect) return c.expect.every.map((local) => Date.parse(`${local}Z`));
  return [];
}

function isAround(c: TimeCase, change: { zone: string; date: string }): boolean {
  if (c.tz !== change.zone) return false;
  const at = Date.parse(`${change.date}T00:00Z`);
  const now = Date.parse(c.now);
  const end = Math.max(now, ...expectedTimes(c));
  return now - AROUND_MS <= at + DAY_MS && at - AROUND_MS <= end;
}

/** Verdicts are computed once per case and shared by the per-case tests and the share floor. */
const verdicts = new Map<TimeCase, Verdict>();
function verdictOf(c: TimeCase): ReturnType<typeof judge> {
  const judged = judge(c);
  verdicts.set(c, judged.verdict);
  return judged;
}

describe("time phrase corpus: shape", () => {
  it("has at least 600 cases", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(600);
  });

  it("is at least 40% Hebrew, the rest English", () => {
    const hebrew = corpus.filter((c) => /\p{Script=Hebrew}/u.test(c.text)).length;
    expect(hebrew / corpus.length).toBeGreaterThanOrEqual(0.4);
    expect(corpus.length - hebrew).toBeGreaterThan(0);
  });

  it("covers the three zones and no other", () => {
    expect(new Set(corpus.map((c) => c.tz))).toEqual(new Set(ZONES));
  });

  it.each(DST_CHANGES)("has at least 8 dst cases around $date in $zone", (change) => {
    const around = corpus.filter((c) => c.tags.includes("dst") && isAround(c, change));
    expect(around.length).toBeGreaterThanOrEqual(8);
  });

  it("has every tag of the rules, and only those", () => {
    const tags = new Set(corpus.flatMap((c) => c.tags));
    expect([...tags].sort()).toEqual([...RULE_TAGS].sort());
  });

  it("expects every reason to ask, and wall times, repeats and no-time cases", () => {
    const kinds = new Set(corpus.map((c) => ("ask" in c.expect ? c.expect.ask : Object.keys(c.expect)[0])));
    for (const kind of [
      "local",
      "every",
      "none",
      "unread",
      "ambiguous_hour",
      "past",
      "too_far",
      "unsupported",
    ])
      expect(kinds, kind).toContain(kind);
  });

  it("has well-formed cases", () => {
    for (const c of corpus) {
      expect(Number.isNaN(Date.parse(c.now)), c.text).toBe(false);
      expect(c.tags.length, c.text).toBeGreaterThan(0);
    }
  });
});

describe("time phrase corpus: never silently wrong", () => {
  it.each(corpus.map((c) => [c.text, c.tz, c.now, c] as const))("%j in %s at %s", (_text, _tz, _now, c) => {
    const { actual, verdict } = verdictOf(c);
    if (verdict === "silent_wrong")
      expect.fail(
        `silent_wrong: ${JSON.stringify(c.text)} (${c.tz}, now ${c.now}, tags ${c.tags.join(",")})\n` +
          `  expected ${JSON.stringify(c.expect)}\n  readTime ${JSON.stringify(actual)}`,
      );
  });
});

describe("time phrase corpus: exact share", () => {
  it(`answers at least ${EXACT_SHARE_FLOOR * 100}% of the cases exactly`, () => {
    const all = corpus.map((c) => verdicts.get(c) ?? verdictOf(c).verdict);
    const exact = all.filter((v) => v === "exact").length;
    const notExact = corpus
      .filter((c) => verdicts.get(c) !== "exact")
      .map((c) => `  ${verdicts.get(c)}: ${JSON.stringify(c.text)} (${c.tz}, ${c.now})`);
    expect(
      exact / corpus.length,
      `exact ${exact}/${corpus.length}; not exact:\n${notExact.join("\n")}`,
    ).toBeGreaterThanOrEqual(EXACT_SHARE_FLOOR);
  });
});
