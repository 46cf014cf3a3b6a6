import type { CalendarSchedule } from "../../nlu/hebrewCalendar.js";
import { scheduleOf } from "../../nlu/hebrewCalendar.js";
import { cityOfZone, restWindows, type RestWindow } from "../../nlu/restWindows.js";

/**
 * Shabbat and holiday quiet (issue 36, docs/SCHEDULER.md): a user with the setting gets no
 * proactive message from candle lighting to havdalah, on Shabbat and on the yom tov days of their
 * schedule, in their city (the one they named, else their zone's). Replies are never held: only
 * the scheduler asks. Windows are computed once per city, schedule and week, in memory.
 */

/** What the hold needs of a user. */
export interface SabbathUser {
  sabbathQuiet: boolean;
  sabbathCity: string | null;
  calendarSchedule: CalendarSchedule | null;
  timeZone: string;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** Weeks of windows kept per process (a city and schedule each); the oldest go first. */
const CACHE_LIMIT = 2_000;
const cache = new Map<string, RestWindow[]>();

/** The windows of the week of `atMs` (whole, also one that began the week before). */
function windowsOfWeek(city: string, schedule: CalendarSchedule, atMs: number): RestWindow[] {
  const week = Math.floor(atMs / WEEK_MS);
  const key = `${city}|${schedule}|${week}`;
  let windows = cache.get(key);
  if (!windows) {
    try {
      windows = restWindows(week * WEEK_MS, (week + 1) * WEEK_MS, city, schedule);
    } catch {
      // A calendar that cannot be computed holds nothing: reminders ring rather than never.
      windows = [];
    }
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, windows);
  }
  return windows;
}

/** The city whose times the user keeps: the one they named, else their zone's (null: none known). */
export function restCityOf(user: Pick<SabbathUser, "sabbathCity" | "timeZone">): string | null {
  return user.sabbathCity ?? cityOfZone(user.timeZone);
}

/**
 * The rest window holding `atMs` for this user, or null: none, or the user has no Shabbat quiet
 * (then nothing is computed at all).
 */
export function isHeld(user: SabbathUser, atMs: number): RestWindow | null {
  if (!user.sabbathQuiet) return null;
  const city = restCityOf(user);
  if (!city) return null;
  return windowsOfWeek(city, scheduleOf(user), atMs).find((w) => w.start <= atMs && atMs < w.end) ?? null;
}

/** The window holding `atMs`, else the next one to begin, in `city` on the user's schedule. */
export function nextRestWindow(
  user: Pick<SabbathUser, "calendarSchedule" | "sabbathCity" | "timeZone">,
  city: string,
  atMs: number,
): RestWindow | null {
  const schedule = scheduleOf(user);
  for (let week = 0; week < 3; week++) {
    const found = windowsOfWeek(city, schedule, atMs + week * WEEK_MS).find((w) => w.end > atMs);
    if (found) return found;
  }
  return null;
}
