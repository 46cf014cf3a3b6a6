import type { OperationLedger } from "../../../db/repositories/operationLedger.js";
import { t } from "../../../messages/index.js";
import { createCalendarExecutor } from "./calendarExecutor.js";
import type { CapabilityModule } from "../../../types/capability.js";
import { calendarFindResolver } from "./calendarFindResolver.js";
import { calendarMutateResolver } from "./calendarMutateResolver.js";
import type { Logger } from "../../../utils/logger.js";
import type { DigestSource } from "../../../services/reminder/digest.js";
import { CalendarEntityResolver } from "./calendarEntityResolver.js";
import { digestLines } from "../../../services/calendar/replies.js";
import { calendarTemplate } from "./calendarReplies.js";
import { CalendarRequestError } from "../../../services/calendar/calendarRequestError.js";
import { type CalendarProviders } from "../../../types/calendar.js";
import type { UndoSettings } from "../../../services/undo/undoJournal.js";
import type { ContactDirectory } from "../../../types/contacts.js";

export interface CalendarCapabilityOptions {
  /** Each user's calendar: Google when connected, the built-in one otherwise. */
  providers: CalendarProviders;
  /** Outcomes of changes made, so a turn re-run after a crash repeats none (default: none). */
  ledger?: OperationLedger;
  logger?: Logger;
  /** Journals changes for "undo" (default: none). */
  undo?: UndoSettings;
  /** Addresses for the people named in an event: the user's own contacts (default: none, names stay names). */
  contacts?: ContactDirectory;
}

/** The `calendar` capability: events on the user's Google Calendar or on Memo's built-in calendar. */
export function createCalendarCapability({
  providers,
  logger,
  ledger,
  undo,
  contacts,
}: CalendarCapabilityOptions): CapabilityModule {
  return {
    capability: "calendar",
    // Find claims the read actions; Mutate takes every other calendar action.
    resolvers: [calendarFindResolver, calendarMutateResolver],
    executor: createCalendarExecutor(providers, logger, ledger, undo, contacts),
    entityResolver: new CalendarEntityResolver(providers, ledger, contacts),
    template: calendarTemplate,
    // Conflicts, series deletions, bulk deletions and invitations are confirmed by CalendarEntityResolver, naming them.
    confirmsInCode: true,
    // "undo" of a Google Calendar change: the provider patches the event back, or deletes the one
    // the change created (the built-in calendar's rows are restored by the journal itself).
    async undoExternal(phone, change) {
      const provider = await providers.forUser(phone);
      if (change.action === "remove") {
        try {
          await provider.deleteEvent(change.eventId, "instance");
        } catch (error) {
          // Already gone (deleted on Google meanwhile): what undo wanted.
          if (!(error instanceof CalendarRequestError && error.code === "not_found")) throw error;
        }
        return true;
      }
      return provider.undoRestore ? provider.undoRestore(change.eventId, change.before) : false;
    },
  };
}

/**
 * Today's events as a section of the morning digest (or the week's, each with its day, for the
 * weekly review), in the user's language and zone; null when there are none.
 */
export function calendarDigestSource(providers: CalendarProviders): DigestSource {
  return {
    name: "calendar",
    async sectionFor(user, day) {
      const provider = await providers.forUser(user.phone);
      const events = await provider.listEvents({
        from: new Date(day.startMs).toISOString(),
        to: new Date(day.endMs).toISOString(),
      });
      if (events.length === 0) return null;
      return {
        title: t(user.language, day.week ? "calendar.weekTitle" : "calendar.digestTitle"),
        lines: digestLines(events, user.timeZone, user.language, day.week),
      };
    },
  };
}
