/**
 * Scripted mode of the long-memory evaluation: no model. Each history's fixed extraction is stored
 * in a fresh memory through Memo's own storage, and for each question Memo's recall ranks the
 * stored items; the evaluation scores what came back. What it proves is the harness and the
 * retrieval (ranking, temporal validity, people links), not extraction: the extractions are
 * committed fixtures, written apart from the questions.
 */
import type { Extraction, History, MemoryDataset, Question } from "./dataset.js";
import { localInstant } from "./dataset.js";
import { recallAtK, type QuestionResult } from "./metrics.js";

/** One item recall returned, named by its extraction key. */
interface RecalledItem {
  key: string;
  kind: ItemKind;
  /** The product's ranking score. */
  score: number;
  /** Whether the product counts it as relevant to the question (its relevance threshold). */
  relevant: boolean;
}

/** One history's memory, loaded and ready to be asked. */
export interface LoadedMemory {
  /** What recall ranks for `question` asked at `askedAt` (epoch ms), best first. */
  recall(question: string, askedAt: number): Promise<RecalledItem[]>;
  close(): Promise<void>;
}

export const ITEM_KINDS = ["fact", "episode", "chunk"] as const;
/** What kind of memory an extraction item is. */
export type ItemKind = (typeof ITEM_KINDS)[number];

/** Memo's long-term memory as the evaluation drives it. */
export interface MemoryUnderTest {
  /** The kinds of item it stores and recalls: a question needing another kind is set aside. */
  kinds: ReadonlySet<ItemKind>;
  /** A fresh memory (its own database) of a user in the history's zone, holding the extraction's items. */
  load(history: History, extraction: Extraction): Promise<LoadedMemory>;
}

/** The kind of each of an extraction's keys. @internal */
export function kindsOf(extraction: Extraction): Map<string, ItemKind> {
  return new Map<string, ItemKind>([
    ...extraction.facts.map((f) => [f.key, "fact"] as const),
    ...extraction.episodes.map((e) => [e.key, "episode"] as const),
    ...extraction.chunks.map((c) => [c.key, "chunk"] as const),
  ]);
}

/** One scored question of scripted mode. */
interface RecallResult extends QuestionResult {
  /** What recall returned, best first (at most `k` shown). */
  recalled: RecalledItem[];
}

/**
 * A question's score: recall@k of its expected keys among the first k items recall returned, of
 * any kind (one ranking across facts, episodes and chunks), or for an abstention 1 when nothing
 * recall returned counts as relevant, 0 otherwise.
 * @internal
 */
export function scoreRecall(question: Question, recalled: readonly RecalledItem[], k: number): number {
  if (question.expect.abstain) return recalled.some((item) => item.relevant) ? 0 : 1;
  return recallAtK(
    question.expect.keys,
    recalled.map((item) => item.key),
    k,
  );
}

export interface ScriptedRun {
  results: RecallResult[];
  /** Questions set aside: they need an item of a kind the memory does not store. */
  setAside: Question[];
}

/**
 * Runs the dataset's questions against the memory, one fresh memory per history, in the order
 * they are listed (recall records its use, as it does for a user). Questions keyed to an item of a
 * kind the memory does not store are set aside, not scored.
 */
export async function runScripted(
  dataset: MemoryDataset,
  memory: MemoryUnderTest,
  options: { k: number; log?: (line: string) => void },
): Promise<ScriptedRun> {
  const results: RecallResult[] = [];
  const setAside: Question[] = [];
  for (const { history, extraction } of dataset.cases) {
    const kinds = kindsOf(extraction);
    const questions = dataset.questions.filter((q) => {
      if (q.history !== history.id) return false;
      if (q.expect.keys.every((key) => memory.kinds.has(kinds.get(key)!))) return true;
      setAside.push(q);
      return false;
    });
    if (questions.length === 0) continue;
    options.log?.(`${history.id}: ${questions.length} questions`);
    const loaded = await memory.load(history, extraction);
    try {
      for (const question of questions) {
        const recalled = await loaded.recall(
          question.question,
          localInstant(question.askedAt, history.timeZone),
        );
        const shown = recalled.slice(0, options.k);
        results.push({
          question,
          score: scoreRecall(question, recalled, options.k),
          recalled: shown,
          detail: shown
            .map((item) => `${item.key}${item.relevant ? "" : "?"}:${item.score.toFixed(2)}`)
            .join(" "),
        });
      }
    } finally {
      await loaded.close();
    }
  }
  return { results, setAside };
}
