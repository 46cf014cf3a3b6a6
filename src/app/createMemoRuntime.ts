import { randomUUID } from "node:crypto";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type pg from "pg";
import type { AppConfig } from "../config/env.js";
import { checkpointThreads, turnBufferedCheckpointer } from "../db/checkpointer.js";
import { databaseStorage, documentStorage, memoryStorage, undoStorage } from "../db/storage.js";
import { DocumentService } from "../services/documents/documentService.js";
import { PgCalendarEventRepository } from "../db/repositories/calendarEventRepository.js";
import { PgContactRepository } from "../db/repositories/contactRepository.js";
import { ContactDirectoryService } from "../services/contacts/contactDirectory.js";
import { PgConversationHistory } from "../db/repositories/conversationHistory.js";
import { PgConversationStore } from "../db/repositories/conversationStore.js";
import { PgLlmUsageRepository } from "../db/repositories/llmUsageRepository.js";
import { PgNoteRepository } from "../db/repositories/noteRepository.js";
import { PgOperationLedger } from "../db/repositories/operationLedger.js";
import { PgUndoRepository } from "../db/repositories/undoRepository.js";
import { PgUserRepository } from "../db/repositories/userRepository.js";
import { createLLMService } from "../services/llm/index.js";
import { type LLMService } from "../types/llm.js";
import { LLMBudget } from "../services/llm/llmBudget.js";
import { ObservedLLMService, type LLMObserver } from "../services/llm/observedLlmService.js";
import { createCalendarProviders } from "../services/calendar/calendarProviderSelector.js";
import { createCalendarCapability } from "../graph/capabilities/calendar/calendarCapability.js";
import { createTasksCapability } from "../graph/capabilities/tasks/tasksCapability.js";
import { createGmailCapability } from "../graph/capabilities/gmail/gmailCapability.js";
import { MemoryService } from "../services/memory/index.js";
import { LongTermMemory } from "../services/memory/longTermMemory.js";
import { createSecondBrainCapability } from "../graph/capabilities/secondBrain/secondBrainCapability.js";
import type { CapabilityRegistry } from "../graph/capabilities/registry.js";
import { UndoService } from "../services/undo/undoJournal.js";
import { type ExternalRestorer } from "../types/capability.js";
import { createOpenAIEmbedder, type Embedder } from "../services/secondBrain/embeddings.js";
import { SecondBrainService } from "../services/secondBrain/secondBrainService.js";
import type { GoogleAccounts, GoogleConnector } from "../services/google/types.js";
import type { Logger } from "../utils/logger.js";
import { createCoreCapabilities } from "../graph/capabilities/core/coreCapabilities.js";
import { buildMemoGraph } from "../graph/memoGraph.js";
import type { MemoGraphDeps } from "../graph/deps.js";
import { MemoRuntime } from "../graph/memoRuntime.js";
import type { Tracing } from "../services/tracing/tracing.js";
import type { RuntimeMetrics } from "../services/metrics/metrics.js";
import { DocumentOffers } from "../services/documents/offers.js";
import { SavedTexts } from "../services/documents/savedText.js";

export interface MemoRuntimeOptions {
  config: AppConfig;
  pool: pg.Pool;
  checkpointer: BaseCheckpointSaver;
  logger: Logger;
  /** Epoch milliseconds (default: Date.now). */
  clock?: () => number;
  /** HITL question ids (default: crypto.randomUUID). */
  newId?: () => string;
  /** The LLM to use instead of the configured one (benchmarks, tests). */
  llm?: LLMService | null;
  /** Users' Google connections: "connect Google" in chat, Google Calendar and Gmail (default: none, the built-in calendar serves everyone). */
  google?: GoogleAccounts & GoogleConnector;
  /** The user's private iCalendar feed link (default: none). */
  calendarFeedLink?: (phone: string) => string;
  /** Note embeddings instead of the configured model (tests: a local one; null: words only). */
  embedder?: Embedder | null;
  /** "rules": summaries and remembered facts without the LLM even when one is configured (default: MEMORY_MODE). */
  memoryMode?: "llm" | "rules";
  /** Told of every LLM call (metrics, the cost ledger) (default: none). */
  llmObservers?: LLMObserver[];
  /** LangSmith tracing of every turn (default: none). */
  tracing?: Tracing | null;
  /** Counts turns and questions (default: none). */
  metrics?: RuntimeMetrics;
  /** The LangSmith thread of a phone's turns (default: the user's own; the replay gives its own). */
  traceThreadId?: (phone: string) => string;
}

/**
 * Composes Memo's services: storage, memory, the LLM (or none), the capability registry, and the
 * graph's dependencies (`graphDeps`). Without a checkpointer (the dev server's graph) the users
 * repository asks no checkpoint table.
 */
export function createMemoServices(
  options: Omit<MemoRuntimeOptions, "checkpointer" | "tracing" | "metrics" | "traceThreadId"> & {
    checkpointer?: BaseCheckpointSaver;
  },
) {
  const { config, pool, checkpointer, logger } = options;
  const clock = options.clock ?? Date.now;
  const newId = options.newId ?? randomUUID;
  // The inbound path's user update also says whether the user's thread has checkpoints (PostgresSaver's).
  const users = new PgUserRepository(pool, {
    checkpoints: checkpointer ? checkpointThreads(checkpointer, pool) : null,
  });
  // The window (short-term) in front of its table; every message also joins the long-term history,
  // written with the window (proactive messages, appended outside a turn, through `history`).
  const memory = new MemoryService(new PgConversationStore(pool, { history: true }), {
    clock,
    logger,
    history: new PgConversationHistory(pool),
  });
  const configured = options.llm !== undefined ? options.llm : createLLMService(config, logger);
  // Each user's LLM spend per day, and the gate that stops their calls once it reaches the budget.
  const budget = new LLMBudget({
    usage: new PgLlmUsageRepository(pool),
    logger,
    clock,
    dailyUsd: config.llm.dailyBudgetUsd,
    planTiers: config.planTiers,
  });
  // Every call is seen by the observers (metrics, the cost ledger) whichever node makes it.
  const llm =
    configured &&
    new ObservedLLMService(configured, [budget.observer, ...(options.llmObservers ?? [])], budget.gate);
  const embedder =
    options.embedder !== undefined
      ? options.embedder
      : config.embeddings
        ? createOpenAIEmbedder(config.embeddings)
        : null;
  const longTerm = new LongTermMemory({
    storage: memoryStorage(pool),
    llm,
    memory,
    logger,
    clock,
    mode: options.memoryMode ?? config.memoryMode,
    weights: config.retrievalWeights,
    embedder,
  });
  const notes = new SecondBrainService({ notes: new PgNoteRepository(pool), embedder, logger, clock });
  // Documents are notes too (a head note and chunks): stored, their chunks wait for embeddings.
  const documents = new DocumentService(documentStorage(pool), () => notes.backfill.kick());
  const google = options.google;
  // Each user's calendar: Google Calendar once connected, the built-in one (Postgres) otherwise.
  const calendars = createCalendarProviders({
    events: new PgCalendarEventRepository(pool),
    google: google ?? null,
    logger,
  });
  // "undo" / "בטל": every change is journaled with what it touched, for UNDO_WINDOW_MINUTES.
  const undoWindowMs = config.undoWindowMinutes * 60_000;
  // Each change's outcome, so a turn re-run after a crash reports it instead of acting twice.
  const ledger = new PgOperationLedger(pool);
  const undoSettings = { journal: new PgUndoRepository(pool), windowMs: undoWindowMs };
  const undo: UndoService = new UndoService({
    storage: undoStorage(pool),
    windowMs: undoWindowMs,
    logger,
    // The capability that journaled the change puts it back (the calendar, for Google events).
    external: async (phone, change): Promise<boolean> => {
      try {
        const restore: ExternalRestorer | undefined = capabilities.undoExternalFor("calendar");
        return restore ? await restore(phone, change) : false;
      } catch (error) {
        logger.warn(
          { event: "UNDO_EXTERNAL_FAILED", err: String(error) },
          "could not restore a Google event",
        );
        return false;
      }
    },
  });
  const capabilities: CapabilityRegistry = createCoreCapabilities({
    ...(google ? { google } : {}),
    ...(options.calendarFeedLink ? { calendarFeedLink: options.calendarFeedLink } : {}),
    undo,
    withModel: !!llm,
    planTiers: config.planTiers,
  })
    .register(createTasksCapability(databaseStorage(pool), undoWindowMs))
    .register(
      createSecondBrainCapability({
        notes,
        documents,
        memory: longTerm,
        ledger,
        logger,
        undo: undoSettings,
      }),
    )
    .register(
      createCalendarCapability({
        providers: calendars,
        logger,
        ledger,
        undo: undoSettings,
        // "meeting with Dana": the address the user gave, or their own Google contact's.
        contacts: new ContactDirectoryService({
          contacts: new PgContactRepository(pool),
          google: google ?? null,
          logger,
        }),
      }),
    );
  // Gmail has no built-in stand-in: without a Google OAuth client nobody could connect it.
  if (google?.configured)
    capabilities.register(createGmailCapability({ google, ledger, logger, undo: undoSettings }));
  // What a document proposes, offered back by number (the transport's documents, "save it").
  const offers = new DocumentOffers(llm, logger, budget);
  const graphDeps: MemoGraphDeps = {
    users,
    memory,
    llm,
    capabilities,
    logger,
    clock,
    newId,
    defaultTimeZone: config.defaultTimeZone,
    fastPath: config.fastPath,
    longTerm,
    budget,
    planTiers: config.planTiers,
    undo,
    ...(google ? { google } : {}),
    // "save it" keeps a forwarded or pasted text as a document note, with its offer.
    savedTexts: new SavedTexts(documents, offers, undoSettings),
  };
  return {
    graphDeps,
    memory,
    longTerm,
    notes,
    documents,
    users,
    llm,
    budget,
    capabilities,
    calendars,
    clock,
    offers,
  };
}

/** Composes Memo: its services (createMemoServices), the graph over the checkpointer, and its runtime. */
export function createMemoRuntime(options: MemoRuntimeOptions) {
  const { pool, checkpointer, logger } = options;
  const { graphDeps, ...services } = createMemoServices(options);
  const { memory, users, clock, capabilities } = services;
  // Turns write their checkpoints durably only when they pause on a question.
  const saver = turnBufferedCheckpointer(checkpointer, pool);
  const graph = buildMemoGraph(graphDeps, saver);
  const runtime = new MemoRuntime({
    graph,
    checkpointer: saver,
    memory,
    users,
    logger,
    clock,
    newId: randomUUID,
    capabilities,
    ...(options.tracing ? { tracing: options.tracing } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.traceThreadId ? { traceThreadId: options.traceThreadId } : {}),
  });
  return { runtime, graph, ...services };
}

export type Memo = ReturnType<typeof createMemoRuntime>;
