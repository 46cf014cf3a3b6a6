/**
 * Finds the time in a whole message ("remind me tomorrow at 9am to call mom", "כל יום ראשון ב-9
 * לשים זבל") and resolves it in code, in the user's zone (D6): one instant, or a repeat rule with its
 * first occurrence. The rest of the message comes back with the time words cut out.
 *
 * Defaults: a date named without a time is at 09:00 (`dateOnly`); a repeat named without a time
 * ("every day", "כל יום ראשון") fires at 09:00, or at the part of the day it names ("every evening":
 * 20:00); an hour 1–6 said without am/pm in a repeat is asked ("every day at 5": 05:00 or 17:00?),
 * 7–12 as said; "every week" keeps the weekday of its first day (today, or the day named with it);
 * "every month" / "every year" with no day takes the date named with it ("from April 3", "every
 * year on March 3"), else is asked; "every weekday" / "every weekend" follow the user's week;
 * a nudge first rings one interval from now, or at the time named with it; "until" a date alone means
 * the end of that local day (23:59), and an "until"/"עד" with no time it can resolve is null.
 */
import { MAX_NUDGE_MINUTES, nextOccurrence } from "./recurrence.js";
import { type Recurrence } from "../types/recurrence.js";
import { MAX_INTERVAL, formatRule, type Frequency, type RuleDay, type RuleParts } from "./recurrenceRule.js";
import { UNTIL_MARKER, hasUnsupportedRepeat, takeRepeats, type RepeatPhrase } from "./recurrencePhrases.js";
import { PERIOD_DEFAULT, resolveMentions, resolveMentionsFully, slotsOf } from "./resolveWhen.js";
import { Scanner, scanMentions, type Found, type Span } from "./timeMentions.js";
import { unreadTimeWords } from "./unreadTime.js";
import { scheduleOfZone, type HebrewDaySaid, type HebrewYearly } from "./hebrewCalendar.js";
import { customOf, takeHebrewDates } from "./hebrewDateWords.js";
import { takeHolidays, type CalendarOptions } from "./holidays.js";
import { MINUTE_MS, normalizeText, type NormalizedText, type Period } from "./timeWords.js";
import { dayOfWeek, formatClock, instantToLocal, type LocalDate } from "./zonedTime.js";
import { userWeek } from "./week.js";
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
  /** The zone the words named, when not the user's ("8am PST"): the reply shows both times. */
  saidIn?: { zone: string; label: string };
  /** The Hebrew date the day was named by ("on 10 Tevet"): the reply and listings show it too. */
  hebrewDate?: HebrewDaySaid;
}

/** A repeating reminder. */
interface ParsedRecurring {
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

/**
 * Why a message that names a time cannot be turned into one without asking (D10):
 * - `unread`: a time-bearing word was not understood, or the words contradict each other;
 * - `ambiguous_hour`: an hour 1–6 with no am/pm or part of the day ("tomorrow at 5");
 * - `past`: a one-off time that is not ahead of now ("this morning at 3" said at noon, "now");
 * - `too_far`: beyond the horizon (MAX_HORIZON_DAYS) or a number too large to be a time;
 * - `unsupported`: a repeat that cannot be expressed exactly (never approximated).
 */
export type UnclearReason = "unread" | "ambiguous_hour" | "past" | "too_far" | "unsupported";

/** A time named but not understood well enough to store: Memo asks. */
export interface UnclearTime {
  kind: "unclear";
  reason: UnclearReason;
  timeZone: string;
  /** The message without the time words that were read, whitespace tidied. */
  text: string;
  /** The time words that were read, as written (empty when none was). */
  phrase: string;
  /** The time-bearing words left unread, as written. */
  unread: string[];
  /** `ambiguous_hour`: the morning reading, then the afternoon one. */
  choices?: [ParsedTime, ParsedTime];
  /** `past`: the time the words named, already behind now (a date named alone may still be today). */
  passed?: ParsedInstant;
  /** The local day "YYYY-MM-DD" the day words named, for an answer that names only a clock time. */
  day?: string;
}

/** What a message says about time: a complete answer, or why Memo must ask. */
export type TimeReading = ParsedTime | UnclearTime;

/** Messages longer than this are not read for times (see readTime). */
const MAX_READ_LENGTH = 2000;

/** The furthest ahead a time may be: 10 years. Beyond it, or with a number too large, Memo asks. @internal */
export const MAX_HORIZON_DAYS = 3653;

/** The wall time of a date named alone, and of a repeat named without a time. */
const DEFAULT_CLOCK = { hour: 9, minute: 0 };
/** "until April 3": the end of that day. */
const END_OF_DAY = { hour: 23, minute: 59 };
const START_OF_DAY = { hour: 0, minute: 0 };

/**
 * The time expression in `message`, resolved against `nowMs` in `timeZone` (an IANA zone; a
 * RangeError if unknown): a complete answer, `unclear` with the reason Memo must ask (D10), or null
 * when the message names no time at all.
 */
export function readTime(
  message: string,
  nowMs: number,
  timeZone: string,
  options: ReadTimeOptions = {},
): TimeReading | null {
  const normalized = normalizeText(message);
  // A message this long is not read for a time word by word (the patterns' cost grows with it):
  // when it names a time, Memo asks for it on its own.
  if (normalized.text.length > MAX_READ_LENGTH) {
    return /\d|[\p{L}]/u.test(normalized.text)
      ? { kind: "unclear", reason: "unread", timeZone, text: message, phrase: "", unread: [] }
      : null;
  }
  let scan = scanText(normalized.text, nowMs, timeZone, options.calendar);
  // "tomorrow 10am EST": the day words are days in the zone named, so they are read again there.
  const zone = scan.found.find((f) => f.mention.kind === "zone")?.mention;
  if (zone?.kind === "zone" && zone.zone !== timeZone)
    scan = scanText(normalized.text, nowMs, zone.zone, options.calendar);
  const { scanner, found } = scan;
  const custom = customOf(scanner.text) ?? options.calendar?.custom ?? null;
  const repeats = withImpliedYearly(scan.repeats, found, custom);
  const unread = unreadTimeWords(scanner.text);
  const context: ReadContext = {
    normalized,
    nowMs,
    timeZone,
    found,
    repeats,
    unread,
    defaultClock: options.defaultClock ?? DEFAULT_CLOCK,
    custom,
  };
  if (hasUnsupportedRepeat(normalized.text)) return unclear(context, "unsupported");
  if (repeats.length === 0 && found.length === 0 && unread.length === 0) return null;
  if (found.some((f) => f.mention.kind === "too_far")) return unclear(context, "too_far");
  if (unread.length > 0 || repeats.length > 1) return unclear(context, "unread");
  const [repeat] = repeats;
  if (repeat) return parseRecurring(repeat, scanner.text, context);
  return readInstant(context);
}

export interface ReadTimeOptions {
  /** The wall time of a date named alone (default: 09:00). */
  defaultClock?: { hour: number; minute: number };
  /** The user's holiday schedule and Hebrew birthday, for holidays and Hebrew dates (default: the zone's schedule). */
  calendar?: CalendarOptions;
}

const isClockLike = (f: Found) => f.mention.kind === "clock" || f.mention.kind === "period";

/** Mentions that name a day of their own, beside which a holiday's name can be a noun's part. */
const NAMES_A_DAY = new Set<Found["mention"]["kind"]>(["date", "weekday", "relative", "instant"]);

/**
 * The repeats and mentions of normalized text, day words anchored on today in `timeZone`; holidays
 * and Hebrew dates are taken first, so that their numbers and words ("ט"ו בשבט", "ערב פסח") are theirs.
 */
function scanText(text: string, nowMs: number, timeZone: string, calendar: CalendarOptions = {}) {
  const now = instantToLocal(nowMs, timeZone);
  const today: LocalDate = { year: now.year, month: now.month, day: now.day };
  const scanner = new Scanner(text);
  const said = takeRepeats(scanner);
  const schedule = calendar.schedule ?? scheduleOfZone(timeZone);
  const holidays = takeHolidays(scanner, today, timeZone, schedule);
  // "every Pesach", "כל פסח": the holiday every year, as "every year on Pesach" is.
  const repeats: RepeatPhrase[] = [
    ...said,
    ...holidays.found
      .filter((h) => h.every)
      .map((h) => ({ type: "yearly" as const, start: h.start, end: h.start })),
  ];
  const hebrewDates = takeHebrewDates(scanner, today, calendar);
  const mentions = scanMentions(scanner, today, timeZone, [...said, ...holidays.found, ...hebrewDates]);
  // A holiday said as content gets its words back: a purpose always ("buy matzah for Pesach"), a
  // noun made of its name when another day is named ("buy a Christmas tree tomorrow", "every Friday").
  const otherDay =
    repeats.some((r) => r.type !== "yearly") ||
    [...holidays.found.filter((h) => !h.attributive), ...hebrewDates, ...mentions].some((f) =>
      NAMES_A_DAY.has(f.mention.kind),
    );
  const asContent = (h: { attributive: boolean }) => h.attributive && otherDay;
  // "dinner for Christmas at 6pm": a clock with no day of its own most likely belongs to the holiday
  // said as a purpose; neither today nor Christmas is told, so the name stays masked and is asked about.
  const clockForHoliday = !otherDay && holidays.found.length === 0 && mentions.some(isClockLike);
  const purposes = clockForHoliday ? [] : holidays.content;
  for (const span of [...purposes, ...holidays.found.filter(asContent)]) scanner.unmask(span);
  const asked: Found[] = clockForHoliday
    ? holidays.content.map(({ start, end }) => ({ start, end, mention: { kind: "impossible" } }))
    : [];
  const days = holidays.found
    .filter((h) => !asContent(h))
    .map(({ start, end, mention }): Found => ({ start, end, mention }));
  const found = [...days, ...asked, ...hebrewDates, ...mentions].sort((a, b) => a.start - b.start);
  return { scanner, repeats, found };
}

/**
 * A yahrzeit or a Hebrew birthday on a Hebrew date is kept every year even when "every year" is not
 * said ("yahrzeit for grandma on 10 Tevet", "יום הולדת עברי של אבא ב-ג' בניסן"); `custom` is read
 * in the text without the time words (so "on my Hebrew birthday" itself is one day) or the user's
 * whole message (`CalendarOptions.custom`).
 */
function withImpliedYearly(
  repeats: RepeatPhrase[],
  found: Found[],
  custom: HebrewYearly["custom"] | null,
): RepeatPhrase[] {
  if (repeats.length > 0 || !custom) return repeats;
  const day = found.find((f) => f.mention.kind === "date" && f.mention.yearly?.kind === "hebrew");
  return day ? [{ type: "yearly", start: day.start, end: day.start }] : repeats;
}

/**
 * The time expression in `message` when it is complete (see readTime), else null: callers that
 * cannot ask take "not understood" and "no time" alike.
 */
export function parseTime(message: string, nowMs: number, timeZone: string): ParsedTime | null {
  const reading = readTime(message, nowMs, timeZone);
  return reading && reading.kind !== "unclear" ? reading : null;
}

/** What readTime found in one message, handed to the readers of instants and repeats. */
interface ReadContext {
  normalized: NormalizedText;
  nowMs: number;
  timeZone: string;
  found: Found[];
  repeats: RepeatPhrase[];
  /** Time-bearing words left after every mention was taken, as spans of the normalized text. */
  unread: Span[];
  /** The wall time of a date named alone. */
  defaultClock: { hour: number; minute: number };
  /** The custom the words (or the user's whole message) name for a yearly Hebrew date. */
  custom: HebrewYearly["custom"] | null;
}

/** An unclear answer: the message minus what was read, and the unread words as written. */
function unclear(
  context: ReadContext,
  reason: UnclearReason,
  choices?: [ParsedTime, ParsedTime],
): UnclearTime {
  const { normalized, found, repeats, unread, timeZone, nowMs } = context;
  // Words read as time but not understood ("at 5 or 6", "February 30") are unread too: out of the
  // text, and named in the question.
  const impossible = found.filter((f) => f.mention.kind === "impossible");
  const read = [...repeats, ...found.filter((f) => f.mention.kind !== "impossible")];
  const unreadSpans = [...unread, ...impossible].sort((a, b) => a.start - b.start);
  const { text } = cutOut(normalized, [...read, ...impossible]);
  const { phrase } = cutOut(normalized, read);
  const day = repeats.length === 0 ? dayNamed(found, nowMs, timeZone) : undefined;
  return {
    kind: "unclear",
    reason,
    timeZone,
    text,
    phrase,
    unread: unreadSpans.map((span) => sourceOf(normalized, span)),
    ...(choices ? { choices } : {}),
    ...(day ? { day } : {}),
  };
}

/** The local day "YYYY-MM-DD" the day words alone name ("tomorrow", "on Friday"), if they name one. */
function dayNamed(found: Found[], nowMs: number, timeZone: string): string | undefined {
  const days = found.filter(
    (f) =>
      f.mention.kind === "date" ||
      f.mention.kind === "weekday" ||
      (f.mention.kind === "relative" && f.mention.relative.kind === "calendar"),
  );
  if (days.length === 0) return undefined;
  // A day's start, so that "today" still names today when its 09:00 has passed.
  const resolution = resolveMentionsFully(days, nowMs, timeZone, { hour: 23, minute: 59 });
  if (resolution.kind !== "at") return undefined;
  const local = instantToLocal(resolution.at, timeZone);
  return `${local.year}-${pad2(local.month)}-${pad2(local.day)}`;
}

/** The words of a span of the normalized text, as the user wrote them. */
function sourceOf(normalized: NormalizedText, { start, end }: Span): string {
  return tidy(
    normalized.source.slice(normalized.from[start] ?? 0, normalized.to[end - 1] ?? normalized.source.length),
  );
}

/** Whether an instant lies beyond the horizon from now. */
function beyondHorizon(at: number, nowMs: number): boolean {
  return at - nowMs > MAX_HORIZON_DAYS * 86_400_000;
}

/** A one-off time from the mentions found: complete and ahead, or why Memo must ask. */
function readInstant(context: ReadContext): TimeReading {
  const { found, nowMs, timeZone, normalized } = context;
  const resolution = resolveMentionsFully(found, nowMs, timeZone, context.defaultClock);
  if (resolution.kind === "unread") return unclear(context, "unread");
  if (resolution.kind === "too_far") return unclear(context, "too_far");
  const saidIn = resolution.zone ? { saidIn: resolution.zone } : {};
  const hebrewDays = found.flatMap((f) =>
    f.mention.kind === "date" && f.mention.hebrew ? [f.mention.hebrew] : [],
  );
  const hebrewDate = hebrewDays.length === 1 ? { hebrewDate: hebrewDays[0]! } : {};
  const instant = (at: number, dateOnly: boolean): ParsedInstant => {
    const local = instantToLocal(at, timeZone);
    return {
      kind: "instant",
      at,
      local: `${local.year}-${pad2(local.month)}-${pad2(local.day)}T${formatClock(local.hour, local.minute)}`,
      timeZone,
      dateOnly,
      ...cutOut(normalized, found),
      ...saidIn,
      ...hebrewDate,
    };
  };
  if (resolution.kind === "ambiguous") {
    const [morning, afternoon] = resolution.choices;
    if (beyondHorizon(afternoon, nowMs)) return unclear(context, "too_far");
    return unclear(context, "ambiguous_hour", [instant(morning, false), instant(afternoon, false)]);
  }
  const reading = instant(resolution.at, resolution.dateOnly);
  if (beyondHorizon(resolution.at, nowMs)) return unclear(context, "too_far");
  if (resolution.at <= nowMs) return { ...unclear(context, "past"), passed: reading };
  return reading;
}

/**
 * A repeat from its phrase and the mentions around it (its time, first day and end): complete, or why
 * Memo must ask. An interval beyond ten years is `too_far`; a repeat that cannot be expressed exactly
 * (in another zone, on 29 February) is `unsupported`; an hour 1–6 said with no am/pm or part of the day
 * is `ambiguous_hour`, with both complete readings to choose from.
 */
function parseRecurring(repeat: RepeatPhrase, maskedText: string, context: ReadContext): TimeReading {
  const { found, nowMs, timeZone, normalized } = context;
  if (found.some((f) => f.mention.kind === "too_far") || intervalTooLong(repeat))
    return unclear(context, "too_far");
  // A rule is kept in the user's zone; one said in another zone's wall time cannot be stored exactly.
  if (found.some((f) => f.mention.kind === "zone")) return unclear(context, "unsupported");
  // A rule's time is "HH:mm" (D6): seconds cannot be kept, and "at the same time" is asked.
  if (found.some((f) => f.mention.kind === "clock" && (f.mention.clock.second ?? 0) > 0))
    return unclear(context, "unsupported");
  if (found.some((f) => f.mention.kind === "sameTime")) return unclear(context, "unread");
  if (
    found.some((f) => f.mention.kind === "impossible") ||
    repeat.interval === 0 ||
    repeat.dayOfMonth === 0
  ) {
    return unclear(context, "unread");
  }
  const until = untilChain(maskedText, found);
  if (until === undefined) return unclear(context, "unread");
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
    if (!end) return unclear(context, "unread");
    untilMs = end.at;
  }
  const yearlyDay = timeItems.find((f) => f.mention.kind === "date" && f.mention.yearly);
  const plans =
    repeat.type === "nudge"
      ? planNudge(repeat, timeItems, nowMs, timeZone)
      : yearlyDay
        ? planYearlyDay(repeat, yearlyDay, timeItems, normalized.text, nowMs, context.custom)
        : planCalendar(repeat, timeItems, normalized.text, nowMs, timeZone);
  if (typeof plans === "string") return unclear(context, plans);

  const spans: Span[] = [repeat, ...found, ...(until ? [until.span] : [])];
  const readings: ParsedRecurring[] = [];
  for (const plan of plans) {
    const recurrence: Recurrence = {
      ...plan.rule,
      ...(untilMs === undefined ? {} : { until: new Date(untilMs).toISOString() }),
    };
    const firstAt = nextOccurrence(recurrence, timeZone, plan.after);
    if (firstAt === null) return unclear(context, "unread");
    if (beyondHorizon(firstAt, nowMs)) return unclear(context, "too_far");
    readings.push({ kind: "recurring", recurrence, firstAt, timeZone, ...cutOut(normalized, spans) });
  }
  const [reading, other] = readings;
  if (reading && other) return unclear(context, "ambiguous_hour", [reading, other]);
  return reading ?? unclear(context, "unread");
}

/**
 * "every year on Rosh Hashana", "כל שנה בכ"ה באדר", "every year on Thanksgiving": a day named by its
 * holiday or Hebrew date repeats as that day does (a yearly Hebrew date, or a rule such as the 4th
 * Thursday of November), never as the Gregorian date it falls on this year. Only "every year" fits;
 * a day that moves by other rules (Tisha B'Av, Mothering Sunday) is asked.
 */
function planYearlyDay(
  repeat: RepeatPhrase,
  day: Found,
  items: Found[],
  text: string,
  nowMs: number,
  messageCustom: HebrewYearly["custom"] | null,
): Plan[] | UnclearReason {
  const { mention } = day;
  if (mention.kind !== "date" || !mention.yearly) return "unread";
  if (repeat.type !== "yearly" || (repeat.interval ?? 1) !== 1) return "unread";
  if (items.some((f) => f !== day && !isClockLike(f))) return "unread";
  const { yearly } = mention;
  if (yearly.kind === "unsupported") return "unsupported";
  const eve = yearly.kind === "hebrew" && yearly.eve === true;
  const said = items.filter((f) => f !== day);
  // "the first night of", "the evening before" ring in the evening unless a time is said; an erev
  // ("ערב פסח", "before Yom Kippur") is the day before, at the usual time.
  const evening = mention.impliedPeriod === "evening" && !said.some(isClockLike);
  const times = repeatTimes(evening ? { ...repeat, period: "evening" } : repeat, said);
  if (!times) return "unread";
  const after = nowMs;
  return times.map((time) => {
    if (yearly.kind === "rule") return { rule: rruleOf(yearly.parts, time, mention.date), after };
    const custom = customOf(text) ?? messageCustom ?? yearly.hebrew.custom;
    const rule: Recurrence = {
      type: "hebrew",
      time,
      hebrew: { ...yearly.hebrew, custom },
      ...(eve ? { eve: true } : {}),
    };
    return { rule, after };
  });
}

/** Whether a repeat waits longer than ten years between occurrences ("every 99999999 minutes"). */
function intervalTooLong(repeat: RepeatPhrase): boolean {
  if (repeat.type === "nudge") return (repeat.intervalMinutes ?? 0) > MAX_NUDGE_MINUTES;
  const frequency = FREQUENCY_OF[repeat.type];
  return (repeat.interval ?? 1) > MAX_INTERVAL[frequency];
}

const FREQUENCY_OF: Record<Exclude<RepeatPhrase["type"], "nudge">, Frequency> = {
  daily: "DAILY",
  weekly: "WEEKLY",
  monthly: "MONTHLY",
  yearly: "YEARLY",
};

/** A rule, and the instant its first occurrence comes strictly after. */
interface Plan {
  rule: Recurrence;
  after: number;
}

/**
 * A nudge rings one interval from now, or first at the time named with it ("from 5pm"); a bare hour
 * 1–6 named with it that both halves of the day leave open gives two plans (morning, afternoon).
 */
function planNudge(
  repeat: RepeatPhrase,
  items: Found[],
  nowMs: number,
  timeZone: string,
): Plan[] | UnclearReason {
  const interval = repeat.intervalMinutes;
  if (interval === undefined || interval <= 0) return "unread";
  const rule: Recurrence = { type: "nudge", intervalMinutes: interval };
  const from = (at: number): Plan => ({ rule, after: at > nowMs ? at - interval * MINUTE_MS : nowMs });
  if (items.length === 0) return [{ rule, after: nowMs }];
  const named = resolveMentionsFully(items, nowMs, timeZone, DEFAULT_CLOCK);
  if (named.kind === "at") return [from(named.at)];
  if (named.kind === "ambiguous") return named.choices.map(from);
  return named.kind === "too_far" ? "too_far" : "unread";
}

/** Words that make a day or date the first day of a repeat: "starting Monday", "from April 3", "החל מה-3". */
const START_GLUE_BEFORE =
  /(?<![\p{L}\p{N}])(?:from|starting|beginning|start(?:ing)?\s+(?:on|from)|as\s+of|effective|החל|מה?-?)\s*$/u;
/** A Hebrew first day with "מ" written onto it: "ממחר", "מהיום", "מיום ראשון". */
const START_GLUE_IN = /^ו?מ-?(?=מחר|היום|יום|ה)/u;

/**
 * A calendar rule (daily, weekly, monthly, yearly); a day named with it ("from tomorrow", "on March
 * 3") is the first day it may fire. Two plans when the hour is 1–6 with no am/pm or part of the day.
 * A day named beside a rule that already says its days must be its start ("every day starting
 * Friday"); otherwise ("every day except Friday") the words are not all read.
 */
function planCalendar(
  repeat: RepeatPhrase,
  items: Found[],
  text: string,
  nowMs: number,
  timeZone: string,
): Plan[] | UnclearReason {
  const times = repeatTimes(repeat, items);
  if (!times) return "unread";
  const startItems = items.filter((f) => !isClockLike(f));
  const takesDayFromStart =
    (repeat.type === "weekly" && !repeat.days?.length && !repeat.weekPart) ||
    (repeat.type === "monthly" && repeat.dayOfMonth === undefined && !repeat.nthDays) ||
    repeat.type === "yearly";
  // The first of them after "from"/"starting"/"החל מ", the others right after it ("from Friday, April 3").
  const isStart = (f: Found, i: number) => {
    const previous = startItems[i - 1];
    if (previous && /^[\s,]*$/u.test(text.slice(previous.end, f.start))) return true;
    return (
      START_GLUE_BEFORE.test(text.slice(Math.max(0, f.start - 40), f.start)) ||
      START_GLUE_IN.test(text.slice(f.start, f.end))
    );
  };
  if (!takesDayFromStart && !startItems.every(isStart)) return "unread";
  let firstDayMs = nowMs;
  if (startItems.length > 0) {
    const start = resolveMentions(startItems, nowMs, timeZone, START_OF_DAY);
    if (!start) return "unread";
    firstDayMs = Math.max(nowMs, start.at);
  }
  // "every month" / "every year" with no day, said or implied by a first day ("from April 3"), cannot
  // be told: "כל חודש ב-10 בבוקר" may be the 10th or 10:00; today's date would be a guess.
  const needsDate =
    (repeat.type === "monthly" && repeat.dayOfMonth === undefined && !repeat.nthDays) ||
    repeat.type === "yearly";
  if (needsDate && startItems.length === 0) return "unread";
  const firstDay = instantToLocal(firstDayMs, timeZone);
  const after = Math.max(nowMs, firstDayMs - 1);
  const plans: Plan[] = [];
  for (const time of times) {
    const rule = ruleOf(repeat, time, firstDay, timeZone, after);
    if (typeof rule === "string") return rule;
    plans.push({ rule, after });
  }
  return plans;
}

/**
 * The repeat's local "HH:mm" from the clock time and part of the day around it: one time, or for an
 * hour 1–6 said with no am/pm nor part of the day, its morning and afternoon readings (no "today if
 * still ahead" can choose between them in a repeat); 7–12 are as said.
 */
function repeatTimes(repeat: RepeatPhrase, items: Found[]): string[] | null {
  const clocks = items.flatMap((f) => (f.mention.kind === "clock" ? [f.mention.clock] : []));
  const periods = new Set<Period>(repeat.period ? [repeat.period] : []);
  for (const f of items) if (f.mention.kind === "period") periods.add(f.mention.period);
  if (clocks.length > 1 || periods.size > 1) return null;
  const [clock] = clocks;
  const [period] = periods;
  if (!clock) {
    const slot = period ? PERIOD_DEFAULT[period] : DEFAULT_CLOCK;
    return [formatClock(slot.hour, slot.minute)];
  }
  const slotTimes = (p: Period | undefined) => slotsOf(clock, p).map((s) => formatClock(s.hour, s.minute));
  if (clock.kind === "open" && !period) {
    const said = clock.said ?? clock.hour;
    if (said >= 1 && said <= 6) return [...slotTimes("morning"), ...slotTimes("afternoon")];
    return [formatClock(clock.hour, clock.minute)];
  }
  return slotTimes(period).slice(0, 1);
}

/**
 * The rule at `time`: V1's shape for what V1 says (every day, named weekdays, a day of the month),
 * an RFC 5545 rule for the rest (D10), anchored on the date of its first occurrence after `after`.
 * "every week" / "every month" / "every year" take the weekday, day or date of `firstDay`;
 * "every weekday" / "every weekend" the days of the user's week (userWeek).
 */
function ruleOf(
  repeat: RepeatPhrase,
  time: string,
  firstDay: LocalDate,
  timeZone: string,
  after: number,
): Recurrence | UnclearReason {
  const interval = repeat.interval ?? 1;
  const week = userWeek(timeZone);
  let parts: RuleParts;
  switch (repeat.type) {
    case "daily":
      if (interval === 1) return { type: "daily", time };
      parts = { freq: "DAILY", interval };
      break;
    case "weekly": {
      const days = repeat.weekPart
        ? [...week[repeat.weekPart]].sort((a, b) => a - b)
        : repeat.days?.length
          ? repeat.days
          : [dayOfWeek(firstDay)];
      if (interval === 1 && !repeat.weekPart) return { type: "weekly", time, days };
      // Which weeks "every other week" means depends on where the user's week starts.
      parts = {
        freq: "WEEKLY",
        interval,
        byDay: days.map((day) => ({ day })),
        ...(interval > 1 ? { weekStart: week.firstDay } : {}),
      };
      break;
    }
    case "monthly": {
      const day = repeat.nthDays ? undefined : (repeat.dayOfMonth ?? firstDay.day);
      if (interval === 1 && day !== undefined && day >= 1) return { type: "monthly", time, dayOfMonth: day };
      parts = { freq: "MONTHLY", interval, ...monthDayParts(repeat.nthDays, day) };
      break;
    }
    case "yearly":
      // "every year on 29 February" would ring once in four years, or on a day not said: asked.
      if (firstDay.month === 2 && firstDay.day === 29) return "unsupported";
      parts = { freq: "YEARLY", interval, byMonth: [firstDay.month], byMonthDay: [firstDay.day] };
      break;
    default:
      return "unread";
  }
  // The series starts on the day of its first occurrence, so "every other Tuesday" counts from the
  // coming Tuesday: found with the same rule taken every period.
  const probe = rruleOf({ ...parts, interval: 1 }, time, firstDay);
  const first = nextOccurrence(probe, timeZone, after);
  if (first === null) return "unread";
  return rruleOf(parts, time, instantToLocal(first, timeZone));
}

/** BYDAY for ordinal weekdays; BYMONTHDAY for a day (-1 the last; past the 28th, the month's last if shorter, as V1). */
function monthDayParts(nthDays: RuleDay[] | undefined, day: number | undefined): Partial<RuleParts> {
  if (nthDays) return { byDay: nthDays };
  if (day === undefined || day <= 28) return { byMonthDay: [day ?? 1] };
  return { byMonthDay: Array.from({ length: day - 27 }, (_, i) => 28 + i), bySetPos: [-1] };
}

/** An RFC 5545 recurrence anchored on `start`. */
function rruleOf(parts: RuleParts, time: string, start: LocalDate): Recurrence {
  const date = `${String(start.year).padStart(4, "0")}-${pad2(start.month)}-${pad2(start.day)}`;
  return { type: "rrule", rule: formatRule(parts), time, start: date };
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

/** How far before a time span its glue words may start ("starting from", "ו-"): characters. */
const LOOK_BACK = 24;

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
      // Only the few characters before a span can be its glue (a whole-text slice made long messages slow).
      const before = text.slice(Math.max(0, start - LOOK_BACK), start);
      const prefix = /^\d/u.test(text.slice(start, end)) ? PREFIX_BEFORE.exec(before) : null;
      const from = start - (prefix?.[0].length ?? 0);
      const glue = STARTS_WITH_GLUE.test(text.slice(from, end))
        ? null
        : GLUE_BEFORE.exec(text.slice(Math.max(0, from - LOOK_BACK), from));
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
