import type { CapabilityRegistry } from "../../src/graph/capabilities/registry.js";
import type { EntityResolution, EntityResolver, Executor, Resolver } from "../../src/types/capability.js";

/** A question a step's resolver asks before it resolves (until the step has an answer). */
export interface ScriptedQuestion {
  question: string;
  options?: string[];
}

/**
 * A stand-in "database" capability that records what runs: resolve start/end and executions in
 * order. Its resolver passes the step id and the answers it got as args; its executor replies
 * "did <action>" and remembers the action.
 */
export function recordingCapability(
  options: {
    ask?: Record<string, ScriptedQuestion>;
    delays?: Record<string, number>;
    entityResolver?: EntityResolver;
    /** The entity resolver asks before risky changes, so the planner's question is skipped. */
    confirmsInCode?: boolean;
    /** Actions whose executor throws, naming the operation as the repositories' errors do. */
    fails?: string[];
  } = {},
) {
  const events: string[] = [];
  const executed: {
    step: string;
    functionName: string;
    args: Record<string, unknown>;
    operationId: string;
  }[] = [];
  const resolver: Resolver = {
    name: "RecordingResolver",
    capability: "database",
    actions: [],
    async resolve(s, context) {
      events.push(`resolve:${s.id}:start`);
      await new Promise((r) => setTimeout(r, options.delays?.[s.id] ?? 0));
      events.push(`resolve:${s.id}:end`);
      const ask = options.ask?.[s.id];
      if (ask && context.answers.length === 0) {
        return {
          stepId: s.id,
          type: "clarify",
          question: ask.question,
          ...(ask.options ? { options: ask.options } : {}),
        };
      }
      return {
        stepId: s.id,
        type: "execute",
        functionName: s.action,
        args: { step: s.id, answers: context.answers.map((a) => a.value) },
      };
    },
  };
  const executor: Executor = {
    name: "RecordingExecutor",
    capability: "database",
    execute(functionName, args, context) {
      events.push(`execute:${context.step.id}`);
      executed.push({ step: context.step.id, functionName, args, operationId: context.operationId });
      if (options.fails?.includes(functionName)) {
        return Promise.reject(new Error(`row of operation ${context.operationId} vanished`));
      }
      return Promise.resolve({
        success: true,
        data: { text: `did ${functionName}` },
        latestAction: { action: functionName, summary: `${functionName} ${context.step.id}` },
      });
    },
  };
  const register = (registry: CapabilityRegistry) =>
    registry.replace({
      capability: "database",
      resolvers: [resolver],
      executor,
      ...(options.entityResolver ? { entityResolver: options.entityResolver } : {}),
      ...(options.confirmsInCode ? { confirmsInCode: true } : {}),
      template: (result) => (result.rawData as { text: string }).text,
    });
  return { events, executed, register };
}

/**
 * An entity resolver for which "call" matches two tasks (t1 "Call mom", t2 "Call the bank");
 * `afterChoice` decides what the user's choice leads to (default: resolved with its taskId).
 */
export function twoTasksResolver(
  afterChoice: (originalArgs: Record<string, unknown>, taskId: string) => EntityResolution = (
    args,
    taskId,
  ) => ({
    status: "resolved",
    args: { ...args, taskId },
  }),
): EntityResolver {
  return {
    capability: "database",
    resolve: (s, result) =>
      Promise.resolve({
        status: "disambiguation",
        entityLabel: "tasks",
        disambiguation: {
          type: "task",
          stepId: s.id,
          query: "call",
          candidates: [
            { id: "t1", displayText: "Call mom (today 18:00)" },
            { id: "t2", displayText: "Call the bank (tomorrow 09:00)" },
          ],
          allowMultiple: false,
          originalArgs: result.args ?? {},
        },
      }),
    applySelection: (_s, d, selection) => Promise.resolve(afterChoice(d.originalArgs, selection[0] ?? "")),
  };
}
