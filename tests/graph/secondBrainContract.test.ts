// The second brain's contract at the one place its types are erased: an operation whose arguments
// do not satisfy it fails cleanly, and every plan action it declares reaches its resolver.
import { afterEach, describe, expect, it } from "vitest";
import { actionNames } from "../../src/contracts/contract.js";
import { secondBrainContract } from "../../src/contracts/secondBrain.js";
import type { CapabilityRegistry } from "../../src/graph/capabilities/registry.js";
import { t } from "../../src/messages/index.js";
import { PLANNER_SYSTEM_PROMPT } from "../../src/prompts/plannerPrompt.js";
import { SECOND_BRAIN_SYSTEM_PROMPT } from "../../src/prompts/secondBrainPrompt.js";
import type { MemoState } from "../../src/types/state.js";
import { captureLogs } from "../support/logs.js";
import { createHarness, PHONE, step, type Harness } from "../support/memoHarness.js";

let h: Harness;
afterEach(async () => h?.close());

async function harnessWithRegistry(): Promise<{ registry: CapabilityRegistry }> {
  let registry: CapabilityRegistry | undefined;
  h = await createHarness({ llm: "none", capabilities: (r) => (registry = r) });
  await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
  return { registry: registry! };
}

async function notes(): Promise<string[]> {
  const { rows } = await h.db.pool.query<{ content: string }>(
    "SELECT content FROM notes WHERE user_phone = $1 ORDER BY seq",
    [PHONE],
  );
  return rows.map((r) => r.content);
}

describe("the second brain's contract", () => {
  it("refuses an operation whose arguments do not satisfy it: logged, the generic failure, nothing written", async () => {
    const { registry } = await harnessWithRegistry();
    const { logger, lines } = captureLogs();
    const executor = registry.executorFor("second-brain")!;
    const context = (n: number) => ({
      state: {
        traceId: `turn-${n}`,
        user: { timezone: "Asia/Jerusalem" },
        input: { message: "note: the gate code is 4521" },
      } as unknown as MemoState,
      llm: null,
      logger,
      now: h.clock.now(),
      language: "en" as const,
      phone: PHONE,
      answers: [],
      dependencies: [],
      operationId: `turn-${n}:s1`,
      step: step("s1", "second-brain", "store_note"),
    });

    // tags must be a list of words: one string is a defect of the code that built the step.
    const outcome = await executor.execute(
      "notes.store",
      { content: "the gate code is 4521", tags: "gate" },
      context(1),
    );
    expect(outcome).toEqual({
      success: false,
      errorCode: "INVALID_OPERATION",
      error: t("en", "internalError"),
    });
    expect(lines()).toContainEqual(
      expect.objectContaining({ event: "INVALID_OPERATION", functionName: "notes.store", stepId: "s1" }),
    );
    // An operation the contract does not declare is refused the same way.
    expect((await executor.execute("notes.pin", { noteId: "n1" }, context(2))).errorCode).toBe(
      "INVALID_OPERATION",
    );
    expect(await notes()).toEqual([]);

    // The same step with arguments as the contract says runs (the resolver's own fields dropped).
    const stored = await executor.execute(
      "notes.store",
      { operation: "store", content: "the gate code is 4521", tags: ["gate"] },
      context(3),
    );
    expect(stored.success).toBe(true);
    expect(await notes()).toEqual(["the gate code is 4521"]);
  });

  it("routes every plan action it declares to its resolver; the planner and resolver prompts name each", async () => {
    const { registry } = await harnessWithRegistry();
    for (const action of actionNames(secondBrainContract, "notes")) {
      expect(registry.resolverFor(step("s1", "second-brain", action))?.name).toBe("SecondBrainResolver");
      expect(PLANNER_SYSTEM_PROMPT).toContain(`"${action}"`);
    }
    for (const action of actionNames(secondBrainContract, "memory")) {
      expect(registry.resolverFor(step("s1", "second-brain", action))?.name).toBe("MemoryCommandResolver");
      expect(PLANNER_SYSTEM_PROMPT).toContain(`"${action}"`);
    }
    for (const operation of ["store", "search", "summarize", "getAll", "update", "delete"])
      expect(SECOND_BRAIN_SYSTEM_PROMPT).toContain(`\n- ${operation}: `);
  });
});
