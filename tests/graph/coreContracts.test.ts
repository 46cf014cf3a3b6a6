// The contracts of general, meta and household at the one place their types are erased: a step
// whose arguments do not satisfy its contract fails cleanly with the generic text, is logged, and
// nothing runs; the same step with arguments as the contract says runs.
import { describe, expect, it, vi } from "vitest";
import { createCoreCapabilities } from "../../src/graph/capabilities/core/coreCapabilities.js";
import { createHouseholdCapability } from "../../src/graph/capabilities/household/householdCapability.js";
import { t } from "../../src/messages/index.js";
import { PLANNER_SYSTEM_PROMPT } from "../../src/prompts/plannerPrompt.js";
import { actionNames } from "../../src/contracts/contract.js";
import { metaContract } from "../../src/contracts/meta.js";
import type { HouseholdService } from "../../src/services/household/householdService.js";
import type { HouseholdSharing } from "../../src/services/household/householdSharing.js";
import type { UndoService } from "../../src/services/undo/undoJournal.js";
import type { CapabilityName } from "../../src/types/index.js";
import type { MemoState } from "../../src/types/state.js";
import type { User } from "../../src/types/user.js";
import { captureLogs } from "../support/logs.js";
import { PHONE, step } from "../support/memoHarness.js";

const NOW = Date.parse("2026-03-05T10:00:00Z");
const INVALID = { success: false, errorCode: "INVALID_OPERATION", error: t("en", "internalError") };

function contextFor(capability: CapabilityName, action: string) {
  const { logger, lines } = captureLogs();
  return {
    lines,
    context: {
      state: { traceId: "turn-1", user: { timezone: "Asia/Jerusalem" } } as unknown as MemoState,
      llm: null,
      logger,
      now: NOW,
      language: "en" as const,
      phone: PHONE,
      answers: [],
      dependencies: [],
      operationId: "turn-1:s1",
      step: { ...step("s1", "meta", action), capability },
    },
  };
}

describe("the general and meta contracts", () => {
  it("refuses a general answer that is not words, and hands on one that is", async () => {
    const general = createCoreCapabilities().executorFor("general")!;
    const { context, lines } = contextFor("general", "respond");
    expect(await general.execute("respond", { answer: 42 }, context)).toEqual(INVALID);
    expect(lines()).toContainEqual(
      expect.objectContaining({ event: "INVALID_OPERATION", capability: "general", functionName: "respond" }),
    );
    expect(await general.execute("respond", { answer: "Hi there" }, context)).toMatchObject({
      success: true,
      data: { text: "Hi there" },
    });
  });

  it("refuses an undo whose arguments break the contract, or an operation meta does not declare: nothing is undone", async () => {
    const undo = vi.fn(() => Promise.resolve({ kind: "nothing" }));
    const service = { undo, windowMs: 600_000 } as unknown as UndoService;
    const meta = createCoreCapabilities({ undo: service }).executorFor("meta")!;
    const { context, lines } = contextFor("meta", "undo");
    // A quoted message is named by its id: a number is a defect of the code that built the step.
    expect(await meta.execute("meta.undo", { quoted: 7 }, context)).toEqual(INVALID);
    expect(await meta.execute("meta.reboot", {}, context)).toEqual(INVALID);
    expect(undo).not.toHaveBeenCalled();
    expect(
      lines()
        .filter((l) => l.event === "INVALID_OPERATION")
        .map((l) => l.functionName),
    ).toEqual(["meta.undo", "meta.reboot"]);
    // As the contract says, the undo runs, on exactly the message quoted.
    expect((await meta.execute("meta.undo", { quoted: "wamid.1" }, context)).success).toBe(true);
    expect(undo).toHaveBeenCalledWith(PHONE, "turn-1:s1", NOW, { quoted: "wamid.1" });
  });

  it("names every meta action it declares in the planner prompt", () => {
    const actions = actionNames(metaContract, "meta");
    expect(actions).toEqual(["connect_google", "disconnect_google", "calendar_feed"]);
    for (const action of actions) expect(PLANNER_SYSTEM_PROMPT).toContain(`"${action}"`);
  });
});

describe("the household contract", () => {
  const YOSSI = { phone: PHONE, name: "Yossi" } as unknown as User;

  function household() {
    const give = vi.fn(() => Promise.resolve({ text: "I gave Dana: call the plumber", changed: true }));
    const accept = vi.fn(() => Promise.resolve({ text: "You're in Dana's household", changed: true }));
    const capability = createHouseholdCapability({
      households: { accept } as unknown as HouseholdService,
      sharing: { give } as unknown as HouseholdSharing,
      users: { get: () => Promise.resolve(YOSSI) },
    });
    return { executor: capability.executor, give, accept };
  }

  it("refuses a task to give without its words, or an answer that is neither accept nor decline: nobody is told anything", async () => {
    const { executor, give, accept } = household();
    const { context, lines } = contextFor("household", "give_task");
    expect(await executor.execute("household.give", { memberPhone: "972502222222" }, context)).toEqual(
      INVALID,
    );
    expect(
      await executor.execute("household.answer", { answer: "maybe", invitationId: "inv-1" }, context),
    ).toEqual(INVALID);
    expect(give).not.toHaveBeenCalled();
    expect(accept).not.toHaveBeenCalled();
    expect(
      lines()
        .filter((l) => l.event === "INVALID_OPERATION")
        .map((l) => l.functionName),
    ).toEqual(["household.give", "household.answer"]);

    const given = await executor.execute(
      "household.give",
      { memberPhone: "972502222222", text: "call the plumber" },
      context,
    );
    expect(given).toEqual({ success: true, data: { text: "I gave Dana: call the plumber" } });
    expect(give).toHaveBeenCalledWith(YOSSI, "972502222222", "call the plumber", "turn-1:s1", "en");
    const accepted = await executor.execute(
      "household.answer",
      { answer: "accept", invitationId: "inv-1" },
      context,
    );
    expect(accepted.data).toEqual({ text: "You're in Dana's household" });
    expect(accept).toHaveBeenCalledWith(YOSSI, "inv-1", "en");
  });
});
