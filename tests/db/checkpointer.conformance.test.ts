// LangGraph's official checkpointer conformance suite, run against the checkpointer Memo ships
// (PostgresSaver on our pool) on every storage backend of this run.
import { validate } from "@langchain/langgraph-checkpoint-validation";
import {
  PostgresSaver as PostgresSaverClass,
  type PostgresSaver,
} from "@langchain/langgraph-checkpoint-postgres";
import { expect, it } from "vitest";
import { createCheckpointer } from "../../src/db/checkpointer.js";
import { backends, type TestDatabase } from "../support/db.js";

it("validates the checkpointer the app creates", async () => {
  const db = await backends[0]!.create({ migrated: false });
  try {
    expect(await createCheckpointer("postgres", db.pool)).toBeInstanceOf(PostgresSaverClass);
  } finally {
    await db.close();
  }
});

for (const backend of backends) {
  const open = new Map<PostgresSaver, TestDatabase>();
  validate<PostgresSaver>({
    checkpointerName: `PostgresSaver on ${backend.name}`,
    async createCheckpointer() {
      const db = await backend.create({ migrated: false });
      const saver = (await createCheckpointer("postgres", db.pool)) as PostgresSaver;
      open.set(saver, db);
      return saver;
    },
    async destroyCheckpointer(saver) {
      await open.get(saver)?.close();
      open.delete(saver);
    },
  });
}
