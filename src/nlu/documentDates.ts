/**
 * The dates a document proposes, read in code (issue 37, D6, D10): its text split into sentences,
 * each read by the time parser in the user's zone. A time is offered only when it was read whole
 * and names its own day (a date or a weekday, never "next month" or "tomorrow", which count from a
 * day the document does not say); a sentence that plans something on a day it does not give whole
 * is offered as a question, never guessed. A day is a day and a month the document writes: a bare
 * weekday or "the 14th" counts from when it was written, unsaid, so it is asked. A sentence of clock
 * times only that names a departure or a return ("pick-up at 08:15, back at 14:30") gives its times
 * to the dated sentence just before it; other clock times (an office's hours) give it nothing.
 */
import type { OfferItem } from "../types/document.js";
import { readTime, type ParsedInstant } from "./parseTime.js";
import { EN_MONTHS, HE_MONTHS } from "./timeWords.js";

/** The most items one offer holds. */
const MAX_ITEMS = 10;
/** Titles are cut to this many characters, at a word. */
const MAX_TITLE = 80;
/** A clock time "HH:mm" (a colon only: "12.50" is a price). */
const CLOCK = /(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:])/gu;
/** A clock time with the words that lead to it ("at 08:15", "בשעה 14:30", "-14:30"). */
const LED_CLOCK =
  /(?:(?<![\p{L}])(?:at|from|to|until|till|בשעה|משעה|עד|ב-?|מ-?)\s*)?(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:])(?:\s*(?:am|pm|a\.m\.|p\.m\.)(?![\p{L}]))?(?:\s*[–-])?/giu;
/**
 * Words that make a sentence a deadline: a reminder, not an event. Read on the sentence without its
 * clock words ("from 08:15 until 14:30" is an event's end, not a deadline).
 */
const DEADLINE =
  /(?<![\p{L}])(?:pay|payment|paid|due|deadline|by|until|no later than|submit|submission|return (?:the|your|this|it|a|all)|register|registration|enrol(?:l|lment|ment)?|closes?|closing|renew|renewal|expires?|לשלם|תשלום|התשלום|עד|יש להגיש|להגיש|הגשה|להירשם|הרשמה|ההרשמה|נסגרת|נסגר|מועד אחרון|לחדש|חידוש)(?![\p{L}])/iu;
/** Words of a departure or a return: a sentence of clock times with them times the day before it. */
const TRAVEL =
  /(?<![\p{L}])(?:pick[- ]?ups?|depart\w*|leav(?:e|es|ing)|return\w*|back|bus(?:es)?|coach(?:es)?|gather\w*)(?![\p{L}])|איסוף|יציאה|היציאה|חזרה|הסעה|הסעות|התכנסות/iu;
/** Words of opening hours and phone calls: clock times that are no event's. */
const OFFICE =
  /(?<![\p{L}])(?:office|open|opens|opening|hours|call|phone|closed?)(?![\p{L}])|קבלה|שעות|טלפון|משרד|פתוח/iu;
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

/** A line that dates the document itself: its label, then the date. */
const OWN_DATE =
  /(?:^|[—–-]\s*)(?:date|dated|issued(?:\s+on)?|invoice\s+date|תאריך|נכתב\s+ב|הונפק(?:\s+ב)?)\s*:/iu;
/** A salutation opening a letter's sentence: "Dear Parents and Carers,", "הורים יקרים,". */
const SALUTATION =
  /^(?:(?:dear|hi|hello)\s+[^,]{1,40},|(?:הורים|תלמידים|חברים|שכנים|דיירים)\s+יקרים\s*,?|שלום\s+רב\s*,?|שלום\s*,)\s*/iu;

/** `text` cut to MAX_TITLE characters at a word, tidied of glue at its ends and of a salutation. */
function titleOf(text: string): string {
  const tidy = text
    .replace(SALUTATION, "")
    // Brackets the time words were cut out of: "Trip (buses at 07:45)" → "Trip".
    .replace(/\(\s*\)|\(\s*[^()]*?\s+\)/gu, " ")
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

/** Whether `phrase` writes a day and its month ("11 March", "11/3", "2027-03-11", "11 במרץ"). */
function namesDayAndMonth(phrase: string): boolean {
  const said = phrase.toLowerCase();
  if (/\d{4}-\d{2}-\d{2}|(?<![\d:])\d{1,2}[./]\d{1,2}(?![\d:])/u.test(said)) return true;
  // A Hebrew month with up to three prefix letters ("במרץ", "ולמאי").
  const hebrew = (word: string) => [0, 1, 2, 3].some((n) => HE_MONTHS.has(word.slice(n)));
  return said.split(/[^\p{L}]+/u).some((word) => EN_MONTHS.has(word) || hebrew(word));
}

/**
 * `words` read whole as a day of the document's own. `timed`: clock times are said with it, so a
 * day that is today is not behind yet (the caller decides on the timed reading).
 */
function readOwnDay(words: string, nowMs: number, timeZone: string, timed = false): DayReading {
  const reading = readTime(words, nowMs, timeZone);
  if (!reading) return { kind: "none" };
  if (reading.kind === "recurring") return { kind: "question" };
  // Today's date with a clock said beside it is not behind yet: the caller reads it timed.
  const today = localDay(nowMs, timeZone);
  const passed = reading.kind === "unclear" && reading.reason === "past" ? reading.passed : undefined;
  if (timed && passed?.kind === "instant" && passed.dateOnly && passed.local.slice(0, 10) === today)
    return namesDayAndMonth(passed.phrase) ? { kind: "at", instant: passed } : { kind: "question" };
  if (reading.kind === "unclear") return reading.reason === "past" ? { kind: "past" } : { kind: "question" };
  if (RELATIVE.test(reading.phrase)) return { kind: "question" };
  // A bare weekday or "the 14th" counts from when the document was written, which it does not say.
  if (!namesDayAndMonth(reading.phrase)) return { kind: "question" };
  const day = reading.local.slice(0, 10);
  // A day already begun is behind for a document (its own date, "issued on"), unless a clock follows.
  if (reading.dateOnly && (day < today || (day === today && !timed))) return { kind: "past" };
  if (!reading.dateOnly && reading.local <= localNow(nowMs, timeZone)) return { kind: "past" };
  return { kind: "at", instant: reading };
}

/** The local wall time of `nowMs`, "YYYY-MM-DDTHH:mm". */
function localNow(nowMs: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(nowMs);
  return `${localDay(nowMs, timeZone)}T${parts}`;
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
    const said = readTime(`${day} ${clock}`, nowMs, timeZone);
    // A clock already behind is still read (the caller drops what is past).
    const reading = said?.kind === "unclear" && said.reason === "past" ? said.passed : said;
    if (!reading || reading.kind !== "instant" || reading.dateOnly) return null;
    out.push(reading.local);
  }
  return out;
}

/** An end before this hour, earlier than its start, is the next day's ("20:00 – 01:00"). */
const NIGHT_END_HOUR = 6;

/** The day after a "YYYY-MM-DD" date. */
function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * An item's start and end from a day and the clock times said with it; null when a clock does not
 * read, "question" when the end is before the start and not a night's end ("14:30 to 08:15").
 */
function timed(
  day: string,
  clocks: string[],
  nowMs: number,
  timeZone: string,
): { start: string; end?: string } | "question" | null {
  const locals = clocksOn(day, clocks.slice(0, 2), nowMs, timeZone);
  if (!locals || locals.length === 0) return null;
  const [start, end] = locals as [string, string | undefined];
  if (!end) return { start };
  if (end > start) return { start, end };
  if (Number(end.slice(11, 13)) >= NIGHT_END_HOUR) return "question";
  const next = clocksOn(dayAfter(day), [clocks[1]!], nowMs, timeZone);
  return next ? { start, end: next[0]! } : "question";
}

/** Whether a number joined by "-" or "–" to `phrase` in `sentence` is left unread ("11-12 March"). */
function rangeLeftOver(sentence: string, phrase: string): boolean {
  const at = sentence.indexOf(phrase);
  if (at < 0 || !phrase) return false;
  const before = sentence.slice(0, at);
  const after = sentence.slice(at + phrase.length);
  return /\d\s*[-–]\s*(?:(?:on|ב|ה)\s*)?$/u.test(before) || /^\s*[-–]\s*\d(?!\d?:\d)/u.test(after);
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

function itemOf(
  source: Source,
  time: { start?: string; end?: string; day?: string },
  timeWords: string,
): OfferItem {
  const rest = titleOf(source.rest);
  const short = rest.split(" ").length < 6;
  const title = titleOf(short && source.heading ? `${source.heading} — ${rest}` : rest || source.sentence);
  return {
    // Something with a start and an end is an event; else deadline words (without the clock words).
    kind: !time.end && DEADLINE.test(source.sentence.replace(LED_CLOCK, " ")) ? "reminder" : "event",
    title,
    timeWords: timeWords.trim(),
    ...(time.start ? { start: time.start } : {}),
    ...(time.end ? { end: time.end } : {}),
    ...(time.day && !time.start ? { day: time.day } : {}),
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
      // The document's own date ("Date: 1 March 2027", "תאריך: 1 במרץ 2027", "Issued: …") is no plan.
      if (OWN_DATE.test(sentence)) {
        [heading, dayBefore] = [null, null];
        continue;
      }
      const clocks = [...sentence.matchAll(CLOCK)].map((m) => m[0]);
      const withoutClocks = sentence.replace(LED_CLOCK, " ");
      const day = clocks.length > 0 ? readOwnDay(withoutClocks, nowMs, timeZone, true) : null;
      // Clock times only: the times of the dated sentence just before, when they are its departure
      // or return ("pick-up at 08:15"), never an office's hours; else that day stays all-day.
      if (day?.kind === "none") {
        if (dayBefore && TRAVEL.test(sentence) && !OFFICE.test(sentence)) {
          const times = timed(dayBefore.day, clocks, nowMs, timeZone);
          if (times && times !== "question" && times.start > localNow(nowMs, timeZone))
            Object.assign(dayBefore.item, times, {
              timeWords: `${dayBefore.item.timeWords} ${clocks.join("–")}`,
            });
        }
        dayBefore = null;
        continue;
      }
      const source = (rest: string): Source => ({ sentence, page: pageNumber, rest, heading });
      let made: OfferItem | null = null;
      const now = localNow(nowMs, timeZone);
      if (day?.kind === "at" && rangeLeftOver(withoutClocks, day.instant.phrase)) {
        // "Trip on 11-12 March": a number joined to the day is left unread, so the day is asked.
        made = itemOf(source(sentence.replace(LED_CLOCK, " ")), {}, "");
      } else if (day?.kind === "at") {
        // A day with its clock times ("Thu 11 Mar 08:15–14:30", "at 9:00 am"): each read on that day.
        const dayText = day.instant.local.slice(0, 10);
        const times = day.instant.dateOnly ? timed(dayText, clocks, nowMs, timeZone) : null;
        const whole = readTime(sentence, nowMs, timeZone);
        const single = clocks.length === 1 && whole?.kind === "instant" && !whole.dateOnly ? whole : null;
        if (times === "question") made = itemOf(source(day.instant.text), {}, "");
        else if (single)
          made =
            single.local > now ? itemOf(source(single.text), { start: single.local }, single.phrase) : null;
        else if (times)
          made =
            times.start > now
              ? itemOf(source(day.instant.text), times, `${day.instant.phrase} ${clocks.join("–")}`)
              : null;
        // The day read and its clock not ("at 8:15 am until 2:30 pm"): asked, the day kept.
        else made = itemOf(source(day.instant.text), { day: dayText }, day.instant.phrase);
      } else if (day?.kind === "question") {
        if (PLANS.test(sentence)) made = itemOf(source(sentence), {}, "");
      } else if (day === null) {
        const reading = readOwnDay(sentence, nowMs, timeZone);
        if (reading.kind === "at" && rangeLeftOver(sentence, reading.instant.phrase)) {
          made = itemOf(source(sentence), {}, "");
        } else if (reading.kind === "at") {
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
      // Each time once, and each undated sentence once (a newsletter repeats its lines page after page).
      const repeated = (i: OfferItem) =>
        made !== null &&
        i.kind === made.kind &&
        (made.start !== undefined ? i.start === made.start : i.start === undefined && i.title === made.title);
      if (made && !items.some(repeated)) items.push(made);
    }
  });
  return items.slice(0, MAX_ITEMS);
}

/** Clock words, to read a model's time words for their day alone. */
const CLOCK_WORDS =
  /(?<![\p{L}])(?:noon|midnight|am|pm|a\.m\.|p\.m\.|o'?clock|בצהריים|בבוקר|בערב|בלילה)(?![\p{L}])/giu;

/**
 * A model's item's time words read whole (D10): its start, and its end (words of their own, or a
 * clock time on the start's day). "past": the time is behind now (the item is dropped). "day": the
 * day reads whole and its clock does not ("by 5 March 2027 at 12:00 noon"), so the time is asked
 * with the day kept. Null when the words do not read whole as a day of their own.
 */
export function readItemTime(
  timeWords: string,
  endTimeWords: string | null,
  nowMs: number,
  timeZone: string,
): { kind: "at"; start: string; end?: string } | { kind: "past" } | { kind: "day"; day: string } | null {
  if (!timeWords.trim()) return null;
  const hasClock = /\d:\d\d|\d\s*(?:am|pm)/iu.test(`${timeWords} ${endTimeWords ?? ""}`);
  const day = readOwnDay(timeWords, nowMs, timeZone, hasClock);
  if (day.kind === "past") return { kind: "past" };
  if (day.kind !== "at") {
    if (!hasClock) return null;
    // The day alone, its clock words cut: read, the time is asked with the day kept.
    const dayWords = timeWords.replace(LED_CLOCK, " ").replace(CLOCK_WORDS, " ");
    const alone = readOwnDay(dayWords, nowMs, timeZone, true);
    if (alone.kind === "past") return { kind: "past" };
    return alone.kind === "at" && alone.instant.dateOnly
      ? { kind: "day", day: alone.instant.local.slice(0, 10) }
      : null;
  }
  const start = day.instant.dateOnly ? day.instant.local.slice(0, 10) : day.instant.local;
  if (day.instant.dateOnly && hasClock && !endTimeWords?.trim()) return { kind: "day", day: start };
  if (start.length > 10 && start <= localNow(nowMs, timeZone)) return { kind: "past" };
  if (!endTimeWords?.trim()) return { kind: "at", start };
  const own = readTime(endTimeWords, nowMs, timeZone);
  const ownDay =
    own?.kind === "instant" && !RELATIVE.test(own.phrase) && /\p{L}{3,}|\d{4}|\//u.test(own.phrase);
  const end =
    ownDay && own?.kind === "instant"
      ? own
      : readTime(`${start.slice(0, 10)} ${endTimeWords}`, nowMs, timeZone);
  if (!end || end.kind !== "instant" || end.dateOnly) return { kind: "day", day: start.slice(0, 10) };
  if (end.local > start) return { kind: "at", start, end: end.local };
  if (start.length > 10 && !ownDay && Number(end.local.slice(11, 13)) < NIGHT_END_HOUR) {
    const next = readTime(`${dayAfter(start.slice(0, 10))} ${endTimeWords}`, nowMs, timeZone);
    if (next?.kind === "instant" && !next.dateOnly) return { kind: "at", start, end: next.local };
  }
  return { kind: "day", day: start.slice(0, 10) };
}
