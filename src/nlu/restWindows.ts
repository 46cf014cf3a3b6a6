/**
 * The rest days of the Hebrew calendar as instants (issue 36): from candle lighting to havdalah,
 * for Shabbat and for yom tov on the user's schedule, computed by `@hebcal/core` for a city
 * (`Location.lookup`'s classic cities). A yom tov next to Shabbat is one window: nothing happens
 * between its candle lighting and the havdalah that ends them all.
 */
import { flags, HebrewCalendar, Location, Zmanim, type Event } from "@hebcal/core";
import { toJsDate, type CalendarSchedule } from "./hebrewCalendar.js";
import { addDays, instantToLocal, type LocalDate } from "./zonedTime.js";

/** One rest window: candle lighting to havdalah, with what it is for (Shabbat, Rosh Hashana …). */
export interface RestWindow {
  /** Candle lighting (epoch ms). */
  start: number;
  /** Havdalah (epoch ms). */
  end: number;
  /** What the window is for, in each language, the holidays first: ["Rosh Hashana", "Shabbat"]. */
  names: { en: string[]; he: string[] };
  /** The city's zone: its times are said there ("15:55 Jerusalem time" to a user in New York). */
  timeZone: string;
}

/** Hebrew names of the classic cities people are likely to name in Hebrew. */
const HEBREW_CITIES: Record<string, string> = {
  ירושלים: "Jerusalem",
  "תל אביב": "Tel Aviv",
  "תל-אביב": "Tel Aviv",
  חיפה: "Haifa",
  "באר שבע": "Beer Sheva",
  אשדוד: "Ashdod",
  אילת: "Eilat",
  "פתח תקווה": "Petach Tikvah",
  "פתח תקוה": "Petach Tikvah",
  טבריה: "Tiberias",
  "ניו יורק": "New York",
  לונדון: "London",
  פריז: "Paris",
  "לוס אנג'לס": "Los Angeles",
  "לוס אנגלס": "Los Angeles",
  טורונטו: "Toronto",
  מונטריאול: "Montreal",
  שיקגו: "Chicago",
  מיאמי: "Miami",
  בוסטון: "Boston",
  ברלין: "Berlin",
  מוסקבה: "Moscow",
  סידני: "Sydney",
  מלבורן: "Melbourne",
  "בואנוס איירס": "Buenos Aires",
  "מקסיקו סיטי": "Mexico City",
  "סאו פאולו": "Sao Paulo",
  יוהנסבורג: "Johannesburg",
  קייב: "Kiev",
  בודפשט: "Budapest",
};

/** A city as the user reads it: its Hebrew name in Hebrew when it has one ("Haifa" → "חיפה"). */
export function cityName(city: string, language: "he" | "en"): string {
  if (language === "en") return city;
  return Object.entries(HEBREW_CITIES).find(([, english]) => english === city)?.[0] ?? city;
}

/** Zones whose city is not the zone's own name. */
const ZONE_CITIES: Record<string, string> = {
  "Asia/Jerusalem": "Jerusalem",
  "Asia/Tel_Aviv": "Tel Aviv",
  Israel: "Jerusalem",
  "Pacific/Honolulu": "Hawaii",
  "Europe/Kyiv": "Kiev",
  "America/Panama": "Panama City",
};

/** The city's name as hebcal knows it ("haifa", "חיפה" → "Haifa"), or null when it is not one of its cities. */
export function restCity(name: string): string | null {
  const said = name
    .trim()
    .replace(/^(?:the\s+city\s+of\s+)/i, "")
    .replace(/\s+/g, " ");
  const english = HEBREW_CITIES[said] ?? said;
  const location = Location.lookup(english);
  return location ? (location.getShortName() ?? english) : null;
}

/** The city of an IANA zone ("America/New_York" → "New York"), or null when the zone has none. */
export function cityOfZone(timeZone: string): string | null {
  const named = ZONE_CITIES[timeZone];
  if (named) return named;
  const last = timeZone.split("/").at(-1)?.replace(/_/g, " ");
  const location = last ? Location.lookup(last) : undefined;
  return location && location.getTzid() === timeZone ? (location.getShortName() ?? last!) : null;
}

/** The instant of sunset on `date` in the city of `timeZone` (cityOfZone), or null when the zone has no city. */
export function sunsetOf(date: LocalDate, timeZone: string): number | null {
  const city = cityOfZone(timeZone);
  const location = city ? Location.lookup(city) : undefined;
  if (!location) return null;
  const sunset = new Zmanim(location, toJsDate(date), false).sunset();
  return Number.isNaN(sunset.getTime()) ? null : sunset.getTime();
}
/** "Rosh Hashana 5787" → "Rosh Hashana", "Pesach VII" → "Pesach", "פסח ז׳" → "פסח". */
const holidayName = (text: string) =>
  text
    .replace(/\s+(?:[IVX]+|\d+|[א-ת]{1,2}[׳״'"]?[א-ת]?|[א-ת]?[׳״'"][א-ת])$/u, "")
    .replace(/\s*\(.*\)$/, "")
    .trim();

/**
 * Days searched on either side of the range: longer than the longest window (two days of yom tov
 * and Shabbat, Wednesday evening to Saturday night, about 3.1 days), so a window that overlaps the
 * range is found with both its candle lighting and its havdalah.
 */
const MARGIN_DAYS = 4;

/** Shabbat as a rest window names it, last after the holidays it joins. */
export const SHABBAT_NAME = { en: "Shabbat", he: "שבת" } as const;

/**
 * The rest windows that overlap `fromMs`…`toMs` in `city` on `schedule`: Shabbat and the yom tov
 * days of that schedule (the 8th day of Pesach only abroad), each from its candle lighting to its
 * havdalah, adjacent ones merged. A window that overlaps the range is found whole, however far
 * before `fromMs` it began or after `toMs` it ends.
 */
export function restWindows(
  fromMs: number,
  toMs: number,
  city: string,
  schedule: CalendarSchedule,
): RestWindow[] {
  const location = Location.lookup(city);
  if (!location) return [];
  const zone = location.getTzid();
  const local = (ms: number) => {
    const { year, month, day } = instantToLocal(ms, zone);
    return { year, month, day };
  };
  const events = HebrewCalendar.calendar({
    start: toJsDate(addDays(local(fromMs), -MARGIN_DAYS)),
    end: toJsDate(addDays(local(toMs), MARGIN_DAYS)),
    location,
    candlelighting: true,
    il: schedule === "israel",
    noHolidays: false,
    noModern: true,
    noMinorFast: true,
    noRoshChodesh: true,
    noSpecialShabbat: true,
  });
  const windows: RestWindow[] = [];
  let open: { start: number; en: string[]; he: string[] } | null = null;
  const chagByDay = new Map<string, Event>();
  const timeOf = (event: Event) => (event as Event & { eventTime?: Date }).eventTime?.getTime();
  for (const event of events) {
    // The holiday itself (its candle lighting and havdalah carry its flags too).
    if (event.getFlags() & flags.CHAG && timeOf(event) === undefined) {
      const greg = event.getDate().greg();
      chagByDay.set(`${greg.getFullYear()}-${greg.getMonth()}-${greg.getDate()}`, event);
    }
  }
  for (const event of events) {
    const desc = event.getDesc();
    const at = timeOf(event);
    if (at === undefined) continue;
    if (desc === "Candle lighting") {
      open ??= { start: at, en: [], he: [] };
    } else if (desc === "Havdalah" && open) {
      windows.push({
        start: open.start,
        end: at,
        names: namesBetween(open.start, at, zone, chagByDay),
        timeZone: zone,
      });
      open = null;
    }
  }
  return windows.filter((w) => w.end > fromMs && w.start < toMs);
}

/** What a window is for: the yom tov days in it, then Shabbat when it holds a Saturday. */
function namesBetween(
  startMs: number,
  endMs: number,
  zone: string,
  chagByDay: ReadonlyMap<string, Event>,
): RestWindow["names"] {
  const en: string[] = [];
  const he: string[] = [];
  let shabbat = false;
  // Each daytime of the window (the day after candle lighting up to the day of havdalah).
  for (let day = addDays(instantToLocal(startMs, zone), 1); ; day = addDays(day, 1)) {
    const date = toJsDate(day);
    if (date.getDay() === 6) shabbat = true;
    const chag = chagByDay.get(`${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`);
    if (chag) {
      const name = holidayName(chag.render("en"));
      if (!en.includes(name)) {
        en.push(name);
        he.push(holidayName(chag.render("he-x-NoNikud")).replace(/יום כיפור$/, "יום הכיפורים"));
      }
    }
    const last = instantToLocal(endMs, zone);
    if (day.year === last.year && day.month === last.month && day.day === last.day) break;
  }
  if (shabbat) {
    en.push(SHABBAT_NAME.en);
    he.push(SHABBAT_NAME.he);
  }
  return { en, he };
}
