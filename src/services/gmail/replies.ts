import type { GmailData } from "../../types/gmail.js";
import { fillTemplate } from "../../messages/index.js";
import type { ResponseTemplate } from "../../types/capability.js";
import type { GmailFailure } from "./gmailService.js";

type Language = "he" | "en";

/** Every fixed sentence of the gmail capability, in Hebrew and English. */
const GMAIL_MESSAGES = {
  en: {
    askRecipient: "Who should I send it to? (an email address)",
    askBody: "What should the email say?",
    askForwardTo: "Who should I forward it to? (an email address)",
    askLabel: "Which label?",
    badAddress: "\"{address}\" doesn't look like an email address. What's the right one?",
    noAddressFor: "I couldn't find an email address for {name} in your mail. What's their address?",
    whichEmail: "Which email do you mean?",
    notFound: "I couldn't find an email matching {query}.",
    notFoundAny: "I couldn't find that email.",
    noSuchNumber: "There's no number {n} in the last emails I showed you.",
    entity: "emails",
    entityAddresses: "addresses for {name}",
    googleLost:
      "I've lost access to your Google account (the permission was revoked or has expired). Say \"connect Google\" and I'll send you a new link.",
    failed: "Gmail didn't accept that request. Please try again in a moment.",
    maybeSent:
      "I may already have sent this before something went wrong on my side; please check your Sent folder before asking again.",
    revisedRecipientsKept: "(I couldn't find an address for {names}, so I kept the recipients as they were.)",
    timeout: "Gmail isn't answering right now. Please try again in a minute.",
    sendTimedOut:
      "Gmail didn't answer in time, so I can't tell whether it was sent. Please check your Sent folder before asking again.",
    noPermission:
      'I don\'t have permission to use your Gmail: it wasn\'t allowed when Google was connected. To allow it, say "disconnect Google", then "connect Google", and tick Gmail on Google\'s page.',
    labelProtected:
      "I can't put emails in Trash or Spam, or in or out of Sent or Drafts, with a label. To delete emails, say \"delete …\" and I'll ask you first.",
    wontSend: "OK, I won't send it.",
    // Approval questions: what will be sent, then approve / edit / cancel.
    approveSend: "📧 Send this email?",
    approveReply: "↩️ Send this reply?",
    approveForward: "➡️ Forward this email?",
    approveDelete: "🗑️ Move this email to the trash?",
    approveDeleteMany: "🗑️ Move these {count} emails to the trash?",
    confirmArchive: "📦 Archive?",
    confirmMarkRead: "👁️ Mark as read?",
    confirmLabel: "🏷️ Change the labels?",
    to: "To",
    cc: "Cc",
    from: "From",
    subject: "Subject",
    date: "Date",
    noSubject: "(no subject)",
    // Results.
    found: "📬 {count} emails:",
    foundOne: "📬 1 email:",
    foundNone: "📭 No emails found.",
    readHint: 'Say "read {n}" to open one.',
    unread: "(unread)",
    shortened: "… (shortened)",
    threadOf: "🧵 *{subject}*: {count} messages",
    sent: "✅ Sent to {to}: *{subject}*",
    replied: "✅ Reply sent to {to}: *{subject}*",
    forwarded: "✅ Forwarded to {to}: *{subject}*",
    drafted: "📝 Draft saved (not sent) to {to}: *{subject}*",
    archived: "📦 Archived: {names}",
    trashed: "🗑️ Moved to the trash: {names}",
    markedRead: "👁️ Marked as read: {names}",
    labeled: "🏷️ {names}: {changes}",
    labelAdded: "added {labels}",
    labelRemoved: "removed {labels}",
    andMore: "and {count} more",
  },
  he: {
    askRecipient: "למי לשלוח? (כתובת מייל)",
    askBody: "מה לכתוב במייל?",
    askForwardTo: "למי להעביר? (כתובת מייל)",
    askLabel: "איזו תווית?",
    badAddress: '"{address}" לא נראית כמו כתובת מייל. מה הכתובת הנכונה?',
    noAddressFor: "לא מצאתי במיילים שלך כתובת של {name}. מה הכתובת?",
    whichEmail: "לאיזה מייל הכוונה?",
    notFound: "לא מצאתי מייל שמתאים ל{query}.",
    notFoundAny: "לא מצאתי את המייל הזה.",
    noSuchNumber: "אין מספר {n} ברשימת המיילים האחרונה ששלחתי.",
    entity: "מיילים",
    entityAddresses: "כתובות של {name}",
    googleLost:
      'איבדתי את הגישה לחשבון Google שלך (ההרשאה בוטלה או פגה). כתבו "חיבור Google" ואשלח קישור חדש.',
    failed: "Gmail לא קיבל את הבקשה. נסו שוב בעוד רגע.",
    maybeSent:
      "ייתכן שכבר שלחתי את זה לפני שמשהו השתבש אצלי; כדאי לבדוק בתיקיית 'דואר יוצא' לפני שמבקשים שוב.",
    revisedRecipientsKept: "(לא מצאתי כתובת של {names}, אז השארתי את הנמענים כמו שהיו.)",
    timeout: "Gmail לא עונה כרגע. נסו שוב בעוד דקה.",
    sendTimedOut:
      "Gmail לא ענה בזמן, אז אני לא יודע אם זה נשלח. כדאי לבדוק בתיקיית 'דואר יוצא' לפני שמבקשים שוב.",
    noPermission:
      'אין לי הרשאה להשתמש ב-Gmail שלך: היא לא אושרה כשחיברת את גוגל. כדי לאשר, כתבו "נתק גוגל", אחר כך "חבר גוגל", וסמנו את Gmail בדף של גוגל.',
    labelProtected:
      'אני לא יכול להעביר מיילים לאשפה או לספאם, או להוסיף ולהסיר את "נשלחו" ו"טיוטות", בעזרת תוויות. כדי למחוק מיילים, כתבו "תמחק …" ואשאל אותך קודם.',
    wontSend: "בסדר, לא אשלח אותו.",
    approveSend: "📧 לשלוח את המייל הזה?",
    approveReply: "↩️ לשלוח את התשובה הזאת?",
    approveForward: "➡️ להעביר את המייל הזה?",
    approveDelete: "🗑️ להעביר את המייל הזה לאשפה?",
    approveDeleteMany: "🗑️ להעביר את {count} המיילים האלה לאשפה?",
    confirmArchive: "📦 להעביר לארכיון?",
    confirmMarkRead: "👁️ לסמן כנקרא?",
    confirmLabel: "🏷️ לשנות תוויות?",
    to: "אל",
    cc: "עותק",
    from: "מאת",
    subject: "נושא",
    date: "תאריך",
    noSubject: "(ללא נושא)",
    found: "📬 {count} מיילים:",
    foundOne: "📬 מייל אחד:",
    foundNone: "📭 לא נמצאו מיילים.",
    readHint: 'כתבו "תקרא את {n}" כדי לפתוח אחד.',
    unread: "(לא נקרא)",
    shortened: "… (מקוצר)",
    threadOf: "🧵 *{subject}*: {count} הודעות",
    sent: "✅ נשלח אל {to}: *{subject}*",
    replied: "✅ התשובה נשלחה אל {to}: *{subject}*",
    forwarded: "✅ הועבר אל {to}: *{subject}*",
    drafted: "📝 נשמרה טיוטה (לא נשלחה) אל {to}: *{subject}*",
    archived: "📦 הועבר לארכיון: {names}",
    trashed: "🗑️ הועבר לאשפה: {names}",
    markedRead: "👁️ סומן כנקרא: {names}",
    labeled: "🏷️ {names}: {changes}",
    labelAdded: "נוספה תווית {labels}",
    labelRemoved: "הוסרה תווית {labels}",
    andMore: "ועוד {count}",
  },
} as const;

export type GmailMessageKey = keyof (typeof GMAIL_MESSAGES)["en"];

/** The gmail sentence `key` in `language`, with `{name}` placeholders filled. */
export function gt(language: Language, key: GmailMessageKey, vars: Record<string, string> = {}): string {
  return fillTemplate(GMAIL_MESSAGES[language][key], vars);
}

/** What the user reads when Gmail refused a request or did not answer; `sending`: it was a send. */
export function failureText(language: Language, reason: GmailFailure, sending = false): string {
  switch (reason) {
    case "not_found":
      return gt(language, "notFoundAny");
    case "no_permission":
      return gt(language, "noPermission");
    case "protected_label":
      return gt(language, "labelProtected");
    case "timeout":
      // A send that timed out may still have gone: never invite the user to simply send it again.
      return gt(language, sending ? "sendTimedOut" : "timeout");
    default:
      return gt(language, "failed");
  }
}

/** The most characters of a body shown in one WhatsApp message (WhatsApp allows 4096 in all). */
export const MAX_BODY_SHOWN = 1500;
/** Lines of the body an approval question shows. */
export const APPROVAL_BODY_LINES = 6;
/** And at most this many characters of them. */
export const APPROVAL_BODY_CHARS = 400;

/** `text` cut at a line or word boundary near `max`, with the "shortened" mark when cut. */
export function shorten(text: string, max: number, language: Language): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const at = Math.max(cut.lastIndexOf("\n"), cut.lastIndexOf(" "));
  return `${(at > max * 0.6 ? cut.slice(0, at) : cut).trimEnd()}${gt(language, "shortened")}`;
}

/** The first lines of a body, bounded, for an approval question. */
export function firstLines(body: string, language: Language): string {
  const lines = body.trim().split(/\r?\n/);
  const head = lines.slice(0, APPROVAL_BODY_LINES).join("\n");
  const shown = shorten(head, APPROVAL_BODY_CHARS, language);
  return lines.length > APPROVAL_BODY_LINES && shown === head
    ? `${head}\n${gt(language, "shortened")}`
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
  const title = gt(
    language,
    kind === "send" ? "approveSend" : kind === "reply" ? "approveReply" : "approveForward",
  );
  const lines = [title, `${gt(language, "to")}: ${draft.to.join(", ")}`];
  if (draft.cc?.length) lines.push(`${gt(language, "cc")}: ${draft.cc.join(", ")}`);
  lines.push(
    `${gt(language, "subject")}: ${draft.subject || gt(language, "noSubject")}`,
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
  const subject = email.subject || gt(language, "noSubject");
  return `${email.from} — ${subject}${email.dateHuman ? ` (${email.dateHuman})` : ""}`;
}

/** Names of the emails acted on: "Dana — Invoice, Bob — Lunch and 3 more". */
function names(emails: { from: string; subject: string }[], language: Language): string {
  const shown = emails.slice(0, 3).map((e) => `*${e.from}* — ${e.subject || gt(language, "noSubject")}`);
  const rest = emails.length - shown.length;
  return rest > 0
    ? `${shown.join(", ")} ${gt(language, "andMore", { count: String(rest) })}`
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
  if (emails.length === 0) return gt(language, "foundNone");
  const lines = emails.map(
    (e, i) =>
      `${i + 1}. ${emailLabel({ ...e, from: `*${e.from}*` }, language)}${e.unread ? ` ${gt(language, "unread")}` : ""}`,
  );
  const title =
    emails.length === 1 ? gt(language, "foundOne") : gt(language, "found", { count: String(emails.length) });
  return [title, ...lines, "", gt(language, "readHint", { n: emails.length > 1 ? "2" : "1" })].join("\n");
}

function readReply(data: Extract<Shown, { kind: "email" }>, language: Language): string {
  const { email, thread } = data;
  const subject = email.subject || gt(language, "noSubject");
  if (thread) {
    return `${gt(language, "threadOf", { subject, count: String(thread.count) })}\n\n${thread.summary}`;
  }
  const from = email.from === email.fromAddress ? email.from : `${email.from} <${email.fromAddress}>`;
  const lines = [`📧 *${subject}*`, `${gt(language, "from")}: ${from}`];
  if (email.to?.length) lines.push(`${gt(language, "to")}: ${email.to.join(", ")}`);
  if (email.cc?.length) lines.push(`${gt(language, "cc")}: ${email.cc.join(", ")}`);
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
      const key = data.op === "send" ? "sent" : data.op === "reply" ? "replied" : "forwarded";
      return gt(language, key, {
        to: data.to.join(", "),
        subject: data.subject || gt(language, "noSubject"),
      });
    }
    case "drafted":
      return gt(language, "drafted", {
        to: data.to.join(", "),
        subject: data.subject || gt(language, "noSubject"),
      });
    case "changed": {
      const shown = names(data.emails, language);
      if (data.op === "archive") return gt(language, "archived", { names: shown });
      if (data.op === "delete") return gt(language, "trashed", { names: shown });
      if (data.op === "markRead") return gt(language, "markedRead", { names: shown });
      const changes = [
        ...(data.added?.length ? [gt(language, "labelAdded", { labels: data.added.join(", ") })] : []),
        ...(data.removed?.length ? [gt(language, "labelRemoved", { labels: data.removed.join(", ") })] : []),
      ];
      return gt(language, "labeled", { names: shown, changes: changes.join(", ") });
    }
    default:
      return null;
  }
};
