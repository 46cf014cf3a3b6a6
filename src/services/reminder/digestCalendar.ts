import { userHolidays } from "../../nlu/hebrewCalendar.js";
import type { LocalDate } from "../../nlu/zonedTime.js";
import { cityName } from "../../nlu/restWindows.js";
import type { DigestContent } from "../../types/proactive.js";
import { zonedParts } from "../../utils/timeContext.js";
import { nextRestWindow, restCityOf, type SabbathUser } from "./sabbathQuiet.js";

/**
 * The Hebrew calendar's part of the morning digest (issue 36): today's holiday or fast, on their
 * schedule, for users whose calendar it plainly is (keepsHebrewCalendar), and, for users with
 * Shabbat quiet, the candle lighting of a window that begins today (Friday, erev yom tov).
 */

/** Today's holidays and, with Shabbat quiet, today's candle lighting, for a digest at `digestAtMs`. */
export function digestCalendar(
  user: SabbathUser & { language: DigestContent["language"] },
  digestAtMs: number,
): Pick<DigestContent, "holidays" | "candles"> {
  const { year, month, day } = zonedParts(digestAtMs, user.timeZone);
  const today: LocalDate = { year, month, day };
  const holidays = userHolidays(user, today, today).map((h) => (user.language === "he" ? h.he : h.en));
  const city = user.sabbathQuiet ? restCityOf(user) : null;
  const window = city ? nextRestWindow(user, city, digestAtMs) : null;
  // The user's today is the city's erev: its date where the user is, its candle lighting's date there.
  const erev = window ? zonedParts(window.start, window.timeZone) : null;
  const candles =
    city &&
    window &&
    erev &&
    window.start > digestAtMs &&
    erev.year === year &&
    erev.month === month &&
    erev.day === day
      ? {
          city: cityName(city, user.language),
          lightingAt: new Date(window.start).toISOString(),
          havdalahAt: new Date(window.end).toISOString(),
          timeZone: window.timeZone,
        }
      : undefined;
  return { ...(holidays.length > 0 ? { holidays } : {}), ...(candles ? { candles } : {}) };
}
