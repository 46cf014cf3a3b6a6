/**
 * The user's week (D10): which days are working days and which are the weekend, from the user's
 * IANA zone. Sunday–Thursday and Friday–Saturday where the zone is Israel's, Monday–Friday and
 * Saturday–Sunday elsewhere. Days are numbered 0 = Sunday … 6 = Saturday (D6).
 */
import ct from "countries-and-timezones";
import { addDays, dayOfWeek, type LocalDate } from "./zonedTime.js";

/** A week's working days and weekend days, each in the order they come in that week. */
export interface UserWeek {
  /** The working days, first to last: [0, 1, 2, 3, 4] (Sun–Thu) or [1, 2, 3, 4, 5] (Mon–Fri). */
  workdays: number[];
  /** The weekend days, first to last: [5, 6] (Fri–Sat) or [6, 0] (Sat–Sun). */
  weekend: number[];
  /** The day a week starts on: the first working day (0 = Sunday in Israel, 1 = Monday elsewhere). */
  firstDay: number;
}

/** Countries whose working week is Sunday–Thursday with a Friday–Saturday weekend. */
const SUNDAY_WEEK_COUNTRIES = new Set(["IL"]);

const SUNDAY_WEEK: UserWeek = { workdays: [0, 1, 2, 3, 4], weekend: [5, 6], firstDay: 0 };
const MONDAY_WEEK: UserWeek = { workdays: [1, 2, 3, 4, 5], weekend: [6, 0], firstDay: 1 };

/**
 * The week of a user in `timeZone` (an IANA name; aliases such as Asia/Tel_Aviv count as their
 * zone). An unknown zone gets the Monday–Friday week. Returns fresh arrays the caller may keep.
 */
export function userWeek(timeZone: string): UserWeek {
  const countries = ct.getTimezone(timeZone)?.countries ?? [];
  const week = countries.some((country) => SUNDAY_WEEK_COUNTRIES.has(country)) ? SUNDAY_WEEK : MONDAY_WEEK;
  return { workdays: [...week.workdays], weekend: [...week.weekend], firstDay: week.firstDay };
}

/** The first day of the user's week (userWeek) that holds `date`. */
export function weekStartOf(date: LocalDate, timeZone: string): LocalDate {
  const back = (dayOfWeek(date) - userWeek(timeZone).firstDay + 7) % 7;
  return addDays(date, -back);
}
