/**
 * The time-bearing words a reading left unread (D10): after every mention and repeat was taken out
 * of the text, any word that still speaks of time means the answer would be partial, so Memo asks
 * instead of storing a guess. Words that are time only next to a number ("to", "past", "half", the
 * three-letter weekdays, "may") count only there, so "remind me to call mom" is plain text.
 *
 * The word lists are the grammar's own tables (timeWords.ts), so a word the grammar reads is never a
 * word this scanner misses. A number left in the text counts as unread when it looks like a clock
 * ("19.30", "ב-1930"), is glued to "ב"/"ל"/"בשעה", or touches the words that were read; it is a
 * quantity or a label and stays in the text when a word it counts follows it ("tomorrow 5 apples",
 * "ב-3 אנשים") or a word it names precedes it ("room 12 tomorrow").
 */
import { HEBREW_MONTH_NAMES } from "./hebrewDateWords.js";
import { holidayTimeWords } from "./holidays.js";
import type { Span } from "./timeMentions.js";
import {
  DAY_WORDS,
  EN_AMOUNT_WORDS,
  EN_HOUR_WORDS,
  EN_MONTHS,
  EN_NUMBER_WORDS,
  EN_RARE_WEEKDAY_ABBREVIATIONS,
  EN_WEEKDAY_ABBREVIATIONS,
  EN_WEEKDAYS,
  EN_ZONE_PLACES,
  HE_HOURS,
  HE_MONTHS,
  HE_NUMBER_WORDS,
  HE_WEEKDAYS,
  HE_ZONE_PLACES,
  ZONE_ABBREVIATIONS,
  words,
} from "./timeWords.js";

const S = String.raw`(?<![\p{L}\p{N}'"])`;
const E = String.raw`(?![\p{L}\p{N}])`;

/** A number said in digits or words (up to fifty-nine), the thing a time word next to it counts. */
const EN_NUMBER = String.raw`(?:\d+(?:[.,:]\d+)?|${words([...EN_AMOUNT_WORDS.keys(), "several", "half", "quarter"])}|${EN_NUMBER_WORDS})`;
const HE_NUMBER = String.raw`(?:\d+|${HE_NUMBER_WORDS}|${words(["רבע", "חצי", "כמה", "מספר"])})`;
const EN_UNIT = String.raw`(?:seconds?|secs?|minutes?|mins?|m|hours?|hrs?|hr|h|days?|weeks?|wks?|months?|years?|yrs?|fortnights?|o'?clock|am|pm|a\.m\.?|p\.m\.?|a|p)`;
const HE_UNIT = String.raw`(?:שניות|שנייה|דקות|דקה|שעות|שעה|ימים|יום|שבועות|שבוע|חודשים|חודש|שנים|שנה)`;
/** Month names that are also English words ("may", "march") or abbreviations count only by a number. */
const EN_MONTH_WORDS_ALSO = new Set(["may", "march", "sept"]);
const EN_MONTHS_FULL = words(
  [...EN_MONTHS.keys()].filter((w) => w.length > 3 && !EN_MONTH_WORDS_ALSO.has(w)),
);
const EN_MONTHS_SHORT = words(EN_MONTHS.keys());
const EN_WEEKDAY_SHORT = words([...EN_WEEKDAY_ABBREVIATIONS, ...EN_RARE_WEEKDAY_ABBREVIATIONS]);
/** Zones and their abbreviations, as said after a time ("8am PST", "3pm London time"). */
const EN_ZONES = String.raw`utc|gmt|${words(ZONE_ABBREVIATIONS)}|\p{L}+\s+time`;
/** The day words of the grammar (DAY_WORDS), English and Hebrew. */
const DAY_WORD = words(DAY_WORDS.keys());
/** English hours in words ("seven"), as the clock grammar reads them. */
const EN_HOUR_WORD = words(EN_HOUR_WORDS.keys());

/** Hebrew hours as words, the target of "רבע ל…", "עשרים אחרי …". */
const HE_HOUR_WORD = String.raw`(?:${words(HE_HOURS.keys())})`;
const HE_HOUR = String.raw`(?:\d{1,2}|${words(HE_HOURS.keys())})`;
/** Money, amounts and units after a number: "ב-10 ש"ח", "20%", "3 ק"ג" are not times. */
const NOT_TIME_AFTER = String.raw`(?!\s*(?:ש"ח|שח|₪|%|\$|€|£|ק"ג|ליטר|שקלים|שקל|דולרים|דולר|יורו|אירו|ל?חודש))`;
/** After a Hebrew number: a plural noun makes it a count of things, not a time ("ב-3 אנשים"). */
const NO_HE_PLURAL = String.raw`(?!\s+[^\sבלו\d]\p{L}*(?:ים|ות)(?![\p{L}\p{N}]))`;

const { afterDayOnly } = HEBREW_MONTH_NAMES;
/** After "ב" these month names are everyday words ("באב", in a father; "בשבט", in a tribe). */
const HE_MONTH_WORDS = new Set(["אב", "שבט"]);
/** The date grammar's month names in `language` that `keep` keeps, as an alternation. */
function monthNames(language: "he" | "en", keep: (name: string, month: number | "adar1") => boolean): string {
  return HEBREW_MONTH_NAMES[language]
    .filter(([name, month]) => keep(name, month))
    .map(([name]) => name)
    .join("|");
}

const PATTERNS: RegExp[] = [
  // English day words and calendar words.
  new RegExp(
    String.raw`${S}(?:today|tomorrow|tmrw|tmr|tomorow|tommorow|2moro|yesterday|tonight|tonite|noon|midnight|midday|now|asap|weekend|fortnight|eod|eow|eom|later|soon|shortly|hence)${E}`,
    "giu",
  ),
  new RegExp(
    String.raw`${S}(?:next|this|last|coming|following|end\s+of(?:\s+the)?|beginning\s+of(?:\s+the)?|start\s+of(?:\s+the)?)\s+(?:week|month|year|weekend|${words(EN_WEEKDAYS)})${E}`,
    "giu",
  ),
  new RegExp(String.raw`${S}(?:${DAY_WORD})${E}`, "giu"),
  new RegExp(String.raw`${S}from\s+now${E}`, "giu"),
  // Weekdays and their abbreviations, months ("may" and "march" only next to a number).
  new RegExp(String.raw`${S}(?:${words(EN_WEEKDAYS)})s?${E}`, "giu"),
  new RegExp(String.raw`${S}(?:${EN_WEEKDAY_SHORT})(?:\.|${E}(?=\s*(?:\d|at\s|@|,\s*\d)))`, "giu"),
  new RegExp(String.raw`${S}(?:${EN_MONTHS_FULL})${E}`, "giu"),
  new RegExp(
    String.raw`${S}(?:(?:${EN_MONTHS_SHORT})\.?\s+(?:the\s+)?\d{1,2}${E}|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:${EN_MONTHS_SHORT})${E})`,
    "giu",
  ),
  // Parts of the day, unless in a greeting ("good morning") or an event's name ("movie night").
  new RegExp(
    String.raw`(?<!(?:good|date|movie|game|poker|quiz|pizza|family|girls|boys|opening|party)\s)${S}(?:morning|afternoon|evening|night|dawn|dusk|sunrise|sunset|lunchtime|bedtime)s?${E}`,
    "giu",
  ),
  // A number next to a unit or clock word: "5 minutes", "in 3 days", "3pm", "8 o'clock", "15h30", "3p".
  new RegExp(String.raw`${S}${EN_NUMBER}\s*-?\s*(?:more\s+)?${EN_UNIT}${E}`, "giu"),
  new RegExp(String.raw`${S}\d{1,4}\s*(?:[ap]|h\d{0,2}|m)${E}`, "giu"),
  // A clock shape: "9:30", "at 1530", "at 9", "@9", "by 5pm".
  new RegExp(String.raw`(?<![\p{L}\p{N}:])\d{1,2}:\d{2}${E}`, "gu"),
  new RegExp(
    String.raw`${S}(?:at|@)\s*(?!\d[\d-]*-\d{3})(?:\d+|${EN_NUMBER}${E})(?!\s*(?:dollars?|bucks|euros?|shekels?|nis|usd|%|\$|€|£|₪))`,
    "giu",
  ),
  new RegExp(
    String.raw`${S}(?:by|before|after|around|about|from|till|until|til|past)\s+\d{1,4}(?:[:.]\d{2})?(?=\s*(?:$|[,.!?;]|am|pm|a\.m|p\.m|o'?clock|today|tomorrow|tonight|on|in\s+the|and|or|to|-))`,
    "giu",
  ),
  // Minutes around an hour: "half past", "quarter to", "ten past 3", "20 to 8".
  new RegExp(String.raw`${S}(?:half|quarter)\s+(?:past|to|after|till|til|of|before)${E}`, "giu"),
  new RegExp(
    String.raw`${S}${EN_NUMBER}\s+(?:minutes?\s+)?(?:past|to|after|till|til|before)\s+(?:\d|${EN_NUMBER}${E}|noon|midnight)`,
    "giu",
  ),
  // Ordinals as dates ("on the 15th", "the 3rd of"), amounts ("in a few", "in 2").
  new RegExp(
    String.raw`${S}\d{1,2}(?:st|nd|rd|th)(?=\s*(?:$|[,.!?;]|of${E}|at${E}|@|in\s+the|by${E}|and\s+\d))`,
    "giu",
  ),
  new RegExp(String.raw`${S}in\s+(?:a\s+|an\s+)?${EN_NUMBER}${E}`, "giu"),
  // Times by what happens then, vague times and ranges: "after lunch", "at the usual time", "sometime",
  // "between 3 and 5", "in a day or two".
  new RegExp(
    String.raw`${S}(?:(?:before|after|around|by|at|during|over)\s+(?:the\s+|my\s+)?(?:breakfast|lunch|dinner|supper|brunch|work|school|class|practice|the\s+meeting|sunset|sunrise|dark)|(?:at|by)\s+(?:the\s+)?(?:usual|same|regular|normal|right|proper|agreed)\s+time|some\s*time|sometimes?|between\s+(?:${EN_NUMBER}|\|)|(?:around|about|approximately|approx\.?|roughly|circa|~)\s*(?:\d|${EN_NUMBER}${E})|or\s+(?:\d|${EN_NUMBER}${E})|except|excluding|but\s+not|other\s+than|apart\s+from|or\s+(?:two|three|so)\s+(?:days?|hours?|weeks?|minutes?)?|or\s+so|ish)${E}`,
    "giu",
  ),
  // Zones: "UTC+2", "London time", "PST" after a time.
  new RegExp(String.raw`${S}(?:utc|gmt)(?:\s*[+-]\s*\d{1,2})?${E}`, "giu"),
  new RegExp(String.raw`(?<=(?:\d|am|pm|\|)\s*)(?:${EN_ZONES})${E}`, "giu"),
  new RegExp(
    String.raw`${S}(?:${words([...EN_ZONE_PLACES, "us", "local"])})\s+time${E}|(?<![\p{L}\p{N}])(?:לפי\s+)?שעון\s+(?:${words(HE_ZONE_PLACES)})${E}`,
    "giu",
  ),

  // A number, an hour word or a weekday name right beside words that were read ("מחר שמונה",
  // "רביעי ב-10", "tomorrow seven"): part of the time, not understood.
  new RegExp(
    String.raw`(?<=\|\s*)(?:${HE_HOUR_WORD}|${words(HE_WEEKDAYS)}|${EN_HOUR_WORD}|week|weeks)${E}|(?<![\p{L}\p{N}])(?:${HE_HOUR_WORD}|${words(HE_WEEKDAYS)}|${EN_HOUR_WORD})(?=\s*\|)`,
    "giu",
  ),
  // "am"/"pm" (however spelled) or "o'clock" left beside a clock that was read: "7 o'clock | pm".
  new RegExp(String.raw`(?<=\|\s*)(?:[ap]\.?\s?m\.?|o'?clock)(?![\p{L}\p{N}])`, "giu"),
  // Numbers: one that touches the words read is part of the time, unless a word it counts follows
  // it ("tomorrow 5 apples") or a word it names precedes it ("room 12 tomorrow").
  new RegExp(
    String.raw`(?<=\|[\s,]*)\d[\d.:]*(?![\p{L}\p{N}])(?!\s*[\p{L}₪$€£%])|(?<!\p{L}[\s,]*)(?<![\p{L}\p{N}.:/-])\d[\d.:]*(?=[\s,]*\|)`,
    "gu",
  ),
  // Offsets from a named day, repeat limits, halves: "a week from Friday", "Friday week", "the
  // Friday after next", "for a week", "twice", "במשך שבוע", "ויום", "and a half".
  new RegExp(
    String.raw`${S}(?:(?:a|an|one|\d+)\s+(?:days?|weeks?|months?|hours?)\s+(?:from|after|before|later)|after\s+next|(?:${words(EN_WEEKDAYS)})\s+week|the\s+day\s+(?:after|before)|for\s+(?:a|an|one|the\s+next|\d+)\s+(?:days?|weeks?|months?|years?)|twice|thrice|(?:\d+|two|three|four|five)\s+times|and\s+a\s+half|from\s+\d{1,2}\s+(?:to|till|until)\s+\d{1,2})${E}`,
    "giu",
  ),
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])(?:במשך|למשך|פעמיים|(?:אחרי|לפני)\s+(?:יום|ה?שבת)|ו(?:יום|שעה|דקה|שבוע|חודש))${E}`,
    "gu",
  ),
  // Hebrew day words and parts of the day (not in greetings or meals: "בוקר טוב", "ארוחת ערב").
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])[ולמבה]{0,3}(?:היום|מחרתיים|מחר|אתמול|שלשום|הערב|הלילה|הבוקר|עכשיו|כעת|סופ"ש|סופש|אחה"צ|אחהצ|חצות|שבוע\s+ה?בא|חודש\s+ה?בא|שנה\s+ה?באה|סוף\s+ה?(?:שבוע|חודש|שנה|יום)|תחילת\s+ה?(?:שבוע|חודש|שנה))${E}`,
    "gu",
  ),
  new RegExp(
    String.raw`(?<!ארוחת\s+)(?<![\p{L}\p{N}])[ולמבה]{0,3}(?:צהריים|צהרים|בוקר|ערב|לילה)${E}(?!\s+(?:טוב|טובים|שלום))`,
    "gu",
  ),
  // Hebrew weekdays: "יום שני", "ביום ג׳", "בשבת"; "שני" and "ראשון" alone are numbers.
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])[ולמבה]{0,3}יום\s+(?:${words(HE_WEEKDAYS)}|[אבגדהוז]'|[אבגדהוז](?![\p{L}\p{N}]))`,
    "gu",
  ),
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])ו?[במ]שבת${E}(?!\s+שלום)|(?<![\p{L}\p{N}])ו?ב(?:שלישי|רביעי|חמישי|שישי)${E}`,
    "gu",
  ),
  // Hebrew months: with "ב" or next to a number ("יוני" and "יולי" are also names: only by a number).
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])\d{1,2}\s*(?:[בל]\s*-?\s*)?(?:${words(HE_MONTHS.keys())})${E}|(?<![\p{L}\p{N}])(?:${words(HE_MONTHS.keys())})\s+\d{1,4}${E}|(?<![\p{L}\p{N}])ו?[בל]-?(?:${words([...HE_MONTHS.keys()].filter((m) => m !== "יוני" && m !== "יולי"))})${E}`,
    "gu",
  ),
  // A number next to a unit, dual forms, "בעוד", "בשעה", "שעון ישראל".
  new RegExp(String.raw`(?<![\p{L}\p{N}])[ובל]?${HE_NUMBER}\s*-?\s*${HE_UNIT}${E}`, "gu"),
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])[ולמבה]{0,3}(?:שעתיים|יומיים|שבועיים|חודשיים|שנתיים|דקותיים|בעוד|בשעה|שעון)${E}`,
    "gu",
  ),
  // Minutes around a Hebrew hour: "רבע לשמונה", "עשרים אחרי שלוש", "שמונה פחות רבע", "ועשרים".
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])[וב]?${HE_NUMBER}\s+(?:דקות\s+)?(?:ל-?\s*${HE_HOUR}|אחרי\s+${HE_HOUR}|לפני\s+${HE_HOUR})${E}`,
    "gu",
  ),
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])(?:פחות\s+${HE_NUMBER}|ו(?:חצי|רבע|חמישה?|עשרה?|עשרים|שלושים|ארבעים|חמישים))${E}`,
    "gu",
  ),
  // Vague Hebrew times and ranges: "מתישהו", "אחרי ארוחת הצהריים", "בין 3 ל-5", "בשעה הרגילה".
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])(?:מתישהו|בערך|חוץ|מלבד|לא\s+כולל|בסביבות|סביב|(?:אחרי|לפני|אחר)\s+ה\p{L}+|או\s+(?:\d|${HE_NUMBER})|(?:לפני|אחרי|אחר|במהלך)\s+(?:ה)?(?:ארוחת|העבודה|עבודה|בית\s+ספר|הלימודים|האימון|השקיעה|הזריחה|החשיכה)|בין\s+(?:${HE_NUMBER}|\|)|בשעה\s+ה(?:רגילה|קבועה)|או\s+(?:שניים|שתיים|יומיים|שלושה))${E}`,
    "gu",
  ),
  // A Hebrew ordinal weekday of a month: "יום שני הראשון של יוני".
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])ה(?:ראשון|שני|שלישי|רביעי|אחרון)\s+(?:של|ב)\s*ה?(?:חודש|\p{L}+)${E}`,
    "gu",
  ),
  // "ב-8", "בשמונה", "ב-1930", "ל-0800", "בשעה 19.30" left unread.
  new RegExp(
    String.raw`(?<![\p{L}\p{N}])ו?ב-?\s*${HE_HOUR}${E}${NOT_TIME_AFTER}${NO_HE_PLURAL}|(?<![\p{L}\p{N}])ו?(?:בשעה\s*-?\s*|[בל]-?\s*)\d{1,4}(?:[:.]\d{2}){0,2}(?![\p{N}])(?!-\d)${E}${NOT_TIME_AFTER}${NO_HE_PLURAL}`,
    "gu",
  ),
  new RegExp(String.raw`(?<![\p{L}\p{N}])(?:ב|ה|ל)-?\d{1,2}\s+(?:ל|ב)?חודש${E}`, "gu"),
  // Hebrew months said as a time ("in Nisan", "בניסן", "לניסן"; "Sivan" and "לסיוון" alone may be a
  // person: after a number only, "3 לסיוון").
  new RegExp(
    String.raw`${S}(?:in|during|by|until|till)\s+(?:${monthNames("en", () => true)})${E}|(?<![\p{L}\p{N}])ו?ב-?(?:${monthNames("he", (name) => !HE_MONTH_WORDS.has(name))})${E}|(?<![\p{L}\p{N}])ו?ל-?(?:${monthNames("he", (_, month) => !afterDayOnly.has(month))})${E}|(?<![\p{L}\p{N}])\d{1,2}\s*ל-?(?:${monthNames("he", (_, month) => afterDayOnly.has(month))})${E}`,
    "giu",
  ),
];

/** The spans of `maskedText` (the scanner's text after every mention was masked) that still name time. */
export function unreadTimeWords(maskedText: string): Span[] {
  // Holidays said as times, by the parser's own table and position test: a name left over was not
  // read whole; one said as content ("for Pesach", "a Christmas tree") is no time word.
  const found: Span[] = holidayTimeWords(maskedText);
  for (const pattern of PATTERNS) {
    for (const m of maskedText.matchAll(pattern)) {
      const start = m.index ?? 0;
      if (m[0].length > 0) found.push({ start, end: start + m[0].length });
    }
  }
  // Overlapping and neighbouring words are one phrase: "בעוד מספר דקות", "בשעה הרגילה".
  const spans: Span[] = [];
  for (const span of found.sort((a, b) => a.start - b.start)) {
    const last = spans.at(-1);
    if (last && /^[\s,]*$/u.test(maskedText.slice(last.end, Math.max(last.end, span.start))))
      last.end = Math.max(last.end, span.end);
    else spans.push({ ...span });
  }
  return spans;
}
