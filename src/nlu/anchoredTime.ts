import { parseIntervalMinutes } from "./recurrence.js";
import { isPronounOnly } from "./pronouns.js";
import { addDays, formatClock, instantToLocal, localToInstant, parseClock } from "./zonedTime.js";

/**
 * Time words relative to something else's time, read in code (D6, D10): "the day before it", "an
 * hour before the meeting", "2 days after", "that day at 9", "יום לפני", "שעה לפני הפגישה",
 * "באותו יום ב-9". `unclear`: the words point at the other thing's time but say no amount ("before
 * it", "just before", "לפני כן"), so the user is asked.
 */
type AnchoredWords =
  | {
      kind: "offset";
      /** Whole days after the anchor's day (negative: before); the time is `clock` or none (a date). */
      days: number;
      /** Minutes after the anchor (negative: before), for hour and minute amounts. */
      minutes: number;
      clock: { hour: number; minute: number } | null;
    }
  | { kind: "unclear" };

const BEFORE = /^(.*?)\s*\b(before|after|prior to|earlier than|later than)\b\s*(.*)$/u;
const HE_BEFORE = /^(.*?)\s*(לפני|אחרי|אחרי ש|קודם)\s*(.*)$/u;
/** "that day", "the same day", "on the day", "באותו יום", "ביום עצמו". */
const SAME_DAY =
  /^(?:on\s+)?(?:that|the same|that same|the)\s+day(?:\s+of\s+(?:it|that|the \S+))?$|^(?:ב)?אותו\s+(?:ה)?יום$|^ביום\s+עצמו$/u;
/** A clock at the end: "at 9", "at 18:30", "ב-9", "בשעה 18:00". */
const CLOCK_SUFFIX = /\s+(?:at|ב-?|בשעה)\s*(\d{1,2}(?::\d{2})?)\s*(am|pm)?$/u;
/** What points back at the other thing after "before" / "after": "it", "the meeting", "הפגישה", nothing. */
const EN_THING = /^(?:(?:the|that|this|its|my)\s+[a-z]+(?:\s+[a-z]+)?|then|hand|that)$/u;
const HE_THING = /^(?:ה\S+(?:\s+ה?\S+)?|כן|זה|זאת|שלה|שלו)$/u;

const EN_DAYS = new Map([
  ["the day", 1],
  ["a day", 1],
  ["one day", 1],
  ["day", 1],
  ["two days", 2],
  ["three days", 3],
  ["a week", 7],
  ["one week", 7],
  ["the week", 7],
  ["week", 7],
  ["two weeks", 14],
]);
const HE_DAYS = new Map([
  ["יום", 1],
  ["יום אחד", 1],
  ["ערב", 1],
  ["יומיים", 2],
  ["שבוע", 7],
  ["שבועיים", 14],
]);

/** Days in an amount ("the day", "2 days", "יומיים", "3 ימים"), or null. */
function daysOf(amount: string): number | null {
  const known = EN_DAYS.get(amount) ?? HE_DAYS.get(amount);
  if (known !== undefined) return known;
  const counted = /^(\d{1,2})\s*(days?|weeks?|ימים|שבועות)$/u.exec(amount);
  if (!counted) return null;
  const n = Number(counted[1]);
  return /^(?:week|שבוע)/u.test(counted[2]!) ? n * 7 : n;
}

/** Whether the words after "before" / "after" point back at the other thing rather than name a time. */
function pointsBack(thing: string): boolean {
  return thing === "" || isPronounOnly(thing) || EN_THING.test(thing) || HE_THING.test(thing);
}

/** `words` read as a time relative to another thing's; null when they name a time of their own. @internal */
export function readAnchored(words: string): AnchoredWords | null {
  let text = words
    .trim()
    .toLowerCase()
    .replace(/[.!?,]+$/u, "")
    .replace(/\s+/gu, " ");
  let clock: { hour: number; minute: number } | null = null;
  const suffix = CLOCK_SUFFIX.exec(text);
  if (suffix) {
    const read = parseClock(suffix[1]!);
    if (!read) return null;
    const pm = suffix[2] === "pm" && read.hour < 12 ? 12 : suffix[2] === "am" && read.hour === 12 ? -12 : 0;
    clock = { hour: read.hour + pm, minute: read.minute };
    text = text.slice(0, suffix.index).trim();
  }
  if (SAME_DAY.test(text)) return { kind: "offset", days: 0, minutes: 0, clock };
  const split = BEFORE.exec(text) ?? HE_BEFORE.exec(text);
  if (!split) return null;
  const [, lead = "", word = "", thing = ""] = split;
  if (!pointsBack(thing.trim())) return null;
  const sign = /^(?:before|prior to|earlier than|לפני|קודם)$/u.test(word) ? -1 : 1;
  const amount = lead.replace(/^(?:just|right|about|around|בערך|כ-?)\s+/u, "").trim();
  if (amount === "") return { kind: "unclear" };
  const days = daysOf(amount);
  if (days !== null) return { kind: "offset", days: sign * days, minutes: 0, clock };
  const minutes = parseIntervalMinutes(amount);
  if (minutes === null || clock) return { kind: "unclear" };
  return { kind: "offset", days: 0, minutes: sign * minutes, clock: null };
}

/**
 * The local time the words name relative to `anchorIso`, in `timeZone`: "YYYY-MM-DDTHH:mm", or
 * "YYYY-MM-DD" when they name a day only ("the day before"); `unclear` to ask; null when the words
 * are not relative to another thing's time.
 */
export function anchoredLocalTime(
  words: string,
  anchorIso: string,
  timeZone: string,
): { kind: "local"; local: string } | { kind: "unclear" } | null {
  const reading = readAnchored(words);
  if (!reading || reading.kind === "unclear") return reading;
  const anchorMs = Date.parse(anchorIso);
  if (Number.isNaN(anchorMs)) return { kind: "unclear" };
  const pad = (n: number) => String(n).padStart(2, "0");
  const dateOf = (d: { year: number; month: number; day: number }) =>
    `${d.year}-${pad(d.month)}-${pad(d.day)}`;
  if (reading.minutes !== 0) {
    const at = instantToLocal(anchorMs + reading.minutes * 60_000, timeZone);
    return { kind: "local", local: `${dateOf(at)}T${formatClock(at.hour, at.minute)}` };
  }
  const day = addDays(instantToLocal(anchorMs, timeZone), reading.days);
  if (!reading.clock) return { kind: "local", local: dateOf(day) };
  // Checked once through the zone, so a clock lost to a DST gap is still a real time.
  const at = instantToLocal(localToInstant({ ...day, ...reading.clock }, timeZone), timeZone);
  return { kind: "local", local: `${dateOf(at)}T${formatClock(at.hour, at.minute)}` };
}
