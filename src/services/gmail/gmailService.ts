import { gmail, type gmail_v1 } from "@googleapis/gmail";
import { mapWithConcurrency } from "../../utils/concurrency.js";
import type { Logger } from "../../utils/logger.js";
import {
  GOOGLE_TIMEOUT_MS,
  GoogleConnectionLostError,
  isInvalidGrant,
  type GoogleAccounts,
} from "../google/types.js";
import { bodyText, decodeHtmlSnippet, displayName, headerOf, splitAddresses } from "./messageText.js";
import { addressOf, rawMessage } from "./mime.js";
import { MemoError } from "../../utils/errors.js";

/** One message as a search lists it. */
export interface EmailSummary {
  id: string;
  threadId: string;
  /** The sender's display name, or address when it has none. */
  from: string;
  fromAddress: string;
  /** Recipients as the header has them ("Name <addr>" or "addr"). */
  to: string[];
  subject: string;
  /** When Gmail received it, ISO; null when unknown. */
  date: string | null;
  snippet: string;
  unread: boolean;
}

/** One message read in full. */
export interface EmailMessage extends EmailSummary {
  cc: string[];
  /** Where replies go (Reply-To, else From), as an address. */
  replyAddress: string;
  /** The plain text body (HTML turned into text when there is no text part). */
  body: string;
  /** Its Message-ID header, for In-Reply-To / References. */
  messageId: string | null;
  references: string | null;
}

export interface EmailThread {
  id: string;
  /** Oldest first. */
  messages: EmailMessage[];
}

/** A message Memo sends or drafts; addresses already validated. */
export interface OutgoingEmail {
  to: string[];
  cc?: string[];
  subject: string;
  body: string;
  /** The conversation a reply belongs to. */
  threadId?: string;
  inReplyTo?: string;
  references?: string;
}

/**
 * Why a Gmail request failed: not found; the grant lacks the Gmail scope (unticked at consent);
 * no answer within the timeout; a label Memo never applies (Trash, Spam, Sent, Drafts); other.
 */
export type GmailFailure =
  "not_found" | "no_permission" | "timeout" | "protected_label" | "no_draft" | "failed";

/** Gmail refused a request for a reason other than lost access (not found, bad request…). */
export class GmailRequestError extends MemoError {
  constructor(
    readonly status: number | null,
    readonly reason: GmailFailure,
  ) {
    super(`Gmail request failed (${status ?? "no status"}: ${reason})`, {
      capability: "gmail",
      status,
      reason,
    });
  }
}

/** Searches at most this many messages (default for a search without a number). */
const DEFAULT_SEARCH_RESULTS = 10;
/** And never more than this many. */
const MAX_SEARCH_RESULTS = 25;

/**
 * System labels a label change never adds: Trash and Spam move mail out of sight (deleting goes
 * through "delete", which asks first), Sent and Drafts are Gmail's own record.
 */
const NEVER_ADDED = new Set(["TRASH", "SPAM", "SENT", "DRAFT"]);
/** And those it never removes (taking mail out of Trash or Spam is a restore: allowed). */
const NEVER_REMOVED = new Set(["SENT", "DRAFT"]);

/** System labels a user may name ("star it", "mark as important"), by lower-case name. */
const SYSTEM_LABELS: Record<string, string> = {
  inbox: "INBOX",
  starred: "STARRED",
  star: "STARRED",
  important: "IMPORTANT",
  unread: "UNREAD",
  spam: "SPAM",
};

/** One user's mailbox. Every method acts for that user only, through their own token. */
export class Mailbox {
  constructor(
    private readonly api: gmail_v1.Gmail,
    private readonly phone: string,
    private readonly google: GoogleAccounts,
    private readonly logger: Logger,
  ) {}

  /** Messages matching a Gmail query ("from:dana invoice"), newest first. */
  async search(query: string, maxResults = DEFAULT_SEARCH_RESULTS): Promise<EmailSummary[]> {
    const limit = Math.min(Math.max(1, Math.floor(maxResults)), MAX_SEARCH_RESULTS);
    const list = await this.call("messages.list", () =>
      this.api.users.messages.list({ userId: "me", q: query, maxResults: limit }),
    );
    const ids = (list.data.messages ?? []).flatMap((m) => (m.id ? [m.id] : [])).slice(0, limit);
    return mapWithConcurrency(ids, 5, async (id) => {
      const { data } = await this.call("messages.get", () =>
        this.api.users.messages.get({
          userId: "me",
          id,
          format: "metadata",
          metadataHeaders: ["From", "To", "Subject", "Date"],
        }),
      );
      return summaryOf(data);
    });
  }

  async getMessage(id: string): Promise<EmailMessage> {
    const { data } = await this.call("messages.get", () =>
      this.api.users.messages.get({ userId: "me", id, format: "full" }),
    );
    return messageOf(data);
  }

  async getThread(threadId: string): Promise<EmailThread> {
    const { data } = await this.call("threads.get", () =>
      this.api.users.threads.get({ userId: "me", id: threadId, format: "full" }),
    );
    return { id: data.id ?? threadId, messages: (data.messages ?? []).map(messageOf) };
  }

  /** Saves a draft (nothing is sent). */
  async createDraft(email: OutgoingEmail): Promise<{ draftId: string; messageId: string }> {
    const { data } = await this.call("drafts.create", () =>
      this.api.users.drafts.create({
        userId: "me",
        requestBody: {
          message: { raw: rawMessage(email), ...(email.threadId ? { threadId: email.threadId } : {}) },
        },
      }),
    );
    return { draftId: data.id ?? "", messageId: data.message?.id ?? "" };
  }

  /** Sends the message; a reply stays in its conversation through threadId and In-Reply-To. */
  async send(email: OutgoingEmail): Promise<{ id: string; threadId: string }> {
    const { data } = await this.call("messages.send", () =>
      this.api.users.messages.send({
        userId: "me",
        requestBody: { raw: rawMessage(email), ...(email.threadId ? { threadId: email.threadId } : {}) },
      }),
    );
    return { id: data.id ?? "", threadId: data.threadId ?? "" };
  }

  /**
   * Adds and removes labels by name. A label to add that does not exist yet is created (the user
   * asked for it by name); one to remove that does not exist is skipped. Returns the names applied.
   * Adding Trash, Spam, Sent or Drafts, or removing Sent or Drafts, is refused before anything
   * changes (GmailRequestError "protected_label").
   */
  async modifyLabels(
    ids: string[],
    change: { add?: string[]; remove?: string[] },
  ): Promise<{ added: string[]; removed: string[] }> {
    const { data } = await this.call("labels.list", () => this.api.users.labels.list({ userId: "me" }));
    const byName = new Map<string, gmail_v1.Schema$Label>();
    for (const label of data.labels ?? []) {
      if (label.name) byName.set(label.name.toLowerCase(), label);
      if (label.id) byName.set(label.id.toLowerCase(), label);
    }
    const find = (name: string) => {
      const key = name.trim().toLowerCase();
      const system = SYSTEM_LABELS[key];
      return byName.get(key) ?? (system ? { id: system, name: system } : undefined);
    };
    // Checked on the label each name resolves to (its id), before any label is created or applied.
    const protectedIn = (names: string[] | undefined, never: Set<string>) =>
      (names ?? []).some((name) => never.has(find(name)?.id ?? name.trim().toUpperCase()));
    if (protectedIn(change.add, NEVER_ADDED) || protectedIn(change.remove, NEVER_REMOVED)) {
      throw new GmailRequestError(400, "protected_label");
    }
    const addIds: string[] = [];
    const added: string[] = [];
    for (const name of change.add ?? []) {
      let label = find(name);
      if (!label) {
        const created = await this.call("labels.create", () =>
          this.api.users.labels.create({
            userId: "me",
            requestBody: {
              name: name.trim(),
              labelListVisibility: "labelShow",
              messageListVisibility: "show",
            },
          }),
        );
        label = created.data;
      }
      if (label.id) {
        addIds.push(label.id);
        added.push(label.name ?? name);
      }
    }
    const removeIds: string[] = [];
    const removed: string[] = [];
    for (const name of change.remove ?? []) {
      const label = find(name);
      if (label?.id) {
        removeIds.push(label.id);
        removed.push(label.name ?? name);
      }
    }
    if (addIds.length + removeIds.length > 0) await this.batchModify(ids, addIds, removeIds);
    return { added, removed };
  }

  /** Takes the messages out of the inbox (they stay in All Mail). */
  archive(ids: string[]): Promise<void> {
    return this.batchModify(ids, [], ["INBOX"]);
  }

  markRead(ids: string[]): Promise<void> {
    return this.batchModify(ids, [], ["UNREAD"]);
  }

  /** Moves the messages to the trash (Gmail empties it after 30 days); never deletes permanently. */
  async trash(ids: string[]): Promise<void> {
    for (const id of ids) {
      await this.call("messages.trash", () => this.api.users.messages.trash({ userId: "me", id }));
    }
  }

  private async batchModify(ids: string[], add: string[], remove: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.call("messages.batchModify", () =>
      this.api.users.messages.batchModify({
        userId: "me",
        requestBody: { ids, addLabelIds: add, removeLabelIds: remove },
      }),
    );
  }

  /**
   * Runs one Gmail request. Lost access (invalid_grant) marks the connection lost and throws
   * GoogleConnectionLostError; any other failure becomes a GmailRequestError that carries the
   * status only, never the request (whose body may hold the message).
   */
  private async call<T>(what: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (isInvalidGrant(error)) {
        await this.google.markLost(this.phone);
        this.logger.warn({ capability: "gmail", request: what }, "Google access lost");
        throw new GoogleConnectionLostError(this.phone);
      }
      const status = (error as { status?: unknown; response?: { status?: unknown } } | null)?.response
        ?.status;
      const code = typeof status === "number" ? status : null;
      const reason = failureOf(error, code);
      this.logger.warn({ capability: "gmail", request: what, status: code, reason }, "Gmail request failed");
      throw new GmailRequestError(code, reason);
    }
  }
}

/** What a failed request's error says: its status, Google's reasons, or gaxios' timeout code. */
function failureOf(error: unknown, status: number | null): GmailFailure {
  const e = error as {
    code?: unknown;
    error?: { name?: unknown };
    response?: { data?: { error?: { errors?: { reason?: unknown }[]; details?: { reason?: unknown }[] } } };
  } | null;
  // gaxios gives up through AbortSignal.timeout: the fetch it uses fails with a TimeoutError or an
  // AbortError. Memo passes no abort signal of its own, so an abort is always the timeout.
  const aborted = [e?.code, e?.error?.name].some((n) => n === "TimeoutError" || n === "AbortError");
  if (status === null && aborted) return "timeout";
  if (status === 404) return "not_found";
  if (status === 403) {
    // The token lacks the Gmail scope: the user unticked Gmail on Google's consent page.
    const body = e?.response?.data?.error;
    const reasons = [...(body?.errors ?? []), ...(body?.details ?? [])].map((r) => r.reason);
    if (reasons.includes("insufficientPermissions") || reasons.includes("ACCESS_TOKEN_SCOPE_INSUFFICIENT")) {
      return "no_permission";
    }
  }
  return "failed";
}

/** Gmail for each user, through their Google connection (GoogleAccounts). */
export class GmailService {
  private readonly timeoutMs: number;

  constructor(
    private readonly google: GoogleAccounts,
    private readonly logger: Logger,
    /** timeoutMs: how long one Gmail request may take (default: GOOGLE_TIMEOUT_MS). */
    options: { timeoutMs?: number } = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? GOOGLE_TIMEOUT_MS;
  }

  /** The user's mailbox; GoogleConnectionLostError when there is no usable connection. */
  async forUser(phone: string): Promise<Mailbox> {
    const auth = await this.google.clientFor(phone);
    if (!auth) throw new GoogleConnectionLostError(phone);
    // googleapis-common passes `timeout` on to gaxios with every request (gaxios has none by default);
    // reads that time out are retried up to twice by googleapis, sends and changes (POST) never.
    const api = gmail({ version: "v1", auth, rootUrl: this.google.apiRootUrl, timeout: this.timeoutMs });
    return new Mailbox(api, phone, this.google, this.logger);
  }
}

function dateOf(message: gmail_v1.Schema$Message): string | null {
  const internal = Number(message.internalDate);
  if (Number.isFinite(internal) && internal > 0) return new Date(internal).toISOString();
  const header = Date.parse(headerOf(message.payload, "Date"));
  return Number.isNaN(header) ? null : new Date(header).toISOString();
}

function summaryOf(message: gmail_v1.Schema$Message): EmailSummary {
  const from = headerOf(message.payload, "From");
  return {
    id: message.id ?? "",
    threadId: message.threadId ?? "",
    from: displayName(from),
    fromAddress: addressOf(from),
    to: splitAddresses(headerOf(message.payload, "To")),
    subject: headerOf(message.payload, "Subject"),
    date: dateOf(message),
    snippet: decodeHtmlSnippet(message.snippet ?? ""),
    unread: (message.labelIds ?? []).includes("UNREAD"),
  };
}

function messageOf(message: gmail_v1.Schema$Message): EmailMessage {
  const summary = summaryOf(message);
  const replyTo = headerOf(message.payload, "Reply-To");
  return {
    ...summary,
    cc: splitAddresses(headerOf(message.payload, "Cc")),
    replyAddress: replyTo ? addressOf(splitAddresses(replyTo)[0] ?? replyTo) : summary.fromAddress,
    body: bodyText(message),
    messageId: headerOf(message.payload, "Message-ID") || null,
    references: headerOf(message.payload, "References") || null,
  };
}
