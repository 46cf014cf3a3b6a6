import type pg from "pg";
import { describe, expect, it } from "vitest";
import { createCalendarProviders } from "../../../src/services/calendar/calendarProviderSelector.js";
import { GoogleConnectionLostError, type GoogleAccounts } from "../../../src/services/google/types.js";
import { createLogger } from "../../../src/utils/logger.js";

const pool = {} as pg.Pool;
const logger = createLogger("silent");

function accounts(status: "connected" | "lost" | "none"): GoogleAccounts {
  return {
    configured: true,
    apiRootUrl: "http://127.0.0.1:9/",
    status: () => Promise.resolve(status),
    clientFor: () => Promise.resolve(null),
    markLost: () => Promise.resolve(false),
  };
}

describe("createCalendarProviders", () => {
  it("gives a connected user Google Calendar", async () => {
    const providers = createCalendarProviders({ pool, google: accounts("connected"), logger });
    expect((await providers.forUser("972501234567")).kind).toBe("google");
  });

  it("gives a user without Google, or an app without Google configured, the built-in calendar", async () => {
    expect(
      (await createCalendarProviders({ pool, google: accounts("none"), logger }).forUser("972501234567"))
        .kind,
    ).toBe("builtin");
    expect((await createCalendarProviders({ pool, google: null, logger }).forUser("972501234567")).kind).toBe(
      "builtin",
    );
  });

  it("refuses with GoogleConnectionLostError when Google access was lost", async () => {
    const providers = createCalendarProviders({ pool, google: accounts("lost"), logger });
    await expect(providers.forUser("972501234567")).rejects.toBeInstanceOf(GoogleConnectionLostError);
  });
});
