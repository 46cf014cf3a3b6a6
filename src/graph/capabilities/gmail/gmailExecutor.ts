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
import type { MailboxSource } from "./gmailEntityResolver.js";
import { humanTime } from "../../../utils/timeContext.js";
import type { Logger } from "../../../utils/logger.js";
import type { CapabilityContext, Executor, ExecutorOutcome } from "../../../types/capability.js";
import { assertNever, type OutcomeOf } from "../../../contracts/contract.js";
import {
  gmailContract,
  type ChangedResult,
  type EmailView,
  type GmailArgs,
  type GmailFunction,
  type GmailOperation,
  type GmailResults,
  type SentResult,
} from "../../../contracts/gmail.js";
import { typedExecutor } from "../typedExecutor.js";

/** The executor's error code for each kind of Gmail failure (others: GMAIL_FAILED). */
const ERROR_CODES: Partial<Record<GmailFailure, string>> = {
  not_found: "NOT_FOUND",
  no_permission: "GMAIL_NO_PERMISSION",
  timeout: "GMAIL_TIMEOUT",
  protected_label: "LABEL_NOT_ALLOWED",
};

/** Operations that change nothing: not recorded in the ledger. */
const READS = new Set<string>(
  Object.entries(gmailContract.operations)
    .filter(([, spec]) => "reads" in spec && spec.reads)
    .map(([functionName]) => functionName),
);
/** Operations that send mail: at most once, whatever happens to the turn. */
const SENDS = new Set<GmailFunction>(["gmail.send", "gmail.reply", "gmail.forward"]);

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
  return typedExecutor(gmailContract, {
    name: "GmailExecutor",
    async execute(op, context) {
      const { phone, operationId, language } = context;
      const { functionName } = op;
      const sending = `${operationId}:sending`;
      try {
        if (READS.has(functionName)) return await run(op, mailboxes, context, logger);
        const recorded = await ledger.get(phone, operationId);
        if (recorded !== undefined) return recorded as ExecutorOutcome;
        if (SENDS.has(functionName)) {
          if ((await ledger.get(phone, sending)) !== undefined) {
            return { success: false, errorCode: "MAYBE_SENT", error: t(language, "gmail.maybeSent") };
          }
          await ledger.record(phone, sending, { operation: functionName.slice("gmail.".length) });
        }
        const outcome = await run(op, mailboxes, context, logger);
        await ledger.record(phone, operationId, outcome);
        // Gmail keeps no way back Memo could use: "undo" right after says so (never undoes something older).
        if (outcome.success && undo) {
          await recordIrreversible(undo, phone, {
            operationId,
            turnId: context.state.traceId,
            reason: SENDS.has(functionName) ? "email" : "gmail",
            now: context.now,
          });
        }
        return outcome;
      } catch (error) {
        const refused = refusal(error, language, SENDS.has(functionName));
        if (!refused) throw error;
        // A definite refusal changed nothing: recorded, so a re-run says the same and does not retry.
        if (!READS.has(functionName) && refused.definite)
          await ledger.record(phone, operationId, refused.outcome);
        return refused.outcome;
      }
    },
  });
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

/** The emails an operation acts on, and who and what they are (for the reply). */
type OnEmails = Pick<GmailArgs<"gmail.archive">, "messageIds" | "emails">;

/** What a change to existing emails reports: the emails, and the labels for a label change. */
function changed<Op extends "archive" | "delete" | "markRead" | "label">(
  op: Op,
  args: OnEmails,
  extra: { added?: string[]; removed?: string[] } = {},
): OutcomeOf<ChangedResult<Op>> {
  const emails = args.emails ?? [];
  return {
    success: true,
    data: { kind: "changed", op, emails, ...extra },
    latestAction: {
      action: op,
      summary: emails.map((e) => `email "${e.subject}" from ${e.from}`).join("; "),
      externalIds: args.messageIds ?? [],
    },
  };
}

/** What a send, reply or forward reports: who it went to. */
function sent<Op extends "send" | "reply" | "forward">(
  op: Op,
  draft: OutgoingEmail,
  id: string,
): OutcomeOf<SentResult<Op>> {
  return {
    success: true,
    data: { kind: "sent", op, to: draft.to, subject: draft.subject },
    latestAction: { action: op, summary: describe(draft.subject, draft.to), externalIds: [id] },
  };
}

/** The draft to send or save; without one (a step that lost it) Gmail is not asked at all. */
function needsDraft(draft: OutgoingEmail | null | undefined): OutgoingEmail {
  if (!draft) throw new GmailRequestError(400, "no_draft");
  return draft;
}

async function run(
  op: GmailOperation,
  mailboxes: MailboxSource,
  context: RunContext,
  logger: Logger,
): Promise<ExecutorOutcome> {
  const { phone, language } = context;
  const mailbox = await mailboxes.forUser(phone);
  switch (op.functionName) {
    case "gmail.search": {
      const { args } = op;
      const found = await mailbox.search(args.query || "in:inbox", args.maxResults ?? undefined);
      return {
        success: true,
        data: { kind: "emails", emails: found.map(view) },
        latestAction: {
          action: "search",
          summary: `${found.length} emails: ${found
            .slice(0, 5)
            .map((e) => `"${e.subject}" from ${e.from}`)
            .join("; ")}`,
          externalIds: found.map((e) => e.id),
        },
      } satisfies OutcomeOf<GmailResults["gmail.search"]>;
    }
    case "gmail.read": {
      const { args } = op;
      const id = args.messageIds?.[0] ?? "";
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
        data: { kind: "email", email: shown, ...(thread ? { thread } : {}) },
        latestAction: {
          action: "read",
          summary: `email "${email.subject}" from ${email.from}`,
          ...(email.date ? { when: email.date } : {}),
          externalIds: [email.id],
        },
      } satisfies OutcomeOf<GmailResults["gmail.read"]>;
    }
    case "gmail.compose": {
      const draft = needsDraft(op.args.draft);
      const saved = await mailbox.createDraft(draft);
      return {
        success: true,
        data: { kind: "drafted", to: draft.to, subject: draft.subject },
        latestAction: {
          action: "compose",
          summary: `draft ${describe(draft.subject, draft.to)}`,
          externalIds: [saved.messageId],
        },
      } satisfies OutcomeOf<GmailResults["gmail.compose"]>;
    }
    case "gmail.send": {
      const draft = needsDraft(op.args.draft);
      return sent("send", draft, (await mailbox.send(draft)).id);
    }
    case "gmail.reply": {
      const draft = needsDraft(op.args.draft);
      return sent("reply", draft, (await mailbox.send(draft)).id);
    }
    case "gmail.forward": {
      const draft = needsDraft(op.args.draft);
      return sent("forward", draft, (await mailbox.send(draft)).id);
    }
    case "gmail.archive":
      await mailbox.archive(op.args.messageIds ?? []);
      return changed("archive", op.args);
    case "gmail.delete":
      await mailbox.trash(op.args.messageIds ?? []);
      return changed("delete", op.args);
    case "gmail.markRead":
      await mailbox.markRead(op.args.messageIds ?? []);
      return changed("markRead", op.args);
    case "gmail.label": {
      const { args } = op;
      const { added, removed } = await mailbox.modifyLabels(args.messageIds ?? [], {
        add: args.addLabels ?? [],
        remove: args.removeLabels ?? [],
      });
      return changed("label", args, { added, removed });
    }
    default:
      return assertNever(op);
  }
}
