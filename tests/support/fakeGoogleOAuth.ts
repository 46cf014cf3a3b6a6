import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for Google's OAuth endpoints on 127.0.0.1, for tests: the real google-auth-library
 * client talks to it over HTTP.
 *
 * - GET  /auth    the consent page: consents at once (or declines, see `decline`; unticks the scopes
 *                 in `withhold`) and redirects to the request's redirect_uri with a fresh code and
 *                 the state, as Google does.
 * - POST /token   authorization_code (single-use codes, checked client and redirect_uri) and
 *                 refresh_token grants; a revoked or unknown refresh token gets invalid_grant.
 * - POST /revoke  revokes a refresh token (and the access tokens of its grant) or an access token.
 *
 *   const google = await FakeGoogleOAuth.start();
 *   const config = loadConfig({ ...google.env(), PUBLIC_URL: "https://memo.test" });
 *   google.revokeAll(); // the user removed Memo's access in their Google account
 *   await google.close();
 */

export interface FakeGoogleOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** Seconds each access token lives (default: 3600). */
  expiresIn?: number;
  /** The account's address, in the id token (default: user@example.com). */
  email?: string;
}

/** One request the fake answered; form bodies parsed. */
export interface RecordedOAuthRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
}

interface Grant {
  refreshToken: string;
  scope: string;
  revoked: boolean;
  accessTokens: Set<string>;
}

export class FakeGoogleOAuth {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Every request, in order. */
  readonly requests: RecordedOAuthRequest[] = [];
  /** The tokens revoked through /revoke, in order. */
  readonly revoked: string[] = [];
  /** When set, /auth declines with this error (e.g. "access_denied") instead of consenting. */
  decline: string | undefined;
  /** Scopes the user unticks on the consent page (granular consent): the grant leaves them out. */
  withhold: string[] = [];
  /** When true, /revoke fails (400), as when Google is unreachable or the token is unknown to it. */
  failRevoke = false;
  /** Milliseconds /token waits before it answers (a Google that hangs). */
  tokenDelayMs = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Seconds each access token issued from now on lives. */
  expiresIn: number;
  private readonly email: string;
  /** code → redirect_uri and scope it was issued for; deleted when used. */
  private readonly codes = new Map<string, { redirectUri: string; scope: string }>();
  private readonly grants = new Map<string, Grant>();
  private readonly accessIndex = new Map<string, Grant>();

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    options: FakeGoogleOAuthOptions,
  ) {
    this.clientId = options.clientId ?? "test-client.apps.googleusercontent.com";
    this.clientSecret = options.clientSecret ?? "test-client-secret";
    this.expiresIn = options.expiresIn ?? 3600;
    this.email = options.email ?? "user@example.com";
  }

  static async start(options: FakeGoogleOAuthOptions = {}): Promise<FakeGoogleOAuth> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeGoogleOAuth(server, `http://127.0.0.1:${port}`, options);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      void fake.handle(req, res);
    });
    return fake;
  }

  /** The environment that points Memo's Google settings at this fake. */
  env(): Record<string, string> {
    return {
      GOOGLE_CLIENT_ID: this.clientId,
      GOOGLE_CLIENT_SECRET: this.clientSecret,
      GOOGLE_AUTH_URL: `${this.baseUrl}/auth`,
      GOOGLE_TOKEN_URL: `${this.baseUrl}/token`,
    };
  }

  /** A code as /auth would issue it, for tests that skip the consent redirect. */
  issueCode(redirectUri: string, scope = "openid email https://www.googleapis.com/auth/calendar"): string {
    const code = `4/code-${randomBytes(8).toString("hex")}`;
    this.codes.set(code, { redirectUri, scope });
    return code;
  }

  /** Whether an access token was issued and not revoked (for API stand-ins checking Authorization). */
  isValidAccessToken(token: string): boolean {
    const grant = this.accessIndex.get(token);
    return grant !== undefined && !grant.revoked;
  }

  /** Every access token issued so far, oldest first. */
  accessTokens(): string[] {
    return [...this.accessIndex.keys()];
  }

  /** Every refresh token issued so far, oldest first. */
  refreshTokens(): string[] {
    return [...this.grants.keys()];
  }

  /** Revokes every grant, as when the user removes the app in their Google account. */
  revokeAll(): void {
    for (const grant of this.grants.values()) grant.revoked = true;
  }

  close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    const closed = new Promise<void>((resolve, reject) =>
      this.server.close((e) => (e ? reject(e) : resolve())),
    );
    this.server.closeAllConnections();
    return closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.baseUrl);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const form = Object.fromEntries(new URLSearchParams(body));
    const query = Object.fromEntries(url.searchParams);
    this.requests.push({ method: req.method ?? "GET", path: url.pathname, query, form });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    };

    if (req.method === "GET" && url.pathname === "/auth") {
      const redirect = new URL(query.redirect_uri ?? "");
      if (query.client_id !== this.clientId) return json(400, { error: "invalid_client" });
      if (this.decline) {
        redirect.searchParams.set("error", this.decline);
      } else {
        const granted = (query.scope ?? "").split(" ").filter((s) => s && !this.withhold.includes(s));
        redirect.searchParams.set("code", this.issueCode(query.redirect_uri!, granted.join(" ")));
      }
      if (query.state) redirect.searchParams.set("state", query.state);
      res.writeHead(302, { location: redirect.toString() }).end();
      return;
    }

    if (req.method === "POST" && url.pathname === "/token") {
      if (this.tokenDelayMs > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            resolve();
          }, this.tokenDelayMs);
          this.timers.add(timer);
        });
      }
      if (form.client_id !== this.clientId || form.client_secret !== this.clientSecret) {
        return json(401, { error: "invalid_client", error_description: "The OAuth client was not found." });
      }
      if (form.grant_type === "authorization_code") {
        const issued = form.code ? this.codes.get(form.code) : undefined;
        // Codes are single-use and bound to the redirect URI they were issued for.
        if (!issued || issued.redirectUri !== form.redirect_uri) {
          return json(400, { error: "invalid_grant", error_description: "Malformed auth code." });
        }
        this.codes.delete(form.code!);
        const grant: Grant = {
          refreshToken: `1//refresh-${randomBytes(12).toString("hex")}`,
          scope: issued.scope,
          revoked: false,
          accessTokens: new Set(),
        };
        this.grants.set(grant.refreshToken, grant);
        return json(200, {
          access_token: this.newAccessToken(grant),
          refresh_token: grant.refreshToken,
          expires_in: this.expiresIn,
          scope: grant.scope,
          token_type: "Bearer",
          id_token: idToken({ iss: "https://accounts.google.com", sub: "1234567890", email: this.email }),
        });
      }
      if (form.grant_type === "refresh_token") {
        const grant = form.refresh_token ? this.grants.get(form.refresh_token) : undefined;
        if (!grant || grant.revoked) {
          return json(400, {
            error: "invalid_grant",
            error_description: "Token has been expired or revoked.",
          });
        }
        // As Google does: a new access token, and no new refresh token.
        return json(200, {
          access_token: this.newAccessToken(grant),
          expires_in: this.expiresIn,
          scope: grant.scope,
          token_type: "Bearer",
        });
      }
      return json(400, { error: "unsupported_grant_type" });
    }

    if (req.method === "POST" && url.pathname === "/revoke") {
      if (this.failRevoke) return json(400, { error: "invalid_request" });
      const token = query.token ?? form.token ?? "";
      const grant = this.grants.get(token) ?? this.accessIndex.get(token);
      if (!grant) return json(400, { error: "invalid_token" });
      grant.revoked = true;
      this.revoked.push(token);
      return json(200, {});
    }

    json(404, { error: "not_found" });
  }

  private newAccessToken(grant: Grant): string {
    const token = `ya29.access-${randomBytes(12).toString("hex")}`;
    grant.accessTokens.add(token);
    this.accessIndex.set(token, grant);
    return token;
  }
}

/** An unsigned JWT carrying `claims` (the service reads only the email, for display). */
function idToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`;
}
