import { randomBytes } from "node:crypto";
import type { Express } from "express";
import request from "supertest";
import { createApp } from "../../src/app/httpApp.js";
import { loadConfig, type AppConfig } from "../../src/config/env.js";
import { MIGRATIONS } from "../../src/db/migrations/index.js";
import { googleAuthRoutes } from "../../src/transport/http/googleAuthRoute.js";
import { PgGoogleAccountRepository } from "../../src/db/repositories/googleAccountRepository.js";
import { createGoogleAccounts, GOOGLE_AUTH_PATH } from "../../src/services/google/googleAccountService.js";
import { TokenCipher } from "../../src/services/google/tokenCrypto.js";
import { InFlightWork } from "../../src/utils/inFlightWork.js";
import { fakeClock, type FakeClock } from "../support/clock.js";
import type { TestBackend, TestDatabase } from "../support/db.js";
import { FakeGoogleOAuth } from "../support/fakeGoogleOAuth.js";
import { captureLogs } from "../support/logs.js";

export const PUBLIC_URL = "https://memo.test";
export const PHONE_A = "972501111111";
export const PHONE_B = "972502222222";

/** The Google connection on real storage, the OAuth routes in the app, and a stand-in Google. */
export async function startGoogleTestbed(
  backend: TestBackend,
  options: {
    db?: TestDatabase;
    clock?: FakeClock;
    secret?: Buffer;
    fake?: FakeGoogleOAuth;
    /** Milliseconds a request to Google may take (default: GOOGLE_TIMEOUT_MS). */
    timeoutMs?: number;
  } = {},
) {
  const db = options.db ?? (await backend.create());
  const google = options.fake ?? (await FakeGoogleOAuth.start());
  const clock = options.clock ?? fakeClock("2026-03-05T10:00:00Z");
  const secret = options.secret ?? randomBytes(32);
  const { logger, lines } = captureLogs();
  const config: AppConfig = loadConfig({ ...google.env(), PUBLIC_URL });
  const accounts = createGoogleAccounts({
    accounts: new PgGoogleAccountRepository(db.pool),
    config,
    logger,
    clock: clock.now,
    secret,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const notified: { phone: string; text: string }[] = [];
  const app: Express = createApp({
    logger,
    pool: db.pool,
    migrations: MIGRATIONS,
    inFlight: new InFlightWork(),
    isShuttingDown: () => false,
    extraRoutes: (a) =>
      a.use(
        GOOGLE_AUTH_PATH,
        googleAuthRoutes({
          accounts,
          logger,
          notify: (phone, text) => {
            notified.push({ phone, text });
            return Promise.resolve();
          },
        }),
      ),
  });
  for (const [phone, language] of [
    [PHONE_A, "en"],
    [PHONE_B, "he"],
  ] as const) {
    await db.pool.query("INSERT INTO users (phone, language) VALUES ($1, $2) ON CONFLICT DO NOTHING", [
      phone,
      language,
    ]);
  }
  return {
    db,
    google,
    clock,
    secret,
    config,
    accounts,
    app,
    notified,
    logs: lines,
    /** The path and query of an absolute URL on this app, for supertest. */
    local: (url: string) => {
      const u = new URL(url);
      return `${u.pathname}${u.search}`;
    },
    /** The user's stored token set, decrypted. */
    async storedTokens(phone: string) {
      const { rows } = await db.pool.query<{ tokens: Buffer }>(
        "SELECT tokens FROM google_connections WHERE user_phone = $1",
        [phone],
      );
      return rows[0]
        ? (new TokenCipher(secret).decrypt(phone, rows[0].tokens) as Record<string, unknown>)
        : null;
    },
    async googleConnected(phone: string): Promise<boolean> {
      const { rows } = await db.pool.query<{ google_connected: boolean }>(
        "SELECT google_connected FROM users WHERE phone = $1",
        [phone],
      );
      return rows[0]!.google_connected;
    },
    async close(closeDb = true) {
      if (!options.fake) await google.close();
      if (closeDb && !options.db) await db.close();
    },
  };
}

export type GoogleTestbed = Awaited<ReturnType<typeof startGoogleTestbed>>;

/** Opens a connect link: the app's answer to GET /start (the page that shows whose number it connects). */
export function openLink(bed: GoogleTestbed, link: string) {
  return request(bed.app).get(bed.local(link));
}

/**
 * Presses Continue on a link's confirmation page: POST /start with the link's token, as the page's
 * form sends it, with `headers` (default: a current browser's "Sec-Fetch-Site: same-origin").
 * Answers with the redirect to Google's consent.
 */
export function continueLink(
  bed: GoogleTestbed,
  link: string,
  headers: Record<string, string> = { "Sec-Fetch-Site": "same-origin" },
) {
  const url = new URL(link);
  return request(bed.app)
    .post(url.pathname)
    .type("form")
    .set(headers)
    .send({ t: url.searchParams.get("t")! });
}

/** Follows /start's redirect through the stand-in consent page: the callback URL Google sends the browser to. */
export async function consent(bed: GoogleTestbed, startLocation: string): Promise<string> {
  const res = await fetch(startLocation, { redirect: "manual" });
  if (res.status !== 302) throw new Error(`consent page answered ${res.status}`);
  return res.headers.get("location")!;
}

/** The browser-binding cookie /start set, as a Cookie header ("name=value"); undefined when none. */
export function browserCookie(start: { headers: Record<string, unknown> }): string | undefined {
  const set = start.headers["set-cookie"];
  const first = Array.isArray(set) ? (set as string[])[0] : undefined;
  return first?.split(";")[0];
}

/** Google's redirect back to the app, from a browser that carries `cookie` (none: another browser). */
export function backFromGoogle(bed: GoogleTestbed, callbackUrl: string, cookie?: string) {
  const req = request(bed.app).get(bed.local(callbackUrl));
  return cookie ? req.set("Cookie", cookie) : req;
}

/** The browser journey from a connect link: the confirmation page, Continue, consent, callback. Returns the callback's response. */
export async function completeLink(bed: GoogleTestbed, link: string) {
  const page = await openLink(bed, link);
  if (page.status !== 200) throw new Error(`GET start answered ${page.status}`);
  const start = await continueLink(bed, link);
  if (start.status !== 302) throw new Error(`POST start answered ${start.status}`);
  return backFromGoogle(bed, await consent(bed, start.headers.location!), browserCookie(start));
}

/** The whole browser journey for `phone`: a new link, consent, callback. Returns the callback's response. */
export async function connectThroughBrowser(bed: GoogleTestbed, phone: string) {
  return completeLink(bed, (await bed.accounts.connectLink(phone))!);
}
