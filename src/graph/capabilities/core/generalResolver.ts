import { recentConversation } from "../../../prompts/conversationContext.js";
import { GENERAL_SYSTEM_PROMPT } from "../../../prompts/generalPrompt.js";
import type { PlanStep, ResolverResult } from "../../../types/index.js";
import type { CapabilityContext, Resolver } from "../../../types/capability.js";
import type { GeneralFunction } from "../../../contracts/general.js";

/** general: a conversational answer written by the LLM, with no tools (spec 002 §5.1). */
export const generalResolver: Resolver = {
  name: "GeneralResolver",
  capability: "general",
  actions: [],
  async resolve(step: PlanStep, context: CapabilityContext): Promise<ResolverResult> {
    if (!context.llm) throw new Error("GeneralResolver needs an LLM");
    const { state } = context;
    const history = recentConversation(state.recentMessages);
    const { value, usage } = await context.llm.text("resolver:general", [
      { role: "system", content: GENERAL_SYSTEM_PROMPT },
      {
        role: "user",
        // The conversation before the time: a user's consecutive turns share it, so it is cached.
        content: [
          history.length > 0 ? `Recent conversation:\n${history.join("\n")}` : "",
          state.now.formatted,
          `Message:\n${state.input.enhancedMessage ?? state.input.message}`,
        ]
          .filter(Boolean)
          .join("\n\n"),
      },
    ]);
    return {
      stepId: step.id,
      type: "execute",
      functionName: "respond" satisfies GeneralFunction,
      args: { answer: value.trim() },
      llmUsage: usage,
    };
  },
};
