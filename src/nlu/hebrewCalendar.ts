/**
 * The Hebrew calendar, computed by `@hebcal/core` (issue 36): the Hebrew date of a day and the day
 * of a Hebrew date, and the holidays and fasts of a stretch of days on the user's schedule (Israel
 * or the diaspora: Pesach has 7 days in Israel, 8 abroad). Every date is a plain local date
 * (`LocalDate`): what day it is where the user is; hebcal's own `Date`s are read and made with
 * their local fields only, so the server's zone never matters.
 */
import { HDate, HebrewCalendar, Location, flags, gematriya, type Event } from "@hebcal/core";
import type { HebrewDateCustom } from "../types/recurrence.js";
import { t } from "../messages/index.js";
import { compareDates, type LocalDate } from "./zonedTime.js";

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

/** The schedule of a zone alone (no choice, no Shabbat city): Israel's in an Israeli zone. */
export function scheduleOfZone(timeZone: string): CalendarSchedule {
  return scheduleOf({ calendarSchedule: null, sabbathCity: null, timeZone });
}

/**
 * Whether the Hebrew calendar is plainly the user's, so the digest and the weekly review name its
 * holidays: they write in Hebrew, live in an Israeli zone, keep Shabbat quiet, or chose a holiday
 * schedule themselves. Others get no holiday lines.
 */
function keepsHebrewCalendar(user: {
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

/** A local date as a JS `Date` at local midnight (hebcal reads its local fields only). */
export const toJsDate = (date: LocalDate) => new Date(date.year, date.month - 1, date.day);
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

/** A Hebrew day and month without a year: "15 Shevat", "ט״ו בשבט"; month 12 is "Adar" unless `leap` (or its 30th: Adar I). */
export function hebrewDayMonthText(
  date: { month: number; day: number },
  language: "he" | "en",
  leap = false,
): string {
  // A leap year shows Adar I / Adar II by name; any common year shows month 12 as plain Adar.
  const year = date.month === 13 || (date.month === 12 && (leap || date.day === 30)) ? 5787 : 5786;
  const hd = new HDate(Math.min(date.day, 29), date.month, year);
  const month = hd.getMonthName();
  if (language === "en") return `${date.day} ${month}`;
  const he = new HDate(date.day > 29 ? 29 : date.day, date.month, year).renderGematriya(true).split(" ");
  // renderGematriya: "<day> <month…> <year>"; the day is written as said (30 has no gematriya of 29).
  const day = date.day > 29 ? "ל׳" : he[0];
  return `${day} ב${he.slice(1, -1).join(" ")}`;
}

/** The Hebrew date a day named by its Hebrew date falls on; `said`, when that year lacks the day said ("30 Cheshvan"). */
export interface HebrewDaySaid extends HebrewDate {
  said?: { month: number; day: number };
}

/** A Hebrew year: "5789", "תשפ״ט". */
export function hebrewYearText(year: number, language: "he" | "en"): string {
  return language === "he" ? gematriya(year) : String(year);
}

/** A Hebrew date as a reminder names it, without its year: "10 Tevet", "10 Adar I" in a leap year, "י׳ בטבת". */
export function hebrewDaySaidText(date: HebrewDate, language: "he" | "en"): string {
  return hebrewDayMonthText(date, language, HDate.isLeapYear(date.year));
}

/** What kind of day a calendar entry is (the digest and the weekly review name the first three). */
type HolidayKind = "yom_tov" | "holiday" | "fast" | "erev" | "minor" | "modern" | "rosh_chodesh";

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

/**
 * The minor and modern days worth naming to a user (the digest's line, the weekly review's section);
 * the rest of those kinds (Leil Selichot, Purim Katan, Herzl Day …) are not.
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
  "Yitzhak Rabin Memorial Day",
]);

/** Whether a day is named to the user: every yom tov, holiday, fast and erev; never rosh chodesh. */
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

/** Stretches already looked up (days and a schedule), for the digests and reviews of one morning. */
const namedCache = new Map<string, HolidayDay[]>();

/**
 * The days from `from` to `to` (both included) that the digest and the weekly review name to
 * `user`: none unless the Hebrew calendar is plainly theirs (keepsHebrewCalendar); on their
 * schedule, with Purim on 15 Adar for a user who named Jerusalem (an Israeli zone alone is not).
 */
export function userHolidays(
  user: Parameters<typeof keepsHebrewCalendar>[0] & Parameters<typeof scheduleOf>[0],
  from: LocalDate,
  to: LocalDate,
): HolidayDay[] {
  if (!keepsHebrewCalendar(user)) return [];
  const schedule = scheduleOf(user);
  const jerusalem = user.sabbathCity === "Jerusalem";
  const key = `${from.year}-${from.month}-${from.day}|${to.year}-${to.month}-${to.day}|${schedule}|${jerusalem}`;
  let days = namedCache.get(key);
  if (!days) {
    days = holidaysBetween(from, to, schedule, jerusalem).filter(named);
    if (namedCache.size > 64) namedCache.clear();
    namedCache.set(key, days);
  }
  return days;
}

/** A Hebrew date kept every year by a custom (the `hebrew` of a yearly Hebrew recurrence). */
export interface HebrewYearly {
  month: number;
  day: number;
  custom: HebrewDateCustom;
}

/** Whether a day and month can be a yearly Hebrew date: Adar (12) up to 30 (Adar I), Adar II 29, the rest as long as they can be. */
export function isHebrewDayMonth(month: number, day: number): boolean {
  if (!Number.isInteger(month) || !Number.isInteger(day) || month < 1 || month > 13 || day < 1) return false;
  const longest = [2, 4, 6, 10, 13].includes(month) ? 29 : 30;
  return day <= longest;
}

const originYears = new Map<string, number>();

/**
 * The past year a yearly date is counted from (hebcal's customs need one): plain Adar (12) is Adar
 * of a common year (Adar II in leap years), its 30th Adar I of a leap year, Adar II (13) a leap
 * year's; a 30th of Cheshvan or Kislev a year that has it followed by one that lacks it, the common
 * case the yahrzeit custom rules on (the day before the 1st of the next month).
 */
function originYear(month: number, day: number): number {
  const key = `${month}/${day}`;
  const known = originYears.get(key);
  if (known !== undefined) return known;
  let year = 5600;
  for (; year < 5700; year++) {
    const leap = HDate.isLeapYear(year);
    if (month === 13 && !leap) continue;
    if (month === 12 && leap !== (day === 30)) continue;
    if (day > HDate.daysInMonth(month, year)) continue;
    if (day === 30 && (month === 8 || month === 9) && HDate.daysInMonth(month, year + 1) === 30) continue;
    break;
  }
  originYears.set(key, year);
  return year;
}

/** The Gregorian day a yearly Hebrew date is kept on in Hebrew year `year`, by its custom. @internal */
export function observanceIn(year: number, date: HebrewYearly): LocalDate | null {
  if (!isHebrewDayMonth(date.month, date.day)) return null;
  const origin = new HDate(date.day, date.month, originYear(date.month, date.day));
  const kept =
    date.custom === "yahrzeit"
      ? HebrewCalendar.getYahrzeit(year, origin)
      : HebrewCalendar.getBirthdayOrAnniversary(year, origin);
  return kept ? fromJsDate(kept.greg()) : null;
}

/** The first day on or after `from` that a yearly Hebrew date is kept on (the evening before, with `eve`: that day). */
export function nextObservance(date: HebrewYearly, from: LocalDate, eve = false): LocalDate | null {
  const start = hebrewDateOf(from).year;
  for (let year = start - 1; year <= start + 2; year++) {
    const day = observanceIn(year, date);
    if (!day) continue;
    const kept = eve ? fromJsDate(new Date(day.year, day.month - 1, day.day - 1)) : day;
    if (compareDates(kept, from) >= 0) return kept;
  }
  return null;
}

/**
 * When a yearly Hebrew date falls elsewhere in some years, the other day it is kept on: Adar in a
 * leap year (Adar II, or Adar I for a yahrzeit), Adar II or the 30th of Adar I in a common year, a
 * 30th of Cheshvan or Kislev in a year that lacks it. Null when the date is the same every year.
 */
export function otherYearsDay(
  date: HebrewYearly,
): { when: "leap" | "common" | "short"; month: number; day: number } | null {
  const when: "leap" | "common" | "short" | null =
    date.month === 13 || (date.month === 12 && date.day === 30)
      ? "common"
      : date.month === 12
        ? "leap"
        : date.day === 30 && (date.month === 8 || date.month === 9)
          ? "short"
          : null;
  if (!when) return null;
  const fits = (year: number) =>
    when === "short"
      ? HDate.daysInMonth(date.month, year) === 29
      : HDate.isLeapYear(year) === (when === "leap");
  let year = 5786;
  while (!fits(year)) year++;
  const day = observanceIn(year, date);
  if (!day) return null;
  const kept = hebrewDateOf(day);
  // In a leap year, month 12 is Adar I: a plain Adar kept there is worth saying too.
  const same = kept.month === date.month && kept.day === date.day && !(when === "leap" && kept.month === 12);
  return same ? null : { when, month: kept.month, day: kept.day };
}

/** A Gregorian day as a reply names it: "Sat 2 Oct 2027", "יום שבת, 2 באוקטובר 2027". */
export function gregorianDayText(date: LocalDate, language: "he" | "en"): string {
  const at = Date.UTC(date.year, date.month - 1, date.day);
  if (language === "he") {
    const format = {
      timeZone: "UTC",
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
    } as const;
    return new Intl.DateTimeFormat("he-IL", format).format(at);
  }
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: "UTC",
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("weekday")} ${part("day")} ${part("month")} ${part("year")}`;
}
