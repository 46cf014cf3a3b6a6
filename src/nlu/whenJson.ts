/**
 * The JSON the `npm run when` command prints for a message: what parseTime found, with instants as
 * UTC ISO strings, or {"error"}. The script only reads arguments and lines; everything else is here.
 */
import { z } from "zod";
import { stripCommandWords } from "./commandWords.js";
import { readTime, type ParsedTime, type UnclearReason } from "./parseTime.js";
import type { RecurrenceType } from "../types/recurrence.js";
import { localToInstant } from "./zonedTime.js";
import { isValidTimeZone } from "../utils/timeContext.js";

/** The zone used when none is given (default: "Asia/Jerusalem"). */
export const DEFAULT_WHEN_TIME_ZONE = "Asia/Jerusalem";

interface WhenInstantJson {
  kind: "instant";
  at: string;
  local: string;
  timeZone: string;
  text: string;
}

interface WhenRecurrenceJson {
  type: RecurrenceType;
  /** type "rrule": the RFC 5545 rule, "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU". */
  rule?: string;
  time?: string;
  days?: number[];
  dayOfMonth?: number;
  /** A nudge's interval: "15 minutes". */
  interval?: string;
  /** type "rrule": the local date "YYYY-MM-DD" the series is anchored on. */
  start?: string;
  until?: string;
}

interface WhenRecurringJson {
  kind: "recurring";
  recurrence: WhenRecurrenceJson;
  firstAt: string;
  timeZone: string;
  text: string;
}

/** A time named but not complete: what Memo would ask about (D10), never a guess. */
interface WhenUnclearJson {
  kind: "unclear";
  reason: UnclearReason;
  /** The time words that were read. */
  phrase: string;
  /** The time-bearing words left unread. */
  unread: string[];
  /** `ambiguous_hour`: the morning and afternoon readings the question offers. */
  choices?: (WhenInstantJson | WhenRecurringJson)[];
  timeZone: string;
  text: string;
}

export type WhenJson = WhenInstantJson | WhenRecurringJson | WhenUnclearJson | { error: string };

/** One request: a message, its zone and its "now" (both optional: the defaults apply). */
const whenRequestSchema = z.object({
  text: z.string(),
  tz: z.string().optional(),
  now: z.string().optional(),
});

export type WhenRequest = z.infer<typeof whenRequestSchema>;

const iso = (ms: number) => new Date(ms).toISOString();

/** A parse result in the command's JSON shape, with only the fields that apply. @internal */
export function toWhenJson(parsed: ParsedTime): WhenInstantJson | WhenRecurringJson {
  if (parsed.kind === "instant") {
    const { at, local, timeZone, text } = parsed;
    return { kind: "instant", at: iso(at), local, timeZone, text };
  }
  const { type, time, days, dayOfMonth, intervalMinutes, rule, start, until } = parsed.recurrence;
  const recurrence: WhenRecurrenceJson = {
    type,
    ...(rule !== undefined ? { rule } : {}),
    ...(time !== undefined ? { time } : {}),
    ...(days !== undefined ? { days } : {}),
    ...(dayOfMonth !== undefined ? { dayOfMonth } : {}),
    ...(intervalMinutes !== undefined
      ? { interval: `${intervalMinutes} minute${intervalMinutes === 1 ? "" : "s"}` }
      : {}),
    ...(start !== undefined ? { start } : {}),
    ...(until !== undefined ? { until } : {}),
  };
  const { firstAt, timeZone, text } = parsed;
  return { kind: "recurring", recurrence, firstAt: iso(firstAt), timeZone, text };
}

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** An ISO date-time as epoch ms; without Z or an offset it is wall time in `timeZone`. Null if unreadable. @internal */
export function parseNow(text: string, timeZone: string): number | null {
  const m = ISO_DATE_TIME.exec(text.trim());
  if (!m) return null;
  const [, year, month, day, hour, minute, second, fraction, zone] = m;
  if (zone !== undefined) {
    const at = Date.parse(text.trim());
    if (Number.isNaN(at)) return null;
    // Date.parse rolls 30 February over to 2 March: a date that does not exist is refused.
    const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
    return date.getUTCDate() === Number(day) && date.getUTCMonth() === Number(month) - 1 && Number(hour) < 24
      ? at
      : null;
  }
  try {
    const local = {
      year: Number(year),
      month: Number(month),
      day: Number(day),
      hour: Number(hour),
      minute: Number(minute),
    };
    return (
      localToInstant(local, timeZone) + Number(second ?? 0) * 1000 + Math.round(Number(fraction ?? 0) * 1000)
    );
  } catch {
    return null;
  }
}

/**
 * The command's answer for one request: the time in `text` as JSON, with the leading command words
 * ("remind me to") left out of the text; {"error"} for a bad zone or now, or a text with no time.
 * `clockNowMs` stands in when the request names no now.
 */
export function whenFor(request: WhenRequest, clockNowMs: number): WhenJson {
  const timeZone = request.tz ?? DEFAULT_WHEN_TIME_ZONE;
  if (!isValidTimeZone(timeZone)) return { error: `unknown time zone: ${JSON.stringify(timeZone)}` };
  const nowMs = request.now === undefined ? clockNowMs : parseNow(request.now, timeZone);
  if (nowMs === null) {
    return { error: `now is not an ISO date-time like 2026-03-11T08:00:00Z: ${JSON.stringify(request.now)}` };
  }
  const parsed = readTime(request.text, nowMs, timeZone);
  if (!parsed) return { error: "no time found in the text" };
  const text = stripCommandWords(parsed.text);
  if (parsed.kind !== "unclear") return toWhenJson({ ...parsed, text });
  const { reason, phrase, unread, choices } = parsed;
  return {
    kind: "unclear",
    reason,
    phrase,
    unread,
    ...(choices ? { choices: choices.map((c) => toWhenJson({ ...c, text })) } : {}),
    timeZone,
    text,
  };
}

/** The answer for one line of --batch input: a JSON object {"text","tz","now"}. */
export function whenForLine(line: string, clockNowMs: number): WhenJson {
  // Every input line gets its output line, so line N of the answer is always about line N.
  if (line.trim() === "") return { error: "empty line" };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: "not a JSON line" };
  }
  const request = whenRequestSchema.safeParse(value);
  if (!request.success) {
    return { error: 'expected an object {"text": string, "tz"?: string, "now"?: string}' };
  }
  return whenFor(request.data, clockNowMs);
}
