/**
 * The dates a document proposes, read in code (issue 37, D6, D10): its text split into sentences,
 * each read by the time parser in the user's zone. A time is offered only when it was read whole
 * and names its own day (a date or a weekday, never "next month" or "tomorrow", which count from a
 * day the document does not say); a sentence that plans something on a day it does not give whole
 * is offered as a question, never guessed. A sentence of clock times only ("pick-up at 08:15,
 * back at 14:30") gives its times to the dated sentence just before it.
 */
import type { OfferItem } from "../types/document.js";
import { readTime, type ParsedInstant } from "./parseTime.js";

/** The most items one offer holds. */
const MAX_ITEMS = 10;
/** Titles are cut to this many characters, at a word. */
const MAX_TITLE = 80;
/** A clock time "HH:mm" (a colon only: "12.50" is a price). */
const CLOCK = /(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:])/gu;
/** A clock time with the words that lead to it ("at 08:15", "בשעה 14:30", "-14:30"). */
const LED_CLOCK =
  /(?:(?<![\p{L}])(?:at|from|to|until|till|בשעה|משעה|עד|ב-?|מ-?)\s*)?(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:])(?:\s*(?:am|pm|a\.m\.|p\.m\.)(?![\p{L}]))?(?:\s*[–-])?/giu;
/** Words that make a sentence a deadline: a reminder, not an event. */
const DEADLINE =
  /(?<![\p{L}])(?:pay|payment|paid|due|deadline|by|until|no later than|submit|return|register|renew|expires?|לשלם|תשלום|התשלום|עד|יש להגיש|להגיש|להירשם|הרשמה|מועד אחרון|לחדש)(?![\p{L}])/iu;
/** Words that say something happens or is due: a sentence with them and no whole date is a question. */
const PLANS =
  /(?<![\p{L}])(?:meeting|appointment|visit|trip|event|party|ceremony|exam|test|due|pay|deadline|will (?:take place|be held)|אסיפ\S*|פגיש\S*|טיול|אירוע|מסיב\S*|טקס|מבחן|בחינה|תור|לשלם|תשלום|תתקיים|יתקיים|ייערך|תיערך)(?![\p{L}])/iu;
/** Time words that count from a day the document does not say (when it was written, not now). */
const RELATIVE =
  /(?<![\p{L}])(?:next|this|coming|tomorrow|today|tonight|in \d|in (?:a|one|two|three) |end of|הבא|הבאה|מחר|מחרתיים|היום|הערב|הלילה|בעוד|סוף|החודש|השבוע|השנה)(?![\p{L}])/iu;
/** Abbreviations a sentence does not end at. */
const ABBREVIATION = /(?:^|\s)(?:dr|mr|mrs|ms|st|no|inc|ltd|co|vs|etc|tel|apt|p\.o)\.$/iu;

/** A page's text with digits and Hebrew words that extraction glued apart ("11במרץ2027" → "11 במרץ 2027"). */
function unglued(text: string): string {
  return text.replace(/(\d)(?=[\u05D0-\u05EA]{2})/gu, "$1 ").replace(/([\u05D0-\u05EA]{2})(?=\d)/gu, "$1 ");
}

/**
 * The sentences of a page, in order: lines a layout wrapped (long, not ending a sentence) joined,
 * short lines (headings, table rows) kept apart, then split after ".", "!" or "?".
 */
function sentencesOf(page: string): string[] {
  const lines = unglued(page)
    .split(/\r?\n/u)
    .map((line) => line.replace(/\s+/gu, " ").trim());
  const longest = Math.max(0, ...lines.map((line) => line.length));
  const paragraphs: string[] = [];
  let open = "";
  for (const line of lines) {
    if (line === "") {
      if (open) paragraphs.push(open);
      open = "";
      continue;
    }
    open = open ? `${open} ${line}` : line;
    const wrapped = (line.length >= longest * 0.6 && !/[.!?:]$/u.test(line)) || /,$/u.test(line);
    if (!wrapped) {
      paragraphs.push(open);
      open = "";
    }
  }
  if (open) paragraphs.push(open);
  return paragraphs.flatMap((paragraph) => {
    const out: string[] = [];
    let current = "";
    for (const piece of paragraph.split(/(?<=[.!?])\s+/u)) {
      current = current ? `${current} ${piece}` : piece;
      if (!ABBREVIATION.test(current)) {
        out.push(current);
        current = "";
      }
    }
    if (current) out.push(current);
    return out.filter((s) => /\p{L}|\d/u.test(s));
  });
}

/** `text` cut to MAX_TITLE characters at a word, tidied of glue at its ends. */
function titleOf(text: string): string {
  const tidy = text
    .replace(/\s+/gu, " ")
    .replace(/^[\s,;:.\-–]+|[\s,;:.\-–]+$/gu, "")
    // Words left hanging where the time words were cut out: "The trip is (on Thursday…)".
    .replace(/(?:\s+(?:is|are|will be|on|at|from|by|starts|ב|עד|ביום|מ))+$/iu, "")
    .trim();
  if (tidy.length <= MAX_TITLE) return tidy;
  const cut = tidy.slice(0, MAX_TITLE);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), MAX_TITLE / 2))}…`;
}

/** A whole, own-day reading of `words`: an instant ahead of now, or why not. */
type DayReading =
  { kind: "at"; instant: ParsedInstant } | { kind: "none" } | { kind: "question" } | { kind: "past" };

function readOwnDay(words: string, nowMs: number, timeZone: string): DayReading {
  const reading = readTime(words, nowMs, timeZone);
  if (!reading) return { kind: "none" };
  if (reading.kind === "recurring") return { kind: "question" };
  if (reading.kind === "unclear") return reading.reason === "past" ? { kind: "past" } : { kind: "question" };
  if (RELATIVE.test(reading.phrase)) return { kind: "question" };
  // A day already begun is behind for a document (its own date, "issued on").
  if (reading.dateOnly && reading.local.slice(0, 10) <= localDay(nowMs, timeZone)) return { kind: "past" };
  return { kind: "at", instant: reading };
}

function localDay(nowMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(nowMs);
}

/** The local times of `clocks` on `day` ("YYYY-MM-DD"), each read whole by the parser, else null. */
function clocksOn(day: string, clocks: string[], nowMs: number, timeZone: string): string[] | null {
  const out: string[] = [];
  for (const clock of clocks) {
    const reading = readTime(`${day} ${clock}`, nowMs, timeZone);
    if (!reading || reading.kind !== "instant" || reading.dateOnly) return null;
    out.push(reading.local);
  }
  return out;
}

/** An item's start and end from a day and the clock times said with it (start, then end if later). */
function timed(
  day: string,
  clocks: string[],
  nowMs: number,
  timeZone: string,
): { start: string; end?: string } | null {
  const locals = clocksOn(day, clocks.slice(0, 2), nowMs, timeZone);
  if (!locals || locals.length === 0) return null;
  const [start, end] = locals as [string, string | undefined];
  return end && end > start ? { start, end } : { start };
}

/** Where an item came from: its sentence, page, and the words its title is made of. */
interface Source {
  sentence: string;
  page: number | undefined;
  /** The sentence without its time words. */
  rest: string;
  /** The short sentence just before it that named no time (a heading: "Dentist appointment for Noa"). */
  heading: string | null;
}

function itemOf(source: Source, time: { start?: string; end?: string }, timeWords: string): OfferItem {
  const rest = titleOf(source.rest);
  const short = rest.split(" ").length < 6;
  const title = titleOf(short && source.heading ? `${source.heading} — ${rest}` : rest || source.sentence);
  return {
    kind: DEADLINE.test(source.sentence) ? "reminder" : "event",
    title,
    timeWords: timeWords.trim(),
    ...(time.start ? { start: time.start } : {}),
    ...(time.end ? { end: time.end } : {}),
    sentence: titleOf(source.sentence),
    ...(source.page !== undefined ? { page: source.page } : {}),
  };
}

/**
 * The items the pages propose, without a model: per sentence, the time the parser reads whole
 * (see the file's comment), titled by the sentence; at most MAX_ITEMS, each time once.
 */
export function documentDates(pages: readonly string[], nowMs: number, timeZone: string): OfferItem[] {
  const items: OfferItem[] = [];
  pages.forEach((page, pageIndex) => {
    const pageNumber = pages.length > 1 ? pageIndex + 1 : undefined;
    let heading: string | null = null;
    /** The item the sentence just before made, when it was a day without a clock. */
    let dayBefore: { item: OfferItem; day: string } | null = null;
    for (const sentence of sentencesOf(page)) {
      const clocks = [...sentence.matchAll(CLOCK)].map((m) => m[0]);
      const withoutClocks = sentence.replace(LED_CLOCK, " ");
      const day = clocks.length > 0 ? readOwnDay(withoutClocks, nowMs, timeZone) : null;
      // Clock times only: the times of the dated sentence just before ("pick-up at 08:15").
      if (day?.kind === "none") {
        if (dayBefore) {
          const times = timed(dayBefore.day, clocks, nowMs, timeZone);
          if (times)
            Object.assign(dayBefore.item, times, {
              timeWords: `${dayBefore.item.timeWords} ${clocks.join("–")}`,
            });
        }
        dayBefore = null;
        continue;
      }
      const source = (rest: string): Source => ({ sentence, page: pageNumber, rest, heading });
      let made: OfferItem | null = null;
      if (day?.kind === "at") {
        // A day with its clock times ("Thu 11 Mar 08:15–14:30", "at 9:00 am"): each read on that day.
        const dayText = day.instant.local.slice(0, 10);
        const times = day.instant.dateOnly ? timed(dayText, clocks, nowMs, timeZone) : null;
        const whole = readTime(sentence, nowMs, timeZone);
        const single = clocks.length === 1 && whole?.kind === "instant" && !whole.dateOnly ? whole : null;
        if (single) made = itemOf(source(single.text), { start: single.local }, single.phrase);
        else if (times)
          made = itemOf(source(day.instant.text), times, `${day.instant.phrase} ${clocks.join("–")}`);
        else made = itemOf(source(day.instant.text), {}, day.instant.phrase);
      } else if (day?.kind === "question") {
        if (PLANS.test(sentence)) made = itemOf(source(sentence), {}, "");
      } else if (day === null) {
        const reading = readOwnDay(sentence, nowMs, timeZone);
        if (reading.kind === "at") {
          const { instant } = reading;
          made = itemOf(
            source(instant.text),
            { start: instant.dateOnly ? instant.local.slice(0, 10) : instant.local },
            instant.phrase,
          );
        } else if (reading.kind === "question" && PLANS.test(sentence)) {
          made = itemOf(source(sentence), {}, "");
        }
      }
      // A short line with no time and no full stop is a heading for the dated line after it.
      const isHeading = day === null && !made && sentence.split(" ").length <= 8 && !/[.!?]$/u.test(sentence);
      heading = isHeading && readTime(sentence, nowMs, timeZone) === null ? titleOf(sentence) : null;
      dayBefore =
        made?.start && made.start.length === 10 && made.kind === "event"
          ? { item: made, day: made.start }
          : null;
      if (made && !items.some((i) => i.kind === made.kind && i.start !== undefined && i.start === made.start))
        items.push(made);
    }
  });
  return items.slice(0, MAX_ITEMS);
}

/**
 * A model's item's time words read whole (D10): its start, and its end (words of their own, or a
 * clock time on the start's day); absent when the words do not read whole as a day of their own.
 */
export function readItemTime(
  timeWords: string,
  endTimeWords: string | null,
  nowMs: number,
  timeZone: string,
): { start: string; end?: string } | null {
  if (!timeWords.trim()) return null;
  const day = readOwnDay(timeWords, nowMs, timeZone);
  if (day.kind !== "at") return null;
  const start = day.instant.dateOnly ? day.instant.local.slice(0, 10) : day.instant.local;
  if (!endTimeWords?.trim()) return { start };
  const own = readTime(endTimeWords, nowMs, timeZone);
  const ownDay =
    own?.kind === "instant" && !RELATIVE.test(own.phrase) && /\p{L}{3,}|\d{4}|\//u.test(own.phrase);
  const end =
    ownDay && own?.kind === "instant"
      ? own
      : readTime(`${start.slice(0, 10)} ${endTimeWords}`, nowMs, timeZone);
  if (!end || end.kind !== "instant" || end.dateOnly) return null;
  return end.local > start ? { start, end: end.local } : null;
}
