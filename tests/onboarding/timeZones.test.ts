import ct from "countries-and-timezones";
import { describe, expect, it } from "vitest";
import {
  countryOfPhone,
  guessTimeZone,
  resolveTimeZone,
  zoneLabel,
  type ZoneChoice,
} from "../../src/transport/onboarding/timeZones.js";

// Pinned instants: labels and groupings depend on daylight saving.
const WINTER = new Date("2026-01-15T12:00:00Z");
const SUMMER = new Date("2026-07-15T12:00:00Z");

const accepted = (zone: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** Minutes east of UTC in `zone` at `at`. */
function offsetOf(zone: string, at: Date): number {
  const name =
    new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === "-" ? -minutes : minutes;
}

/** What every list of choices must be: valid, canonical, distinct, short enough, east to west. */
function expectWellFormed(choices: ZoneChoice[]) {
  expect(choices.length).toBeLessThanOrEqual(10);
  expect(new Set(choices.map((c) => c.zone)).size).toBe(choices.length);
  for (const c of choices) {
    expect(accepted(c.zone), c.zone).toBe(true);
    expect(ct.getTimezone(c.zone)?.aliasOf ?? null, c.zone).toBeNull();
    expect(c.label.length, c.label).toBeLessThanOrEqual(24);
    expect((c.description ?? "").length, c.description).toBeLessThanOrEqual(72);
  }
}

function expectEastToWest(choices: ZoneChoice[], at: Date) {
  const offsets = choices.map((c) => offsetOf(c.zone, at));
  expect(offsets).toEqual([...offsets].sort((a, b) => b - a));
}

describe("countryOfPhone", () => {
  it("reads the country from E.164 digits, telling +1 and +7 countries apart", () => {
    expect(countryOfPhone("972501234567")).toBe("IL");
    expect(countryOfPhone("14155550123")).toBe("US");
    expect(countryOfPhone("14165550123")).toBe("CA");
    expect(countryOfPhone("79161234567")).toBe("RU");
    expect(countryOfPhone("77011234567")).toBe("KZ");
    expect(countryOfPhone("447400123456")).toBe("GB");
  });

  it("falls back to the calling code's main country, and to null without one", () => {
    expect(countryOfPhone("1999")).toBe("US");
    expect(countryOfPhone("999123456")).toBeNull();
    expect(countryOfPhone("")).toBeNull();
  });
});

describe("guessTimeZone", () => {
  it.each([
    ["972501234567", "IL", "Asia/Jerusalem"],
    ["447400123456", "GB", "Europe/London"],
    ["4915123456789", "DE", "Europe/Berlin"],
    ["919876543210", "IN", "Asia/Kolkata"],
    // Sweden keeps a zone named for another country's city.
    ["46701234567", "SE", "Europe/Berlin"],
  ])("gives %s one zone and asks nothing", (phone, country, zone) => {
    expect(guessTimeZone(phone, "Etc/UTC", "en", WINTER)).toEqual({ zone, country, choices: [] });
  });

  it.each([
    [
      "14155550123",
      "US",
      "America/New_York",
      ["America/Chicago", "America/Denver", "America/Phoenix", "Pacific/Honolulu"],
    ],
    ["14165550123", "CA", "America/Toronto", ["America/St_Johns", "America/Halifax", "America/Vancouver"]],
    [
      "61412345678",
      "AU",
      "Australia/Sydney",
      ["Australia/Perth", "Australia/Adelaide", "Australia/Brisbane"],
    ],
    ["5511987654321", "BR", "America/Sao_Paulo", ["America/Manaus", "America/Noronha"]],
    ["79161234567", "RU", "Europe/Moscow", ["Europe/Kaliningrad", "Asia/Novosibirsk", "Asia/Vladivostok"]],
  ])(
    "guesses the main zone of %s (%s) and offers one choice per distinct zone",
    (phone, country, zone, some) => {
      for (const at of [WINTER, SUMMER]) {
        const guess = guessTimeZone(phone, "Etc/UTC", "en", at);
        expect(guess.zone).toBe(zone);
        expect(guess.country).toBe(country);
        expect(guess.choices.length).toBeGreaterThan(1);
        expect(guess.choices.map((c) => c.zone)).toContain(zone);
        expect(guess.choices.map((c) => c.zone)).toEqual(expect.arrayContaining(some));
        expectWellFormed(guess.choices);
        expectEastToWest(guess.choices, at);
      }
    },
  );

  it("keeps the ten most populous of Russia's eleven zones, dropping Kamchatka's +12", () => {
    const zones = guessTimeZone("79161234567", "Etc/UTC", "en", WINTER).choices.map((c) => c.zone);
    expect(zones).toHaveLength(10);
    expect(zones).not.toContain("Asia/Kamchatka");
    expect(zones[0]).toBe("Asia/Sakhalin");
    expect(zones.at(-1)).toBe("Europe/Kaliningrad");
  });

  it("offers only zones that differ: Phoenix apart from Denver, Indiana folded into New York", () => {
    const zones = guessTimeZone("14155550123", "Etc/UTC", "en", WINTER).choices.map((c) => c.zone);
    expect(zones).toEqual(expect.arrayContaining(["America/Phoenix", "America/Denver"]));
    expect(zones.some((z) => z.startsWith("America/Indiana/"))).toBe(false);
    // Zones another country owns (Asia/Tokyo is listed for Australia too) are not offered.
    const australia = guessTimeZone("61412345678", "Etc/UTC", "en", WINTER).choices.map((c) => c.zone);
    expect(australia).not.toContain("Asia/Tokyo");
  });

  it("labels choices in the user's language, with the offset of the moment", () => {
    const winter = guessTimeZone("14155550123", "Etc/UTC", "he", WINTER).choices;
    expect(winter[0]).toMatchObject({ zone: "America/New_York", label: "ניו יורק (UTC−5)" });
    expect(winter[0]?.description).toMatch(/[\u0590-\u05FF]/);
    const summer = guessTimeZone("14155550123", "Etc/UTC", "en", SUMMER).choices;
    expect(summer[0]).toMatchObject({
      zone: "America/New_York",
      label: "New York (UTC−4)",
      description: "Eastern Time",
    });
  });

  it("uses the fallback for a number of no known country", () => {
    expect(guessTimeZone("999123456", "Europe/London", "en", WINTER)).toEqual({
      zone: "Europe/London",
      country: null,
      choices: [],
    });
  });
});

describe("resolveTimeZone", () => {
  const first = (place: string, language: "he" | "en" = "en", at = WINTER) =>
    resolveTimeZone(place, language, at)[0];

  it.each([
    // IANA ids, any case; aliases come back canonical.
    ["europe/london", "Europe/London"],
    ["Europe/Paris", "Europe/Paris"],
    ["America/New York", "America/New_York"],
    ["asia/calcutta", "Asia/Kolkata"],
    ["US/Eastern", "America/New_York"],
    // Cities in zone ids, accents optional.
    ["new york", "America/New_York"],
    ["sao paulo", "America/Sao_Paulo"],
    ["São Paulo", "America/Sao_Paulo"],
    ["Kiev", "Europe/Kyiv"],
    ["Novosibirsk", "Asia/Novosibirsk"],
    // Cities that are not in a zone id.
    ["tel aviv", "Asia/Jerusalem"],
    ["Miami", "America/New_York"],
    ["Munich", "Europe/Berlin"],
    ["California", "America/Los_Angeles"],
    // Countries with one zone.
    ["Israel", "Asia/Jerusalem"],
    ["the UK", "Europe/London"],
    ["England", "Europe/London"],
    ["Germany", "Europe/Berlin"],
    ["Japan", "Asia/Tokyo"],
    ["India", "Asia/Kolkata"],
    ["Türkiye", "Europe/Istanbul"],
    ["Turkey", "Europe/Istanbul"],
    // Offsets: whole hours are Etc/GMT with the sign inverted; half hours a real zone.
    ["UTC+2", "Etc/GMT-2"],
    ["GMT-5", "Etc/GMT+5"],
    ["utc+5:30", "Asia/Kolkata"],
    ["+3", "Etc/GMT-3"],
    ["UTC−3", "Etc/GMT+3"],
    ["+5:45", "Asia/Kathmandu"],
    ["-3:30", "America/St_Johns"],
    ["UTC+0", "Etc/UTC"],
    // Abbreviations; IST is Israel for Memo's users.
    ["EST", "America/New_York"],
    ["PST", "America/Los_Angeles"],
    ["CST", "America/Chicago"],
    ["MST", "America/Denver"],
    ["EDT", "America/New_York"],
    ["IST", "Asia/Jerusalem"],
    ["GMT", "Etc/GMT"],
    ["UTC", "Etc/UTC"],
    ["BST", "Europe/London"],
    ["CET", "Europe/Berlin"],
    ["Eastern time", "America/New_York"],
    // Words and punctuation around the place.
    ['"London"', "Europe/London"],
    ["London!", "Europe/London"],
    ["London, UK", "Europe/London"],
    ["to Paris", "Europe/Paris"],
    ["I live in Haifa", "Asia/Jerusalem"],
  ])("reads %j as %s", (place, zone) => {
    expect(first(place)?.zone).toBe(zone);
  });

  it.each([
    ["ישראל", "Asia/Jerusalem", "ירושלים (UTC+2)"],
    ["גרמניה", "Europe/Berlin", "ברלין (UTC+1)"],
    ["בריטניה", "Europe/London", "לונדון (UTC+0)"],
    ["אנגליה", "Europe/London", "לונדון (UTC+0)"],
    ["הודו", "Asia/Kolkata", "קולקטה (UTC+5:30)"],
    ["ירושלים", "Asia/Jerusalem", "ירושלים (UTC+2)"],
    ["תל אביב", "Asia/Jerusalem", "תל אביב (UTC+2)"],
    ["חיפה", "Asia/Jerusalem", "חיפה (UTC+2)"],
    ["אילת", "Asia/Jerusalem", "אילת (UTC+2)"],
    ["ניו יורק", "America/New_York", "ניו יורק (UTC−5)"],
    ["לוס אנג'לס", "America/Los_Angeles", "לוס אנג'לס (UTC−8)"],
    ["לוס אנג׳לס", "America/Los_Angeles", "לוס אנג'לס (UTC−8)"],
    ["שיקגו", "America/Chicago", "שיקגו (UTC−6)"],
    ["לונדון", "Europe/London", "לונדון (UTC+0)"],
    ["פריז", "Europe/Paris", "פריז (UTC+1)"],
    ["ברלין", "Europe/Berlin", "ברלין (UTC+1)"],
    ["מוסקבה", "Europe/Moscow", "מוסקבה (UTC+3)"],
    ["דובאי", "Asia/Dubai", "דובאי (UTC+4)"],
    ["בנגקוק", "Asia/Bangkok", "בנגקוק (UTC+7)"],
    ["טוקיו", "Asia/Tokyo", "טוקיו (UTC+9)"],
    ["סידני", "Australia/Sydney", "סידני (UTC+11)"],
    ["טורונטו", "America/Toronto", "טורונטו (UTC−5)"],
    ["מיאמי", "America/New_York", "מיאמי (UTC−5)"],
    ["אמסטרדם", "Europe/Brussels", "אמסטרדם (UTC+1)"],
    ["רומא", "Europe/Rome", "רומא (UTC+1)"],
    ["מדריד", "Europe/Madrid", "מדריד (UTC+1)"],
    ["אתונה", "Europe/Athens", "אתונה (UTC+2)"],
    ["קייב", "Europe/Kyiv", "קייב (UTC+2)"],
    // The Hebrew "to"/"in" glued to the place, and "שעון" before it.
    ["ללונדון", "Europe/London", "לונדון (UTC+0)"],
    ["לניו יורק", "America/New_York", "ניו יורק (UTC−5)"],
    ["לישראל", "Asia/Jerusalem", "ירושלים (UTC+2)"],
    ["ל-UTC+2", "Etc/GMT-2", "UTC+2"],
    ["בברלין", "Europe/Berlin", "ברלין (UTC+1)"],
    ["שעון ישראל", "Asia/Jerusalem", "ירושלים (UTC+2)"],
    ["אני גרה בתל אביב", "Asia/Jerusalem", "תל אביב (UTC+2)"],
  ])("reads the Hebrew %j as %s, labelled %j", (place, zone, label) => {
    expect(first(place, "he")).toMatchObject({ zone, label });
  });

  it("offers one choice per distinct zone of a country with several, in English and Hebrew", () => {
    for (const [place, language] of [
      ["USA", "en"],
      ["United States", "en"],
      ["ארצות הברית", "he"],
      ['ארה"ב', "he"],
      ["ארה״ב", "he"],
    ] as const) {
      const choices = resolveTimeZone(place, language, WINTER);
      expect(choices.map((c) => c.zone)).toEqual(
        expect.arrayContaining(["America/New_York", "America/Los_Angeles", "Pacific/Honolulu"]),
      );
      expectWellFormed(choices);
      expectEastToWest(choices, WINTER);
    }
    expect(resolveTimeZone("רוסיה", "he", WINTER)).toHaveLength(10);
    expect(resolveTimeZone("Brazil", "en", SUMMER).map((c) => c.zone)).toContain("America/Sao_Paulo");
  });

  it("names a country's zone by that country's city even when the zone is named for another's", () => {
    expect(first("Netherlands")).toMatchObject({ zone: "Europe/Brussels", label: "Amsterdam (UTC+1)" });
    expect(first("הולנד", "he")).toMatchObject({ zone: "Europe/Brussels", label: "אמסטרדם (UTC+1)" });
  });

  it("returns a valid, canonical zone for every country name Intl knows, in both languages", () => {
    const regions = Object.keys(ct.getAllCountries());
    for (const language of ["en", "he"] as const) {
      const names = new Intl.DisplayNames([language], { type: "region" });
      for (const code of regions) {
        const name = names.of(code);
        if (!name || name === code) continue;
        const choices = resolveTimeZone(name, language, SUMMER);
        expectWellFormed(choices);
      }
    }
    expect(resolveTimeZone("France", "en", SUMMER).length).toBeGreaterThan(0);
  });

  it("finds nothing for words that are not places", () => {
    for (const place of ["", "  ", "blah blah", "wrong", "+15", "UTC+5:70", "?"]) {
      expect(resolveTimeZone(place, "en", WINTER), place).toEqual([]);
    }
  });
});

describe("zoneLabel", () => {
  it("names the city and the offset of the moment, with a real minus sign", () => {
    expect(zoneLabel("Asia/Jerusalem", "he", WINTER)).toBe("ירושלים (UTC+2)");
    expect(zoneLabel("Asia/Jerusalem", "he", SUMMER)).toBe("ירושלים (UTC+3)");
    expect(zoneLabel("Asia/Jerusalem", "en", SUMMER)).toBe("Jerusalem (UTC+3)");
    expect(zoneLabel("America/New_York", "en", WINTER)).toBe("New York (UTC\u22125)");
    expect(zoneLabel("America/Argentina/Buenos_Aires", "en", WINTER)).toBe("Buenos Aires (UTC−3)");
    expect(zoneLabel("Asia/Kolkata", "en", WINTER)).toBe("Kolkata (UTC+5:30)");
    expect(zoneLabel("America/St_Johns", "en", WINTER)).toBe("St. John's (UTC−3:30)");
    expect(zoneLabel("Europe/London", "en", WINTER)).toBe("London (UTC+0)");
  });

  it("shows fixed offsets as offsets", () => {
    expect(zoneLabel("Etc/GMT-2", "en", WINTER)).toBe("UTC+2");
    expect(zoneLabel("Etc/GMT+5", "he", WINTER)).toBe("UTC−5");
    expect(zoneLabel("Etc/UTC", "en", WINTER)).toBe("UTC");
  });

  it("uses ICU's Hebrew place names for cities outside its own table, and stays within 24 characters", () => {
    expect(zoneLabel("Asia/Novokuznetsk", "he", WINTER)).toMatch(/^[\u0590-\u05FF].* \(UTC\+7\)$/);
    for (const zone of Intl.supportedValuesOf("timeZone")) {
      for (const language of ["he", "en"] as const) {
        expect(zoneLabel(zone, language, WINTER).length, zone).toBeLessThanOrEqual(24);
      }
    }
  });
});
