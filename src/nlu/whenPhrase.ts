/**
 * The time words a resolver LLM handed over ("tomorrow at 9", "בעוד שעתיים", "2026-04-03T09:00"),
 * turned into an instant in code (D6) under the same rule as a whole message (D10): every
 * time-bearing word read, or no answer.
 */
import { readTime, type ParsedInstant, type UnclearReason } from "./parseTime.js";
import type { ResolvedWhen, ResolveWhenOptions } from "./resolveWhen.js";
import { parseClock } from "./zonedTime.js";

/** What a phrase says: an instant (possibly past: the caller says so), or why Memo must ask. */
export type WhenReading =
  | {
      kind: "at";
      at: number;
      dateOnly: boolean;
      passed: boolean;
      saidIn?: ParsedInstant["saidIn"];
      hebrewDate?: ParsedInstant["hebrewDate"];
    }
  | { kind: "unclear"; reason: Exclude<UnclearReason, "past">; choices?: [number, number] };

/** The reading of a phrase; a named day whose time has passed is kept, marked `passed`. */
export function readWhen(
  expression: string,
  nowMs: number,
  timeZone: string,
  options: ResolveWhenOptions = {},
): WhenReading {
  const defaultClock = parseClock(options.defaultTime ?? "09:00");
  if (!defaultClock) throw new RangeError(`defaultTime is not "HH:mm": ${options.defaultTime}`);
  const reading = readTime(expression, nowMs, timeZone, {
    defaultClock,
    ...(options.calendar ? { calendar: options.calendar } : {}),
  });
  if (!reading) return { kind: "unclear", reason: "unread" };
  if (reading.kind === "recurring") return { kind: "unclear", reason: "unread" };
  const instant = reading.kind === "instant" ? reading : reading.passed;
  if (instant) {
    return {
      kind: "at",
      at: instant.at,
      dateOnly: instant.dateOnly,
      passed: reading.kind !== "instant",
      ...(instant.saidIn ? { saidIn: instant.saidIn } : {}),
      ...(instant.hebrewDate ? { hebrewDate: instant.hebrewDate } : {}),
    };
  }
  if (reading.kind !== "unclear" || reading.reason === "past") return { kind: "unclear", reason: "unread" };
  const choices = reading.choices?.map((c) => (c.kind === "instant" ? c.at : c.firstAt));
  return {
    kind: "unclear",
    reason: reading.reason,
    ...(choices?.length === 2 ? { choices: [choices[0]!, choices[1]!] as [number, number] } : {}),
  };
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
  const reading = readWhen(expression, nowMs, timeZone, options);
  return reading.kind === "at" ? { at: reading.at, dateOnly: reading.dateOnly } : null;
}
