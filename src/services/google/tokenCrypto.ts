import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { deriveKey } from "./secrets.js";
import { MemoError } from "../../utils/errors.js";

/** Bytes of the random IV of each encryption (the size GCM is designed for). */
const IV_BYTES = 12;
/** Bytes of the GCM authentication tag. */
const TAG_BYTES = 16;

/** Stored tokens that cannot be decrypted: a different TOKEN_ENCRYPTION_KEY, or altered bytes. @internal */
export class TokenDecryptionError extends MemoError {
  constructor(readonly phone: string) {
    super(
      "Stored Google tokens cannot be decrypted: TOKEN_ENCRYPTION_KEY differs from the key they were stored with, or the data was altered",
      { capability: "google" },
    );
  }
}

/**
 * Encrypts and decrypts a user's token set (AES-256-GCM under the "tokens" key derived from the
 * service secret). Stored format: iv (12 bytes) | tag (16 bytes) | ciphertext of the JSON.
 */
export class TokenCipher {
  private readonly key: Buffer;

  constructor(secret: Buffer) {
    // A key of its own: the link-signing and feed keys never encrypt, this one never signs.
    this.key = deriveKey(secret, "tokens");
  }

  /** The encrypted bytes of `tokens`, bound to `phone`. */
  encrypt(phone: string, tokens: unknown): Buffer {
    // A fresh random IV per encryption: reusing one under the same key breaks GCM entirely.
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv, { authTagLength: TAG_BYTES });
    // The phone is authenticated (not encrypted): a row copied to another user fails to decrypt.
    cipher.setAAD(Buffer.from(phone, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(tokens), "utf8"), cipher.final()]);
    // The tag is only available after final(); it travels with the ciphertext.
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
  }

  /** The token set stored for `phone`; throws TokenDecryptionError rather than ever returning garbage. */
  decrypt(phone: string, stored: Buffer): unknown {
    // Too short to hold an IV and a tag: not something this cipher wrote.
    if (stored.length < IV_BYTES + TAG_BYTES) throw new TokenDecryptionError(phone);
    const iv = stored.subarray(0, IV_BYTES);
    const tag = stored.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const ciphertext = stored.subarray(IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv("aes-256-gcm", this.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(phone, "utf8"));
    decipher.setAuthTag(tag);
    let plaintext: Buffer;
    try {
      // final() verifies the tag: a wrong key, another user's row or altered bytes throw here.
      plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
    } catch {
      throw new TokenDecryptionError(phone);
    }
    return JSON.parse(plaintext.toString("utf8")) as unknown;
  }
}
