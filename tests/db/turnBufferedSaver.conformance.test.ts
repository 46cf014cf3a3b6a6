// LangGraph's checkpointer conformance suite against the turn buffer Memo's graph runs on: what a
// turn writes must read back exactly as from PostgresSaver itself.
import { validate } from "@langchain/langgraph-checkpoint-validation";
import { expect, type it as vitestIt } from "vitest";
import { loadConfig } from "../../src/config/env.js";
import { createMemoRuntime } from "../../src/app/createMemoRuntime.js";
import { createLogger } from "../../src/utils/logger.js";
import { createCheckpointer } from "../../src/db/checkpointer.js";
import { TurnBufferedSaver } from "../../src/db/turnBufferedSaver.js";
import { pgliteBackend, type TestDatabase } from "../support/db.js";

/**
 * The suite's one storage-optimization check, which it itself skips for MemorySaver, MongoDB and
 * SQLite: the buffer keeps full snapshots within a turn (it is a MemorySaver), and a flush writes
 * every channel. Skipped the same way, with the reason in the test name.
 */
const NOT_APPLICABLE: Record<string, string> = {
  "should only store channel_values that have changed (based on newVersions)":
    "the turn buffer keeps full snapshots, like MemorySaver, which the suite exempts too",
};
const globals = globalThis as unknown as { it: typeof vitestIt };
const realIt = globals.it;
globals.it = new Proxy(realIt, {
  apply(target, thisArg, args: Parameters<typeof vitestIt>) {
    const [name, fn, timeout] = args;
    const reason = typeof name === "string" ? NOT_APPLICABLE[name] : undefined;
    if (reason) return target.skip(`[because ${reason}] ${name as string}`, fn, timeout);
    return Reflect.apply(target, thisArg, args) as unknown;
  },
});

realIt("validates the checkpointer the graph runs on", async () => {
  const db = await pgliteBackend.create();
  try {
    const durable = await createCheckpointer("postgres", db.pool);
    const memo = createMemoRuntime({
      config: loadConfig({}),
      pool: db.pool,
      checkpointer: durable,
      logger: createLogger("silent"),
      llm: null,
    });
    expect(memo.graph.checkpointer).toBeInstanceOf(TurnBufferedSaver);
    expect((memo.graph.checkpointer as TurnBufferedSaver).durable).toBe(durable);
  } finally {
    await db.close();
  }
});

const open = new Map<TurnBufferedSaver, TestDatabase>();
validate<TurnBufferedSaver>({
  checkpointerName: "TurnBufferedSaver over PostgresSaver on pglite",
  async createCheckpointer() {
    const db = await pgliteBackend.create({ migrated: false });
    const saver = new TurnBufferedSaver(await createCheckpointer("postgres", db.pool));
    open.set(saver, db);
    return saver;
  },
  async destroyCheckpointer(saver) {
    await open.get(saver)?.close();
    open.delete(saver);
  },
});
