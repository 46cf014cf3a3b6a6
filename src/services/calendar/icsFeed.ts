/**
 * The built-in calendar as an iCalendar (RFC 5545) feed, so a user can subscribe to it from any
 * calendar app. A series is one VEVENT with its RRULE and EXDATEs; an occurrence changed on its
 * own is a further VEVENT with the same UID and a RECURRENCE-ID. Timed events carry their zone
 * (TZID, with a VTIMEZONE built from the zone's real offsets); all-day events are VALUE=DATE with
 * an exclusive end, as Google stores them.
 */
import type {
  OccurrenceOverride,
  StoredCalendarEvent,
} from "../../db/repositories/calendarEventRepository.js";
import { instantToLocal } from "../../nlu/zonedTime.js";
import { firstOccurrence, occurrenceOn } from "./recurrenceExpansion.js";
import { basicDate, toRRule, utcStamp } from "./rrule.js";

/** Options of a rendered feed. */
export interface IcsFeedOptions {
  /** The moment the feed is made (DTSTAMP), epoch ms. */
  now: number;
  /** The calendar's name in the subscriber's app (default: "Memo"). */
  name?: string;
  /** The user's zone, offered as the calendar's default (X-WR-TIMEZONE). */
  timeZone?: string;
}

/** TEXT escaping of RFC 5545 §3.3.11: backslash, semicolon, comma and newlines. @internal */
export function escapeText(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/**
 * A content line folded at 75 octets (RFC 5545 §3.1): continuation lines begin with one space,
 * and a UTF-8 character (a Hebrew letter is two octets) is never split.
 * @internal
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, "utf8");
    // The first line holds 75 octets; each continuation 74 after its leading space.
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

const pad = (n: number) => String(Math.abs(n)).padStart(2, "0");

/** An instant as local DATE-TIME in a zone: 20260406T090000. */
function localStamp(epochMs: number, timeZone: string): string {
  const l = instantToLocal(epochMs, timeZone);
  const seconds = Math.floor((((epochMs % 60_000) + 60_000) % 60_000) / 1000);
  return `${String(l.year).padStart(4, "0")}${pad(l.month)}${pad(l.day)}T${pad(l.hour)}${pad(l.minute)}${pad(seconds)}`;
}

/** The zone's offset from UTC at an instant, in minutes. */
function offsetMinutes(epochMs: number, timeZone: string): number {
  const l = instantToLocal(epochMs, timeZone);
  const wall = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute);
  return Math.round((wall - Math.floor(epochMs / 60_000) * 60_000) / 60_000);
}

/** "+0300", "-0500". */
function utcOffset(minutes: number): string {
  return `${minutes < 0 ? "-" : "+"}${pad(Math.trunc(minutes / 60))}${pad(minutes % 60)}`;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The instants in [fromMs, toMs) at which the zone's offset changes, each with the offsets either side. */
function transitions(
  timeZone: string,
  fromMs: number,
  toMs: number,
): { at: number; from: number; to: number }[] {
  const found: { at: number; from: number; to: number }[] = [];
  let previous = offsetMinutes(fromMs, timeZone);
  for (let t = fromMs + DAY_MS; t < toMs + DAY_MS; t += DAY_MS) {
    const offset = offsetMinutes(t, timeZone);
    if (offset === previous) continue;
    // Narrow the change down to the minute.
    let lo = t - DAY_MS;
    let hi = t;
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (offsetMinutes(mid, timeZone) === previous) lo = mid;
      else hi = mid;
    }
    found.push({ at: hi, from: previous, to: offset });
    previous = offset;
  }
  return found;
}

/**
 * A VTIMEZONE for the zone, spelling out each offset change in [fromMs, toMs) (no rules to
 * guess: the zone's history as this runtime knows it).
 */
function vtimezone(timeZone: string, fromMs: number, toMs: number): string[] {
  const lines = ["BEGIN:VTIMEZONE", `TZID:${timeZone}`];
  const initial = offsetMinutes(fromMs, timeZone);
  lines.push(
    "BEGIN:STANDARD",
    `DTSTART:${localStamp(fromMs, "UTC").slice(0, 9)}000000`,
    `TZOFFSETFROM:${utcOffset(initial)}`,
    `TZOFFSETTO:${utcOffset(initial)}`,
    "END:STANDARD",
  );
  for (const change of transitions(timeZone, fromMs, toMs)) {
    const kind = change.to > change.from ? "DAYLIGHT" : "STANDARD";
    lines.push(
      `BEGIN:${kind}`,
      // The onset in the local time in force before it.
      `DTSTART:${localStamp(change.at + change.from * 60_000, "UTC")}`,
      `TZOFFSETFROM:${utcOffset(change.from)}`,
      `TZOFFSETTO:${utcOffset(change.to)}`,
      `END:${kind}`,
    );
  }
  lines.push("END:VTIMEZONE");
  return lines;
}

/** DTSTART / DTEND / RECURRENCE-ID / EXDATE value of a time: a date, or a local time with its zone. */
function timeProperty(name: string, allDay: boolean, value: string, timeZone: string): string {
  return allDay
    ? `${name};VALUE=DATE:${basicDate(value)}`
    : `${name};TZID=${timeZone}:${localStamp(Date.parse(value), timeZone)}`;
}

/** The lines of one VEVENT. */
function vevent(
  event: StoredCalendarEvent,
  fields: StoredCalendarEvent,
  now: number,
  extra: { recurrenceId?: string; rrule?: string; exdates?: string[] },
): string[] {
  const lines = ["BEGIN:VEVENT", `UID:${event.id}@memo`, `DTSTAMP:${utcStamp(now)}`];
  if (extra.recurrenceId) lines.push(extra.recurrenceId);
  lines.push(
    timeProperty("DTSTART", fields.allDay, fields.start, fields.timeZone),
    timeProperty("DTEND", fields.allDay, fields.end, fields.timeZone),
  );
  if (extra.rrule) lines.push(extra.rrule);
  for (const exdate of extra.exdates ?? []) lines.push(exdate);
  lines.push(`SUMMARY:${escapeText(fields.summary)}`);
  if (fields.description) lines.push(`DESCRIPTION:${escapeText(fields.description)}`);
  if (fields.location) lines.push(`LOCATION:${escapeText(fields.location)}`);
  if (fields.reminderMinutesBefore !== null) {
    const minutes = fields.reminderMinutesBefore;
    lines.push(
      "BEGIN:VALARM",
      "ACTION:DISPLAY",
      `DESCRIPTION:${escapeText(fields.summary)}`,
      `TRIGGER:${minutes === 0 ? "PT0M" : `-PT${minutes}M`}`,
      "END:VALARM",
    );
  }
  lines.push("END:VEVENT");
  return lines;
}

/** The VEVENTs of one stored event: the event or series, then each occurrence changed on its own. */
function eventLines(event: StoredCalendarEvent, now: number): string[] {
  if (!event.recurrence) return vevent(event, event, now, {});
  const timing = { ...event, recurrence: event.recurrence };
  // An occurrence's original start, as its RECURRENCE-ID or EXDATE names it.
  const originalStart = (name: string, date: string): string | null => {
    const occurrence = occurrenceOn(timing, date);
    return occurrence ? timeProperty(name, event.allDay, occurrence.start, event.timeZone) : null;
  };
  const exdates = event.exdates.flatMap((date) => originalStart("EXDATE", date) ?? []);
  const lines = vevent(event, event, now, { rrule: toRRule(event.recurrence, event), exdates });
  for (const [date, override] of Object.entries(event.overrides)) {
    if (event.exdates.includes(date)) continue;
    const recurrenceId = originalStart("RECURRENCE-ID", date);
    const occurrence = occurrenceOn(timing, date);
    if (!recurrenceId || !occurrence) continue;
    const fields = withOverride(event, occurrence, override);
    lines.push(...vevent(event, fields, now, { recurrenceId }));
  }
  return lines;
}

function withOverride(
  event: StoredCalendarEvent,
  occurrence: { start: string; end: string },
  override: OccurrenceOverride,
): StoredCalendarEvent {
  const defined = Object.fromEntries(Object.entries(override).filter(([, v]) => v !== undefined));
  return { ...event, start: occurrence.start, end: occurrence.end, ...defined };
}

/** The zones the events' times are written in, and the span a VTIMEZONE must cover. */
function zonesUsed(
  events: StoredCalendarEvent[],
  now: number,
): { zones: Set<string>; fromMs: number; toMs: number } {
  const zones = new Set<string>();
  let fromMs = now - 366 * DAY_MS;
  for (const event of events) {
    const timed = !event.allDay || Object.values(event.overrides).some((o) => o.allDay === false);
    if (!timed) continue;
    zones.add(event.timeZone);
    fromMs = Math.min(fromMs, Date.parse(event.start) - DAY_MS);
  }
  // Subscribers expand series years ahead; the zone's changes are listed ten years past now.
  return { zones, fromMs: Math.floor(fromMs / HOUR_MS) * HOUR_MS, toMs: now + 10 * 366 * DAY_MS };
}

/** The events as an iCalendar document (CRLF line ends, folded lines), ready to serve as text/calendar. */
export function renderIcsFeed(events: StoredCalendarEvent[], options: IcsFeedOptions): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Memo//Built-in calendar//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(options.name ?? "Memo")}`,
  ];
  if (options.timeZone) lines.push(`X-WR-TIMEZONE:${options.timeZone}`);
  // Subscribers poll; ask for every hour or so.
  lines.push("REFRESH-INTERVAL;VALUE=DURATION:PT1H", "X-PUBLISHED-TTL:PT1H");
  const { zones, fromMs, toMs } = zonesUsed(events, options.now);
  for (const zone of [...zones].sort()) lines.push(...vtimezone(zone, fromMs, toMs));
  for (const event of events) {
    // A series whose rule no longer yields an occurrence has nothing to show.
    if (event.recurrence && !firstOccurrence({ ...event, recurrence: event.recurrence })) continue;
    lines.push(...eventLines(event, options.now));
  }
  lines.push("END:VCALENDAR");
  return lines.map(foldLine).join("\r\n") + "\r\n";
}
