import type { TimeContext } from "../graph/state/MemoState.js";

/** Two digits: 7 → "07". */
export const pad2 = (n: number) => String(n).padStart(2, "0");

/** The wall-clock parts of an instant in an IANA zone. */
export function zonedParts(epochMs: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    weekday: "long",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(new Date(epochMs));
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

const HEBREW_DAYS = ["ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת"];

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

/** Whether a string names a time zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}
