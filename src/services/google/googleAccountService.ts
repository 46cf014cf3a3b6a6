import { randomBytes } from "node:crypto";
import { OAuth2Client, type Credentials } from "google-auth-library";
import { z } from "zod";
import type { AppConfig } from "../../config/env.js";
import type {
  PgGoogleAccountRepository,
  StoredLanguage,
} from "../../db/repositories/googleAccountRepository.js";
import type { Logger } from "../../utils/logger.js";
import {
  readLinkToken,
  readState,
  signBrowser,
  signLinkToken,
  signState,
  verifyBrowser,
} from "./linkTokens.js";
import { deriveKey } from "./secrets.js";
import { TokenCipher } from "./tokenCrypto.js";
import { GOOGLE_TIMEOUT_MS, type GoogleAccounts, type GoogleConnector } from "./types.js";

/** The scope each of Memo's Google features needs: what a consent without it leaves unusable. */
const FEATURE_SCOPES = {
  calendar: "https://www.googleapis.com/auth/calendar",
  gmail: "https://www.googleapis.com/auth/gmail.modify",
} as const;

/** Reading the user's own contacts (names → addresses for invitations; docs/CALENDAR.md). */
const CONTACTS_SCOPE = "https://www.googleapis.com/auth/contacts.readonly";

/** A Google feature Memo uses, by the scope it needs. */
type GoogleFeature = keyof typeof FEATURE_SCOPES;

/**
 * What Memo asks Google for. `gmail.modify` alone covers search, read, drafts, send, labels, archive
 * and moving to Trash (it is a superset of `gmail.send`); permanent deletion would need full mail
 * access, which Memo never asks for. `openid email` only tell Memo which account was connected.
 * `contacts.readonly` lets "meeting with Dana" find Dana's address among the user's own contacts;
 * without it names simply find no address (it is not a feature a consent can leave unusable).
 * @internal
 */
export const GOOGLE_SCOPES = [
  "openid",
  "email",
  FEATURE_SCOPES.calendar,
  FEATURE_SCOPES.gmail,
  CONTACTS_SCOPE,
] as const;

/** Where the OAuth routes are mounted. */
export const GOOGLE_AUTH_PATH = "/auth/google";

/** Milliseconds a "connect Google" link stays valid, and the consent it starts (default: 15 minutes). */
export const LINK_TTL_MS = 15 * 60 * 1000;
/** Milliseconds revoking at Google may take when disconnecting before it is given up (default: 5000). */
const REVOKE_TIMEOUT_MS = 5000;

/** Why a link or a callback was refused ("browser": the callback came from a browser that did not open the link). */
export type LinkRefusal = "invalid" | "expired" | "used" | "browser";

/**
 * What a completed connection gave: the account's address when Google said, the features left
 * unticked, and how many upcoming or recurring events the user keeps in the built-in calendar (they
 * stay there, out of Google Calendar's sight, and are used again after disconnecting).
 */
export interface ConnectionOutcome {
  email: string | null;
  missing: GoogleFeature[];
  builtInEvents: number;
}

/** The token set Memo keeps for a user (encrypted): what the OAuth2 client needs to work and refresh. */
const StoredTokens = z.object({
  access_token: z.string().nullish(),
  refresh_token: z.string().nullish(),
  expiry_date: z.number().nullish(),
  token_type: z.string().nullish(),
  scope: z.string().optional(),
});
type StoredTokens = z.infer<typeof StoredTokens>;

export interface GoogleAccountOptions {
  /** Where connections and link nonces are stored. */
  accounts: PgGoogleAccountRepository;
  config: Pick<AppConfig, "google" | "publicUrl" | "port">;
  logger: Logger;
  /** Epoch milliseconds (default: Date.now). */
  clock?: () => number;
  /** The service's 32-byte secret (loadSecretKey). */
  secret: Buffer;
  /**
   * The service's own address, for links and the redirect URL when PUBLIC_URL is not set (default:
   * http://127.0.0.1:PORT; app/server.ts passes the listening address, http://127.0.0.1:PORT unless HOST
   * names a specific address).
   */
  serviceUrl?: () => string;
  /** Milliseconds a request to Google's token endpoints may take (default: GOOGLE_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** Only the fields worth keeping: never the id token (it is only read once, for the email). */
function keep(tokens: Credentials | StoredTokens): StoredTokens {
  return {
    access_token: tokens.access_token ?? null,
    refresh_token: tokens.refresh_token ?? null,
    expiry_date: tokens.expiry_date ?? null,
    token_type: tokens.token_type ?? null,
    ...(tokens.scope ? { scope: tokens.scope } : {}),
  };
}

/**
 * The connected account's address, from the id token's payload. The id token came straight from
 * Google's token endpoint over TLS, which OpenID Connect accepts in place of checking its signature;
 * it is used for display only, never for access decisions.
 */
function emailOf(idToken: string | null | undefined): string | null {
  const payload = idToken?.split(".")[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { email?: unknown };
    // It is shown in chat: only something shaped like an address, never free text.
    const email = claims.email;
    return typeof email === "string" && email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null;
  } catch {
    return null;
  }
}

/**
 * Each user's Google connection: the single-use connect link and its consent, the encrypted tokens,
 * clients that refresh and store their tokens, losing access, and disconnecting (issue 8).
 */
export class GoogleAccountService implements GoogleAccounts, GoogleConnector {
  readonly configured: boolean;
  readonly apiRootUrl: string;
  private readonly accounts: PgGoogleAccountRepository;
  private readonly config: GoogleAccountOptions["config"];
  private readonly logger: Logger;
  private readonly clock: () => number;
  private readonly cipher: TokenCipher;
  private readonly linkKey: Buffer;
  private readonly serviceUrl: () => string;
  private readonly timeoutMs: number;

  constructor(options: GoogleAccountOptions) {
    this.accounts = options.accounts;
    this.config = options.config;
    this.logger = options.logger;
    this.clock = options.clock ?? Date.now;
    this.cipher = new TokenCipher(options.secret);
    this.linkKey = deriveKey(options.secret, "google-link");
    this.serviceUrl = options.serviceUrl ?? (() => `http://127.0.0.1:${options.config.port}`);
    this.timeoutMs = options.timeoutMs ?? GOOGLE_TIMEOUT_MS;
    this.configured = options.config.google.oauth !== undefined;
    this.apiRootUrl = options.config.google.apiRootUrl;
  }

  /** The address links point at: PUBLIC_URL, else the service's own. */
  private publicUrl(): string {
    return (this.config.publicUrl ?? this.serviceUrl()).replace(/\/+$/, "");
  }

  /** The redirect URL registered in Google Cloud: GOOGLE_REDIRECT_URL, else PUBLIC_URL/auth/google/callback. */
  redirectUrl(): string {
    return this.config.google.oauth?.redirectUrl ?? `${this.publicUrl()}${GOOGLE_AUTH_PATH}/callback`;
  }

  /** A new OAuth2 client on the configured endpoints; throws when Google OAuth is not configured. */
  private oauthClient(): OAuth2Client {
    const oauth = this.config.google.oauth;
    if (!oauth) throw new Error("Google OAuth is not configured (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET)");
    const { authUrl, tokenUrl } = this.config.google;
    return new OAuth2Client({
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      redirectUri: this.redirectUrl(),
      endpoints: {
        oauth2AuthBaseUrl: authUrl,
        oauth2TokenUrl: tokenUrl,
        // Google's revoke endpoint sits beside its token endpoint (…/token → …/revoke).
        oauth2RevokeUrl: new URL("revoke", tokenUrl).toString(),
      },
      // Refresh a little before expiry, and once more when Google answers 401 to a token we
      // believed valid (revoked access tokens): a revoked refresh token then surfaces as invalid_grant.
      eagerRefreshThresholdMillis: 5 * 60 * 1000,
      forceRefreshOnFailure: true,
      // Every request this client makes (code exchange, refresh, revoke, and the API calls it
      // authorizes) gives up after the timeout instead of hanging the user's turn.
      transporterOptions: { timeout: this.timeoutMs },
    });
  }

  /**
   * The connection's status. Tokens that cannot be decrypted (TOKEN_ENCRYPTION_KEY changed) count as
   * "lost", so "connect Google" offers a new link instead of "already connected"; nothing is changed
   * in storage, so restoring the right key brings the connection back.
   */
  async status(phone: string): Promise<"connected" | "lost" | "none"> {
    const row = await this.accounts.status(phone);
    if (!row) return "none";
    if (row.status === "connected" && !this.readable(phone, row.tokens)) return "lost";
    return row.status;
  }

  /** Whether the stored tokens decrypt under this key (logged loudly when not). */
  private readable(phone: string, stored: Buffer): boolean {
    try {
      this.cipher.decrypt(phone, stored);
      return true;
    } catch (error) {
      this.logger.error(
        { err: error, event: "GOOGLE_TOKENS_UNREADABLE" },
        "stored Google tokens cannot be decrypted",
      );
      return false;
    }
  }

  async clientFor(phone: string): Promise<OAuth2Client | null> {
    if (!this.configured) return null;
    const row = await this.accounts.connection(phone);
    if (!row || row.status !== "connected") return null;
    // Throws TokenDecryptionError on a wrong key: loud, never a client with garbage credentials.
    let current = StoredTokens.parse(this.cipher.decrypt(phone, row.tokens));
    const client = this.oauthClient();
    client.setCredentials(current);
    client.on("tokens", (fresh) => {
      // Google usually omits the refresh token from a refresh response: keep the one we have.
      const next = keep({
        ...current,
        ...fresh,
        refresh_token: fresh.refresh_token ?? current.refresh_token,
      });
      current = next;
      this.storeRefreshed(phone, row.createdAt, next).catch((error: unknown) => {
        this.logger.error(
          { err: error, event: "GOOGLE_TOKEN_STORE_FAILED" },
          "storing refreshed Google tokens failed",
        );
      });
    });
    return client;
  }

  /** Stores refreshed tokens, unless the connection was replaced or removed since the client was made. */
  private async storeRefreshed(phone: string, connectedAt: Date, tokens: StoredTokens): Promise<void> {
    await this.accounts.storeRefreshed(
      phone,
      connectedAt,
      this.cipher.encrypt(phone, tokens),
      new Date(this.clock()),
    );
    this.logger.debug({ event: "GOOGLE_TOKENS_REFRESHED" }, "Google tokens refreshed");
  }

  async markLost(phone: string): Promise<boolean> {
    const now = new Date(this.clock());
    // One statement: the connection turns lost and the flag the graph reads goes off together;
    // only the update that finds lost_notified_at still empty reports "first time".
    const first = await this.accounts.markLost(phone, now);
    if (first) this.logger.warn({ event: "GOOGLE_CONNECTION_LOST" }, "Google refused the user's tokens");
    return first;
  }

  async connectLink(phone: string): Promise<string | null> {
    if (!this.configured) return null;
    const now = this.clock();
    const nonce = randomBytes(18).toString("base64url");
    const expiresAt = now + LINK_TTL_MS;
    // Old links are of no use to anyone: clear those expired a day ago while we are here.
    await this.accounts.deleteExpiredNonces(phone, new Date(now - 24 * 60 * 60 * 1000));
    await this.accounts.addNonce(nonce, phone, new Date(expiresAt));
    const token = signLinkToken(this.linkKey, { phone, nonce, expiresAt });
    return `${this.publicUrl()}${GOOGLE_AUTH_PATH}/start?t=${encodeURIComponent(token)}`;
  }

  /**
   * Checks a connect link (signature, expiry, nonce unused) without changing anything, and returns
   * whose it is and their language, for the page that asks the user to confirm the number. Read-only,
   * so a link preview that fetches the link neither uses it up nor extends it.
   */
  async inspectLink(
    token: string,
  ): Promise<{ phone: string; language: StoredLanguage } | { refused: LinkRefusal }> {
    if (!this.configured) return { refused: "invalid" };
    const claims = readLinkToken(this.linkKey, token);
    if (!claims) return { refused: "invalid" };
    const now = this.clock();
    if (claims.expiresAt <= now) return { refused: "expired" };
    const row = await this.accounts.nonce(claims.nonce, claims.phone);
    if (!row) return { refused: "invalid" };
    if (row.usedAt) return { refused: "used" };
    if (row.expiresAt.getTime() <= now) return { refused: "expired" };
    return { phone: claims.phone, language: row.language };
  }

  /**
   * Checks a connect link (signature, expiry, nonce unused) and returns Google's consent URL, whose
   * state binds the callback to this link's phone and nonce, and `browser`, the value the browser
   * that opened the link must bring back to the callback (a cookie). The consent then has its own
   * 15 minutes.
   */
  async beginConsent(token: string): Promise<{ url: string; browser: string } | { refused: LinkRefusal }> {
    if (!this.configured) return { refused: "invalid" };
    const claims = readLinkToken(this.linkKey, token);
    if (!claims) return { refused: "invalid" };
    const now = this.clock();
    if (claims.expiresAt <= now) return { refused: "expired" };
    // The nonce must exist for this phone, unused and unexpired; the consent gets a fresh window.
    const extended = await this.accounts.extendNonce(
      claims.nonce,
      claims.phone,
      new Date(now),
      new Date(now + LINK_TTL_MS),
    );
    if (!extended) return { refused: await this.whyRefused(claims.nonce, claims.phone) };
    const url = this.oauthClient().generateAuthUrl({
      access_type: "offline",
      // Consent every time, so Google always returns a refresh token (it omits it on re-consent otherwise).
      prompt: "consent",
      include_granted_scopes: true,
      scope: [...GOOGLE_SCOPES],
      state: signState(this.linkKey, { phone: claims.phone, nonce: claims.nonce }),
    });
    return { url, browser: signBrowser(this.linkKey, claims.nonce) };
  }

  /**
   * Consumes the link named by a callback's state, atomically: of two callbacks with one state, only
   * one gets the phone. `browser` is the binding cookie the callback came with: without the one
   * POST /start gave for this link's nonce, the callback is refused and the link is left unused (login
   * CSRF: someone else's consent URL, finished in the victim's browser, must not connect the
   * victim's Google account to the other person's phone). Returns the phone and the user's
   * language, or why it was refused.
   */
  async consumeState(
    state: string,
    browser: string | undefined,
  ): Promise<{ phone: string; language: StoredLanguage } | { refused: LinkRefusal }> {
    const claims = readState(this.linkKey, state);
    if (!claims) return { refused: "invalid" };
    // Checked before anything is consumed: a refused callback leaves the link usable by its owner.
    if (!verifyBrowser(this.linkKey, claims.nonce, browser)) return { refused: "browser" };
    const now = new Date(this.clock());
    const consumed = await this.accounts.consumeNonce(claims.nonce, claims.phone, now);
    if (!consumed) return { refused: await this.whyRefused(claims.nonce, claims.phone) };
    return { phone: claims.phone, language: consumed.language };
  }

  /** Why a nonce could not be used: already used, expired, or unknown (for this phone). */
  private async whyRefused(nonce: string, phone: string): Promise<LinkRefusal> {
    const usedAt = await this.accounts.nonceUsedAt(nonce, phone);
    if (usedAt === undefined) return "invalid";
    return usedAt ? "used" : "expired";
  }

  /**
   * Exchanges Google's code for tokens and stores them (encrypted); the user is connected from then
   * on. Returns the account's address and the features whose scope the user left unticked (what was
   * granted is stored all the same: it is usable).
   */
  async completeConnection(phone: string, code: string): Promise<ConnectionOutcome> {
    const { tokens } = await this.oauthClient().getToken(code);
    if (!tokens.access_token) throw new Error("Google's token response has no access token");
    if (!tokens.refresh_token) {
      this.logger.warn(
        { event: "GOOGLE_NO_REFRESH_TOKEN" },
        "Google returned no refresh token: access will be lost when the access token expires",
      );
    }
    const scopes = (tokens.scope ?? "").split(" ").filter(Boolean);
    // Google always reports what was granted; a response without `scope` is not taken as "nothing".
    const missing = tokens.scope
      ? (Object.keys(FEATURE_SCOPES) as GoogleFeature[]).filter((f) => !scopes.includes(FEATURE_SCOPES[f]))
      : [];
    const email = emailOf(tokens.id_token);
    const now = new Date(this.clock());
    // One statement: tokens stored and the flag on together; reconnecting starts a fresh connection
    // (new created_at, so clients made before it never overwrite its tokens).
    await this.accounts.saveConnection(phone, {
      tokens: this.cipher.encrypt(phone, keep(tokens)),
      scopes,
      email,
      at: now,
    });
    this.logger.info({ event: "GOOGLE_CONNECTED", scopes, missing }, "Google account connected");
    return { email, missing, builtInEvents: await this.builtInEvents(phone) };
  }

  /**
   * How many of the user's built-in calendar events are still ahead: timed events not yet over (one
   * under way counts too), all-day events ending after today (end_date is exclusive, and "today" is
   * taken in the event's own time zone), and every recurring event. 0 when counting fails: the
   * connection is stored by then, and the count only adds a sentence to the confirmation.
   */
  private async builtInEvents(phone: string): Promise<number> {
    try {
      return await this.accounts.builtInEventsAhead(phone, new Date(this.clock()));
    } catch (error) {
      this.logger.warn(
        { err: error, event: "GOOGLE_BUILT_IN_EVENTS_UNCOUNTED" },
        "counting built-in events failed",
      );
      return 0;
    }
  }

  async disconnect(phone: string): Promise<boolean> {
    const tokens = await this.accounts.removeConnection(phone);
    if (!tokens) return false;
    this.logger.info({ event: "GOOGLE_DISCONNECTED" }, "Google account disconnected");
    if (this.configured) await this.revoke(phone, tokens);
    return true;
  }

  /** Asks Google to revoke the tokens; best effort: the tokens are already gone from Memo either way. */
  private async revoke(phone: string, stored: Buffer): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const tokens = StoredTokens.parse(this.cipher.decrypt(phone, stored));
      // Revoking the refresh token ends the whole grant; the access token is the fallback.
      const token = tokens.refresh_token ?? tokens.access_token;
      if (!token) return;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("revoke timed out")), REVOKE_TIMEOUT_MS);
      });
      const request = this.oauthClient().revokeToken(token);
      // A late failure after the timeout has nowhere to go: it is handled here, not left unhandled.
      request.catch(() => undefined);
      await Promise.race([request, timeout]);
    } catch (error) {
      this.logger.warn(
        { event: "GOOGLE_REVOKE_FAILED", reason: error instanceof Error ? error.name : "unknown" },
        "revoking at Google failed; the tokens are deleted from Memo",
      );
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The Google connection service, from the app's configuration and its secret (loadSecretKey). */
export function createGoogleAccounts(options: GoogleAccountOptions): GoogleAccountService {
  return new GoogleAccountService(options);
}
