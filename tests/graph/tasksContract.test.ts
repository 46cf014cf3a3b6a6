// The tasks capability's contract at the one place its types are erased: an operation whose
// arguments do not satisfy it fails cleanly, and every plan action it declares reaches its resolver.
import { afterEach, describe, expect, it } from "vitest";
import { actionNames } from "../../src/contracts/contract.js";
import { tasksContract } from "../../src/contracts/tasks.js";
import type { CapabilityRegistry } from "../../src/graph/capabilities/registry.js";
import { t } from "../../src/messages/index.js";
import { PLANNER_SYSTEM_PROMPT } from "../../src/prompts/plannerPrompt.js";
import type { MemoState } from "../../src/types/state.js";
import { stores } from "../support/databaseScript.js";
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

describe("the tasks contract", () => {
  it("refuses an operation whose arguments do not satisfy it: logged, the generic failure, nothing written", async () => {
    const { registry } = await harnessWithRegistry();
    const shopping = await stores(h).listRepo.create(PHONE, "seed", { name: "shopping", items: ["milk"] });
    const { logger, lines } = captureLogs();
    const executor = registry.executorFor("database")!;
    const context = {
      state: { traceId: "turn-1", user: { timezone: "Asia/Jerusalem" } } as unknown as MemoState,
      llm: null,
      logger,
      now: h.clock.now(),
      language: "en" as const,
      phone: PHONE,
      answers: [],
      dependencies: [],
      operationId: "turn-1:s1",
      step: step("s1", "database", "add_list_item"),
    };

    // items must be a list of words: one string is a defect of the code that built the step.
    const outcome = await executor.execute("lists.addItem", { listId: shopping.id, items: "eggs" }, context);
    expect(outcome).toEqual({
      success: false,
      errorCode: "INVALID_OPERATION",
      error: t("en", "internalError"),
    });
    expect(lines()).toContainEqual(
      expect.objectContaining({ event: "INVALID_OPERATION", functionName: "lists.addItem", stepId: "s1" }),
    );
    // An operation the contract does not declare is refused the same way.
    expect((await executor.execute("lists.shuffle", { listId: shopping.id }, context)).errorCode).toBe(
      "INVALID_OPERATION",
    );
    expect((await stores(h).lists())[0]!.items.map((i) => i.text)).toEqual(["milk"]);

    // The same step with arguments as the contract says runs.
    const added = await executor.execute("lists.addItem", { listId: shopping.id, items: ["eggs"] }, context);
    expect(added.success).toBe(true);
    expect((await stores(h).lists())[0]!.items.map((i) => i.text)).toEqual(["milk", "eggs"]);
  });

  it("routes every plan action it declares to its resolver, and the planner prompt names each", async () => {
    const { registry } = await harnessWithRegistry();
    for (const action of actionNames(tasksContract, "lists")) {
      expect(registry.resolverFor(step("s1", "database", action))?.name).toBe("DatabaseListResolver");
      expect(PLANNER_SYSTEM_PROMPT).toContain(`"${action}"`);
    }
    for (const action of actionNames(tasksContract, "tasks")) {
      expect(registry.resolverFor(step("s1", "database", action))?.name).toBe("DatabaseTaskResolver");
      expect(PLANNER_SYSTEM_PROMPT).toContain(`"${action}"`);
    }
  });
});
