// The Google connection end to end, in-process: the signed single-use link, the consent redirect
// through a stand-in Google, the callback, encrypted storage, refresh, loss and disconnecting.
// Runs on PGlite, and on the machine's Postgres when TEST_DATABASE_URL is set.
import { randomBytes } from "node:crypto";
import request from "supertest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config/env.js";
import { PgGoogleAccountRepository } from "../../src/db/repositories/googleAccountRepository.js";
import { createGoogleAccounts, GOOGLE_SCOPES } from "../../src/services/google/googleAccountService.js";
import { TokenDecryptionError } from "../../src/services/google/tokenCrypto.js";
import { isInvalidGrant } from "../../src/services/google/types.js";
import { backends } from "../support/db.js";
import { captureLogs } from "../support/logs.js";
import {
  backFromGoogle,
  browserCookie,
  connectThroughBrowser,
  consent,
  continueLink,
  openLink,
  PHONE_A,
  PHONE_B,
  PUBLIC_URL,
  startGoogleTestbed,
  type GoogleTestbed,
} from "./testbed.js";

const MINUTE = 60_000;

describe.each(backends)("Google connection on $name", (backend) => {
  let bed: GoogleTestbed;
  afterEach(async () => bed?.close());

  /** Rows of the user's connection. */
  async function connectionRow(phone: string) {
    const { rows } = await bed.db.pool.query<{
      tokens: Buffer;
      scopes: string[];
      email: string | null;
      status: string;
    }>("SELECT tokens, scopes, email, status FROM google_connections WHERE user_phone = $1", [phone]);
    return rows[0];
  }

  it("connects through link, consent and callback; tokens are stored encrypted and the chat is told", async () => {
    bed = await startGoogleTestbed(backend);
    const link = await bed.accounts.connectLink(PHONE_A);
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/auth/google/start\\?t=`));

    const start = await continueLink(bed, link!);
    expect(start.status).toBe(302);
    const consentUrl = new URL(start.headers.location!);
    expect(`${consentUrl.origin}${consentUrl.pathname}`).toBe(`${bed.google.baseUrl}/auth`);
    expect(Object.fromEntries(consentUrl.searchParams)).toMatchObject({
      client_id: bed.google.clientId,
      redirect_uri: `${PUBLIC_URL}/auth/google/callback`,
      access_type: "offline",
      prompt: "consent",
      include_granted_scopes: "true",
      response_type: "code",
    });
    expect(consentUrl.searchParams.get("scope")!.split(" ")).toEqual([...GOOGLE_SCOPES]);
    expect(consentUrl.searchParams.get("state")).toBeTruthy();

    // The browser is bound to the link: /start sets an HttpOnly cookie scoped to the OAuth routes.
    const cookie = start.headers["set-cookie"] as unknown as string[];
    expect(cookie).toHaveLength(1);
    expect(cookie[0]).toMatch(/^memo_google_consent=[A-Za-z0-9_-]{43};/);
    expect(cookie[0]).toMatch(/; Max-Age=900;/);
    expect(cookie[0]).toMatch(/; Path=\/auth\/google;/);
    expect(cookie[0]).toMatch(/; HttpOnly;/);
    expect(cookie[0]).toMatch(/; Secure;/);
    expect(cookie[0]).toMatch(/; SameSite=Lax$/);

    const callbackUrl = await consent(bed, start.headers.location!);
    const code = new URL(callbackUrl).searchParams.get("code")!;
    const callback = await backFromGoogle(bed, callbackUrl, browserCookie(start));
    expect(callback.status).toBe(200);
    expect(callback.text).toContain("You can go back to WhatsApp.");
    // The chat names the account that was connected, so a wrong one is noticed at once.
    expect(bed.notified).toEqual([
      {
        phone: PHONE_A,
        text: "Google is connected ✅ (user@example.com) I can now use your calendar and Gmail.",
      },
    ]);

    const [access] = bed.google.accessTokens();
    const [refresh] = bed.google.refreshTokens();
    const row = (await connectionRow(PHONE_A))!;
    expect(row).toMatchObject({ status: "connected", email: "user@example.com" });
    expect(row.scopes).toEqual([...GOOGLE_SCOPES]);
    // Encrypted at rest: neither token appears in the stored bytes, in any encoding.
    for (const token of [access!, refresh!]) {
      expect(row.tokens.includes(Buffer.from(token))).toBe(false);
      expect(row.tokens.toString("hex")).not.toContain(Buffer.from(token).toString("hex"));
    }
    expect(await bed.storedTokens(PHONE_A)).toMatchObject({ access_token: access, refresh_token: refresh });
    expect(await bed.googleConnected(PHONE_A)).toBe(true);
    expect(await bed.accounts.status(PHONE_A)).toBe("connected");
    const client = await bed.accounts.clientFor(PHONE_A);
    expect(client!.credentials.access_token).toBe(access);

    // No code, token or link token in any log line.
    const logged = JSON.stringify(bed.logs());
    for (const secret of [code, access!, refresh!, new URL(link!).searchParams.get("t")!]) {
      expect(logged).not.toContain(secret);
    }
  });

  it("confirms in Hebrew to a Hebrew-speaking user, and the page speaks Hebrew", async () => {
    bed = await startGoogleTestbed(backend);
    const callback = await connectThroughBrowser(bed, PHONE_B);
    expect(callback.status).toBe(200);
    expect(callback.text).toContain("אפשר לחזור לוואטסאפ.");
    expect(bed.notified).toEqual([
      { phone: PHONE_B, text: "גוגל מחובר ✅ (user@example.com) עכשיו אני יכול להשתמש ביומן וב-Gmail שלך." },
    ]);
  });

  it("refuses a link used once already, and a replayed callback", async () => {
    bed = await startGoogleTestbed(backend);
    const link = (await bed.accounts.connectLink(PHONE_A))!;
    const start = await continueLink(bed, link);
    const callbackUrl = await consent(bed, start.headers.location!);
    expect((await backFromGoogle(bed, callbackUrl, browserCookie(start))).status).toBe(200);

    const again = await openLink(bed, link);
    expect(again.status).toBe(410);
    expect(again.text).toContain("This link was already used");
    const replay = await backFromGoogle(bed, callbackUrl, browserCookie(start));
    expect(replay.status).toBe(410);
    expect(bed.notified).toHaveLength(1);
  });

  it("lets only one of two simultaneous callbacks with the same state through", async () => {
    bed = await startGoogleTestbed(backend);
    const start = await continueLink(bed, (await bed.accounts.connectLink(PHONE_A))!);
    const first = new URL(await consent(bed, start.headers.location!));
    const second = new URL(await consent(bed, start.headers.location!));
    const statuses = await Promise.all(
      [first, second].map(async (u) => (await backFromGoogle(bed, u.href, browserCookie(start))).status),
    );
    expect(statuses.sort()).toEqual([200, 410]);
    expect(bed.notified).toHaveLength(1);
  });

  it("never lets phone A's link or state connect phone B", async () => {
    bed = await startGoogleTestbed(backend);
    const link = (await bed.accounts.connectLink(PHONE_A))!;
    const token = new URL(link).searchParams.get("t")!;
    // The link edited to name B: the signature no longer holds.
    const forged = await request(bed.app).get(
      `/auth/google/start?t=${encodeURIComponent(token.replace(PHONE_A, PHONE_B))}`,
    );
    expect(forged.status).toBe(400);
    expect(forged.text).toContain("This link is not valid");

    // A's consent, with the state edited to name B on the way back.
    const start = await continueLink(bed, link);
    const callback = new URL(await consent(bed, start.headers.location!));
    const state = callback.searchParams.get("state")!;
    callback.searchParams.set("state", state.replace(PHONE_A, PHONE_B));
    const cookie = browserCookie(start);
    const tampered = await backFromGoogle(bed, callback.href, cookie);
    expect(tampered.status).toBe(400);
    // A state signed for A, reusing B's own fresh nonce, does not verify either.
    const bLink = new URL((await bed.accounts.connectLink(PHONE_B))!).searchParams.get("t")!;
    const bNonce = bLink.split(".")[1]!;
    const [, , signature] = state.split(".");
    callback.searchParams.set("state", `${PHONE_B}.${bNonce}.${signature}`);
    expect((await backFromGoogle(bed, callback.href, cookie)).status).toBe(400);

    expect(await connectionRow(PHONE_B)).toBeUndefined();
    expect(await bed.googleConnected(PHONE_B)).toBe(false);
    expect(bed.notified).toEqual([]);
    // A's own state still works: nothing was consumed by the forgeries.
    callback.searchParams.set("state", state);
    expect((await backFromGoogle(bed, callback.href, cookie)).status).toBe(200);
    expect(await bed.googleConnected(PHONE_A)).toBe(true);
  });

  it("refuses a callback from a browser that did not open the link: nothing stored, the link not used up", async () => {
    bed = await startGoogleTestbed(backend);
    // The attacker opens their own link and sends the victim Google's consent URL it redirects to.
    const attackerStart = await continueLink(bed, (await bed.accounts.connectLink(PHONE_A))!);
    const callbackUrl = await consent(bed, attackerStart.headers.location!);
    // The victim's browser comes back from Google without the attacker's cookie.
    const refused = await backFromGoogle(bed, callbackUrl);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("This link was opened in another browser");
    expect(refused.text).toContain("Nothing was connected.");
    // A cookie for another link (another nonce) does not fit either, nor a forged value of the right shape.
    const otherStart = await continueLink(bed, (await bed.accounts.connectLink(PHONE_A))!);
    expect((await backFromGoogle(bed, callbackUrl, browserCookie(otherStart))).status).toBe(400);
    expect((await backFromGoogle(bed, callbackUrl, `memo_google_consent=${"A".repeat(43)}`)).status).toBe(
      400,
    );
    expect(await connectionRow(PHONE_A)).toBeUndefined();
    expect(await bed.googleConnected(PHONE_A)).toBe(false);
    expect(bed.notified).toEqual([]);
    expect(bed.logs().filter((l) => l.event === "GOOGLE_CALLBACK_REFUSED")).toHaveLength(3);
    // The browser that opened the link still finishes it: nothing was consumed by the refusals.
    expect((await backFromGoogle(bed, callbackUrl, browserCookie(attackerStart))).status).toBe(200);
    expect(await bed.googleConnected(PHONE_A)).toBe(true);
  });

  it("connects what was granted and says in chat which access was left unticked", async () => {
    bed = await startGoogleTestbed(backend);
    const gmailScope = "https://www.googleapis.com/auth/gmail.modify";
    const calendarScope = "https://www.googleapis.com/auth/calendar";
    bed.google.withhold = [gmailScope];
    expect((await connectThroughBrowser(bed, PHONE_A)).status).toBe(200);
    expect((await connectionRow(PHONE_A))!.scopes).not.toContain(gmailScope);
    expect(await bed.googleConnected(PHONE_A)).toBe(true);
    expect(bed.notified.at(-1)).toEqual({
      phone: PHONE_A,
      text:
        "Google is connected (user@example.com), but you didn't allow Gmail, so I can't use your email. " +
        'To allow it, say "disconnect Google", then "connect Google", and tick Gmail on Google\'s page.',
    });

    bed.google.withhold = [gmailScope, calendarScope];
    await connectThroughBrowser(bed, PHONE_B);
    expect(bed.notified.at(-1)).toEqual({
      phone: PHONE_B,
      text:
        "גוגל מחובר (user@example.com), אבל לא אישרת גישה ליומן ול-Gmail, אז אין לי גישה אליהם. " +
        'כדי לאשר, כתבו "נתק גוגל", אחר כך "חבר גוגל", וסמנו את היומן ואת Gmail בדף של גוגל.',
    });

    bed.google.withhold = [calendarScope];
    await connectThroughBrowser(bed, PHONE_A);
    expect(bed.notified.at(-1)!.text).toBe(
      "Google is connected (user@example.com), but you didn't allow your calendar, so I can't use Google Calendar. " +
        'To allow it, say "disconnect Google", then "connect Google", and tick the calendar on Google\'s page.',
    );
  });

  it("refuses an expired link, and a consent finished too late", async () => {
    bed = await startGoogleTestbed(backend);
    const link = (await bed.accounts.connectLink(PHONE_A))!;
    bed.clock.advance(16 * MINUTE);
    const late = await openLink(bed, link);
    expect(late.status).toBe(410);
    expect(late.text).toContain("This link has expired");

    const fresh = (await bed.accounts.connectLink(PHONE_A))!;
    const start = await continueLink(bed, fresh);
    const callbackUrl = await consent(bed, start.headers.location!);
    bed.clock.advance(16 * MINUTE);
    const callback = await backFromGoogle(bed, callbackUrl, browserCookie(start));
    expect(callback.status).toBe(410);
    expect(await connectionRow(PHONE_A)).toBeUndefined();
    expect(bed.notified).toEqual([]);
  });

  it("stores nothing when the user declines at Google, and the link still works afterwards", async () => {
    bed = await startGoogleTestbed(backend);
    const link = (await bed.accounts.connectLink(PHONE_A))!;
    bed.google.decline = "access_denied";
    const start = await continueLink(bed, link);
    const declined = await backFromGoogle(bed, await consent(bed, start.headers.location!));
    expect(declined.status).toBe(400);
    expect(declined.text).toContain("Access was not granted");
    expect(await connectionRow(PHONE_A)).toBeUndefined();

    bed.google.decline = undefined;
    const retry = await continueLink(bed, link);
    const callback = await backFromGoogle(
      bed,
      await consent(bed, retry.headers.location!),
      browserCookie(retry),
    );
    expect(callback.status).toBe(200);
  });

  it("answers a garbage link or callback with a small page, never a stack trace", async () => {
    bed = await startGoogleTestbed(backend);
    for (const path of [
      "/auth/google/start",
      "/auth/google/start?t=nonsense",
      "/auth/google/callback",
      "/auth/google/callback?code=x&state=y",
    ]) {
      const res = await request(bed.app).get(path);
      expect(res.status, path).toBe(400);
      expect(res.type).toBe("text/html");
      expect(res.text).toContain("This link is not valid");
    }
  });

  it("gives up on a token endpoint that hangs: a 'could not be connected' page, nothing stored", async () => {
    bed = await startGoogleTestbed(backend, { timeoutMs: 100 });
    bed.google.tokenDelayMs = 3_000;
    const started = Date.now();
    const res = await connectThroughBrowser(bed, PHONE_A);
    expect(res.status).toBe(502);
    expect(res.text).toContain("Google could not be connected");
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(await connectionRow(PHONE_A)).toBeUndefined();
    expect(bed.notified).toEqual([]);
  });

  it("refreshes an expiring access token and stores the new one, keeping the refresh token", async () => {
    bed = await startGoogleTestbed(backend);
    // Tokens that live 60 s are inside the client's 5-minute refresh margin: the next use refreshes.
    bed.google.expiresIn = 60;
    await connectThroughBrowser(bed, PHONE_A);
    const [first] = bed.google.accessTokens();
    const [refresh] = bed.google.refreshTokens();

    const client = (await bed.accounts.clientFor(PHONE_A))!;
    const { token } = await client.getAccessToken();
    expect(token).not.toBe(first);
    expect(bed.google.isValidAccessToken(token!)).toBe(true);
    await vi.waitFor(async () =>
      expect(await bed.storedTokens(PHONE_A)).toMatchObject({ access_token: token, refresh_token: refresh }),
    );
    // A client made now starts from the refreshed tokens.
    expect((await bed.accounts.clientFor(PHONE_A))!.credentials).toMatchObject({
      access_token: token,
      refresh_token: refresh,
    });
  });

  it("marks a revoked connection lost: true the first time only, the flag off, no client", async () => {
    bed = await startGoogleTestbed(backend);
    bed.google.expiresIn = 60;
    await connectThroughBrowser(bed, PHONE_A);
    bed.google.revokeAll();
    const client = (await bed.accounts.clientFor(PHONE_A))!;
    const error = await client.getAccessToken().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isInvalidGrant(error)).toBe(true);

    expect(await bed.accounts.markLost(PHONE_A)).toBe(true);
    expect(await bed.accounts.markLost(PHONE_A)).toBe(false);
    expect(await bed.accounts.status(PHONE_A)).toBe("lost");
    expect(await bed.googleConnected(PHONE_A)).toBe(false);
    expect(await bed.accounts.clientFor(PHONE_A)).toBeNull();
    expect(bed.logs().filter((l) => l.event === "GOOGLE_CONNECTION_LOST")).toHaveLength(1);

    // Reconnecting starts over: connected, and a later loss is told again.
    await connectThroughBrowser(bed, PHONE_A);
    expect(await bed.accounts.status(PHONE_A)).toBe("connected");
    expect(await bed.googleConnected(PHONE_A)).toBe(true);
    expect(await bed.accounts.markLost(PHONE_A)).toBe(true);
  });

  it("tells only one of two simultaneous markLost calls that it was first", async () => {
    bed = await startGoogleTestbed(backend);
    await connectThroughBrowser(bed, PHONE_A);
    const results = await Promise.all([bed.accounts.markLost(PHONE_A), bed.accounts.markLost(PHONE_A)]);
    expect(results.sort()).toEqual([false, true]);
  });

  it("disconnects: tokens deleted, revoked at Google, flag off; a second disconnect finds nothing", async () => {
    bed = await startGoogleTestbed(backend);
    await connectThroughBrowser(bed, PHONE_A);
    const [refresh] = bed.google.refreshTokens();
    expect(await bed.accounts.disconnect(PHONE_A)).toBe(true);
    expect(await connectionRow(PHONE_A)).toBeUndefined();
    expect(await bed.googleConnected(PHONE_A)).toBe(false);
    expect(await bed.accounts.status(PHONE_A)).toBe("none");
    expect(bed.google.revoked).toEqual([refresh]);
    expect(await bed.accounts.disconnect(PHONE_A)).toBe(false);
  });

  it("disconnects even when Google's revoke endpoint fails", async () => {
    bed = await startGoogleTestbed(backend);
    await connectThroughBrowser(bed, PHONE_A);
    bed.google.failRevoke = true;
    expect(await bed.accounts.disconnect(PHONE_A)).toBe(true);
    expect(await connectionRow(PHONE_A)).toBeUndefined();
    expect(await bed.googleConnected(PHONE_A)).toBe(false);
    expect(bed.logs().some((l) => l.event === "GOOGLE_REVOKE_FAILED")).toBe(true);
  });

  it("fails loudly when the stored tokens were written under another key", async () => {
    bed = await startGoogleTestbed(backend);
    await connectThroughBrowser(bed, PHONE_A);
    const otherKey = createGoogleAccounts({
      accounts: new PgGoogleAccountRepository(bed.db.pool),
      config: bed.config,
      logger: captureLogs().logger,
      secret: randomBytes(32),
    });
    await expect(otherKey.clientFor(PHONE_A)).rejects.toBeInstanceOf(TokenDecryptionError);
    // Unreadable tokens count as lost, so the user is offered a new link; storage is left as it was.
    expect(await otherKey.status(PHONE_A)).toBe("lost");
    expect(await bed.accounts.status(PHONE_A)).toBe("connected");
  });

  it("offers no link and no client when Google OAuth is not configured", async () => {
    bed = await startGoogleTestbed(backend);
    const unconfigured = createGoogleAccounts({
      accounts: new PgGoogleAccountRepository(bed.db.pool),
      config: loadConfig({}),
      logger: captureLogs().logger,
      secret: randomBytes(32),
    });
    expect(unconfigured.configured).toBe(false);
    expect(await unconfigured.connectLink(PHONE_A)).toBeNull();
    expect(await unconfigured.clientFor(PHONE_A)).toBeNull();
    expect(await unconfigured.status(PHONE_A)).toBe("none");
    expect(await unconfigured.disconnect(PHONE_A)).toBe(false);
  });
});
