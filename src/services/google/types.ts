import type { OAuth2Client } from "google-auth-library";
import { MemoError } from "../../utils/errors.js";

/**
 * Milliseconds one request to Google (an API call, a token exchange or refresh) may take before it
 * is given up (default: 15 000). gaxios has no timeout of its own, and a request that hangs would
 * hold the user's turn, and their inbox lock, for as long as it hangs.
 */
export const GOOGLE_TIMEOUT_MS = 15_000;

/**
 * Google access for one user. A request that Google refuses because the refresh token was revoked
 * or expired throws GoogleConnectionLostError: the connection is marked lost and the user is told
 * (once) how to reconnect.
 */
export interface GoogleAccounts {
  /** Whether Google OAuth is configured at all (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET). */
  readonly configured: boolean;
  /** "connected", "lost" (was connected, access refused since), or "none". */
  status(phone: string): Promise<"connected" | "lost" | "none">;
  /** An authorized client for the user (tokens refresh by themselves and are stored again); null unless connected. */
  clientFor(phone: string): Promise<OAuth2Client | null>;
  /** Records that Google refused the user's tokens; returns true the first time (say so to the user then). */
  markLost(phone: string): Promise<boolean>;
  /** The Google APIs' root URL (GOOGLE_API_ROOT_URL; tests point it at local stand-ins). */
  readonly apiRootUrl: string;
}

/** Google refused the user's tokens (revoked or expired refresh token). */
export class GoogleConnectionLostError extends MemoError {
  constructor(readonly phone: string) {
    super("Google access was lost", { capability: "google" });
  }
}

/** Whether an error from a Google client means the refresh token is no longer valid. */
export function isInvalidGrant(error: unknown): boolean {
  const e = error as { response?: { data?: { error?: unknown } }; message?: unknown } | null;
  const message = typeof e?.message === "string" ? e.message : "";
  return e?.response?.data?.error === "invalid_grant" || message.includes("invalid_grant");
}

/** What chat needs of the Google connection: "connect Google", "disconnect Google", and the status. */
export interface GoogleConnector {
  /** A short-lived, single-use link that starts Google's consent for this user; null when Google OAuth is not configured. */
  connectLink(phone: string): Promise<string | null>;
  /** Deletes the user's tokens (and revokes them at Google when it answers); false when there were none. */
  disconnect(phone: string): Promise<boolean>;
  /** "connected", "lost" (was connected, access refused since), or "none". */
  status(phone: string): Promise<"connected" | "lost" | "none">;
}
