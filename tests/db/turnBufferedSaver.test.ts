// The turn buffer in front of PostgresSaver: what it keeps in memory until the turn's checkpoint is stored.
import { describe, expect, it } from "vitest";
import { createCheckpointer } from "../../src/db/checkpointer.js";
import { TurnBufferedSaver } from "../../src/db/turnBufferedSaver.js";
import { pgliteBackend } from "../support/db.js";

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
});
