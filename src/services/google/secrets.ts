import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import type { AppConfig } from "../../config/env.js";
import type { PgLocalSecretRepository } from "../../db/repositories/localSecretRepository.js";
import type { Logger } from "../../utils/logger.js";

/** The name of the generated key in `local_secrets` (development only). */
const LOCAL_KEY = "token_encryption_key";

/**
 * The service's 32-byte secret: TOKEN_ENCRYPTION_KEY when given (required in production); otherwise
 * a key generated once and kept in the database, so development needs no setup. Keeping the key
 * beside what it protects is no protection, so that is logged as a warning; production refuses it.
 */
export async function loadSecretKey(
  secrets: PgLocalSecretRepository,
  config: Pick<AppConfig, "env" | "tokenKey">,
  logger: Logger,
): Promise<Buffer> {
  if (config.tokenKey) return config.tokenKey;
  if (config.env === "production") throw new Error("TOKEN_ENCRYPTION_KEY is required in production");
  await secrets.addIfMissing(LOCAL_KEY, randomBytes(32));
  const stored = (await storedSecretKey(secrets))!;
  logger.warn(
    { event: "LOCAL_TOKEN_KEY" },
    "TOKEN_ENCRYPTION_KEY is not set: using a key generated and stored in the database (fine for development, never for production)",
  );
  return stored;
}

/**
 * The key the service generated for itself outside production, read without writing (tools
 * that must change nothing: replay, a deletion dry run). Null when there is none, or no table yet.
 */
export function storedSecretKey(secrets: PgLocalSecretRepository): Promise<Buffer | null> {
  return secrets.get(LOCAL_KEY);
}

/** A key for one purpose ("tokens", "google-link", "calendar-feed"), derived from the secret with HKDF-SHA256. */
export function deriveKey(secret: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), `memo:${purpose}`, 32));
}

/** An HMAC-SHA256 of `data`, base64url. */
export function sign(key: Buffer, data: string): string {
  return createHmac("sha256", key).update(data).digest("base64url");
}

/** Whether `signature` is `data`'s HMAC under `key`, compared in constant time. */
export function verify(key: Buffer, data: string, signature: string): boolean {
  const expected = Buffer.from(sign(key, data));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
