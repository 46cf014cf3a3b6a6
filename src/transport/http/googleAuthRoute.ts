import express, { Router, type Request, type Response } from "express";
import {
  GOOGLE_AUTH_PATH,
  LINK_TTL_MS,
  type ConnectionOutcome,
  type GoogleAccountService,
  type LinkRefusal,
} from "../../services/google/googleAccountService.js";
import { replyLanguage } from "../../utils/language.js";
import type { Logger } from "../../utils/logger.js";
import { t } from "../../messages/index.js";

/** The languages the pages and the chat confirmation speak. */
type Language = "he" | "en";

/** The cookie that binds a link's consent to the browser that opened the link. */
const BROWSER_COOKIE = "memo_google_consent";

/** What the OAuth routes need. */
export interface GoogleAuthRouteDeps {
  accounts: Pick<
    GoogleAccountService,
    "inspectLink" | "beginConsent" | "consumeState" | "completeConnection" | "redirectUrl"
  >;
  /** Sends a chat message to the user (the "Google is connected" confirmation), in `language`. */
  notify: (phone: string, text: string, language: Language) => Promise<void>;
  logger: Logger;
}

/** The pages a browser sees, each a title and paragraphs (the "googlePage.*" sentences of src/messages/google.ts). */
type Page =
  "confirm" | "connected" | "invalid" | "expired" | "used" | "browser" | "crossSite" | "denied" | "failed";

/** HTTP status of each refusal: a link that was good once is Gone, anything else a bad request. */
const REFUSAL_STATUS: Record<LinkRefusal, number> = { invalid: 400, expired: 410, used: 410, browser: 400 };

/** Dialing codes of one or two digits (E.164); every other country's code has three. */
const SHORT_CALLING_CODES = /^(1|7|2[07]|3[0-469]|4[013-9]|5[1-8]|6[0-6]|8[1246]|9[0-58])/;

/**
 * A WhatsApp number as the pages show it: the country code and the last 4 digits, the rest hidden
 * behind a fixed mask that does not give away its length ("+972 ••• ••• 4567").
 * @internal
 */
export function maskPhone(phone: string): string {
  const code = SHORT_CALLING_CODES.exec(phone)?.[1] ?? phone.slice(0, 3);
  return `+${code} ••• ••• ${phone.slice(code.length).slice(-4)}`;
}

/** Text made safe to place in HTML, in element content and in quoted attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** What a page may carry besides its fixed texts; every value is escaped where it is placed. */
interface PageValues {
  /** The user's WhatsApp number, shown masked. */
  phone?: string;
  /** The link's token, posted back by the confirmation page's button. */
  token?: string;
}

/** One language's section of a page: escaped texts, the masked number kept left-to-right. */
function section(page: Page, language: Language, values: PageValues): string {
  const texts = [
    t(language, `googlePage.${page}.title`),
    ...t(language, `googlePage.${page}.body`).split("\n"),
  ];
  const [title, ...paragraphs] = texts.map((text) =>
    escapeHtml(text).replace("{number}", () =>
      values.phone ? `<bdi dir="ltr">${escapeHtml(maskPhone(values.phone))}</bdi>` : "",
    ),
  );
  const form =
    values.token === undefined
      ? ""
      : // A plain form (no script): the click posts the token, and only the token, back to /start.
        `<form method="post" action="start"><input type="hidden" name="t" value="${escapeHtml(values.token)}"><button type="submit">${escapeHtml(t(language, "googlePage.continue"))}</button></form>`;
  const body = paragraphs.map((p) => `<p>${p}</p>`).join("");
  return `<section dir="${language === "he" ? "rtl" : "ltr"}" lang="${language}"><h1>${title}</h1>${body}${form}</section>`;
}

/** A small page, never cached and never framed (a framed Continue button could be clicked blind). */
function sendPage(
  res: Response,
  status: number,
  page: Page,
  language?: Language,
  values: PageValues = {},
): void {
  const languages = language ? [language] : (["en", "he"] as const);
  const sections = languages.map((l) => section(page, l, values)).join("\n");
  res
    .status(status)
    .set("Cache-Control", "no-store")
    // No referrer to other sites: the link's token and the code stay out of their logs. The
    // confirmation page's own post keeps its origin (same-origin), which /start checks.
    .set("Referrer-Policy", page === "confirm" ? "same-origin" : "no-referrer")
    // No scripts, nothing loaded from elsewhere, and no other site may frame the page.
    .set(
      "Content-Security-Policy",
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
    )
    .set("X-Frame-Options", "DENY")
    .type("html")
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Memo</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.5rem 1.25rem}</style></head><body>\n${sections}\n</body></html>`,
    );
}

/**
 * Whether a POST to /start comes from Memo's own confirmation page. A form on another site could
 * otherwise post someone's link straight from the victim's browser and skip the page that shows
 * whose number it connects (the link-sharing attack, automated).
 */
function fromOwnPage(req: Request): boolean {
  // Current browsers say where a request comes from; only a page of this origin may post.
  const site = req.get("sec-fetch-site");
  if (site) return site === "same-origin";
  // Older browsers send Origin on a POST: it must name this host.
  const origin = req.get("origin");
  // Neither header: curl, a test, or a browser too old to send Origin; nothing to judge by.
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.host;
  } catch {
    // "null" (a sandboxed or privacy-stripped origin) or garbage: not known to be this page.
    return false;
  }
}

/** The value of the cookie `name` the browser sent, or undefined. */
function cookie(req: Request, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The chat confirmation: which account was connected, what the user left unticked at Google, and
 * the events that stay in the built-in calendar.
 */
function connectedText(language: Language, outcome: ConnectionOutcome): string {
  const events = builtInEventsText(language, outcome.builtInEvents);
  return events ? `${accountText(language, outcome)} ${events}` : accountText(language, outcome);
}

/** Which account was connected, and what the user left unticked at Google. */
function accountText(language: Language, { email, missing }: ConnectionOutcome): string {
  if (missing.length === 0) {
    return email ? t(language, "google.connectedAs", { email }) : t(language, "google.connected");
  }
  const account = email ? ` (${email})` : "";
  const key =
    missing.length > 1
      ? "google.connectedWithoutBoth"
      : missing[0] === "gmail"
        ? "google.connectedWithoutGmail"
        : "google.connectedWithoutCalendar";
  return t(language, key, { account });
}

/** The sentence about events kept in the built-in calendar, which Google Calendar won't show; none for 0. */
function builtInEventsText(language: Language, count: number): string | null {
  if (count === 0) return null;
  return t(language, "google.builtInEvents", { count });
}

/** The single string value of a query or form parameter, or undefined (absent, repeated or not a string). */
function param(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 && value.length <= 2048 ? value : undefined;
}

/**
 * GET /start?t=… checks the signed, single-use connect link without using it and shows whose number
 * it connects, with a Continue button; POST /start (the button) checks it again, binds the consent
 * to this browser with a cookie, and sends the browser to Google's consent; GET /callback?code&state,
 * from the same browser, stores the tokens for the link's phone and confirms in chat, naming the
 * account. Mounted at /auth/google. Codes, tokens, link tokens and the cookie are never logged.
 */
export function googleAuthRoutes(deps: GoogleAuthRouteDeps): Router {
  const router = Router();

  // Read-only, so a link preview fetching it changes nothing: the page asks the person who opened
  // the link to check the number, since a link someone else sent would connect their Google account
  // to that someone's phone.
  router.get("/start", async (req, res, next) => {
    try {
      const token = param(req.query.t);
      if (!token) {
        sendPage(res, 400, "invalid");
        return;
      }
      const link = await deps.accounts.inspectLink(token);
      if ("refused" in link) {
        deps.logger.info({ event: "GOOGLE_LINK_REFUSED", reason: link.refused }, "connect link refused");
        sendPage(res, REFUSAL_STATUS[link.refused], link.refused);
        return;
      }
      sendPage(res, 200, "confirm", replyLanguage(link.language), { phone: link.phone, token });
    } catch (error) {
      next(error);
    }
  });

  // The Continue button: its form carries the signed token and nothing else.
  router.post(
    "/start",
    express.urlencoded({ extended: false, limit: "4kb", parameterLimit: 10 }),
    async (req, res, next) => {
      try {
        if (!fromOwnPage(req)) {
          deps.logger.info({ event: "GOOGLE_LINK_REFUSED", reason: "cross_site" }, "connect link refused");
          sendPage(res, 403, "crossSite");
          return;
        }
        const token = param((req.body as Record<string, unknown> | undefined)?.t);
        if (!token) {
          sendPage(res, 400, "invalid");
          return;
        }
        const outcome = await deps.accounts.beginConsent(token);
        if ("refused" in outcome) {
          deps.logger.info({ event: "GOOGLE_LINK_REFUSED", reason: outcome.refused }, "connect link refused");
          sendPage(res, REFUSAL_STATUS[outcome.refused], outcome.refused);
          return;
        }
        res
          .set("Cache-Control", "no-store")
          .set("Referrer-Policy", "no-referrer")
          // The callback must come back to this browser: a consent URL sent to someone else fails there.
          .cookie(BROWSER_COOKIE, outcome.browser, {
            // Never readable by scripts; sent only over HTTPS when the callback is HTTPS.
            httpOnly: true,
            secure: new URL(deps.accounts.redirectUrl()).protocol === "https:",
            // Lax: still sent on Google's top-level redirect back to the callback, never on cross-site posts.
            sameSite: "lax",
            // Only the OAuth routes see it, and only as long as the consent may last.
            path: GOOGLE_AUTH_PATH,
            maxAge: LINK_TTL_MS,
          })
          // Browsers follow a 302 after a POST with a GET, as Google's consent page expects.
          .redirect(302, outcome.url);
      } catch (error) {
        next(error);
      }
    },
  );

  router.get("/callback", async (req, res, next) => {
    try {
      const state = param(req.query.state);
      // The user declined (or Google refused): nothing is stored and the link stays usable.
      const error = param(req.query.error);
      if (error) {
        // Google's error codes are short snake_case words; anything else is not logged as given.
        const reason = /^[a-z_]{1,64}$/.test(error) ? error : "other";
        deps.logger.info({ event: "GOOGLE_CONSENT_DECLINED", reason }, "consent declined");
        sendPage(res, 400, "denied");
        return;
      }
      const code = param(req.query.code);
      if (!state || !code) {
        sendPage(res, 400, "invalid");
        return;
      }
      const consumed = await deps.accounts.consumeState(state, cookie(req, BROWSER_COOKIE));
      if ("refused" in consumed) {
        deps.logger.info({ event: "GOOGLE_CALLBACK_REFUSED", reason: consumed.refused }, "callback refused");
        sendPage(res, REFUSAL_STATUS[consumed.refused], consumed.refused);
        return;
      }
      const language = replyLanguage(consumed.language);
      // The link is used up: its cookie is of no more use.
      res.clearCookie(BROWSER_COOKIE, { path: GOOGLE_AUTH_PATH });
      let connected: ConnectionOutcome;
      try {
        connected = await deps.accounts.completeConnection(consumed.phone, code);
      } catch (error) {
        // The error may quote the request; only its kind and Google's error code are logged.
        const googleError = (error as { response?: { data?: { error?: unknown } } }).response?.data?.error;
        deps.logger.error(
          {
            event: "GOOGLE_CODE_EXCHANGE_FAILED",
            kind: error instanceof Error ? error.name : "unknown",
            googleError: typeof googleError === "string" ? googleError : undefined,
          },
          "exchanging Google's code failed",
        );
        sendPage(res, 502, "failed", language);
        return;
      }
      try {
        await deps.notify(consumed.phone, connectedText(language, connected), language);
      } catch (error) {
        // Connected all the same; the page says so.
        deps.logger.error({ err: error, event: "GOOGLE_CONNECTED_NOTIFY_FAILED" }, "confirmation not sent");
      }
      sendPage(res, 200, "connected", language, { phone: consumed.phone });
    } catch (error) {
      next(error);
    }
  });

  return router;
}
