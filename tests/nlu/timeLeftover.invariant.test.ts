/**
 * D10 from the other side: when readTime answers with an instant or a repeat, the text it hands
 * back (the reminder's words) holds no time word the time-word scanner (unreadTimeWords) knows and
 * no number that could be part of the time. Checked over the hand-written corpus and the property
 * test's generated phrases; and the scanner knows every word of the grammar's tables.
 */
import { describe, expect, it } from "vitest";
import { readTime, type TimeReading } from "../../src/nlu/parseTime.js";
import { unreadTimeWords } from "../../src/nlu/unreadTime.js";
import {
  DAY_WORDS,
  EN_COUNTS,
  EN_HOUR_WORDS,
  EN_MONTHS,
  EN_RARE_WEEKDAY_ABBREVIATIONS,
  EN_WEEKDAY_ABBREVIATIONS,
  EN_WEEKDAYS,
  EN_ZONE_PLACES,
  HE_HOURS,
  HE_MONTHS,
  HE_NUMBERS,
  HE_WEEKDAYS,
  HE_ZONE_PLACES,
  ZONE_ABBREVIATIONS,
  normalizeText,
} from "../../src/nlu/timeWords.js";
import { prng } from "../support/random.js";
import { loadTimeCorpus } from "../support/timeCorpus.js";
import {
  generateApproximate,
  generateNoisy,
  generatePhrase,
  type Phrase,
} from "../support/timePhraseGenerator.js";

/** The property test's seed and counts (tests/nlu/timeInvariant.property.test.ts): the same phrases. */
const SEED = 20260327;
const PHRASES = 5000;
const NOISY = 1500;
const APPROXIMATE = 500;
const HEAVY_TIMEOUT_MS = 120_000;

/**
 * Whether a token with a digit is a quantity or a label (docs/NLU.md, time parser): a plain number,
 * not shaped like a clock, with a word it counts after it ("3 milk", "300 ש"ח") or a word it names
 * before it ("room 12"); glued to "ב"/"ל", only a count of things or money after it ("ל-4 אנשים").
 */
function isQuantity(tokens: string[], i: number): boolean {
  const token = tokens[i] ?? "";
  // "ל-4 אנשים": a Hebrew prefix on a count of things.
  const prefixed = /^[ובלה]{1,2}-?\d/u.test(token);
  if (!/^\d+(?:,\d{3})*$/u.test(token.replace(/^[ובלה]{1,2}-?/u, ""))) return false;
  const word = (t: string | undefined) => t !== undefined && /^[\p{L}₪$€£%]/u.test(t) && !/\d/u.test(t);
  if (!prefixed) return word(tokens[i + 1]) || word(tokens[i - 1]);
  // After "ב"/"ל" only a count of things or money: "ל-4 אנשים", "ב-10 ש"ח" ("ב-1930 לשלם" is no count).
  const next = tokens[i + 1] ?? "";
  return /^\p{L}+(?:ים|ות)$/u.test(next) || /^(?:ש"ח|שח|₪|שקלים|שקל|דולרים|דולר|יורו|אירו)$/u.test(next);
}

/** What is wrong with a complete reading's leftover text, or null. */
function leftoverProblem(reading: TimeReading | null): string | null {
  if (!reading || reading.kind === "unclear") return null;
  const text = normalizeText(reading.text).text;
  const timeWords = unreadTimeWords(text).map(({ start, end }) => text.slice(start, end));
  if (timeWords.length > 0) return `time words left: ${JSON.stringify(timeWords)} in ${JSON.stringify(text)}`;
  const tokens = text.split(/[\s,;!?]+/u).filter((t) => t !== "");
  const numbers = tokens.filter((t, i) => /\d/u.test(t) && !isQuantity(tokens, i));
  return numbers.length > 0 ? `numbers left: ${JSON.stringify(numbers)} in ${JSON.stringify(text)}` : null;
}

describe("the text left by a complete reading", () => {
  it("holds no time word and no number of the time, over the corpus", () => {
    const failures: string[] = [];
    let complete = 0;
    for (const c of loadTimeCorpus()) {
      const reading = readTime(c.text, Date.parse(c.now), c.tz);
      if (reading && reading.kind !== "unclear") complete++;
      const problem = leftoverProblem(reading);
      if (problem) failures.push(`${JSON.stringify(c.text)} (${c.tz}, ${c.now}): ${problem}`);
    }
    expect(complete).toBeGreaterThan(400);
    expect(failures, failures.join("\n")).toEqual([]);
  });

  it(
    "holds no time word and no number of the time, over the generated phrases",
    () => {
      const rng = prng(SEED).next;
      const phrases: Phrase[] = [
        ...Array.from({ length: PHRASES }, () => generatePhrase(rng)),
        ...Array.from({ length: NOISY }, () => generateNoisy(rng)),
        ...Array.from({ length: APPROXIMATE }, () => generateApproximate(rng)),
      ];
      const failures: string[] = [];
      let complete = 0;
      for (const phrase of phrases) {
        const reading = readTime(phrase.text, phrase.now, phrase.zone);
        if (reading && reading.kind !== "unclear") complete++;
        const problem = leftoverProblem(reading);
        if (problem) failures.push(`${JSON.stringify(phrase.text)} (${phrase.zone}): ${problem}`);
      }
      expect(complete).toBeGreaterThan(PHRASES / 2);
      expect(failures, failures.slice(0, 30).join("\n")).toEqual([]);
    },
    HEAVY_TIMEOUT_MS,
  );

  it("keeps quantities and labels, and asks about a number beside the time", () => {
    const now = Date.parse("2026-03-11T08:00:00Z");
    const textOf = (message: string) => {
      const reading = readTime(message, now, "Asia/Jerusalem");
      return reading?.kind === "instant" ? reading.text : reading?.kind;
    };
    expect(textOf("buy 3 milk tomorrow at 9am")).toBe("buy 3 milk");
    expect(textOf("room 12 tomorrow at 9am")).toBe("room 12");
    expect(textOf("מחר ב-10 להזמין שולחן ל-4 אנשים")).toBe("להזמין שולחן ל-4 אנשים");
    expect(textOf('מחר ב-9 לשלם 300 ש"ח')).toBe('לשלם 300 ש"ח');
    expect(textOf("remind me tomorrow at 9am 3")).toBe("unclear");
    expect(textOf("מחר ב1930 לשלם")).toBe("unclear");
  });
});

describe("the scanner knows every word the grammar knows", () => {
  /** Whether unreadTimeWords flags the whole of `word` where it stands in `text`. */
  const flags = (text: string, word: string) => {
    const normalized = normalizeText(text).text;
    const at = normalized.lastIndexOf(word);
    return unreadTimeWords(normalized).some(({ start, end }) => start <= at && end >= at + word.length);
  };
  const cases: [table: string, words: Iterable<string>, context: (word: string) => string][] = [
    ["EN_MONTHS", EN_MONTHS.keys(), (w) => `call mom ${w} 5`],
    ["HE_MONTHS", HE_MONTHS.keys(), (w) => `להתקשר 5 ב${w}`],
    ["EN_WEEKDAYS", EN_WEEKDAYS, (w) => `call mom ${w}`],
    ["HE_WEEKDAYS", HE_WEEKDAYS, (w) => `להתקשר ביום ${w}`],
    [
      "weekday abbreviations",
      [...EN_WEEKDAY_ABBREVIATIONS, ...EN_RARE_WEEKDAY_ABBREVIATIONS],
      (w) => `call ${w}.`,
    ],
    ["DAY_WORDS", DAY_WORDS.keys(), (w) => `call mom ${w} please`],
    ["HE_HOURS", HE_HOURS.keys(), (w) => `להתקשר ב${w}`],
    ["EN_HOUR_WORDS", EN_HOUR_WORDS.keys(), (w) => `call mom at ${w}`],
    ["ZONE_ABBREVIATIONS", ZONE_ABBREVIATIONS, (w) => `call mom 9am ${w}`],
    ["EN_ZONE_PLACES", EN_ZONE_PLACES, (w) => `call mom at 9 ${w} time`],
    ["HE_ZONE_PLACES", HE_ZONE_PLACES, (w) => `להתקשר ב-9 שעון ${w}`],
    [
      "EN_COUNTS",
      [...EN_COUNTS.keys()].filter((w) => w !== "a" && w !== "an"),
      (w) => `call mom in ${w} minutes`,
    ],
    ["HE_NUMBERS", HE_NUMBERS.keys(), (w) => `להתקשר בעוד ${w} דקות`],
  ];
  it.each(cases)("flags every word of %s", (_table, tableWords, context) => {
    const missed = [...tableWords].filter((w) => !flags(context(w), w.replace(/-/gu, "-")));
    expect(missed).toEqual([]);
  });
});
