import { parsePhoneNumberFromString } from "libphonenumber-js";
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
  const tag = createHmac("sha256", tagKey).update(phone).digest("hex").slice(0, 12);
  // One tag in ~300 is all digits and would read as a phone number, so scrubbing a line that
  // holds it would tag the tag: such a tag starts with a letter instead.
  return /^\d+$/.test(tag) ? `f${tag.slice(1)}` : tag;
}

/** The keyed tag of a phone number or message id (`phoneTag`, or another key's in tests). */
export type Tagger = (value: string) => string;

/**
 * A WhatsApp message id (its base64 body spells the sender's number); an international number
 * written with "+" and separators; a bare run of 7 to 15 digits that is not part of a word, an
 * id or a date. What they become ("wamid:<tag>", "[phone:<tag>]", "b64:<tag>") matches none of
 * them, so scrubbing twice changes nothing.
 */
const IDENTIFIERS =
  /wamid\.[A-Za-z0-9+/=_-]+|\+\d[\d\s().-]{5,20}\d|(?<![\w-])(?<!phone:|wamid:)\d{7,15}(?!\w)/g;

/**
 * A run of base64 (either alphabet) long enough to hold a phone number: a WhatsApp message id
 * without its "wamid." prefix, or a number encoded on its own.
 */
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{10,}={0,2}/g;

/**
 * Whether base64 `run` decodes to bytes holding a phone number (7 to 15 digits in a row), read from
 * each of its four phases: the run may start mid-group (after a "/", "_" or "+" the pattern split on).
 */
function encodesPhone(run: string): boolean {
  for (let phase = 0; phase < 4; phase++) {
    if (/\d{7,15}/.test(Buffer.from(run.slice(phase), "base64").toString("latin1"))) return true;
  }
  return false;
}

/**
 * `text` with every phone number and WhatsApp message id replaced by its tag (logs, traces):
 * numbers as written, message ids, and base64 that spells a number ("b64:<tag>").
 */
export function scrubIdentifiers(text: string, tag: Tagger = phoneTag): string {
  return text
    .replace(IDENTIFIERS, (match) => {
      if (match.startsWith("wamid.")) return `wamid:${tag(match)}`;
      const digits = match.replace(/\D/g, "");
      // "+1 (2) 3" is no phone number: too few digits to be anyone's.
      if (digits.length < 7) return match;
      return `[phone:${tag(digits)}]`;
    })
    .replace(BASE64_RUN, (run) => (encodesPhone(run) ? `b64:${tag(run)}` : run));
}

/**
 * A number as a person typed it ("050-1234567", "+44 7700 900123", "00972501234567"), in the
 * country of `callerPhone` when it has no country code: its E.164 digits, or null when it cannot be
 * a phone number there.
 */
export function dialledNumber(raw: string, callerPhone: string): string | null {
  const country = parsePhoneNumberFromString(`+${callerPhone}`)?.country;
  const compact = raw.trim().replace(/^00/, "+");
  const parsed = parsePhoneNumberFromString(compact, country ? { defaultCountry: country } : undefined);
  if (!parsed?.isPossible()) return null;
  try {
    return normalizePhone(parsed.number);
  } catch {
    return null;
  }
}

/**
 * A phone number as people read it: "+972 50 123 4567", isolated left to right (U+2066 … U+2069)
 * so that inside Hebrew text its groups keep their order instead of being reversed.
 */
export function displayPhone(phone: string): string {
  return `\u2066${formatPhone(phone)}\u2069`;
}

/** A phone number as people read it, without direction marks (to store as a name). */
export function formatPhone(phone: string): string {
  return parsePhoneNumberFromString(`+${phone}`)?.formatInternational() ?? `+${phone}`;
}

/**
 * What stands for an erased person's number where a row must outlive the erasure (their refusals,
 * the invitations their number received today): a keyed hash of the number under the service's
 * secret (the key of phone tags), full length, never reversible and never a number itself.
 */
export function erasedPhoneKey(phone: string): string {
  return `erased:${createHmac("sha256", tagKey).update(`erased:${phone}`).digest("hex")}`;
}
