import type { PlanStep, ResolverResult } from "../../types/index.js";
import type { Resolver } from "../registry.js";

/** meta: "what can you do?" — answered from a template, with no LLM (spec 002 §5.1). */
export const metaResolver: Resolver = {
  name: "MetaResolver",
  capability: "meta",
  actions: [],
  resolve(step: PlanStep): Promise<ResolverResult> {
    return Promise.resolve({
      stepId: step.id,
      type: "execute",
      functionName: "describeCapabilities",
      args: {},
    });
  },
};
