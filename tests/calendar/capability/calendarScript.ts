import { PgOperationLedger } from "../../../src/db/repositories/operationLedger.js";
import type { CalendarFindOperation } from "../../../src/prompts/calendarFindPrompt.js";
import type { CalendarMutateOperation } from "../../../src/prompts/calendarMutatePrompt.js";
import { createCalendarCapability } from "../../../src/graph/capabilities/calendar/calendarCapability.js";
import type { CalendarProviders, EventInput } from "../../../src/types/calendar.js";
import type { ContactDirectory } from "../../../src/types/contacts.js";
import type { GoogleAccounts } from "../../../src/services/google/types.js";
import { PgContactRepository } from "../../../src/db/repositories/contactRepository.js";
import { ContactDirectoryService } from "../../../src/services/contacts/contactDirectory.js";
import { pgliteBackend } from "../../support/db.js";
import { builtinCalendars } from "../../support/services.js";
import {
  createHarness,
  PHONE,
  plan,
  step,
  type Harness,
  type HarnessOptions,
} from "../../support/memoHarness.js";
import { systemPromptOf, type RecordedRequest } from "../../support/scriptedOpenAI.js";

export const ZONE = "Asia/Jerusalem";

/** Whether a recorded request was CalendarFindResolver's, or CalendarMutateResolver's. */
export const isFindResolver = (req: RecordedRequest) =>
  (systemPromptOf(req) ?? "").includes("into a calendar lookup");
export const isMutateResolver = (req: RecordedRequest) =>
  (systemPromptOf(req) ?? "").includes("into a calendar change");

export type CalendarHarness = Harness & { providers: CalendarProviders };

/**
 * Memo with the calendar capability on the built-in calendar (no Google), or on `providers` when
 * given (a fake that loses Google access). The test user exists, in Asia/Jerusalem (or `timeZone`).
 */
export async function calendarHarness(
  options: HarnessOptions & {
    providers?: CalendarProviders;
    timeZone?: string;
    /** Google contacts searched for names (default: none; the addresses users typed still are). */
    googleContacts?: GoogleAccounts;
  } = {},
): Promise<CalendarHarness> {
  const db = options.db ?? (await pgliteBackend.create());
  const providers = options.providers ?? builtinCalendars(db.pool);
  const contacts: ContactDirectory = new ContactDirectoryService({
    contacts: new PgContactRepository(db.pool),
    google: options.googleContacts ?? null,
  });
  const h = await createHarness({
    ...options,
    db,
    capabilities: (registry) => {
      registry.replace(
        createCalendarCapability({ providers, ledger: new PgOperationLedger(db.pool), contacts }),
      );
      options.capabilities?.(registry);
    },
  });
  await h.users.getOrCreate(PHONE, { timeZone: options.timeZone ?? ZONE });
  return Object.assign(h, { providers });
}

/** Scripts one calendar turn: the planner picks `action` on the calendar, then the resolver answers `op`. */
export function scriptTurn(
  h: Harness,
  action: string,
  op: Partial<CalendarMutateOperation> | Partial<CalendarFindOperation>,
  planExtra: Parameters<typeof plan>[0] = {},
): void {
  h.server!.enqueue(plan({ steps: [step("s1", "calendar", action)], ...planExtra }), { json: op });
}

/** Puts an event in the test user's calendar (already-known state for a conversation). */
export async function seed(
  h: CalendarHarness,
  key: string,
  input: Partial<EventInput> & { summary: string },
) {
  const calendar = await h.providers.forUser(PHONE);
  return calendar.createEvent({ allDay: false, timeZone: ZONE, start: "", end: "", ...input }, `seed:${key}`);
}

/** The user's stored calendar rows, as the table keeps them. */
export async function storedEvents(h: Harness) {
  const { rows } = await h.db.pool.query<{
    summary: string;
    all_day: boolean;
    start_at: Date | null;
    end_at: Date | null;
    start_date: string | null;
    end_date: string | null;
    time_zone: string;
    recurrence: unknown;
    reminder_minutes_before: number | null;
    location: string | null;
  }>(
    `SELECT summary, all_day, start_at, end_at, start_date::text, end_date::text, time_zone, recurrence,
            reminder_minutes_before, location
       FROM calendar_events WHERE user_phone = $1 ORDER BY created_at, summary`,
    [PHONE],
  );
  return rows.map((r) => ({
    summary: r.summary,
    allDay: r.all_day,
    start: r.all_day ? r.start_date : r.start_at?.toISOString(),
    end: r.all_day ? r.end_date : r.end_at?.toISOString(),
    timeZone: r.time_zone,
    recurrence: r.recurrence,
    reminderMinutesBefore: r.reminder_minutes_before,
    location: r.location,
  }));
}

/** Local Jerusalem wall time on a March 2026 day (UTC+2 until the 27th) as an ISO instant. */
export const jlm = (day: number, clock: string) => {
  const [h, m] = clock.split(":").map(Number);
  return new Date(Date.UTC(2026, 2, day, h! - 2, m)).toISOString();
};
