/**
 * The gmail capability's contract: every gmail.* operation its executor runs, with the arguments it
 * receives after entity resolution (the emails found in the user's mailbox, never ids the user
 * typed; exactly the draft the approval question showed) and the result it returns.
 */
import { z } from "zod";
import { defineContract, type ArgsOf, type FunctionOf, type OperationOf, type Same } from "./contract.js";

/**
 * The operation's own name, as GmailEntityResolver writes it beside the arguments (its confirmation
 * and revision read it); the executor goes by the function name.
 */
const named = <N extends string>(name: N) => ({ operation: z.literal(name).optional() });

/** The emails acted on, found in the user's mailbox (absent: none, as on a re-run of a recorded step). */
const messageIds = z.array(z.string()).nullish();
/** Who and what the emails acted on are, for the reply and the confirmation (no bodies). */
const emails = z.array(z.object({ from: z.string(), subject: z.string() })).nullish();
/** The emails an operation acts on. */
const onEmails = { messageIds, emails };

/** An email as it is sent: exactly what the approval question showed (spec 002 §12.3). */
const OutgoingEmailSchema = z.object({
  to: z.array(z.string()),
  cc: z.array(z.string()).optional(),
  subject: z.string(),
  body: z.string(),
  /** reply: the conversation it belongs to, and its threading headers. */
  threadId: z.string().optional(),
  inReplyTo: z.string().optional(),
  references: z.string().optional(),
});

/**
 * What is written (absent only on a re-run of a step already recorded, whose outcome the executor
 * reports; otherwise refused as "no draft").
 */
const draft = OutgoingEmailSchema.nullish();

/** An email as results carry it to the templates (a listing: no body). */
export interface EmailView {
  id: string;
  from: string;
  fromAddress: string;
  to?: string[];
  cc?: string[];
  subject: string;
  date: string | null;
  body?: string;
  unread?: boolean;
}

/** search: the emails found. */
interface EmailsResult {
  kind: "emails";
  emails: EmailView[];
}

/** read: one email, and the conversation condensed when the whole thread was asked for. */
interface EmailResult {
  kind: "email";
  email: EmailView;
  thread?: { count: number; summary: string };
}

/** send, reply, forward: who it went to. */
export interface SentResult<Op extends "send" | "reply" | "forward"> {
  kind: "sent";
  op: Op;
  to: string[];
  subject: string;
}

/** compose: the draft saved. */
interface DraftedResult {
  kind: "drafted";
  to: string[];
  subject: string;
}

/** label, archive, delete, markRead: the emails changed (and the labels, for label). */
export interface ChangedResult<Op extends "archive" | "delete" | "markRead" | "label"> {
  kind: "changed";
  op: Op;
  emails: { from: string; subject: string }[];
  added?: string[];
  removed?: string[];
}

/** The operations of the gmail capability, in the order the prompts and the planner list them. */
export const gmailContract = defineContract("gmail", {
  "gmail.search": {
    args: z.object({
      ...named("search"),
      query: z.string().nullish(),
      maxResults: z.number().int().min(1).nullish(),
    }),
    reads: true,
    produces: "emails",
    actions: [{ name: "search_email", reads: true }],
    description:
      'find emails. query is a Gmail search query built from the user\'s words: from:, to:, subject:, is:unread, has:attachment, newer_than:7d, older_than:, in:inbox, plus plain words ("emails from Dana about the invoice" → "from:Dana invoice"; "unread mail from this week" → "is:unread newer_than:7d").',
  },
  "gmail.read": {
    args: z.object({ ...named("read"), ...onEmails, thread: z.boolean().nullish() }),
    reads: true,
    produces: "emails",
    actions: [{ name: "read_email", reads: true }],
    description: "show one email; thread true to read the whole conversation.",
  },
  "gmail.compose": {
    args: z.object({ ...named("compose"), draft }),
    creates: true,
    produces: "emails",
    actions: [{ name: "draft_email" }],
    description: "save a draft (not sent); needs to, subject and body.",
  },
  "gmail.send": {
    args: z.object({ ...named("send"), draft }),
    produces: "emails",
    actions: [{ name: "send_email" }],
    description: "send a new email now; needs to, subject and body.",
  },
  "gmail.reply": {
    args: z.object({ ...named("reply"), ...onEmails, draft }),
    produces: "emails",
    actions: [{ name: "reply_email" }],
    description: "answer an existing email (email names it); body is the reply.",
  },
  "gmail.forward": {
    args: z.object({
      ...named("forward"),
      ...onEmails,
      draft,
      /** The user's note, kept apart so an edit rewrites it and not the forwarded text. */
      note: z.string().nullish(),
    }),
    produces: "emails",
    actions: [{ name: "forward_email" }],
    description: 'send an existing email (email names it) on to "to", with an optional note.',
  },
  "gmail.label": {
    args: z.object({
      ...named("label"),
      ...onEmails,
      addLabels: z.array(z.string()).nullish(),
      removeLabels: z.array(z.string()).nullish(),
    }),
    produces: "emails",
    actions: [{ name: "label_email" }],
    description: "addLabels / removeLabels on the email(s).",
  },
  "gmail.archive": {
    args: z.object({ ...named("archive"), ...onEmails }),
    produces: "emails",
    actions: [{ name: "archive_email" }],
    description: "out of the inbox.",
  },
  "gmail.delete": {
    args: z.object({ ...named("delete"), ...onEmails }),
    produces: "emails",
    actions: [{ name: "delete_email" }],
    description: "to the trash.",
  },
  "gmail.markRead": {
    args: z.object({ ...named("markRead"), ...onEmails }),
    produces: "emails",
    actions: [{ name: "mark_email_read" }],
    description: "mark as read.",
  },
});

type GmailContract = typeof gmailContract;
/** "gmail.search" | "gmail.send" | … */
export type GmailFunction = FunctionOf<GmailContract>;
/** One gmail operation with its arguments, as the executor switches on it. */
export type GmailOperation = OperationOf<GmailContract>;
/** The arguments GmailExecutor receives for `F`. */
export type GmailArgs<F extends GmailFunction> = ArgsOf<GmailContract, F>;

/** What each operation returns as data (the reply template's input, before dates are humanized). */
export interface GmailResults {
  "gmail.search": EmailsResult;
  "gmail.read": EmailResult;
  "gmail.compose": DraftedResult;
  "gmail.send": SentResult<"send">;
  "gmail.reply": SentResult<"reply">;
  "gmail.forward": SentResult<"forward">;
  "gmail.label": ChangedResult<"label">;
  "gmail.archive": ChangedResult<"archive">;
  "gmail.delete": ChangedResult<"delete">;
  "gmail.markRead": ChangedResult<"markRead">;
}

// Every operation has a result type, and every result type an operation.
const _resultsCoverOperations: Same<keyof GmailResults, GmailFunction> = true;
void _resultsCoverOperations;
