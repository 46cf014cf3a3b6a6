/**
 * The Hebrew calendar, computed by `@hebcal/core` (issue 36): the Hebrew date of a day and the day
 * of a Hebrew date, and the holidays and fasts of a stretch of days on the user's schedule (Israel
 * or the diaspora: Pesach has 7 days in Israel, 8 abroad). Every date is a plain local date
 * (`LocalDate`): what day it is where the user is; hebcal's own `Date`s are read and made with
 * their local fields only, so the server's zone never matters.
 */
import { HDate, HebrewCalendar, Location, flags, type Event } from "@hebcal/core";
import { t } from "../messages/index.js";
import type { LocalDate } from "./zonedTime.js";

/** Which holiday schedule a user keeps: Israel's, or the diaspora's (second days of yom tov). */
export type CalendarSchedule = "israel" | "diaspora";

/** Zones whose users keep Israel's schedule unless they say otherwise. */
const ISRAEL_ZONES = new Set(["Asia/Jerusalem", "Asia/Tel_Aviv", "Israel"]);

/**
 * The schedule a user keeps: the one they chose, else their Shabbat city's (a city in Israel keeps
 * Israel's), else Israel's in an Israeli zone, else the diaspora's.
 */
export function scheduleOf(user: {
  calendarSchedule: CalendarSchedule | null;
  sabbathCity: string | null;
  timeZone: string;
}): CalendarSchedule {
  if (user.calendarSchedule) return user.calendarSchedule;
  const city = user.sabbathCity === null ? undefined : Location.lookup(user.sabbathCity);
  if (city) return city.getIsrael() ? "israel" : "diaspora";
  return ISRAEL_ZONES.has(user.timeZone) ? "israel" : "diaspora";
}

/**
 * Whether the Hebrew calendar is plainly the user's, so the digest and the weekly review name its
 * holidays: they write in Hebrew, live in an Israeli zone, keep Shabbat quiet, or chose a holiday
 * schedule themselves. Others get no holiday lines.
 */
export function keepsHebrewCalendar(user: {
  language: string | null;
  timeZone: string;
  sabbathQuiet: boolean;
  calendarSchedule: CalendarSchedule | null;
}): boolean {
  return (
    user.language === "he" ||
    ISRAEL_ZONES.has(user.timeZone) ||
    user.sabbathQuiet ||
    user.calendarSchedule !== null
  );
}

/** A Hebrew date; `month` is hebcal's numbering: Nisan 1 … Elul 6, Tishrei 7 … Adar (I) 12, Adar II 13. */
export interface HebrewDate {
  year: number;
  month: number;
  day: number;
}

const toJsDate = (date: LocalDate) => new Date(date.year, date.month - 1, date.day);
const fromJsDate = (date: Date): LocalDate => ({
  year: date.getFullYear(),
  month: date.getMonth() + 1,
  day: date.getDate(),
});

/** The Hebrew date of a (daytime) Gregorian day. */
export function hebrewDateOf(date: LocalDate): HebrewDate {
  const hd = new HDate(toJsDate(date));
  return { year: hd.getFullYear(), month: hd.getMonth(), day: hd.getDate() };
}

/** The Gregorian day of a Hebrew date that exists (hebcal moves a day past the month's end into the next). */
export function gregorianOf(date: HebrewDate): LocalDate {
  return fromJsDate(new HDate(date.day, date.month, date.year).greg());
}

/** "18 Kislev 5787" / "י״ח כסלו תשפ״ז". */
export function hebrewDateText(date: HebrewDate, language: "he" | "en"): string {
  const hd = new HDate(date.day, date.month, date.year);
  return language === "he"
    ? hd.renderGematriya(true)
    : `${hd.getDate()} ${hd.getMonthName()} ${hd.getFullYear()}`;
}

/** A Hebrew day and month without a year: "15 Shevat", "ט״ו בשבט"; month 12 is "Adar" unless `leap`. */
export function hebrewDayMonthText(date: { month: number; day: number }, language: "he" | "en"): string {
  // A leap year shows Adar I / Adar II by name; any common year shows month 12 as plain Adar.
  const year = date.month === 13 ? 5787 : 5786;
  const hd = new HDate(Math.min(date.day, 29), date.month, year);
  const month = hd.getMonthName();
  if (language === "en") return `${date.day} ${month}`;
  const he = new HDate(date.day > 29 ? 29 : date.day, date.month, year).renderGematriya(true).split(" ");
  // renderGematriya: "<day> <month…> <year>"; the day is written as said (30 has no gematriya of 29).
  const day = date.day > 29 ? "ל׳" : he[0];
  return `${day} ב${he.slice(1, -1).join(" ")}`;
}

/** What kind of day a calendar entry is (the digest and the weekly review name the first three). */
export type HolidayKind = "yom_tov" | "holiday" | "fast" | "erev" | "minor" | "modern" | "rosh_chodesh";

/** One holiday, fast or other named day of the Hebrew calendar, on one Gregorian day. */
export interface HolidayDay {
  date: LocalDate;
  /** hebcal's own name, stable across languages ("Pesach I", "Erev Yom Kippur"): the key of the entry. */
  key: string;
  en: string;
  he: string;
  kind: HolidayKind;
}

function kindOf(event: Event): HolidayKind | null {
  const mask = event.getFlags();
  // Chanukah's first candle is lit on the evening of 24 Kislev: that day is its erev.
  if (mask & flags.CHANUKAH_CANDLES && chanukahCandles(event) === 1) return "erev";
  if (event.getDesc() === CHANUKAH_LAST) return "holiday";
  if (
    mask &
    (flags.SPECIAL_SHABBAT | flags.PARSHA_HASHAVUA | flags.DAF_YOMI | flags.OMER_COUNT | flags.MOLAD)
  )
    return null;
  if (mask & (flags.MAJOR_FAST | flags.MINOR_FAST)) return "fast";
  if (mask & flags.CHAG) return "yom_tov";
  // Chanukah's candles (the first is also an erev) and chol hamoed are holiday days, not rest days.
  if (mask & (flags.CHANUKAH_CANDLES | flags.CHOL_HAMOED)) return "holiday";
  if (mask & flags.EREV) return "erev";
  if (mask & flags.ROSH_CHODESH) return "rosh_chodesh";
  if (mask & flags.MODERN_HOLIDAY) return "modern";
  // Purim, Lag BaOmer, Tu BiShvat and the like.
  return "minor";
}

const CHANUKAH_LAST = "Chanukah: 8th Day";
/** The candles an entry of Chanukah lights on its evening ("Chanukah: 3 Candles" → 3), else 0. */
const chanukahCandles = (event: Event) => Number(/^Chanukah: (\d) Candles?$/.exec(event.getDesc())?.[1] ?? 0);

/**
 * A day's name as a reader wants it: no year ("Rosh Hashana 5786", "ראש השנה 5786" → "Rosh
 * Hashana", "ראש השנה"), chol hamoed said in words ("Sukkot II (CH’’M)" → "Sukkot (chol
 * hamoed)", "סוכות (חול המועד)"), Yom Kippur by its Hebrew name (יום הכיפורים), and Chanukah by
 * its day, not by the candles of its evening ("Erev Chanukah (the first candle tonight)",
 * "Chanukah (3 candles tonight)", "Chanukah (its last day)").
 */
function nameOf(event: Event, language: "he" | "en"): string {
  const text = event.render(language === "he" ? "he-x-NoNikud" : "en");
  const candles = chanukahCandles(event);
  if (candles === 1) return t(language, "calendar.erevChanukah");
  if (candles > 1)
    return t(language, "calendar.chanukah", { candles: text.replace(/^[^:]*:\s*/, "").toLowerCase() });
  if (event.getDesc() === CHANUKAH_LAST) return t(language, "calendar.chanukahLast");
  if (event.getFlags() & flags.CHOL_HAMOED) {
    const name = text.replace(/\s*\(.*\)$/, "").replace(/\s+(?:[IVX]+|[א-ת]{1,2}[׳״'"]?)$/u, "");
    return t(language, "calendar.cholHamoed", { name });
  }
  return text.replace(/\s+\d{4}$/, "").replace(/יום כיפור$/, "יום הכיפורים");
}

/**
 * The named days from `from` to `to` (both included) on a schedule, in date order. `jerusalem`:
 * the user keeps Purim on 15 Adar (Shushan Purim), so Purim and its erev are not theirs.
 */
export function holidaysBetween(
  from: LocalDate,
  to: LocalDate,
  schedule: CalendarSchedule,
  jerusalem = false,
): HolidayDay[] {
  const events = HebrewCalendar.calendar({
    start: toJsDate(from),
    end: toJsDate(to),
    il: schedule === "israel",
    noMinorFast: false,
    noModern: false,
    noRoshChodesh: false,
    noSpecialShabbat: true,
  });
  const days: HolidayDay[] = [];
  for (const event of events) {
    const kind = kindOf(event);
    if (!kind) continue;
    if (jerusalem && (event.getDesc() === "Purim" || event.getDesc() === "Erev Purim")) continue;
    days.push({
      date: fromJsDate(event.getDate().greg()),
      key: event.getDesc(),
      en: nameOf(event, "en"),
      he: nameOf(event, "he"),
      kind,
    });
  }
  return days;
}
