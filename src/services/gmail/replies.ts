import type { GmailData } from "../../types/gmail.js";
import { t } from "../../messages/index.js";
import type { ResponseTemplate } from "../../types/capability.js";
import type { GmailFailure } from "./gmailService.js";

type Language = "he" | "en";

/** What the user reads when Gmail refused a request or did not answer; `sending`: it was a send. */
export function failureText(language: Language, reason: GmailFailure, sending = false): string {
  switch (reason) {
    case "not_found":
      return t(language, "gmail.notFoundAny");
    case "no_permission":
      return t(language, "gmail.noPermission");
    case "protected_label":
      return t(language, "gmail.labelProtected");
    case "timeout":
      // A send that timed out may still have gone: never invite the user to simply send it again.
      return t(language, sending ? "gmail.sendTimedOut" : "gmail.timeout");
    default:
      return t(language, "gmail.failed");
  }
}

/** The most characters of a body shown in one WhatsApp message (WhatsApp allows 4096 in all). */
const MAX_BODY_SHOWN = 1500;
/** Lines of the body an approval question shows. */
const APPROVAL_BODY_LINES = 6;
/** And at most this many characters of them. */
const APPROVAL_BODY_CHARS = 400;

/** `text` cut at a line or word boundary near `max`, with the "shortened" mark when cut. */
export function shorten(text: string, max: number, language: Language): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const at = Math.max(cut.lastIndexOf("\n"), cut.lastIndexOf(" "));
  return `${(at > max * 0.6 ? cut.slice(0, at) : cut).trimEnd()}${t(language, "gmail.shortened")}`;
}

/** The first lines of a body, bounded, for an approval question. @internal */
export function firstLines(body: string, language: Language): string {
  const lines = body.trim().split(/\r?\n/);
  const head = lines.slice(0, APPROVAL_BODY_LINES).join("\n");
  const shown = shorten(head, APPROVAL_BODY_CHARS, language);
  return lines.length > APPROVAL_BODY_LINES && shown === head
    ? `${head}\n${t(language, "gmail.shortened")}`
    : shown;
}

/** The draft an approval question is about. */
export interface DraftShown {
  to: string[];
  cc?: string[];
  subject: string;
  body: string;
}

/** The approval question of an outgoing email: recipients, subject and the first lines of the body. */
export function approvalQuestion(
  kind: "send" | "reply" | "forward",
  draft: DraftShown,
  language: Language,
): string {
  const title = t(
    language,
    kind === "send" ? "gmail.approveSend" : kind === "reply" ? "gmail.approveReply" : "gmail.approveForward",
  );
  const lines = [title, `${t(language, "gmail.to")}: ${draft.to.join(", ")}`];
  if (draft.cc?.length) lines.push(`${t(language, "gmail.cc")}: ${draft.cc.join(", ")}`);
  lines.push(
    `${t(language, "gmail.subject")}: ${draft.subject || t(language, "gmail.noSubject")}`,
    "———",
    firstLines(draft.body, language),
  );
  return lines.join("\n");
}

/** A message in a list or question: "Dana Levi — Invoice (yesterday at 09:12)". */
export function emailLabel(
  email: { from: string; subject: string; dateHuman?: string },
  language: Language,
): string {
  const subject = email.subject || t(language, "gmail.noSubject");
  return `${email.from} — ${subject}${email.dateHuman ? ` (${email.dateHuman})` : ""}`;
}

/** Names of the emails acted on: "Dana — Invoice, Bob — Lunch and 3 more". */
function names(emails: { from: string; subject: string }[], language: Language): string {
  const shown = emails.slice(0, 3).map((e) => `*${e.from}* — ${e.subject || t(language, "gmail.noSubject")}`);
  const rest = emails.length - shown.length;
  return rest > 0
    ? `${shown.join(", ")} ${t(language, "gmail.andMore", { count: String(rest) })}`
    : shown.join(", ");
}

interface EmailShown {
  from: string;
  fromAddress: string;
  to?: string[];
  cc?: string[];
  subject: string;
  dateHuman?: string;
  body?: string;
  unread?: boolean;
}

/** What gmail results carry to the template, after the formatter added `dateHuman`. */
type Shown = GmailData<EmailShown>;

function searchReply(emails: EmailShown[], language: Language): string {
  if (emails.length === 0) return t(language, "gmail.foundNone");
  const lines = emails.map(
    (e, i) =>
      `${i + 1}. ${emailLabel({ ...e, from: `*${e.from}*` }, language)}${e.unread ? ` ${t(language, "gmail.unread")}` : ""}`,
  );
  const title = t(language, "gmail.found", { count: emails.length });
  return [title, ...lines, "", t(language, "gmail.readHint", { n: emails.length > 1 ? "2" : "1" })].join(
    "\n",
  );
}

function readReply(data: Extract<Shown, { kind: "email" }>, language: Language): string {
  const { email, thread } = data;
  const subject = email.subject || t(language, "gmail.noSubject");
  if (thread) {
    return `${t(language, "gmail.threadOf", { subject, count: String(thread.count) })}\n\n${thread.summary}`;
  }
  const from = email.from === email.fromAddress ? email.from : `${email.from} <${email.fromAddress}>`;
  const lines = [`📧 *${subject}*`, `${t(language, "gmail.from")}: ${from}`];
  if (email.to?.length) lines.push(`${t(language, "gmail.to")}: ${email.to.join(", ")}`);
  if (email.cc?.length) lines.push(`${t(language, "gmail.cc")}: ${email.cc.join(", ")}`);
  if (email.dateHuman) lines.push(`🕒 ${email.dateHuman}`);
  return `${lines.join("\n")}\n\n${shorten(email.body ?? "", MAX_BODY_SHOWN, language)}`;
}

/** Replies for gmail results, with no LLM. */
export const gmailTemplate: ResponseTemplate = (result, language) => {
  const data = result.formattedData as Shown | undefined;
  if (!data || typeof data !== "object") return null;
  switch (data.kind) {
    case "emails":
      return searchReply(data.emails, language);
    case "email":
      return readReply(data, language);
    case "sent": {
      const key =
        data.op === "send" ? "gmail.sent" : data.op === "reply" ? "gmail.replied" : "gmail.forwarded";
      return t(language, key, {
        to: data.to.join(", "),
        subject: data.subject || t(language, "gmail.noSubject"),
      });
    }
    case "drafted":
      return t(language, "gmail.drafted", {
        to: data.to.join(", "),
        subject: data.subject || t(language, "gmail.noSubject"),
      });
    case "changed": {
      const shown = names(data.emails, language);
      if (data.op === "archive") return t(language, "gmail.archived", { names: shown });
      if (data.op === "delete") return t(language, "gmail.trashed", { names: shown });
      if (data.op === "markRead") return t(language, "gmail.markedRead", { names: shown });
      const changes = [
        ...(data.added?.length ? [t(language, "gmail.labelAdded", { labels: data.added.join(", ") })] : []),
        ...(data.removed?.length
          ? [t(language, "gmail.labelRemoved", { labels: data.removed.join(", ") })]
          : []),
      ];
      return t(language, "gmail.labeled", { names: shown, changes: changes.join(", ") });
    }
    default:
      return null;
  }
};
