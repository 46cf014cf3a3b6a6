import type { PlanStep, ResolverResult } from "../../../types/index.js";
import type { Resolver } from "../../../types/capability.js";
import type { MetaFunction } from "../../../contracts/meta.js";

/** Meta actions and the executor function of each; anything else describes the capabilities. */
const FUNCTIONS: Record<string, MetaFunction> = {
  greet: "greet",
  thank: "thank",
  connect_google: "meta.connect_google",
  disconnect_google: "meta.disconnect_google",
  calendar_feed: "meta.calendar_feed",
  undo: "meta.undo",
};

/** meta: "what can you do?", greetings, thanks — answered from templates, with no LLM (spec 002 §5.1). */
export const metaResolver: Resolver = {
  name: "MetaResolver",
  capability: "meta",
  actions: [],
  resolve(step: PlanStep): Promise<ResolverResult> {
    return Promise.resolve({
      stepId: step.id,
      type: "execute",
      functionName: FUNCTIONS[step.action] ?? "describeCapabilities",
      args: {},
    });
  },
};
