/**
 * Dates of the Hebrew calendar said as times (issue 36): "15 Shevat", "on the 3rd of Nisan",
 * "Tevet 10", "ג' בניסן", "בכ"ה באדר", "ב-15 בשבט", "באדר ב'", "on my Hebrew birthday". Days in
 * digits or in gematriya (with ' and ", as normalizeText writes ׳ and ״); months in Hebrew (with a
 * prefix letter) or in English transliteration. Each becomes a date mention on the next day the
 * date falls on, with the Hebrew date kept for "every year" (a yearly Hebrew recurrence). "the
 * evening before" / "בערב שלפני" said with it rings on the evening before, when the Hebrew day begins.
 */
import { gematriyaStrToNum, HDate } from "@hebcal/core";
import {
  gregorianOf,
  hebrewDateOf,
  isHebrewDayMonth,
  nextObservance,
  type HebrewDate,
  type HebrewDaySaid,
  type HebrewYearly,
} from "./hebrewCalendar.js";
import { calendarOptionsOf, type CalendarOptions, type YearlyDay } from "./holidays.js";
import { Scanner, type Found } from "./timeMentions.js";
import { normalizeText } from "./timeWords.js";
import { addDays, compareDates, type LocalDate } from "./zonedTime.js";

/** Hebrew month names (hebcal's numbering; 12 is plain Adar, Adar I said so is "adar1"). */
const HE_MONTHS: [string, number | "adar1"][] = [
  ["ניסן", 1],
  ["אייר", 2],
  ["איר", 2],
  ["סיוון", 3],
  ["סיון", 3],
  ["תמוז", 4],
  ["מנחם\\s+אב", 5],
  ["אב", 5],
  ["אלול", 6],
  ["תשרי", 7],
  ["מרחשוון", 8],
  ["מרחשון", 8],
  ["חשוון", 8],
  ["חשון", 8],
  ["כסליו", 9],
  ["כסלו", 9],
  ["טבת", 10],
  ["שבט", 11],
  // Not "באדר ב-10": "ב" before a clock is "at".
  ["אדר\\s+(?:א'|א(?![\\p{L}\\p{N}-])|ראשון)", "adar1"],
  ["אדר\\s+(?:ב'|ב(?![\\p{L}\\p{N}-])|שני)", 13],
  ["אדר", 12],
];

const EN_MONTHS: [string, number | "adar1"][] = [
  ["nisan", 1],
  ["iyar", 2],
  ["iyyar", 2],
  ["sivan", 3],
  ["tammuz", 4],
  ["tamuz", 4],
  ["menachem\\s+av", 5],
  ["av", 5],
  ["elul", 6],
  ["tishrei", 7],
  ["tishri", 7],
  ["marcheshvan", 8],
  ["cheshvan", 8],
  ["heshvan", 8],
  ["chesvan", 8],
  ["kislev", 9],
  ["tevet", 10],
  ["teves", 10],
  ["tevet", 10],
  ["shevat", 11],
  ["shvat", 11],
  ["sh'vat", 11],
  ["adar\\s+(?:i|1|aleph|alef|rishon)", "adar1"],
  ["adar\\s+(?:ii|2|bet|beis|sheni)", 13],
  ["adar", 12],
];

/** A day in gematriya as written: "ג'", "ט"ו", "כ"ה", "ל'". */
const HE_DAY = `(?:ט"[וז]|[יכ]"[א-ט]|[א-טיכל]')`;
/** A day in digits after an optional prefix: "15", "ב-15", "ה-3". */
const DIGIT_DAY = String.raw`\d{1,2}`;
const HE_PREFIX = String.raw`(?:ו?[בלה]-?)?`;

const S = String.raw`(?<![\p{L}\p{N}'"])`;
const E = String.raw`(?![\p{L}\p{N}])`;
const EVE_BEFORE = String.raw`(?<eveBefore>(?:on\s+)?the\s+(?:evening|night|eve)\s+before\s+|(?:ב)?ערב\s+(?:ש)?לפני\s+(?:ה-?)?)?`;
const EVE_AFTER = String.raw`(?<eveAfter>,?\s+(?:on\s+)?the\s+(?:evening|night)\s+before|,?\s+(?:ב)?ערב\s+(?:ש)?לפני(?:\s+כן)?)?`;

const alternation = (months: [string, number | "adar1"][]) => months.map(([name]) => name).join("|");

/** Months that are also given names (Sivan, Tamuz, Adar) or words (Av): said after their day only. */
const NAME_MONTHS = new Set<number | "adar1">([3, 4, 5, 12, 13, "adar1"]);

/**
 * The month tables of the date grammar, for the unread-word scanner (unreadTime.ts): Hebrew and
 * English names with their month, and the months said after their day only.
 */
export const HEBREW_MONTH_NAMES = { he: HE_MONTHS, en: EN_MONTHS, afterDayOnly: NAME_MONTHS } as const;

/**
 * "ג' בניסן", "בכ"ה באדר ב'", "ב-15 בשבט", "ב-3 לניסן", "15 לשבט". A day in digits before "ל" is a
 * date with "ב" before the day ("ב-3 לסיוון") or before a month that is no name ("3 לניסן");
 * "3 לסיוון" alone may be "3 to Sivan", so it is not read (its "לסיוון" is asked about).
 */
const HE_DATE = new RegExp(
  String.raw`${S}${EVE_BEFORE}(?:${HE_PREFIX}(?:(?<day>${HE_DAY})\s*(?:ב|ל)|(?<digits>${DIGIT_DAY})\s*ב)-?(?<month>${alternation(HE_MONTHS)})|ו?ב-?(?<digitsL>${DIGIT_DAY})\s*ל-?(?<monthL>${alternation(HE_MONTHS)})|(?:ו?[לה]-?)?(?<digitsN>${DIGIT_DAY})\s*ל-?(?<monthN>${alternation(HE_MONTHS.filter(([, month]) => !NAME_MONTHS.has(month)))}))${E}${EVE_AFTER}`,
  "gu",
);

/** "15 Shevat", "the 3rd of Nisan", "Nisan 3", "10th of Tevet". */
const EN_DATE = new RegExp(
  String.raw`${S}${EVE_BEFORE}(?:(?:the\s+)?(?<day>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?<month>${alternation(EN_MONTHS)})|(?<month2>${alternation(EN_MONTHS.filter(([, month]) => !NAME_MONTHS.has(month)))})\s+(?<day2>\d{1,2})(?:st|nd|rd|th)?)${E}${EVE_AFTER}`,
  "giu",
);
/** "on my Hebrew birthday", "ביום ההולדת העברי שלי" (not "my Hebrew birthday is …", a setting). */
const MY_BIRTHDAY = new RegExp(
  String.raw`${S}${EVE_BEFORE}(?:(?:on|for|by|until|till)\s+my\s+hebrew\s+birthday|(?:ב|ל|עד)\s*-?\s*יום\s+ה?הולדת\s+ה?עברי\s+שלי)${E}${EVE_AFTER}`,
  "giu",
);

/** A day in gematriya (HE_DAY admits only the letters of 1–30) or digits. */
function dayOf(text: string): number {
  return /^\d+$/u.test(text) ? Number(text) : gematriyaStrToNum(text);
}

function monthOf(text: string, months: [string, number | "adar1"][]): number | "adar1" | null {
  const folded = text.toLowerCase().replace(/\s+/gu, " ");
  for (const [name, month] of months) if (new RegExp(`^(?:${name})$`, "u").test(folded)) return month;
  return null;
}

/** Words that make a yearly Hebrew date a yahrzeit or a Hebrew birthday (the rest is a plain date). */
const YAHRZEIT =
  /(?<![\p{L}])(?:yahrzeit|yahrtzeit|yartzeit|yortzeit|jahrzeit|יארצייט|יאהרצייט|יום\s+השנה\s+ל|אזכרה)/iu;
const BIRTHDAY = /(?<![\p{L}])(?:hebrew\s+birthday|יום\s+ה?הולדת\s+ה?עברי)/iu;

/** The custom a message's words give a yearly Hebrew date; null when they name none. */
export function customOf(text: string): HebrewYearly["custom"] | null {
  if (YAHRZEIT.test(text)) return "yahrzeit";
  if (BIRTHDAY.test(text)) return "birthday";
  return null;
}

/** "my Hebrew birthday", "יום ההולדת העברי שלי": the user's own day (a time or a setting), no custom. */
const MY_OWN_BIRTHDAY = /(?<![\p{L}])(?:my\s+hebrew\s+birthday|יום\s+ה?הולדת\s+ה?עברי\s+שלי)(?![\p{L}])/giu;

/**
 * The custom a user's whole message names for the Hebrew date in it ("yahrzeit for grandpa on 7
 * Adar"), for time words handed over without it; "on my Hebrew birthday" names a day, not a custom.
 */
function customOfMessage(message: string): HebrewYearly["custom"] | null {
  return customOf(message.replace(MY_OWN_BIRTHDAY, " "));
}

/**
 * The calendar options a message is read with: the user's settings (calendarOptionsOf; none
 * without a user) and the custom the whole message names (customOfMessage).
 */
export function calendarOptionsOfMessage(
  user: Parameters<typeof calendarOptionsOf>[0] | undefined,
  message: string,
): CalendarOptions {
  return { ...(user ? calendarOptionsOf(user) : {}), custom: customOfMessage(message) };
}

/** Whether a message names the user's own Hebrew birthday ("on my Hebrew birthday", or its setting). */
export function namesOwnHebrewBirthday(message: string): boolean {
  return new RegExp(MY_OWN_BIRTHDAY.source, "iu").test(message);
}

/** The next day on or after `today` that a Hebrew date said once falls on; an Adar I or II said so, in the next leap year. */
function nextDayOf(month: number | "adar1", day: number, today: LocalDate): LocalDate | null {
  if (month === "adar1" || month === 13) {
    const wanted = month === "adar1" ? 12 : 13;
    if (day > 30 || (wanted === 13 && day > 29)) return null;
    const start = hebrewDateOf(today).year;
    for (let year = start; year < start + 4; year++) {
      if (!HDate.isLeapYear(year) || day > HDate.daysInMonth(wanted, year)) continue;
      const date = gregorianOf({ year, month: wanted, day });
      if (compareDates(date, today) >= 0) return date;
    }
    return null;
  }
  // A plain Adar has 29 days; a 30th of Adar is Adar I's, said so.
  if (!isHebrewDayMonth(month, day) || (month === 12 && day === 30)) return null;
  const next = nextObservance({ month, day, custom: "date" }, today);
  // Said once, a plain Adar in a leap year is the first of the two, Adar I, while it is still ahead
  // (the confirmation names it: "(10 Adar I)"); a yearly date keeps its custom (Adar II).
  if (next && month === 12) {
    const year = hebrewDateOf(next).year;
    if (HDate.isLeapYear(year)) {
      const first = gregorianOf({ year, month: 12, day });
      if (compareDates(first, today) >= 0) return first;
    }
  }
  return next;
}

/** The Hebrew date a day falls on, with the day said when that year lacks it (30 Cheshvan → 1 Kislev). */
function daySaid(actual: HebrewDate, month: number | "adar1", day: number): HebrewDaySaid {
  return actual.day === day ? actual : { ...actual, said: { month: month === "adar1" ? 12 : month, day } };
}

/**
 * Takes every Hebrew date said as a time out of the scanner's text: a date mention on the next day it
 * falls on ("impossible" when no such day exists, "32 Nisan", "30 Adar"), carrying the Hebrew date for
 * "every year" (Adar I said so repeats as no plain date can: asked).
 */
export function takeHebrewDates(s: Scanner, today: LocalDate, options: CalendarOptions = {}): Found[] {
  const found: Found[] = [];
  const mention = (
    month: number | "adar1" | null,
    day: number | null,
    eve: boolean,
    custom: HebrewYearly["custom"] = "date",
  ): Found["mention"] => {
    if (month === null || day === null) return { kind: "impossible" };
    const next = nextDayOf(month, day, eve ? addDays(today, 1) : today);
    if (!next) return { kind: "impossible" };
    const yearly: YearlyDay =
      month === "adar1"
        ? { kind: "unsupported" }
        : { kind: "hebrew", hebrew: { month, day, custom }, ...(eve ? { eve: true } : {}) };
    return {
      kind: "date",
      date: eve ? addDays(next, -1) : next,
      ...(eve ? { impliedPeriod: "evening" as const } : {}),
      yearly,
      hebrew: daySaid(hebrewDateOf(next), month, day),
    };
  };
  const isEve = (m: RegExpMatchArray) =>
    m.groups?.["eveBefore"] !== undefined || m.groups?.["eveAfter"] !== undefined;
  const add = (pattern: RegExp, read: (m: RegExpMatchArray) => Found["mention"]) => {
    for (const { start, end, value } of s.take(pattern, read)) found.push({ start, end, mention: value });
  };
  add(HE_DATE, (m) =>
    mention(
      monthOf(m.groups?.["month"] ?? m.groups?.["monthL"] ?? m.groups?.["monthN"] ?? "", HE_MONTHS),
      dayOf(
        m.groups?.["day"] ?? m.groups?.["digits"] ?? m.groups?.["digitsL"] ?? m.groups?.["digitsN"] ?? "",
      ),
      isEve(m),
    ),
  );
  add(EN_DATE, (m) =>
    mention(
      monthOf(m.groups?.["month"] ?? m.groups?.["month2"] ?? "", EN_MONTHS),
      dayOf(m.groups?.["day"] ?? m.groups?.["day2"] ?? ""),
      isEve(m),
    ),
  );
  add(MY_BIRTHDAY, (m) => {
    const birthday = options.hebrewBirthday;
    return birthday ? mention(birthday.month, birthday.day, isEve(m), "birthday") : { kind: "impossible" };
  });
  return found;
}

/**
 * The Hebrew day and month a whole phrase names ("3 Nisan", "ג' בניסן", "the 15th of Shevat"), for
 * "my Hebrew birthday is …"; null for anything else, or for Adar I said so (no plain yearly date).
 */
export function hebrewDayMonthIn(text: string): { month: number; day: number } | null {
  const scanner = new Scanner(normalizeText(text).text);
  const today = { year: 2026, month: 1, day: 1 };
  const [found, ...more] = takeHebrewDates(scanner, today);
  if (!found || more.length > 0 || scanner.text.replace(/[\s|]/gu, "") !== "") return null;
  const { mention } = found;
  if (mention.kind !== "date" || mention.yearly?.kind !== "hebrew" || mention.yearly.eve) return null;
  return { month: mention.yearly.hebrew.month, day: mention.yearly.hebrew.day };
}
