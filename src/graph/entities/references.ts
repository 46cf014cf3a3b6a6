import type { CapabilityContext } from "../../types/capability.js";
import type {
  ConversationMessage,
  LatestAction,
  NumberedRefs,
  PlanStep,
  ResolverResult,
} from "../../types/index.js";

/** A handle the resolver wrote instead of words: "#N" (item N as last shown) or "@N" (latest action N). */
export type Handle = { kind: "number"; n: number } | { kind: "action"; n: number };

/** "#2", "2", "no. 2", "מספר 2" → item 2; "@1" → latest action 1; anything else → null. */
export function parseHandle(ref: string): Handle | null {
  const text = ref.trim().toLowerCase();
  const action = /^@(\d{1,2})$/.exec(text);
  if (action) return { kind: "action", n: Number(action[1]) };
  const numbered = /^(?:#|no\.?\s*|number\s+|מספר\s+|מס'?\s*)?(\d{1,3})$/.exec(text);
  return numbered ? { kind: "number", n: Number(numbered[1]) } : null;
}

/** The newest numbered listing of `type` that Memo sent in the window, or null. */
export function lastNumbered(
  messages: readonly ConversationMessage[],
  type: NumberedRefs["type"],
): NumberedRefs | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const numbered = messages[i]!.metadata?.numbered;
    if (messages[i]!.role === "assistant" && numbered?.type === type && Array.isArray(numbered.ids)) {
      return numbered;
    }
  }
  return null;
}

/** The newest numbered listing of any kind that Memo sent in the window: what a bare "2" refers to. */
export function latestNumbered(messages: readonly ConversationMessage[]): NumberedRefs | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const numbered = messages[i]!.metadata?.numbered;
    if (messages[i]!.role === "assistant" && numbered && Array.isArray(numbered.ids)) return numbered;
  }
  return null;
}

/** The ids a latest action touched (action 1 is the most recent), or []. */
export function actionIds(latestActions: readonly LatestAction[], n: number): string[] {
  return latestActions[n - 1]?.externalIds ?? [];
}

/** The step's operation once more, with the args the user's answer to "which one?" filled in: resolved again. */
export function withChosenArgs(
  step: PlanStep,
  context: CapabilityContext,
  args: Record<string, unknown>,
): ResolverResult {
  const functionName = context.state.resolverResults.get(step.id)?.functionName ?? "";
  return { stepId: step.id, type: "execute", functionName, args };
}
