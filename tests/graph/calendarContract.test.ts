// The calendar capability's contract at the one place its types are erased: an operation whose
// arguments do not satisfy it fails cleanly and changes nothing, and every plan action and
// operation it declares reaches its resolver and its resolver's prompt.
// "Now" is Thursday 5 March 2026, 12:00 in Asia/Jerusalem.
import { afterEach, describe, expect, it } from "vitest";
import { calendarContract } from "../../src/contracts/calendar.js";
import type { CapabilityRegistry } from "../../src/graph/capabilities/registry.js";
import { t } from "../../src/messages/index.js";
import { CALENDAR_FIND_SYSTEM_PROMPT } from "../../src/prompts/calendarFindPrompt.js";
import { CALENDAR_MUTATE_SYSTEM_PROMPT } from "../../src/prompts/calendarMutatePrompt.js";
import { PLANNER_SYSTEM_PROMPT } from "../../src/prompts/plannerPrompt.js";
import type { MemoState } from "../../src/types/state.js";
import { captureLogs } from "../support/logs.js";
import { PHONE, step } from "../support/memoHarness.js";
import {
  calendarHarness,
  jlm,
  seed,
  storedEvents,
  ZONE,
  type CalendarHarness,
} from "../calendar/capability/calendarScript.js";

let h: CalendarHarness | undefined;
afterEach(async () => h?.close());

async function harnessWithRegistry(): Promise<{ registry: CapabilityRegistry }> {
  let registry: CapabilityRegistry | undefined;
  h = await calendarHarness({ llm: "none", capabilities: (r) => (registry = r) });
  return { registry: registry! };
}

describe("the calendar contract", () => {
  it("refuses an operation whose arguments do not satisfy it: logged, the generic failure, nothing changed", async () => {
    const { registry } = await harnessWithRegistry();
    const dentist = await seed(h!, "dentist", {
      summary: "Dentist",
      start: jlm(6, "14:00"),
      end: jlm(6, "15:00"),
    });
    const { logger, lines } = captureLogs();
    const executor = registry.executorFor("calendar")!;
    const context = {
      state: { traceId: "turn-1", user: { timezone: ZONE }, latestActions: [] } as unknown as MemoState,
      llm: null,
      logger,
      now: h!.clock.now(),
      language: "en" as const,
      phone: PHONE,
      answers: [],
      dependencies: [],
      operationId: "turn-1:s1",
      step: step("s1", "calendar", "update_event"),
    };
    const refused = { success: false, errorCode: "INVALID_OPERATION", error: t("en", "internalError") };

    // A new start must be words code read into an instant, never a number: a defect of the code that built the step.
    const moved = await executor.execute(
      "calendar.update",
      { eventId: dentist.id, scope: "instance", patch: { start: 18 } },
      context,
    );
    expect(moved).toEqual(refused);
    expect(lines()).toContainEqual(
      expect.objectContaining({ event: "INVALID_OPERATION", functionName: "calendar.update", stepId: "s1" }),
    );
    // A deletion's targets are a list of events with their scope, not one id.
    expect(await executor.execute("calendar.delete", { targets: dentist.id }, context)).toEqual(refused);
    // A listing without its range, and an operation the contract does not declare, are refused the same way.
    expect((await executor.execute("calendar.getEvents", { query: "Dentist" }, context)).errorCode).toBe(
      "INVALID_OPERATION",
    );
    expect((await executor.execute("calendar.shuffle", { eventId: dentist.id }, context)).errorCode).toBe(
      "INVALID_OPERATION",
    );
    expect(await storedEvents(h!)).toEqual([
      expect.objectContaining({ summary: "Dentist", start: jlm(6, "14:00"), end: jlm(6, "15:00") }),
    ]);

    // The same change with arguments as the contract says runs.
    const done = await executor.execute(
      "calendar.update",
      {
        eventId: dentist.id,
        scope: "instance",
        patch: { start: jlm(6, "18:00"), end: jlm(6, "19:00") },
      },
      context,
    );
    expect(done.success).toBe(true);
    expect(await storedEvents(h!)).toEqual([
      expect.objectContaining({ summary: "Dentist", start: jlm(6, "18:00"), end: jlm(6, "19:00") }),
    ]);
  });

  it("routes every plan action it declares to its resolver, and each prompt names its operations", async () => {
    const { registry } = await harnessWithRegistry();
    for (const action of calendarContract.actions) {
      expect(registry.resolverFor(step("s1", "calendar", action.name))?.name).toBe(
        action.reads ? "CalendarFindResolver" : "CalendarMutateResolver",
      );
      expect(PLANNER_SYSTEM_PROMPT).toContain(`"${action.name}"`);
    }
    for (const [functionName, spec] of Object.entries(calendarContract.operations)) {
      const line = `- ${functionName.slice("calendar.".length)}: ${spec.description}`;
      const [prompt, other] =
        "reads" in spec
          ? [CALENDAR_FIND_SYSTEM_PROMPT, CALENDAR_MUTATE_SYSTEM_PROMPT]
          : [CALENDAR_MUTATE_SYSTEM_PROMPT, CALENDAR_FIND_SYSTEM_PROMPT];
      expect(prompt).toContain(line);
      expect(other).not.toContain(line);
    }
  });
});
