import { Router, type Request, type Response } from "express";
import {
  GOOGLE_AUTH_PATH,
  LINK_TTL_MS,
  type ConnectionOutcome,
  type GoogleAccountService,
  type LinkRefusal,
} from "../services/google/GoogleAccountService.js";
import { replyLanguage } from "../utils/language.js";
import type { Logger } from "../utils/logger.js";
import { t } from "../utils/userMessages.js";

/** The cookie that binds a link's consent to the browser that opened the link. */
const BROWSER_COOKIE = "memo_google_consent";

/** What the OAuth routes need. */
export interface GoogleAuthRouteDeps {
  accounts: Pick<
    GoogleAccountService,
    "beginConsent" | "consumeState" | "completeConnection" | "redirectUrl"
  >;
  /** Sends a chat message to the user (the "Google is connected" confirmation), in `language`. */
  notify: (phone: string, text: string, language: "he" | "en") => Promise<void>;
  logger: Logger;
}

/** The pages a browser sees, in both languages when the user is not known yet. */
const PAGES = {
  connected: {
    en: ["Google is connected", "You can go back to WhatsApp."],
    he: ["גוגל מחובר", "אפשר לחזור לוואטסאפ."],
  },
  invalid: {
    en: ["This link is not valid", 'Write "connect Google" to Memo in WhatsApp for a new link.'],
    he: ["הקישור הזה לא תקין", 'כתבו "חבר גוגל" לממו בוואטסאפ כדי לקבל קישור חדש.'],
  },
  expired: {
    en: ["This link has expired", 'Write "connect Google" to Memo in WhatsApp for a new link.'],
    he: ["תוקף הקישור פג", 'כתבו "חבר גוגל" לממו בוואטסאפ כדי לקבל קישור חדש.'],
  },
  used: {
    en: ["This link was already used", 'Write "connect Google" to Memo in WhatsApp for a new link.'],
    he: ["כבר השתמשו בקישור הזה", 'כתבו "חבר גוגל" לממו בוואטסאפ כדי לקבל קישור חדש.'],
  },
  browser: {
    en: [
      "This link was opened in another browser",
      'Nothing was connected. For your safety, Google can only be connected in the browser where the connect link was opened: write "connect Google" to Memo in WhatsApp and open the new link on this device.',
    ],
    he: [
      "הקישור נפתח בדפדפן אחר",
      'שום דבר לא חובר. מטעמי אבטחה אפשר לחבר את גוגל רק בדפדפן שבו נפתח קישור החיבור: כתבו "חבר גוגל" לממו בוואטסאפ ופתחו את הקישור החדש במכשיר הזה.',
    ],
  },
  denied: {
    en: [
      "Google was not connected",
      "Access was not granted. You can try the same link again, or go back to WhatsApp.",
    ],
    he: ["גוגל לא חובר", "לא ניתנה גישה. אפשר לנסות שוב עם אותו קישור, או לחזור לוואטסאפ."],
  },
  failed: {
    en: [
      "Google could not be connected",
      'Something went wrong. Write "connect Google" to Memo in WhatsApp to try again.',
    ],
    he: ["לא הצלחתי לחבר את גוגל", 'משהו השתבש. כתבו "חבר גוגל" לממו בוואטסאפ כדי לנסות שוב.'],
  },
} as const;

type Page = keyof typeof PAGES;

/** HTTP status of each refusal: a link that was good once is Gone, anything else a bad request. */
const REFUSAL_STATUS: Record<LinkRefusal, number> = { invalid: 400, expired: 410, used: 410, browser: 400 };

/** A small page; every text is fixed, so nothing from the request is ever echoed into HTML. */
function sendPage(res: Response, status: number, page: Page, language?: "he" | "en"): void {
  const languages = language ? [language] : (["en", "he"] as const);
  const sections = languages
    .map((l) => {
      const [title, body] = PAGES[page][l];
      return `<section dir="${l === "he" ? "rtl" : "ltr"}" lang="${l}"><h1>${title}</h1><p>${body}</p></section>`;
    })
    .join("\n");
  res
    .status(status)
    .set("Cache-Control", "no-store")
    // The pages carry no referrer onwards: the link's token and the code stay out of other sites' logs.
    .set("Referrer-Policy", "no-referrer")
    .type("html")
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Memo</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style></head><body>\n${sections}\n</body></html>`,
    );
}

/** The value of the cookie `name` the browser sent, or undefined. */
function cookie(req: Request, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** The chat confirmation: which account was connected, and what the user left unticked at Google. */
function connectedText(language: "he" | "en", { email, missing }: ConnectionOutcome): string {
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

/** The single string value of a query parameter, or undefined (absent, repeated or not a string). */
function param(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 && value.length <= 2048 ? value : undefined;
}

/**
 * GET /start?t=… checks the signed, single-use connect link, binds the consent to this browser with
 * a cookie, and sends the browser to Google's consent; GET /callback?code&state, from the same
 * browser, stores the tokens for the link's phone and confirms in chat, naming the account.
 * Mounted at /auth/google. Codes, tokens, link tokens and the cookie are never logged.
 */
export function googleAuthRoutes(deps: GoogleAuthRouteDeps): Router {
  const router = Router();

  router.get("/start", async (req, res, next) => {
    try {
      const token = param(req.query.t);
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
        .redirect(302, outcome.url);
    } catch (error) {
      next(error);
    }
  });

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
      sendPage(res, 200, "connected", language);
    } catch (error) {
      next(error);
    }
  });

  return router;
}
