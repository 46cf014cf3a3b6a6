import type { DisambiguationCandidate, DisambiguationSnapshot } from "../../src/types/index.js";

/** A disambiguation snapshot of "call" between two tasks, as the runtime stores one (tests). */
export function disambiguationSnapshot(
  createdAt: number,
  expiresAt: number,
  candidates: DisambiguationCandidate[] = [
    { id: "t1", displayText: "Call mom" },
    { id: "t2", displayText: "Call the bank", dueDate: "2026-03-02" },
  ],
): DisambiguationSnapshot {
  return {
    type: "task",
    query: "call",
    candidates,
    createdAt,
    expiresAt,
    hitlId: "hitl-1",
    language: "en",
    step: {
      id: "s1",
      capability: "database",
      action: "complete_task",
      constraints: {},
      changes: {},
      dependsOn: [],
    },
    resolverResult: { stepId: "s1", type: "execute", functionName: "tasks.complete", args: { text: "call" } },
    plan: { intentType: "operation", riskLevel: "low", needsApproval: false },
    disambiguation: {
      type: "task",
      stepId: "s1",
      query: "call",
      candidates,
      allowMultiple: false,
      originalArgs: { text: "call" },
      target: "taskId",
      resolved: false,
    },
  };
}
