import type { CapabilityContext } from "../../types/capability.js";
import type {
  ConversationMessage,
  LatestAction,
  NumberedRefs,
  PlanStep,
  RefKind,
  ResolverResult,
  StepRef,
} from "../../types/index.js";
import { isPronounOnly } from "../../nlu/pronouns.js";
import { anchoredLocalTime } from "../../nlu/anchoredTime.js";

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

/** Latest actions whose reply numbered what it found without recording NumberedRefs ("capability:action"). */
const NUMBERED_ACTIONS = new Set(["gmail:search"]);

/**
 * Whether the newest numbered thing Memo showed is not a numbered listing of the window: a result
 * numbered only in the latest actions (Gmail's search) came after it. "delete 2" then means that
 * result's item 2, never the older listing's.
 */
export function numberedElsewhere(
  messages: readonly ConversationMessage[],
  latestActions: readonly LatestAction[],
): boolean {
  let listedAt = -Infinity;
  for (let i = messages.length - 1; i >= 0; i--) {
    const numbered = messages[i]!.metadata?.numbered;
    if (messages[i]!.role === "assistant" && numbered && Array.isArray(numbered.ids)) {
      listedAt = messages[i]!.timestamp;
      break;
    }
  }
  return latestActions.some(
    (a) =>
      NUMBERED_ACTIONS.has(`${a.capability}:${a.action}`) &&
      (a.externalIds?.length ?? 0) > 0 &&
      a.createdAt > listedAt,
  );
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

/**
 * How a step's reference binds within its message (D13):
 * - `bound`: it points back ("it", "them", "@N", nothing named, or the resolver's `fromStep`) and
 *   an earlier step of the message produced entities of its kind: exactly those;
 * - `unbound`: it points back, but no step it depends on produced that kind: ask, never take an
 *   older message's entity;
 * - null: the step depends on nothing, or the reference is the user's own (a name, "#N", an id),
 *   which is found as ever.
 */
export type DependencyBinding = { status: "bound"; ref: StepRef } | { status: "unbound" } | null;

export function bindToDependency(
  context: Pick<CapabilityContext, "dependencies">,
  kind: RefKind,
  reference: { handle?: string | undefined; words?: string | undefined },
  fromStep?: unknown,
  /** Words that name nothing for this kind ("the list", "my list"), beyond pronouns. */
  namesNothing: (words: string) => boolean = () => false,
): DependencyBinding {
  const { dependencies } = context;
  if (dependencies.length === 0) return null;
  const named = typeof fromStep === "string" ? dependencies.find((d) => d.stepId === fromStep) : undefined;
  if (named?.kind === kind) return { status: "bound", ref: named };
  const handle = reference.handle ? parseHandle(reference.handle) : null;
  const words = handle ? undefined : (reference.words ?? reference.handle)?.trim();
  const pointsBack =
    named !== undefined ||
    handle?.kind === "action" ||
    (!handle && (!words || isPronounOnly(words) || namesNothing(words)));
  if (!pointsBack) return null;
  const ref = dependencies.find((d) => d.kind === kind);
  return ref ? { status: "bound", ref } : { status: "unbound" };
}

/**
 * Time words of a step that count from what an earlier step of its message produced ("the day
 * before it", "an hour before the meeting", "יום לפני"), read in code against that step's time
 * (D6, D10): the local time they name, "YYYY-MM-DDTHH:mm" or "YYYY-MM-DD". Null when the words
 * name a time of their own, or no earlier step it depends on has a time: then the words are read
 * as ever, and words that cannot be read are asked about, never guessed.
 */
export function timeFromDependency(
  context: Pick<CapabilityContext, "dependencies" | "state">,
  words: string | null | undefined,
  fromStep?: unknown,
): string | null {
  if (!words?.trim()) return null;
  const { dependencies } = context;
  const named = typeof fromStep === "string" ? dependencies.find((d) => d.stepId === fromStep) : undefined;
  const anchor = named?.when ? named : dependencies.find((d) => d.when);
  if (!anchor?.when) return null;
  const read = anchoredLocalTime(words, anchor.when, context.state.user.timezone);
  return read?.kind === "local" ? read.local : null;
}
