import { recognizeMemoryCommand } from "../../../nlu/noteCommands.js";
import {
  NoteOperationSchema,
  SECOND_BRAIN_SYSTEM_PROMPT,
  type NoteOperation,
} from "../../../prompts/secondBrainPrompt.js";
import { t } from "../../../messages/index.js";
import type { PlanStep, ResolverResult } from "../../../types/index.js";
import type { CapabilityContext, Resolver } from "../../../types/capability.js";
import { resolveOperation } from "../../resolvers/resolverPrompt.js";
import { declares } from "../../../contracts/contract.js";
import { memoryActions, secondBrainContract } from "../../../contracts/secondBrain.js";

/**
 * Whether the operation names its note: by noteRef or words, or by pointing back at an earlier step
 * of this message (fromStep, or nothing named when a step it depends on produced a note; D13).
 */
function namesNote(op: NoteOperation, context: CapabilityContext): boolean {
  if (op.noteRef?.trim() || op.query?.trim() || op.fromStep?.trim()) return true;
  return context.dependencies.some((d) => d.kind === "notes");
}

/** What must be asked before a note operation can run, or null. */
function missing(op: NoteOperation, context: CapabilityContext): string | null {
  switch (op.operation) {
    case "store":
      return op.content?.trim() ? null : t(context.language, "notes.askContent");
    case "update":
      if (!namesNote(op, context)) return t(context.language, "notes.whichNote");
      return op.newContent?.trim() ? null : t(context.language, "notes.askNewContent");
    case "delete":
      return namesNote(op, context) ? null : t(context.language, "notes.whichNote");
    default:
      return null;
  }
}

/**
 * second-brain (notes): the LLM turns a note step into one of the note operations (spec 002 §8.2),
 * validated by its zod schema; code checks it is complete and asks otherwise. Which note is meant
 * is found after, in SecondBrainEntityResolver.
 */
export const secondBrainResolver: Resolver = {
  name: "SecondBrainResolver",
  capability: "second-brain",
  actions: [],
  resolve: (step: PlanStep, context: CapabilityContext): Promise<ResolverResult> =>
    resolveOperation(
      {
        name: "SecondBrainResolver",
        system: SECOND_BRAIN_SYSTEM_PROMPT,
        schema: NoteOperationSchema,
        outputName: "note_operation",
        node: "resolver:second-brain",
        prefix: "notes",
        missing,
      },
      step,
      context,
    ),
};

/** The memory actions the planner names, and their executor functions, from the contract. */
const MEMORY_FUNCTIONS = new Map(
  memoryActions.actions.flatMap((action) =>
    action.functionName && declares(secondBrainContract, action.functionName)
      ? [[action.name, action.functionName] as const]
      : [],
  ),
);

/** The words of a step's constraints, for "forget …" planned by the model. */
function constraintWords(step: PlanStep): string {
  return Object.values(step.constraints)
    .filter((v): v is string | number => typeof v === "string" || typeof v === "number")
    .map(String)
    .join(" ")
    .trim();
}

/**
 * second-brain (remembered facts): "what do you remember about me", "forget that…", "forget
 * everything". No LLM: the fast path recognizes the common forms; when the planner names one of
 * these actions, the user's own words say what to forget.
 */
export const memoryCommandResolver: Resolver = {
  name: "MemoryCommandResolver",
  capability: "second-brain",
  actions: [...MEMORY_FUNCTIONS.keys()],
  resolve(step: PlanStep, context: CapabilityContext): Promise<ResolverResult> {
    const functionName = MEMORY_FUNCTIONS.get(step.action)!;
    // The user's own words, never what Memo added beside them (a quoted message is data: D14).
    const said = context.state.input.message;
    if (functionName === "memory.recall") {
      // The user's own words: a period in them is read in code, never one a model wrote (D6).
      const question = said;
      return Promise.resolve({ stepId: step.id, type: "execute", functionName, args: { question } });
    }
    if (functionName === "memory.list") {
      const recognized = recognizeMemoryCommand(said);
      const history = recognized?.functionName === "memory.list" && recognized.args.history === true;
      const args = history || step.constraints.history === true ? { history: true } : {};
      return Promise.resolve({ stepId: step.id, type: "execute", functionName, args });
    }
    if (functionName !== "memory.forget") {
      return Promise.resolve({ stepId: step.id, type: "execute", functionName, args: {} });
    }
    const message = context.state.input.enhancedMessage ?? context.state.input.message;
    const recognized = recognizeMemoryCommand(message);
    const query =
      (recognized?.functionName === "memory.forget" ? recognized.args.query : "") ||
      constraintWords(step) ||
      message;
    return Promise.resolve({ stepId: step.id, type: "execute", functionName, args: { query } });
  },
};
