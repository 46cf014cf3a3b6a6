import type pg from "pg";
import { PgCalendarEventRepository } from "../../src/db/repositories/calendarEventRepository.js";
import { Housekeeping } from "../../src/db/repositories/housekeeping.js";
import { reminderStorage, undoStorage } from "../../src/db/storage.js";
import { BuiltinCalendar } from "../../src/services/calendar/builtinCalendar.js";
import { createCalendarProviders } from "../../src/services/calendar/calendarProviderSelector.js";
import { ReminderService, type ReminderServiceDeps } from "../../src/services/reminder/reminderService.js";
import {
  SchedulerService,
  type SchedulerServiceDeps,
} from "../../src/services/scheduler/schedulerService.js";
import { UndoService } from "../../src/services/undo/undoJournal.js";
import type { CalendarProviders } from "../../src/types/calendar.js";
import { createLogger } from "../../src/utils/logger.js";

/*
 * The services the composition root (src/app) builds on the pool, built the same way for tests:
 * each gets its repositories or storage, never the pool.
 */

/** Every user on the built-in calendar (no Google), as createMemoRuntime picks calendars. */
export function builtinCalendars(pool: pg.Pool): CalendarProviders {
  return createCalendarProviders({
    events: new PgCalendarEventRepository(pool),
    google: null,
    logger: createLogger("silent"),
  });
}

/** One user's built-in calendar. */
export function builtinCalendarOf(pool: pg.Pool, phone: string): BuiltinCalendar {
  return new BuiltinCalendar(new PgCalendarEventRepository(pool), phone);
}

/** "undo" on the pool's journal, as createMemoRuntime builds it. */
export function undoServiceOn(
  pool: pg.Pool,
  options: Omit<ConstructorParameters<typeof UndoService>[0], "storage">,
): UndoService {
  return new UndoService({ storage: undoStorage(pool), ...options });
}

/** The reminder service and the scheduler that runs it, as the server builds them. */
export function schedulerServicesOn(
  pool: pg.Pool,
  reminderDeps: Omit<ReminderServiceDeps, "storage">,
  schedulerDeps: Omit<SchedulerServiceDeps, "housekeeping" | "schedule" | "reminders">,
): { reminders: ReminderService; scheduler: SchedulerService } {
  const storage = reminderStorage(pool);
  const reminders = new ReminderService({ storage, ...reminderDeps });
  const scheduler = new SchedulerService({
    housekeeping: new Housekeeping(pool),
    schedule: storage.repositories.schedule,
    reminders,
    ...schedulerDeps,
  });
  return { reminders, scheduler };
}
