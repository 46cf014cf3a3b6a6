import { Router } from "express";
import type { CalendarEventRepository } from "../../db/repositories/calendarEventRepository.js";
import type { UserRepository } from "../../db/repositories/userRepository.js";
import { renderIcsFeed } from "../../services/calendar/icsFeed.js";
import { deriveKey, sign, verify } from "../../services/google/secrets.js";
import type { Logger } from "../../utils/logger.js";

/** What the calendar feed needs. */
export interface CalendarFeedDeps {
  users: Pick<UserRepository, "timeZone">;
  events: Pick<CalendarEventRepository, "listAll">;
  /** The service secret (loadSecretKey); feed links are signed with a key derived from it. */
  secret: Buffer;
  logger: Logger;
  /** The clock, epoch ms (default: Date.now). */
  clock?: () => number;
}

/** The HKDF purpose of the feed's signing key. */
const PURPOSE = "calendar-feed";
/** A normalized phone number, as users.phone holds it. */
const PHONE = /^[1-9][0-9]{5,14}$/;

/**
 * The private address of a user's built-in calendar feed, to paste into any calendar app:
 * `<base>/calendar/<phone>/<signature>.ics`. Only the holder of the link can read the feed.
 */
export function calendarFeedUrl(baseUrl: string, phone: string, secret: Buffer): string {
  const signature = sign(deriveKey(secret, PURPOSE), phone);
  return `${baseUrl.replace(/\/+$/, "")}/calendar/${phone}/${signature}.ics`;
}

/**
 * GET /calendar/:phone/:signature.ics: the user's built-in calendar as iCalendar. A wrong or
 * missing signature is a plain 404, the same answer as for a phone with no calendar, so the route
 * tells nobody which phones exist.
 */
export function calendarFeedRoutes(deps: CalendarFeedDeps): Router {
  const router = Router();
  const key = deriveKey(deps.secret, PURPOSE);
  const { users, events } = deps;

  router.get("/calendar/:phone/:file", async (req, res) => {
    const { phone, file } = req.params;
    const signature = file.endsWith(".ics") ? file.slice(0, -".ics".length) : "";
    // The signature is an HMAC of the phone under the feed key, compared in constant time.
    if (!PHONE.test(phone) || !signature || !verify(key, phone, signature)) {
      res.status(404).json({ error: "not_found", requestId: req.id });
      return;
    }
    const timeZone = await users.timeZone(phone);
    if (timeZone === null) {
      res.status(404).json({ error: "not_found", requestId: req.id });
      return;
    }
    const body = renderIcsFeed(await events.listAll(phone), {
      now: (deps.clock ?? Date.now)(),
      timeZone,
    });
    // Never logged: the URL is the credential.
    deps.logger.debug({ event: "CALENDAR_FEED_SERVED", requestId: req.id }, "calendar feed served");
    res
      .status(200)
      .set({
        "content-type": "text/calendar; charset=utf-8",
        "content-disposition": 'inline; filename="memo.ics"',
        "cache-control": "private, max-age=300",
      })
      .send(body);
  });
  return router;
}
