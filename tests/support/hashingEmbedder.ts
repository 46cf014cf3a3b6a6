import { normalizeForMatch } from "../../src/utils/fuzzy.js";
import { EMBEDDING_DIMENSIONS, type Embedder } from "../../src/services/secondBrain/embeddings.js";

/** Weight of a whole word among a text's features. */
const WORD_WEIGHT = 1;
/** Weight of each character trigram of a word (so misspelled and inflected words stay close). */
const TRIGRAM_WEIGHT = 0.4;

/** 32-bit FNV-1a over the string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A deterministic local embedder for tests and benchmarks, with no knowledge of any test set:
 * the normalized text's words and the character trigrams of each word (padded with spaces) are
 * hashed into EMBEDDING_DIMENSIONS signed buckets (the "hashing trick"), and the vector is
 * L2-normalized. Similar spellings land close; synonyms and translations do not, as a real
 * model's would. An empty text embeds as the zero vector.
 */
export function hashingEmbed(text: string): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  const add = (feature: string, weight: number) => {
    const hash = fnv1a(feature);
    // The low bits pick the bucket, a high bit the sign, so collisions cancel out on average.
    vector[hash % EMBEDDING_DIMENSIONS]! += hash & 0x80000000 ? -weight : weight;
  };
  const normalized = normalizeForMatch(text);
  for (const word of normalized === "" ? [] : normalized.split(" ")) {
    add(`w:${word}`, WORD_WEIGHT);
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
  }
  const length = Math.hypot(...vector);
  return length === 0 ? vector : vector.map((x) => x / length);
}

export interface HashingEmbedderOptions {
  /** The model name stored with its vectors (default: "test-hashing-v1"). */
  model?: string;
  /** Cosine similarity under which a note is not a semantic match (default: 0.2). */
  minSimilarity?: number;
}

/** The hashing embedder as an Embedder, counting its calls and the texts it was given. */
export function createHashingEmbedder(
  options: HashingEmbedderOptions = {},
): Embedder & { calls: number; texts: number } {
  const embedder = {
    model: options.model ?? "test-hashing-v1",
    minSimilarity: options.minSimilarity ?? 0.2,
    calls: 0,
    texts: 0,
    embed(texts: string[]): Promise<number[][]> {
      embedder.calls += 1;
      embedder.texts += texts.length;
      return Promise.resolve(texts.map(hashingEmbed));
    },
  };
  return embedder;
}
