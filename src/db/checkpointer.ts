import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";
import type { AppConfig } from "../config/env.js";
import { PgCheckpointThreads } from "./repositories/checkpointThreads.js";
import { TurnBufferedSaver } from "./turnBufferedSaver.js";

/**
 * The checkpointer that keeps paused threads (D3): LangGraph's PostgresSaver on the app's pool,
 * so a pending question survives a restart; MemorySaver when CHECKPOINTER=memory.
 * Never call `end()` on the returned saver: it would end the shared pool.
 */
export async function createCheckpointer(
  kind: AppConfig["checkpointer"],
  pool: pg.Pool,
): Promise<BaseCheckpointSaver> {
  if (kind === "memory") return new MemorySaver();
  const saver = new PostgresSaver(pool);
  // Creates or upgrades the checkpoint tables; idempotent.
  await saver.setup();
  return saver;
}

/**
 * The checkpointer turns run on: `durable` behind a TurnBufferedSaver, so only a turn that pauses
 * on a question writes; over PostgresSaver, a turn with no open question (nearly every turn) learns
 * so from one cheap look instead of the full read of the latest checkpoint.
 */
export function turnBufferedCheckpointer(durable: BaseCheckpointSaver, pool: pg.Pool): TurnBufferedSaver {
  const threads = checkpointThreads(durable, pool);
  if (!threads) return new TurnBufferedSaver(durable);
  return new TurnBufferedSaver(durable, { hasCheckpoints: (threadId) => threads.exists(threadId) });
}

/**
 * The look at which threads have checkpoints, when `durable` keeps them in tables (PostgresSaver);
 * null for MemorySaver (CHECKPOINTER=memory), which has no table to ask.
 */
export function checkpointThreads(durable: BaseCheckpointSaver, pool: pg.Pool): PgCheckpointThreads | null {
  return durable instanceof PostgresSaver ? new PgCheckpointThreads(pool) : null;
}
