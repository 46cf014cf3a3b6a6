/**
 * What the long-memory evaluation measures, as pure functions: recall@k of the expected extraction
 * items, whether an abstention question found nothing relevant, whether a model's reply holds an
 * accepted answer or says Memo does not know, and the per-category and per-language tables.
 */
import { normalizeForMatch } from "../../src/utils/fuzzy.js";
import { QUESTION_CATEGORIES, type Question, type QuestionCategory } from "./dataset.js";

/** The fraction of `expected` among the first `k` of `ranked` (1 when nothing is expected). */
export function recallAtK(expected: readonly string[], ranked: readonly string[], k: number): number {
  if (expected.length === 0) return 1;
  const top = new Set(ranked.slice(0, k));
  return expected.filter((key) => top.has(key)).length / expected.length;
}

/**
 * Text as answers are compared: lower case, no niqqud or accents, Hebrew final letters folded,
 * punctuation as spaces (`normalizeForMatch`, as fuzzy matching and note search read text), and
 * separators inside numbers dropped, so "1,200" and "1200" are one answer ("1:58" is "158").
 */
function normalizeAnswer(text: string): string {
  return normalizeForMatch(text.replace(/(\d)[,.:/](?=\d)/g, "$1"));
}

/**
 * Whether the reply holds one of the accepted answers, each found where a word starts ("struggl"
 * finds "struggling", "5" does not find "15").
 */
export function holdsAnswer(reply: string, accepted: readonly string[]): boolean {
  const text = ` ${normalizeAnswer(reply)} `;
  return accepted.some((answer) => text.includes(` ${normalizeAnswer(answer)}`));
}

/**
 * How Memo says it does not know: its own sentences (src/messages/notes.ts "notes.recalledNone":
 * "I don't remember you telling me anything about that." / "אני לא זוכר שסיפרת לי משהו על זה.",
 * "notes.memoriesNone", "notes.notFound…"), and the ways a model writing its reply says it was
 * never told. Compared normalized, as whole words.
 */
const DOES_NOT_KNOW = [
  // English.
  ...["don't know", "do not know", "don't have", "do not have", "don't remember", "do not remember"],
  ...["couldn't find", "could not find", "can't find", "didn't find", "no record", "not sure"],
  ...["haven't told", "have not told", "never told", "didn't tell", "did not tell", "didn't mention"],
  ...["haven't mentioned", "never mentioned", "no information", "nothing about", "not something i know"],
  // Hebrew.
  ...["לא יודע", "לא יודעת", "אין לי", "לא זוכר", "לא זוכרת", "לא מצאתי", "לא סיפרת", "לא אמרת"],
  ...["לא ציינת", "לא הזכרת", "אין לי מידע", "לא שמור", "לא רשום", "לא ידוע"],
].map(normalizeAnswer);

/** Whether a reply says Memo does not know (an abstention). */
export function saysDoesNotKnow(reply: string): boolean {
  const text = ` ${normalizeAnswer(reply)} `;
  return DOES_NOT_KNOW.some((phrase) => text.includes(` ${phrase} `));
}

/** One question's outcome. `score` is 0..1: recall@k, or 1/0 for a right/wrong answer or abstention. */
export interface QuestionResult {
  question: Question;
  score: number;
  /** The keys retrieved in rank order (scripted mode), or the reply (model mode). */
  detail: string;
}

export interface ScoreRow {
  /** "knowledge_update" … "abstention", or "all". */
  category: QuestionCategory | "all";
  count: number;
  /** Mean score over all questions, English ones and Hebrew ones (null when there are none). */
  all: number | null;
  en: number | null;
  he: number | null;
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The mean score per category (in the dataset's order) and overall, each also per language. */
export function scoreTable(results: readonly QuestionResult[]): ScoreRow[] {
  const row = (category: QuestionCategory | "all", of: readonly QuestionResult[]): ScoreRow => ({
    category,
    count: of.length,
    all: mean(of.map((r) => r.score)),
    en: mean(of.filter((r) => r.question.language === "en").map((r) => r.score)),
    he: mean(of.filter((r) => r.question.language === "he").map((r) => r.score)),
  });
  return [
    ...QUESTION_CATEGORIES.map((category) =>
      row(
        category,
        results.filter((r) => r.question.category === category),
      ),
    ).filter((r) => r.count > 0),
    row("all", results),
  ];
}

/** The table as aligned text lines, headed by what the score is. */
export function formatTable(title: string, rows: readonly ScoreRow[]): string[] {
  const cell = (value: number | null) => (value === null ? "—" : value.toFixed(2));
  const lines = [
    title,
    `${"category".padEnd(18)}${"n".padStart(5)}${"all".padStart(7)}${"en".padStart(7)}${"he".padStart(7)}`,
  ];
  for (const r of rows) {
    lines.push(
      `${r.category.padEnd(18)}${String(r.count).padStart(5)}${cell(r.all).padStart(7)}${cell(r.en).padStart(7)}${cell(r.he).padStart(7)}`,
    );
  }
  return lines;
}
