import type { gmail_v1 } from "@googleapis/gmail";
import { decodeHeaderWords } from "./mime.js";

type Part = gmail_v1.Schema$MessagePart;

/** A header's value (first of that name, case-insensitive), RFC 2047 words decoded; "" when absent. */
export function headerOf(part: Part | undefined, name: string): string {
  const header = part?.headers?.find((h) => h.name?.toLowerCase() === name.toLowerCase());
  return header?.value ? decodeHeaderWords(header.value).trim() : "";
}

/** The charset a part declares ("utf-8" when none). */
function charsetOf(part: Part): string {
  const type = headerOf(part, "Content-Type");
  return /charset="?([^";\s]+)"?/i.exec(type)?.[1]?.toLowerCase() ?? "utf-8";
}

/** A part's body: Gmail sends it base64url-encoded, transfer encoding already undone. */
function decodeBody(part: Part): string {
  const data = part.body?.data;
  if (!data) return "";
  const bytes = Buffer.from(data, "base64url");
  try {
    return new TextDecoder(charsetOf(part)).decode(bytes);
  } catch {
    return bytes.toString("utf8");
  }
}

/** Attachments are not text to show, whatever their type. */
const isAttachment = (part: Part) =>
  !!part.filename || /^attachment/i.test(headerOf(part, "Content-Disposition"));

/** The first part of `mimeType` in the tree, depth first (multipart/alternative lists plain text first). */
function findPart(part: Part | undefined, mimeType: string): Part | undefined {
  if (!part || isAttachment(part)) return undefined;
  if (part.mimeType?.toLowerCase() === mimeType && part.body?.data) return part;
  for (const child of part.parts ?? []) {
    const found = findPart(child, mimeType);
    if (found) return found;
  }
  return undefined;
}

const ENTITIES: Record<string, string> = {
  nbsp: " ",
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  "#39": "'",
};

/** Plain text of an HTML body: blocks become lines, tags and scripts go, entities are decoded. @internal */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head|title)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "\n• ")
    .replace(/<\/(p|div|tr|h[1-6]|ul|ol|table|blockquote)\s*>/gi, "\n")
    .replace(/<(p|div|tr|h[1-6])\b[^>]*>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name: string) => {
      const lower = name.toLowerCase();
      if (lower.startsWith("#x")) return String.fromCodePoint(parseInt(lower.slice(2), 16));
      if (lower.startsWith("#") && lower !== "#39") return String.fromCodePoint(Number(lower.slice(1)));
      return ENTITIES[lower] ?? whole;
    })
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The text of a message: its text/plain part, else its HTML part as text, else Gmail's snippet. */
export function bodyText(message: gmail_v1.Schema$Message): string {
  const plain = findPart(message.payload, "text/plain");
  if (plain) return decodeBody(plain).replace(/\r\n/g, "\n").trim();
  const html = findPart(message.payload, "text/html");
  if (html) return htmlToText(decodeBody(html));
  return decodeHtmlSnippet(message.snippet ?? "");
}

/** Gmail's snippets come HTML-escaped. */
export function decodeHtmlSnippet(snippet: string): string {
  return htmlToText(snippet);
}

/** "Dana Levi <dana@x.com>, bob@y.com" → ["Dana Levi <dana@x.com>", "bob@y.com"] (commas in quotes kept). */
export function splitAddresses(header: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  for (const char of header) {
    if (char === '"') quoted = !quoted;
    if (char === "," && !quoted) {
      if (current.trim()) out.push(current.trim());
      current = "";
    } else current += char;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** The display name of "Dana Levi <dana@x.com>" ("Dana Levi"), or the address when it has none. */
export function displayName(entry: string): string {
  const name = entry
    .replace(/<[^<>]*>\s*$/, "")
    .replace(/^"|"\s*$/g, "")
    .trim();
  return name || entry.replace(/^<|>$/g, "").trim();
}
