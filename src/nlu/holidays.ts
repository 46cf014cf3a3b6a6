/**
 * Holidays named as times, in both calendars (issue 36): "on Pesach", "בפסח", "ערב ראש השנה", "the
 * first night of Hanukkah", "on Christmas at 6 pm", "Thanksgiving", "Mother's Day". One table
 * (HOLIDAYS) holds every name Memo reads: the parser takes them as dates (the next one on or after
 * today, on the user's schedule), and the unread-word scanner knows them from the same table, so a
 * holiday said as a time is never left in a title. Where the name stands decides (positionOf, the
 * same test for both): "buy matzah for Pesach" and "buy a Christmas tree tomorrow" keep it as
 * content. The dates are computed in code (D6): Hebrew holidays by `@hebcal/core`
 * (hebrewCalendar.ts), Gregorian ones by their rule.
 */
import {
  holidaysBetween,
  nextObservance,
  scheduleOf,
  type CalendarSchedule,
  type HebrewYearly,
} from "./hebrewCalendar.js";
import {
  EVERY_BEFORE,
  LOOSE_BEFORE,
  QUALIFIER_AFTER,
  QUALIFIER_BEFORE,
  looseAfter,
  qualifiedDay,
  qualifierOf,
} from "./holidayQualifiers.js";
import type { RuleParts } from "./recurrenceRule.js";
import type { Found, Scanner, Span } from "./timeMentions.js";
import {
  DAY_WORDS,
  EN_HOUR_WORDS,
  EN_MONTHS,
  EN_WEEKDAYS,
  HE_HOURS,
  HE_MONTHS,
  HE_WEEKDAYS,
  type Period,
} from "./timeWords.js";
import { addDays, compareDates, dayOfWeek, type LocalDate } from "./zonedTime.js";

/**
 * How a day named by its holiday or Hebrew date repeats "every year": on a Hebrew date (by a
 * custom), by an RFC 5545 rule (Thanksgiving: the 4th Thursday of November), or not exactly at all
 * (a day that moves by other rules, such as Tisha B'Av postponed from Shabbat): asked.
 */
export type YearlyDay =
  | { kind: "hebrew"; hebrew: HebrewYearly; eve?: boolean }
  | { kind: "rule"; parts: RuleParts }
  | { kind: "unsupported" };

/** A country whose civil holidays Memo keeps (Mother's Day and Thanksgiving differ between them). */
type Country = "US" | "CA" | "IL" | "GB";

/** What the parser knows of the user for calendar words (default: the schedule of the zone). */
export interface CalendarOptions {
  /** Israel's or the diaspora's holiday schedule (Simchat Torah, second days). */
  schedule?: CalendarSchedule;
  /** The user's Hebrew birthday, when known: "on my Hebrew birthday". */
  hebrewBirthday?: { month: number; day: number } | null;
  /**
   * The custom the user's whole message names ("yahrzeit", "יום הולדת עברי"), for time words a
   * model handed over without it ("every year on 7 Adar"): a Hebrew date there is yearly by it
   * (default: the time words' own).
   */
  custom?: HebrewYearly["custom"] | null;
}

/** A user's calendar settings as the parser takes them: their schedule (or their zone's) and Hebrew birthday. */
export function calendarOptionsOf(user: {
  calendarSchedule: CalendarSchedule | null;
  sabbathCity: string | null;
  timeZone: string;
  hebrewBirthday: { month: number; day: number } | null;
}): CalendarOptions {
  return { schedule: scheduleOf(user), hebrewBirthday: user.hebrewBirthday };
}

/** Where a holiday falls: the next day it is on, on or after `today`, and how it repeats. */
interface HolidayDate {
  date: LocalDate;
  yearly?: YearlyDay;
}

export interface Holiday {
  /** Stable id, also the key of the fast-path answer's name. */
  id: string;
  /** Names in English (regex sources over lowercased text, apostrophes as '). */
  en: string[];
  /** Names in Hebrew (regex sources; a prefix letter "ב", "ל", "ה", "ו", "מ" may come before). */
  he: string[];
  /** The display names. */
  name: { en: string; he: string };
  /** Whether it begins at sundown the evening before (a Hebrew holiday). */
  hebrewDay: boolean;
  /**
   * A holiday Memo knows by name but does not compute (Ramadan, Diwali): said as a time it is
   * asked, never today; calendar questions about it are left to the planner.
   */
  askOnly?: boolean;
  /**
   * How many days it lasts on the schedule (default: 1), for "after", "the last day of", "במוצאי";
   * null when its end cannot be told (Sukkot: with Shemini Atzeret or without?), and those are asked.
   */
  length?: (schedule: CalendarSchedule) => number | null;
  /** The next date on or after `today`; "unknown" when it depends on a country the zone does not tell. */
  next: (
    today: LocalDate,
    schedule: CalendarSchedule,
    country: Country | null,
  ) => HolidayDate | "unknown" | null;
}

/** A fixed Hebrew date, kept every year as a plain date (Adar: Adar II in a leap year). */
const hebrew =
  (month: number, day: number) =>
  (today: LocalDate): HolidayDate | null => {
    const yearly: HebrewYearly = { month, day, custom: "date" };
    const date = nextObservance(yearly, today);
    return date ? { date, yearly: { kind: "hebrew", hebrew: yearly } } : null;
  };

/** A holiday found by hebcal's own name, for days that move (Tisha B'Av after Shabbat, Yom HaAtzmaut). */
const hebcalDay =
  (key: RegExp) =>
  (today: LocalDate, schedule: CalendarSchedule): HolidayDate | null => {
    const day = holidaysBetween(today, addDays(today, 400), schedule).find((h) => key.test(h.key));
    return day ? { date: day.date, yearly: { kind: "unsupported" } } : null;
  };

/** A fixed Gregorian month and day: the existing yearly rule reads it as it is. */
const gregorian =
  (month: number, day: number) =>
  (today: LocalDate): HolidayDate => {
    const thisYear = { year: today.year, month, day };
    return { date: compareDates(thisYear, today) >= 0 ? thisYear : { ...thisYear, year: today.year + 1 } };
  };

/** The `nth` `weekday` (0 = Sunday) of a month, as a yearly rule too. */
const nthWeekday =
  (month: number, weekday: number, nth: number) =>
  (today: LocalDate): HolidayDate => {
    const inYear = (year: number): LocalDate => {
      const first = dayOfWeek({ year, month, day: 1 });
      return { year, month, day: 1 + ((weekday - first + 7) % 7) + (nth - 1) * 7 };
    };
    const thisYear = inYear(today.year);
    return {
      date: compareDates(thisYear, today) >= 0 ? thisYear : inYear(today.year + 1),
      yearly: {
        kind: "rule",
        parts: { freq: "YEARLY", interval: 1, byMonth: [month], byDay: [{ day: weekday, nth }] },
      },
    };
  };

/** Western Easter Sunday of a year (the anonymous Gregorian computus). */
function easter(year: number): LocalDate {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { year, month, day };
}

/** Mothering Sunday (UK): three weeks before Easter; it moves with Easter, so "every year" is asked. */
function motheringSunday(today: LocalDate): HolidayDate {
  const thisYear = addDays(easter(today.year), -21);
  const date = compareDates(thisYear, today) >= 0 ? thisYear : addDays(easter(today.year + 1), -21);
  return { date, yearly: { kind: "unsupported" } };
}

/** Mother's Day as the user's country keeps it; unknown elsewhere (asked, never guessed). */
function mothersDay(
  today: LocalDate,
  _schedule: CalendarSchedule,
  country: Country | null,
): HolidayDate | "unknown" | null {
  if (country === "US" || country === "CA") return nthWeekday(5, 0, 2)(today);
  if (country === "IL") return hebrew(11, 30)(today);
  if (country === "GB") return motheringSunday(today);
  return "unknown";
}

/** Thanksgiving as the user's country keeps it: the US 4th Thursday of November, Canada's 2nd Monday of October; asked elsewhere. */
function thanksgiving(
  today: LocalDate,
  _schedule: CalendarSchedule,
  country: Country | null,
): HolidayDate | "unknown" {
  if (country === "US") return nthWeekday(11, 4, 4)(today);
  if (country === "CA") return nthWeekday(10, 1, 2)(today);
  return "unknown";
}

/** A day kept differently by country: the user's country's, from the zone; unknown elsewhere (asked, never guessed). */
const byCountry =
  (days: Partial<Record<Country, Holiday["next"]>>): Holiday["next"] =>
  (today, schedule, country) => {
    const next = country ? days[country] : undefined;
    return next ? next(today, schedule, country) : "unknown";
  };

/** The last `weekday` (0 = Sunday) of a month, as a yearly rule too (US Memorial Day: the last Monday of May). */
const lastWeekday =
  (month: number, weekday: number) =>
  (today: LocalDate): HolidayDate => {
    const inYear = (year: number): LocalDate => {
      const last = addDays(
        month === 12 ? { year: year + 1, month: 1, day: 1 } : { year, month: month + 1, day: 1 },
        -1,
      );
      return addDays(last, -((dayOfWeek(last) - weekday + 7) % 7));
    };
    const thisYear = inYear(today.year);
    return {
      date: compareDates(thisYear, today) >= 0 ? thisYear : inYear(today.year + 1),
      yearly: {
        kind: "rule",
        parts: { freq: "YEARLY", interval: 1, byMonth: [month], byDay: [{ day: weekday, nth: -1 }] },
      },
    };
  };

/** A day `offset` days from Western Easter (Good Friday: -2); it moves, so "every year" is asked. */
const fromEaster =
  (offset: number) =>
  (today: LocalDate): HolidayDate => {
    const thisYear = addDays(easter(today.year), offset);
    const date = compareDates(thisYear, today) >= 0 ? thisYear : addDays(easter(today.year + 1), offset);
    return { date, yearly: { kind: "unsupported" } };
  };

/** A holiday Memo does not compute (`askOnly`): its day is never told. */
const notComputed = (): "unknown" => "unknown";

/**
 * The months Rosh Chodesh is said with, by hebcal's name of the month (a regex source: plain Adar
 * is Adar I while it is ahead in a leap year, then Adar II, as a Hebrew date is); Tishrei's is Rosh
 * Hashana.
 */
const ROSH_CHODESH_MONTHS: { key: string; en: string; he: string; name: { en: string; he: string } }[] = [
  {
    key: "Cheshvan",
    en: "(?:mar)?cheshvan|heshvan",
    he: "(?:מר)?חשוו?ן",
    name: { en: "Cheshvan", he: "חשוון" },
  },
  { key: "Kislev", en: "kislev", he: "כסלי?ו", name: { en: "Kislev", he: "כסלו" } },
  { key: "Tevet", en: "tevet|teves", he: "טבת", name: { en: "Tevet", he: "טבת" } },
  { key: "Sh'vat", en: "shevat|shvat|sh'vat", he: "שבט", name: { en: "Shevat", he: "שבט" } },
  {
    key: "Adar II",
    en: "adar\\s+(?:ii|2|bet|beis|sheni)",
    // Not "אדר ב-10": "ב" before a clock is "at".
    he: "אדר\\s+(?:ב'|ב(?![\\p{L}\\p{N}-])|שני)",
    name: { en: "Adar II", he: "אדר ב׳" },
  },
  {
    key: "Adar I",
    en: "adar\\s+(?:i|1|aleph|alef|rishon)",
    he: "אדר\\s+(?:א'|א(?![\\p{L}\\p{N}-])|ראשון)",
    name: { en: "Adar I", he: "אדר א׳" },
  },
  { key: "Adar(?: I| II)?", en: "adar", he: "אדר", name: { en: "Adar", he: "אדר" } },
  { key: "Nisan", en: "nisan|nissan", he: "ניסן", name: { en: "Nisan", he: "ניסן" } },
  { key: "Iyyar", en: "iyy?ar", he: "אי?יר", name: { en: "Iyar", he: "אייר" } },
  { key: "Sivan", en: "sivan", he: "סיו?ון", name: { en: "Sivan", he: "סיוון" } },
  { key: "Tamuz", en: "tamm?uz", he: "תמוז", name: { en: "Tammuz", he: "תמוז" } },
  { key: "Av", en: "(?:menachem\\s+)?av", he: "(?:מנחם\\s+)?אב", name: { en: "Av", he: "אב" } },
  { key: "Elul", en: "elul", he: "אלול", name: { en: "Elul", he: "אלול" } },
];

/** "Rosh Chodesh Nisan": the first day of that month's next Rosh Chodesh, as hebcal keeps it. */
function roshChodeshOf(month: (typeof ROSH_CHODESH_MONTHS)[number]): Holiday {
  return {
    id: `rosh_chodesh_${month.name.en.toLowerCase().replace(/\s+/gu, "_")}`,
    en: [`rosh\\s+ch?odesh\\s+(?:${month.en})`],
    he: [`ראש\\s+חודש\\s+(?:${month.he})`],
    name: { en: `Rosh Chodesh ${month.name.en}`, he: `ראש חודש ${month.name.he}` },
    hebrewDay: true,
    length: () => null,
    next: hebcalDay(new RegExp(`^Rosh Chodesh ${month.key}$`, "u")),
  };
}

/** Every holiday Memo reads by name. Longer names of one holiday come first. */
const HOLIDAYS: Holiday[] = [
  {
    id: "rosh_hashana",
    en: ["rosh\\s+hashanah?", "rosh\\s+ha-?shona"],
    he: ["ראש\\s+השנה(?!\\s+(?:האזרחית|הסיני|הסינית))"],
    name: { en: "Rosh Hashana", he: "ראש השנה" },
    hebrewDay: true,
    length: () => 2,
    next: hebrew(7, 1),
  },
  {
    id: "yom_kippur",
    en: ["yom\\s+kippur", "yom\\s+kipur"],
    he: ["יום\\s+הכיפורים", "יום\\s+כיפור", "יום\\s+כפור", "כיפור"],
    name: { en: "Yom Kippur", he: "יום כיפור" },
    hebrewDay: true,
    next: hebrew(7, 10),
  },
  {
    id: "sukkot",
    en: ["sukkot", "succot", "sukkos", "succos", "sukot"],
    he: ["חג\\s+הסוכות", "סוכות"],
    name: { en: "Sukkot", he: "סוכות" },
    hebrewDay: true,
    length: () => null,
    next: hebrew(7, 15),
  },
  {
    id: "simchat_torah",
    en: ["simchat\\s+torah", "simhat\\s+torah", "simchas\\s+torah"],
    he: ["שמחת\\s+תורה"],
    name: { en: "Simchat Torah", he: "שמחת תורה" },
    hebrewDay: true,
    next: (today, schedule) => hebrew(7, schedule === "israel" ? 22 : 23)(today),
  },
  {
    id: "hanukkah",
    en: ["chanukkah", "hanukkah", "chanukah", "hanukah", "chanuka", "hanuka"],
    he: ["חנוכה"],
    name: { en: "Hanukkah", he: "חנוכה" },
    hebrewDay: true,
    length: () => 8,
    next: hebrew(9, 25),
  },
  {
    id: "tu_bishvat",
    en: ["tu\\s+bi-?shvat", "tu\\s+bi-?shevat", "tu\\s+b'\\s?shvat", "tu\\s+b'\\s?shevat"],
    he: ['ט"ו\\s+בשבט', "טו\\s+בשבט"],
    name: { en: "Tu BiShvat", he: "ט״ו בשבט" },
    hebrewDay: true,
    next: hebrew(11, 15),
  },
  {
    id: "purim",
    en: ["purim"],
    he: ["פורים"],
    name: { en: "Purim", he: "פורים" },
    hebrewDay: true,
    next: hebrew(12, 14),
  },
  {
    id: "shushan_purim",
    en: ["shushan\\s+purim"],
    he: ["שושן\\s+פורים"],
    name: { en: "Shushan Purim", he: "שושן פורים" },
    hebrewDay: true,
    next: hebrew(12, 15),
  },
  {
    id: "pesach",
    en: ["passover", "pesach", "pesah"],
    he: ["חג\\s+הפסח", "פסח"],
    name: { en: "Pesach", he: "פסח" },
    hebrewDay: true,
    length: (schedule) => (schedule === "israel" ? 7 : 8),
    next: hebrew(1, 15),
  },
  {
    id: "lag_baomer",
    en: ["lag\\s+ba-?omer", "lag\\s+b'\\s?omer", "lag\\s+ba'omer"],
    he: ['ל"ג\\s+בעומר', "לג\\s+בעומר"],
    name: { en: "Lag BaOmer", he: "ל״ג בעומר" },
    hebrewDay: true,
    next: hebrew(2, 18),
  },
  {
    id: "shavuot",
    en: ["shavuot", "shavuos", "shavuoth"],
    // "שבועות" is also "weeks": not after a number ("שלושה שבועות").
    he: [
      "חג\\s+השבועות",
      "(?<!(?:\\d|שני|שלושה|שלוש|ארבעה|חמישה|שישה|שבעה|שמונה|תשעה|עשרה|כמה|מספר|שלושת|ארבעת|חמשת|ששת|שבעת|שמונת|תשעת|עשרת|הרבה|המון)\\s*-?\\s*)שבועות(?!\\s+(?:הבאים|האחרונים|אחרי|לפני|מ))",
    ],
    name: { en: "Shavuot", he: "שבועות" },
    hebrewDay: true,
    length: (schedule) => (schedule === "israel" ? 1 : 2),
    next: hebrew(3, 6),
  },
  {
    id: "tisha_bav",
    en: ["tisha\\s+b'\\s?av", "tish'?a\\s+b'\\s?av", "tishah\\s+b'\\s?av", "tisha\\s+bav"],
    he: ["תשעה\\s+באב", "ט'\\s+באב"],
    name: { en: "Tisha B'Av", he: "תשעה באב" },
    hebrewDay: true,
    // Postponed from Shabbat, hebcal names it "Tish'a B'Av (observed)" (5789: Sunday 22 July 2029).
    next: hebcalDay(/^Tish'a B'Av(?: \(observed\))?$/u),
  },
  {
    id: "tu_bav",
    en: ["tu\\s+b'?\\s?av", "tu\\s+be-?av"],
    he: ['ט"ו\\s+באב', "טו\\s+באב"],
    name: { en: "Tu B'Av", he: "ט״ו באב" },
    hebrewDay: true,
    next: hebrew(5, 15),
  },
  ...ROSH_CHODESH_MONTHS.map(roshChodeshOf),
  {
    id: "rosh_chodesh",
    en: ["rosh\\s+ch?odesh"],
    // In Hebrew "ראש חודש" alone is as often the 1st of the civil month (rent, salary): asked below.
    he: [],
    name: { en: "Rosh Chodesh", he: "ראש חודש" },
    hebrewDay: true,
    // One day or two: the first of them; its end is not one length, so "after" is asked.
    length: () => null,
    next: hebcalDay(/^Rosh Chodesh /u),
  },
  {
    id: "yom_hashoah",
    en: ["yom\\s+ha-?shoah"],
    he: ["יום\\s+השואה(?:\\s+והגבורה)?", "יום\\s+הזי?כרון\\s+לשואה(?:\\s+ולגבורה)?"],
    name: { en: "Yom HaShoah", he: "יום השואה" },
    hebrewDay: true,
    next: hebcalDay(/^Yom HaShoah$/u),
  },
  {
    id: "yom_hazikaron",
    en: ["yom\\s+ha-?zikaron", "israel(?:'s)?\\s+memorial\\s+day"],
    // Not a person's memorial day: "יום הזיכרון של סבא".
    he: ["יום\\s+הזי?כרון(?!\\s+(?:לשואה|של)(?![\\p{L}]))"],
    name: { en: "Yom HaZikaron", he: "יום הזיכרון" },
    hebrewDay: true,
    next: hebcalDay(/^Yom HaZikaron$/u),
  },
  {
    id: "us_independence_day",
    // "the fourth of July", "July 4th" are dates the grammar reads.
    en: ["(?:us|american|america'?s)\\s+independence\\s+day"],
    he: ['יום\\s+העצמאות\\s+(?:האמריקאי|האמריקני|של\\s+ארה"ב|של\\s+אמריקה)'],
    name: { en: "Independence Day (US)", he: "יום העצמאות האמריקאי" },
    hebrewDay: false,
    next: gregorian(7, 4),
  },
  {
    id: "yom_haatzmaut",
    en: ["yom\\s+ha-?'?atzma'?ut", "israel(?:'s)?\\s+independence\\s+day"],
    he: ["יום\\s+העצמאות"],
    name: { en: "Yom HaAtzmaut", he: "יום העצמאות" },
    hebrewDay: false,
    next: hebcalDay(/^Yom HaAtzma'ut$/u),
  },
  {
    id: "independence_day",
    // Said bare, the country's own: Yom HaAtzmaut in Israel, the Fourth of July in the US.
    en: ["independence\\s+day"],
    he: [],
    name: { en: "Independence Day", he: "יום העצמאות" },
    hebrewDay: false,
    next: byCountry({ US: gregorian(7, 4), IL: hebcalDay(/^Yom HaAtzma'ut$/u) }),
  },
  {
    id: "yom_yerushalayim",
    en: ["yom\\s+yerushalayim", "jerusalem\\s+day"],
    he: ["יום\\s+ירושלים"],
    name: { en: "Yom Yerushalayim", he: "יום ירושלים" },
    hebrewDay: false,
    next: hebcalDay(/^Yom Yerushalayim$/u),
  },
  // Known by name, not computed (askOnly): said as a time, asked. Before Christmas and Easter, whose
  // Hebrew names begin theirs.
  {
    id: "ask_only",
    en: [
      "ramadh?an",
      "eid(?:\\s+(?:al|ul|el)[-\\s]?(?:fitr|adha|kabir|saghir))?",
      "diwali",
      "deepavali",
      "holi",
      "navratri",
      "nowruz",
      "vesak",
      "(?:lunar|chinese)\\s+new\\s+year(?:'?s)?(?:\\s+(?:day|eve))?",
      "orthodox\\s+(?:easter|christmas)",
    ],
    he: [
      "רמדא?ן",
      "עיד(?:\\s+אל[-\\s]?(?:פיטר|פטר|אדחא|אדחה))?",
      "חג\\s+הקורבן",
      "דיוואלי",
      "ראש\\s+השנה\\s+הסיני(?:ת)?",
      "(?:חג\\s+)?(?:ה)?פסחא\\s+(?:ה)?אורתודוקס(?:י|ית)",
      "חג\\s+המולד\\s+(?:ה)?אורתודוקס(?:י|ית)",
      // Valentine's Day or Tu B'Av: which one is not told.
      "(?:חג|יום)\\s+האהבה",
      // Rosh Chodesh or the 1st of the civil month ("שכר דירה בראש חודש"): which one is not told.
      "ראש\\s+(?:ה)?חודש",
    ],
    name: { en: "this holiday", he: "החג הזה" },
    hebrewDay: false,
    askOnly: true,
    next: notComputed,
  },
  {
    id: "christmas_eve",
    en: ["christmas\\s+eve", "xmas\\s+eve", "x-mas\\s+eve"],
    he: ["ערב\\s+חג\\s+המולד", "ערב\\s+כריסמס"],
    name: { en: "Christmas Eve", he: "ערב חג המולד" },
    hebrewDay: false,
    next: gregorian(12, 24),
  },
  {
    id: "christmas",
    en: ["christmas(?:\\s+day)?", "xmas", "x-mas"],
    he: ["חג\\s+המולד", "כריסמס"],
    name: { en: "Christmas", he: "חג המולד" },
    hebrewDay: false,
    next: gregorian(12, 25),
  },
  {
    id: "boxing_day",
    en: ["boxing\\s+day"],
    he: ["בוקסינג\\s+דיי"],
    name: { en: "Boxing Day", he: "בוקסינג דיי" },
    hebrewDay: false,
    next: gregorian(12, 26),
  },
  {
    id: "easter_monday",
    en: ["easter\\s+monday"],
    he: ["שני\\s+של\\s+פסחא"],
    name: { en: "Easter Monday", he: "יום שני של פסחא" },
    hebrewDay: false,
    next: fromEaster(1),
  },
  {
    id: "easter",
    en: ["easter(?:\\s+sunday)?"],
    he: ["חג\\s+הפסחא", "פסחא"],
    name: { en: "Easter", he: "פסחא" },
    hebrewDay: false,
    next: fromEaster(0),
  },
  {
    id: "good_friday",
    en: ["good\\s+friday"],
    he: ["יום\\s+שישי\\s+הטוב"],
    name: { en: "Good Friday", he: "יום שישי הטוב" },
    hebrewDay: false,
    next: fromEaster(-2),
  },
  {
    id: "halloween",
    en: ["hallowe'?en"],
    he: ["האלווין", "הלווין", "הלואין", "ליל\\s+כל\\s+הקדושים"],
    name: { en: "Halloween", he: "האלווין" },
    hebrewDay: false,
    next: gregorian(10, 31),
  },
  {
    id: "valentines_day",
    en: ["(?:st\\.?\\s+|saint\\s+)?valentine's(?:\\s+day)?", "valentines\\s+day"],
    he: ["(?:יום\\s+)?ה?ולנטיינ?ס", "יום\\s+ה?ולנטיין"],
    name: { en: "Valentine's Day", he: "ולנטיינס" },
    hebrewDay: false,
    next: gregorian(2, 14),
  },
  {
    id: "st_patricks_day",
    en: ["(?:st\\.?|saint)\\s+patrick'?s(?:\\s+day)?", "(?:st\\.?|saint)\\s+paddy'?s(?:\\s+day)?"],
    he: ["(?:יום\\s+)?סנט\\s+פטריק"],
    name: { en: "St Patrick's Day", he: "יום סנט פטריק" },
    hebrewDay: false,
    next: gregorian(3, 17),
  },
  {
    id: "new_years_eve",
    en: ["new\\s+year'?s\\s+eve"],
    he: ["ערב\\s+השנה\\s+החדשה", "ערב\\s+ראש\\s+השנה\\s+האזרחית", "סילבסטר"],
    name: { en: "New Year's Eve", he: "ערב השנה החדשה" },
    hebrewDay: false,
    next: gregorian(12, 31),
  },
  {
    id: "new_years_day",
    en: ["new\\s+year'?s\\s+day"],
    he: ["ראש\\s+השנה\\s+האזרחית", "השנה\\s+החדשה\\s+האזרחית"],
    name: { en: "New Year's Day", he: "ראש השנה האזרחית" },
    hebrewDay: false,
    next: gregorian(1, 1),
  },
  {
    id: "thanksgiving",
    en: ["thanksgiving(?:\\s+day)?"],
    he: ["חג\\s+ההודיה"],
    name: { en: "Thanksgiving", he: "חג ההודיה" },
    hebrewDay: false,
    next: thanksgiving,
  },
  {
    id: "mothering_sunday",
    en: ["mothering\\s+sunday"],
    he: [],
    name: { en: "Mothering Sunday", he: "יום האם" },
    hebrewDay: false,
    next: motheringSunday,
  },
  {
    id: "mothers_day",
    en: ["mother'?s'?\\s+day", "mom'?s\\s+day"],
    he: ["יום\\s+האם", "יום\\s+המשפחה"],
    name: { en: "Mother's Day", he: "יום האם" },
    hebrewDay: false,
    next: mothersDay,
  },
  {
    id: "fathers_day",
    en: ["father'?s'?\\s+day", "dad'?s\\s+day"],
    he: ["יום\\s+האב"],
    name: { en: "Father's Day", he: "יום האב" },
    hebrewDay: false,
    // The 3rd Sunday of June in the US, Canada and the UK; asked elsewhere.
    next: byCountry({ US: nthWeekday(6, 0, 3), CA: nthWeekday(6, 0, 3), GB: nthWeekday(6, 0, 3) }),
  },
  {
    id: "memorial_day",
    en: ["memorial\\s+day"],
    he: [],
    name: { en: "Memorial Day", he: "יום הזיכרון" },
    hebrewDay: false,
    // The US last Monday of May; Yom HaZikaron in Israel.
    next: byCountry({ US: lastWeekday(5, 1), IL: hebcalDay(/^Yom HaZikaron$/u) }),
  },
  {
    id: "labor_day",
    en: ["labou?r\\s+day"],
    he: [],
    name: { en: "Labor Day", he: "יום העבודה" },
    hebrewDay: false,
    // The 1st Monday of September in the US and Canada; elsewhere often 1 May: asked.
    next: byCountry({ US: nthWeekday(9, 1, 1), CA: nthWeekday(9, 1, 1) }),
  },
  {
    id: "holocaust_remembrance_day",
    en: ["holocaust\\s+(?:remembrance\\s+)?day"],
    he: [],
    name: { en: "Holocaust Remembrance Day", he: "יום השואה" },
    hebrewDay: false,
    // Yom HaShoah in Israel; the international day (27 January) or the US days elsewhere: asked.
    next: byCountry({ IL: hebcalDay(/^Yom HaShoah$/u) }),
  },
];

const HE_PREFIX = "(?:ו?[בלמה]|ו|וב|ול|שב|של)?-?";
const S = String.raw`(?<![\p{L}\p{N}'"])`;
const E = String.raw`(?![\p{L}\p{N}])`;

/** One alternation of every name; `group` names the holiday by index. */
function namesPattern(): { source: string; ids: string[] } {
  const ids: string[] = [];
  const parts: string[] = [];
  HOLIDAYS.forEach((holiday, i) => {
    const names = [...holiday.en, ...holiday.he.map((n) => `${HE_PREFIX}${n}`)];
    if (names.length === 0) return;
    parts.push(`(?<h${i}>${names.join("|")})`);
    ids.push(holiday.id);
  });
  return { source: parts.join("|"), ids };
}

const NAMES = namesPattern().source;

/**
 * A holiday said as a time: "the first night of" (the evening before the first day), "erev" /
 * "before" / "ערב" (the day before), a qualifier that moves the day (holidayQualifiers.ts: "a week
 * before", "after", "the second day of", "Pesach eve"), "every"/"כל" before any of them, or the day itself.
 */
const HOLIDAY_PHRASE = new RegExp(
  String.raw`${S}${EVERY_BEFORE}?(?:${QUALIFIER_BEFORE}|(?<night>(?:the\s+)?first\s+(?:night|candle)\s+of\s+|(?:ו?[בל])?נר\s+ראשון\s+(?:של\s+)?|(?:ב|ל)?ליל(?:ה)?\s+(?:ה)?ראשון\s+של\s+)|(?<erev>(?:erev|before|(?:ו?[בלמ])?ערב|לפני|(?:ב|ל)?יום\s+שלפני)\s+))?(?:${NAMES})${QUALIFIER_AFTER}?${E}`,
  "giu",
);

/**
 * Where a holiday's name stands (docs/NLU.md, holidays):
 * - "time": "on/at/in/before/until Christmas", "בפסח", "ערב ראש השנה", "Christmas at 6 pm",
 *   "Christmas morning", the name alone: read as the day;
 * - "purpose": "for Pesach", "לפסח", "ל-פסח", "לקראת פסח": what the task is for, never a time;
 * - "attributive": a noun made of the name, "Christmas tree", "Purim costume", "תחפושת פורים",
 *   "קניות פסח": content when the message names another day ("buy a Christmas tree tomorrow"),
 *   else the day (as "Xmas dinner at 7pm" is).
 */
type HolidayPosition = "time" | "purpose" | "attributive";

/** Words before a name that make it a time: "on Christmas", "until Pesach", "עד פסח". */
const TIME_BEFORE =
  /(?<![\p{L}\p{N}])(?:on|at|in|before|until|till|til|by|during|over|from|after|since|of|this|next|last|erev|עד|לפני|אחרי|אחר|מאז|של|כל|every)\s+$/iu;
/** Words before a name that make it a purpose: "for Pesach", "לקראת פסח". */
const PURPOSE_BEFORE = /(?<![\p{L}\p{N}])(?:for|לקראת)\s+$/iu;
/** A greeting names a holiday, not a time: "happy Hanukkah", "merry Christmas", "פסח שמח", "chag sameach". */
const GREETING_BEFORE = /(?<![\p{L}\p{N}])(?:happy|merry|chag\s+sameach|hag\s+sameach|חג\s+שמח)\s+$/iu;
const GREETING_AFTER = /^\s+(?:שמח|שמחה|כשר\s+ו?שמח|sameach)(?![\p{L}\p{N}])/iu;

/**
 * Words that are not a noun a name can qualify: the grammar's time words and the words that join a
 * time to the rest ("Christmas at 6", "Christmas morning", "פורים מחר"): after one, the name is a time.
 */
const NOT_NOUN = new Set<string>([
  ...[...DAY_WORDS.keys()].filter((w) => !w.includes(" ")),
  ...EN_WEEKDAYS,
  ...EN_WEEKDAYS.map((w) => `${w}s`),
  ...EN_MONTHS.keys(),
  ...EN_HOUR_WORDS.keys(),
  ...HE_WEEKDAYS,
  ...HE_MONTHS.keys(),
  ...HE_HOURS.keys(),
  ...["morning", "afternoon", "evening", "night", "noon", "midnight", "midday", "eve", "day", "week"],
  ...["weekend", "time", "tonite", "tmrw", "tmr", "asap", "eod", "am", "pm", "o'clock", "oclock"],
  ...["at", "on", "in", "to", "by", "and", "or", "for", "from", "till", "until", "til", "before"],
  ...["after", "with", "this", "next", "is", "i", "we", "please", "then", "every", "each", "around"],
  ...["about", "remind", "me", "us", "it", "the", "a", "an", "year", "years", "again"],
  ...["בוקר", "ערב", "לילה", "צהריים", "צהרים", "שבוע", "שנה", "יום", "כל", "עד", "לפני", "אחרי"],
  ...["תזכיר", "תזכירי", "לי", "לנו", "את", "זה", "הזה", "הבא", "הקרוב", "שעה", "שמח", "שמחה"],
]);

/** A word that may be a noun: letters, neither a time word nor a joining word nor a holiday's name. */
function mayBeNoun(word: string | undefined): word is string {
  if (word === undefined || word.length < 2) return false;
  const lower = word.toLowerCase();
  return !NOT_NOUN.has(lower) && !HOLIDAY_WORD.test(lower);
}

/** A whole holiday name, to keep "Hanukkah and Purim" from reading one as the other's noun. */
const HOLIDAY_WORD = new RegExp(`^(?:${NAMES})$`, "iu");

/**
 * Any holiday name anywhere: a cheap first test, since most messages name none. The bare names, no
 * prefix letters and no groups: every name the phrase reads contains one of them, so nothing the
 * phrase would find is missed.
 */
const ANY_HOLIDAY_NAME = new RegExp(HOLIDAYS.flatMap((h) => [...h.en, ...h.he]).join("|"), "iu");

/** The Hebrew prefix letters said before a Hebrew name ("ל" of "לפסח"), "" for none or English. */
function prefixOf(holiday: Holiday, said: string): string {
  for (const name of holiday.he) {
    const m = new RegExp(`^(?<p>${HE_PREFIX})(?:${name})$`, "iu").exec(said);
    if (m) return m.groups?.["p"] ?? "";
  }
  return "";
}

/** Where the holiday matched at `m` (over `text`) stands: a time, a purpose, or a noun's part. */
function positionOf(text: string, m: RegExpMatchArray, holiday: Holiday): HolidayPosition {
  const said = m.groups ?? {};
  if (qualifierOf(said)?.kind !== "day" || said["every"] !== undefined || said["upcoming"] !== undefined)
    return "time";
  const start = m.index ?? 0;
  const before = text.slice(0, start);
  const prefix = prefixOf(holiday, m[0]).replace(/-/gu, "");
  if (prefix !== "" && prefix !== "ה") return prefix === "ל" || prefix === "ול" ? "purpose" : "time";
  if (PURPOSE_BEFORE.test(before) || GREETING_BEFORE.test(before)) return "purpose";
  if (GREETING_AFTER.test(text.slice(start + m[0].length))) return "purpose";
  if (TIME_BEFORE.test(before)) return "time";
  const next = /^\s+([\p{L}][\p{L}'"]*)/u.exec(text.slice(start + m[0].length))?.[1];
  // After the name, a Hebrew word with a prefix letter is no noun of it: "פורים בשבע", "חנוכה לקנות".
  if (mayBeNoun(next) && !/^[בלוהמש]\p{Script=Hebrew}/u.test(next)) return "attributive";
  // Hebrew construct: "תחפושת פורים", "מסיבת פורים", "חופשת הפסח": a noun right before the name.
  const hebrewName = /\p{Script=Hebrew}/u.test(m[0]);
  const previous = /(?<![\p{L}\p{N}'"])([\p{L}][\p{L}'"]*)\s+$/u.exec(before)?.[1];
  if (hebrewName && previous !== undefined && /\p{Script=Hebrew}/u.test(previous) && mayBeNoun(previous))
    return "attributive";
  return "time";
}

interface HolidayPhrase extends Span {
  m: RegExpMatchArray;
  holiday: Holiday;
  position: HolidayPosition;
  /**
   * Time words beside it that the phrase did not read ("during", "Shabbat", "3 days (after)"), with
   * the phrase: the day cannot be told, so it is asked (undefined when there are none).
   */
  loose?: Span;
}

/** Every holiday phrase of `text`, with its holiday and where it stands. */
function holidayPhrases(text: string): HolidayPhrase[] {
  // The whole phrase pattern costs microseconds even on a text without a name.
  if (!ANY_HOLIDAY_NAME.test(text)) return [];
  return [...text.matchAll(HOLIDAY_PHRASE)].flatMap((m) => {
    const holiday = holidayOfMatch(m);
    if (!holiday) return [];
    const start = m.index ?? 0;
    const end = start + m[0].length;
    const position = positionOf(text, m, holiday);
    const phrase: HolidayPhrase = { start, end, m, holiday, position };
    if (position === "purpose") return [phrase];
    const before = LOOSE_BEFORE.exec(text.slice(Math.max(0, start - 40), start))?.[0].length ?? 0;
    const kind = qualifierOf(m.groups ?? {})?.kind;
    const moved = kind !== "day" && kind !== "erev" && kind !== "night";
    const after = looseAfter(text.slice(end), holiday.hebrewDay, moved);
    if (before > 0 || after > 0) phrase.loose = { start: start - before, end: end + after };
    return [phrase];
  });
}

/**
 * The holiday names of `maskedText` said as times, for the unread-word scanner: a name in time
 * position left over means the reading is not whole; one said as content ("for Pesach", "a
 * Christmas tree") is not a time word. The grammar's own table and position test.
 */
export function holidayTimeWords(maskedText: string): Span[] {
  return holidayPhrases(maskedText)
    .filter((p) => p.position === "time" || p.loose)
    .map(({ start, end, loose }) => loose ?? { start, end });
}

/** The zones whose country Memo knows, for holidays kept differently by country. */
function countryOf(timeZone: string): Country | null {
  if (timeZone === "Asia/Jerusalem" || timeZone === "Asia/Tel_Aviv" || timeZone === "Israel") return "IL";
  if (timeZone === "Europe/London" || timeZone === "Europe/Belfast") return "GB";
  if (
    /^America\/(?:Toronto|Montreal|Vancouver|Edmonton|Winnipeg|Halifax|St_Johns|Regina|Moncton|Glace_Bay|Goose_Bay|Whitehorse|Dawson|Dawson_Creek|Yellowknife|Iqaluit|Rankin_Inlet|Cambridge_Bay|Inuvik|Swift_Current|Fort_Nelson|Creston|Atikokan|Nipigon|Thunder_Bay|Rainy_River|Pangnirtung|Resolute|Blanc-Sablon)$/u.test(
      timeZone,
    ) ||
    timeZone.startsWith("Canada/")
  )
    return "CA";
  if (
    /^America\/(?:New_York|Chicago|Denver|Los_Angeles|Phoenix|Anchorage|Detroit|Boise|Juneau|Adak|Nome|Sitka|Menominee|Metlakatla|Yakutat|Indiana\/|Kentucky\/|North_Dakota\/)/u.test(
      timeZone,
    ) ||
    timeZone === "Pacific/Honolulu" ||
    timeZone.startsWith("US/")
  )
    return "US";
  return null;
}

/** The holiday a matched name belongs to. */
function holidayOfMatch(m: RegExpMatchArray): Holiday | undefined {
  const groups = m.groups ?? {};
  const index = HOLIDAYS.findIndex((_, i) => groups[`h${i}`] !== undefined);
  return HOLIDAYS[index];
}

/** A date mention as timeMentions makes them (kind "date", or "impossible" when it cannot be told). */
type DateMention = Found["mention"];

/** The holidays of a text: the days said as times, and the names said as content, masked meanwhile. */
interface TakenHolidays {
  /**
   * Holidays said as times (with "attributive" ones, which are times unless another day is named);
   * `every` when said with "every"/"כל" ("every Pesach"): kept every year.
   */
  found: (Found & { attributive: boolean; every: boolean })[];
  /** Names said as a purpose ("for Pesach"): masked while the rest is read, then given back. */
  content: Span[];
}

/** How far back the next occurrence is looked for, so that "after Pesach" said during it is this one. */
const LOOK_BACK_DAYS = 10;

/**
 * Takes every holiday out of the scanner's text: one said as a time becomes a date mention on the
 * next day it names (on or after `today`, on the user's schedule: "a week before Pesach" is 7 days
 * before its next first day that is still ahead of it), "impossible" (asked) when the day depends on a
 * country the zone does not tell ("Mother's Day" in Asia/Kolkata), when its words cannot be told
 * ("the third day of Shavuot" in Israel), or when a time word beside it was not read ("during
 * Hanukkah"); one said as a purpose is masked and listed, so that no other pattern reads its words
 * ("לט״ו בשבט").
 */
export function takeHolidays(
  s: Scanner,
  today: LocalDate,
  timeZone: string,
  schedule: CalendarSchedule,
): TakenHolidays {
  const country = countryOf(timeZone);
  const taken: TakenHolidays = { found: [], content: [] };
  for (const { start, end, m, holiday, position, loose } of holidayPhrases(s.text)) {
    if (position === "purpose") {
      taken.content.push({ start, end });
      continue;
    }
    const every = m.groups?.["every"] !== undefined;
    const mention: DateMention = loose ? { kind: "impossible" } : dateOf(m, holiday);
    taken.found.push({
      ...(loose ?? { start, end }),
      mention,
      // A noun made of the name gives its words back beside another day; one with a loose time word
      // ("טיול בחול המועד פסח מחר") is still asked.
      attributive: position === "attributive" && !loose,
      every,
    });
  }
  for (const span of [...taken.found, ...taken.content]) s.mask(span.start, span.end);
  return taken;

  function dateOf(m: RegExpMatchArray, holiday: Holiday): DateMention {
    const qualifier = qualifierOf(m.groups ?? {});
    if (qualifier === null) return { kind: "impossible" };
    const length = holiday.length ? holiday.length(schedule) : 1;
    // The first occurrence whose named day is still ahead (today counts): "a week before Pesach" said
    // three days before it is next year's; "after Pesach" said during it is this one's.
    let from = addDays(today, -LOOK_BACK_DAYS);
    for (let tries = 0; tries < 3; tries++) {
      const next = holiday.next(from, schedule, country);
      if (next === "unknown" || next === null) return { kind: "impossible" };
      const day = qualifiedDay(qualifier, next.date, length);
      if (day === null) return { kind: "impossible" };
      if (compareDates(day.date, today) < 0) {
        from = addDays(next.date, 1);
        continue;
      }
      const eve = qualifier.kind === "erev" || (qualifier.kind === "night" && qualifier.nth === 1);
      // Kept every year: the day itself as it repeats, an erev or first night as the eve of a Hebrew
      // date; a day moved by other words is not one rule ("every year a week before Pesach"): asked.
      const yearly: YearlyDay | undefined =
        qualifier.kind === "day"
          ? next.yearly
          : eve && next.yearly?.kind === "hebrew"
            ? { ...next.yearly, eve: true }
            : eve && !next.yearly
              ? undefined
              : { kind: "unsupported" };
      const period: Period | undefined = day.evening ? "evening" : undefined;
      return {
        kind: "date",
        date: day.date,
        ...(period ? { impliedPeriod: period } : {}),
        ...(yearly ? { yearly } : {}),
      };
    }
    return { kind: "impossible" };
  }
}

/** The holiday a whole name names ("pesach", "ראש השנה"), for the fast-path answer "when is …?". */
export function holidayNamed(text: string): Holiday | null {
  const m = HOLIDAY_WORD.exec(text.trim().toLowerCase());
  return m ? (holidayOfMatch(m) ?? null) : null;
}

/** The next day a holiday falls on, on or after `today` (null when it depends on an unknown country). */
export function nextHoliday(
  holiday: Holiday,
  today: LocalDate,
  timeZone: string,
  schedule: CalendarSchedule,
): LocalDate | null {
  const next = holiday.next(today, schedule, countryOf(timeZone));
  return next === "unknown" || next === null ? null : next.date;
}
