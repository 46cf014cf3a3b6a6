import type { TimeContext } from "../types/state.js";

/** Hebrew weekday names, Sunday first. */
export const HEBREW_DAYS = ["ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת"];

/** Two digits: 7 → "07". */
export const pad2 = (n: number) => String(n).padStart(2, "0");

/** One formatter per zone: building one costs ~100 µs, using it ~5 µs (the scheduler plans thousands of rings a pass). */
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = FORMATTERS.get(timeZone);
  if (!formatter) {
    // Throws for an unknown zone before anything is cached.
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      weekday: "long",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    FORMATTERS.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock parts of an instant in an IANA zone. */
export function zonedParts(epochMs: number, timeZone: string) {
  const parts = formatterFor(timeZone).formatToParts(new Date(epochMs));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const weekday = get("weekday");
  return {
    weekday,
    dayOfWeek: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"].indexOf(
      weekday,
    ),
    day: Number(get("day")),
    month: Number(get("month")),
    year: Number(get("year")),
    hour: Number(get("hour")),
    minute: Number(get("minute")),
  };
}

/** The calendar day of an instant in a zone, as a day number (days since 1970-01-01 there). */
export function localDayNumber(epochMs: number, timeZone: string): number {
  const p = zonedParts(epochMs, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day) / 86_400_000;
}

/**
 * The time context of spec 003, e.g.
 * "[Current time: Friday, 02/01/2026 15:30 (2026-01-02T13:30:00.000Z), Timezone: Asia/Jerusalem]".
 */
export function buildTimeContext(
  epochMs: number,
  timeZone: string,
  language: "he" | "en" | "other",
): TimeContext {
  const p = zonedParts(epochMs, timeZone);
  const iso = new Date(epochMs).toISOString();
  const localDate = `${pad2(p.day)}/${pad2(p.month)}/${p.year}`;
  const localTime = `${pad2(p.hour)}:${pad2(p.minute)}`;
  return {
    formatted: `[Current time: ${p.weekday}, ${localDate} ${localTime} (${iso}), Timezone: ${timeZone}]`,
    iso,
    epochMs,
    timezone: timeZone,
    dayOfWeek: p.dayOfWeek,
    dayName: language === "he" ? (HEBREW_DAYS[p.dayOfWeek] ?? p.weekday) : p.weekday,
    localDate,
    localTime,
  };
}

/** An ISO instant as local text: "today 17:00", "tomorrow 09:00", "Mon 03/02 09:00" (or Hebrew). */
export function humanTime(iso: string, nowMs: number, timeZone: string, language: "he" | "en"): string {
  const at = zonedParts(Date.parse(iso), timeZone);
  const diff = localDayNumber(Date.parse(iso), timeZone) - localDayNumber(nowMs, timeZone);
  const time = `${pad2(at.hour)}:${pad2(at.minute)}`;
  // A day more than ~10 months away, ahead or behind, names its year ("26/11/2036").
  const year = Math.abs(diff) > 300 ? `/${at.year}` : "";
  if (language === "he") {
    if (diff === 0) return `היום ב-${time}`;
    if (diff === 1) return `מחר ב-${time}`;
    if (diff === -1) return `אתמול ב-${time}`;
    return `יום ${HEBREW_DAYS[at.dayOfWeek] ?? ""} ${pad2(at.day)}/${pad2(at.month)}${year} ב-${time}`;
  }
  if (diff === 0) return `today at ${time}`;
  if (diff === 1) return `tomorrow at ${time}`;
  if (diff === -1) return `yesterday at ${time}`;
  return `${at.weekday.slice(0, 3)} ${pad2(at.day)}/${pad2(at.month)}${year} at ${time}`;
}

/** Whether a string names a time zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}
