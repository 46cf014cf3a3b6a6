/**
 * Questions about the calendar answered without a model (issue 36): "when is Rosh Hashana?",
 * "מתי פסח השנה?", "מתי ערב פסח?", "when is the first night of Hanukkah?", "when is Passover in
 * 2028?", "what's the Hebrew date today?", "איזה תאריך עברי היום?". Anchored to the whole message;
 * the holiday is any name of the parser's table (holidays.ts), found on the user's schedule. A year
 * said (2028, 5788, תשפ"ח) is read, or the question is left to the planner, never answered for
 * another year.
 */
import { gematriyaStrToNum } from "@hebcal/core";
import { gregorianOf, hebrewDateOf, type CalendarSchedule, type HebrewDate } from "./hebrewCalendar.js";
import { holidayNamed, nextHoliday, type Holiday } from "./holidays.js";
import { sunsetOf } from "./restWindows.js";
import { normalizeText } from "./timeWords.js";
import { addDays, compareDates, daysBetween, instantToLocal, type LocalDate } from "./zonedTime.js";

/** A question about the calendar, and the days that answer it. */
export type CalendarQuestion =
  /**
   * `date` null: the day depends on a country the zone does not tell. `eve`: the evening or the day
   * before was asked ("the first night of", "erev"). `ongoing`: the holiday is on today, its `day`
   * (1-based) since `start`.
   */
  | {
      kind: "holiday";
      holiday: Holiday;
      date: LocalDate | null;
      hebrew: HebrewDate | null;
      eve?: "night" | "erev";
      ongoing?: { day: number; start: LocalDate; hebrew: HebrewDate };
    }
  /**
   * Today's date in both calendars, and the Hebrew date that begins at sunset. `afterSunset`: the
   * sun has set already in the city of the user's zone (unset when the zone has no city).
   */
  | { kind: "today"; date: LocalDate; hebrew: HebrewDate; evening: HebrewDate; afterSunset?: true };

const YEAR_EN = String.raw`(?:\s+(?:this\s+year|in\s+(?<year>\d{4})|(?:in\s+)?(?:the\s+)?(?:hebrew|jewish)\s+year\s+(?<hyear>\d{4})))`;
const WHEN_EN = new RegExp(
  String.raw`^(?:(?:hey|hi|ok|so|memo)[\s,]+)?(?:when\s+is|when's|what\s+(?:date|day)\s+is|which\s+(?:date|day)\s+is)\s+(?:the\s+)?(?<name>.+?)${YEAR_EN}?\s*\?*\s*$`,
  "iu",
);
const WHEN_HE =
  /^(?:מתי|באיזה\s+(?:תאריך|יום))\s+(?:חל\s+|חלה\s+|יוצא\s+|יוצאת\s+|יהיה\s+|יהיו\s+|זה\s+|יש\s+)?(?<name>.+?)(?:\s+(?:ב-?|בשנת\s+)(?:(?<year>\d{4})|(?<letters>[א-ת]{1,3}"[א-ת])))?\s*\?*\s*$/u;
const TODAY =
  /^(?:what(?:'s|\s+is)\s+(?:the\s+)?(?:hebrew|jewish)\s+date(?:\s+today)?|what(?:'s|\s+is)\s+today'?s\s+(?:hebrew|jewish)\s+date|(?:איזה|מה\s+ה)\s*תאריך\s+(?:ה)?עברי\s+(?:יש\s+)?היום|מה\s+התאריך\s+העברי(?:\s+היום)?|איזה\s+תאריך\s+היום\s+בלוח\s+העברי)\s*\?*\s*$/iu;
/** "the first night of", "נר ראשון של": the evening before the first day. */
const NIGHT =
  /^(?:(?:the\s+)?first\s+(?:night|candle)\s+of\s+(?:the\s+)?|(?:ה)?נר\s+(?:ה)?ראשון\s+(?:של\s+)?|(?:ה)?ליל(?:ה)?\s+(?:ה)?ראשון\s+של\s+)/iu;
/** "erev", "the eve of", "ערב": the day before. */
const EREV = /^(?:erev\s+|the\s+eve\s+of\s+|eve\s+of\s+|ערב\s+)/iu;

/**
 * How many days a holiday lasts on a schedule (its table's length), for "when is Pesach?" asked
 * during Pesach; Sukkot, whose length the table leaves open for its qualifiers, is its 7 days here.
 */
const lengthOf = (holiday: Holiday, schedule: CalendarSchedule) =>
  holiday.id === "sukkot" ? 7 : holiday.length?.(schedule);

/** A Hebrew year in letters ('תשפ"ח' → 5788); the thousands are implied; a final letter writes none. */
function lettersYear(text: string): number | null {
  return /[ךםןףץ]/u.test(text) ? null : 5000 + gematriyaStrToNum(text);
}

type Year = { kind: "gregorian"; year: number } | { kind: "hebrew"; year: number } | null;

function yearOf(groups: Record<string, string | undefined>): Year | "unreadable" {
  if (groups["year"]) {
    const year = Number(groups["year"]);
    if (year >= 5000) return { kind: "hebrew", year };
    return year >= 1900 && year <= 2200 ? { kind: "gregorian", year } : "unreadable";
  }
  if (groups["hyear"]) return { kind: "hebrew", year: Number(groups["hyear"]) };
  if (groups["letters"]) {
    const year = lettersYear(groups["letters"]);
    return year ? { kind: "hebrew", year } : "unreadable";
  }
  return null;
}

/** The holiday, and whether its eve was asked, a name (after "the") names. */
function holidayAsked(name: string): { holiday: Holiday; eve?: "night" | "erev" } | null {
  const whole = holidayNamed(name);
  if (whole) return { holiday: whole };
  for (const [pattern, eve] of [
    [NIGHT, "night"],
    [EREV, "erev"],
  ] as const) {
    const rest = name.replace(pattern, "");
    const holiday = rest !== name ? holidayNamed(rest) : null;
    if (holiday) return { holiday, eve };
  }
  return null;
}

/** The calendar question a whole message is, with its answer's days; null for anything else. */
export function recognizeCalendarQuestion(
  message: string,
  nowMs: number,
  timeZone: string,
  schedule: CalendarSchedule,
): CalendarQuestion | null {
  const text = normalizeText(message).text;
  if (text.length > 80) return null;
  const now = instantToLocal(nowMs, timeZone);
  const today: LocalDate = { year: now.year, month: now.month, day: now.day };
  if (TODAY.test(text)) {
    return {
      kind: "today",
      date: today,
      hebrew: hebrewDateOf(today),
      evening: hebrewDateOf(addDays(today, 1)),
      ...(afterSunset(today, nowMs, timeZone) ? { afterSunset: true } : {}),
    };
  }
  const m = WHEN_EN.exec(text) ?? WHEN_HE.exec(text);
  const groups = m?.groups ?? {};
  const said = groups["name"];
  if (!said) return null;
  // "מתי ראש השנה?": "השנה" is the name's own, unless the name is whole without it.
  const hebrewThisYear = /\s+השנה$/u.exec(said);
  const asked =
    holidayAsked(said) ?? (hebrewThisYear ? holidayAsked(said.slice(0, hebrewThisYear.index)) : null);
  if (!asked) return null;
  const { holiday, eve } = asked;
  // A holiday Memo does not compute (Ramadan, Diwali) is not answered here.
  if (holiday.askOnly) return null;
  const year = yearOf(groups);
  if (year === "unreadable") return null;
  const shift = eve ? 1 : 0;
  let from = addDays(today, shift);
  if (year?.kind === "gregorian") from = addDays({ year: year.year, month: 1, day: 1 }, shift);
  if (year?.kind === "hebrew") {
    // A Hebrew year only for a Hebrew holiday: its days from 1 Tishrei of that year.
    if (!holiday.hebrewDay || year.year < 5660 || year.year > 5960) return null;
    from = addDays(gregorianOf({ year: year.year, month: 7, day: 1 }), shift);
  }
  const first = nextHoliday(holiday, from, timeZone, schedule);
  const date = first && eve ? addDays(first, -1) : first;
  if (date && year?.kind === "gregorian" && date.year !== year.year) return null;
  if (first && year?.kind === "hebrew" && hebrewDateOf(first).year !== year.year) return null;
  const question: CalendarQuestion = {
    kind: "holiday",
    holiday,
    date,
    hebrew: date ? hebrewDateOf(date) : null,
    ...(eve ? { eve } : {}),
  };
  // Asked during the holiday, with no year: it is on now.
  const length = lengthOf(holiday, schedule);
  if (!eve && !year && length && length > 1) {
    const start = nextHoliday(holiday, addDays(today, -(length - 1)), timeZone, schedule);
    if (start && compareDates(start, today) <= 0) {
      const day = daysBetween(start, today) + 1;
      return { ...question, ongoing: { day, start, hebrew: hebrewDateOf(today) } };
    }
  }
  return question;
}

/** Whether the sun has set on `today` at `nowMs` in the city of `timeZone` (false without a city). */
function afterSunset(today: LocalDate, nowMs: number, timeZone: string): boolean {
  const sunset = sunsetOf(today, timeZone);
  return sunset !== null && nowMs >= sunset;
}
