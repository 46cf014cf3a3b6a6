/**
 * The words of time in Hebrew and English: vocabulary, patterns and text normalization, shared by
 * resolveWhen (a phrase) and parseTime (a whole message). \b does not see Hebrew letters, so word
 * edges are explicit Unicode lookarounds.
 */
import { isDroppedAt } from "../utils/invisibleText.js";

export type Period = "morning" | "noon" | "afternoon" | "evening" | "night";

/** A clock time as said: certain 24h, am, pm, open (1–12 with no am/pm) or midnight. */
export interface Clock {
  hour: number;
  minute: number;
  kind: "exact" | "am" | "pm" | "open" | "midnight";
  /** The hour the words named when it differs from `hour`: 8 in "a quarter to 8" (7:45). */
  said?: number;
  /** Seconds said after the minutes ("15:23:24"); absent when none were. */
  second?: number;
}

/** An offset from now: an exact duration (minutes, hours) or calendar steps that keep the wall time. */
export type Relative = { kind: "duration"; ms: number } | { kind: "calendar"; days: number; months: number };

export const MINUTE_MS = 60_000;

export function duration(minutes: number): Relative {
  return { kind: "duration", ms: minutes * MINUTE_MS };
}

export function calendar(days: number, months: number): Relative {
  return { kind: "calendar", days, months };
}

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

const EN_UNITS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const EN_TEENS = [
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const EN_TENS = ["twenty", "thirty", "forty", "fifty"];

/** English numbers 1–59 in words ("seven", "forty-five", "twenty one"), and "a"/"an" as one. */
export const EN_COUNTS = new Map<string, number>([
  ["a", 1],
  ["an", 1],
]);
EN_UNITS.forEach((w, i) => EN_COUNTS.set(w, i + 1));
EN_TEENS.forEach((w, i) => EN_COUNTS.set(w, i + 10));
EN_TENS.forEach((tens, t) => {
  EN_COUNTS.set(tens, (t + 2) * 10);
  EN_UNITS.forEach((unit, u) => {
    EN_COUNTS.set(`${tens}-${unit}`, (t + 2) * 10 + u + 1);
    EN_COUNTS.set(`${tens} ${unit}`, (t + 2) * 10 + u + 1);
  });
});

/** English amounts that are not numbers: "a couple of hours" is 2, "a few minutes" 3 (documented). */
// prettier-ignore
export const EN_AMOUNT_WORDS = new Map([["a couple of", 2], ["a couple", 2], ["couple of", 2], ["a few", 3], ["few", 3]]);

const EN_ORDINAL_UNITS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
];
/** Days of the month as ordinal words: "the fourth of July", "the twenty-first". */
export const EN_ORDINAL_DAYS = new Map<string, number>();
EN_ORDINAL_UNITS.forEach((w, i) => EN_ORDINAL_DAYS.set(w, i + 1));
// prettier-ignore
["tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth"].forEach((w, i) => EN_ORDINAL_DAYS.set(w, i + 10));
EN_ORDINAL_DAYS.set("twentieth", 20).set("thirtieth", 30);
EN_ORDINAL_UNITS.forEach((w, i) => {
  EN_ORDINAL_DAYS.set(`twenty-${w}`, 21 + i).set(`twenty ${w}`, 21 + i);
});
EN_ORDINAL_DAYS.set("thirty-first", 31).set("thirty first", 31);

/** "the first/second/third/fourth/last Monday" of a month: which one (-1 is the last). */
// prettier-ignore
export const EN_NTH_DAYS = new Map([
  ["first", 1], ["1st", 1], ["second", 2], ["2nd", 2], ["third", 3], ["3rd", 3], ["fourth", 4], ["4th", 4], ["last", -1],
]);

/** The hours of an English clock in words: "seven", "twelve". */
export const EN_HOUR_WORDS = new Map([...EN_UNITS, "ten", "eleven", "twelve"].map((w, i) => [w, i + 1]));

/** Hebrew hours on the clock (feminine, as hours are said): "בשמונה", "באחת עשרה". */
// prettier-ignore
export const HE_HOURS = new Map([
  ["אחת", 1], ["שתיים", 2], ["שתים", 2], ["שלוש", 3], ["ארבע", 4], ["חמש", 5], ["שש", 6], ["שבע", 7],
  ["שמונה", 8], ["תשע", 9], ["עשר", 10], ["אחת עשרה", 11], ["שתים עשרה", 12], ["שתיים עשרה", 12],
]);

// prettier-ignore
const HE_UNITS_F = ["אחת", "שתיים", "שלוש", "ארבע", "חמש", "שש", "שבע", "שמונה", "תשע"];
// prettier-ignore
const HE_UNITS_M = ["אחד", "שניים", "שלושה", "ארבעה", "חמישה", "שישה", "שבעה", "שמונה", "תשעה"];
// prettier-ignore
const HE_TEENS = [
  ["אחת עשרה", "אחד עשר"], ["שתים עשרה", "שנים עשר"], ["שלוש עשרה", "שלושה עשר"], ["ארבע עשרה", "ארבעה עשר"],
  ["חמש עשרה", "חמישה עשר"], ["שש עשרה", "שישה עשר"], ["שבע עשרה", "שבעה עשר"], ["שמונה עשרה", "שמונה עשר"],
  ["תשע עשרה", "תשעה עשר"],
];
const HE_TENS = ["עשרים", "שלושים", "ארבעים", "חמישים"];

/** Hebrew numbers 1–59 in words, both genders and their spelling variants ("שתיים", "שניים", "שתי"). */
export const HE_NUMBERS = new Map<string, number>([
  ["שתים", 2],
  ["שנים", 2],
  ["שתי", 2],
  ["שני", 2],
  ["עשר", 10],
  ["עשרה", 10],
  ["שתיים עשרה", 12],
  ["שניים עשר", 12],
]);
HE_UNITS_F.forEach((w, i) => HE_NUMBERS.set(w, i + 1));
HE_UNITS_M.forEach((w, i) => HE_NUMBERS.set(w, i + 1));
HE_TEENS.forEach((pair, i) => pair.forEach((w) => HE_NUMBERS.set(w, i + 11)));
HE_TENS.forEach((tens, t) => {
  HE_NUMBERS.set(tens, (t + 2) * 10);
  [...HE_UNITS_F, ...HE_UNITS_M, "שתים", "שנים"].forEach((unit) => {
    const value = (HE_UNITS_F.indexOf(unit) + 1 || HE_UNITS_M.indexOf(unit) + 1 || 2) + (t + 2) * 10;
    HE_NUMBERS.set(`${tens} ו${unit}`, value);
  });
});

/**
 * The words of EN_COUNTS but "a"/"an", as one factored alternation: "twenty three" is a ten and an
 * optional unit, not one of a hundred listed compounds (the same words, a much cheaper pattern).
 */
export const EN_NUMBER_WORDS = [
  String.raw`(?:${words(EN_TENS)})(?:[\s-]+(?:${words(EN_UNITS)}))?`,
  words([...EN_TEENS, ...EN_UNITS]),
].join("|");

/** The words of HE_NUMBERS as one factored alternation: a ten and an optional "ו" and unit. */
export const HE_NUMBER_WORDS = [
  String.raw`(?:${words(HE_TENS)})(?:[\s-]+ו(?:${words([...HE_UNITS_F, ...HE_UNITS_M, "שתים", "שנים"])}))?`,
  words([...HE_NUMBERS.keys()].filter((w) => !HE_TENS.some((tens) => w.startsWith(tens)))),
].join("|");

/** Hebrew amounts said in one word or phrase: "שעתיים", "רבע שעה", "שבועיים". */
// prettier-ignore
export const HE_AMOUNTS = new Map<string, Relative>([
  ["דקה", duration(1)], ["דקותיים", duration(2)], ["רבע שעה", duration(15)], ["חצי שעה", duration(30)],
  ["שלושת רבעי שעה", duration(45)], ["שעה", duration(60)], ["שעה ורבע", duration(75)],
  ["שעה וחצי", duration(90)], ["שעתיים", duration(120)],
  ["יום", calendar(1, 0)], ["יומיים", calendar(2, 0)], ["שבוע", calendar(7, 0)], ["שבועיים", calendar(14, 0)],
  ["חודש", calendar(0, 1)], ["חודשיים", calendar(0, 2)], ["שנה", calendar(0, 12)], ["שנתיים", calendar(0, 24)],
]);

// prettier-ignore
export const EN_MONTHS = new Map([
  ["january", 1], ["jan", 1], ["february", 2], ["feb", 2], ["march", 3], ["mar", 3], ["april", 4], ["apr", 4],
  ["may", 5], ["june", 6], ["jun", 6], ["july", 7], ["jul", 7], ["august", 8], ["aug", 8], ["september", 9],
  ["sept", 9], ["sep", 9], ["october", 10], ["oct", 10], ["november", 11], ["nov", 11], ["december", 12],
  ["dec", 12],
]);

// prettier-ignore
export const HE_MONTHS = new Map([
  ["ינואר", 1], ["פברואר", 2], ["מרץ", 3], ["מרס", 3], ["אפריל", 4], ["מאי", 5], ["יוני", 6], ["יולי", 7],
  ["אוגוסט", 8], ["ספטמבר", 9], ["אוקטובר", 10], ["נובמבר", 11], ["דצמבר", 12],
]);

export const EN_WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
export const HE_WEEKDAYS = ["ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת"];

/** Day words: days after today, and the part of the day they imply. */
// prettier-ignore
export const DAY_WORDS = new Map<string, { days: number; period?: Period }>([
  ["day after tomorrow", { days: 2 }], ["tomorrow", { days: 1 }], ["today", { days: 0 }],
  ["tonight", { days: 0, period: "night" }], ["this morning", { days: 0, period: "morning" }],
  ["this afternoon", { days: 0, period: "afternoon" }], ["this evening", { days: 0, period: "evening" }],
  ["מחרתיים", { days: 2 }], ["מחר", { days: 1 }], ["היום", { days: 0 }], ["הבוקר", { days: 0, period: "morning" }],
  ["הערב", { days: 0, period: "evening" }], ["הלילה", { days: 0, period: "night" }],
  // Days behind: read so that Memo can say the time has passed rather than not understood.
  ["yesterday", { days: -1 }], ["day before yesterday", { days: -2 }], ["אתמול", { days: -1 }], ["שלשום", { days: -2 }],
]);

/**
 * Zone words to IANA zones: a place ("London time", "שעון ישראל") or a name for all of its year
 * ("PT", "ET", "eastern"). IST is India's (Israel's summer is IDT).
 */
// prettier-ignore
export const ZONE_NAMES = new Map([
  ["pt", "America/Los_Angeles"], ["pacific", "America/Los_Angeles"], ["los angeles", "America/Los_Angeles"],
  ["la", "America/Los_Angeles"], ["california", "America/Los_Angeles"],
  ["et", "America/New_York"], ["eastern", "America/New_York"], ["new york", "America/New_York"],
  ["nyc", "America/New_York"], ["ny", "America/New_York"], ["ניו יורק", "America/New_York"],
  ["ct", "America/Chicago"], ["central", "America/Chicago"], ["chicago", "America/Chicago"],
  ["mt", "America/Denver"], ["mountain", "America/Denver"],
  ["london", "Europe/London"], ["uk", "Europe/London"], ["לונדון", "Europe/London"],
  ["paris", "Europe/Paris"], ["berlin", "Europe/Berlin"], ["אירופה", "Europe/Paris"],
  ["ist", "Asia/Kolkata"], ["india", "Asia/Kolkata"], ["הודו", "Asia/Kolkata"],
  ["israel", "Asia/Jerusalem"], ["jerusalem", "Asia/Jerusalem"], ["tel aviv", "Asia/Jerusalem"], ["ישראל", "Asia/Jerusalem"],
  ["jst", "Asia/Tokyo"], ["tokyo", "Asia/Tokyo"], ["טוקיו", "Asia/Tokyo"], ["פריז", "Europe/Paris"],
  ["ברלין", "Europe/Berlin"], ["לוס אנג'לס", "America/Los_Angeles"], ["קליפורניה", "America/Los_Angeles"],
  ["שיקגו", "America/Chicago"],
]);

/**
 * Abbreviations that name one season's time: their own fixed offset from UTC in hours, and the place
 * whose clocks show it in that season ("EDT" is UTC−4, New York's summer). Said for a date out of
 * that season ("EDT" in January) the words contradict each other, and Memo asks.
 */
// prettier-ignore
export const SEASON_ZONES = new Map<string, { offset: number; place: string }>([
  ["pst", { offset: -8, place: "America/Los_Angeles" }], ["pdt", { offset: -7, place: "America/Los_Angeles" }],
  ["mst", { offset: -7, place: "America/Denver" }], ["mdt", { offset: -6, place: "America/Denver" }],
  ["cst", { offset: -6, place: "America/Chicago" }], ["cdt", { offset: -5, place: "America/Chicago" }],
  ["est", { offset: -5, place: "America/New_York" }], ["edt", { offset: -4, place: "America/New_York" }],
  ["bst", { offset: 1, place: "Europe/London" }],
  ["cet", { offset: 1, place: "Europe/Paris" }], ["cest", { offset: 2, place: "Europe/Paris" }],
  ["eet", { offset: 2, place: "Europe/Athens" }], ["eest", { offset: 3, place: "Europe/Athens" }],
  ["idt", { offset: 3, place: "Asia/Jerusalem" }],
  ["aest", { offset: 10, place: "Australia/Sydney" }], ["aedt", { offset: 11, place: "Australia/Sydney" }],
  ["nzst", { offset: 12, place: "Pacific/Auckland" }], ["nzdt", { offset: 13, place: "Pacific/Auckland" }],
]);

/** Zone words said before "time" ("London time") and after "שעון" ("שעון ישראל"). */
export const EN_ZONE_PLACES = [...ZONE_NAMES.keys()].filter(
  (w) => /^[a-z ]+$/u.test(w) && !/^(?:pt|et|ct|mt|ist|jst)$/u.test(w),
);
export const HE_ZONE_PLACES = [...ZONE_NAMES.keys()].filter((w) => /\p{Script=Hebrew}/u.test(w));

/** Zone abbreviations said after a time ("8am PST", "9:00 CEST"), both kinds. */
export const ZONE_ABBREVIATIONS = [
  ...SEASON_ZONES.keys(),
  ...[...ZONE_NAMES.keys()].filter((w) => /^[a-z]{2,4}$/u.test(w) && !["la", "ny", "nyc", "uk"].includes(w)),
];

/** English weekday abbreviations always read ("Mon", "Tue."), and those read only with a dot or a time ("Sun"). */
export const EN_WEEKDAY_ABBREVIATIONS = ["mon", "tue", "tues", "thu", "thur", "thurs", "fri"];
export const EN_RARE_WEEKDAY_ABBREVIATIONS = ["sun", "sat", "wed", "weds"];
/** The Hebrew week's letters: "יום א'" is Sunday … "יום ז'" Saturday. */
export const HE_WEEKDAY_LETTERS = ["א", "ב", "ג", "ד", "ה", "ו", "ז"];

/** Weekday names, abbreviations and letters, English and Hebrew ("יום שני" too) → 0 (Sunday) … 6. */
const DAY_INDEX = new Map<string, number>();
EN_WEEKDAYS.forEach((name, day) => DAY_INDEX.set(name, day));
for (const short of [...EN_WEEKDAY_ABBREVIATIONS, ...EN_RARE_WEEKDAY_ABBREVIATIONS])
  DAY_INDEX.set(
    short,
    EN_WEEKDAYS.findIndex((name) => name.startsWith(short.slice(0, 3))),
  );
HE_WEEKDAYS.forEach((name, day) => DAY_INDEX.set(name, day).set(`יום ${name}`, day));
HE_WEEKDAY_LETTERS.forEach((letter, day) => DAY_INDEX.set(letter, day));

/** "Monday", "mon", "שני", "יום ב'" → 1; null for anything else. */
export function dayIndex(name: string): number | null {
  return (
    DAY_INDEX.get(
      name
        .trim()
        .toLowerCase()
        .replace(/[.'׳"]/g, ""),
    ) ?? null
  );
}

/**
 * Minutes said after a Hebrew hour: "שבע ועשרים" (7:20), "שמונה וחצי", "תשע ועשר דקות", "שמונה
 * ועשרים וחמש"; the tens are also said without "ו" ("שבע ארבעים", 7:40).
 */
const HE_MINUTES = new Map<string, number>([
  ["ורבע", 15],
  ["וחצי", 30],
]);
for (const [word, value] of HE_NUMBERS) {
  // "ב-7 ושתיים" may be 7:02 or "7 and 2": a lone unit below 20 counts only in fives ("וחמש", "ועשר").
  if (word === "שתי" || word === "שני" || (value < 20 && value % 5 !== 0)) continue;
  HE_MINUTES.set(`ו${word}`, value);
  if (value >= 20) HE_MINUTES.set(word, value);
}

/** Every minute word after an hour said in words, units included ("שמונה ושתיים", 8:02). */
export const HE_ALL_MINUTES = new Map<string, number>(HE_MINUTES);
for (const [word, value] of HE_NUMBERS)
  if (word !== "שתי" && word !== "שני") HE_ALL_MINUTES.set(`ו${word}`, value);

/** Minutes before a Hebrew hour: "שמונה פחות רבע" is 7:45, "פחות עשרים וחמש" 25 minutes before. */
export const HE_MINUTES_TO = new Map<string, number>([["פחות רבע", 15]]);
for (const [word, value] of HE_NUMBERS)
  if (value < 30 && word !== "שתי" && word !== "שני") HE_MINUTES_TO.set(`פחות ${word}`, value);

/** "3", "three", "שלושה" → 3. */
export function countOf(word: string): number | null {
  if (/^\d/u.test(word)) return Number(word);
  return EN_COUNTS.get(word) ?? HE_NUMBERS.get(word.replace(/[\s-]+/gu, " ")) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------------------------

/** "am"/"pm" after a clock, however spelled: "pm", "p.m.", "p. m.", "p m" (the letter is captured). */
const MERIDIEM = String.raw`\s*([ap])\.?\s?m\.?`;
/** Seconds after "HH:mm" ("15:23:24"), captured as the group `second`. */
const SECONDS = String.raw`(?:(?<=:\d\d):(?<second>[0-5]\d))?`;

/** Not inside a word or number. */
export const START = String.raw`(?<![\p{L}\p{N}])`;
export const END = String.raw`(?![\p{L}\p{N}])`;
/** Words that make a number a count, not a clock time ("ב-3 ימים"). */
const COUNT_UNITS = String.raw`minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|דקות|דקה|שעות|ימים|יום|שבועות|שבוע|חודשים|חודש|שנים|שנה`;
/** Money: "ב-10 ש"ח", "at 9 dollars", "20₪". */
const CURRENCY = String.raw`ש"ח|שח|שקלים|שקל|₪|\$|€|£|dollars?|bucks|shekels?|euros?|nis|ils|usd|eur|דולרים|דולר|יורו|אירו`;
/** Not followed by money: "ב-10 ש"ח" is a price, not a time. */
const NO_MONEY_NEXT = String.raw`(?!\s*(?:${CURRENCY})(?!\p{L}))`;
/** After a clock time: not a date like 3/4 or 3.4, not a count, not a percentage, not money. */
const TIME_END = String.raw`(?![\p{L}\p{N}])(?![/.,:]\p{N})(?:(?<=:\d\d)|(?!\s*-?\s*[בל]?-?(?:${COUNT_UNITS})(?!\p{L})))(?!\s*%)${NO_MONEY_NEXT}`;
/** Amounts a decimal like 1.5 or a fraction like 3/4 is a quantity of, not a date. */
const QUANTITY_UNITS = String.raw`${CURRENCY}|%|kg|kilos?|g|gr|grams?|l|lt|liters?|litres?|ml|km|m|cm|cups?|ק"ג|קג|קילו|גרם|ליטר|ליטרים|מ"ל|ק"מ|מטר|כוס|כוסות|אחוז`;
/** Minutes said after a Hebrew hour, or before it ("פחות רבע"). */
const HE_MINUTE_WORDS = String.raw`(?:\s+(${words([...HE_MINUTES.keys(), ...HE_MINUTES_TO.keys()])})(?:\s+דקות)?)?`;
/** After an hour said in words any minute may follow ("בשמונה ושתיים" is 8:02; "ב-8 ושתיים" is not). */
const HE_WORD_MINUTE_WORDS = String.raw`(?:\s+(${words([...HE_ALL_MINUTES.keys(), ...HE_MINUTES_TO.keys()])})(?:\s+דקות)?)?`;
/** "ב-", "ב", "ב " and "בשעה" before a Hebrew clock time, with an optional "ו" (and). */
const HE_AT = String.raw`ו?(?:בשעה|ב)\s*-?\s*`;
/** Not before a plural noun: "ב-3 אנשים" is "with 3 people" ("ב-3 בצהריים" still is a time). */
const NO_PLURAL_NEXT = String.raw`(?!\s+[^\sבלו\d]\p{L}*(?:ים|ות)(?!\p{L}))`;

/** An alternation of words, longest first; a space inside a phrase matches any spaces or a hyphen. */
export function words(list: Iterable<string>): string {
  return [...list]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/ /gu, String.raw`[\s-]+`))
    .join("|");
}

/** A global Unicode pattern. */
export const rx = (source: string) => new RegExp(source, "gu");

const EN_UNIT = String.raw`minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|yrs?`;
const HE_UNIT = String.raw`דקות|דקה|שעות|שעה|ימים|יום|שבועות|שבוע|חודשים|חודש|שנים|שנה`;

/** The mention patterns, in the order the scanner tries them. */
export const PATTERNS = {
  isoDateTime: rx(
    String.raw`(?<![\p{N}-])(\d{4})-(\d{2})-(\d{2})[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(z|[+-]\d{2}(?::?\d{2})?)?(?![\p{N}:])`,
  ),
  isoDate: rx(String.raw`(?<![\p{N}-])(\d{4})-(\d{2})-(\d{2})(?![\p{N}-])`),
  // "in 20 minutes", "in a couple of hours", "in 5 more minutes", "2 hours from now", "3 days hence",
  // "in an hour and a half", "in 1/4 hour".
  enRelative: rx(
    String.raw`${START}(?:(in)\s+)?(?:(\d+(?:\.\d+)?|1/4|1/2|3/4)\s*|(${words(EN_AMOUNT_WORDS.keys())}|${EN_NUMBER_WORDS}|an|a)\s+)(\s*and\s+a\s+half\s+)?(?:more\s+)?(${EN_UNIT})(\s+and\s+a\s+half)?(\s+(?:from\s+now|hence|later))?${END}`,
  ),
  enHalfHour: rx(String.raw`${START}in\s+(?:half\s+an?|a\s+half)\s+hour(?:\s+(?:from\s+now|hence))?${END}`),
  enQuarterHour: rx(String.raw`${START}in\s+(?:a\s+)?quarter\s+(?:of\s+an?\s+)?hour${END}`),
  enThreeQuarterHour: rx(String.raw`${START}in\s+three\s+quarters\s+of\s+an?\s+hour${END}`),
  heRelative: rx(
    String.raw`${START}ו?ב?עוד\s+(?:(\d+(?:\.\d+)?|כמה|${HE_NUMBER_WORDS})\s*-?\s*(${HE_UNIT})(\s+וחצי)?|(${words(HE_AMOUNTS.keys())}))${END}`,
  ),
  /** "half past 7", "a quarter to 8", "ten past 3", "20 minutes to 9", "quarter to noon", optional am/pm. */
  enMinutesAround: rx(
    // Not the minutes or hour of a clock time ("from 08:15 to 14:30" is no "15 to 14").
    String.raw`${START}(?<!\d[:.]\s?)(?:(?:at|@|by|around)\s+)?(?:(half)|(?:a\s+)?(quarter)|(\d{1,2}|${EN_NUMBER_WORDS}|an|a))\s+(?:minutes?\s+)?(past|after|to|till|til|before|of)\s+(\d{1,2}|${words(EN_HOUR_WORDS.keys())}|noon|midnight)(?![:.]\d)(?:\s*o'?clock)?(?:${MERIDIEM})?${END}`,
  ),
  /** "ten thirty", "seven fifteen", "at seven", "eleven o'clock", "nine am", "at seven oh five". */
  enSpelledClock: rx(
    String.raw`${START}(?:(at|@|by)\s+)?(${words(EN_HOUR_WORDS.keys())})(?:\s+(?:(oh\s+(?:${words(EN_HOUR_WORDS.keys())})|${words([...EN_COUNTS.keys()].filter((w) => (EN_COUNTS.get(w) ?? 0) >= 10))})))?(\s*o'?clock)?(?:${MERIDIEM})?${END}`,
  ),
  /** "at 1530", "at 0800", "by 2130". */
  militaryClock: rx(String.raw`${START}(?:at|@|by)\s*([01]\d|2[0-3])([0-5]\d)(?:\s*(?:hrs|hours|h))?${END}`),
  /** "15h30", "19h". */
  hClock: rx(String.raw`${START}(?:(?:at|@|by)\s*)?([01]?\d|2[0-3])h([0-5]\d)?${END}`),
  /** "at 3 15", "3 15 pm". */
  spacedClock: rx(
    String.raw`${START}(?:(?:at|@)\s*(\d{1,2})\s+([0-5]\d)(?:${MERIDIEM})?|(\d{1,2})\s+([0-5]\d)${MERIDIEM})${END}`,
  ),
  /** "the first Monday of March", "the last Friday of the month", "the 2nd Tuesday of next month". */
  enNthWeekday: rx(
    String.raw`${START}(?:on\s+)?(?:the\s+)?(first|1st|second|2nd|third|3rd|fourth|4th|last)\s+(${words(EN_WEEKDAYS)})\s+(?:of|in)\s+(?:(the|this|next)\s+month|(${words(EN_MONTHS.keys())})(?:\s+(\d{4}))?)${END}`,
  ),
  /** "on the 15th", "by the 3rd", "the 1st of next month", "the last day of the month". */
  enOrdinalDay: rx(
    String.raw`${START}(?:(?:on|by|for)\s+)?the\s+(?:(\d{1,2})(?:st|nd|rd|th)|(first|last))(?:\s+(?:day\s+)?of\s+(?:(the|this|next)\s+month))?${END}`,
  ),
  /** "ב-15 לחודש", "ה-1 לחודש הבא", "בראשון לחודש", "ביום האחרון של החודש". */
  heOrdinalDay: rx(
    String.raw`${START}(?:ו?עד\s+)?[ובלמה]{0,3}-?\s*(?:ה-?)?(\d{1,2}|ראשון|אחד|אחרון)\s+[לב]חודש(?:\s+(הבא|הזה|הנוכחי))?${END}|${START}ו?ב?יום\s+ה?אחרון\s+של\s+ה?חודש(?:\s+(הבא|הזה))?${END}`,
  ),
  /** "next week", "this weekend", "end of the month", "end of the week", "next month" and Hebrew. */
  enCalendarWord: rx(
    String.raw`${START}(?:(?:by|on|for|at|over)\s+)?(?:(next|this|the|coming)\s+(week|weekend|month)|(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(week|month))${END}`,
  ),
  heCalendarWord: rx(
    String.raw`${START}(?:ו?עד\s+)?[ובלמ]{0,2}(?:(ה?שבוע\s+ה?בא|ה?חודש\s+ה?בא)|(סוף\s+ה?שבוע(?:\s+ה?(?:זה|קרוב))?|סופ"ש|סופש)|(סוף\s+ה?חודש(?:\s+ה?זה)?))${END}`,
  ),
  /** "ביום שני הראשון של יוני", "ביום ראשון האחרון של החודש (הבא)". */
  heNthWeekday: rx(
    String.raw`${START}ו?ב?יום\s+(${words(HE_WEEKDAYS)})\s+ה(ראשון|שני|שלישי|רביעי|אחרון)\s+(?:של|ב)\s*(?:(ה?חודש(?:\s+ה?זה)?)|(ה?חודש\s+ה?בא)|(${words(HE_MONTHS.keys())})(?:\s+(\d{4}))?)${END}`,
  ),
  /** "July 18" in Hebrew order: "יולי 18", "ביולי 18 2027". */
  heMonthDay: rx(
    String.raw`${START}(?:ו?ב-?)?(${words(HE_MONTHS.keys())})\s+(\d{1,2})(?:\s+(\d{4}))?(?![\p{L}\p{N}:/.])`,
  ),
  /** "רבע לשמונה", "ברבע ל-8", "עשרים אחרי שלוש", "עשרה לחמש", "חמש דקות לשש", "בעשרים לתשע". */
  heMinutesAround: rx(
    String.raw`${START}ו?(?:בשעה\s+|ב-?\s*)?(רבע|חצי|\d{1,2}|${HE_NUMBER_WORDS})\s*(דקות\s+)?(?:(ל)\s*-?\s*|(אחרי)\s+)(\d{1,2}|${words(HE_HOURS.keys())})${END}(?!\s*(?:דקות|שעות|ימים|אנשים))`,
  ),
  /** A Hebrew hour word with its minutes and no "ב": "שמונה ועשרים", "שלוש וחצי בצהריים". */
  heWordClockBare: rx(
    String.raw`${START}(${words(HE_HOURS.keys())})\s+(${words(HE_ALL_MINUTES.keys())})(?:\s+דקות)?${END}`,
  ),
  /** "יום א'", "ביום ב'", "יום ה" (the letters of the Hebrew week, with geresh or apostrophe). */
  heWeekdayLetter: rx(String.raw`${START}[ובל]{0,2}יום\s+([אבגדהוז])'?(?![\p{L}\p{N}])`),
  /** English weekday abbreviations: "Mon", "Tue.", "Thurs", "Fri"; "Sun", "Sat", "Wed" only with a dot or a time. */
  enWeekdayShort: rx(
    String.raw`${START}(?:on\s+)?(?:(next|this|coming)\s+)?(?:(${words(EN_WEEKDAY_ABBREVIATIONS)})\.?|(${words(EN_RARE_WEEKDAY_ABBREVIATIONS)})(?:\.|(?=\s*(?:,\s*)?(?:at\s|@|\d))))(?![\p{L}\p{N}])`,
  ),
  /** An explicit zone after a time: "8am PST", "8:00 GMT", "3pm London time", "at 9 New York time", "שעון ישראל". */
  zone: rx(
    String.raw`${START}(?:(utc|gmt)(?:\s*([+-])\s*(\d{1,2}))?|(${words(ZONE_ABBREVIATIONS)})|(?:in\s+)?(${words(EN_ZONE_PLACES)})\s+time|(?:לפי\s+)?שעון\s+(${words(HE_ZONE_PLACES)}))${END}`,
  ),
  enMonthDay: rx(
    String.raw`${START}(?:on\s+)?(${words(EN_MONTHS.keys())})\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?(?![\p{L}\p{N}:/.])`,
  ),
  enDayMonth: rx(
    String.raw`${START}(?:on\s+)?(?:the\s+)?(\d{1,2}|${words(EN_ORDINAL_DAYS.keys())})(?:st|nd|rd|th)?\s+(?:of\s+)?(${words(EN_MONTHS.keys())})\.?(?:,?\s+(\d{4}))?${END}`,
  ),
  heDayMonth: rx(
    String.raw`(?<![\p{N}/.:])(\d{1,2})\s*(?:[בל]\s*-?\s*)?(${words(HE_MONTHS.keys())})(?:\s+(\d{4}))?${END}`,
  ),
  // A date in digits, "3/4", "15.4", "3/4/2026": day and month cannot be told apart safely (3/4 is
  // 3 April here and March 4 in the US), so the message is not guessed at. Any pair of 1–2 digits
  // counts, so "21.30" (a time written with a dot) and a bare decimal are not guessed at either; a
  // quantity is left alone ("1.5 kg", "3/4 cup", "2.5 ש"ח").
  numericDate: rx(
    String.raw`(?:(?<![\p{L}\p{N}/.:])|(?<=(?<!\p{L})[ובלה]{1,3}))(?:(\d{1,2})/(\d{1,2})(?:/(?:\d{4}|\d{2}))?|(\d{1,2})\.(\d{1,2})(?:\.(?:\d{4}|\d{2}))?)(?![\p{N}])(?![/.:]\p{N})(?!\s*(?:${QUANTITY_UNITS})(?!\p{L}))`,
  ),
  // A day of the month without its month: "on the 10th", "the first of the month", "ב-1 לחודש",
  // "בראשון לחודש" (not Sunday). Read as a time that cannot be told.
  dayOfMonthOnly: rx(
    String.raw`${START}(?:(?:on|by|until|till|from|before|after)\s+the\s+\d{1,2}(?:st|nd|rd|th)(?!\s+(?:day\s+)?of\s+(?:the|this|next|each|every)\s+month)|(?:(?:on|by|until|till|from|before|after)\s+)?(?:the\s+)?(?:\d{1,2}(?:st|nd|rd|th)?|first|last)\s+(?:day\s+)?of\s+(?:the|this|next)\s+month|(?:ו?עד\s+)?[ובלמה]{0,3}-?\s*(?:ה-?)?(?:\d{1,2}|ראשון|אחד|אחרון)\s+[לב]חודש(?:\s+(?:הבא|הזה|הנוכחי))?)${END}`,
  ),
  // A span this parser does not resolve ("next week", "end of the month", "בשבוע הבא"): a clock time
  // beside it must not be read as today.
  vagueSpan: rx(
    String.raw`${START}(?:(?:next|this|coming)\s+(?:week|month|year|weekend)|(?:the\s+)?end\s+of\s+(?:the\s+|this\s+|next\s+)?(?:week|month|year|day)|(?:the|this)\s+weekend|[ובלמ]{0,2}(?:ה?שבוע\s+ה?בא|ה?חודש\s+ה?בא|ה?שנה\s+ה?באה|סוף\s+ה?(?:שבוע|חודש|שנה|יום)|סופ"ש))${END}`,
  ),
  enNoonMidnight: rx(String.raw`${START}(?:at\s+)?(noon|midday|midnight)${END}`),
  heMidnight: rx(String.raw`${START}ו?ב?חצות(?:\s+הלילה)?${END}`),
  enDayWord: rx(
    String.raw`${START}(?:the\s+)?(day\s+after\s+tomorrow|day\s+before\s+yesterday|tomorrow|today|tonight|yesterday|this\s+(?:morning|afternoon|evening))${END}`,
  ),
  heDayWord: rx(String.raw`${START}[ולמ]{0,2}(מחרתיים|מחר|היום|הבוקר|הערב|הלילה|אתמול|שלשום)${END}`),
  /** "now", "right now", "עכשיו": read so that Memo says it must be later, not "not understood". */
  now: rx(String.raw`${START}(?:right\s+)?(?:now|עכשיו|כעת)${END}`),
  /** "at 9.30": a clock time written with a dot, after "at" (a bare "9.30" stays a possible date). */
  enAtDotClock: rx(String.raw`${START}(?:at|@|by)\s*(\d{1,2})\.(\d{2})${END}`),
  /** "3 o'clock", "at 3 oclock", "7 o'clock pm". */
  oclock: rx(String.raw`${START}(?:(?:at|@|by)\s+)?(\d{1,2})\s*o'?clock(?:${MERIDIEM})?${END}`),
  enWeekday: rx(
    String.raw`${START}(?:on\s+)?(?:(next|this|this\s+coming|coming)\s+)?(${words(EN_WEEKDAYS)})${END}`,
  ),
  // A bare weekday word is often something else ("שני" is also "two"), so it needs "יום", a "ב"
  // prefix or "הבא"/"הקרוב" after it; the reader checks which, and looks at the next word.
  heWeekday: rx(
    String.raw`${START}([ובל]{0,2})(?:(יום)\s+)?(${words(HE_WEEKDAYS)})(?:\s+(הבא|הקרוב|הזה))?${END}(?=(?:\s+(\p{L}+))?)`,
  ),
  // "9am", "9:30 pm", "3:15p", "3p", "330 pm", "3.15pm"; a lone "a"/"p" only written onto the number.
  enAmPm: rx(
    String.raw`(?<![\p{L}\p{N}:.])(?:(?:at|by)\s+|@\s*)?(\d{1,2})(?:[:.]?(\d{2}))?${SECONDS}(?:${MERIDIEM}|([ap]))(?!\p{L})`,
  ),
  heWordClock: rx(
    String.raw`${START}${HE_AT}(${words(HE_HOURS.keys())})${HE_WORD_MINUTE_WORDS}${END}${NO_PLURAL_NEXT}${NO_MONEY_NEXT}`,
  ),
  heDigitClock: rx(
    String.raw`${START}${HE_AT}(\d{1,2})(?::(\d{2})${SECONDS})?${HE_MINUTE_WORDS}${TIME_END}${NO_PLURAL_NEXT}`,
  ),
  enAtClock: rx(String.raw`${START}(?:at|@)\s*(\d{1,2})(?::(\d{2})${SECONDS})?(?:\s*o'?clock)?${TIME_END}`),
  colonClock: rx(String.raw`(?<![\p{L}\p{N}:/.])(\d{1,2}):(\d{2})${SECONDS}${TIME_END}`),
  /** "ב-1930", "בשעה 0800", "ל-0800": a 24-hour clock written in four digits after a Hebrew prefix. */
  heCompactClock: rx(
    String.raw`${START}(?:ו?(?:(בשעה)\s*-?\s*|([בל])\s*-?\s*))([01]\d|2[0-3])([0-5]\d)${TIME_END}${NO_PLURAL_NEXT}(?!\s*(?:${QUANTITY_UNITS})(?!\p{L}))`,
  ),
  /**
   * "19.30", "ב-21.15", "בשעה 9.30": a clock written with a dot, read when no date can be meant
   * (no day 19 of month 30, no month 19) or when "בשעה" says it is a time; otherwise numericDate.
   */
  dotClock: rx(
    String.raw`(?:(?<![\p{L}\p{N}/.:])|(?<=(?<!\p{L})[ובלה]{1,3}))(?:(בשעה)\s*-?\s*)?(\d{1,2})\.(\d{2})(?![\p{N}])(?![/.:]\p{N})(?!\s*(?:${QUANTITY_UNITS})(?!\p{L}))`,
  ),
  /** "at the same time", "same time tomorrow", "באותה שעה": the wall time of now on the day named. */
  sameTime: rx(
    String.raw`${START}(?:(?:at|by)\s+)?(?:the\s+)?same\s+time(?:\s+(next\s+week|next\s+month|next\s+year|a\s+week\s+from\s+now))?${END}|${START}ו?ב?(?:אותה\s+(?:ה?שעה)|אותו\s+ה?זמן|שעה\s+זהה)(?:\s+(בשבוע\s+הבא|בחודש\s+הבא|בשנה\s+הבאה))?${END}`,
  ),
  // A bare hour is a time only next to a part of the day: "9 in the evening", "8 בערב".
  periodClock: rx(
    String.raw`(?<![\p{L}\p{N}:/.])(\d{1,2}|${words([...HE_HOURS.keys(), ...EN_HOUR_WORDS.keys()])})(?=\s+(?:in\s+the\s+(?:morning|afternoon|evening)|at\s+night|ו?(?:בבוקר|בצהר|אחה|אחר|בערב|בלילה)))`,
  ),
  heAfternoon: rx(String.raw`${START}ו?ב?(?:אחה"?צ|אחרי?\s+ה?צהרי?ים)${END}`),
  heNoon: rx(String.raw`${START}ו?(ב)?ה?צהרי?ים${END}`),
  heMorning: rx(String.raw`${START}ו?(ב)?בוקר${END}`),
  // "ערב חג", "ערב שבת": the eve of a day, not the evening.
  heEvening: rx(String.raw`${START}ו?(ב)?ערב${END}(?!\s+(?:חג|שבת|פסח|ראש|יום|כיפור|סוכות|שבועות))`),
  heNight: rx(String.raw`${START}ו?(ב)?לילה${END}`),
  enPeriod: rx(String.raw`${START}(in\s+the\s+)?(morning|afternoon|evening)${END}`),
  enNight: rx(String.raw`${START}(at\s+)?night${END}`),
};

// ---------------------------------------------------------------------------------------------
// Normalization
// ---------------------------------------------------------------------------------------------

/** Normalized text, and for each of its UTF-16 units the range of the source it came from. */
export interface NormalizedText {
  /** The message in NFC, as the caller's text is cut from it. */
  source: string;
  /** Lower case, one kind of dash and quote, no invisible format characters, single spaces, trimmed. */
  text: string;
  from: number[];
  to: number[];
}

const APOSTROPHE = /^['\u05f3\u2018\u2019]$/u;
const HEBREW_LETTER = /^[\u05d0-\u05ea]$/u;

/** Normalizes a message for matching while remembering where each character came from. */
export function normalizeText(message: string): NormalizedText {
  const source = message.normalize("NFC");
  let text = "";
  const from: number[] = [];
  const to: number[] = [];
  let index = 0;
  const chars = [...source];
  for (let k = 0; k < chars.length; k++) {
    const char = chars[k]!;
    const start = index;
    index += char.length;
    if (isDroppedAt(source, start)) continue;
    let out: string;
    if (/\s/u.test(char)) {
      if (text === "" || text.endsWith(" ")) continue;
      out = " ";
    } else if (
      APOSTROPHE.test(char) &&
      APOSTROPHE.test(chars[k + 1] ?? "") &&
      HEBREW_LETTER.test(chars[k - 1] ?? "") &&
      HEBREW_LETTER.test(chars[k + 2] ?? "")
    ) {
      // "בכ''ה": two apostrophes between Hebrew letters are a gershayim (״).
      index += chars[k + 1]!.length;
      k++;
      out = '"';
    } else {
      out = char
        .replace(/[\u05be\u2010-\u2015\u2212]/u, "-")
        .replace(/[\u05f4\u201c\u201d]/u, '"')
        .replace(/[\u05f3\u2018\u2019`]/u, "'")
        .toLowerCase();
    }
    for (let i = 0; i < out.length; i++) {
      from.push(start);
      to.push(index);
    }
    text += out;
  }
  if (text.endsWith(" ")) {
    text = text.slice(0, -1);
    from.pop();
    to.pop();
  }
  return { source, text, from, to };
}
