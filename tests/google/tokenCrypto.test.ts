import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readLinkToken, readState, signLinkToken, signState } from "../../src/services/google/linkTokens.js";
import { deriveKey } from "../../src/services/google/secrets.js";
import { TokenCipher, TokenDecryptionError } from "../../src/services/google/tokenCrypto.js";

const PHONE = "972501234567";
const TOKENS = { access_token: "ya29.secret-access", refresh_token: "1//secret-refresh", expiry_date: 1 };

describe("token encryption (AES-256-GCM)", () => {
  it("round-trips, and the stored bytes never contain a token", () => {
    const cipher = new TokenCipher(randomBytes(32));
    const stored = cipher.encrypt(PHONE, TOKENS);
    expect(stored.includes(Buffer.from("secret-access"))).toBe(false);
    expect(stored.includes(Buffer.from("secret-refresh"))).toBe(false);
    expect(stored.toString("base64")).not.toContain("secret");
    expect(cipher.decrypt(PHONE, stored)).toEqual(TOKENS);
    // A fresh IV each time: the same tokens never encrypt to the same bytes.
    expect(cipher.encrypt(PHONE, TOKENS).equals(stored)).toBe(false);
  });

  it("fails loudly with a different key, never returning garbage", () => {
    const stored = new TokenCipher(randomBytes(32)).encrypt(PHONE, TOKENS);
    const other = new TokenCipher(randomBytes(32));
    expect(() => other.decrypt(PHONE, stored)).toThrow(TokenDecryptionError);
    expect(() => other.decrypt(PHONE, stored)).toThrow(/TOKEN_ENCRYPTION_KEY differs/);
  });

  it("refuses another user's row, altered bytes and truncated data", () => {
    const cipher = new TokenCipher(randomBytes(32));
    const stored = cipher.encrypt(PHONE, TOKENS);
    expect(() => cipher.decrypt("972509999999", stored)).toThrow(TokenDecryptionError);
    const altered = Buffer.from(stored);
    altered[altered.length - 1]! ^= 1;
    expect(() => cipher.decrypt(PHONE, altered)).toThrow(TokenDecryptionError);
    expect(() => cipher.decrypt(PHONE, stored.subarray(0, 20))).toThrow(TokenDecryptionError);
  });
});

describe("signed link tokens and state", () => {
  const key = deriveKey(randomBytes(32), "google-link");
  const claims = { phone: PHONE, nonce: "abcdefghijklmnopqrstuvwx", expiresAt: 1_772_700_000_000 };

  it("reads back what it signed", () => {
    expect(readLinkToken(key, signLinkToken(key, claims))).toEqual(claims);
    expect(readState(key, signState(key, claims))).toEqual({ phone: PHONE, nonce: claims.nonce });
  });

  it("refuses a changed phone, nonce or expiry, another key, and a state used as a link", () => {
    const token = signLinkToken(key, claims);
    expect(readLinkToken(key, token.replace(PHONE, "972509999999"))).toBeNull();
    expect(readLinkToken(key, token.replace("abcdefgh", "abcdefgz"))).toBeNull();
    expect(readLinkToken(key, token.replace("1772700000000", "1872700000000"))).toBeNull();
    expect(readLinkToken(deriveKey(randomBytes(32), "google-link"), token)).toBeNull();
    const state = signState(key, claims);
    expect(readState(key, state.replace(PHONE, "972509999999"))).toBeNull();
    expect(readLinkToken(key, `${state}.1`)).toBeNull();
    expect(readLinkToken(key, "not a token")).toBeNull();
    expect(readState(key, "")).toBeNull();
  });
});
