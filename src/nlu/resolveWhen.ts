/**
 * Turns time mentions into one instant, in code and in the user's zone (D6). Hebrew and English.
 * resolveWhen takes a phrase the resolver LLM named ("tomorrow at 9", "בעוד שעתיים",
 * "2026-04-03T09:00"); parseTime uses resolveMentions on the mentions it found in a whole message.
 * The mentions are combined into one instant, or null when they are missing or disagree.
 */
import { Scanner, scanMentions, type Found } from "./timeMentions.js";
import { MINUTE_MS, normalizeText, type Clock, type Period, type Relative } from "./timeWords.js";
import {
  addDays,
  addMonths,
  dayOfWeek,
  instantToLocal,
  localToInstant,
  parseClock,
  type LocalDate,
} from "./zonedTime.js";

export interface ResolvedWhen {
  /** Epoch ms. */
  at: number;
  /** Only a date was named (no clock time); `at` is that date at `defaultTime`. */
  dateOnly: boolean;
}

export interface ResolveWhenOptions {
  /** Local "HH:mm" used when only a date is named (default: "09:00"). */
  defaultTime?: string;
}

/** A wall time on the named day, or (dayOffset 1) just after it: "tonight at 1", midnight. */
export interface Slot {
  dayOffset: number;
  hour: number;
  minute: number;
}

/** The wall time a part of the day means when no clock time is given ("tonight" → 20:00). */
export const PERIOD_DEFAULT: Record<Period, Slot> = {
  morning: { dayOffset: 0, hour: 9, minute: 0 },
  noon: { dayOffset: 0, hour: 12, minute: 0 },
  afternoon: { dayOffset: 0, hour: 16, minute: 0 },
  evening: { dayOffset: 0, hour: 20, minute: 0 },
  night: { dayOffset: 0, hour: 20, minute: 0 },
};

/** The wall times a clock time can mean on the named day, earliest first. */
export function slotsOf(clock: Clock, period: Period | undefined): Slot[] {
  const { hour, minute } = clock;
  const at = (h: number, dayOffset = 0): Slot[] => [{ dayOffset, hour: h, minute }];
  switch (clock.kind) {
    case "midnight":
      return at(0, 1); // the midnight that ends the named day
    case "exact":
      return at(hour);
    case "am":
      return at(hour % 12);
    case "pm":
      return at((hour % 12) + 12);
    case "open":
      break;
  }
  switch (period) {
    case "morning":
      return at(hour % 12);
    case "noon":
      return at(hour >= 11 ? hour : hour + 12);
    case "afternoon":
      return at((hour % 12) + 12);
    case "evening":
      return hour === 12 ? at(0, 1) : at(hour + 12);
    case "night":
      // "at 2 at night" is the small hours after the named day; "at 10 at night" is 22:00.
      if (hour === 12) return at(0, 1);
      return hour <= 4 ? at(hour, 1) : at(hour + 12);
    default:
      // No am/pm: either reading; the caller takes the first still ahead.
      return hour === 12 ? at(12) : [...at(hour), ...at(hour + 12)];
  }
}

function sameDate(a: LocalDate, b: LocalDate): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

/** What the mentions said, sorted by kind. */
function gather(found: Found[]) {
  const relatives: Relative[] = [];
  const dates: LocalDate[] = [];
  const weekdays: { day: number; strictlyAfterToday: boolean }[] = [];
  const clocks: Clock[] = [];
  const periods: Period[] = [];
  const impliedPeriods: Period[] = [];
  let standalonePeriod = false;
  for (const { mention: m } of found) {
    if (m.kind === "relative") relatives.push(m.relative);
    if (m.kind === "weekday") weekdays.push(m);
    if (m.kind === "clock") clocks.push(m.clock);
    if (m.kind === "date") {
      if (!dates.some((d) => sameDate(d, m.date))) dates.push(m.date);
      if (m.impliedPeriod) impliedPeriods.push(m.impliedPeriod);
    }
    if (m.kind === "period") {
      if (!periods.includes(m.period)) periods.push(m.period);
      standalonePeriod ||= m.standalone;
    }
  }
  return { relatives, dates, weekdays, clocks, periods, impliedPeriods, standalonePeriod };
}

/**
 * Combines mentions into one instant (D6); `defaultClock` is the wall time of a date named alone.
 * Null when nothing names a time, a mention is impossible, or the mentions disagree.
 */
export function resolveMentions(
  found: Found[],
  nowMs: number,
  timeZone: string,
  defaultClock: { hour: number; minute: number },
): ResolvedWhen | null {
  const instant = found.find((f) => f.mention.kind === "instant")?.mention;
  if (instant?.kind === "instant") return { at: instant.at, dateOnly: false };
  if (found.some((f) => f.mention.kind === "impossible")) return null;

  const now = instantToLocal(nowMs, timeZone);
  const today: LocalDate = { year: now.year, month: now.month, day: now.day };
  const said = gather(found);
  const { relatives, weekdays, clocks, dates } = said;
  if (relatives.length > 1 || clocks.length > 1 || dates.length > 1 || weekdays.length > 1) return null;
  if (said.periods.length > 1) return null;

  const relative = relatives[0];
  const clock = clocks[0];
  const weekday = weekdays[0];
  const period = said.periods[0] ?? said.impliedPeriods[0];
  const date = dates[0];

  if (relative?.kind === "duration") {
    const alone = !clock && !date && !weekday && !period;
    return alone ? { at: nowMs + relative.ms, dateOnly: false } : null;
  }
  if (relative && (date || weekday)) return null;
  if (weekday && date && dayOfWeek(date) !== weekday.day) return null;
  const standalonePeriod = said.standalonePeriod || said.impliedPeriods.length > 0;
  if (!relative && !date && !weekday && !clock && !standalonePeriod) return null;

  // The wall times asked for; none means only a date was named.
  const slots = clock ? slotsOf(clock, period) : period ? [PERIOD_DEFAULT[period]] : null;
  const timesOn = (day: LocalDate, wanted: Slot[]) =>
    wanted.map((s) =>
      localToInstant({ ...addDays(day, s.dayOffset), hour: s.hour, minute: s.minute }, timeZone),
    );
  /** The first wall time still ahead on `day`, else (unless `aheadOnly`) the last one. */
  const pick = (day: LocalDate, wanted: Slot[], aheadOnly: boolean): number | null => {
    const times = timesOn(day, wanted);
    return times.find((t) => t > nowMs) ?? (aheadOnly ? null : (times.at(-1) ?? null));
  };
  const result = (at: number | null, dateOnly: boolean) => (at === null ? null : { at, dateOnly });
  const defaultSlot: Slot = { dayOffset: 0, ...defaultClock };

  if (relative) {
    const target = addMonths(addDays(today, relative.days), relative.months);
    if (slots) return result(pick(target, slots, false), false);
    // Days, weeks and months keep the wall time, to the millisecond (D6).
    const sameWallTime = localToInstant({ ...target, hour: now.hour, minute: now.minute }, timeZone);
    return result(sameWallTime + (((nowMs % MINUTE_MS) + MINUTE_MS) % MINUTE_MS), false);
  }
  if (date) return result(pick(date, slots ?? [defaultSlot], false), !slots);
  if (weekday) {
    // An hour without am/pm on a named weekday is its first reading ("on Thursday at 9" is 09:00),
    // also when that weekday is today and 09:00 has passed: then it is next week's, as "at 9am" would
    // be, rather than flipping to 21:00 today. ("today at 9" still takes the first reading ahead.)
    const wanted = clock?.kind === "open" && !period && slots ? slots.slice(0, 1) : (slots ?? [defaultSlot]);
    for (let offset = weekday.strictlyAfterToday ? 1 : 0; offset <= 7; offset++) {
      const day = addDays(today, offset);
      if (dayOfWeek(day) !== weekday.day) continue;
      const at = pick(day, wanted, true);
      if (at !== null) return result(at, !slots);
    }
    return null;
  }
  if (!slots) return null;
  // A bare time: today if still ahead, else tomorrow.
  return result(pick(today, slots, true) ?? pick(addDays(today, 1), slots, false), false);
}

/**
 * One function turning what the resolver LLM named (a local date-time or the user's own phrase) into
 * an instant, in code (D6). Returns null when it cannot tell. A named day whose time has passed is
 * kept ("today at 8" at 10:00), so the caller can say so.
 */
export function resolveWhen(
  expression: string,
  nowMs: number,
  timeZone: string,
  options: ResolveWhenOptions = {},
): ResolvedWhen | null {
  const defaultClock = parseClock(options.defaultTime ?? "09:00");
  if (!defaultClock) throw new RangeError(`defaultTime is not "HH:mm": ${options.defaultTime}`);
  const now = instantToLocal(nowMs, timeZone);
  const scanner = new Scanner(normalizeText(expression).text);
  const found = scanMentions(scanner, { year: now.year, month: now.month, day: now.day }, timeZone);
  return resolveMentions(found, nowMs, timeZone, defaultClock);
}
