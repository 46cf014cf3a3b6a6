import { randomUUID } from "node:crypto";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type pg from "pg";
import type { AppConfig } from "../config/env.js";
import { TurnBufferedSaver } from "../db/TurnBufferedSaver.js";
import { PgConversationStore } from "../db/repositories/ConversationStore.js";
import { PgUserRepository } from "../db/repositories/UserRepository.js";
import { createLLMService, type LLMService } from "../services/llm/index.js";
import { createDatabaseCapability } from "../services/database/index.js";
import { MemoryService } from "../services/memory/index.js";
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
}

/** Composes Memo: storage, memory, the LLM (or none), the capability registry, the graph and its runtime. */
export function createMemoRuntime(options: MemoRuntimeOptions) {
  const { config, pool, checkpointer, logger } = options;
  const clock = options.clock ?? Date.now;
  const newId = options.newId ?? randomUUID;
  const users = new PgUserRepository(pool);
  const memory = new MemoryService(new PgConversationStore(pool), { clock, logger });
  const llm = options.llm !== undefined ? options.llm : createLLMService(config, logger);
  const capabilities = createCoreCapabilities().register(createDatabaseCapability(pool));
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
  return { runtime, graph, memory, users, llm, capabilities, clock };
}

export type Memo = ReturnType<typeof createMemoRuntime>;
