import ct from "countries-and-timezones";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import phoneMetadata from "libphonenumber-js/min/metadata";
import { isValidTimeZone } from "../../utils/timeContext.js";

/**
 * Time zones for onboarding and for "change my time zone": a guess from the phone number, what a
 * typed place means, and how a zone is shown. Offsets and daylight-saving behaviour come from the
 * runtime's ICU (what the rest of Memo computes times with); the zone list, countries and alias
 * marks come from countries-and-timezones.
 */

type Language = "he" | "en";

/** One option in a time-zone question. */
export interface ZoneChoice {
  /** Canonical IANA id, accepted by Intl. */
  zone: string;
  /** Place and current offset, at most 24 characters: "New York (UTC−5)". */
  label: string;
  /** What the zone is called, at most 72 characters: "Eastern Time". */
  description?: string;
}

/** Most choices a question offers (a WhatsApp list holds 10 rows). */
const MAX_CHOICES = 10;
const MAX_LABEL = 24;
const MAX_DESCRIPTION = 72;
const MINUS = "\u2212";
const DAY_MS = 86_400_000;

/**
 * Zones roughly by how many people live by them (largest metro first). Picks the main zone of a
 * country, the representative of a group of zones that behave alike, which groups survive when a
 * country has more than MAX_CHOICES, and which real zone a half-hour offset means. Zones not
 * listed rank after all listed ones. Aliases count for their canonical zone.
 */
// prettier-ignore
const IMPORTANCE = [
  "Asia/Tokyo", "Asia/Kolkata", "Asia/Shanghai", "Asia/Dhaka", "America/Sao_Paulo", "Africa/Cairo",
  "America/Mexico_City", "America/New_York", "Asia/Karachi", "Asia/Manila", "Africa/Lagos",
  "Europe/Istanbul", "America/Argentina/Buenos_Aires", "Asia/Jakarta", "Europe/Moscow", "Africa/Kinshasa",
  "Asia/Bangkok", "America/Los_Angeles", "America/Lima", "Europe/Paris", "Europe/London", "America/Bogota",
  "Asia/Seoul", "Asia/Tehran", "Asia/Ho_Chi_Minh", "Asia/Hong_Kong", "America/Chicago", "Asia/Kuala_Lumpur",
  "Asia/Riyadh", "Asia/Baghdad", "Africa/Johannesburg", "Europe/Madrid", "America/Toronto", "Asia/Singapore",
  "America/Santiago", "Asia/Yangon", "Africa/Nairobi", "Asia/Kabul", "Europe/Berlin", "Asia/Jerusalem",
  "America/Caracas", "Europe/Rome", "Australia/Sydney", "Australia/Melbourne", "America/Denver",
  "America/Phoenix", "Asia/Taipei", "Europe/Athens", "Europe/Kyiv", "Asia/Colombo", "Asia/Dubai",
  "Europe/Warsaw", "Asia/Makassar", "America/Manaus", "America/Vancouver", "Asia/Almaty",
  "America/Monterrey", "America/Tijuana", "Australia/Brisbane", "Australia/Perth", "Asia/Novosibirsk",
  "Asia/Yekaterinburg", "Europe/Samara", "America/Edmonton", "Asia/Kathmandu", "Europe/Amsterdam",
  "Europe/Brussels", "Europe/Vienna", "Europe/Bucharest", "Europe/Budapest", "Europe/Stockholm",
  "Europe/Prague", "Europe/Lisbon", "Asia/Omsk", "Asia/Krasnoyarsk", "America/Montreal", "America/Winnipeg",
  "America/Cancun", "America/Hermosillo", "America/Ciudad_Juarez", "America/Matamoros", "Australia/Adelaide",
  "Asia/Irkutsk", "Asia/Vladivostok", "Europe/Kaliningrad", "America/Halifax", "Pacific/Auckland",
  "America/Regina", "America/Rio_Branco", "Asia/Jayapura", "Asia/Yakutsk", "Pacific/Honolulu",
  "America/Anchorage", "America/St_Johns", "Africa/Lubumbashi", "Asia/Sakhalin", "Asia/Magadan",
  "Asia/Kamchatka", "Atlantic/Canary", "Asia/Urumqi", "Australia/Darwin", "Australia/Hobart",
  "America/Punta_Arenas", "America/Noronha", "Atlantic/Azores", "Asia/Ulaanbaatar", "Asia/Hovd",
  "America/Whitehorse", "Pacific/Galapagos", "Pacific/Easter", "Pacific/Chatham", "Australia/Lord_Howe",
  "Australia/Eucla", "America/Adak",
];

/** Hebrew names of zone cities (first: the one shown). ICU's Hebrew place names fill in the rest. */
const HEBREW_ZONE_NAMES: Record<string, readonly string[]> = {
  "Asia/Jerusalem": ["ירושלים", "ירושליים"],
  "Europe/London": ["לונדון"],
  "Europe/Paris": ["פריז", "פריס"],
  "Europe/Berlin": ["ברלין"],
  "Europe/Rome": ["רומא"],
  "Europe/Madrid": ["מדריד"],
  "Europe/Amsterdam": ["אמסטרדם"],
  "Europe/Brussels": ["בריסל"],
  "Europe/Vienna": ["וינה"],
  "Europe/Zurich": ["ציריך"],
  "Europe/Prague": ["פראג"],
  "Europe/Budapest": ["בודפשט"],
  "Europe/Warsaw": ["ורשה"],
  "Europe/Athens": ["אתונה"],
  "Europe/Kyiv": ["קייב", "קיוב"],
  "Europe/Moscow": ["מוסקבה"],
  "Europe/Istanbul": ["איסטנבול"],
  "Europe/Lisbon": ["ליסבון"],
  "Europe/Dublin": ["דבלין"],
  "Europe/Bucharest": ["בוקרשט"],
  "Europe/Sofia": ["סופיה"],
  "Europe/Belgrade": ["בלגרד"],
  "Europe/Helsinki": ["הלסינקי"],
  "Europe/Stockholm": ["שטוקהולם"],
  "Europe/Oslo": ["אוסלו"],
  "Europe/Copenhagen": ["קופנהגן"],
  "Europe/Riga": ["ריגה"],
  "Europe/Vilnius": ["וילנה", "וילנייוס"],
  "Europe/Tallinn": ["טאלין"],
  "Europe/Minsk": ["מינסק"],
  "Europe/Chisinau": ["קישינב"],
  "Europe/Zagreb": ["זאגרב"],
  "Europe/Monaco": ["מונקו"],
  "Europe/Kaliningrad": ["קלינינגרד"],
  "Europe/Samara": ["סמרה"],
  "Europe/Volgograd": ["וולגוגרד"],
  "Asia/Yekaterinburg": ["יקטרינבורג"],
  "Asia/Omsk": ["אומסק"],
  "Asia/Novosibirsk": ["נובוסיבירסק"],
  "Asia/Krasnoyarsk": ["קרסנויארסק"],
  "Asia/Irkutsk": ["אירקוטסק"],
  "Asia/Yakutsk": ["יקוטסק"],
  "Asia/Vladivostok": ["ולדיווסטוק"],
  "Asia/Magadan": ["מגדן"],
  "Asia/Sakhalin": ["סחלין"],
  "Asia/Kamchatka": ["קמצ'טקה"],
  "Asia/Nicosia": ["ניקוסיה"],
  "Asia/Tbilisi": ["טביליסי"],
  "Asia/Yerevan": ["ירוואן"],
  "Asia/Baku": ["באקו"],
  "Asia/Dubai": ["דובאי"],
  "Asia/Bangkok": ["בנגקוק"],
  "Asia/Tokyo": ["טוקיו"],
  "Asia/Shanghai": ["שנגחאי"],
  "Asia/Hong_Kong": ["הונג קונג"],
  "Asia/Singapore": ["סינגפור"],
  "Asia/Seoul": ["סיאול"],
  "Asia/Kolkata": ["קולקטה", "כלכותה"],
  "Asia/Kathmandu": ["קטמנדו"],
  "Asia/Manila": ["מנילה"],
  "Asia/Jakarta": ["ג'קרטה"],
  "Asia/Ho_Chi_Minh": ["הו צ'י מין", "סייגון"],
  "Asia/Taipei": ["טאיפיי", "טייפה"],
  "Asia/Karachi": ["קראצ'י"],
  "Asia/Tehran": ["טהרן"],
  "Asia/Amman": ["עמאן"],
  "Asia/Beirut": ["ביירות"],
  "Asia/Damascus": ["דמשק"],
  "Asia/Baghdad": ["בגדאד"],
  "Asia/Riyadh": ["ריאד"],
  "Asia/Almaty": ["אלמטי"],
  "Asia/Tashkent": ["טשקנט"],
  "Asia/Colombo": ["קולומבו"],
  "Africa/Cairo": ["קהיר"],
  "Africa/Johannesburg": ["יוהנסבורג"],
  "Africa/Nairobi": ["ניירובי"],
  "Africa/Addis_Ababa": ["אדיס אבבה"],
  "Africa/Casablanca": ["קזבלנקה"],
  "Africa/Lagos": ["לאגוס"],
  "Africa/Kinshasa": ["קינשאסה"],
  "America/New_York": ["ניו יורק"],
  "America/Los_Angeles": ["לוס אנג'לס"],
  "America/Chicago": ["שיקגו"],
  "America/Denver": ["דנוור"],
  "America/Phoenix": ["פיניקס"],
  "America/Anchorage": ["אנקורג'"],
  "Pacific/Honolulu": ["הונולולו"],
  "America/Adak": ["אדאק"],
  "America/Detroit": ["דטרויט"],
  "America/Toronto": ["טורונטו"],
  "America/Vancouver": ["ונקובר"],
  "America/Montreal": ["מונטריאול"],
  "America/Edmonton": ["אדמונטון"],
  "America/Winnipeg": ["ויניפג"],
  "America/Halifax": ["הליפקס"],
  "America/St_Johns": ["סנט ג'ונס"],
  "America/Regina": ["רג'יינה"],
  "America/Whitehorse": ["ווייטהורס"],
  "America/Mexico_City": ["מקסיקו סיטי"],
  "America/Cancun": ["קנקון"],
  "America/Tijuana": ["טיחואנה"],
  "America/Sao_Paulo": ["סאו פאולו"],
  "America/Manaus": ["מנאוס"],
  "America/Noronha": ["נורוניה"],
  "America/Rio_Branco": ["ריו ברנקו"],
  "America/Argentina/Buenos_Aires": ["בואנוס איירס"],
  "America/Bogota": ["בוגוטה"],
  "America/Lima": ["לימה"],
  "America/Santiago": ["סנטיאגו"],
  "America/Caracas": ["קראקס"],
  "America/Panama": ["פנמה"],
  "America/Havana": ["הוואנה"],
  "America/Montevideo": ["מונטווידאו"],
  "Australia/Sydney": ["סידני"],
  "Australia/Melbourne": ["מלבורן"],
  "Australia/Brisbane": ["בריסביין", "בריסבן"],
  "Australia/Perth": ["פרת'"],
  "Australia/Adelaide": ["אדלייד"],
  "Australia/Darwin": ["דרווין"],
  "Australia/Hobart": ["הובארט"],
  "Pacific/Auckland": ["אוקלנד"],
};

/** English city names the zone ids spell without accents or apostrophes. */
const ENGLISH_ZONE_NAMES: Record<string, string> = {
  "America/St_Johns": "St. John's",
  "America/Sao_Paulo": "São Paulo",
  "America/Bogota": "Bogotá",
  "America/Cancun": "Cancún",
  "America/Ciudad_Juarez": "Ciudad Juárez",
  "Atlantic/Canary": "Canary Islands",
  "Asia/Ho_Chi_Minh": "Ho Chi Minh City",
};

/** A place that is not a zone's city: [zone, English names, Hebrew names]; the first names are shown. */
type Place = readonly [zone: string, en: readonly string[], he: readonly string[]];

/** Cities, states and provinces people name that are not in a zone id (states map to their main zone). */
const PLACES: readonly Place[] = [
  ["Asia/Jerusalem", ["Tel Aviv", "Tel Aviv-Yafo", "TLV"], ["תל אביב", "תל אביב יפו", 'ת"א']],
  ["Asia/Jerusalem", ["Haifa"], ["חיפה"]],
  ["Asia/Jerusalem", ["Eilat"], ["אילת"]],
  ["Asia/Jerusalem", ["Beersheba", "Beer Sheva", "Be'er Sheva"], ["באר שבע"]],
  ["Asia/Jerusalem", ["Ashdod"], ["אשדוד"]],
  ["Asia/Jerusalem", ["Ashkelon"], ["אשקלון"]],
  ["Asia/Jerusalem", ["Netanya"], ["נתניה"]],
  ["Asia/Jerusalem", ["Herzliya"], ["הרצליה"]],
  ["Asia/Jerusalem", ["Ra'anana", "Raanana"], ["רעננה"]],
  ["Asia/Jerusalem", ["Ramat Gan"], ["רמת גן"]],
  ["Asia/Jerusalem", ["Petah Tikva"], ["פתח תקווה", "פתח תקוה"]],
  ["Asia/Jerusalem", ["Rishon LeZion"], ["ראשון לציון"]],
  ["Asia/Jerusalem", ["Modiin"], ["מודיעין"]],
  ["Asia/Jerusalem", ["Kfar Saba"], ["כפר סבא"]],
  ["Asia/Jerusalem", ["Holon"], ["חולון"]],
  ["Asia/Jerusalem", ["Bat Yam"], ["בת ים"]],
  ["Asia/Jerusalem", ["Rehovot"], ["רחובות"]],
  ["Asia/Jerusalem", ["Bnei Brak"], ["בני ברק"]],
  ["Asia/Jerusalem", ["Beit Shemesh"], ["בית שמש"]],
  ["Asia/Jerusalem", ["Hadera"], ["חדרה"]],
  ["Asia/Jerusalem", ["Nahariya"], ["נהריה"]],
  ["Asia/Jerusalem", ["Tiberias"], ["טבריה"]],
  ["Asia/Jerusalem", ["Nazareth"], ["נצרת"]],
  ["Asia/Jerusalem", ["Acre", "Akko"], ["עכו"]],
  ["America/New_York", ["New York City", "NYC"], ["ניו יורק סיטי"]],
  ["America/New_York", ["Miami"], ["מיאמי"]],
  ["America/New_York", ["Boston"], ["בוסטון"]],
  ["America/New_York", ["Washington", "Washington DC", "Washington D.C."], ["וושינגטון"]],
  ["America/New_York", ["Philadelphia"], ["פילדלפיה"]],
  ["America/New_York", ["Atlanta"], ["אטלנטה"]],
  ["America/New_York", ["Orlando"], ["אורלנדו"]],
  ["America/Chicago", ["Houston"], ["יוסטון"]],
  ["America/Chicago", ["Dallas"], ["דאלאס", "דלאס"]],
  ["America/Chicago", ["Austin"], ["אוסטין"]],
  ["America/Chicago", ["New Orleans"], ["ניו אורלינס"]],
  ["America/Denver", ["Salt Lake City"], ["סולט לייק סיטי"]],
  ["America/Los_Angeles", ["LA", "L.A."], []],
  ["America/Los_Angeles", ["San Francisco", "SF"], ["סן פרנסיסקו"]],
  ["America/Los_Angeles", ["Seattle"], ["סיאטל"]],
  ["America/Los_Angeles", ["Las Vegas"], ["לאס וגאס"]],
  ["America/Los_Angeles", ["San Diego"], ["סן דייגו"]],
  ["America/Toronto", ["Ottawa"], ["אוטווה"]],
  ["America/Edmonton", ["Calgary"], ["קלגרי"]],
  ["Asia/Shanghai", ["Beijing", "Peking"], ["בייג'ינג"]],
  ["Asia/Kolkata", ["Mumbai", "Bombay"], ["מומבאי"]],
  ["Asia/Kolkata", ["New Delhi", "Delhi"], ["ניו דלהי", "דלהי"]],
  ["Asia/Kolkata", ["Bangalore", "Bengaluru"], ["בנגלור"]],
  ["Asia/Kolkata", ["Goa"], ["גואה"]],
  ["Europe/Berlin", ["Munich"], ["מינכן"]],
  ["Europe/Berlin", ["Frankfurt"], ["פרנקפורט"]],
  ["Europe/Berlin", ["Hamburg"], ["המבורג"]],
  ["Europe/Rome", ["Milan"], ["מילאנו"]],
  ["Europe/Rome", ["Venice"], ["ונציה"]],
  ["Europe/Rome", ["Florence"], ["פירנצה"]],
  ["Europe/Rome", ["Naples"], ["נאפולי"]],
  ["Europe/Madrid", ["Barcelona"], ["ברצלונה"]],
  ["Europe/Zurich", ["Geneva"], ["ז'נבה"]],
  ["Europe/Warsaw", ["Krakow", "Cracow"], ["קרקוב"]],
  ["Europe/Moscow", ["Saint Petersburg", "St Petersburg", "St. Petersburg"], ["סנט פטרסבורג"]],
  ["Europe/London", ["Manchester"], ["מנצ'סטר"]],
  ["Europe/London", ["Edinburgh"], ["אדינבורו"]],
  ["Europe/Athens", ["Thessaloniki"], ["סלוניקי", "תסלוניקי"]],
  ["Europe/Athens", ["Rhodes"], ["רודוס"]],
  ["Europe/Athens", ["Crete"], ["כרתים"]],
  ["Europe/Istanbul", ["Antalya"], ["אנטליה"]],
  ["Asia/Nicosia", ["Larnaca"], ["לרנקה"]],
  ["Asia/Nicosia", ["Limassol"], ["לימסול"]],
  ["Asia/Nicosia", ["Paphos"], ["פאפוס"]],
  ["Asia/Tbilisi", ["Batumi"], ["בטומי"]],
  ["Asia/Dubai", ["Abu Dhabi"], ["אבו דאבי"]],
  ["Africa/Cairo", ["Sharm el-Sheikh", "Sharm"], ["שארם א-שייח'", "שארם"]],
  ["Africa/Casablanca", ["Marrakesh", "Marrakech"], ["מרקש"]],
  ["Africa/Johannesburg", ["Cape Town"], ["קייפטאון", "קייפ טאון"]],
  ["Asia/Tokyo", ["Osaka"], ["אוסקה"]],
  ["Asia/Tokyo", ["Kyoto"], ["קיוטו"]],
  ["Asia/Bangkok", ["Phuket"], ["פוקט"]],
  ["Asia/Bangkok", ["Koh Samui", "Ko Samui"], ["קוסמוי", "קו סמוי"]],
  ["Asia/Bangkok", ["Chiang Mai"], ["צ'יאנג מאי"]],
  ["Asia/Bangkok", ["Hanoi"], ["האנוי"]],
  ["Asia/Makassar", ["Bali"], ["באלי"]],
  ["America/Sao_Paulo", ["Rio de Janeiro", "Rio"], ["ריו דה ז'ניירו", "ריו"]],
  ["Australia/Sydney", ["Canberra"], ["קנברה"]],
  ["Australia/Brisbane", ["Gold Coast"], ["גולד קוסט"]],
  ["Pacific/Auckland", ["Wellington"], ["ולינגטון"]],
  // US states, Canadian provinces and Australian states, by the zone most of them keep.
  ["America/Chicago", ["Alabama"], ["אלבמה"]],
  ["America/Anchorage", ["Alaska"], ["אלסקה"]],
  ["America/Phoenix", ["Arizona"], ["אריזונה"]],
  ["America/Chicago", ["Arkansas"], ["ארקנסו"]],
  ["America/Los_Angeles", ["California"], ["קליפורניה"]],
  ["America/Denver", ["Colorado"], ["קולורדו"]],
  ["America/New_York", ["Connecticut"], ["קונטיקט"]],
  ["America/New_York", ["Delaware"], []],
  ["America/New_York", ["Florida"], ["פלורידה"]],
  ["America/New_York", ["Georgia", "Georgia US"], []],
  ["Pacific/Honolulu", ["Hawaii"], ["הוואי"]],
  ["America/Boise", ["Idaho"], []],
  ["America/Chicago", ["Illinois"], ["אילינוי"]],
  ["America/Indiana/Indianapolis", ["Indiana"], ["אינדיאנה"]],
  ["America/Chicago", ["Iowa"], ["איווה"]],
  ["America/Chicago", ["Kansas"], ["קנזס"]],
  ["America/New_York", ["Kentucky"], ["קנטקי"]],
  ["America/Chicago", ["Louisiana"], ["לואיזיאנה"]],
  ["America/New_York", ["Maine"], []],
  ["America/New_York", ["Maryland"], ["מרילנד"]],
  ["America/New_York", ["Massachusetts"], ["מסצ'וסטס"]],
  ["America/Detroit", ["Michigan"], ["מישיגן"]],
  ["America/Chicago", ["Minnesota"], ["מינסוטה"]],
  ["America/Chicago", ["Mississippi"], ["מיסיסיפי"]],
  ["America/Chicago", ["Missouri"], ["מיזורי"]],
  ["America/Denver", ["Montana"], ["מונטנה"]],
  ["America/Chicago", ["Nebraska"], ["נברסקה"]],
  ["America/Los_Angeles", ["Nevada"], ["נבדה"]],
  ["America/New_York", ["New Hampshire"], []],
  ["America/New_York", ["New Jersey"], ["ניו ג'רזי", "ניו ג'רסי"]],
  ["America/Denver", ["New Mexico"], ["ניו מקסיקו"]],
  ["America/New_York", ["New York State"], []],
  ["America/New_York", ["North Carolina"], ["צפון קרוליינה"]],
  ["America/Chicago", ["North Dakota"], []],
  ["America/New_York", ["Ohio"], ["אוהיו"]],
  ["America/Chicago", ["Oklahoma"], ["אוקלהומה"]],
  ["America/Los_Angeles", ["Oregon"], ["אורגון"]],
  ["America/New_York", ["Pennsylvania"], ["פנסילבניה"]],
  ["America/New_York", ["Rhode Island"], []],
  ["America/New_York", ["South Carolina"], ["דרום קרוליינה"]],
  ["America/Chicago", ["South Dakota"], []],
  ["America/Chicago", ["Tennessee"], ["טנסי"]],
  ["America/Chicago", ["Texas"], ["טקסס"]],
  ["America/Denver", ["Utah"], ["יוטה"]],
  ["America/New_York", ["Vermont"], []],
  ["America/New_York", ["Virginia"], ["וירג'יניה"]],
  ["America/Los_Angeles", ["Washington State"], ["מדינת וושינגטון"]],
  ["America/New_York", ["West Virginia"], []],
  ["America/Chicago", ["Wisconsin"], ["ויסקונסין"]],
  ["America/Denver", ["Wyoming"], []],
  ["America/Toronto", ["Ontario"], ["אונטריו"]],
  ["America/Toronto", ["Quebec"], ["קוויבק"]],
  ["America/Vancouver", ["British Columbia"], ["קולומביה הבריטית"]],
  ["America/Edmonton", ["Alberta"], ["אלברטה"]],
  ["America/Winnipeg", ["Manitoba"], []],
  ["America/Regina", ["Saskatchewan"], []],
  ["America/Halifax", ["Nova Scotia"], []],
  ["America/Moncton", ["New Brunswick"], []],
  ["America/St_Johns", ["Newfoundland"], []],
  ["America/Whitehorse", ["Yukon"], []],
  ["Australia/Sydney", ["New South Wales", "NSW"], []],
  ["Australia/Melbourne", ["Victoria"], ["ויקטוריה"]],
  ["Australia/Brisbane", ["Queensland"], ["קווינסלנד"]],
  ["Australia/Adelaide", ["South Australia"], []],
  ["Australia/Perth", ["Western Australia"], []],
  ["Australia/Darwin", ["Northern Territory"], []],
  ["Australia/Hobart", ["Tasmania"], ["טסמניה"]],
];

/** Other names of countries, beyond what Intl.DisplayNames says in English and Hebrew. */
const COUNTRY_NAMES: Record<string, readonly string[]> = {
  US: ["USA", "U.S.", "U.S.A.", "America", "United States of America", "the States", "ארהב", "אמריקה"],
  GB: ["UK", "U.K.", "England", "Scotland", "Wales", "Northern Ireland", "Britain", "Great Britain"],
  IL: ["ארץ ישראל"],
  NL: ["Holland"],
  KR: ["Korea", "קוריאה", "דרום קוריאה"],
  AE: ["UAE", "Emirates", "האמירויות", "איחוד האמירויות", "אמירויות"],
  CZ: ["Czech Republic", "הרפובליקה הצ'כית"],
  TR: ["Turkey"],
  CI: ["Ivory Coast"],
  MM: ["Burma"],
  CD: ["Congo", "DRC", "DR Congo"],
  CG: ["Congo"],
};
const HEBREW_COUNTRY_EXTRAS: Record<string, readonly string[]> = {
  GB: ["אנגליה", "סקוטלנד", "ויילס", "וויילס", "בריטניה הגדולה", "הממלכה המאוחדת"],
};

/**
 * Abbreviations and zone nicknames. Ambiguous ones get the reading Memo's users most likely mean:
 * IST is Israel Standard Time (not India or Irish), CST is US Central (not China), CET is Berlin.
 */
const ABBREVIATIONS: Record<string, string> = {
  est: "America/New_York",
  edt: "America/New_York",
  et: "America/New_York",
  eastern: "America/New_York",
  cst: "America/Chicago",
  cdt: "America/Chicago",
  ct: "America/Chicago",
  central: "America/Chicago",
  mst: "America/Denver",
  mdt: "America/Denver",
  mt: "America/Denver",
  mountain: "America/Denver",
  pst: "America/Los_Angeles",
  pdt: "America/Los_Angeles",
  pt: "America/Los_Angeles",
  pacific: "America/Los_Angeles",
  akst: "America/Anchorage",
  akdt: "America/Anchorage",
  hst: "Pacific/Honolulu",
  ist: "Asia/Jerusalem",
  idt: "Asia/Jerusalem",
  utc: "Etc/UTC",
  z: "Etc/UTC",
  zulu: "Etc/UTC",
  gmt: "Etc/GMT",
  bst: "Europe/London",
  wet: "Europe/Lisbon",
  cet: "Europe/Berlin",
  cest: "Europe/Berlin",
  "central european": "Europe/Berlin",
  eet: "Europe/Athens",
  eest: "Europe/Athens",
  "eastern european": "Europe/Athens",
  msk: "Europe/Moscow",
  jst: "Asia/Tokyo",
  kst: "Asia/Seoul",
  hkt: "Asia/Hong_Kong",
  sgt: "Asia/Singapore",
  aest: "Australia/Sydney",
  aedt: "Australia/Sydney",
  acst: "Australia/Adelaide",
  acdt: "Australia/Adelaide",
  awst: "Australia/Perth",
  nzst: "Pacific/Auckland",
  nzdt: "Pacific/Auckland",
};

// ---------------------------------------------------------------------------------------------
// Zone data

interface ZoneData {
  /** Every id the library knows (aliases included) → its canonical id, only when Intl accepts it. */
  canonical: Map<string, string>;
  /** Canonical zones Intl accepts. */
  zones: string[];
  /** Canonical id → rank in IMPORTANCE (lower is bigger). */
  rank: Map<string, number>;
}

let zoneData: ZoneData | undefined;

function data(): ZoneData {
  if (zoneData) return zoneData;
  const canonical = new Map<string, string>();
  const all = ct.getAllTimezones({ deprecated: true });
  for (const tz of Object.values(all)) {
    const target = tz.aliasOf ?? tz.name;
    if (tz.name === "Factory" || !isValidTimeZone(target)) continue;
    canonical.set(tz.name, target);
  }
  const zones = [...new Set(canonical.values())];
  const rank = new Map<string, number>();
  IMPORTANCE.forEach((id, index) => {
    const zone = canonical.get(id);
    if (zone && !rank.has(zone)) rank.set(zone, index);
  });
  zoneData = { canonical, zones, rank };
  return zoneData;
}

const rankOf = (zone: string) => data().rank.get(zone) ?? Number.MAX_SAFE_INTEGER;

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC in `zone` at `at`. */
function offsetMinutes(zone: string, at: Date): number {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    offsetFormats.set(zone, format);
  }
  const name = format.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "-" ? -minutes : minutes;
}

/** Offsets every two weeks over the year from `at`: zones with equal signatures behave the same. */
function behaviour(zone: string, at: Date): number[] {
  const offsets: number[] = [];
  for (let week = 0; week <= 52; week += 2) {
    offsets.push(offsetMinutes(zone, new Date(at.getTime() + week * 7 * DAY_MS)));
  }
  return offsets;
}

/** "UTC+2", "UTC−5", "UTC+5:30", "UTC+0". */
function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? MINUS : "+";
  const abs = Math.abs(minutes);
  const hours = Math.floor(abs / 60);
  const rest = abs % 60;
  return `UTC${sign}${hours}${rest ? `:${String(rest).padStart(2, "0")}` : ""}`;
}

const isFixedOffsetZone = (zone: string) => /^Etc\//.test(zone);

/** The city in a zone id: "America/Argentina/Buenos_Aires" → "Buenos Aires". */
function englishCity(id: string): string {
  return ENGLISH_ZONE_NAMES[id] ?? (id.split("/").pop() ?? id).replace(/_/g, " ");
}

const DIRECTION_MARKS = /[\u200e\u200f\u061c]/g;
/** ICU names zones by the rules in force at a date; place names are read at a fixed recent one. */
const ICU_NAMES_AT = new Date("2026-01-01T00:00:00Z");

/** ICU's Hebrew place for a zone: a city where the country has several zones, else the country. */
function icuHebrewPlace(id: string): string | undefined {
  try {
    const name = new Intl.DateTimeFormat("he", { timeZone: id, timeZoneName: "shortGeneric" })
      .formatToParts(ICU_NAMES_AT)
      .find((p) => p.type === "timeZoneName")
      ?.value.replace(DIRECTION_MARKS, "");
    const match = name ? /^שעון\s+(.+)$/.exec(name) : null;
    return match?.[1] && !/[0-9]/.test(match[1]) ? match[1] : undefined;
  } catch {
    return undefined;
  }
}

/** An alias that only renames its zone (Europe/Kiev → Europe/Kyiv), rather than merging a country's. */
function isRename(id: string, zone: string): boolean {
  const alias = ct.getTimezone(id);
  return !alias?.countries[0] || alias.countries[0] === ct.getTimezone(zone)?.countries[0];
}

/** The place part of a label: a Hebrew name when asked for Hebrew and one is known. */
function placeName(id: string, language: Language): string {
  if (language === "he") {
    const zone = data().canonical.get(id) ?? id;
    const renamed = zone !== id && isRename(id, zone) ? HEBREW_ZONE_NAMES[zone]?.[0] : undefined;
    const hebrew = HEBREW_ZONE_NAMES[id]?.[0] ?? renamed ?? icuHebrewPlace(id);
    if (hebrew) return hebrew;
  }
  return englishCity(id);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** "place (UTC±h)" within MAX_LABEL, shortening the place when needed. */
function composeLabel(place: string, zone: string, at: Date): string {
  const minutes = offsetMinutes(zone, at);
  const offset = formatOffset(minutes);
  if (isFixedOffsetZone(zone)) return minutes === 0 ? "UTC" : offset;
  const suffix = ` (${offset})`;
  return `${truncate(place, MAX_LABEL - suffix.length)}${suffix}`;
}

/** A label for a zone at a moment: "New York (UTC−5)", "ניו יורק (UTC−5)", "UTC+2" for Etc zones. */
export function zoneLabel(zone: string, language: Language, at: Date): string {
  if (!isValidTimeZone(zone)) return zone;
  return composeLabel(placeName(zone, language), zone, at);
}

/** What ICU calls the zone ("Eastern Time", "שעון החוף המזרחי"); none when it only knows the offset. */
function describeZone(zone: string, language: Language, at: Date): string | undefined {
  if (isFixedOffsetZone(zone)) {
    return language === "he" ? "הפרש קבוע מ-UTC, בלי שעון קיץ" : "Fixed offset from UTC, no daylight saving";
  }
  try {
    const name = new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: "longGeneric" })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")
      ?.value.replace(DIRECTION_MARKS, "")
      // ICU's Hebrew marks a zone without daylight saving "(winter)"; say what it means.
      .replace(/\s*\(חורף\)$/, " (בלי שעון קיץ)");
    if (!name || /^(GMT|UTC)/.test(name)) return undefined;
    return truncate(name, MAX_DESCRIPTION);
  } catch {
    return undefined;
  }
}

function choice(zone: string, place: string, language: Language, at: Date): ZoneChoice {
  const description = describeZone(zone, language, at);
  const label = composeLabel(place, zone, at);
  return description ? { zone, label, description } : { zone, label };
}

// ---------------------------------------------------------------------------------------------
// Countries

/** ISO 3166 alpha-2 country of a phone number (libphonenumber-js), or null. */
export function countryOfPhone(phone: string): string | null {
  const digits = phone.replace(/\D/g, "");
  if (!digits) return null;
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (parsed?.country) return parsed.country;
  // A number no country's plan claims still has a calling code; its main country is listed first.
  const code = parsed?.countryCallingCode;
  const main = code ? phoneMetadata.country_calling_codes[code]?.[0] : undefined;
  return main && /^[A-Z]{2}$/.test(main) ? main : null;
}

/**
 * The zones of a country, canonical and accepted by Intl. Zones whose main country is another one
 * (Asia/Tokyo listed for Australia, America/Panama for Atikokan in Canada) are left out unless the
 * country has no zone of its own (Sweden keeps Europe/Berlin).
 */
function countryZones(country: string): { zone: string; primary: boolean }[] {
  const listed = ct.getTimezonesForCountry(country) ?? [];
  // A territory listed only under alias ids (Heard Island: Indian/Kerguelen) keeps their zones.
  const aliases = listed.length > 0 ? [] : (ct.getTimezonesForCountry(country, { deprecated: true }) ?? []);
  const zones = [
    ...listed,
    ...aliases.flatMap((tz) => (tz.aliasOf ? (ct.getTimezone(tz.aliasOf) ?? []) : [])),
  ]
    .filter((tz) => !tz.aliasOf && isValidTimeZone(tz.name))
    .filter((tz, i, all) => all.findIndex((other) => other.name === tz.name) === i);
  const own = zones.filter((tz) => tz.countries[0] === country);
  return (own.length > 0 ? own : zones).map((tz) => ({
    zone: tz.name,
    primary: tz.countries[0] === country,
  }));
}

/** For a zone whose main country is another one, the id naming this country's place (Europe/Amsterdam). */
function localAliasId(zone: string, country: string): string {
  const all = ct.getAllTimezones({ deprecated: true });
  const alias = Object.values(all)
    .filter((tz) => tz.aliasOf === zone && tz.countries.length === 1 && tz.countries[0] === country)
    .map((tz) => tz.name)
    .sort()[0];
  return alias && isValidTimeZone(alias) ? alias : zone;
}

interface ZoneGroup {
  /** The zone that stands for the group. */
  zone: string;
  size: number;
  /** Offsets over the coming year (see `behaviour`). */
  offsets: number[];
}

/** Groups zones that behave alike from `at` on, each with its most important zone. */
function groupZones(zones: readonly string[], at: Date): ZoneGroup[] {
  const groups = new Map<string, { members: string[]; offsets: number[] }>();
  for (const zone of zones) {
    const offsets = behaviour(zone, at);
    const key = offsets.join(",");
    const group = groups.get(key);
    if (group) group.members.push(zone);
    else groups.set(key, { members: [zone], offsets });
  }
  const countries = (zone: string) => ct.getTimezone(zone)?.countries.length ?? 0;
  return [...groups.values()].map(({ members, offsets }) => {
    const [zone] = [...members].sort(
      (a, b) => rankOf(a) - rankOf(b) || countries(b) - countries(a) || a.localeCompare(b),
    );
    return { zone: zone ?? members[0] ?? "Etc/UTC", size: members.length, offsets };
  });
}

/** Most important first: the ranked zone, then the group covering more zones. */
const byImportance = (a: ZoneGroup, b: ZoneGroup) =>
  rankOf(a.zone) - rankOf(b.zone) || b.size - a.size || a.zone.localeCompare(b.zone);

/** East to west now; for a tie, the one further east over the year first. */
const eastToWest = (a: ZoneGroup, b: ZoneGroup) => {
  const sum = (offsets: number[]) => offsets.reduce((total, x) => total + x, 0);
  return (
    (b.offsets[0] ?? 0) - (a.offsets[0] ?? 0) ||
    sum(b.offsets) - sum(a.offsets) ||
    a.zone.localeCompare(b.zone)
  );
};

/** A country's main zone, and one choice per distinct behaviour (a single one when all behave alike). */
function countryTimeZones(
  country: string,
  language: Language,
  at: Date,
): { zone: string; choices: ZoneChoice[] } | null {
  const zones = countryZones(country);
  const groups = groupZones(
    zones.map((z) => z.zone),
    at,
  ).sort(byImportance);
  const main = groups[0];
  if (!main) return null;
  const place = (zone: string) => {
    const primary = zones.find((z) => z.zone === zone)?.primary ?? true;
    return placeName(primary ? zone : localAliasId(zone, country), language);
  };
  const kept = groups.slice(0, MAX_CHOICES).sort(eastToWest);
  return { zone: main.zone, choices: kept.map((g) => choice(g.zone, place(g.zone), language, at)) };
}

/**
 * Time zone guess for a new user from the phone's country: one zone and no choices when the
 * country's zones all behave alike; otherwise the most populous zone plus one choice per distinct
 * behaviour (at most 10, the most populous kept), east to west. Unknown country → `fallback`.
 */
export function guessTimeZone(
  phone: string,
  fallback: string,
  language: Language,
  at: Date,
): { zone: string; country: string | null; choices: ZoneChoice[] } {
  const digits = phone.replace(/\D/g, "");
  if (digits.startsWith("972")) return { zone: "Asia/Jerusalem", country: "IL", choices: [] };
  const country = countryOfPhone(digits);
  const zones = country ? countryTimeZones(country, language, at) : null;
  if (!zones) return { zone: fallback, country, choices: [] };
  return { zone: zones.zone, country, choices: zones.choices.length > 1 ? zones.choices : [] };
}

// ---------------------------------------------------------------------------------------------
// Places typed by the user

/** What a name maps to: a zone shown under a place name, or a country. */
type Target = (
  | {
      kind: "zone";
      zone: string;
      /** Zone id, or a place's own names, shown in the label. */ name: string | { en: string; he?: string };
    }
  | { kind: "country"; code: string }
) & {
  /** Whether the name may also match inside longer text ("I live in London"): well-known names only. */
  partial: boolean;
};

/** A lookup key: lowercase, no accents, niqqud or quotes, punctuation as single spaces, no leading "the". */
function nameKey(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['"`’‘“”״׳]/g, "")
    .replace(/[\s\-_–—־.,;:!?()/\\]+/g, " ")
    .trim()
    .replace(/^the /, "");
}

/** Continents of geographic zone ids; "US/Eastern", "Brazil/East" and the like are not cities. */
const CONTINENTS = /^(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)\//;
/** City parts of legacy ids that are directions, not places ("Australia/North"). */
const NOT_CITIES = new Set(["north", "south", "east", "west", "act", "nsw", "lhi", "yancowinna"]);

let nameIndex: Map<string, Target[]> | undefined;

/** Every place name Memo knows → what it means; built once, on first use. */
function names(): Map<string, Target[]> {
  if (nameIndex) return nameIndex;
  const index = new Map<string, Target[]>();
  const add = (name: string, target: Target) => {
    const key = nameKey(name);
    if (!key) return;
    const targets = index.get(key) ?? [];
    const id = (t: Target) => (t.kind === "country" ? `country:${t.code}` : `zone:${t.zone}`);
    if (!targets.some((t) => id(t) === id(target))) targets.push(target);
    index.set(key, targets);
  };
  const { canonical } = data();

  for (const [zone, en, he] of PLACES) {
    const resolved = canonical.get(zone);
    if (!resolved) continue;
    const name = { en: en[0] ?? englishCity(zone), he: he[0] };
    for (const n of [...en, ...he]) add(n, { kind: "zone", zone: resolved, name, partial: true });
  }
  for (const [id, hebrew] of Object.entries(HEBREW_ZONE_NAMES)) {
    const zone = canonical.get(id);
    if (!zone) continue;
    for (const n of hebrew) add(n, { kind: "zone", zone, name: id, partial: true });
    add(englishCity(id), { kind: "zone", zone, name: id, partial: true });
  }
  // Canonical ids first, so a city shared with an alias is shown under the canonical id.
  const ids = [...canonical.keys()].filter((id) => CONTINENTS.test(id));
  ids.sort((a, b) => Number(canonical.get(a) !== a) - Number(canonical.get(b) !== b));
  for (const id of ids) {
    const city = englishCity(id);
    if (NOT_CITIES.has(nameKey(city))) continue;
    add(city, { kind: "zone", zone: canonical.get(id) ?? id, name: id, partial: false });
  }

  const displays = ["en", "he"].flatMap((locale) =>
    (["long", "short"] as const).map((style) => new Intl.DisplayNames([locale], { type: "region", style })),
  );
  const hebrewCountryNames = new Set<string>();
  for (const code of Object.keys(ct.getAllCountries())) {
    const countryNames = new Set<string>([ct.getCountry(code)?.name ?? "", ...(COUNTRY_NAMES[code] ?? [])]);
    for (const display of displays) {
      const name = display.of(code);
      if (!name || name === code) continue;
      countryNames.add(name);
      // "Myanmar (Burma)" also answers to "Myanmar" and "Burma".
      const parts = /^(.+?)\s*\((.+)\)$/.exec(name);
      if (parts?.[1] && parts[2]) countryNames.add(parts[1]).add(parts[2]);
    }
    for (const n of HEBREW_COUNTRY_EXTRAS[code] ?? []) countryNames.add(n);
    for (const n of countryNames) {
      if (/[\u0590-\u05FF]/.test(n)) hebrewCountryNames.add(nameKey(n));
      add(n, { kind: "country", code, partial: true });
    }
  }

  // ICU's Hebrew cities ("שעון נובוסיבירסק"), where it names a city rather than a country.
  for (const zone of data().zones) {
    if (isFixedOffsetZone(zone)) continue;
    const place = icuHebrewPlace(zone);
    if (!place || hebrewCountryNames.has(nameKey(place))) continue;
    add(place, { kind: "zone", zone, name: zone, partial: false });
    const city = place.split(",")[0];
    if (city && city !== place) add(city, { kind: "zone", zone, name: zone, partial: false });
  }
  nameIndex = index;
  return index;
}

/** "UTC+2", "gmt-5", "utc+5:30", "+3", "UTC−0530" → minutes east of UTC. */
function parseOffset(text: string): number | null {
  const match = /^(?:(?:utc|gmt)\s*)?([+\-−–])\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(text.trim());
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  if (Number(match[3] ?? 0) >= 60 || minutes > 14 * 60) return null;
  return match[1] === "+" ? minutes : -minutes;
}

/** An IANA zone for an offset: Etc/GMT∓h for whole hours, else a real zone on that offset now. */
function zoneForOffset(minutes: number, at: Date): string | null {
  if (minutes === 0) return "Etc/UTC";
  if (minutes % 60 === 0) {
    const hours = minutes / 60;
    // POSIX-style names invert the sign: Etc/GMT-2 is two hours east of UTC.
    const zone = `Etc/GMT${hours > 0 ? "-" : "+"}${Math.abs(hours)}`;
    return hours >= -12 && isValidTimeZone(zone) ? zone : null;
  }
  const candidates = data().zones.filter(
    (zone) => !isFixedOffsetZone(zone) && offsetMinutes(zone, at) === minutes,
  );
  const steady = (zone: string) => (new Set(behaviour(zone, at)).size === 1 ? 0 : 1);
  candidates.sort((a, b) => steady(a) - steady(b) || rankOf(a) - rankOf(b) || a.localeCompare(b));
  return candidates[0] ?? null;
}

/** Whichever zone ids match the text: "europe/london", "America/New York", "US/Eastern". */
function zoneById(text: string, legacy: boolean): string | null {
  const wanted = text.trim().replace(/\s+/g, "_").toLowerCase();
  if (!legacy && !wanted.includes("/")) return null;
  for (const [id, zone] of data().canonical) {
    if (id.toLowerCase() === wanted && (legacy || id.includes("/"))) return id === zone ? zone : id;
  }
  return null;
}

function choicesFor(targets: readonly Target[], language: Language, at: Date): ZoneChoice[] {
  const result: ZoneChoice[] = [];
  const push = (c: ZoneChoice) => {
    if (!result.some((r) => r.zone === c.zone)) result.push(c);
  };
  for (const target of targets) {
    if (target.kind === "country") {
      for (const c of countryTimeZones(target.code, language, at)?.choices ?? []) push(c);
      continue;
    }
    const place =
      typeof target.name === "string"
        ? placeName(target.name, language)
        : ((language === "he" ? target.name.he : undefined) ?? target.name.en);
    push(choice(target.zone, place, language, at));
  }
  return result;
}

/** The zones one piece of text means exactly, or none; `partial` when it is part of longer text. */
function lookup(text: string, language: Language, at: Date, partial: boolean): ZoneChoice[] {
  const single = (id: string) => {
    const zone = data().canonical.get(id) ?? id;
    // "US/Eastern" names no place; show the zone's city instead.
    return [choice(zone, placeName(CONTINENTS.test(id) ? id : zone, language), language, at)];
  };
  const offset = parseOffset(text);
  if (offset !== null) {
    const zone = zoneForOffset(offset, at);
    return zone ? single(zone) : [];
  }
  const key = nameKey(text);
  if (!key) return [];
  // Inside longer text only capitalised abbreviations count ("EST", not "west").
  const abbreviation = ABBREVIATIONS[key];
  if (abbreviation && (!partial || /^[A-Z]{2,5}$/.test(text))) return single(abbreviation);
  const byId = zoneById(text, false);
  if (byId) return single(byId);
  const targets = names()
    .get(key)
    ?.filter((t) => t.partial || !partial);
  if (targets && targets.length > 0) return choicesFor(targets, language, at);
  const legacy = partial ? null : zoneById(text, true);
  return legacy ? single(legacy) : [];
}

/** The text without words around a place: "to London", "Israel time", "ללונדון", "שעון ישראל". */
function variants(text: string, whole: boolean): string[] {
  const out = [text];
  const add = (v: string) => {
    const trimmed = v.trim();
    if (trimmed && !out.includes(trimmed)) out.push(trimmed);
  };
  const english = text.replace(/^(?:(?:to|in|at|the|city\s+of)\s+)+/i, "");
  add(english);
  add(english.replace(/\s+(?:time(?:\s*zone)?|timezone|tz)$/i, ""));
  // Hebrew glues prepositions to the place: "ללונדון", "ל-UTC+2", "בברלין".
  const hebrew = text.replace(/^(?:ב?שעון|(?:ב|ל)?אזור\s+(?:ה)?זמן(?:\s+של)?)\s+/, "");
  add(hebrew);
  for (const v of [text, hebrew]) add(v.replace(/^[לב][-־–]?\s*(?=\S)/, ""));
  // A place whose own first letter was read as "to" ("שנה אזור זמן לונדון" → "ונדון").
  if (whole && /^[\u05D0-\u05EA]/.test(text) && !text.startsWith("ל")) add(`ל${text}`);
  return out;
}

/** Smaller pieces of longer text, longest first: "London, UK" → "London"…; "I live in Tel Aviv" → "Tel Aviv". */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(/\s*[,;]\s*/)) if (part && part !== text) out.push(part);
  const words = text.split(/\s+/).filter(Boolean);
  for (let length = Math.min(words.length - 1, 4); length >= 1; length--) {
    for (let start = 0; start + length <= words.length; start++) {
      out.push(words.slice(start, start + length).join(" "));
    }
  }
  return out;
}

/** Quotes, brackets and end punctuation around what the user typed. */
function cleanPlace(place: string): string {
  return place
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^["'“”‘’«»`([]+|["“”‘’«»`)\].!?,;:]+$/g, "")
    .trim();
}

/**
 * What a typed place or zone means, as candidate zones (empty when nothing matched): IANA ids in any
 * case, cities in zone ids ("sao paulo"), countries in English and Hebrew (one choice per distinct
 * zone, as in guessTimeZone), common Hebrew and English city names, US/Canadian/Australian states,
 * UTC/GMT offsets ("UTC+2" → Etc/GMT-2, "+5:30" → Asia/Kolkata) and abbreviations (IST is Israel).
 * Failing the whole text, well-known names inside it count ("London, UK", "I live in Haifa").
 */
export function resolveTimeZone(place: string, language: Language, at: Date): ZoneChoice[] {
  const text = cleanPlace(place);
  if (!text || text.length > 80) return [];
  for (const variant of variants(text, true)) {
    const found = lookup(variant, language, at, false);
    if (found.length > 0) return found;
  }
  for (const piece of pieces(text)) {
    for (const variant of variants(piece, false)) {
      if (nameKey(variant).length < 3) continue;
      const found = lookup(variant, language, at, true);
      if (found.length > 0) return found;
    }
  }
  return [];
}
