import { createHmac, randomBytes } from "node:crypto";
import { InvalidPhoneError } from "./errors.js";

/**
 * Normalizes a phone number to E.164 digits without the plus sign ("+972 50-123-4567" → "972501234567"),
 * the form WhatsApp uses for `wa_id` and Memo uses as user key and thread id.
 */
export function normalizePhone(raw: string): string {
  const compact = raw.trim().replace(/[\s\-().]/g, "");
  const digits = compact.startsWith("+")
    ? compact.slice(1)
    : compact.startsWith("00")
      ? compact.slice(2)
      : compact;
  // E.164 numbers have at most 15 digits; real subscriber numbers have at least 6.
  if (!/^[1-9][0-9]{5,14}$/.test(digits)) {
    throw new InvalidPhoneError("Not a phone number", { length: raw.length });
  }
  return digits;
}

/**
 * The key of phone tags. A phone number has too few digits for a plain hash to hide it (every
 * number can be hashed in minutes), so tags are keyed. Until the service sets the key derived
 * from its secret (shared by every instance), a random per-process key stands in.
 */
let tagKey: Buffer = randomBytes(32);

/** Sets the key of phone tags (the service does, at start, from its secret). */
export function setPhoneTagKey(key: Buffer): void {
  tagKey = key;
}

/**
 * A phone as it may appear in logs and traces: a short keyed hash (HMAC-SHA256, 12 hex digits),
 * the same for every line about that user on every instance, useless for finding the number.
 */
export function phoneTag(phone: string): string {
  return createHmac("sha256", tagKey).update(phone).digest("hex").slice(0, 12);
}

/** The keyed tag of a phone number or message id (`phoneTag`, or another key's in tests). */
export type Tagger = (value: string) => string;

/**
 * A WhatsApp message id (its base64 body spells the sender's number); an international number
 * written with "+" and separators; a bare run of 7 to 15 digits that is not part of a word, an
 * id or a date. What they become ("wamid:<tag>", "[phone:<tag>]") matches none of them, so
 * scrubbing twice changes nothing.
 */
const IDENTIFIERS = /wamid\.[A-Za-z0-9+/=_-]+|\+\d[\d\s().-]{5,20}\d|(?<![\w-])(?<!phone:)\d{7,15}(?!\w)/g;

/** `text` with every phone number and WhatsApp message id replaced by its tag (logs, traces). */
export function scrubIdentifiers(text: string, tag: Tagger = phoneTag): string {
  return text.replace(IDENTIFIERS, (match) => {
    if (match.startsWith("wamid.")) return `wamid:${tag(match)}`;
    const digits = match.replace(/\D/g, "");
    // "+1 (2) 3" is no phone number: too few digits to be anyone's.
    if (digits.length < 7) return match;
    return `[phone:${tag(digits)}]`;
  });
}
