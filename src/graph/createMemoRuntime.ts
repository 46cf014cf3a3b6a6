import { randomUUID } from "node:crypto";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type pg from "pg";
import type { AppConfig } from "../config/env.js";
import { TurnBufferedSaver } from "../db/TurnBufferedSaver.js";
import { PgConversationStore } from "../db/repositories/ConversationStore.js";
import { PgOperationLedger } from "../db/repositories/OperationLedger.js";
import { PgUserRepository } from "../db/repositories/UserRepository.js";
import { createLLMService, type LLMService } from "../services/llm/index.js";
import { createCalendarProviders } from "../services/calendar/CalendarProviderSelector.js";
import { createCalendarCapability } from "../services/calendar/index.js";
import { createDatabaseCapability } from "../services/database/index.js";
import { createGmailCapability } from "../services/gmail/index.js";
import { MemoryService } from "../services/memory/index.js";
import type { GoogleAccounts, GoogleConnector } from "../services/google/types.js";
import type { Logger } from "../utils/logger.js";
import { createCoreCapabilities } from "./capabilities.js";
import { buildMemoGraph } from "./index.js";
import { MemoRuntime } from "./invokeMemoGraph.js";

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
}

/** Composes Memo: storage, memory, the LLM (or none), the capability registry, the graph and its runtime. */
export function createMemoRuntime(options: MemoRuntimeOptions) {
  const { config, pool, checkpointer, logger } = options;
  const clock = options.clock ?? Date.now;
  const newId = options.newId ?? randomUUID;
  const users = new PgUserRepository(pool);
  const memory = new MemoryService(new PgConversationStore(pool), { clock, logger });
  const llm = options.llm !== undefined ? options.llm : createLLMService(config, logger);
  const google = options.google;
  // Each user's calendar: Google Calendar once connected, the built-in one (Postgres) otherwise.
  const calendars = createCalendarProviders({ pool, google: google ?? null, logger });
  const capabilities = createCoreCapabilities({
    ...(google ? { google } : {}),
    ...(options.calendarFeedLink ? { calendarFeedLink: options.calendarFeedLink } : {}),
  })
    .register(createDatabaseCapability(pool))
    .register(
      createCalendarCapability({ providers: calendars, logger, ledger: new PgOperationLedger(pool) }),
    );
  // Gmail has no built-in stand-in: without a Google OAuth client nobody could connect it.
  if (google?.configured) capabilities.register(createGmailCapability({ google, pool, logger }));
  // Turns write their checkpoints durably only when they pause on a question.
  const saver = new TurnBufferedSaver(checkpointer);
  const graph = buildMemoGraph(
    {
      users,
      memory,
      llm,
      capabilities,
      logger,
      clock,
      newId,
      defaultTimeZone: config.defaultTimeZone,
      fastPath: config.fastPath,
      ...(google ? { google } : {}),
    },
    saver,
  );
  const runtime = new MemoRuntime({
    graph,
    checkpointer: saver,
    memory,
    users,
    logger,
    clock,
    newId: randomUUID,
  });
  return { runtime, graph, memory, users, llm, capabilities, calendars, clock };
}

export type Memo = ReturnType<typeof createMemoRuntime>;
