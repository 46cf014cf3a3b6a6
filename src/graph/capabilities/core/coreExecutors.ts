import type { GoogleConnector } from "../../../services/google/types.js";
import type { UndoService } from "../../../services/undo/undoJournal.js";
import { undoReply } from "../../../services/undo/replies.js";
import type { CapabilityName, PlanTier } from "../../../types/index.js";
import { t, type MessageKey } from "../../../messages/index.js";
import type { CapabilityContext, Executor, ResponseTemplate } from "../../../types/capability.js";
import { assertNever, type OutcomeOf } from "../../../contracts/contract.js";
import {
  generalContract,
  type GeneralFunction,
  type GeneralOperation,
  type GeneralResults,
  type TextResult,
} from "../../../contracts/general.js";
import {
  metaContract,
  type MetaFunction,
  type MetaOperation,
  type MetaResults,
} from "../../../contracts/meta.js";
import { typedExecutor } from "../typedExecutor.js";

/** general: the resolver already wrote the answer; executing it means handing it on. */
export const generalExecutor: Executor = typedExecutor(generalContract, {
  name: "GeneralExecutor",
  execute(op: GeneralOperation): Promise<OutcomeOf<GeneralResults[GeneralFunction]>> {
    switch (op.functionName) {
      case "respond": {
        const answer = op.args.answer ?? "";
        return Promise.resolve(
          answer ? { success: true, data: { text: answer } } : { success: false, errorCode: "EMPTY_ANSWER" },
        );
      }
      default:
        return assertNever(op.functionName);
    }
  },
});

/** The help line of each capability that has one, as Memo describes it. */
const HELP_LINES: Partial<Record<CapabilityName, MessageKey>> = {
  database: "help.database",
  calendar: "help.calendar",
  gmail: "help.gmail",
  "second-brain": "help.second-brain",
  general: "help.general",
};

/**
 * The description of Memo for "what can you do?", listing only capabilities that are running.
 * Without a language model (`withModel` false, default: true) it lists the commands that work
 * without one instead: help never offers a phrase only a model understands.
 */
export function describeCapabilities(
  language: "he" | "en",
  capabilities: CapabilityName[],
  withModel = true,
): string {
  if (!withModel) return t(language, "helpNoLLM");
  const lines = capabilities.flatMap((c) => {
    const key = HELP_LINES[c];
    return key ? [t(language, key)] : [];
  });
  return `${[t(language, "help.intro"), ...lines].join("\n")}\n\n${t(language, "help.outro")}`;
}

/** "connect Google": the link, or why there is none. */
async function connectGoogle(
  google: GoogleConnector | undefined,
  phone: string,
  language: "he" | "en",
): Promise<string> {
  if (!google) return t(language, "google.notConfigured");
  if ((await google.status(phone)) === "connected") return t(language, "google.alreadyConnected");
  const url = await google.connectLink(phone);
  return url ? t(language, "google.link", { url }) : t(language, "google.notConfigured");
}

/** "disconnect Google": tokens deleted, or there were none. */
async function disconnectGoogle(
  google: GoogleConnector | undefined,
  phone: string,
  language: "he" | "en",
): Promise<{ text: string; removed: boolean }> {
  const removed = google ? await google.disconnect(phone) : false;
  return { text: t(language, removed ? "google.disconnected" : "google.notConnected"), removed };
}

/** "calendar link": Google users already have their calendar everywhere; others get the private feed. */
async function calendarFeed(
  google: GoogleConnector | undefined,
  link: ((phone: string) => string) | undefined,
  phone: string,
  language: "he" | "en",
): Promise<string> {
  if (google && (await google.status(phone)) === "connected") return t(language, "calendar.feedGoogle");
  return link
    ? t(language, "calendar.feedLink", { url: link(phone) })
    : t(language, "calendar.feedUnavailable");
}

/**
 * meta: describes what this instance of Memo can do, greets, thanks, and connects or disconnects
 * the user's Google account through `google` (absent: Google is not set up on this server).
 */
export function createMetaExecutor(
  /** What help lists for a user of the tier: the capabilities running here that their tier includes. */
  capabilities: (tier: PlanTier) => CapabilityName[],
  google?: GoogleConnector,
  /** The user's private iCalendar feed of the built-in calendar (absent: no feed on this server). */
  calendarFeedLink?: (phone: string) => string,
  /** "undo" / "בטל" (absent: nothing is journaled, so there is nothing to undo). */
  undo?: UndoService,
  /** Whether a language model is configured (default: true); without one, help lists the commands. */
  withModel = true,
): Executor {
  /** The words of one meta operation: the switch covers every operation the contract declares. */
  async function reply(
    op: MetaOperation,
    context: CapabilityContext & { operationId: string },
  ): Promise<string> {
    const { language, phone } = context;
    switch (op.functionName) {
      case "meta.connect_google":
        return connectGoogle(google, phone, language);
      case "meta.disconnect_google": {
        const disconnected = await disconnectGoogle(google, phone, language);
        // Not something undo can take back: "undo" right after says so, reaching no older change.
        if (disconnected.removed)
          await undo?.irreversible(phone, {
            operationId: context.operationId,
            turnId: context.state.traceId,
            reason: "google",
            now: context.now,
          });
        return disconnected.text;
      }
      case "meta.calendar_feed":
        return calendarFeed(google, calendarFeedLink, phone, language);
      case "meta.undo": {
        if (!undo) return t(language, "undo.nothing");
        const { quoted, turn } = op.args;
        return undoReply(
          await undo.undo(phone, context.operationId, context.now, {
            // "בטל" quoting one of Memo's messages: an undo only of the change that message answered.
            ...(typeof quoted === "string" ? { quoted } : {}),
            // Asked first (messages came between): only the change the user said yes to.
            ...(typeof turn === "string" ? { turn } : {}),
          }),
          language,
          undo.windowMs,
        );
      }
      case "greet":
        return t(language, "greeting");
      case "thank":
        return t(language, "thanksReply");
      case "describeCapabilities":
        return describeCapabilities(language, capabilities(context.state.user.planTier), withModel);
      default:
        return assertNever(op);
    }
  }

  return typedExecutor(metaContract, {
    name: "MetaExecutor",
    async execute(op, context): Promise<OutcomeOf<MetaResults[MetaFunction]>> {
      return { success: true, data: { text: await reply(op, context) } };
    },
  });
}

/** general and meta results (and the household's) are already the words to send (TextResult). */
export const textTemplate: ResponseTemplate = (result) => {
  const data = result.rawData as Partial<Record<keyof TextResult, unknown>> | undefined;
  return typeof data?.text === "string" ? data.text : null;
};
