import { dayIndex } from "../../../nlu/timeWords.js";
import { addDays, dayOfWeek, type LocalDate, formatDate } from "../../../nlu/zonedTime.js";
import { t } from "../../../messages/index.js";
import { localDateOf, parseDate, startOfDay } from "../../../services/calendar/recurrenceExpansion.js";
import { eventView } from "../../../services/calendar/replies.js";
import { analyzeSchedule } from "../../../services/calendar/scheduleAnalysis.js";
import { CalendarRequestError } from "../../../services/calendar/calendarRequestError.js";
import {
  type CalendarEvent,
  type CalendarProvider,
  type Attendee,
  type CalendarProviders,
  type EventScope,
  type TimeRange,
} from "../../../types/calendar.js";
import { GoogleConnectionLostError } from "../../../services/google/types.js";
import { userTextOf } from "../../errorText.js";
import { DEFAULT_THRESHOLD, rankMatches } from "../../../utils/fuzzy.js";
import { nonEmpty } from "../../../utils/args.js";
import type { OperationLedger } from "../../../db/repositories/operationLedger.js";
import type { Logger } from "../../../utils/logger.js";
import { describeError, MemoError } from "../../../utils/errors.js";
import { parseEventId } from "../../../services/calendar/builtinCalendar.js";
import {
  describeChanged,
  recordIrreversible,
  UndoCapture,
  type UndoDescription,
  type UndoSettings,
} from "../../../services/undo/undoJournal.js";
import { type ExternalUndo } from "../../../types/capability.js";
import type { CapabilityContext, Executor, ExecutorOutcome } from "../../../types/capability.js";
import { assertNever, type OutcomeOf } from "../../../contracts/contract.js";
import {
  calendarContract,
  type CalendarArgs,
  type CalendarData,
  type CalendarOperation,
  type EventView,
  type Frame,
} from "../../../contracts/calendar.js";
import { typedExecutor } from "../typedExecutor.js";
import type { ContactDirectory } from "../../../types/contacts.js";

type RunContext = CapabilityContext & { operationId: string; frame: Frame };

const str = nonEmpty;
const strings = (v: readonly string[] | null | undefined) =>
  (v ?? []).map(str).filter((s): s is string => !!s);

/** Operations that change nothing: not recorded in the ledger, not re-read on a re-run. */
const READS = new Set<string>(
  Object.entries(calendarContract.operations)
    .filter(([, spec]) => "reads" in spec && spec.reads)
    .map(([functionName]) => functionName),
);

/** A request the executor cannot run as given (a programming slip upstream, or args from an old turn). */
class MalformedArgs extends MemoError {}

function eventAction(action: string, events: EventView[]): ExecutorOutcome["latestAction"] {
  const first = events[0]!;
  return {
    action,
    summary:
      events.length === 1
        ? `event "${first.summary}"`
        : `${events.length} events: ${events.map((e) => `"${e.summary}"`).join(", ")}`,
    ...(!first.allDay ? { when: first.start } : {}),
    externalIds: events.map((e) => e.id),
  };
}

const success = <D extends CalendarData>(
  data: D,
  latestAction?: ExecutorOutcome["latestAction"],
): OutcomeOf<D> => ({
  success: true,
  data,
  ...(latestAction ? { latestAction } : {}),
});

/**
 * calendar: runs the entity-resolved operation on the user's calendar, `providers.forUser(phone)`
 * (Google when connected, the built-in one otherwise). No LLM here (spec 002 §12.3). Creates pass
 * the operation id, so a re-run turn creates nothing twice; a re-run delete that finds the event
 * already gone reports it deleted. Google access lost → the reconnect message, in the user's language.
 */
export function createCalendarExecutor(
  providers: CalendarProviders,
  logger?: Logger,
  /** Outcomes of changes already made, so a re-run turn reports them instead of acting again (default: none). */
  ledger?: OperationLedger,
  /** Journals changes for "undo" (default: none). */
  undo?: UndoSettings,
  /** Keeps the addresses the user typed, once the event is made (default: none). */
  contacts?: ContactDirectory,
): Executor {
  return typedExecutor(calendarContract, {
    name: "CalendarExecutor",
    async execute(op, context) {
      const zone = context.state.user.timezone;
      const run: RunContext = {
        ...context,
        frame: { zone, today: formatDate(localDateOf(context.now, zone)) },
      };
      const operation = op.functionName.slice("calendar.".length);
      const reads = READS.has(op.functionName);
      const recorded = reads ? undefined : await ledger?.get(context.phone, context.operationId);
      // A re-run of a turn whose change already happened: the same reply, nothing done twice.
      if (recorded !== undefined) return recorded as ExecutorOutcome;
      try {
        const provider = await providers.forUser(context.phone);
        const journal = undo && !reads ? await beforeChange(provider, op, run, undo, logger) : null;
        let outcome: OutcomeOf<CalendarData> = await dispatch(op, provider, run);
        if (outcome.success && !reads) {
          await rememberTyped(contacts, op, context.phone, logger);
          const description = undoDescription(outcome.data, op);
          const turnId = context.state.traceId;
          // Journaled only when something changed (finish records nothing otherwise): a call that
          // changed nothing must not take the place of the user's last real change.
          if (journal && !journal.incomplete && undo && description)
            await journal.capture.finish({
              operationId: context.operationId,
              turnId,
              description,
              now: context.now,
              windowMs: undo.windowMs,
              external: [
                ...journal.external.map((e) => ({
                  ...e,
                  action: operation.startsWith("delete") ? ("restore" as const) : ("revert" as const),
                })),
                // Events it created on Google: undo deletes them (the built-in ones are rows in the journal).
                ...(journal.builtin ? [] : createdOnProvider(outcome.data)),
              ],
            });
          // A change that succeeded but left nothing to put back (no snapshot, a copy that failed):
          // "undo" says it cannot, rather than reaching past it to an older change.
          else if (undo) {
            await recordIrreversible(undo, context.phone, {
              operationId: context.operationId,
              turnId,
              reason: "untracked",
              now: context.now,
            });
            // Its reply then offers no "undo" that would not work.
            const data = outcome.data;
            if (data?.kind === "deleted") outcome = { ...outcome, data: { ...data, untracked: true } };
          }
          await ledger?.record(context.phone, context.operationId, outcome);
        }
        return outcome;
      } catch (error) {
        if (error instanceof GoogleConnectionLostError) {
          return {
            success: false,
            errorCode: "GOOGLE_CONNECTION_LOST",
            error: userTextOf(error, context.language, { capability: "calendar" }),
          };
        }
        if (error instanceof CalendarRequestError) {
          // The message names no event (an unanswered request carries only Google's status).
          if (error.code === "unavailable") {
            logger?.warn(
              { event: "CALENDAR_UNAVAILABLE", code: error.code, operation, err: error.message },
              "the calendar did not answer",
            );
          } else {
            logger?.info({ code: error.code, operation, err: error.message }, "calendar request refused");
          }
          return {
            success: false,
            errorCode: error.code.toUpperCase(),
            error: userTextOf(error, context.language),
          };
        }
        throw error;
      }
    },
  });
}

/**
 * Keeps the addresses the user typed for a change that was made: after the user's "yes", never
 * before. Keeping them is a convenience: a failure is logged and the event stands.
 */
async function rememberTyped(
  contacts: ContactDirectory | undefined,
  op: CalendarOperation,
  phone: string,
  logger: Logger | undefined,
): Promise<void> {
  const typed = "typed" in op.args ? (op.args.typed ?? []) : [];
  for (const { email, name } of contacts ? typed : []) {
    try {
      await contacts!.remember(phone, email, name);
    } catch (error) {
      logger?.warn(
        { event: "CONTACT_NOT_KEPT", err: describeError(error) },
        "could not keep an address the user typed",
      );
    }
  }
}

/** The events an operation names: the one it changes, the ones it deletes, the series it ends. */
function eventIdsOf(op: CalendarOperation): { id: string; scope: EventScope }[] {
  switch (op.functionName) {
    case "calendar.update": {
      const id = str(op.args.eventId);
      return id ? [{ id, scope: op.args.scope === "series" ? "series" : "instance" }] : [];
    }
    case "calendar.delete":
    case "calendar.deleteBySummary":
      return op.args.targets ?? [];
    case "calendar.truncateRecurring": {
      const id = str(op.args.seriesId);
      return id ? [{ id, scope: "series" }] : [];
    }
    default:
      return [];
  }
}

/**
 * Before a change, what undo needs: the built-in calendar's rows (copied again after the change),
 * or the provider's own record of each event it touches (Google: put back through its API).
 */
async function beforeChange(
  provider: CalendarProvider,
  op: CalendarOperation,
  context: RunContext,
  undo: UndoSettings,
  logger: Logger | undefined,
): Promise<{
  capture: UndoCapture;
  external: Omit<ExternalUndo, "action">[];
  builtin: boolean;
  /** Some event's earlier state could not be copied: the change goes ahead, journaled as not undoable. */
  incomplete: boolean;
}> {
  const targets = eventIdsOf(op);
  const builtin = provider.kind === "builtin";
  const capture = new UndoCapture(
    undo.journal,
    context.phone,
    builtin
      ? [
          { table: "calendar_events", column: "id", values: targets.map((t) => parseEventId(t.id).baseId) },
          { table: "calendar_events", column: "created_by_operation", values: [context.operationId] },
        ]
      : [],
  );
  const external: Omit<ExternalUndo, "action">[] = [];
  let incomplete = false;
  // A failed copy never stops the change the user asked for; it only makes it not undoable.
  try {
    await capture.before();
    for (const target of builtin ? [] : targets) {
      const snapshot = provider.undoSnapshot ? await provider.undoSnapshot(target.id, target.scope) : null;
      if (snapshot) external.push({ provider: "google-calendar", ...snapshot });
      else incomplete = true;
    }
  } catch (error) {
    logger?.warn(
      { event: "UNDO_SNAPSHOT_FAILED", err: describeError(error) },
      "could not copy the event before changing it; the change will not be undoable",
    );
    incomplete = true;
  }
  return { capture, external, builtin, incomplete };
}

/** Undo of events a provider outside the database created: each is deleted again. */
function createdOnProvider(data: CalendarData | undefined): ExternalUndo[] {
  if (data?.kind !== "created") return [];
  return data.events.map((event) => ({
    provider: "google-calendar",
    action: "remove",
    eventId: event.id,
    before: {},
    summary: event.summary,
  }));
}

/** What an undo of a calendar change names. */
function undoDescription(data: CalendarData | undefined, op: CalendarOperation): UndoDescription | null {
  const named = (events: { summary: string }[]) => describeChanged("event", events, (event) => event.summary);
  switch (data?.kind) {
    case "created":
      return named(data.events);
    case "updated":
    case "truncated":
      return named([data.event]);
    case "deleted": {
      const events = data.events.length > 0 ? data.events : eventIdsOf(op).map(() => ({ summary: "" }));
      return named(events);
    }
    default:
      return null;
  }
}

/** The names among the events' attendees that came without an address (Google cannot invite them). */
function nameOnly(inputs: { attendees?: Attendee[] }[]): string[] {
  const names = inputs.flatMap((i) => i.attendees ?? []).filter((a) => a.email === null && a.name);
  return [...new Set(names.map((a) => a.name!))];
}

/** Runs one operation of the contract: a new operation fails `tsc` here until it is handled. */
async function dispatch(
  op: CalendarOperation,
  provider: CalendarProvider,
  context: RunContext,
): Promise<OutcomeOf<CalendarData>> {
  const { frame } = context;
  switch (op.functionName) {
    case "calendar.create":
    case "calendar.createMultiple":
    case "calendar.createRecurring":
    case "calendar.createMultipleRecurring": {
      const inputs = op.args.inputs ?? [];
      if (inputs.length === 0) throw new MalformedArgs("inputs");
      const created: EventView[] = [];
      for (const [i, input] of inputs.entries()) {
        // One key per event of the operation: the provider creates each once, however often this runs.
        const key = inputs.length === 1 ? context.operationId : `${context.operationId}#${i}`;
        created.push(eventView(await provider.createEvent(input, key)));
      }
      const operation = op.functionName.slice("calendar.".length);
      const invites = provider.kind === "google";
      return success(
        { kind: "created", events: created, invites, notInvited: invites ? nameOnly(inputs) : [], ...frame },
        eventAction(operation, created),
      );
    }
    case "calendar.update": {
      const id = str(op.args.eventId);
      if (!id) throw new MalformedArgs("eventId");
      const scope = (op.args.scope === "series" ? "series" : "instance") satisfies EventScope;
      const patch = op.args.patch ?? {};
      const invites = provider.kind === "google";
      // Who the event invited before, so the reply names only the people this change invites.
      const before = invites && patch.attendees !== undefined ? await provider.getEvent(id) : null;
      const had = new Set((before?.attendees ?? []).map((a) => a.email));
      const updated = eventView(await provider.updateEvent(id, patch, scope));
      const invited = before ? updated.attendees.filter((a) => a.email !== null && !had.has(a.email)) : [];
      return success(
        {
          kind: "updated",
          event: updated,
          scope,
          invites,
          invited,
          // A name the event already had without an address was said before: not again.
          notInvited: invites
            ? nameOnly([patch]).filter(
                (name) => !before?.attendees.some((a) => a.email === null && a.name === name),
              )
            : [],
          ...frame,
        },
        eventAction("update", [updated]),
      );
    }
    case "calendar.delete":
    case "calendar.deleteBySummary": {
      const targets = op.args.targets ?? [];
      if (targets.length === 0) throw new MalformedArgs("targets");
      for (const target of targets) {
        try {
          await provider.deleteEvent(target.id, target.scope);
        } catch (error) {
          // Already gone (a re-run of this turn, or deleted meanwhile): the outcome the user wanted.
          if (!(error instanceof CalendarRequestError && error.code === "not_found")) throw error;
        }
      }
      const events = op.args.events ?? [];
      const scope = targets.length === 1 ? targets[0]!.scope : "instance";
      return success({ kind: "deleted", events, scope, ...frame });
    }
    case "calendar.truncateRecurring": {
      const seriesId = str(op.args.seriesId);
      const lastDate = str(op.args.lastDate);
      if (!seriesId || !lastDate) throw new MalformedArgs("seriesId");
      const event = eventView(await provider.truncateSeries(seriesId, lastDate));
      return success(
        { kind: "truncated", event, lastDate, ...frame },
        eventAction("truncateRecurring", [event]),
      );
    }
    case "calendar.get": {
      const found: EventView[] = [];
      for (const id of strings(op.args.eventIds)) {
        const event = await provider.getEvent(id);
        if (event) found.push(eventView(event));
      }
      if (found.length === 0)
        return { success: false, errorCode: "NOT_FOUND", error: t(context.language, "calendar.notFoundAny") };
      const range = daysOf(found, frame.zone);
      return success(
        { kind: "listing", op: "get", events: found, range, ...frame },
        eventAction("get", found),
      );
    }
    case "calendar.getEvents": {
      const { range } = op.args;
      const query = str(op.args.query);
      const events = filterEvents(await provider.listEvents(range), op.args, frame.zone).map(eventView);
      return {
        ...success({
          kind: "listing",
          op: "getEvents",
          events,
          range,
          ...(query ? { query } : {}),
          ...frame,
        }),
        // A listing is no latest action ("@1" keeps its meaning), but a step of this message that
        // depends on it acts on what it found ("find my dentist appointment and move it").
        produced: {
          ids: events.map((e) => e.id),
          summary: events.length > 0 ? (eventAction("getEvents", events)?.summary ?? "") : "no events",
          // One event found hands on its time ("…and a task the day before it").
          ...(events.length === 1 && !events[0]!.allDay ? { when: events[0]!.start } : {}),
        },
      };
    }
    case "calendar.getRecurringInstances": {
      const { seriesId, range } = op.args;
      const series = await provider.getEvent(seriesId);
      const events = (await provider.listInstances(seriesId, range)).map(eventView);
      return success({
        kind: "listing",
        op: "getRecurringInstances",
        events,
        range,
        ...(series ? { series: eventView(series) } : {}),
        ...frame,
      });
    }
    case "calendar.checkConflicts": {
      const { range } = op.args;
      const fromMs = Date.parse(range.from);
      const toMs = Date.parse(range.to);
      const events = (await provider.listEvents(range))
        .filter((e) => !e.allDay && Date.parse(e.start) < toMs && Date.parse(e.end) > fromMs)
        .map(eventView);
      return success({ kind: "conflicts", events, range, ...frame });
    }
    case "calendar.analyzeSchedule": {
      const { range } = op.args;
      const events = filterEvents(await provider.listEvents(range), op.args, frame.zone);
      const analysis = analyzeSchedule(events, range, { timeZone: frame.zone, nowMs: context.now });
      return success({ kind: "schedule", analysis, range, ...frame });
    }
    default:
      return assertNever(op);
  }
}

/** The local date an event starts on in the user's zone (an all-day event's own date). */
function startDay(event: Pick<CalendarEvent, "allDay" | "start">, zone: string): LocalDate {
  return event.allDay
    ? (parseDate(event.start) ?? localDateOf(Date.parse(event.start), zone))
    : localDateOf(Date.parse(event.start), zone);
}

/** Events narrowed by title words (fuzzy), titles to leave out and weekdays to leave out. */
function filterEvents(
  events: CalendarEvent[],
  args: CalendarArgs<"calendar.getEvents" | "calendar.analyzeSchedule">,
  zone: string,
): CalendarEvent[] {
  const query = str(args.query);
  const excludeSummaries = strings(args.excludeSummaries);
  const excludeDays = new Set(
    strings(args.excludeDays)
      .map(dayIndex)
      .filter((d): d is number => d !== null),
  );
  const score = (words: string, summary: string) => rankMatches(words, [summary], (s) => s)[0]!.score;
  return events.filter((event) => {
    if (query && score(query, event.summary) < DEFAULT_THRESHOLD) return false;
    if (excludeSummaries.some((words) => score(words, event.summary) >= DEFAULT_THRESHOLD)) return false;
    return !excludeDays.has(dayOfWeek(startDay(event, zone)));
  });
}

/** The whole local days a handful of events start on, for a listing's heading. */
function daysOf(events: EventView[], zone: string): TimeRange {
  const days = events.map((e) => formatDate(startDay(e, zone))).sort();
  const first = parseDate(days[0]!)!;
  const last = parseDate(days.at(-1)!)!;
  return {
    from: new Date(startOfDay(first, zone)).toISOString(),
    to: new Date(startOfDay(addDays(last, 1), zone)).toISOString(),
  };
}
