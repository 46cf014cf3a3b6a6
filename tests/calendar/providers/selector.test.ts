import { describe, expect, it } from "vitest";
import type { CalendarEventRepository } from "../../../src/db/repositories/calendarEventRepository.js";
import { createCalendarProviders } from "../../../src/services/calendar/calendarProviderSelector.js";
import { GoogleConnectionLostError, type GoogleAccounts } from "../../../src/services/google/types.js";
import { createLogger } from "../../../src/utils/logger.js";

/** Never read: the selector only hands it to the built-in calendar it returns. */
const events = {} as CalendarEventRepository;
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
    const providers = createCalendarProviders({ events, google: accounts("connected"), logger });
    expect((await providers.forUser("972501234567")).kind).toBe("google");
  });

  it("gives a user without Google, or an app without Google configured, the built-in calendar", async () => {
    expect(
      (await createCalendarProviders({ events, google: accounts("none"), logger }).forUser("972501234567"))
        .kind,
    ).toBe("builtin");
    expect(
      (await createCalendarProviders({ events, google: null, logger }).forUser("972501234567")).kind,
    ).toBe("builtin");
  });

  it("refuses with GoogleConnectionLostError when Google access was lost", async () => {
    const providers = createCalendarProviders({ events, google: accounts("lost"), logger });
    await expect(providers.forUser("972501234567")).rejects.toBeInstanceOf(GoogleConnectionLostError);
  });
});
