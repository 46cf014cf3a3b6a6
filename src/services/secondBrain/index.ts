export {
  SecondBrainService,
  NoteValidationError,
  MAX_NOTE_LENGTH,
  RRF_K,
  SEARCH_WEIGHTS,
  type MatchSource,
  type NoteSearchHit,
  type SecondBrainServiceOptions,
} from "./secondBrainService.js";
export {
  EmbeddingBackfill,
  type BackfillReport,
  type EmbeddingBackfillOptions,
} from "./embeddingBackfill.js";
export {
  DEFAULT_MIN_SIMILARITY,
  EMBEDDING_DIMENSIONS,
  EmbeddingShapeError,
  createOpenAIEmbedder,
  noteEmbeddingText,
  type Embedder,
  type OpenAIEmbedderOptions,
} from "./embeddings.js";
export { noteSearchText, queryTerms, toTsQuery, wordForms, type QueryTerms } from "../../utils/searchText.js";
export {
  PgNoteRepository,
  type NewNote,
  type Note,
  type NotePatch,
  type NoteRepository,
} from "../../db/repositories/noteRepository.js";
