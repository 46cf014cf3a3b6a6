import { createHash } from "node:crypto";
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

/** A phone as it may appear in logs: a short hash, the same for every line about that user. */
export function phoneTag(phone: string): string {
  return createHash("sha256").update(phone).digest("hex").slice(0, 12);
}
