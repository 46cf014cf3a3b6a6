import { z } from "zod";
import type { UserRepository } from "../../../db/repositories/userRepository.js";
import { t } from "../../../messages/index.js";
import { recognizeHouseholdCommand } from "../../../nlu/householdCommands.js";
import type { HouseholdReply } from "../../../services/household/householdChange.js";
import type { HouseholdService } from "../../../services/household/householdService.js";
import type { HouseholdSharing } from "../../../services/household/householdSharing.js";
import { recordIrreversible, type UndoSettings } from "../../../services/undo/undoJournal.js";
import type {
  CapabilityModule,
  EntityResolution,
  EntityResolver,
  Executor,
  RecognizeContext,
  RecognizedStep,
  Resolver,
} from "../../../types/capability.js";
import type { PlanStep, User } from "../../../types/index.js";
import { quotedInline } from "../../../utils/quotedText.js";
import { textTemplate } from "../core/coreExecutors.js";
import { assertNever, declares, type OutcomeOf } from "../../../contracts/contract.js";
import {
  householdContract,
  type HouseholdFunction,
  type HouseholdOperation,
  type HouseholdResults,
} from "../../../contracts/household.js";
import { typedExecutor } from "../typedExecutor.js";

/**
 * The household's questions, asked through the graph's question plane like every other question
 * (docs/HOUSEHOLD.md): which invitation a typed "accept" or "stop" means when several are open,
 * and whether a bare "Dana: call the plumber" gives Dana a task. Every other household command is
 * answered without the graph (HouseholdActions); these may need a question, so they are read here
 * in code (`recognize`) and planned as one step: the entity resolver asks (a choice naming the
 * inviters, or yes / no), the paused thread keeps the question across restarts, "בטל" / "cancel"
 * drops it, and the executor acts through the household services.
 */

/** "accept" / "stop" typed (or quoting an invitation): the invitations it may mean. */
const AnswerArgs = z.object({
  answer: z.enum(["accept", "decline"]),
  /** The invitations it may mean, newest first; empty: the one meant is no longer open. */
  invitations: z.array(z.object({ id: z.string(), who: z.string() })),
});

/** A bare "Dana: …": the task to give, or the refusal of its words. */
const GiveArgs = z.union([
  z.object({ memberPhone: z.string(), name: z.string(), text: z.string() }),
  z.object({ refused: z.string() }),
]);

/** The operation each recognized step runs (the contract's, src/contracts/household.ts). */
const FUNCTIONS = {
  answer: "household.answer",
  give: "household.give",
} as const satisfies Record<string, HouseholdFunction>;

interface HouseholdCapabilityOptions {
  households: HouseholdService;
  sharing: HouseholdSharing;
  users: Pick<UserRepository, "get">;
  /** Journals each household change as one "undo" cannot take back (default: none). */
  undo?: UndoSettings;
}

/** The `household` capability: the household's questions (see above). */
export function createHouseholdCapability(options: HouseholdCapabilityOptions): CapabilityModule {
  return {
    capability: "household",
    resolvers: [codeOnlyResolver],
    executor: householdExecutor(options),
    entityResolver: householdEntityResolver,
    template: textTemplate,
    // Its own questions name what they answer or give.
    confirmsInCode: true,
    recognize: (message, context) => recognize(options, message, context),
  };
}

/** Reads "accept", "stop" and a bare "Dana: …" when they are the household's (see `createHouseholdCapability`). */
async function recognize(
  { households, sharing }: HouseholdCapabilityOptions,
  message: string,
  context: RecognizeContext,
): Promise<RecognizedStep | null> {
  const command = recognizeHouseholdCommand(message);
  if (command?.kind === "accept" || command?.kind === "stop") {
    const answer = command.kind === "accept" ? "accept" : "decline";
    const meant = await households.invitationsMeant(context.phone, answer, context.replyToMessageId);
    if (!meant) return null;
    return {
      action: "answer_invitation",
      functionName: FUNCTIONS.answer,
      args: { answer, invitations: meant.kind === "open" ? meant.invitations : [] },
    };
  }
  if (command?.kind === "assign" && !command.explicit) {
    const give = await sharing.giveQuestion(context.phone, command.target, command.text, context.language);
    return give ? { action: "give_task", functionName: FUNCTIONS.give, args: give } : null;
  }
  return null;
}

/** Household steps are planned in code, already resolved; a step that is not never runs. */
const codeOnlyResolver: Resolver = {
  name: "HouseholdResolver",
  capability: "household",
  actions: [],
  resolve: (step) =>
    Promise.resolve({ stepId: step.id, type: "execute", functionName: `household.${step.action}`, args: {} }),
};

/** The invitation a typed "accept" / "stop" means: the only one open, or which one (naming who sent each). */
function whichInvitation(step: PlanStep, recognized: unknown, language: "he" | "en"): EntityResolution {
  const { answer, invitations } = AnswerArgs.parse(recognized);
  const [only] = invitations;
  if (!only) return { status: "not_found", message: t(language, "household.invitationGone") };
  if (invitations.length === 1) return { status: "resolved", args: { answer, invitationId: only.id } };
  // Several open: which one, naming who sent each (buttons, or their numbers).
  return {
    status: "disambiguation",
    entityLabel: t(
      language,
      answer === "accept" ? "household.openInvitations" : "household.openInvitationsDecline",
    ),
    disambiguation: {
      type: "contact",
      stepId: step.id,
      query: answer,
      // The inviter's WhatsApp name is theirs: shown as content (D14).
      candidates: invitations.map((i) => ({ id: i.id, displayText: quotedInline(i.who) })),
      allowMultiple: false,
      originalArgs: { answer },
    },
  };
}

/** Turns the recognized step into the question it needs, or into the operation when none is needed. */
const householdEntityResolver: EntityResolver = {
  capability: "household",
  resolve(step, result, context): Promise<EntityResolution> {
    const { language } = context;
    const functionName = result.functionName ?? "";
    if (!declares(householdContract, functionName))
      return Promise.resolve({ status: "not_found", message: t(language, "internalError") });
    switch (functionName) {
      case "household.answer":
        return Promise.resolve(whichInvitation(step, result.args, language));
      case "household.give": {
        const give = GiveArgs.parse(result.args);
        if ("refused" in give) return Promise.resolve({ status: "not_found", message: give.refused });
        return Promise.resolve({
          status: "confirm",
          question: t(language, "household.giveAsk", { name: give.name, text: give.text }),
          args: { memberPhone: give.memberPhone, text: give.text },
        });
      }
      default:
        return assertNever(functionName);
    }
  },
  applySelection(_step, disambiguation, selection, context): Promise<EntityResolution> {
    const answer = z.enum(["accept", "decline"]).parse(disambiguation.originalArgs.answer);
    const chosen = disambiguation.candidates.find((c) => c.id === selection[0]);
    return Promise.resolve(
      chosen
        ? { status: "resolved", args: { answer, invitationId: chosen.id } }
        : { status: "not_found", message: t(context.language, "household.invitationGone") },
    );
  },
};

/** Answers the chosen invitation, or gives the task agreed to; journals what changed as irreversible. */
function householdExecutor({ households, sharing, users, undo }: HouseholdCapabilityOptions): Executor {
  return typedExecutor(householdContract, {
    name: "HouseholdExecutor",
    async execute(op, context): Promise<OutcomeOf<HouseholdResults[HouseholdFunction]>> {
      const { language, phone } = context;
      const user = await users.get(phone);
      if (!user) return { success: false, errorCode: "NO_USER", error: t(language, "internalError") };
      const reply = await run(op, user, context.operationId, language);
      // A household change may have told someone already: "undo" right after it says it cannot.
      if (reply.changed && undo)
        await recordIrreversible(undo, phone, {
          operationId: context.operationId,
          turnId: context.state.traceId,
          reason: "household",
          now: context.now,
        });
      return { success: true, data: { text: reply.text } };
    },
  });

  /** Runs one operation: the switch covers every operation the contract declares. */
  function run(
    op: HouseholdOperation,
    user: User,
    operationId: string,
    language: "he" | "en",
  ): Promise<HouseholdReply> {
    switch (op.functionName) {
      case "household.answer": {
        const { answer, invitationId } = op.args;
        return answer === "accept"
          ? households.accept(user, invitationId, language)
          : households.decline(user, invitationId, language);
      }
      case "household.give":
        return sharing.give(user, op.args.memberPhone, op.args.text, operationId, language);
      default:
        return assertNever(op);
    }
  }
}
