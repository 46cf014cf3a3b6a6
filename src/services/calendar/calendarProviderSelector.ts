import type { CalendarEventRepository } from "../../db/repositories/calendarEventRepository.js";
import { GoogleConnectionLostError, type GoogleAccounts } from "../google/types.js";
import type { Logger } from "../../utils/logger.js";
import { BuiltinCalendar } from "./builtinCalendar.js";
import { GoogleCalendar } from "./googleCalendar.js";
import type { CalendarProviders } from "../../types/calendar.js";

/** What picking a user's calendar needs. */
export interface CalendarProvidersDeps {
  /** Where the built-in calendar keeps its events. */
  events: CalendarEventRepository;
  /** Google access; null when Google is not configured (everyone gets the built-in calendar). */
  google: GoogleAccounts | null;
  logger: Logger;
}

/**
 * Each user's calendar: Google Calendar once they connected Google, the built-in calendar while
 * they have not; a connection Google has since refused throws GoogleConnectionLostError (the user
 * is told how to reconnect rather than silently given an empty built-in calendar).
 */
export function createCalendarProviders(deps: CalendarProvidersDeps): CalendarProviders {
  return {
    async forUser(phone) {
      const status = deps.google ? await deps.google.status(phone) : "none";
      if (status === "connected" && deps.google) {
        return new GoogleCalendar({ google: deps.google, phone, logger: deps.logger });
      }
      if (status === "lost") throw new GoogleConnectionLostError(phone);
      return new BuiltinCalendar(deps.events, phone);
    },
  };
}
