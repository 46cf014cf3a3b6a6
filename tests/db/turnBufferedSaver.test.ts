// The turn buffer in front of PostgresSaver: what it keeps in memory until the turn's checkpoint is stored.
import { describe, expect, it } from "vitest";
import { createCheckpointer } from "../../src/db/checkpointer.js";
import { TurnBufferedSaver } from "../../src/db/turnBufferedSaver.js";
import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { pgliteBackend } from "../support/db.js";
import { countQueries } from "../support/queryCounter.js";

describe("TurnBufferedSaver", () => {
  it("keeps writes of a checkpoint it has not stored yet in the buffer, not on disk", async () => {
    const db = await pgliteBackend.create({ migrated: false });
    try {
      const durable = await createCheckpointer("postgres", db.pool);
      const saver = new TurnBufferedSaver(durable);
      const config = {
        configurable: { thread_id: "972501112233", checkpoint_ns: "", checkpoint_id: "1ef-new" },
      };
      await saver.putWrites(config, [["__interrupt__", [{ value: "q" }]]], "task-1");
      const { rows } = await db.pool.query<{ n: string }>("SELECT count(*) AS n FROM checkpoint_writes");
      expect(Number(rows[0]!.n)).toBe(0);
    } finally {
      await db.close();
    }
  });

  it("answers the graph's read by id of the checkpoint read at the turn's start without a query, until a write changes it", async () => {
    const db = await pgliteBackend.create({ migrated: false });
    try {
      const durable = await createCheckpointer("postgres", db.pool);
      const thread = "972501112244";
      const stored = await durable.put(
        { configurable: { thread_id: thread, checkpoint_ns: "" } },
        { ...emptyCheckpoint(), id: "1ef-stored" },
        { source: "loop", step: 1, parents: {} },
        {},
      );
      const saver = new TurnBufferedSaver(durable);
      const read = await saver.readLatest(thread, true);
      expect(read?.config.configurable?.checkpoint_id).toBe("1ef-stored");
      const counter = countQueries();
      try {
        // LangGraph's load: the latest (primed), then the same checkpoint by id (its delta walk).
        await saver.getTuple({ configurable: { thread_id: thread } });
        expect(await saver.getTuple(stored)).toBe(read);
        expect(counter.counts.queries).toBe(0);
        // An answer written against it (a question asked again in the same step) goes to disk…
        await saver.putWrites(stored, [["__interrupt__", [{ value: "again" }]]], "task-2");
        const before = counter.counts.queries;
        // …and the next read by id sees it.
        const again = await saver.getTuple(stored);
        expect(counter.counts.queries).toBeGreaterThan(before);
        expect(again?.pendingWrites?.some(([, channel]) => channel === "__interrupt__")).toBe(true);
      } finally {
        counter.restore();
      }
    } finally {
      await db.close();
    }
  });
});
