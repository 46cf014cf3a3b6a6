// A plan made beside a document (D14): creations from it run without a question, but a creation
// that reaches other people (an invitation, a household member's task) asks first, as any change does.
import { describe, expect, it } from "vitest";
import { documentIsData } from "../../src/graph/plan/planPolicy.js";
import type { PlannerOutput, PlanStep } from "../../src/types/index.js";
import { createLogger } from "../../src/utils/logger.js";

const logger = createLogger("silent");
const step = (over: Partial<PlanStep>): PlanStep => ({
  id: "A",
  capability: "calendar",
  action: "create_event",
  constraints: {},
  changes: { summary: "Trip" },
  dependsOn: [],
  ...over,
});
const plan = (steps: PlanStep[]): PlannerOutput => ({
  intentType: "operation",
  confidence: 1,
  riskLevel: "low",
  needsApproval: false,
  missingFields: [],
  plan: steps,
});
const turn = { document: true, traceId: "t" };

describe("documentIsData", () => {
  it("a creation of the user's own runs without a question", () => {
    expect(documentIsData(plan([step({})]), turn, logger).needsApproval).toBe(false);
  });

  it.each([
    step({ changes: { summary: "Trip", attendees: ["dana@example.com"] } }),
    step({ capability: "household", action: "give_task", changes: { member: "Dana" } }),
  ])("a creation that reaches others asks first", (reaching) => {
    expect(documentIsData(plan([reaching]), turn, logger)).toMatchObject({
      riskLevel: "high",
      needsApproval: true,
    });
  });
});
