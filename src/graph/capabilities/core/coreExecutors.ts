import type { GoogleConnector } from "../../../services/google/types.js";
import type { UndoService } from "../../../services/undo/undoJournal.js";
import { undoReply } from "../../../services/undo/replies.js";
import type { CapabilityName } from "../../../types/index.js";
import { t, type MessageKey } from "../../../messages/index.js";
import type { Executor, ResponseTemplate } from "../../../types/capability.js";

/** general: the resolver already wrote the answer; executing it means handing it on. */
export const generalExecutor: Executor = {
  name: "GeneralExecutor",
  capability: "general",
  execute(_functionName, args) {
    const answer = typeof args.answer === "string" ? args.answer : "";
    return Promise.resolve(
      answer ? { success: true, data: { text: answer } } : { success: false, errorCode: "EMPTY_ANSWER" },
    );
  },
};

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
  capabilities: () => CapabilityName[],
  google?: GoogleConnector,
  /** The user's private iCalendar feed of the built-in calendar (absent: no feed on this server). */
  calendarFeedLink?: (phone: string) => string,
  /** "undo" / "בטל" (absent: nothing is journaled, so there is nothing to undo). */
  undo?: UndoService,
  /** Whether a language model is configured (default: true); without one, help lists the commands. */
  withModel = true,
): Executor {
  return {
    name: "MetaExecutor",
    capability: "meta",
    async execute(functionName, args, context) {
      const { language, phone } = context;
      let text: string;
      if (functionName === "meta.connect_google") text = await connectGoogle(google, phone, language);
      else if (functionName === "meta.disconnect_google") {
        const disconnected = await disconnectGoogle(google, phone, language);
        text = disconnected.text;
        // Not something undo can take back: "undo" right after says so, reaching no older change.
        if (disconnected.removed)
          await undo?.irreversible(phone, {
            operationId: context.operationId,
            turnId: context.state.traceId,
            reason: "google",
            now: context.now,
          });
      } else if (functionName === "meta.calendar_feed")
        text = await calendarFeed(google, calendarFeedLink, phone, language);
      else if (functionName === "meta.undo")
        text = undo
          ? undoReply(
              await undo.undo(phone, context.operationId, context.now, {
                // "בטל" quoting one of Memo's messages: an undo only of the change that message answered.
                ...(typeof args.quoted === "string" ? { quoted: args.quoted } : {}),
                // Asked first (messages came between): only the change the user said yes to.
                ...(typeof args.turn === "string" ? { turn: args.turn } : {}),
              }),
              language,
              undo.windowMs,
            )
          : t(language, "undo.nothing");
      else if (functionName === "greet") text = t(language, "greeting");
      else if (functionName === "thank") text = t(language, "thanksReply");
      else text = describeCapabilities(language, capabilities(), withModel);
      return { success: true, data: { text } };
    },
  };
}

/** general and meta results are already the words to send. */
export const textTemplate: ResponseTemplate = (result) => {
  const data = result.rawData as { text?: unknown } | undefined;
  return typeof data?.text === "string" ? data.text : null;
};
