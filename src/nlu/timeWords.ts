/**
 * The words of time in Hebrew and English: vocabulary, patterns and text normalization, shared by
 * resolveWhen (a phrase) and parseTime (a whole message). \b does not see Hebrew letters, so word
 * edges are explicit Unicode lookarounds.
 */

export type Period = "morning" | "noon" | "afternoon" | "evening" | "night";

/** A clock time as said: certain 24h, am, pm, open (1–12 with no am/pm) or midnight. */
export interface Clock {
  hour: number;
  minute: number;
  kind: "exact" | "am" | "pm" | "open" | "midnight";
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

// prettier-ignore
export const EN_COUNTS = new Map([
  ["a", 1], ["an", 1], ["one", 1], ["two", 2], ["three", 3], ["four", 4], ["five", 5], ["six", 6],
  ["seven", 7], ["eight", 8], ["nine", 9], ["ten", 10], ["eleven", 11], ["twelve", 12], ["fifteen", 15],
  ["twenty", 20], ["thirty", 30], ["forty", 40], ["forty-five", 45], ["fifty", 50],
]);

/** Hebrew hours on the clock (feminine, as hours are said): "בשמונה", "באחת עשרה". */
// prettier-ignore
export const HE_HOURS = new Map([
  ["אחת", 1], ["שתיים", 2], ["שתים", 2], ["שלוש", 3], ["ארבע", 4], ["חמש", 5], ["שש", 6], ["שבע", 7],
  ["שמונה", 8], ["תשע", 9], ["עשר", 10], ["אחת עשרה", 11], ["שתים עשרה", 12], ["שתיים עשרה", 12],
]);

/** Hebrew counts of units, both genders: "חמש דקות", "שלושה ימים". */
// prettier-ignore
export const HE_COUNTS = new Map([
  ...HE_HOURS,
  ["אחד", 1], ["שתי", 2], ["שני", 2], ["שלושה", 3], ["ארבעה", 4], ["חמישה", 5], ["שישה", 6], ["שבעה", 7],
  ["תשעה", 9], ["עשרה", 10], ["עשרים", 20], ["שלושים", 30], ["ארבעים", 40], ["חמישים", 50],
]);

/** Hebrew amounts said in one word or phrase: "שעתיים", "רבע שעה", "שבועיים". */
// prettier-ignore
export const HE_AMOUNTS = new Map<string, Relative>([
  ["דקה", duration(1)], ["דקותיים", duration(2)], ["רבע שעה", duration(15)], ["חצי שעה", duration(30)],
  ["שלושת רבעי שעה", duration(45)], ["שעה", duration(60)], ["שעה ורבע", duration(75)],
  ["שעה וחצי", duration(90)], ["שעתיים", duration(120)],
  ["יום", calendar(1, 0)], ["יומיים", calendar(2, 0)], ["שבוע", calendar(7, 0)], ["שבועיים", calendar(14, 0)],
  ["חודש", calendar(0, 1)], ["חודשיים", calendar(0, 2)],
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
]);

/**
 * Minutes said after a Hebrew hour: "שבע ועשרים" (7:20), "שמונה וחצי", "תשע ועשר דקות"; the tens
 * are also said without "ו" ("שבע ארבעים", 7:40).
 */
// prettier-ignore
export const HE_MINUTES = new Map([
  ["וחמש", 5], ["וחמישה", 5], ["ועשר", 10], ["ועשרה", 10], ["ורבע", 15], ["ועשרים", 20], ["עשרים", 20],
  ["ועשרים וחמש", 25], ["ועשרים וחמישה", 25], ["וחצי", 30], ["ושלושים", 30], ["שלושים", 30],
  ["ושלושים וחמש", 35], ["ושלושים וחמישה", 35], ["וארבעים", 40], ["ארבעים", 40],
  ["וארבעים וחמש", 45], ["וארבעים וחמישה", 45], ["וחמישים", 50], ["חמישים", 50],
  ["וחמישים וחמש", 55], ["וחמישים וחמישה", 55],
]);

/** Minutes before a Hebrew hour: "שמונה פחות רבע" is 7:45. */
// prettier-ignore
export const HE_MINUTES_TO = new Map([
  ["פחות חמש", 5], ["פחות חמישה", 5], ["פחות עשר", 10], ["פחות עשרה", 10], ["פחות רבע", 15],
  ["פחות עשרים", 20], ["פחות עשרים וחמש", 25], ["פחות עשרים וחמישה", 25],
]);

/** "3", "three", "שלושה" → 3. */
export function countOf(word: string): number | null {
  if (/^\d/u.test(word)) return Number(word);
  return EN_COUNTS.get(word) ?? HE_COUNTS.get(word.replace(/[\s-]+/gu, " ")) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------------------------

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
const TIME_END = String.raw`(?![\p{L}\p{N}])(?![/.,:]\p{N})(?!\s*-?\s*[בל]?-?(?:${COUNT_UNITS})(?!\p{L}))(?!\s*%)${NO_MONEY_NEXT}`;
/** Amounts a decimal like 1.5 or a fraction like 3/4 is a quantity of, not a date. */
const QUANTITY_UNITS = String.raw`${CURRENCY}|%|kg|kilos?|g|gr|grams?|l|lt|liters?|litres?|ml|km|m|cm|cups?|ק"ג|קג|קילו|גרם|ליטר|ליטרים|מ"ל|ק"מ|מטר|כוס|כוסות|אחוז`;
/** Minutes said after a Hebrew hour, or before it ("פחות רבע"). */
const HE_MINUTE_WORDS = String.raw`(?:\s+(${words([...HE_MINUTES.keys(), ...HE_MINUTES_TO.keys()])})(?:\s+דקות)?)?`;
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

const EN_UNIT = String.raw`minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?`;
const HE_UNIT = String.raw`דקות|דקה|שעות|שעה|ימים|יום|שבועות|שבוע|חודשים|חודש`;

/** The mention patterns, in the order the scanner tries them. */
export const PATTERNS = {
  isoDateTime: rx(
    String.raw`(?<![\p{N}-])(\d{4})-(\d{2})-(\d{2})[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(z|[+-]\d{2}(?::?\d{2})?)?(?![\p{N}:])`,
  ),
  isoDate: rx(String.raw`(?<![\p{N}-])(\d{4})-(\d{2})-(\d{2})(?![\p{N}-])`),
  enRelative: rx(
    String.raw`${START}in\s+(?:(\d+(?:\.\d+)?)\s*|(${words(EN_COUNTS.keys())})\s+)(${EN_UNIT})(\s+and\s+a\s+half)?${END}`,
  ),
  enHalfHour: rx(String.raw`${START}in\s+(?:half\s+an?|a\s+half)\s+hour${END}`),
  enQuarterHour: rx(String.raw`${START}in\s+(?:a\s+)?quarter\s+(?:of\s+an?\s+)?hour${END}`),
  heRelative: rx(
    String.raw`${START}ו?ב?עוד\s+(?:(\d+(?:\.\d+)?|${words(HE_COUNTS.keys())})\s*-?\s*(${HE_UNIT})(\s+וחצי)?|(${words(HE_AMOUNTS.keys())}))${END}`,
  ),
  enMonthDay: rx(
    String.raw`${START}(?:on\s+)?(${words(EN_MONTHS.keys())})\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?(?![\p{L}\p{N}:/.])`,
  ),
  enDayMonth: rx(
    String.raw`${START}(?:on\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(${words(EN_MONTHS.keys())})\.?(?:,?\s+(\d{4}))?${END}`,
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
    String.raw`${START}(?:the\s+)?(day\s+after\s+tomorrow|tomorrow|today|tonight|this\s+(?:morning|afternoon|evening))${END}`,
  ),
  heDayWord: rx(String.raw`${START}[ולמ]{0,2}(מחרתיים|מחר|היום|הבוקר|הערב|הלילה)${END}`),
  enWeekday: rx(
    String.raw`${START}(?:on\s+)?(?:(next|this|this\s+coming|coming)\s+)?(${words(EN_WEEKDAYS)})${END}`,
  ),
  // A bare weekday word is often something else ("שני" is also "two"), so it needs "יום", a "ב"
  // prefix or "הבא"/"הקרוב" after it; the reader checks which, and looks at the next word.
  heWeekday: rx(
    String.raw`${START}([ובל]{0,2})(?:(יום)\s+)?(${words(HE_WEEKDAYS)})(?:\s+(הבא|הקרוב|הזה))?${END}(?=(?:\s+(\p{L}+))?)`,
  ),
  enAmPm: rx(String.raw`(?<![\p{L}\p{N}:.])(?:at\s+|@\s*)?(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?(?!\p{L})`),
  heWordClock: rx(
    String.raw`${START}${HE_AT}(${words(HE_HOURS.keys())})${HE_MINUTE_WORDS}${END}${NO_PLURAL_NEXT}${NO_MONEY_NEXT}`,
  ),
  heDigitClock: rx(
    String.raw`${START}${HE_AT}(\d{1,2})(?::(\d{2}))?${HE_MINUTE_WORDS}${TIME_END}${NO_PLURAL_NEXT}`,
  ),
  enAtClock: rx(String.raw`${START}(?:at|@)\s*(\d{1,2})(?::(\d{2}))?(?:\s*o'?clock)?${TIME_END}`),
  colonClock: rx(String.raw`(?<![\p{L}\p{N}:/.])(\d{1,2}):(\d{2})${TIME_END}`),
  // A bare hour is a time only next to a part of the day: "9 in the evening", "8 בערב".
  periodClock: rx(
    String.raw`(?<![\p{L}\p{N}:/.])(\d{1,2})(?=\s+(?:in\s+the\s+(?:morning|afternoon|evening)|at\s+night|ו?(?:בבוקר|בצהר|אחה|אחר|בערב|בלילה)))`,
  ),
  heAfternoon: rx(String.raw`${START}ו?ב?(?:אחה"?צ|אחרי?\s+ה?צהרי?ים)${END}`),
  heNoon: rx(String.raw`${START}ו?(ב)?ה?צהרי?ים${END}`),
  heMorning: rx(String.raw`${START}ו?(ב)?בוקר${END}`),
  heEvening: rx(String.raw`${START}ו?(ב)?ערב${END}`),
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
  /** Lower case, one kind of dash and quote, no bidi marks, single spaces, trimmed. */
  text: string;
  from: number[];
  to: number[];
}

const BIDI_MARK = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** Normalizes a message for matching while remembering where each character came from. */
export function normalizeText(message: string): NormalizedText {
  const source = message.normalize("NFC");
  let text = "";
  const from: number[] = [];
  const to: number[] = [];
  let index = 0;
  for (const char of source) {
    const start = index;
    index += char.length;
    if (BIDI_MARK.test(char)) continue;
    let out: string;
    if (/\s/u.test(char)) {
      if (text === "" || text.endsWith(" ")) continue;
      out = " ";
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
