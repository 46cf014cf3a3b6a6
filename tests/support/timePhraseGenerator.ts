/**
 * Generated reminders whose meaning is known in advance, for the D10 property tests
 * (tests/nlu/timeInvariant.property.test.ts, tests/nlu/timeLeftover.invariant.test.ts). The meaning
 * of each form is the one of docs/NLU.md (time parser); see the property test for the rules.
 */
import { localToInstant } from "../../src/nlu/zonedTime.js";

export const ZONES = ["Asia/Jerusalem", "America/New_York", "Asia/Kolkata"] as const;
type Zone = (typeof ZONES)[number];
/** The 2026 DST changes (local dates), where nows are drawn often. */
const DST_DAYS: Record<Zone, string[]> = {
  "Asia/Jerusalem": ["2026-03-27", "2026-10-25"],
  "America/New_York": ["2026-03-08", "2026-11-01"],
  "Asia/Kolkata": [],
};
export const DAY_MS = 86_400_000;
const YEAR_START = Date.parse("2026-01-01T00:00:00Z");
const YEAR_END = Date.parse("2027-01-01T00:00:00Z");

// ---------------------------------------------------------------------------------------------
// Calendar arithmetic, independent of src/nlu

interface Day {
  year: number;
  month: number;
  day: number;
}

function plusDays(d: Day, n: number): Day {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

function weekdayOf(d: Day): number {
  return new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
}

function compareDays(a: Day, b: Day): number {
  return Date.UTC(a.year, a.month - 1, a.day) - Date.UTC(b.year, b.month - 1, b.day);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The zone's calendar date of an instant, with Intl. */
function localDay(at: number, zone: string): Day {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
    });
    formatters.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
}

const wallFormatters = new Map<string, Intl.DateTimeFormat>();
/** An instant as a wall time in a zone, for messages. */
export function wall(at: number, zone: string): string {
  let f = wallFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("sv-SE", { timeZone: zone, dateStyle: "short", timeStyle: "short" });
    wallFormatters.set(zone, f);
  }
  return f.format(at);
}

// ---------------------------------------------------------------------------------------------
// What a phrase means

/** The day named. */
type DaySense =
  | { kind: "none" }
  | { kind: "today" }
  | { kind: "tomorrow" }
  | { kind: "dayAfterTomorrow" }
  | { kind: "weekday"; weekday: number }
  | { kind: "date"; month: number; day: number };

/**
 * The time named: a wall time the words settle (am/pm, 24h, a part of the day), a bare hour
 * (h or h+12; `said` is the hour word, 8 in "a quarter to 8"), or a date alone (09:00).
 */
type ClockSense =
  | { kind: "fixed"; hour: number; minute: number }
  | { kind: "bare"; hour: number; minute: number; said: number }
  | { kind: "dateOnly" };

/** The instant meant, or "ask" when the rules say Memo must ask; "skip" when they leave it open. */
type Meaning = { at: number } | "ask" | "skip";

function meaning(day: DaySense, clock: ClockSense, now: number, zone: string): Meaning {
  const today = localDay(now, zone);
  const at = (d: Day, hour: number, minute: number) => localToInstant({ ...d, hour, minute }, zone);
  const ahead = (t: number) => t > now;
  /** The instant on day d; for a bare hour, the readings h then h+12. */
  const readings = (d: Day): number[] => {
    if (clock.kind === "dateOnly") return [at(d, 9, 0)];
    if (clock.kind === "fixed") return [at(d, clock.hour, clock.minute)];
    return [at(d, clock.hour, clock.minute), at(d, clock.hour + 12, clock.minute)];
  };
  const morningFirst = clock.kind === "bare" && clock.said >= 7;
  /** The answer on a day that is today: the one reading ahead, or (7–11) the first ahead. */
  const onToday = (): Meaning | null => {
    const r = readings(today).filter(ahead);
    if (r.length === 0) return null;
    if (clock.kind !== "bare" || r.length === 1 || morningFirst) return { at: r[0]! };
    return "ask";
  };
  /** The answer on a later day. */
  const onLaterDay = (d: Day): Meaning => {
    const r = readings(d);
    if (clock.kind === "bare" && !morningFirst) return "ask";
    return ahead(r[0]!) ? { at: r[0]! } : "ask";
  };

  switch (day.kind) {
    case "none": {
      if (clock.kind === "dateOnly") return "skip";
      const answer = onToday();
      if (answer) return answer;
      return onLaterDay(plusDays(today, 1));
    }
    case "today":
      return onToday() ?? "ask";
    case "tomorrow":
      return onLaterDay(plusDays(today, 1));
    case "dayAfterTomorrow":
      return onLaterDay(plusDays(today, 2));
    case "weekday": {
      const diff = (day.weekday - weekdayOf(today) + 7) % 7;
      if (diff !== 0) return onLaterDay(plusDays(today, diff));
      if (clock.kind === "bare") return BARE_ON_WEEKDAY_TODAY;
      return onToday() ?? onLaterDay(plusDays(today, 7));
    }
    case "date": {
      let d: Day = { year: today.year, month: day.month, day: day.day };
      if (compareDays(d, today) < 0) d = { ...d, year: d.year + 1 };
      if (compareDays(d, today) === 0) return onToday() ?? "ask";
      return onLaterDay(d);
    }
  }
}

/**
 * "Wednesday at 9" said on a Wednesday at noon: docs/NLU.md says the morning one next week,
 * docs/NLU.md (time parser)'s "only one reading still ahead settles it" says 21:00 today. Not
 * generated until the rules say which.
 */
const BARE_ON_WEEKDAY_TODAY: Meaning = "skip";

// ---------------------------------------------------------------------------------------------
// Words

type Lang = "en" | "he";

interface Words {
  text: string;
  sense: DaySense;
}
interface ClockWords {
  text: string;
  sense: ClockSense;
}

const EN_WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const HE_WEEKDAYS = ["ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת"];
const EN_MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const HE_MONTHS = [
  "ינואר",
  "פברואר",
  "מרץ",
  "אפריל",
  "מאי",
  "יוני",
  "יולי",
  "אוגוסט",
  "ספטמבר",
  "אוקטובר",
  "נובמבר",
  "דצמבר",
];
/** Hebrew hour words (feminine), 1–12. */
const HE_HOURS = [
  "",
  "אחת",
  "שתיים",
  "שלוש",
  "ארבע",
  "חמש",
  "שש",
  "שבע",
  "שמונה",
  "תשע",
  "עשר",
  "אחת עשרה",
  "שתים עשרה",
];

type Rng = () => number;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}
const pad = (n: number) => String(n).padStart(2, "0");

function dayWords(rng: Rng, lang: Lang): Words {
  const kind = pick(rng, [
    "none",
    "none",
    "today",
    "tomorrow",
    "tomorrow",
    "after",
    "weekday",
    "weekday",
    "date",
    "date",
  ]);
  if (kind === "none") return { text: "", sense: { kind: "none" } };
  if (kind === "today") return { text: lang === "en" ? "today" : "היום", sense: { kind: "today" } };
  if (kind === "tomorrow") return { text: lang === "en" ? "tomorrow" : "מחר", sense: { kind: "tomorrow" } };
  if (kind === "after")
    return {
      text: lang === "en" ? "the day after tomorrow" : "מחרתיים",
      sense: { kind: "dayAfterTomorrow" },
    };
  if (kind === "weekday") {
    const weekday = int(rng, 0, 6);
    const text =
      lang === "en"
        ? `${pick(rng, ["", "on "])}${EN_WEEKDAYS[weekday]}`
        : pick(rng, [`ביום ${HE_WEEKDAYS[weekday]}`, `יום ${HE_WEEKDAYS[weekday]}`]);
    return { text, sense: { kind: "weekday", weekday } };
  }
  const month = int(rng, 1, 12);
  const day = int(rng, 1, 28);
  const text =
    lang === "en"
      ? pick(rng, [
          `${EN_MONTHS[month - 1]} ${day}`,
          `on ${EN_MONTHS[month - 1]} ${day}`,
          `${day} ${EN_MONTHS[month - 1]}`,
        ])
      : pick(rng, [`${day} ב${HE_MONTHS[month - 1]}`, `ב-${day} ב${HE_MONTHS[month - 1]}`]);
  return { text, sense: { kind: "date", month, day } };
}

/** An hour h (1–11) as a bare clock, in one of its spoken forms. */
function bareClock(rng: Rng, lang: Lang): ClockWords {
  const form = pick(rng, ["hour", "hour", "half", "quarter_past", "quarter_to", "oclock", "digits"]);
  // "at 9:40" without am/pm: only 7–11, where the rules say "as said" (1–6 with minutes is left open).
  const said =
    form === "quarter_to" ? int(rng, 2, 11) : form === "digits" ? int(rng, 7, 11) : int(rng, 1, 11);
  const hour = form === "quarter_to" ? said - 1 : said;
  const digits = pick(rng, [10, 20, 30, 40, 50]);
  const minute = { hour: 0, oclock: 0, half: 30, quarter_past: 15, quarter_to: 45, digits }[form]!;
  const sense: ClockSense = { kind: "bare", hour, minute, said };
  const w = HE_HOURS[said]!;
  if (lang === "en") {
    const text = {
      hour: `at ${said}`,
      oclock: `at ${said} o'clock`,
      half: `at half past ${said}`,
      quarter_past: `at ${pick(rng, ["a ", ""])}quarter past ${said}`,
      quarter_to: `at ${pick(rng, ["a ", ""])}quarter to ${said}`,
      digits: `at ${said}:${digits}`,
    }[form]!;
    return { text, sense };
  }
  const text = {
    hour: pick(rng, [`ב-${said}`, `ב${w}`]),
    oclock: `בשעה ${said}`,
    half: `ב${w} וחצי`,
    quarter_past: `ב${w} ורבע`,
    quarter_to: pick(rng, [`ברבע ל${w}`, `ב${w} פחות רבע`]),
    digits: `ב-${said}:${digits}`,
  }[form]!;
  return { text, sense };
}

/** A clock the words settle: am/pm, 24h, noon, or an hour with its part of the day. */
function fixedClock(rng: Rng, lang: Lang): ClockWords {
  const form = pick(rng, ["ampm", "ampm", "h24", "h24", "part_hour", "part_hour", "noon"]);
  if (form === "noon")
    return {
      text: lang === "en" ? "at noon" : "ב-12 בצהריים",
      sense: { kind: "fixed", hour: 12, minute: 0 },
    };
  if (form === "h24") {
    const hour = int(rng, 13, 23);
    const minute = pick(rng, [0, 5, 15, 30, 45, 59]);
    const text =
      lang === "en"
        ? `at ${hour}:${pad(minute)}`
        : pick(rng, [`ב-${hour}:${pad(minute)}`, `בשעה ${hour}:${pad(minute)}`]);
    return { text, sense: { kind: "fixed", hour, minute } };
  }
  if (form === "ampm") {
    // Early hours are frequent: they are the ones DST moves.
    const hour = rng() < 0.3 ? int(rng, 0, 4) : int(rng, 0, 23);
    const minute = pick(rng, [0, 0, 10, 15, 30, 45]);
    const h12 = hour % 12 === 0 ? 12 : hour % 12;
    const suffix = hour < 12 ? pick(rng, ["am", " am", "a.m."]) : pick(rng, ["pm", " pm", "p.m."]);
    if (lang === "en")
      return {
        text: `at ${h12}${minute ? `:${pad(minute)}` : ""}${suffix}`,
        sense: { kind: "fixed", hour, minute },
      };
    // Hebrew: a 24h clock with a leading zero or past 12 settles it; 10–12 take a part of the day
    // ("ב-10:30" alone is a bare hour: 10:30 or 22:30).
    const text =
      hour >= 10 && hour <= 12
        ? `ב-${hour}:${pad(minute)} ${hour === 12 ? "בצהריים" : "בבוקר"}`
        : `ב-${pad(hour)}:${pad(minute)}`;
    return { text, sense: { kind: "fixed", hour, minute } };
  }
  const part = pick(rng, ["morning", "afternoon", "evening"] as const);
  const said = part === "morning" ? int(rng, 5, 11) : part === "afternoon" ? int(rng, 1, 5) : int(rng, 6, 11);
  const half = rng() < 0.3;
  const hour = part === "morning" ? said : said + 12;
  const minute = half ? 30 : 0;
  const sense: ClockSense = { kind: "fixed", hour, minute };
  if (lang === "en") {
    const en = { morning: "in the morning", afternoon: "in the afternoon", evening: "in the evening" }[part];
    return { text: `at ${half ? `half past ${said}` : said} ${en}`, sense };
  }
  const he = { morning: "בבוקר", afternoon: "אחה״צ", evening: "בערב" }[part];
  const w = HE_HOURS[said]!;
  return { text: `${half ? `ב${w} וחצי` : pick(rng, [`ב-${said}`, `ב${w}`])} ${he}`, sense };
}

/** A part of the day alone, after a day word (or alone): "tomorrow evening", "ביום שלישי בערב". */
function partAlone(rng: Rng, lang: Lang, day: Words): ClockWords & { day: Words } {
  const part = pick(rng, ["morning", "noon", "afternoon", "evening"] as const);
  const hour = { morning: 9, noon: 12, afternoon: 16, evening: 20 }[part];
  const sense: ClockSense = { kind: "fixed", hour, minute: 0 };
  if (lang === "he") {
    if (day.sense.kind === "today" && (part === "evening" || part === "morning"))
      return { text: "", sense, day: { ...day, text: part === "evening" ? "הערב" : "הבוקר" } };
    return {
      text: { morning: "בבוקר", noon: "בצהריים", afternoon: "אחה״צ", evening: "בערב" }[part],
      sense,
      day,
    };
  }
  if (day.sense.kind === "today") {
    const text =
      part === "evening"
        ? pick(rng, ["this evening", "tonight"])
        : part === "noon"
          ? "today at noon"
          : `this ${part}`;
    return { text: "", sense, day: { ...day, text } };
  }
  if (day.sense.kind === "tomorrow" || day.sense.kind === "weekday")
    return { text: part === "noon" ? "at noon" : part, sense, day };
  return { text: part === "noon" ? "at noon" : `in the ${part}`, sense, day };
}

/** A day after the clock: "at 6 on 5 October", not "at 6 5 October". */
function dayAfterClock(day: Words): string {
  return /^\d/.test(day.text) && !/\p{Script=Hebrew}/u.test(day.text) ? `on ${day.text}` : day.text;
}

export interface Phrase {
  text: string;
  zone: Zone;
  now: number;
  meaning: Meaning;
  lang: Lang;
}

const EN_TASKS = [
  "call mom",
  "pay the electricity bill",
  "take the pills",
  "water the plants",
  "send Dana the report",
];
const HE_TASKS = [
  "להתקשר לאמא",
  "לשלם את חשבון החשמל",
  "לקחת את הכדורים",
  "להשקות את העציצים",
  "לשלוח לדנה את הדוח",
];

/** The time words inside a message: "remind me … to call mom", "תזכיר לי … להתקשר לאמא". */
function wrap(rng: Rng, lang: Lang, time: string): string {
  const task = pick(rng, lang === "en" ? EN_TASKS : HE_TASKS);
  const forms =
    lang === "en"
      ? [`remind me ${time} to ${task}`, `remind me to ${task} ${time}`, `${time} ${task}`, `${task} ${time}`]
      : [`תזכיר לי ${time} ${task}`, `תזכיר לי ${task} ${time}`, `${time} ${task}`, `${task} ${time}`];
  return pick(rng, forms).replace(/\s+/g, " ").trim();
}

/** A now in 2026: often within two days of a DST change of the zone, else anywhere in the year. */
function drawNow(rng: Rng, zone: Zone): number {
  const changes = DST_DAYS[zone];
  if (changes.length > 0 && rng() < 0.4) {
    const change = Date.parse(`${pick(rng, changes)}T00:00:00Z`);
    return change - 2 * DAY_MS + Math.floor(rng() * 4 * DAY_MS);
  }
  return YEAR_START + Math.floor(rng() * (YEAR_END - YEAR_START));
}

export function generatePhrase(rng: Rng): Phrase {
  for (;;) {
    const lang: Lang = rng() < 0.5 ? "en" : "he";
    const zone = pick(rng, ZONES);
    const now = drawNow(rng, zone);
    let day = dayWords(rng, lang);
    const clockKind = pick(rng, ["bare", "bare", "fixed", "fixed", "fixed", "part", "dateOnly"]);
    let clock: ClockWords;
    if (clockKind === "bare") clock = bareClock(rng, lang);
    else if (clockKind === "fixed") clock = fixedClock(rng, lang);
    else if (clockKind === "part") ({ day, ...clock } = partAlone(rng, lang, day));
    else clock = { text: "", sense: { kind: "dateOnly" } };
    const m = meaning(day.sense, clock.sense, now, zone);
    if (m === "skip" || (day.text === "" && clock.text === "")) continue;
    const time =
      rng() < 0.7 || clockKind === "part"
        ? `${day.text} ${clock.text}`
        : `${clock.text} ${dayAfterClock(day)}`;
    return { text: wrap(rng, lang, time.trim()), zone, now, meaning: m, lang };
  }
}

/**
 * Words that leave the time unsaid or half-said: Memo must ask, whatever else the message names.
 * `at` is where they go: instead of the clock, or next to it.
 */
const NOISE: { lang: Lang; words: string; at: "clock" | "before_clock" | "after_clock" | "day" }[] = [
  { lang: "en", words: "at the usual time", at: "clock" },
  { lang: "en", words: "after lunch", at: "clock" },
  { lang: "en", words: "sometime", at: "day" },
  { lang: "en", words: "or 6", at: "after_clock" },
  { lang: "en", words: "or 10", at: "after_clock" },
  { lang: "he", words: "בערך", at: "before_clock" },
  { lang: "he", words: "בשעה הרגילה", at: "clock" },
  { lang: "he", words: "מתישהו", at: "day" },
  { lang: "he", words: "או 6", at: "after_clock" },
  { lang: "he", words: "אחרי האוכל", at: "clock" },
  { lang: "he", words: "לפני השינה", at: "clock" },
];

/** A phrase with noise in it; its meaning is "ask". */
export function generateNoisy(rng: Rng): Phrase & { noise: string } {
  const noise = pick(rng, NOISE);
  const lang = noise.lang;
  const zone = pick(rng, ZONES);
  const now = drawNow(rng, zone);
  let day = dayWords(rng, lang);
  if (day.sense.kind === "none" && noise.at === "day")
    day = { text: lang === "en" ? "tomorrow" : "מחר", sense: { kind: "tomorrow" } };
  const clock = rng() < 0.5 ? bareClock(rng, lang) : fixedClock(rng, lang);
  let time: string;
  if (noise.at === "clock") time = `${day.text} ${noise.words}`;
  else if (noise.at === "before_clock") time = `${day.text} ${noise.words} ${clock.text}`;
  else if (noise.at === "after_clock") time = `${day.text} ${clock.text} ${noise.words}`;
  else time = pick(rng, [`${noise.words} ${day.text}`, `${day.text} ${noise.words}`]);
  return { text: wrap(rng, lang, time.trim()), zone, now, meaning: "ask", lang, noise: noise.words };
}

/** "around 10", "at about 10pm", "בסביבות השעה 10": the time said, give or take; read as said, or asked. */
function approximate(rng: Rng, lang: Lang, clock: ClockWords): string {
  if (lang === "en")
    return clock.text.replace(/^at /, `${pick(rng, ["around", "about", "at around", "at about"])} `);
  if (clock.text.startsWith("ב-")) return `${pick(rng, ["בסביבות", "בסביבות השעה"])} ${clock.text.slice(2)}`;
  if (clock.text.startsWith("בשעה ")) return `בסביבות השעה ${clock.text.slice(5)}`;
  return `בסביבות ${clock.text.slice(1)}`;
}

/** A phrase whose clock is approximate: its meaning is the clock's, and asking is fine. */
export function generateApproximate(rng: Rng): Phrase & { noise: string } {
  for (;;) {
    const lang: Lang = rng() < 0.5 ? "en" : "he";
    const zone = pick(rng, ZONES);
    const now = drawNow(rng, zone);
    const day = dayWords(rng, lang);
    const clock = rng() < 0.5 ? bareClock(rng, lang) : fixedClock(rng, lang);
    const m = meaning(day.sense, clock.sense, now, zone);
    if (m === "skip") continue;
    const approx = approximate(rng, lang, clock);
    const time = rng() < 0.7 ? `${day.text} ${approx}` : `${approx} ${dayAfterClock(day)}`;
    return { text: wrap(rng, lang, time.trim()), zone, now, meaning: m, lang, noise: approx.split(" ")[0]! };
  }
}

/** Random junk: unicode, RTL marks, huge numbers, time words, whitespace. */
export function generateJunk(rng: Rng): string {
  const pieces = [
    () => String.fromCodePoint(int(rng, 0x20, 0x2fff)),
    () => String.fromCodePoint(int(rng, 0x590, 0x5ff)),
    () => String.fromCodePoint(int(rng, 0x1f300, 0x1faff)),
    () =>
      pick(rng, [
        "\u200f",
        "\u200e",
        "\u202b",
        "\u202c",
        "\u2066",
        "\u2069",
        "\ufeff",
        "\u00a0",
        "\t",
        "\n",
        " ",
        "  ",
      ]),
    () => pick(rng, ["\ud800", "\udc00", "\u0301", "\u05b7", "״", "׳", "'", '"', "-", ":", ".", "/", "\\"]),
    () =>
      pick(rng, [
        "99999999999999",
        "1e308",
        "-1",
        "0",
        "00:00",
        "24:60",
        "99:99",
        "31/02",
        "NaN",
        "Infinity",
        String(2 ** 53 + 1),
      ]),
    () =>
      `${pick(rng, ["in ", "every ", "בעוד ", "כל ", ""])}${pick(rng, ["99999999999999", "123456789", "0", "-5", "1.5e9"])} ${pick(rng, ["days", "hours", "minutes", "years", "weeks", "ימים", "שעות", "דקות", "שנים"])}`,
    () =>
      pick(rng, [
        "tomorrow",
        "at",
        "am",
        "pm",
        "every",
        "until",
        "מחר",
        "ב-",
        "כל",
        "עד",
        "half",
        "quarter",
        "past",
        "to",
        "next",
        "on",
        "the",
        "of",
      ]),
    () => pick(rng, EN_WEEKDAYS.concat(HE_WEEKDAYS, EN_MONTHS, HE_MONTHS)),
  ];
  if (rng() < 0.02) return "";
  if (rng() < 0.02) return pick(rng, [" ", "\t\n ", "\u200f\u200f", "\u200e \u200f"]);
  const n = int(rng, 1, 14);
  let text = "";
  for (let i = 0; i < n; i++) text += pick(rng, pieces)() + (rng() < 0.6 ? " " : "");
  return text;
}
