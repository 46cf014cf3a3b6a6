import type { OperationLedger } from "../../../db/repositories/operationLedger.js";
import { operationIdOf } from "../../plan/operationId.js";
import { resolveUnlessDone } from "../../entities/rerun.js";
import type { CapabilityContext, EntityResolution, EntityResolver } from "../../../types/capability.js";
import type { DisambiguationState, PlanStep, ResolverResult } from "../../../types/index.js";
import { nonEmpty } from "../../../utils/args.js";
import { humanTime } from "../../../utils/timeContext.js";
import { forwardDraft, replyDraft } from "../../../services/gmail/drafts.js";
import {
  GmailRequestError,
  type EmailMessage,
  type EmailSummary,
  type Mailbox,
  type OutgoingEmail,
} from "../../../services/gmail/gmailService.js";
import { addressOf, isEmailAddress } from "../../../services/gmail/mime.js";
import { approvalQuestion, emailLabel } from "../../../services/gmail/replies.js";
import { GoogleConnectionLostError } from "../../../services/google/types.js";
import { t } from "../../../messages/index.js";
import { DRAFT_REVISION_PROMPT, RevisedDraftSchema } from "../../../prompts/draftRevisionPrompt.js";
import { userTextOf } from "../../errorText.js";
import { bindToDependency, parseHandle } from "../../entities/references.js";
import { assertNever, checkOperation, declares } from "../../../contracts/contract.js";
import {
  gmailContract,
  type GmailArgs,
  type GmailFunction,
  type GmailOperation,
} from "../../../contracts/gmail.js";

type Args = Record<string, unknown>;

/** Operations that may act on several emails at once. */
const BULK = new Set<GmailFunction>(["gmail.label", "gmail.archive", "gmail.delete", "gmail.markRead"]);
/** The question of a risky plan before a change it did not approve already. */
const CONFIRM_CHANGE: Partial<
  Record<GmailFunction, "gmail.confirmArchive" | "gmail.confirmMarkRead" | "gmail.confirmLabel">
> = {
  "gmail.archive": "gmail.confirmArchive",
  "gmail.markRead": "gmail.confirmMarkRead",
  "gmail.label": "gmail.confirmLabel",
};
/** Emails a search shows as candidates, and that one bulk change touches at most. */
const CANDIDATES = 10;
const MAX_BULK = 25;

/** The mailboxes the resolver searches: GmailService, or a stand-in. */
export interface MailboxSource {
  forUser(phone: string): Promise<Mailbox>;
}

/** Emails found for a reference, or what to ask or say instead. */
type Found =
  | { status: "found"; emails: EmailSummary[] }
  | { status: "several"; emails: EmailSummary[]; query: string }
  | { status: "missing"; message: string };

/** Why the recipients could not all be made addresses. */
type RecipientProblem =
  | { status: "several"; index: number; field: "to" | "cc"; name: string; addresses: string[] }
  | { status: "missing"; name: string };

/**
 * Gmail's own folders by the names users give them (English and Hebrew Gmail): a label change never
 * puts mail in Trash or Spam (deleting goes through "delete", which asks first) and never touches
 * Sent or Drafts. Said here before any search; Mailbox.modifyLabels enforces it by label id.
 */
const NEVER_ADDED = /^(?:trash|bin|spam|sent|drafts?|אשפה|ספאם|דואר יוצא|נשלחו|טיוטות|טיוטה)$/i;
const NEVER_REMOVED = /^(?:sent|drafts?|דואר יוצא|נשלחו|טיוטות|טיוטה)$/i;

/** A bare "cancel" / "no" typed where Memo asked what to change: the user wants nothing sent. */
const CANCEL_WORDS =
  /^(?:cancel|no|nope|stop|abort|never ?mind|forget it|don['’]?t send(?: it)?|ביטול|בטל|תבטל|לא|עזוב|עזבי|לא משנה|אל תשלח)$/i;

const strings = (v: unknown) =>
  Array.isArray(v) ? v.flatMap((s) => (typeof s === "string" && s.trim() ? [s.trim()] : [])) : [];
const notFound = (message: string): EntityResolution => ({ status: "not_found", message });

/**
 * Args this resolver resolved (what GmailExecutor is handed), as the contract types them: each
 * carries its operation's name. Null for args that do not satisfy it.
 */
function resolvedOperation(args: Args): GmailOperation | null {
  const checked = checkOperation(gmailContract, `gmail.${String(args.operation)}`, args);
  return checked.success ? checked.operation : null;
}

/** Gmail search value: one word as is, several quoted. */
const term = (words: string) => {
  const clean = words.replace(/["()]/g, " ").trim().replace(/\s+/g, " ");
  return /\s/.test(clean) ? `"${clean}"` : clean;
};

/** The Gmail query for a reference in words: sender, subject words, other words. @internal */
export function referenceQuery(reference: Args): string {
  const parts: string[] = [];
  const from = nonEmpty(reference.from);
  const subject = nonEmpty(reference.subject);
  const words = nonEmpty(reference.words);
  if (from) parts.push(`from:${term(from)}`);
  if (subject) parts.push(`subject:(${subject.replace(/[()]/g, " ").trim()})`);
  if (words) parts.push(words.replace(/[()]/g, " ").trim());
  return parts.join(" ");
}

/**
 * Entity resolution for email (spec 001 §7): finds the email a step names by searching the user's
 * mailbox with their words ("the email from Dana about the invoice"), a handle ("#2" of the list
 * shown last, "@1" the latest action), never an id from the user; several matches ask which (sender,
 * subject, date), none says so. Recipients named without an address are looked up in the mail.
 * send, reply, forward and delete always ask approve / edit / cancel here, in code, whatever the
 * planner said, showing recipients, subject and the first lines; `revise` applies an edit.
 */
export class GmailEntityResolver implements EntityResolver {
  readonly capability = "gmail" as const;

  constructor(
    private readonly mailboxes: MailboxSource,
    private readonly ledger: OperationLedger,
  ) {}

  async resolve(
    step: PlanStep,
    result: ResolverResult,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const args = result.args ?? {};
    const operationId = operationIdOf(context.state.traceId, step.id);
    const functionName = result.functionName ?? "";
    // A re-run of a turn whose operation already ran (or began to send): the executor reports it.
    return resolveUnlessDone(this.ledger, context.phone, [operationId, `${operationId}:sending`], args, () =>
      this.guarded(context, (mailbox) => this.resolveFunction(step, functionName, args, mailbox, context)),
    );
  }

  async applySelection(
    step: PlanStep,
    disambiguation: DisambiguationState,
    selection: string[],
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const chosen = selection[0];
    // Only an offered candidate is taken: the ids came from the user's own mailbox search.
    if (!chosen || !disambiguation.candidates.some((c) => c.id === chosen) || !disambiguation.target) {
      return notFound(t(context.language, "gmail.whichEmail"));
    }
    const args = { ...disambiguation.originalArgs };
    const [field, index] = disambiguation.target.split(".");
    if (field === "messageIds") args.messageIds = [chosen];
    else if ((field === "to" || field === "cc") && index !== undefined) {
      const list = strings(args[field]);
      list[Number(index)] = chosen;
      args[field] = list;
    }
    const functionName = context.state.resolverResults.get(step.id)?.functionName ?? "";
    return this.guarded(context, (mailbox) =>
      this.resolveFunction(step, functionName, args, mailbox, context),
    );
  }

  /**
   * A risky plan's question before archiving, labelling or marking emails read, naming them. Sending,
   * replying, forwarding and deleting were approved already (approve / edit / cancel); reading,
   * searching and drafts change nothing.
   */
  confirmation(_step: PlanStep, args: Args, context: CapabilityContext): Promise<string | null> {
    const op = resolvedOperation(args);
    const key = op ? CONFIRM_CHANGE[op.functionName] : undefined;
    const emails = op && "emails" in op.args ? (op.args.emails ?? []) : [];
    if (!key || emails.length === 0) return Promise.resolve(null);
    return Promise.resolve(this.naming(t(context.language, key), emails, context));
  }

  async revise(
    _step: PlanStep,
    args: Args,
    change: string,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const op = resolvedOperation(args);
    // "cancel" at "What should I change?" ends the step with nothing sent; it never becomes the text.
    if (CANCEL_WORDS.test(change.trim().replace(/[.!,\s]+$/u, ""))) {
      const draft = op && "draft" in op.args ? op.args.draft : undefined;
      return notFound(draft ? t(context.language, "gmail.wontSend") : t(context.language, "cancelled"));
    }
    // Only args this resolver made are asked about for approval: anything else is a defect of ours.
    if (!op) return notFound(t(context.language, "gmail.failed"));
    return this.guarded(context, (mailbox) => this.reviseDraft(op, args, change, mailbox, context));
  }

  /** Runs `work` on the user's mailbox; lost access and Gmail refusals become a message, not a crash. */
  private async guarded(
    context: CapabilityContext,
    work: (mailbox: Mailbox) => Promise<EntityResolution>,
  ): Promise<EntityResolution> {
    try {
      return await work(await this.mailboxes.forUser(context.phone));
    } catch (error) {
      if (error instanceof GoogleConnectionLostError || error instanceof GmailRequestError)
        return notFound(userTextOf(error, context.language, { capability: "gmail" }));
      throw error;
    }
  }

  /** The step's function, when the contract declares it; any other says Gmail failed. */
  private resolveFunction(
    step: PlanStep,
    functionName: string,
    args: Args,
    mailbox: Mailbox,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    if (!declares(gmailContract, functionName))
      return Promise.resolve(notFound(t(context.language, "gmail.failed")));
    return this.resolveOperation(step, functionName, args, mailbox, context);
  }

  /** The args of `functionName` from the resolver's: the emails and recipients found, the draft made. */
  private async resolveOperation(
    step: PlanStep,
    functionName: GmailFunction,
    args: Args,
    mailbox: Mailbox,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const { language } = context;
    if (functionName === "gmail.search") {
      return {
        status: "resolved",
        args: {
          operation: "search",
          query:
            nonEmpty(args.query) ?? (referenceQuery((args.email as Args | undefined) ?? {}) || "in:inbox"),
          ...(typeof args.maxResults === "number" ? { maxResults: args.maxResults } : {}),
        } satisfies GmailArgs<"gmail.search">,
      };
    }
    if (functionName === "gmail.compose" || functionName === "gmail.send") {
      const recipients = await this.recipients(step, args, mailbox, context);
      if (!("draft" in recipients)) return recipients.resolution;
      const draft: OutgoingEmail = {
        ...recipients.draft,
        subject: nonEmpty(args.subject) ?? "",
        body: nonEmpty(args.body) ?? "",
      };
      return functionName === "gmail.compose"
        ? { status: "resolved", args: { operation: "compose", draft } satisfies GmailArgs<"gmail.compose"> }
        : {
            status: "approve",
            question: approvalQuestion("send", draft, language),
            args: { operation: "send", draft } satisfies GmailArgs<"gmail.send">,
          };
    }
    if (
      functionName === "gmail.label" &&
      (strings(args.addLabels).some((l) => NEVER_ADDED.test(l)) ||
        strings(args.removeLabels).some((l) => NEVER_REMOVED.test(l)))
    ) {
      return notFound(t(language, "gmail.labelProtected"));
    }

    const found = await this.findEmails(args, functionName, mailbox, context);
    if (found.status === "missing") return notFound(found.message);
    if (found.status === "several") {
      return {
        status: "disambiguation",
        entityLabel: t(language, "gmail.entity"),
        disambiguation: {
          type: "email",
          stepId: step.id,
          query: found.query,
          candidates: found.emails.map((e) => ({
            id: e.id,
            displayText: emailLabel(this.dated(e, context), language),
          })),
          allowMultiple: false,
          originalArgs: args,
          target: "messageIds",
        },
      };
    }
    const emails = found.emails;
    const first = emails[0]!;
    // The operation's name, then the emails it acts on (never ids the user typed).
    const on = <N extends string>(operation: N) => ({
      operation,
      messageIds: emails.map((e) => e.id),
      emails: emails.map((e) => ({ from: e.from, subject: e.subject })),
    });
    switch (functionName) {
      case "gmail.read":
        return {
          status: "resolved",
          args: {
            ...on("read"),
            ...(args.thread === true ? { thread: true } : {}),
          } satisfies GmailArgs<"gmail.read">,
        };
      case "gmail.reply": {
        const cc = await this.recipients(step, { ...args, to: [] }, mailbox, context);
        if (!("draft" in cc)) return cc.resolution;
        const original = await mailbox.getMessage(first.id);
        const draft = replyDraft(original, nonEmpty(args.body) ?? "", cc.draft.cc ?? []);
        return {
          status: "approve",
          question: approvalQuestion("reply", draft, language),
          args: { ...on("reply"), draft } satisfies GmailArgs<"gmail.reply">,
        };
      }
      case "gmail.forward": {
        const recipients = await this.recipients(step, args, mailbox, context);
        if (!("draft" in recipients)) return recipients.resolution;
        const original = await mailbox.getMessage(first.id);
        const note = nonEmpty(args.note) ?? nonEmpty(args.body) ?? "";
        const draft = forwardDraft(original, recipients.draft.to, note, recipients.draft.cc ?? []);
        return {
          status: "approve",
          question: approvalQuestion("forward", draft, language),
          args: { ...on("forward"), draft, note } satisfies GmailArgs<"gmail.forward">,
        };
      }
      case "gmail.delete":
        return {
          status: "approve",
          question: this.deleteQuestion(emails, context),
          args: on("delete") satisfies GmailArgs<"gmail.delete">,
        };
      case "gmail.label":
        return {
          status: "resolved",
          args: {
            ...on("label"),
            addLabels: strings(args.addLabels),
            removeLabels: strings(args.removeLabels),
          } satisfies GmailArgs<"gmail.label">,
        };
      case "gmail.archive":
        return { status: "resolved", args: on("archive") satisfies GmailArgs<"gmail.archive"> };
      case "gmail.markRead":
        return { status: "resolved", args: on("markRead") satisfies GmailArgs<"gmail.markRead"> };
      default:
        return assertNever(functionName);
    }
  }

  /** The emails a reference names: a handle, the words searched in the mailbox, or the latest email acted on. */
  private async findEmails(
    args: Args,
    functionName: GmailFunction,
    mailbox: Mailbox,
    context: CapabilityContext,
  ): Promise<Found> {
    const { language, state } = context;
    const chosen = strings(args.messageIds);
    if (chosen.length > 0) {
      // Chosen by the user among candidates from their own search: read again from their mailbox.
      const emails = await Promise.all(chosen.map((id) => mailbox.getMessage(id)));
      return { status: "found", emails };
    }
    const reference = (args.email as Args | undefined) ?? {};
    // "forward it" after an earlier step of this message found the email: exactly that one.
    const binding = bindToDependency(
      context,
      "emails",
      { handle: nonEmpty(reference.handle), words: referenceQuery(reference) || undefined },
      args.fromStep,
    );
    if (binding) {
      const ids = binding.status === "bound" ? binding.ref.ids : [];
      if (ids.length === 0) return { status: "missing", message: t(language, "gmail.whichEmail") };
      const emails = await Promise.all(ids.map((id) => mailbox.getMessage(id)));
      return ids.length === 1 ? { status: "found", emails } : { status: "several", emails, query: "" };
    }
    const handle = nonEmpty(reference.handle) ? parseHandle(String(reference.handle)) : null;
    if (handle?.kind === "number") {
      const listing = state.latestActions.find((a) => a.capability === "gmail" && a.action === "search");
      const id = listing?.externalIds?.[handle.n - 1];
      if (!id)
        return { status: "missing", message: t(language, "gmail.noSuchNumber", { n: String(handle.n) }) };
      return { status: "found", emails: [await mailbox.getMessage(id)] };
    }
    const query = referenceQuery(reference);
    if (handle?.kind === "action" || !query) {
      const n = handle?.kind === "action" ? handle.n : 1;
      const action =
        handle?.kind === "action"
          ? state.latestActions[n - 1]
          : state.latestActions.find((a) => a.capability === "gmail");
      const ids = action?.capability === "gmail" ? (action.externalIds ?? []) : [];
      // "it" after a search means the first email shown only when one was shown.
      const id = action?.action === "search" && ids.length !== 1 ? undefined : ids[0];
      if (!id) return { status: "missing", message: t(language, "gmail.whichEmail") };
      return { status: "found", emails: [await mailbox.getMessage(id)] };
    }
    const many = args.all === true && BULK.has(functionName);
    const emails = await mailbox.search(query, many ? MAX_BULK : CANDIDATES);
    if (emails.length === 0) {
      return { status: "missing", message: t(language, "gmail.notFound", { query: describe(reference) }) };
    }
    if (emails.length === 1 || many) return { status: "found", emails };
    return { status: "several", emails, query };
  }

  /**
   * The recipients of `args` as addresses: addresses are kept, names are looked up among the
   * people in the user's mail (one address: taken; several: asked; none: said).
   */
  private async recipients(
    step: PlanStep,
    args: Args,
    mailbox: Mailbox,
    context: CapabilityContext,
  ): Promise<{ draft: { to: string[]; cc?: string[] } } | { resolution: EntityResolution }> {
    const found = await lookupRecipients(strings(args.to), strings(args.cc), mailbox);
    if (found.status === "found") {
      return { draft: { to: found.to, ...(found.cc.length ? { cc: found.cc } : {}) } };
    }
    const result = found.problem;
    if (result.status === "missing") {
      return { resolution: notFound(t(context.language, "gmail.noAddressFor", { name: result.name })) };
    }
    return {
      resolution: {
        status: "disambiguation",
        entityLabel: t(context.language, "gmail.entityAddresses", { name: result.name }),
        disambiguation: {
          type: "contact",
          stepId: step.id,
          query: result.name,
          candidates: result.addresses.map((a) => ({ id: a, displayText: a })),
          allowMultiple: false,
          originalArgs: args,
          target: `${result.field}.${result.index}`,
        },
      },
    };
  }

  /** Applies the user's change to the draft it asked approval for, and asks again. */
  /** `args` (as asked about, `op` as the contract types them) with the change applied. */
  private async reviseDraft(
    op: GmailOperation,
    args: Args,
    change: string,
    mailbox: Mailbox,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const { language } = context;
    const draft = "draft" in op.args ? op.args.draft : undefined;
    if (!draft) {
      // Nothing to rewrite (delete): the same question again.
      const emails = "emails" in op.args ? (op.args.emails ?? []) : [];
      return { status: "approve", question: this.deleteQuestion(emails, context), args: { ...args } };
    }
    const forward = op.functionName === "gmail.forward";
    const current = {
      to: draft.to,
      cc: draft.cc ?? [],
      subject: draft.subject,
      body: op.functionName === "gmail.forward" ? (op.args.note ?? "") : draft.body,
    };
    const revised = (await this.rewrite(current, change, context)) ?? applyChangeByRule(current, change);
    const fixedRecipients = op.functionName === "gmail.reply";
    let note = "";
    let to = current.to;
    let cc = current.cc;
    if (!fixedRecipients || revised.cc.join() !== current.cc.join()) {
      const wanted = { to: fixedRecipients ? current.to : revised.to, cc: revised.cc };
      const found = await lookupRecipients(wanted.to, wanted.cc, mailbox);
      if (found.status === "found" && found.to.length > 0) {
        to = found.to;
        cc = found.cc;
      } else if (found.status !== "found") {
        // An address that cannot be found never replaces a good one: the recipients stay.
        note = `${t(language, "gmail.revisedRecipientsKept", { names: found.problem.name })}\n`;
      }
    }
    let next: OutgoingEmail;
    if (forward) {
      const chosen = "messageIds" in op.args ? op.args.messageIds?.[0] : undefined;
      const original: EmailMessage = await mailbox.getMessage(chosen ?? "");
      next = forwardDraft(original, to, revised.body, cc);
    } else {
      next = {
        ...draft,
        to: fixedRecipients ? draft.to : to,
        subject: fixedRecipients ? draft.subject : revised.subject || draft.subject,
        body: revised.body || draft.body,
      };
      if (cc.length) next.cc = cc;
      else delete next.cc;
    }
    const kind = fixedRecipients ? "reply" : forward ? "forward" : "send";
    return {
      status: "approve",
      question: note + approvalQuestion(kind, next, language),
      args: { ...args, draft: next, ...(forward ? { note: revised.body } : {}) },
    };
  }

  /** The draft rewritten by the model as the user asked; null without a model, or when it fails. */
  private async rewrite(
    current: { to: string[]; cc: string[]; subject: string; body: string },
    change: string,
    context: CapabilityContext,
  ): Promise<{ to: string[]; cc: string[]; subject: string; body: string } | null> {
    if (!context.llm) return null;
    try {
      const { value } = await context.llm.structured(
        "resolver:gmail",
        RevisedDraftSchema,
        [
          { role: "system", content: DRAFT_REVISION_PROMPT },
          {
            role: "user",
            content: `Draft:\n${JSON.stringify(current, null, 1)}\n\nThe user's change:\n${change}`,
          },
        ],
        { name: "revised_draft" },
      );
      return {
        to: strings(value.to),
        cc: strings(value.cc),
        subject: value.subject?.trim() ?? current.subject,
        body: value.body.trim(),
      };
    } catch (error) {
      // The rule-based edit still applies the change; the error is logged without the text.
      context.logger.warn(
        { capability: "gmail", err: error instanceof Error ? error.name : "unknown" },
        "draft revision by model failed",
      );
      return null;
    }
  }

  private deleteQuestion(
    emails: { from: string; subject: string; date?: string | null }[],
    context: CapabilityContext,
  ): string {
    const { language } = context;
    const title =
      emails.length === 1
        ? t(language, "gmail.approveDelete")
        : t(language, "gmail.approveDeleteMany", { count: String(emails.length) });
    return this.naming(title, emails, context);
  }

  /** A question's title and the emails it is about, one per line. */
  private naming(
    title: string,
    emails: { from: string; subject: string; date?: string | null }[],
    context: CapabilityContext,
  ): string {
    const lines = emails
      .slice(0, CANDIDATES)
      .map((e) => `• ${emailLabel(this.dated(e, context), context.language)}`);
    if (emails.length > CANDIDATES) lines.push("…");
    return [title, ...lines].join("\n");
  }

  /** An email with its date in the user's words, for lists and questions. */
  private dated<T extends { from: string; subject: string; date?: string | null }>(
    email: T,
    context: CapabilityContext,
  ): T & { dateHuman?: string } {
    if (!email.date) return email;
    return {
      ...email,
      dateHuman: humanTime(email.date, context.now, context.state.user.timezone, context.language),
    };
  }
}

/** How a reference reads back to the user: "from Dana, invoice". */
function describe(reference: Args): string {
  return [nonEmpty(reference.from), nonEmpty(reference.subject), nonEmpty(reference.words)]
    .filter(Boolean)
    .map((s) => `"${s}"`)
    .join(", ");
}

/** Recipients as addresses, or the first one that could not be made one. */
async function lookupRecipients(
  to: string[],
  cc: string[],
  mailbox: Mailbox,
): Promise<
  { status: "found"; to: string[]; cc: string[] } | { status: "problem"; problem: RecipientProblem }
> {
  const out: { to: string[]; cc: string[] } = { to: [], cc: [] };
  for (const field of ["to", "cc"] as const) {
    for (const [index, entry] of (field === "to" ? to : cc).entries()) {
      const address = addressOf(entry);
      if (isEmailAddress(address)) {
        out[field].push(entry.includes("<") ? entry : address);
        continue;
      }
      if (entry.includes("@")) return { status: "problem", problem: { status: "missing", name: entry } };
      const addresses = await addressesOf(entry, mailbox);
      if (addresses.length === 0) return { status: "problem", problem: { status: "missing", name: entry } };
      if (addresses.length > 1) {
        return { status: "problem", problem: { status: "several", index, field, name: entry, addresses } };
      }
      out[field].push(addresses[0]!);
    }
  }
  return { status: "found", ...out };
}

/** Addresses of people called `name` in the user's mail (senders, then people they wrote to): "Dana Levi <dana@x.com>". */
async function addressesOf(name: string, mailbox: Mailbox): Promise<string[]> {
  const words = name.toLowerCase().split(/\s+/).filter(Boolean);
  const fits = (entry: string) => {
    const text = entry.toLowerCase();
    return words.every((w) => text.includes(w));
  };
  const found = new Map<string, string>();
  const add = (display: string, address: string) => {
    if (!isEmailAddress(address) || !fits(`${display} ${address}`)) return;
    const key = address.toLowerCase();
    if (!found.has(key)) found.set(key, display && display !== address ? `${display} <${address}>` : address);
  };
  for (const e of await mailbox.search(`from:${term(name)}`, CANDIDATES)) add(e.from, e.fromAddress);
  if (found.size === 0) {
    for (const e of await mailbox.search(`to:${term(name)}`, CANDIDATES)) {
      for (const entry of e.to)
        add(
          entry
            .replace(/<[^<>]*>\s*$/, "")
            .replace(/"/g, "")
            .trim(),
          addressOf(entry),
        );
    }
  }
  return [...found.values()].slice(0, CANDIDATES);
}

/**
 * An edit without a model: "subject: …" sets the subject, "to: …" the recipients, "cc …" / "add …"
 * with an address adds one in cc; anything else is the new text of the email (or of a forward's note).
 * @internal
 */
export function applyChangeByRule(
  current: { to: string[]; cc: string[]; subject: string; body: string },
  change: string,
): { to: string[]; cc: string[]; subject: string; body: string } {
  const text = change.trim();
  const subject = /^(?:subject|נושא)\s*[:：]\s*(.+)$/is.exec(text);
  if (subject) return { ...current, subject: subject[1]!.trim() };
  const to = /^(?:to|אל|למען)\s*[:：]\s*(.+)$/is.exec(text);
  if (to) return { ...current, to: to[1]!.split(/[,;\s]+/).filter(Boolean) };
  const cc = /^(?:cc|add|הוסף|תוסיף|עותק)\s*[:：]?\s*(\S+@\S+)$/i.exec(text);
  if (cc) return { ...current, cc: [...current.cc, cc[1]!] };
  return { ...current, body: text };
}
