import { sign, verify } from "./secrets.js";

/** What a "connect Google" link carries: whose it is, its single-use nonce, and when it expires. */
export interface LinkClaims {
  phone: string;
  nonce: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** What the OAuth `state` carries through Google's consent: the phone and the link's nonce. */
export type StateClaims = Omit<LinkClaims, "expiresAt">;

const PHONE = /^[1-9][0-9]{5,14}$/;
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;
const EPOCH_MS = /^[0-9]{1,16}$/;

/** `phone.nonce.expiresAt.signature`, signed with the "google-link" key. */
export function signLinkToken(key: Buffer, claims: LinkClaims): string {
  const data = `${claims.phone}.${claims.nonce}.${claims.expiresAt}`;
  // The "link:" prefix separates the two kinds of signed value: a state is never a valid link.
  return `${data}.${sign(key, `link:${data}`)}`;
}

/** The claims of a link token whose signature holds (expiry is not checked here); null otherwise. */
export function readLinkToken(key: Buffer, token: string): LinkClaims | null {
  const parts = token.split(".");
  if (parts.length !== 4) return null;
  const [phone, nonce, expiresAt, signature] = parts as [string, string, string, string];
  // Shape first, so nothing unexpected reaches the HMAC or, later, SQL.
  if (!PHONE.test(phone) || !NONCE.test(nonce) || !EPOCH_MS.test(expiresAt)) return null;
  // Constant-time compare of the HMAC over exactly the bytes that were signed.
  if (!verify(key, `link:${phone}.${nonce}.${expiresAt}`, signature)) return null;
  return { phone, nonce, expiresAt: Number(expiresAt) };
}

/** `phone.nonce.signature`: the OAuth state, binding the callback to the link's phone and nonce. */
export function signState(key: Buffer, claims: StateClaims): string {
  const data = `${claims.phone}.${claims.nonce}`;
  return `${data}.${sign(key, `state:${data}`)}`;
}

/** The claims of a state whose signature holds; null when malformed or forged. */
export function readState(key: Buffer, state: string): StateClaims | null {
  const parts = state.split(".");
  if (parts.length !== 3) return null;
  const [phone, nonce, signature] = parts as [string, string, string];
  if (!PHONE.test(phone) || !NONCE.test(nonce)) return null;
  // A state edited to name another phone fails here: the signature covers phone and nonce.
  if (!verify(key, `state:${phone}.${nonce}`, signature)) return null;
  return { phone, nonce };
}

/**
 * The value of the cookie that binds a link's consent to the browser that opened the link: an HMAC
 * of the nonce, so it names no phone and cannot be made without the key.
 */
export function signBrowser(key: Buffer, nonce: string): string {
  // The "browser:" prefix keeps it apart from links and states signed with the same key.
  return sign(key, `browser:${nonce}`);
}

/** Whether `value` (the cookie the callback came with) is this nonce's browser binding. */
export function verifyBrowser(key: Buffer, nonce: string, value: string | undefined): boolean {
  // No cookie (another browser, or cookies blocked) never matches.
  if (!value) return false;
  // Constant-time compare against the HMAC recomputed from the state's nonce.
  return verify(key, `browser:${nonce}`, value);
}
