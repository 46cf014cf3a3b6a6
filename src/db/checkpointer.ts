import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";
import type { AppConfig } from "../config/env.js";

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
