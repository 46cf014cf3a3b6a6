import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** The header Meta signs webhook bodies with. */
export const SIGNATURE_HEADER = "x-hub-signature-256";

/** `sha256=<hex>` of HMAC-SHA256 over the exact body bytes, as Meta sends it. */
export function signBody(body: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;
}

/**
 * Whether `header` is Meta's signature of `body` under `appSecret`. The HMAC is computed over the
 * raw bytes as received: re-serialized JSON would differ (key order, escapes of Hebrew and emoji).
 */
export function verifySignature(body: Buffer, header: string | undefined, appSecret: string): boolean {
  // No header, or not of the form sha256=<64 hex digits>: reject before any crypto.
  if (!header) return false;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match) return false;
  // Compare digests as bytes: both are 32 bytes by construction, checked again because
  // timingSafeEqual throws on a length mismatch.
  const given = Buffer.from(match[1]!, "hex");
  const expected = createHmac("sha256", appSecret).update(body).digest();
  if (given.length !== expected.length) return false;
  // Constant time, so the time taken does not reveal how many leading bytes were right.
  return timingSafeEqual(given, expected);
}

/** Whether a given secret (the webhook verify token) equals the configured one, in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  // Hash both first: equal-length digests make the comparison constant-time whatever the lengths.
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
