import { t } from "../../messages/index.js";
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
export const MAX_BODY_SHOWN = 1500;
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
