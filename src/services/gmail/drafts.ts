import type { EmailMessage, OutgoingEmail } from "./gmailService.js";
import { forwardSubject, replySubject } from "./mime.js";

/**
 * A reply to `original`: to its Reply-To (else its sender), "Re:" subject, in its conversation
 * (threadId), and threaded for every mail client through In-Reply-To and References.
 */
export function replyDraft(original: EmailMessage, body: string, cc: string[] = []): OutgoingEmail {
  const references = [original.references, original.messageId].filter(Boolean).join(" ");
  return {
    to: [original.replyAddress],
    ...(cc.length ? { cc } : {}),
    subject: replySubject(original.subject),
    body,
    threadId: original.threadId,
    ...(original.messageId ? { inReplyTo: original.messageId } : {}),
    ...(references ? { references } : {}),
  };
}

/** Forwards `original` as text under the user's note, with the usual "Forwarded message" header block. */
export function forwardDraft(
  original: EmailMessage,
  to: string[],
  note: string,
  cc: string[] = [],
): OutgoingEmail {
  const block = [
    "---------- Forwarded message ---------",
    `From: ${original.from}${original.from !== original.fromAddress ? ` <${original.fromAddress}>` : ""}`,
    ...(original.date ? [`Date: ${original.date}`] : []),
    `Subject: ${original.subject}`,
    ...(original.to.length ? [`To: ${original.to.join(", ")}`] : []),
  ].join("\n");
  return {
    to,
    ...(cc.length ? { cc } : {}),
    subject: forwardSubject(original.subject),
    body: `${note.trim() ? `${note.trim()}\n\n` : ""}${block}\n\n${original.body}`,
  };
}
