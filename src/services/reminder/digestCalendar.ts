import {
  holidaysBetween,
  keepsHebrewCalendar,
  scheduleOf,
  type CalendarSchedule,
  type HolidayDay,
} from "../../nlu/hebrewCalendar.js";
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

/**
 * The minor and modern days worth a line; the rest of those kinds (Leil Selichot, Purim Katan,
 * Herzl Day …) are not. Rosh chodesh is never named.
 */
const NAMED_MINOR = new Set([
  "Purim",
  "Shushan Purim",
  "Tu BiShvat",
  "Lag BaOmer",
  "Tu B'Av",
  "Pesach Sheni",
  "Yom HaShoah",
  "Yom HaZikaron",
  "Yom HaAtzma'ut",
  "Yom Yerushalayim",
]);

/** Whether a named day gets the digest's line. */
function named(day: HolidayDay): boolean {
  switch (day.kind) {
    case "yom_tov":
    case "holiday":
    case "fast":
    case "erev":
      return true;
    case "minor":
    case "modern":
      return NAMED_MINOR.has(day.key);
    case "rosh_chodesh":
      return false;
  }
}

/** Days already looked up (a day and a schedule), for the digests of one morning. */
const cache = new Map<string, HolidayDay[]>();

function holidaysOn(date: LocalDate, schedule: CalendarSchedule, jerusalem: boolean): HolidayDay[] {
  const key = `${date.year}-${date.month}-${date.day}|${schedule}|${jerusalem}`;
  let days = cache.get(key);
  if (!days) {
    days = holidaysBetween(date, date, schedule, jerusalem).filter(named);
    if (cache.size > 64) cache.clear();
    cache.set(key, days);
  }
  return days;
}

/** Today's holidays and, with Shabbat quiet, today's candle lighting, for a digest at `digestAtMs`. */
export function digestCalendar(
  user: SabbathUser & { language: DigestContent["language"] },
  digestAtMs: number,
): Pick<DigestContent, "holidays" | "candles"> {
  const { year, month, day } = zonedParts(digestAtMs, user.timeZone);
  // Purim on 15 Adar for a user who named Jerusalem (an Israeli zone alone is not Jerusalem).
  const holidays = keepsHebrewCalendar(user)
    ? holidaysOn({ year, month, day }, scheduleOf(user), user.sabbathCity === "Jerusalem").map((h) =>
        user.language === "he" ? h.he : h.en,
      )
    : [];
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
