import { describe, expect, it } from "vitest";
import { cityOfZone, restCity, restWindows } from "../../src/nlu/restWindows.js";

/** Rest windows from hebcal: candle lighting to havdalah, yom tov by schedule, adjacent days merged. */

const iso = (ms: number) => new Date(ms).toISOString();
const windowsOf = (from: string, to: string, city: string, schedule: "israel" | "diaspora") =>
  restWindows(Date.parse(from), Date.parse(to), city, schedule).map((w) => ({
    start: iso(w.start),
    end: iso(w.end),
    names: w.names.en,
  }));

describe("restWindows", () => {
  it("merges Rosh Hashana 5787 with the Shabbat after it (Israel)", () => {
    expect(windowsOf("2026-09-10T00:00:00Z", "2026-09-15T00:00:00Z", "Jerusalem", "israel")).toEqual([
      {
        start: "2026-09-11T15:10:00.000Z",
        end: "2026-09-13T16:24:00.000Z",
        names: ["Rosh Hashana", "Shabbat"],
      },
    ]);
  });

  it("finds a window already under way (from inside it)", () => {
    expect(windowsOf("2026-11-28T12:00:00Z", "2026-11-28T13:00:00Z", "Jerusalem", "israel")).toEqual([
      { start: "2026-11-27T13:55:00.000Z", end: "2026-11-28T15:14:00.000Z", names: ["Shabbat"] },
    ]);
  });

  it("keeps the 8th day of Pesach only abroad", () => {
    const thursday = ["2027-04-29T12:00:00Z", "2027-04-29T18:00:00Z"] as const;
    expect(windowsOf(...thursday, "New York", "diaspora")).toHaveLength(1);
    expect(windowsOf(...thursday, "Jerusalem", "israel")).toEqual([]);
  });

  it("an unknown city has none", () => {
    expect(windowsOf("2026-11-27T00:00:00Z", "2026-11-29T00:00:00Z", "Springfield", "diaspora")).toEqual([]);
  });
});

describe("cities", () => {
  it.each([
    ["Asia/Jerusalem", "Jerusalem"],
    ["America/New_York", "New York"],
    ["Europe/London", "London"],
    ["America/Los_Angeles", "Los Angeles"],
    ["America/Argentina/Buenos_Aires", "Buenos Aires"],
    ["Asia/Tokyo", null],
    ["UTC", null],
  ])("the city of %s is %s", (zone, city) => {
    expect(cityOfZone(zone)).toBe(city);
  });

  it.each([
    ["haifa", "Haifa"],
    ["חיפה", "Haifa"],
    ["תל אביב", "Tel Aviv"],
    ["new york", "New York"],
    ["Springfield", null],
  ])("%s is read as %s", (said, city) => {
    expect(restCity(said)).toBe(city);
  });
});
