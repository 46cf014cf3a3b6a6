import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as RestWindows from "../../src/nlu/restWindows.js";
import type { RestWindow } from "../../src/nlu/restWindows.js";
import type * as SabbathQuiet from "../../src/services/reminder/sabbathQuiet.js";
import type { SabbathUser } from "../../src/services/reminder/sabbathQuiet.js";

/**
 * Shabbat quiet's hold (isHeld) against the windows themselves, exhaustively: for Jerusalem, London
 * and New York over 2024–2027, every window found by one wide query holds every 15-minute point
 * from its candle lighting to its havdalah, and holds nothing 30 minutes either side, whatever day
 * of the week the window begins (isHeld caches by week). Run in the pinned zone and again with the
 * process in Los Angeles: neither may matter.
 */

const MIN = 60_000;
const FROM = Date.parse("2024-01-01T00:00:00Z");
const TO = Date.parse("2028-01-01T00:00:00Z");

const USERS: { zone: string; city: string; schedule: "israel" | "diaspora" }[] = [
  { zone: "Asia/Jerusalem", city: "Jerusalem", schedule: "israel" },
  { zone: "Europe/London", city: "London", schedule: "diaspora" },
  { zone: "America/New_York", city: "New York", schedule: "diaspora" },
];

describe.each(["UTC", "America/Los_Angeles"])("isHeld with the process in %s", (processZone) => {
  let restWindows: typeof RestWindows.restWindows;
  let isHeld: typeof SabbathQuiet.isHeld;
  const before = process.env.TZ;

  beforeAll(async () => {
    process.env.TZ = processZone;
    // Fresh modules: sabbathQuiet's cache of windows is computed in this zone.
    vi.resetModules();
    ({ restWindows } = await import("../../src/nlu/restWindows.js"));
    ({ isHeld } = await import("../../src/services/reminder/sabbathQuiet.js"));
  });
  afterAll(() => {
    process.env.TZ = before;
    vi.resetModules();
  });

  const userIn = (zone: string): SabbathUser => ({
    sabbathQuiet: true,
    sabbathCity: null,
    calendarSchedule: null,
    timeZone: zone,
  });

  it("holds the first night of Pesach 2026 in London (Wed 1 Apr 20:00 BST, candles 19:15)", () => {
    const window = isHeld(userIn("Europe/London"), Date.parse("2026-04-01T19:00:00Z"));
    expect(window?.names.en).toEqual(["Pesach", "Shabbat"]);
    expect(new Date(window!.start).toISOString()).toBe("2026-04-01T18:15:00.000Z");
  });

  it("holds erev Rosh Hashana 5785 in Jerusalem (Wed 2 Oct 2024 20:00)", () => {
    const window = isHeld(userIn("Asia/Jerusalem"), Date.parse("2024-10-02T17:00:00Z"));
    expect(window?.names.en).toEqual(["Rosh Hashana", "Shabbat"]);
  });

  it.each(USERS)("holds every window of $city over 2024–2027, and nothing beside them", (u) => {
    const windows: RestWindow[] = restWindows(FROM, TO, u.city, u.schedule);
    // Every Shabbat, at least: the wide query itself found them all.
    expect(windows.length).toBeGreaterThan(4 * 50);
    const user = userIn(u.zone);
    const misses: string[] = [];
    for (const w of windows) {
      for (let at = w.start; at < w.end; at += 15 * MIN)
        if (isHeld(user, at)?.start !== w.start) misses.push(`held? ${new Date(at).toISOString()}`);
      if (isHeld(user, w.end - 1)?.end !== w.end) misses.push(`held? ${new Date(w.end - 1).toISOString()}`);
      for (const at of [w.start - 30 * MIN, w.end + 30 * MIN])
        if (isHeld(user, at) !== null) misses.push(`free? ${new Date(at).toISOString()}`);
    }
    expect(misses).toEqual([]);
  });
});
