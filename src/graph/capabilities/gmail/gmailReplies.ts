import { assertNever, declares } from "../../../contracts/contract.js";
import {
  gmailContract,
  type EmailView,
  type GmailFunction,
  type GmailResults,
} from "../../../contracts/gmail.js";
import { t } from "../../../messages/index.js";
import { emailLabel, MAX_BODY_SHOWN, shorten } from "../../../services/gmail/replies.js";
import type { ResponseTemplate } from "../../../types/capability.js";

type Language = "he" | "en";

/** An email as the formatter hands it on: the executor's view plus the date in the user's words. */
type EmailShown = EmailView & { dateHuman?: string };

/** A result as the formatter hands it on: every email in it with its humanized date. */
type Humanized<T> = T extends EmailView
  ? EmailShown
  : T extends (infer U)[]
    ? Humanized<U>[]
    : T extends object
      ? { [K in keyof T]: Humanized<T[K]> }
      : T;

/** One operation's result as the template reads it, by function. */
type Shown = { [F in GmailFunction]: { functionName: F; data: Humanized<GmailResults[F]> } }[GmailFunction];

/** Names of the emails acted on: "Dana — Invoice, Bob — Lunch and 3 more". */
function names(emails: { from: string; subject: string }[], language: Language): string {
  const shown = emails.slice(0, 3).map((e) => `*${e.from}* — ${e.subject || t(language, "gmail.noSubject")}`);
  const rest = emails.length - shown.length;
  return rest > 0
    ? `${shown.join(", ")} ${t(language, "gmail.andMore", { count: String(rest) })}`
    : shown.join(", ");
}

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

function readReply(data: Humanized<GmailResults["gmail.read"]>, language: Language): string {
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

/** Who an email went to, and its subject. */
function recipients(data: { to: string[]; subject: string }, language: Language) {
  return { to: data.to.join(", "), subject: data.subject || t(language, "gmail.noSubject") };
}

/** "Added: x, Removed: y": the label changes made. */
function labelChanges(data: { added?: string[]; removed?: string[] }, language: Language): string {
  return [
    ...(data.added?.length ? [t(language, "gmail.labelAdded", { labels: data.added.join(", ") })] : []),
    ...(data.removed?.length ? [t(language, "gmail.labelRemoved", { labels: data.removed.join(", ") })] : []),
  ].join(", ");
}

/** Each operation's reply: a new operation of the contract fails `tsc` here until it has one. */
function render(shown: Shown, language: Language): string {
  switch (shown.functionName) {
    case "gmail.search":
      return searchReply(shown.data.emails, language);
    case "gmail.read":
      return readReply(shown.data, language);
    case "gmail.compose":
      return t(language, "gmail.drafted", recipients(shown.data, language));
    case "gmail.send":
      return t(language, "gmail.sent", recipients(shown.data, language));
    case "gmail.reply":
      return t(language, "gmail.replied", recipients(shown.data, language));
    case "gmail.forward":
      return t(language, "gmail.forwarded", recipients(shown.data, language));
    case "gmail.archive":
      return t(language, "gmail.archived", { names: names(shown.data.emails, language) });
    case "gmail.delete":
      return t(language, "gmail.trashed", { names: names(shown.data.emails, language) });
    case "gmail.markRead":
      return t(language, "gmail.markedRead", { names: names(shown.data.emails, language) });
    case "gmail.label":
      return t(language, "gmail.labeled", {
        names: names(shown.data.emails, language),
        changes: labelChanges(shown.data, language),
      });
    default:
      return assertNever(shown);
  }
}

/** Replies for gmail results, with no LLM. */
export const gmailTemplate: ResponseTemplate = (result, language) => {
  const given: unknown = result.formattedData;
  if (!declares(gmailContract, result.operation)) return null;
  if (!given || typeof given !== "object" || !("kind" in given)) return null;
  // The formatter hands on what the executor returned for this operation (GmailResults), humanized.
  const shown = { functionName: result.operation, data: given } as Shown;
  return render(shown, language);
};
