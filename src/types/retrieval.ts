/** Spec 004's weights of the five retrieval strategies (MEMORY_RETRIEVAL_WEIGHTS). */
export interface RetrievalWeights {
  semantic: number;
  keyword: number;
  recency: number;
  importance: number;
  access: number;
}
