import type { OperationLedger } from "../../../db/repositories/operationLedger.js";
import { t } from "../../../messages/index.js";
import { recordIrreversible, type UndoSettings } from "../../../services/undo/undoJournal.js";
import {
  GmailRequestError,
  type EmailSummary,
  type GmailFailure,
  type OutgoingEmail,
} from "../../../services/gmail/gmailService.js";
import { userTextOf } from "../../errorText.js";
import { summarizeThread } from "../../../services/gmail/summarize.js";
import { GoogleConnectionLostError } from "../../../services/google/types.js";
import type { GmailExecutorArgs, MailboxSource } from "./gmailEntityResolver.js";
import { humanTime } from "../../../utils/timeContext.js";
import type { Logger } from "../../../utils/logger.js";
import type { CapabilityContext, Executor, ExecutorOutcome } from "../../../types/capability.js";
import type { EmailView, GmailData } from "../../../types/gmail.js";

/** The executor's error code for each kind of Gmail failure (others: GMAIL_FAILED). */
const ERROR_CODES: Partial<Record<GmailFailure, string>> = {
  not_found: "NOT_FOUND",
  no_permission: "GMAIL_NO_PERMISSION",
  timeout: "GMAIL_TIMEOUT",
  protected_label: "LABEL_NOT_ALLOWED",
};

/** Operations that change nothing: not recorded in the ledger. */
const READS = new Set(["search", "read"]);
/** Operations that send mail: at most once, whatever happens to the turn. */
const SENDS = new Set(["send", "reply", "forward"]);

type RunContext = CapabilityContext & { operationId: string };

const view = (e: EmailSummary): EmailView => ({
  id: e.id,
  from: e.from,
  fromAddress: e.fromAddress,
  subject: e.subject,
  date: e.date,
  ...(e.unread ? { unread: true } : {}),
});

/** "email "Invoice" to dana@x.com" (what memory keeps of it; the body never). */
const describe = (subject: string, to: string[]) => `email "${subject}" to ${to.join(", ")}`;

/**
 * gmail: search, read, draft, send, reply, forward, label, archive, trash and mark read, over the
 * user's own Gmail (spec 002 §12.3; the model is used only to condense a long thread already read).
 * Sending is at most once: before a message goes out its operation is marked "sending" in the
 * ledger, and its outcome is recorded after; a turn re-run after a crash reports the recorded
 * outcome, or, when the crash came between the two, says it may already have been sent instead of
 * sending again. Other changes are recorded the same way and not repeated.
 */
export function createGmailExecutor(
  mailboxes: MailboxSource,
  ledger: OperationLedger,
  logger: Logger,
  /** Journals each change as one "undo" cannot take back (default: none). */
  undo?: UndoSettings,
): Executor {
  return {
    name: "GmailExecutor",
    capability: "gmail",
    async execute(functionName, rawArgs, context) {
      const { phone, operationId, language } = context;
      const args = rawArgs as unknown as GmailExecutorArgs;
      const operation = functionName.split(".")[1] ?? args.operation;
      const sending = `${operationId}:sending`;
      try {
        if (READS.has(operation)) return await run(operation, args, mailboxes, context, logger);
        const recorded = await ledger.get(phone, operationId);
        if (recorded !== undefined) return recorded as ExecutorOutcome;
        if (SENDS.has(operation)) {
          if ((await ledger.get(phone, sending)) !== undefined) {
            return { success: false, errorCode: "MAYBE_SENT", error: t(language, "gmail.maybeSent") };
          }
          await ledger.record(phone, sending, { operation });
        }
        const outcome = await run(operation, args, mailboxes, context, logger);
        await ledger.record(phone, operationId, outcome);
        // Gmail keeps no way back Memo could use: "undo" right after says so (never undoes something older).
        if (outcome.success && undo) {
          await recordIrreversible(undo, phone, {
            operationId,
            turnId: context.state.traceId,
            reason: SENDS.has(operation) ? "email" : "gmail",
            now: context.now,
          });
        }
        return outcome;
      } catch (error) {
        const refused = refusal(error, language, SENDS.has(operation));
        if (!refused) throw error;
        // A definite refusal changed nothing: recorded, so a re-run says the same and does not retry.
        if (!READS.has(operation) && refused.definite)
          await ledger.record(phone, operationId, refused.outcome);
        return refused.outcome;
      }
    },
  };
}

/**
 * Lost access and Gmail refusals as what the user reads; `definite` when nothing can have happened.
 * A timeout is never definite: Gmail may have acted (sent) before the answer was given up on.
 */
function refusal(
  error: unknown,
  language: "he" | "en",
  sending: boolean,
): { outcome: ExecutorOutcome; definite: boolean } | null {
  if (error instanceof GoogleConnectionLostError) {
    return {
      outcome: {
        success: false,
        errorCode: "GOOGLE_LOST",
        error: userTextOf(error, language, { capability: "gmail" }),
      },
      definite: true,
    };
  }
  if (error instanceof GmailRequestError) {
    return {
      outcome: {
        success: false,
        errorCode: ERROR_CODES[error.reason] ?? "GMAIL_FAILED",
        error: userTextOf(error, language, { sending }),
      },
      // A 5xx or a lost connection may have happened after Gmail acted.
      definite: error.status !== null && error.status < 500,
    };
  }
  return null;
}

async function run(
  operation: string,
  args: GmailExecutorArgs,
  mailboxes: MailboxSource,
  context: RunContext,
  logger: Logger,
): Promise<ExecutorOutcome> {
  const { phone, language } = context;
  const mailbox = await mailboxes.forUser(phone);
  const ids = args.messageIds ?? [];
  const emails = args.emails ?? [];
  const changed = (
    op: "archive" | "delete" | "markRead" | "label",
    extra: { added?: string[]; removed?: string[] } = {},
  ): ExecutorOutcome => ({
    success: true,
    data: { kind: "changed", op, emails, ...extra } satisfies GmailData,
    latestAction: {
      action: op,
      summary: emails.map((e) => `email "${e.subject}" from ${e.from}`).join("; "),
      externalIds: ids,
    },
  });
  const needsDraft = (): OutgoingEmail => {
    if (!args.draft) throw new GmailRequestError(400, "no_draft");
    return args.draft;
  };
  switch (operation) {
    case "search": {
      const found = await mailbox.search(args.query || "in:inbox", args.maxResults);
      return {
        success: true,
        data: { kind: "emails", emails: found.map(view) } satisfies GmailData,
        latestAction: {
          action: "search",
          summary: `${found.length} emails: ${found
            .slice(0, 5)
            .map((e) => `"${e.subject}" from ${e.from}`)
            .join("; ")}`,
          externalIds: found.map((e) => e.id),
        },
      };
    }
    case "read": {
      const id = ids[0] ?? "";
      const email = await mailbox.getMessage(id);
      const shown: EmailView = { ...view(email), to: email.to, cc: email.cc, body: email.body };
      let thread: { count: number; summary: string } | undefined;
      if (args.thread) {
        const { messages } = await mailbox.getThread(email.threadId);
        if (messages.length > 1) {
          const when = (iso: string) => humanTime(iso, context.now, context.state.user.timezone, language);
          thread = {
            count: messages.length,
            summary: await summarizeThread(messages, { llm: context.llm, language, when, logger }),
          };
        }
      }
      return {
        success: true,
        data: { kind: "email", email: shown, ...(thread ? { thread } : {}) } satisfies GmailData,
        latestAction: {
          action: "read",
          summary: `email "${email.subject}" from ${email.from}`,
          ...(email.date ? { when: email.date } : {}),
          externalIds: [email.id],
        },
      };
    }
    case "compose": {
      const draft = needsDraft();
      const saved = await mailbox.createDraft(draft);
      return {
        success: true,
        data: { kind: "drafted", to: draft.to, subject: draft.subject } satisfies GmailData,
        latestAction: {
          action: "compose",
          summary: `draft ${describe(draft.subject, draft.to)}`,
          externalIds: [saved.messageId],
        },
      };
    }
    case "send":
    case "reply":
    case "forward": {
      const draft = needsDraft();
      const sent = await mailbox.send(draft);
      return {
        success: true,
        data: { kind: "sent", op: operation, to: draft.to, subject: draft.subject } satisfies GmailData,
        latestAction: {
          action: operation,
          summary: describe(draft.subject, draft.to),
          externalIds: [sent.id],
        },
      };
    }
    case "archive":
      await mailbox.archive(ids);
      return changed("archive");
    case "delete":
      await mailbox.trash(ids);
      return changed("delete");
    case "markRead":
      await mailbox.markRead(ids);
      return changed("markRead");
    case "label": {
      const { added, removed } = await mailbox.modifyLabels(ids, {
        add: args.addLabels ?? [],
        remove: args.removeLabels ?? [],
      });
      return changed("label", { added, removed });
    }
    default:
      return { success: false, errorCode: "UNKNOWN_OPERATION", error: t(language, "gmail.failed") };
  }
}
