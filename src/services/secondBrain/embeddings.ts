import { OpenAIEmbeddings } from "@langchain/openai";
import type { EmbeddingSettings } from "../../config/env.js";
import { MemoError } from "../../utils/errors.js";

/** Length of every note embedding: the `vector(1536)` column, text-embedding-3-small's own size. @internal */
export const EMBEDDING_DIMENSIONS = 1536;

/** Turns texts into vectors of EMBEDDING_DIMENSIONS numbers, one per text, in order. */
export interface Embedder {
  /** Stored with each vector: vectors of different models are never compared. */
  readonly model: string;
  /**
   * Cosine similarity under which a note is not counted as a semantic match of a query (default:
   * DEFAULT_MIN_SIMILARITY). Every model has its own scale: unrelated texts score around 0.1 with
   * OpenAI's text-embedding-3 models.
   */
  readonly minSimilarity?: number;
  embed(texts: string[]): Promise<number[][]>;
}

/** Cosine similarity under which a vector hit is noise, for an embedder that does not say (default: 0.3). */
export const DEFAULT_MIN_SIMILARITY = 0.3;

/** An embedder's answer did not have one finite vector of EMBEDDING_DIMENSIONS per text. @internal */
export class EmbeddingShapeError extends MemoError {}

export interface OpenAIEmbedderOptions {
  /** Milliseconds one request may take before it fails (default: 10,000). */
  timeoutMs?: number;
  /** Retries of a failed request, with backoff (default: 2). */
  maxRetries?: number;
  /** Texts per request (default: 256; OpenAI accepts up to 2,048). */
  batchSize?: number;
  /** Cosine similarity under which a note is not a semantic match (default: 0.3). */
  minSimilarity?: number;
}

/** Throws unless `vectors` holds one finite vector of EMBEDDING_DIMENSIONS numbers per text. */
export function checkEmbeddings(model: string, texts: readonly string[], vectors: unknown): number[][] {
  if (!Array.isArray(vectors) || vectors.length !== texts.length) {
    throw new EmbeddingShapeError(`embedding model ${model} returned a wrong number of vectors`, {
      capability: "notes",
      expected: texts.length,
      got: Array.isArray(vectors) ? vectors.length : typeof vectors,
    });
  }
  for (const vector of vectors as unknown[]) {
    if (
      !Array.isArray(vector) ||
      vector.length !== EMBEDDING_DIMENSIONS ||
      !vector.every((x) => typeof x === "number" && Number.isFinite(x))
    ) {
      throw new EmbeddingShapeError(
        `embedding model ${model} returned a vector that is not ${EMBEDDING_DIMENSIONS} finite numbers`,
        { capability: "notes", length: Array.isArray(vector) ? vector.length : typeof vector },
      );
    }
  }
  return vectors as number[][];
}

/**
 * The configured OpenAI (or OpenAI-compatible, through `baseUrl`) embedding model, through
 * `OpenAIEmbeddings` from @langchain/openai. text-embedding-3 models are asked for
 * EMBEDDING_DIMENSIONS dimensions; any model must answer with that many.
 */
export function createOpenAIEmbedder(
  settings: EmbeddingSettings,
  options: OpenAIEmbedderOptions = {},
): Embedder {
  const client = new OpenAIEmbeddings({
    model: settings.model,
    apiKey: settings.apiKey,
    ...(settings.model.startsWith("text-embedding-3") && { dimensions: EMBEDDING_DIMENSIONS }),
    timeout: options.timeoutMs ?? 10_000,
    maxRetries: options.maxRetries ?? 2,
    batchSize: options.batchSize ?? 256,
    // Notes are short; the request stays as written (newlines included) for every model.
    stripNewLines: false,
    ...(settings.baseUrl && { configuration: { baseURL: settings.baseUrl } }),
  });
  return {
    model: settings.model,
    minSimilarity: options.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
    async embed(texts) {
      if (texts.length === 0) return [];
      return checkEmbeddings(settings.model, texts, await client.embedDocuments(texts));
    },
  };
}

/** The text a note is embedded from: its content, then its category and tags on their own lines. */
export function noteEmbeddingText(note: {
  content: string;
  category: string | null;
  tags: readonly string[];
}): string {
  return [note.content, note.category ?? "", note.tags.join(", ")].filter((part) => part !== "").join("\n");
}
