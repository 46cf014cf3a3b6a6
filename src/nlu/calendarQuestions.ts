/**
 * Questions about the calendar answered without a model (issue 36): "when is Rosh Hashana?",
 * "מתי פסח השנה?", "what's the Hebrew date today?", "איזה תאריך עברי היום?". Anchored to the whole
 * message; the holiday is any name of the parser's table (holidays.ts), found on the user's schedule.
 */
import { hebrewDateOf, type CalendarSchedule, type HebrewDate } from "./hebrewCalendar.js";
import { holidayNamed, nextHoliday, type Holiday } from "./holidays.js";
import { normalizeText } from "./timeWords.js";
import { instantToLocal, type LocalDate } from "./zonedTime.js";

/** A question about the calendar, and the days that answer it. */
export type CalendarQuestion =
  /** `date` null: the day depends on a country the zone does not tell. */
  | { kind: "holiday"; holiday: Holiday; date: LocalDate | null; hebrew: HebrewDate | null }
  | { kind: "today"; date: LocalDate; hebrew: HebrewDate };

const WHEN_EN =
  /^(?:(?:hey|hi|ok|so|memo)[\s,]+)?(?:when\s+is|when's|what\s+(?:date|day)\s+is|which\s+(?:date|day)\s+is)\s+(?:the\s+)?(.+?)(?:\s+(?:this\s+year|in\s+\d{4}))?\s*\?*\s*$/iu;
const WHEN_HE =
  /^(?:מתי|באיזה\s+(?:תאריך|יום))\s+(?:חל\s+|חלה\s+|יוצא\s+|יוצאת\s+|יהיה\s+|יהיו\s+|זה\s+|יש\s+)?(.+?)(?:\s+השנה)?\s*\?*\s*$/u;
const TODAY =
  /^(?:what(?:'s|\s+is)\s+(?:the\s+)?(?:hebrew|jewish)\s+date(?:\s+today)?|what\s+is\s+today'?s\s+(?:hebrew|jewish)\s+date|(?:איזה|מה\s+ה)\s*תאריך\s+(?:ה)?עברי\s+(?:יש\s+)?היום|מה\s+התאריך\s+העברי(?:\s+היום)?|איזה\s+תאריך\s+היום\s+בלוח\s+העברי)\s*\?*\s*$/iu;

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
  if (TODAY.test(text)) return { kind: "today", date: today, hebrew: hebrewDateOf(today) };
  const named = WHEN_EN.exec(text)?.[1] ?? WHEN_HE.exec(text)?.[1];
  const holiday = named ? holidayNamed(named) : null;
  if (!holiday) return null;
  const date = nextHoliday(holiday, today, timeZone, schedule);
  return { kind: "holiday", holiday, date, hebrew: date ? hebrewDateOf(date) : null };
}
