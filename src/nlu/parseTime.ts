/**
 * Finds the time in a whole message ("remind me tomorrow at 9am to call mom", "כל יום ראשון ב-9
 * לשים זבל") and resolves it in code, in the user's zone (D6): one instant, or a repeat rule with its
 * first occurrence. The rest of the message comes back with the time words cut out.
 *
 * Defaults: a date named without a time is at 09:00 (`dateOnly`); a repeat named without a time
 * ("every day", "כל יום ראשון") fires at 09:00, or at the part of the day it names ("every evening":
 * 20:00); an hour 1–6 said without am/pm in a repeat is afternoon ("every day at 5" is 17:00), 7–12
 * as said; "every week" keeps the weekday of its first day (today, or the day named with it);
 * "every month" with no day of the month takes the day named with it ("from April 3"), else is null;
 * a nudge first rings one interval from now, or at the time named with it; "until" a date alone means
 * the end of that local day (23:59), and an "until"/"עד" with no time it can resolve is null.
 */
import { nextOccurrence, type Recurrence } from "./recurrence.js";
import { UNTIL_MARKER, hasUnsupportedRepeat, takeRepeats, type RepeatPhrase } from "./recurrencePhrases.js";
import { PERIOD_DEFAULT, resolveMentions, slotsOf } from "./resolveWhen.js";
import { Scanner, scanMentions, type Found, type Span } from "./timeMentions.js";
import { MINUTE_MS, normalizeText, type NormalizedText, type Period } from "./timeWords.js";
import { dayOfWeek, formatClock, instantToLocal, type LocalDate } from "./zonedTime.js";
import { pad2 } from "../utils/timeContext.js";

/** One moment. */
export interface ParsedInstant {
  kind: "instant";
  /** Epoch ms. */
  at: number;
  /** Wall time in `timeZone`, "YYYY-MM-DDTHH:mm". */
  local: string;
  timeZone: string;
  /** Only a date was named; `at` is that date at 09:00 (and may already be past for "today"). */
  dateOnly: boolean;
  /** The message without the time words, whitespace tidied. */
  text: string;
  /** The time words found, as written. */
  phrase: string;
}

/** A repeating reminder. */
export interface ParsedRecurring {
  kind: "recurring";
  recurrence: Recurrence;
  /** Epoch ms of the first occurrence. */
  firstAt: number;
  timeZone: string;
  /** The message without the time words, whitespace tidied. */
  text: string;
  /** The time words found, as written. */
  phrase: string;
}

export type ParsedTime = ParsedInstant | ParsedRecurring;

/** The wall time of a date named alone, and of a repeat named without a time. */
const DEFAULT_CLOCK = { hour: 9, minute: 0 };
/** "until April 3": the end of that day. */
const END_OF_DAY = { hour: 23, minute: 59 };
const START_OF_DAY = { hour: 0, minute: 0 };

/**
 * The time expression in `message`, resolved against `nowMs` in `timeZone` (an IANA zone; a
 * RangeError if unknown); null when the message names no time, or names one that is impossible,
 * contradictory or a repeat that cannot be expressed ("every other day").
 */
export function parseTime(message: string, nowMs: number, timeZone: string): ParsedTime | null {
  const normalized = normalizeText(message);
  const now = instantToLocal(nowMs, timeZone);
  if (hasUnsupportedRepeat(normalized.text)) return null;
  const today: LocalDate = { year: now.year, month: now.month, day: now.day };
  const scanner = new Scanner(normalized.text);
  const repeats = takeRepeats(scanner);
  if (repeats.length > 1) return null;
  const found = scanMentions(scanner, today, timeZone, repeats);
  const [repeat] = repeats;
  if (repeat) return parseRecurring(repeat, found, scanner.text, normalized, nowMs, timeZone);

  const resolved = resolveMentions(found, nowMs, timeZone, DEFAULT_CLOCK);
  if (!resolved) return null;
  const local = instantToLocal(resolved.at, timeZone);
  return {
    kind: "instant",
    at: resolved.at,
    local: `${local.year}-${pad2(local.month)}-${pad2(local.day)}T${formatClock(local.hour, local.minute)}`,
    timeZone,
    dateOnly: resolved.dateOnly,
    ...cutOut(normalized, found),
  };
}

const isClockLike = (f: Found) => f.mention.kind === "clock" || f.mention.kind === "period";

function parseRecurring(
  repeat: RepeatPhrase,
  found: Found[],
  maskedText: string,
  normalized: NormalizedText,
  nowMs: number,
  timeZone: string,
): ParsedRecurring | null {
  if (found.some((f) => f.mention.kind === "impossible")) return null;
  const until = untilChain(maskedText, found);
  if (until === undefined) return null;
  let untilItems = until?.items ?? [];
  let timeItems = found.filter((f) => !untilItems.includes(f));
  // "every day until Friday at 9": with no time of its own, the repeat takes the time said after "until".
  if (repeat.type !== "nudge" && !timeItems.some(isClockLike) && untilItems.some((f) => !isClockLike(f))) {
    timeItems = [...timeItems, ...untilItems.filter(isClockLike)];
    untilItems = untilItems.filter((f) => !isClockLike(f));
  }

  let untilMs: number | undefined;
  if (untilItems.length > 0) {
    const end = resolveMentions(untilItems, nowMs, timeZone, END_OF_DAY);
    if (!end) return null;
    untilMs = end.at;
  }
  const plan =
    repeat.type === "nudge"
      ? planNudge(repeat, timeItems, nowMs, timeZone)
      : planCalendar(repeat, timeItems, nowMs, timeZone);
  if (!plan) return null;
  const recurrence: Recurrence = {
    ...plan.rule,
    ...(untilMs === undefined ? {} : { until: new Date(untilMs).toISOString() }),
  };
  const firstAt = nextOccurrence(recurrence, timeZone, plan.after);
  if (firstAt === null) return null;

  const spans: Span[] = [repeat, ...found, ...(until ? [until.span] : [])];
  return { kind: "recurring", recurrence, firstAt, timeZone, ...cutOut(normalized, spans) };
}

/** A rule, and the instant its first occurrence comes strictly after. */
interface Plan {
  rule: Recurrence;
  after: number;
}

/** A nudge rings one interval from now, or first at the time named with it ("from 5pm"). */
function planNudge(repeat: RepeatPhrase, items: Found[], nowMs: number, timeZone: string): Plan | null {
  const interval = repeat.intervalMinutes;
  if (interval === undefined || interval <= 0) return null;
  let after = nowMs;
  if (items.length > 0) {
    const named = resolveMentions(items, nowMs, timeZone, DEFAULT_CLOCK);
    if (!named) return null;
    if (named.at > nowMs) after = named.at - interval * MINUTE_MS;
  }
  return { rule: { type: "nudge", intervalMinutes: interval }, after };
}

/** A daily, weekly or monthly rule; a day named with it ("from tomorrow") is the first day it may fire. */
function planCalendar(repeat: RepeatPhrase, items: Found[], nowMs: number, timeZone: string): Plan | null {
  const time = repeatTime(repeat, items);
  if (!time) return null;
  const startItems = items.filter((f) => !isClockLike(f));
  let firstDayMs = nowMs;
  if (startItems.length > 0) {
    const start = resolveMentions(startItems, nowMs, timeZone, START_OF_DAY);
    if (!start) return null;
    firstDayMs = Math.max(nowMs, start.at);
  }
  // "every month" with no day of the month, said or implied by a first day ("from April 3"), cannot
  // be told: "כל חודש ב-10 בבוקר" may be the 10th or 10:00; today's date would be a guess.
  if (repeat.type === "monthly" && repeat.dayOfMonth === undefined && startItems.length === 0) return null;
  const rule = ruleOf(repeat, time, instantToLocal(firstDayMs, timeZone));
  return rule ? { rule, after: Math.max(nowMs, firstDayMs - 1) } : null;
}

/** The repeat's local "HH:mm" from the clock time and part of the day around it. */
function repeatTime(repeat: RepeatPhrase, items: Found[]): string | null {
  const clocks = items.flatMap((f) => (f.mention.kind === "clock" ? [f.mention.clock] : []));
  const periods = new Set<Period>(repeat.period ? [repeat.period] : []);
  for (const f of items) if (f.mention.kind === "period") periods.add(f.mention.period);
  if (clocks.length > 1 || periods.size > 1) return null;
  const [clock] = clocks;
  const [period] = periods;
  if (!clock) {
    const slot = period ? PERIOD_DEFAULT[period] : DEFAULT_CLOCK;
    return formatClock(slot.hour, slot.minute);
  }
  if (clock.kind === "open" && !period) {
    // With no "today if still ahead" to choose by, a bare 1–6 is the afternoon, 7–12 as said.
    return formatClock(clock.hour <= 6 ? clock.hour + 12 : clock.hour, clock.minute);
  }
  const [slot] = slotsOf(clock, period);
  return slot ? formatClock(slot.hour, slot.minute) : null;
}

/** The rule, with "every week" / "every month" taking the weekday or day of `firstDay`. */
function ruleOf(repeat: RepeatPhrase, time: string, firstDay: LocalDate): Recurrence | null {
  switch (repeat.type) {
    case "daily":
      return { type: "daily", time };
    case "weekly": {
      const days = repeat.days?.length ? repeat.days : [dayOfWeek(firstDay)];
      return { type: "weekly", time, days };
    }
    case "monthly": {
      const dayOfMonth = repeat.dayOfMonth ?? firstDay.day;
      return dayOfMonth >= 1 && dayOfMonth <= 31 ? { type: "monthly", time, dayOfMonth } : null;
    }
    default:
      return null;
  }
}

/**
 * The mentions right after "until"/"עד" (only spaces, commas and "the"/"ה-" between them), and the
 * span from the marker to the last of them; undefined when "until"/"till"/"עד" is followed by no
 * time found ("until next week", "עד שאסיים"), as the repeat's end cannot be told.
 */
function untilChain(maskedText: string, found: Found[]): { span: Span; items: Found[] } | null | undefined {
  let chain: { span: Span; items: Found[] } | null = null;
  for (const marker of maskedText.matchAll(UNTIL_MARKER)) {
    const start = marker.index ?? 0;
    let end = start + marker[0].length;
    const items: Found[] = [];
    for (const f of found) {
      if (f.start < end) continue;
      const glue = items.length === 0 ? /^\s*(?:(?:the|ה)\s*-?\s*)?$/u : /^[\s,]*$/u;
      if (!glue.test(maskedText.slice(end, f.start))) break;
      items.push(f);
      end = f.end;
    }
    // "through" and "ועד" are often no end at all ("go through emails", "ועד בית": a house committee).
    if (items.length === 0 && /^(?:until|till|עד)$/u.test(marker[0])) return undefined;
    if (items.length > 0) chain ??= { span: { start, end }, items };
  }
  return chain;
}

/** A word that ties a time to the sentence: "remind me (for) tomorrow", "לסיים (עד) מחר". */
const GLUE_BEFORE =
  /(?<![\p{L}\p{N}])(?:at|on|by|for|from|starting|beginning|until|till|ו?עד|החל\s+מ-?)\s+$/u;
/**
 * A Hebrew prefix written onto a number: "ב-3 באפריל", "ה-10", or a lone letter before it ("ב 3
 * באפריל"; a longer word such as "לה" ("to her") is left alone).
 */
const PREFIX_BEFORE = /(?<![\p{L}\p{N}])(?:[ובלה]{1,3}\s*-\s*|[ובלה]{1,3}|[ובלה]\s+)$/u;
/**
 * A time phrase that already starts with its own preposition ("at 5", "ב-5", "until Friday"); a
 * phrase starting with "the", "next", "this" or "ה-" still takes the one before it ("by the 10th of
 * April", "עד ה-10 באפריל").
 */
const STARTS_WITH_GLUE = /^(?:(?:at|on|in|by|until|till|every|each)(?!\p{L})|ו?[בל]|כל|מדי|ו?עד)/u;

/** The message without the spans (and the glue words before them), and the spans' own words. */
function cutOut(normalized: NormalizedText, spans: Span[]): { text: string; phrase: string } {
  const { text, source, from, to } = normalized;
  const widened = spans
    .map(({ start, end }) => {
      const prefix = /^\d/u.test(text.slice(start, end)) ? PREFIX_BEFORE.exec(text.slice(0, start)) : null;
      const from = start - (prefix?.[0].length ?? 0);
      const glue = STARTS_WITH_GLUE.test(text.slice(from, end))
        ? null
        : GLUE_BEFORE.exec(text.slice(0, from));
      return { start: from - (glue?.[0].length ?? 0), end };
    })
    .sort((a, b) => a.start - b.start);

  const merged: Span[] = [];
  for (const span of widened) {
    const last = merged.at(-1);
    if (last && /^[\s,]*$/u.test(text.slice(last.end, span.start))) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }

  let rest = "";
  let cursor = 0;
  const phrases: string[] = [];
  for (const { start, end } of merged) {
    const sourceStart = from[start] ?? source.length;
    const sourceEnd = to[end - 1] ?? source.length;
    rest += `${source.slice(cursor, sourceStart)} `;
    phrases.push(tidy(source.slice(sourceStart, sourceEnd)));
    cursor = sourceEnd;
  }
  rest += source.slice(cursor);
  return { text: tidy(rest), phrase: phrases.join(" ") };
}

/** Single spaces, no space before punctuation, no dangling commas, dashes or bidi marks at either end. */
function tidy(text: string): string {
  return text
    .replace(/\s+/gu, " ")
    .replace(/\s+([,.!?;:])/gu, "$1")
    .replace(/([,;:])(?=[,.!?;:])/gu, "")
    .replace(/^[\s\u200e\u200f,;:.\-–—]+/u, "")
    .replace(/[\s\u200e\u200f,;:\-–—]+$/u, "");
}
