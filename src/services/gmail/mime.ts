/**
 * Outgoing mail as RFC 5322 (née 2822) text: UTF-8 headers as RFC 2047 encoded words (Hebrew
 * subjects and names survive every mail client), a base64 text/plain UTF-8 body, and the whole
 * message base64url-encoded the way Gmail's `raw` field takes it.
 */

/** One outgoing message, addresses already validated. */
export interface MimeMessage {
  to: string[];
  cc?: string[];
  subject: string;
  /** Plain text; line breaks as "\n" or "\r\n". */
  body: string;
  /** The Message-ID this one answers (reply). */
  inReplyTo?: string | null;
  /** The References chain of a reply, oldest first. */
  references?: string | null;
}

/** "dana@example.com", or "Dana Levi <dana@example.com>" (RFC 5322 addr-spec, the common subset). */
const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Whether `text` is a bare email address Memo will send to. */
export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && ADDRESS.test(text) && !text.includes("..");
}

/** The address inside "Name <addr>", or the text itself; lower-cased domain kept as written. */
export function addressOf(text: string): string {
  const angle = /<([^<>\s]+)>\s*$/.exec(text);
  return (angle?.[1] ?? text).trim();
}

/** Header values never carry line breaks: a CR or LF would start a new header (header injection). */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, " ").trim();

/** Printable ASCII only: such a header needs no encoding. */
const isPlainAscii = (value: string) => /^[\x20-\x7e]*$/.test(value);

/**
 * RFC 2047 "B" encoded words for a header value with non-ASCII text, split between characters
 * (never inside one) so each word stays within the 75-character limit; folded onto new lines.
 * @internal
 */
export function encodeHeaderWords(value: string): string {
  const text = oneLine(value);
  if (isPlainAscii(text)) return text;
  const words: string[] = [];
  let chunk = "";
  for (const char of text) {
    // 45 bytes of UTF-8 → 60 base64 characters, plus 12 for "=?UTF-8?B?" and "?=": 72 ≤ 75.
    if (Buffer.byteLength(chunk + char, "utf8") > 45) {
      words.push(chunk);
      chunk = "";
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, "utf8").toString("base64")}?=`).join("\r\n ");
}

/** Decodes RFC 2047 encoded words ("=?UTF-8?B?...?=", "=?iso-8859-1?Q?...?=") in a received header. */
export function decodeHeaderWords(value: string): string {
  // Whitespace between two adjacent encoded words is not part of the text (RFC 2047 §6.2).
  const joined = value.replace(/(\?=)\s+(=\?)/g, "$1$2");
  return joined.replace(
    /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g,
    (whole, charset: string, kind: string, data: string) => {
      try {
        const bytes =
          kind.toUpperCase() === "B"
            ? Buffer.from(data, "base64")
            : Buffer.from(
                data
                  .replace(/_/g, " ")
                  .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
                "latin1",
              );
        return new TextDecoder(charset.split("*")[0]).decode(bytes);
      } catch {
        return whole;
      }
    },
  );
}

/** An address header: each entry's display name encoded, the address as is. */
function addressList(entries: string[]): string {
  return entries
    .map((entry) => {
      const address = addressOf(entry);
      const name = oneLine(entry.slice(0, Math.max(0, entry.lastIndexOf("<"))).replace(/^"|"\s*$/g, ""));
      if (!name || address === entry.trim()) return oneLine(address);
      const shown = isPlainAscii(name) ? `"${name.replace(/["\\]/g, "")}"` : encodeHeaderWords(name);
      return `${shown} <${oneLine(address)}>`;
    })
    .join(", ");
}

/** Base64 wrapped at 76 characters a line, as MIME requires. */
function wrappedBase64(text: string): string {
  return (
    Buffer.from(text.replace(/\r?\n/g, "\r\n"), "utf8")
      .toString("base64")
      .match(/.{1,76}/g)
      ?.join("\r\n") ?? ""
  );
}

/** The message as RFC 5322 text. Gmail adds From, Date and Message-ID for the signed-in account. @internal */
export function buildMime(message: MimeMessage): string {
  const headers = [`To: ${addressList(message.to)}`];
  if (message.cc?.length) headers.push(`Cc: ${addressList(message.cc)}`);
  headers.push(`Subject: ${encodeHeaderWords(message.subject)}`);
  if (message.inReplyTo) headers.push(`In-Reply-To: ${oneLine(message.inReplyTo)}`);
  if (message.references) headers.push(`References: ${oneLine(message.references)}`);
  headers.push(
    "MIME-Version: 1.0",
    'Content-Type: text/plain; charset="UTF-8"',
    "Content-Transfer-Encoding: base64",
  );
  return `${headers.join("\r\n")}\r\n\r\n${wrappedBase64(message.body)}\r\n`;
}

/** The message as Gmail's `raw`: base64url of the RFC 5322 text. */
export function rawMessage(message: MimeMessage): string {
  return Buffer.from(buildMime(message), "utf8").toString("base64url");
}

/** "Re: subject", unless it already is a reply ("Re:", "RE:", "תשובה:"). */
export function replySubject(subject: string): string {
  return /^\s*(re|תשובה)\s*:/i.test(subject) ? subject.trim() : `Re: ${subject.trim()}`;
}

/** "Fwd: subject", unless it already is a forward. */
export function forwardSubject(subject: string): string {
  return /^\s*(fwd?|הועבר)\s*:/i.test(subject) ? subject.trim() : `Fwd: ${subject.trim()}`;
}
