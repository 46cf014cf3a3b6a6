/**
 * Turns time mentions into one instant, in code and in the user's zone (D6). Hebrew and English.
 * readTime (parseTime.ts) combines the mentions it found in a whole message here, and so does
 * resolveWhen (whenPhrase.ts) for a phrase the resolver LLM named. The mentions are combined into
 * one instant, two readings to ask between, or a reason they cannot be.
 */
import type { CalendarOptions } from "./holidays.js";
import type { Found } from "./timeMentions.js";
import { MINUTE_MS, type Clock, type Period, type Relative } from "./timeWords.js";
import {
  addDays,
  addMonths,
  dayOfWeek,
  instantToLocal,
  localToInstant,
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
  /** The user's holiday schedule and Hebrew birthday (default: the zone's schedule, none). */
  calendar?: CalendarOptions;
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

/** The hours each part of the day spans, for telling a clock time that contradicts it. */
const span = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => (from + i) % 24);
const PERIOD_HOURS: Record<Period, number[]> = {
  morning: span(4, 12),
  noon: span(11, 14),
  afternoon: span(12, 18),
  evening: span(16, 23),
  night: [...span(19, 23), ...span(0, 5)],
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
      // No am/pm: either reading; the caller takes the first still ahead. "A quarter to one" is
      // 12:45 or 00:45.
      if (hour === 12) return clock.said === 1 ? [...at(0), ...at(12)] : at(12);
      return [...at(hour), ...at(hour + 12)];
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
 * What mentions combine to: one instant; two readings of an hour said without am/pm ("tomorrow at
 * 5": morning first); or a reason the words cannot give a time.
 */
export type Resolution =
  | { kind: "at"; at: number; dateOnly: boolean; zone?: { zone: string; label: string } }
  | { kind: "ambiguous"; choices: [number, number]; zone?: { zone: string; label: string } }
  | { kind: "too_far" }
  | { kind: "unread" };

/** An hour of 1–6 said with no am/pm nor part of the day is asked about (D10); 7–12 are as said. */
const LAST_AMBIGUOUS_HOUR = 6;

/**
 * Combines mentions into one instant (D6); `defaultClock` is the wall time of a date named alone.
 * An explicit zone ("8am PST") makes every wall time and day word that zone's.
 */
export function resolveMentionsFully(
  found: Found[],
  nowMs: number,
  userZone: string,
  defaultClock: { hour: number; minute: number },
): Resolution {
  const unread: Resolution = { kind: "unread" };
  const instant = found.find((f) => f.mention.kind === "instant")?.mention;
  if (found.some((f) => f.mention.kind === "too_far")) return { kind: "too_far" };
  if (instant?.kind === "instant")
    return found.length === 1 ? { kind: "at", at: instant.at, dateOnly: false } : unread;
  if (found.some((f) => f.mention.kind === "impossible")) return unread;
  if (found.some((f) => f.mention.kind === "now"))
    return found.length === 1 ? { kind: "at", at: nowMs, dateOnly: false } : unread;
  const zones = found.flatMap((f) => (f.mention.kind === "zone" ? [f.mention] : []));
  if (zones.length > 1) return unread;
  const zoneMention = zones[0];
  const zoneInfo = zoneMention ? { zone: zoneMention.zone, label: zoneMention.label } : undefined;
  const timeZone = zoneMention?.zone ?? userZone;
  // "9am EDT" said of a January day: New York is on EST then, so the words contradict each other.
  const season = zoneMention?.season;
  const inSeason = (at: number) => !season || sameWall(at, timeZone, season);
  const withZone = (r: Resolution): Resolution => {
    if (r.kind === "at" && !inSeason(r.at)) return unread;
    if (r.kind === "ambiguous" && !r.choices.every(inSeason)) return unread;
    return zoneInfo && (r.kind === "at" || r.kind === "ambiguous") ? { ...r, zone: zoneInfo } : r;
  };

  const now = instantToLocal(nowMs, timeZone);
  const today: LocalDate = { year: now.year, month: now.month, day: now.day };
  const said = gather(found);
  const { relatives, weekdays, clocks, dates } = said;
  if (found.some((f) => f.mention.kind === "sameTime")) {
    // "at the same time" with no day is now: a one-off reminder needs a time ahead of it.
    if (relatives.length === 0 && dates.length === 0 && weekdays.length === 0)
      return found.length === 1 ? { kind: "at", at: nowMs, dateOnly: false } : unread;
    clocks.push({ hour: now.hour, minute: now.minute, kind: "exact" });
  }
  if (relatives.length > 1 || clocks.length > 1 || dates.length > 1 || weekdays.length > 1) return unread;
  if (said.periods.length > 1) return unread;

  const relative = relatives[0];
  const clock = clocks[0];
  const weekday = weekdays[0];
  const period = said.periods[0] ?? said.impliedPeriods[0];
  const date = dates[0];
  // A zone belongs to a clock time: "tomorrow PST" or a zone with "in 2 hours" says nothing more.
  if (zoneMention && (!clock || relative)) return unread;

  if (relative?.kind === "duration") {
    const alone = !clock && !date && !weekday && !period;
    return alone ? { kind: "at", at: nowMs + relative.ms, dateOnly: false } : unread;
  }
  if (relative && (date || weekday)) return unread;
  if (weekday && date && dayOfWeek(date) !== weekday.day) return unread;
  const standalonePeriod = said.standalonePeriod || said.impliedPeriods.length > 0;
  if (!relative && !date && !weekday && !clock && !standalonePeriod) return unread;

  // "tomorrow evening at 8am", "ב-21 בבוקר": the hour and the part of the day disagree (D10).
  if (
    clock &&
    period &&
    clock.kind !== "open" &&
    !PERIOD_HOURS[period].includes(slotsOf(clock, undefined)[0]?.hour ?? -1)
  )
    return unread;
  // The wall times asked for; none means only a date was named.
  const slots = clock ? slotsOf(clock, period) : period ? [PERIOD_DEFAULT[period]] : null;
  const secondMs = (clock?.second ?? 0) * 1000;
  const timesOn = (day: LocalDate, wanted: Slot[]) =>
    wanted.map(
      (s) =>
        localToInstant({ ...addDays(day, s.dayOffset), hour: s.hour, minute: s.minute }, timeZone) + secondMs,
    );
  /** An hour 1–6 with no am/pm or part of the day: both readings count, and both ahead means asking. */
  const ambiguous = clock?.kind === "open" && !period && (clock.said ?? clock.hour) <= LAST_AMBIGUOUS_HOUR;
  /**
   * The reading on `day`: with an ambiguous hour, the one still ahead if only one is, else both
   * (asked); otherwise the first still ahead, else (unless `aheadOnly`) the last one.
   */
  const pick = (day: LocalDate, wanted: Slot[], aheadOnly: boolean): Resolution | null => {
    const times = timesOn(day, wanted);
    const ahead = times.filter((t) => t > nowMs);
    if (ambiguous && times.length === 2) {
      if (ahead.length === 2) return { kind: "ambiguous", choices: [times[0]!, times[1]!] };
      if (ahead.length === 1) return { kind: "at", at: ahead[0]!, dateOnly: false };
      return aheadOnly ? null : { kind: "at", at: times[1]!, dateOnly: false };
    }
    const at = ahead[0] ?? (aheadOnly ? undefined : times.at(-1));
    return at === undefined ? null : { kind: "at", at, dateOnly: !slots };
  };
  const defaultSlot: Slot = { dayOffset: 0, ...defaultClock };

  if (relative) {
    const target = addMonths(addDays(today, relative.days), relative.months);
    if (slots) return withZone(pick(target, slots, false) ?? unread);
    // Days, weeks and months keep the wall time, to the millisecond (D6).
    const sameWallTime = localToInstant({ ...target, hour: now.hour, minute: now.minute }, timeZone);
    return {
      kind: "at",
      at: sameWallTime + (((nowMs % MINUTE_MS) + MINUTE_MS) % MINUTE_MS),
      dateOnly: false,
    };
  }
  if (date) return withZone(pick(date, slots ?? [defaultSlot], false) ?? unread);
  if (weekday) {
    // An hour 7–12 without am/pm on a named weekday is its first reading ("on Thursday at 9" is
    // 09:00), also when that weekday is today and 09:00 has passed: then it is next week's.
    const wanted =
      clock?.kind === "open" && !period && !ambiguous && slots ? slots.slice(0, 1) : (slots ?? [defaultSlot]);
    const days = [0, 7].map((extra) => {
      const first = weekday.strictlyAfterToday ? 1 : 0;
      const offset = first + ((weekday.day - dayOfWeek(addDays(today, first)) + 7) % 7) + extra;
      return addDays(today, offset);
    });
    if (ambiguous && slots?.length === 2) {
      // "on Friday at 3": both readings are asked about, each on the first Friday it is still ahead
      // (said on a Friday at 10:00, the afternoon one is today's and the morning one next week's).
      const first = (slot: Slot) =>
        days.map((day) => timesOn(day, [slot])[0]!).find((t) => t > nowMs) ?? null;
      const [morning, afternoon] = [first(slots[0]!), first(slots[1]!)];
      return morning !== null && afternoon !== null
        ? withZone({ kind: "ambiguous", choices: [morning, afternoon] })
        : unread;
    }
    for (const day of days) {
      const reading = pick(day, wanted, true);
      if (reading) return withZone(reading);
    }
    return unread;
  }
  if (!slots) return unread;
  // A bare time: today if still ahead, else tomorrow.
  return withZone(pick(today, slots, true) ?? pick(addDays(today, 1), slots, false) ?? unread);
}

/** Whether an instant shows the same wall time in two zones (a season's offset and its place's). */
function sameWall(at: number, zone: string, other: string): boolean {
  const a = instantToLocal(at, zone);
  const b = instantToLocal(at, other);
  return a.day === b.day && a.hour === b.hour && a.minute === b.minute;
}

/**
 * Combines mentions into one instant (D6), or null when they do not give exactly one (missing,
 * impossible, contradictory, beyond the horizon, or an hour that could be morning or afternoon).
 */
export function resolveMentions(
  found: Found[],
  nowMs: number,
  timeZone: string,
  defaultClock: { hour: number; minute: number },
): ResolvedWhen | null {
  const resolution = resolveMentionsFully(found, nowMs, timeZone, defaultClock);
  return resolution.kind === "at" ? { at: resolution.at, dateOnly: resolution.dateOnly } : null;
}
