import {
  GMAIL_SYSTEM_PROMPT,
  GmailOperationSchema,
  type GmailOperation,
} from "../../../prompts/gmailPrompt.js";
import { t } from "../../../messages/index.js";
import { isEmailAddress } from "../../../services/gmail/mime.js";
import type { PlanStep, ResolverResult } from "../../../types/index.js";
import type { CapabilityContext, Resolver } from "../../../types/capability.js";
import { compactArgs } from "../../resolvers/compactArgs.js";
import { buildResolverMessages } from "../../../prompts/resolverMessagesPrompt.js";
import { assertNever } from "../../../contracts/contract.js";
import type { GmailFunction } from "../../../contracts/gmail.js";

/** An entry that means to be an address ("@" in it) but is not a valid one, or undefined. */
function badAddress(recipients: string[] | null | undefined): string | undefined {
  return (recipients ?? []).find((r) => r.includes("@") && !isEmailAddress(r.trim()));
}

/** What must be asked before the operation can run, or null. Names without "@" are looked up later. @internal */
export function missingForGmail(op: GmailOperation, language: "he" | "en"): string | null {
  const bad = badAddress(op.to) ?? badAddress(op.cc);
  if (bad) return t(language, "gmail.badAddress", { address: bad });
  switch (op.operation) {
    case "compose":
    case "send":
      if (!op.to?.length) return t(language, "gmail.askRecipient");
      return op.body?.trim() ? null : t(language, "gmail.askBody");
    case "reply":
      return op.body?.trim() ? null : t(language, "gmail.askBody");
    case "forward":
      return op.to?.length ? null : t(language, "gmail.askForwardTo");
    case "label":
      return op.addLabels?.length || op.removeLabels?.length ? null : t(language, "gmail.askLabel");
    case "search":
    case "read":
    case "archive":
    case "delete":
    case "markRead":
      return null;
    default:
      return assertNever(op.operation);
  }
}

/**
 * gmail: the LLM turns the plan step into one email operation, validated by its zod schema
 * (GmailPrompt); code checks that it is complete (a recipient, a body, valid addresses) and asks
 * when it is not. Which email is meant, and the approval before anything is sent, come after, in
 * GmailEntityResolver.
 */
export const gmailResolver: Resolver = {
  name: "GmailResolver",
  capability: "gmail",
  actions: [],
  async resolve(step: PlanStep, context: CapabilityContext): Promise<ResolverResult> {
    if (!context.llm) throw new Error("GmailResolver needs an LLM");
    const { value, usage } = await context.llm.structured(
      "resolver:gmail",
      GmailOperationSchema,
      buildResolverMessages(GMAIL_SYSTEM_PROMPT, step, context),
      { name: "gmail_operation" },
    );
    const op = compactArgs(value);
    const question = missingForGmail(op, context.language);
    if (question) {
      // A wrong address is named by code; otherwise the model's own wording of what is missing.
      const bad = badAddress(op.to) ?? badAddress(op.cc);
      const asked = bad ? question : op.question?.trim() || question;
      return { stepId: step.id, type: "clarify", question: asked, llmUsage: usage };
    }
    const functionName: GmailFunction = `gmail.${op.operation}`;
    return {
      stepId: step.id,
      type: "execute",
      functionName,
      args: op,
      llmUsage: usage,
    };
  },
};
