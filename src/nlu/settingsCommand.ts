/**
 * The scheduler's settings in chat, in English and Hebrew, recognised without the LLM: the morning
 * digest off, on or at another time ("stop the morning summary", "send the digest at 7:30",
 * "תפסיק את סיכום הבוקר", "שלח את סיכום הבוקר ב-7:30") and quiet hours ("quiet hours 22:00-07:00",
 * "no quiet hours", "שעות שקט 22-7"), Shabbat and holiday quiet ("quiet on Shabbat in Haifa",
 * "שקט בשבת ובחגים", "stop Shabbat quiet"), the holiday calendar ("use the diaspora holiday
 * calendar", "תשתמש בלוח החגים של ישראל") and the weekly review: shown now ("weekly review", "סיכום
 * שבועי"), on, off, or on a day and time ("weekly review on Friday at 14:00", "סיכום שבועי ביום
 * שישי ב-14:00"), and answers by voice ("answer me by voice", "stop voice answers", "תענה לי בקול",
 * "תפסיק לענות בקול", "voice answers?"). Patterns are anchored to the whole message, so a request that
 * merely mentions a summary ("summarize my notes") is left to the planner.
 */

import { restCity } from "./restWindows.js";
import {
  dayIndex,
  EN_RARE_WEEKDAY_ABBREVIATIONS,
  EN_WEEKDAY_ABBREVIATIONS,
  EN_WEEKDAYS,
  HE_WEEKDAYS,
  words,
} from "./timeWords.js";

export type SettingsCommand =
  | { kind: "digestOff" }
  | { kind: "digestOn" }
  | { kind: "digestAt"; time: string }
  | { kind: "quietHours"; start: string; end: string }
  | { kind: "quietOff" }
  | { kind: "quietShow" }
  /** Shabbat and holiday quiet on, in a city as the user named it (null: the one set, else the zone's). */
  | { kind: "sabbathOn"; city: string | null }
  | { kind: "sabbathOff" }
  | { kind: "sabbathShow" }
  /** Which holiday calendar the user keeps (the second days of yom tov abroad). */
  | { kind: "calendarSchedule"; schedule: "israel" | "diaspora" }
  | { kind: "weeklyShow" }
  | { kind: "weeklyOn" }
  | { kind: "weeklyOff" }
  /** `time` null: the day only, at the time already set; `day` null: the time only, on the day already set. */
  | { kind: "weeklyAt"; day: number | null; time: string | null }
  /** A bare hour 1–6 ("at 2"): 02:00 or 14:00 is not told; nothing is changed (D10). */
  | { kind: "weeklyHourUnclear"; hour: number }
  /** "answer me by voice" / "תענה לי בקול": every reply as a voice note (and its text where needed). */
  | { kind: "voiceOn" }
  | { kind: "voiceOff" }
  | { kind: "voiceShow" };

/** Longest message read as a settings command. */
const MAX_LENGTH = 120;

const HE_END = String.raw`(?=$|[\s,.:;!?\-–—])`;
const EN_LEAD = String.raw`(?:(?:hi|hey|ok|okay|so|please|pls|thanks|thank\s+you|memo|also|and|now|can\s+you|could\s+you|would\s+you|i\s+want\s+(?:you\s+)?to|i'd\s+like\s+(?:you\s+)?to)[\s,!.:]+)*`;
const HE_LEAD = String.raw`(?:(?:היי|אוקיי|אוקי|טוב|בבקשה|ממו|גם|עכשיו|אפשר|תוכל|תוכלי|אני\s+רוצה\s+ש?|רוצה\s+ש?)${HE_END}[\s,!.:]*)*`;
/** A request may end as a question ("can you stop the morning summary?"). */
const TAIL = String.raw`(?:\s*,?\s+(?:please|thanks|thank\s+you|בבקשה|תודה))?\s*[.!?]*\s*$`;

/** Only what is plainly this feature: a morning or daily summary, or a digest ("send me the summary" may ask for something else). */
const EN_NAMED_DIGEST = String.raw`(?:(?:the|my|your|this)\s+)?(?:(?:daily\s+|morning\s+|daily\s+morning\s+)(?:summary|summaries|digest|digests|brief|briefing|briefings|brief\s+messages?)|digests?)`;
/** Only a morning or daily summary ("בטל את העדכון", "תשלח לי עדכון ב-5" may be about anything). */
const HE_DIGEST = String.raw`(?:את\s+)?(?:ה)?(?:סיכום|סיכומי|תקציר|תדריך|עדכון)(?:\s+(?:ה)?בוקר(?:\s+(?:ה)?יומי)?|\s+(?:ה)?יומי)(?:\s+שלי)?`;
/** "7", "07:30", "7.30", "7am", "19:00" — captured as one group. */
const CLOCK = String.raw`(\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?)`;

const DIGEST_OFF = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:stop|disable|turn\s+off|switch\s+off|cancel|pause|mute|unsubscribe\s+from|no\s+more|don'?t\s+send(?:\s+me)?(?:\s+any(?:\s+more)?)?)\s+(?:sending\s+(?:me\s+)?)?${EN_NAMED_DIGEST}(?:\s+(?:any\s*more|anymore))?${TAIL}`,
    "iu",
  ),
  new RegExp(String.raw`^${EN_LEAD}${EN_NAMED_DIGEST}\s+off${TAIL}`, "iu"),
  new RegExp(
    String.raw`^${HE_LEAD}(?:תפסיק|תפסיקי|הפסק|הפסיקי|להפסיק|בטל|בטלי|תבטל|תבטלי|לבטל|כבה|כבי|תכבה|תכבי|לכבות|די\s+עם|בלי|לא\s+צריך|לא\s+רוצה|אל\s+תשלח|אל\s+תשלחי)\s+(?:לי\s+)?(?:לשלוח\s+(?:לי\s+)?)?${HE_DIGEST}(?:\s+יותר)?${TAIL}`,
    "u",
  ),
];

const DIGEST_ON = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:start|enable|turn\s+on|switch\s+on|resume|restart|bring\s+back)\s+(?:sending\s+(?:me\s+)?)?${EN_NAMED_DIGEST}(?:\s+again)?${TAIL}`,
    "iu",
  ),
  new RegExp(String.raw`^${EN_LEAD}send\s+me\s+${EN_NAMED_DIGEST}(?:\s+again)?${TAIL}`, "iu"),
  new RegExp(String.raw`^${EN_LEAD}${EN_NAMED_DIGEST}\s+on${TAIL}`, "iu"),
  new RegExp(
    String.raw`^${HE_LEAD}(?:תפעיל|תפעילי|הפעל|הפעילי|להפעיל|תחזיר|תחזירי|החזר|החזירי|להחזיר|תדליק|תדליקי|הדלק)\s+(?:לי\s+)?${HE_DIGEST}(?:\s+שוב)?${TAIL}`,
    "u",
  ),
];

const DIGEST_AT = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:(?:send|move|set|change|schedule|put|make|give)\s+(?:me\s+)?)?${EN_NAMED_DIGEST}\s+(?:to\s+(?:be\s+)?(?:at\s+)?|at\s+|for\s+|to\s+come\s+at\s+)?${CLOCK}(?:\s+(?:every\s+day|each\s+day|daily|instead))?${TAIL}`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:תשלח|תשלחי|שלח|שלחי|לשלוח|תעביר|תעבירי|העבר|להעביר|תזיז|תזיזי|הזז|להזיז|קבע|קבעי|תקבע|לקבוע)\s+(?:לי\s+)?)?${HE_DIGEST}\s+(?:(?:כל\s+יום|כל\s+בוקר)\s+)?(?:ב|ל|לשעה|בשעה)[-־]?\s*(?:שעה\s+)?${CLOCK}(?:\s+(?:כל\s+יום|כל\s+בוקר|במקום))?${TAIL}`,
    "u",
  ),
];

const QUIET_SET = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:set\s+|make\s+)?(?:my\s+)?quiet\s+(?:hours|time)\s*(?:to\s+|are\s+|is\s+|:|=)?\s*(?:from\s+)?${CLOCK}\s*(?:-|–|—|to|until|till)\s*${CLOCK}${TAIL}`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:תגדיר|תגדירי|הגדר|להגדיר|קבע|תקבע)\s+(?:לי\s+)?)?(?:ה)?שעות\s+(?:ה)?שקט(?:\s+שלי)?\s*(?::|=|-)?\s*(?:(?:הן|יהיו)\s+)?(?:מ[-־]?\s*|בין\s+)?${CLOCK}\s*(?:-|–|—|עד|ל[-־]?|ו[-־]?)\s*(?:ל[-־]?\s*)?${CLOCK}${TAIL}`,
    "u",
  ),
];

const QUIET_OFF = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:(?:turn\s+off|disable|remove|cancel|clear|delete|stop)\s+(?:my\s+|the\s+)?quiet\s+(?:hours|time)|no\s+(?:more\s+)?quiet\s+(?:hours|time)|quiet\s+(?:hours|time)\s+off)${TAIL}`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:בטל|תבטל|תבטלי|לבטל|הסר|תסיר|תסירי|להסיר|כבה|תכבה|לכבות)\s+(?:את\s+)?(?:ה)?שעות\s+(?:ה)?שקט(?:\s+שלי)?|בלי\s+שעות\s+שקט)${TAIL}`,
    "u",
  ),
];

const QUIET_SHOW = [
  new RegExp(String.raw`^${EN_LEAD}(?:what\s+are\s+)?my\s+quiet\s+hours\s*\??\s*$`, "iu"),
  new RegExp(String.raw`^${HE_LEAD}(?:מה\s+)?(?:ה)?שעות\s+(?:ה)?שקט\s+שלי\s*\??\s*$`, "u"),
];

const SHABBAT = String.raw`(?:shabbat|shabbos|shabat|sabbath|the\s+sabbath)`;
const HOLIDAYS = String.raw`(?:\s+(?:and|&|\+)\s+(?:on\s+|during\s+)?(?:the\s+)?(?:jewish\s+)?(?:holidays|holy\s+days|chagim|yom\s+tov|yamim\s+tovim))?`;
/**
 * "in Haifa", "in New York": a city only after "in" ("at home", "for the kids" are not cities, and
 * the message is then not this command); checked against hebcal's cities by the settings.
 */
const EN_CITY = String.raw`(?:\s+in\s+([a-z][a-z .'-]{1,40}?))?`;
const HE_SHABBAT = String.raw`(?:ה)?שבת(?:ות)?`;
const HE_HOLIDAYS = String.raw`(?:\s+ו(?:ב)?(?:ה)?(?:חגים|חג|ימים\s+טובים))?`;
/** "בירושלים", "בתל אביב", "ב-חיפה": the city without its ב ("בבקשה" is the request's tail, not a city). */
const HE_CITY = String.raw`(?:\s+ב[-־]?\s*(?!בקשה${HE_END})([א-ת][א-ת '"׳״\-]{1,30}?))?`;

const SABBATH_ON = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:(?:turn\s+on|enable|start|set|switch\s+on)\s+)?(?:(?:be|stay|keep)\s+)?(?:quiet|silent|silence|quiet\s+mode)\s+(?:on|during|for|over)\s+${SHABBAT}${HOLIDAYS}${EN_CITY}${TAIL}`,
    "iu",
  ),
  new RegExp(
    String.raw`^${EN_LEAD}(?:(?:turn\s+on|enable|start|set|switch\s+on)\s+)?${SHABBAT}(?:\s+and\s+holiday)?\s+(?:quiet|mode|silence)(?:\s+on)?${EN_CITY}${TAIL}`,
    "iu",
  ),
  new RegExp(
    String.raw`^${EN_LEAD}(?:please\s+)?(?:don'?t|do\s+not|never)\s+(?:message|text|write\s+to|write|send|bother|ping|remind)(?:\s+me)?(?:\s+(?:messages|anything|reminders))?\s+(?:on|during|over)\s+${SHABBAT}${HOLIDAYS}${EN_CITY}${TAIL}`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:תפעיל|תפעילי|הפעל|להפעיל|תעשה|תעשי)\s+(?:לי\s+)?)?(?:(?:תהיה|תהיי|להיות)\s+)?(?:ב)?(?:שקט|מצב\s+שקט|שקט\s+מוחלט)\s+(?:ב|של\s+)?${HE_SHABBAT}${HE_HOLIDAYS}${HE_CITY}${TAIL}`,
    "u",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:אל|לא)\s+(?:תשלח|תשלחי|לשלוח|תכתוב|תכתבי|לכתוב|תזכיר|תזכירי|להזכיר|תפריע|תפריעי|להפריע)|בלי)\s+(?:לי\s+)?(?:(?:הודעות|תזכורות|כלום|שום\s+דבר)\s+)?ב${HE_SHABBAT}${HE_HOLIDAYS}${HE_CITY}${TAIL}`,
    "u",
  ),
];

const SABBATH_OFF = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:(?:stop|turn\s+off|disable|cancel|remove|end|switch\s+off|no\s+more)\s+(?:the\s+|my\s+)?(?:${SHABBAT}(?:\s+and\s+holiday)?\s+(?:quiet|mode|silence)|(?:being\s+)?quiet\s+on\s+${SHABBAT}${HOLIDAYS})|${SHABBAT}\s+(?:quiet|mode)\s+off|you\s+(?:can|may)\s+(?:message|text|write\s+to)\s+me\s+on\s+${SHABBAT}${HOLIDAYS})${TAIL}`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:בטל|בטלי|תבטל|תבטלי|לבטל|כבה|תכבה|תכבי|לכבות|הפסק|תפסיק|תפסיקי|להפסיק)\s+(?:את\s+)?(?:ה)?(?:שקט|מצב\s+(?:ה)?שקט)\s+(?:ב|של\s+)?${HE_SHABBAT}${HE_HOLIDAYS}|(?:אפשר|מותר)\s+(?:לשלוח|לכתוב)\s+לי\s+(?:הודעות\s+)?ב${HE_SHABBAT}${HE_HOLIDAYS})${TAIL}`,
    "u",
  ),
];

const SABBATH_SHOW = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:what\s+are\s+|show\s+(?:me\s+)?)?(?:my\s+)?${SHABBAT}\s+(?:settings|quiet|mode)\s*\??\s*$`,
    "iu",
  ),
  new RegExp(String.raw`^${HE_LEAD}(?:מה\s+)?(?:ה)?הגדרות\s+(?:ה)?שבת(?:\s+שלי)?\s*\??\s*$`, "u"),
];

/** Diaspora or Israel, as the user names the holiday calendar. */
const EN_ABROAD = String.raw`(?:the\s+)?(?:diaspora|diaspora's|chutz\s+la'?aretz|abroad|outside\s+(?:of\s+)?israel)`;
const EN_ISRAEL = String.raw`(?:israel|israel's|israeli|the\s+israeli)`;
const HE_ABROAD = String.raw`(?:חו["״']{1,2}ל|חוץ\s+לארץ|התפוצות|הגולה)`;
const HE_ISRAEL = String.raw`(?:ישראל|הארץ|ארץ\s+ישראל)`;
/** A statement's end: like TAIL, but not a question ("Israeli holidays?" asks, it does not set). */
const STATED = String.raw`(?:\s*,?\s+(?:please|thanks|thank\s+you|בבקשה|תודה))?\s*[.!]*\s*$`;
/**
 * The holiday calendar is changed only by a request with a verb ("use …", "switch to …", "I keep
 * …", "תשתמש ב…", "תעבור ל…", "אני שומר את …"): a bare "Israel holidays" or "לוח חגים ישראל" may be
 * a question about them, and is left to the planner.
 */
const scheduleCommand = (where: string, he: boolean) =>
  he
    ? new RegExp(
        String.raw`^${HE_LEAD}(?:(?:תשתמש|תשתמשי|השתמש|להשתמש)\s+ב|(?:אני\s+)?(?:שומר|שומרת|חוגג|חוגגת)\s+(?:את\s+)?|(?:עבור|תעבור|תעברי|לעבור|תעביר|תעבירי|העבר)\s+ל)(?:ה)?(?:לוח\s+(?:ה)?חגים|חגים|לוח\s+(?:ה)?שנה)\s+(?:של\s+|כמו\s+ב)?${where}${STATED}`,
        "u",
      )
    : new RegExp(
        String.raw`^${EN_LEAD}(?:use|switch\s+to|set|i\s+(?:keep|follow|observe|use))\s+(?:${where}\s+(?:holiday\s+calendar|holidays|calendar|holiday\s+schedule|schedule)|(?:the\s+)?(?:holiday\s+calendar|holidays|holiday\s+schedule)\s+(?:of|for|in)\s+${where})${STATED}`,
        "iu",
      );
const SCHEDULE = [
  {
    schedule: "diaspora" as const,
    patterns: [scheduleCommand(EN_ABROAD, false), scheduleCommand(HE_ABROAD, true)],
  },
  {
    schedule: "israel" as const,
    patterns: [scheduleCommand(EN_ISRAEL, false), scheduleCommand(HE_ISRAEL, true)],
  },
];

/**
 * Whether the words after "in" / "ב" are meant as a city: a city hebcal knows ("haifa", "חיפה"),
 * or, in English, a capitalised name ("in Springfield": answered "I couldn't find …"). Anything
 * else ("בבוקר", "בבית", "in the morning") narrows the request to something this setting is not
 * (Saturday mornings, at home), so the message is not this command and goes to the planner.
 */
function saidAsCity(words: string): boolean {
  return restCity(words) !== null || /^\p{Lu}/u.test(words);
}

/** The Shabbat quiet and holiday calendar commands in `message`, or null. */
function parseSabbathCommand(message: string): SettingsCommand | null {
  if (SABBATH_OFF.some((p) => p.test(message))) return { kind: "sabbathOff" };
  if (SABBATH_SHOW.some((p) => p.test(message))) return { kind: "sabbathShow" };
  for (const pattern of SABBATH_ON) {
    const match = pattern.exec(message);
    if (!match) continue;
    const city = match[1]?.trim() || null;
    return city === null || saidAsCity(city) ? { kind: "sabbathOn", city } : null;
  }
  for (const { schedule, patterns } of SCHEDULE)
    if (patterns.some((p) => p.test(message))) return { kind: "calendarSchedule", schedule };
  return null;
}

/** The weekly review by name: "weekly review", "the weekly summary", "my week in review". */
const EN_WEEKLY = String.raw`(?:(?:the|my|a|your)\s+)?(?:weekly\s+(?:review|summary|recap|digest|overview)|week\s+in\s+review)`;
/** "סיכום שבועי", "הסיכום השבועי", "את הסיכום השבועי שלי". */
const HE_WEEKLY = String.raw`(?:את\s+)?(?:ה)?(?:סיכום|סקירה|תקציר)\s+(?:ה)?שבועי(?:ת)?(?:\s+שלי)?`;
/** A weekday, captured: "Friday", "fridays", "fri". */
const EN_DAY = String.raw`(${words([...EN_WEEKDAYS, ...EN_WEEKDAY_ABBREVIATIONS, ...EN_RARE_WEEKDAY_ABBREVIATIONS])})s?`;
/** "ביום שישי", "בימי שישי", "כל יום שישי", "בשישי", "שישי". */
const HE_DAY = String.raw`(?:(?:ב|כל\s+)?(?:יום|ימי)\s+|ב)?(${HE_WEEKDAYS.join("|")})`;

const WEEKLY_SHOW = [
  new RegExp(String.raw`^${EN_LEAD}(?:(?:show|give)\s+(?:me\s+)?)?${EN_WEEKLY}(?:\s+now)?${TAIL}`, "iu"),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:תראה|תראי|הראה|תן|תני|תביא|תביאי)\s+(?:לי\s+)?)?${HE_WEEKLY}(?:\s+עכשיו)?${TAIL}`,
    "u",
  ),
];

const WEEKLY_OFF = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:stop|disable|turn\s+off|switch\s+off|cancel|pause|mute|unsubscribe\s+from|no\s+more|don'?t\s+send(?:\s+me)?(?:\s+any(?:\s+more)?)?)\s+(?:sending\s+(?:me\s+)?)?${EN_WEEKLY}s?(?:\s+(?:any\s*more|anymore))?${TAIL}`,
    "iu",
  ),
  new RegExp(String.raw`^${EN_LEAD}${EN_WEEKLY}\s+off${TAIL}`, "iu"),
  new RegExp(
    String.raw`^${HE_LEAD}(?:תפסיק|תפסיקי|הפסק|הפסיקי|להפסיק|בטל|בטלי|תבטל|תבטלי|לבטל|כבה|כבי|תכבה|תכבי|לכבות|די\s+עם|בלי|לא\s+צריך|לא\s+רוצה|אל\s+תשלח|אל\s+תשלחי)\s+(?:לי\s+)?(?:לשלוח\s+(?:לי\s+)?)?${HE_WEEKLY}(?:\s+יותר)?${TAIL}`,
    "u",
  ),
];

const WEEKLY_ON = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:start|enable|turn\s+on|switch\s+on|resume|restart|bring\s+back)\s+(?:sending\s+(?:me\s+)?)?${EN_WEEKLY}(?:\s+again)?${TAIL}`,
    "iu",
  ),
  new RegExp(
    String.raw`^${EN_LEAD}send\s+me\s+${EN_WEEKLY}(?:\s+(?:every\s+week|each\s+week|weekly|again))?${TAIL}`,
    "iu",
  ),
  new RegExp(String.raw`^${EN_LEAD}${EN_WEEKLY}\s+on${TAIL}`, "iu"),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:תפעיל|תפעילי|הפעל|הפעילי|להפעיל|תחזיר|תחזירי|החזר|להחזיר|תדליק|תדליקי|הדלק)\s+(?:לי\s+)?|(?:תשלח|תשלחי|שלח|שלחי)\s+לי\s+)${HE_WEEKLY}(?:\s+(?:שוב|כל\s+שבוע))?${TAIL}`,
    "u",
  ),
];

/** "weekly review on Friday at 14:00", "set my weekly review to fridays at 2pm", "weekly review at 9 on Sunday". */
const WEEKLY_AT_EN = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:(?:send|move|set|change|schedule|put|make|give|turn\s+on)\s+(?:me\s+)?)?${EN_WEEKLY}\s+(?:to\s+)?(?:on\s+|every\s+|for\s+)?${EN_DAY}(?:\s+(?:at\s+)?${CLOCK})?${TAIL}`,
    "iu",
  ),
];
const WEEKLY_AT_EN_TIME_FIRST = new RegExp(
  String.raw`^${EN_LEAD}(?:(?:send|move|set|change|schedule|put|make|give)\s+(?:me\s+)?)?${EN_WEEKLY}\s+(?:to\s+)?at\s+${CLOCK}\s+(?:on\s+|every\s+)${EN_DAY}${TAIL}`,
  "iu",
);
/** "weekly review at 9", "set my weekly review to 9am": the time only, the day kept. */
const WEEKLY_TIME_EN = new RegExp(
  String.raw`^${EN_LEAD}(?:(?:send|move|set|change|schedule|put|make|give)\s+(?:me\s+)?)?${EN_WEEKLY}\s+(?:to\s+)?(?:at\s+)?${CLOCK}${TAIL}`,
  "iu",
);
/** "סיכום שבועי ב-9", "תעביר את הסיכום השבועי לשעה 8:30": the time only, the day kept. */
const WEEKLY_TIME_HE = new RegExp(
  String.raw`^${HE_LEAD}(?:(?:תשלח|תשלחי|שלח|שלחי|לשלוח|תעביר|תעבירי|העבר|להעביר|תזיז|תזיזי|הזז|להזיז|קבע|קבעי|תקבע|לקבוע)\s+(?:לי\s+)?)?${HE_WEEKLY}\s+(?:ב|ל|לשעה|בשעה)[-־]?\s*(?:שעה\s+)?${CLOCK}${TAIL}`,
  "u",
);
/** "סיכום שבועי ביום שישי ב-14:00", "תעביר את הסיכום השבועי ליום ראשון בשעה 9". */
const WEEKLY_AT_HE = new RegExp(
  String.raw`^${HE_LEAD}(?:(?:תשלח|תשלחי|שלח|שלחי|לשלוח|תעביר|תעבירי|העבר|להעביר|תזיז|תזיזי|הזז|להזיז|קבע|קבעי|תקבע|לקבוע|תפעיל|תפעילי|הפעל)\s+(?:לי\s+)?)?${HE_WEEKLY}\s+(?:ל(?=יום|ימי))?${HE_DAY}(?:\s+(?:ב|ל|לשעה|בשעה)[-־]?\s*(?:שעה\s+)?${CLOCK})?${TAIL}`,
  "u",
);

/** The weekly review command in `message`, or null. */
function weeklyCommand(message: string): SettingsCommand | null {
  if (WEEKLY_OFF.some((p) => p.test(message))) return { kind: "weeklyOff" };
  if (WEEKLY_ON.some((p) => p.test(message))) return { kind: "weeklyOn" };
  if (WEEKLY_SHOW.some((p) => p.test(message))) return { kind: "weeklyShow" };
  const at = (dayWord: string | null, clockWord: string | undefined): SettingsCommand | null => {
    const day = dayWord === null ? null : dayIndex(dayWord);
    if (dayWord !== null && day === null) return null;
    if (clockWord === undefined) return day === null ? null : { kind: "weeklyAt", day, time: null };
    const clock = readClock(clockWord);
    if (!clock) return null;
    // "at 2": the night or the afternoon? Asked rather than guessed (D10); 7–12 read as written.
    if (clock.meridiem === null && !clock.padded && clock.hour >= 1 && clock.hour <= 6)
      return { kind: "weeklyHourUnclear", hour: clock.hour };
    return { kind: "weeklyAt", day, time: hhmm(to24(clock, false), clock.minute) };
  };
  for (const pattern of [...WEEKLY_AT_EN, WEEKLY_AT_HE]) {
    const match = pattern.exec(message);
    if (match) return at(match[1]!, match[2]);
  }
  const timeFirst = WEEKLY_AT_EN_TIME_FIRST.exec(message);
  if (timeFirst) return at(timeFirst[2]!, timeFirst[1]);
  const timeOnly = WEEKLY_TIME_EN.exec(message) ?? WEEKLY_TIME_HE.exec(message);
  return timeOnly ? at(null, timeOnly[1]) : null;
}

/** Answers as voice notes, by name: "voice answers", "voice replies", "the voice notes". */
const EN_VOICE_ANSWERS = String.raw`(?:(?:the|my|your)\s+)?voice\s+(?:answers|replies|responses|notes|messages)`;
/** What is answered by voice: "by voice", "with audio", "in voice notes", "with a recording". */
const EN_BY_VOICE = String.raw`(?:by|with|in|using|through)\s+(?:a\s+)?(?:voice|audio|speech|voice\s+(?:notes?|messages?|recordings?)|recordings?|audio\s+(?:notes?|messages?))`;
const EN_ANSWER = String.raw`(?:answer|reply|respond|talk|speak|write)(?:\s+(?:to\s+)?me)?`;
/** "בקול", "בהקלטה", "בהודעה קולית", "עם הקלטות", "באודיו". */
const HE_BY_VOICE = String.raw`(?:ב|עם\s+)(?:קול|הקלטה|הקלטות|הודעה\s+קולית|הודעות\s+קוליות|הודעת\s+קול|הודעות\s+קול|אודיו|דיבור)`;
const HE_ANSWER = String.raw`(?:תענה|תעני|ענה|עני|לענות|תשיב|תשיבי|השב|השיבי|להשיב|תדבר|תדברי|לדבר)(?:\s+(?:לי|איתי|אליי))?`;
/** "תשובות קוליות", "את ההקלטות", "הודעות קוליות". */
const HE_VOICE_ANSWERS = String.raw`(?:את\s+)?(?:ה)?(?:תשובות\s+(?:ה)?קוליות|תשובות\s+בקול|הקלטות|הודעות\s+(?:ה)?קוליות)`;

const VOICE_ON = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:${EN_ANSWER}\s+${EN_BY_VOICE}(?:\s+(?:from\s+now\s+on|always|again))?|(?:turn\s+on|enable|start|switch\s+on|use)\s+${EN_VOICE_ANSWERS}|${EN_VOICE_ANSWERS}\s+on)${TAIL}`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:מעכשיו\s+)?${HE_ANSWER}\s+${HE_BY_VOICE}(?:\s+(?:מעכשיו|תמיד|שוב))?|(?:תפעיל|תפעילי|הפעל|הפעילי|להפעיל|תדליק|הדלק)\s+${HE_VOICE_ANSWERS})${TAIL}`,
    "u",
  ),
];

const VOICE_OFF = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:(?:stop|disable|turn\s+off|switch\s+off|cancel|no\s+more)\s+${EN_VOICE_ANSWERS}|${EN_VOICE_ANSWERS}\s+off|(?:stop|quit)\s+(?:answering|replying|responding|talking|speaking)(?:\s+(?:to\s+)?me)?\s+${EN_BY_VOICE}|${EN_ANSWER}\s+(?:in|with|by|using)\s+(?:text|writing)(?:\s+(?:again|from\s+now\s+on))?)${TAIL}`,
    "iu",
  ),
  new RegExp(
    String.raw`^${HE_LEAD}(?:(?:תפסיק|תפסיקי|הפסק|הפסיקי|להפסיק|די)\s+${HE_ANSWER}\s+${HE_BY_VOICE}|(?:בטל|בטלי|תבטל|תבטלי|כבה|כבי|תכבה|תכבי|בלי|די\s+עם|מספיק\s+עם)\s+${HE_VOICE_ANSWERS}|${HE_ANSWER}\s+(?:ב|עם\s+)(?:טקסט|כתב|הודעות\s+כתובות|מילים)(?:\s+(?:שוב|מעכשיו))?)${TAIL}`,
    "u",
  ),
];

/** A question only (it ends with "?"): "voice answers?", "are voice replies on?", "תשובות קוליות?". */
const VOICE_SHOW = [
  new RegExp(
    String.raw`^${EN_LEAD}(?:(?:are|is)\s+)?${EN_VOICE_ANSWERS}(?:\s+(?:on|off|enabled))?\s*\?\s*$`,
    "iu",
  ),
  new RegExp(String.raw`^${EN_LEAD}(?:do|will)\s+you\s+${EN_ANSWER}\s+${EN_BY_VOICE}\s*\?\s*$`, "iu"),
  new RegExp(
    String.raw`^${HE_LEAD}(?:ה)?(?:תשובות\s+(?:ה)?קוליות|תשובות\s+בקול)(?:\s+(?:פעיל|פעילות|מופעלות))?\s*\?\s*$`,
    "u",
  ),
  new RegExp(String.raw`^${HE_LEAD}(?:אתה|את)\s+(?:עונה)\s+(?:לי\s+)?${HE_BY_VOICE}\s*\?\s*$`, "u"),
];

/** The voice answers command in `message`, or null. */
function voiceCommand(message: string): SettingsCommand | null {
  if (VOICE_SHOW.some((p) => p.test(message))) return { kind: "voiceShow" };
  if (VOICE_OFF.some((p) => p.test(message))) return { kind: "voiceOff" };
  if (VOICE_ON.some((p) => p.test(message))) return { kind: "voiceOn" };
  return null;
}

interface Clock {
  hour: number;
  minute: number;
  meridiem: "am" | "pm" | null;
  /** Written with a leading zero ("07:00"): a 24-hour time, never the evening one. */
  padded: boolean;
}

function readClock(text: string): Clock | null {
  const match = /^(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/i.exec(text.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  const meridiem = match[3] ? (match[3].toLowerCase().startsWith("p") ? "pm" : "am") : null;
  if (minute > 59 || hour > 23 || (meridiem && (hour === 0 || hour > 12))) return null;
  return { hour, minute, meridiem, padded: match[1]!.length === 2 && match[1]!.startsWith("0") };
}

function to24(clock: Clock, pm: boolean): number {
  if (clock.meridiem === "am") return clock.hour % 12;
  if (clock.meridiem === "pm" || pm) return (clock.hour % 12) + 12;
  return clock.hour;
}

const hhmm = (hour: number, minute: number) =>
  `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;

/** The settings command in `text`, or null when it is not one. */
export function parseSettingsCommand(text: string): SettingsCommand | null {
  const message = text.trim();
  if (!message || message.length > MAX_LENGTH) return null;
  const weekly = weeklyCommand(message);
  if (weekly) return weekly;
  const voice = voiceCommand(message);
  if (voice) return voice;
  if (DIGEST_OFF.some((p) => p.test(message))) return { kind: "digestOff" };
  if (DIGEST_ON.some((p) => p.test(message))) return { kind: "digestOn" };
  if (QUIET_OFF.some((p) => p.test(message))) return { kind: "quietOff" };
  if (QUIET_SHOW.some((p) => p.test(message))) return { kind: "quietShow" };
  for (const pattern of DIGEST_AT) {
    const match = pattern.exec(message);
    const clock = match ? readClock(match[1]!) : null;
    // A morning summary: an hour without am/pm is the morning one (and 12 is noon).
    if (clock) return { kind: "digestAt", time: hhmm(to24(clock, false), clock.minute) };
  }
  for (const pattern of QUIET_SET) {
    const match = pattern.exec(message);
    const start = match ? readClock(match[1]!) : null;
    const end = match ? readClock(match[2]!) : null;
    if (!start || !end) continue;
    // "10-7" means the night: an open start hour that is not before the end is the evening one.
    const eveningStart =
      start.meridiem === null &&
      !start.padded &&
      end.meridiem === null &&
      start.hour >= 1 &&
      start.hour <= 11 &&
      start.hour >= end.hour;
    // "12-6" is midnight to six: an open 12 before a morning end is the start of the night.
    const midnight = start.meridiem === null && !start.padded && start.hour === 12 && end.hour < 12;
    const from = hhmm(midnight ? 0 : to24(start, eveningStart), start.minute);
    const to = hhmm(to24(end, false), end.minute);
    if (from === to) return null;
    return { kind: "quietHours", start: from, end: to };
  }
  return parseSabbathCommand(message);
}
