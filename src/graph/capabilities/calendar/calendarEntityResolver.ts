import { dayIndex } from "../../../nlu/timeWords.js";
import { calendarOptionsOf } from "../../../nlu/holidays.js";
import type { OperationLedger } from "../../../db/repositories/operationLedger.js";
import { t } from "../../../messages/index.js";
import { operationIdOf } from "../../plan/operationId.js";
import { confirmUnlessDone, resolveUnlessDone } from "../../entities/rerun.js";
import type { CapabilityContext, EntityResolution, EntityResolver } from "../../../types/capability.js";
import type { DAY_NAMES } from "../../../prompts/calendarFindPrompt.js";
import type {
  CalendarMutateOperation,
  SearchCriteria,
  UpdateFields,
} from "../../../prompts/calendarMutatePrompt.js";
import type { DisambiguationState, PlanStep, ResolverResult } from "../../../types/index.js";
import { nonEmpty } from "../../../utils/args.js";
import { pad2, zonedParts } from "../../../utils/timeContext.js";
import {
  buildEventInputs,
  clockOf,
  eventTimes,
  patchTimes,
  readDate,
  readRange,
  type TimeOptions,
} from "../../../services/calendar/eventTimes.js";
import { addDays, dayOfWeek, formatDate } from "../../../nlu/zonedTime.js";
import { localDateOf, parseDate, startOfDay } from "../../../services/calendar/recurrenceExpansion.js";
import {
  dayText,
  eventView,
  frameAt,
  rangeText,
  ruleText,
  timeQuestion,
  whenText,
} from "../../../services/calendar/replies.js";
import { CalendarRequestError } from "../../../services/calendar/calendarRequestError.js";
import { isEmailAddress, MAX_NAME } from "../../../services/calendar/eventInput.js";
import type { ContactDirectory } from "../../../types/contacts.js";
import {
  type Attendee,
  type CalendarEvent,
  type CalendarProvider,
  type CalendarProviders,
  type EventInput,
  type EventPatch,
  type EventScope,
  type TimeRange,
} from "../../../types/calendar.js";
import { GoogleConnectionLostError } from "../../../services/google/types.js";
import { userTextOf } from "../../errorText.js";
import { DEFAULT_THRESHOLD, decideMatch, rankMatches, type Match } from "../../../utils/fuzzy.js";
import { actionIds, bindToDependency, parseHandle, withChosenArgs } from "../../entities/references.js";
import { assertNever, declares, type OperationName } from "../../../contracts/contract.js";
import {
  calendarContract,
  type CalendarArgs,
  type CalendarFunction,
  type CalendarOperationName,
} from "../../../contracts/calendar.js";

type Args = Record<string, unknown>;

/** The args the executor takes for each operation, by its name ("update"). */
type ArgsByName = { [F in CalendarFunction as OperationName<F, "calendar">]: CalendarArgs<F> };

/**
 * Resolved args of one operation, as the contract types them (the compiler checks that what is
 * resolved here is what the executor takes), with the operation's name for the confirmation.
 */
function argsOf<N extends CalendarOperationName>(operation: N, args: ArgsByName[N]): Args {
  return { operation, ...args };
}

/** The operation a function names, when the contract declares it ("calendar.update" → "update"). */
function operationOf(functionName: string): CalendarOperationName | null {
  return declares(calendarContract, functionName)
    ? (functionName.slice("calendar.".length) as CalendarOperationName)
    : null;
}

/**
 * What a risky plan asks before each operation: nothing (reading, creating; a deletion of several
 * or of a series was asked about when resolved), the deletion of one event, a change to one event,
 * or the end of a series. A new operation of the contract fails `tsc` here until it says.
 */
const QUESTION: Record<CalendarOperationName, "none" | "delete" | "update" | "truncate"> = {
  create: "none",
  createMultiple: "none",
  createRecurring: "none",
  createMultipleRecurring: "none",
  getEvents: "none",
  get: "none",
  checkConflicts: "none",
  getRecurringInstances: "none",
  analyzeSchedule: "none",
  update: "update",
  delete: "delete",
  deleteBySummary: "delete",
  truncateRecurring: "truncate",
};

/** Events named without a day are looked for from the start of today through this many days (default: 60). */
const SEARCH_DAYS = 60;
/** A series' occurrences are listed for this many days when no range is named (default: 30). */
const INSTANCES_DAYS = 30;
/** At most this many events are named in a confirmation question. */
const MAX_NAMED = 10;

/** One thing the user pointed at, or what to say instead. */
type Found =
  | { status: "found"; event: CalendarEvent; dateNamed: boolean }
  | { status: "several"; events: CalendarEvent[]; query: string }
  | { status: "missing"; message: string };

/** What a step says about which events it means. */
interface Criteria {
  /** A handle the resolver wrote ("@1"), never an id: ids do not come from the user's words (spec 002 §8.0). */
  eventId?: string;
  /** The event the user chose from Memo's own numbered question (disambiguation). */
  chosenId?: string;
  /** The earlier step of this message the resolver said the event comes from (D13). */
  fromStep?: string;
  summary?: string;
  timeMin?: string;
  timeMax?: string;
  dayOfWeek?: (typeof DAY_NAMES)[number];
  startTime?: string;
  excludeSummaries?: string[];
  excludeDays?: string[];
}

const resolved = (args: Args): EntityResolution => ({ status: "resolved", args });
const notFound = (message: string): EntityResolution => ({ status: "not_found", message });
const str = nonEmpty;
const strings = (v: unknown) => (Array.isArray(v) ? v.map(str).filter((s): s is string => !!s) : []);

/** The user's frame: zone and local date, for words about times. */
function frameOf(context: CapabilityContext) {
  return frameAt(context.now, context.state.user.timezone);
}

function timeOptions(context: CapabilityContext, allowPast = false): TimeOptions {
  const user = context.state.authContext?.user;
  return {
    nowMs: context.now,
    timeZone: context.state.user.timezone,
    allowPast,
    ...(user ? { calendar: calendarOptionsOf(user) } : {}),
  };
}

/** "*Meeting with Dana* (tomorrow 14:00–15:00)". */
function label(event: CalendarEvent, context: CapabilityContext): string {
  return `*${event.summary}* (${whenText(event, frameOf(context), context.language)})`;
}

/** The event's local clock "HH:mm" (empty for all-day) and weekday in the user's zone. */
function localStart(event: CalendarEvent, zone: string): { clock: string; day: number } {
  if (event.allDay) {
    const date = parseDate(event.start);
    return { clock: "", day: date ? dayOfWeek(date) : -1 };
  }
  const at = zonedParts(Date.parse(event.start), zone);
  return { clock: `${pad2(at.hour)}:${pad2(at.minute)}`, day: at.dayOfWeek };
}

/** Whether a summary is one the user asked to leave out. */
function excluded(summary: string, excludes: string[]): boolean {
  return excludes.some((words) => rankMatches(words, [summary], (s) => s)[0]!.score >= DEFAULT_THRESHOLD);
}

/**
 * Entity resolution for calendar events (spec 001 §7, 002 §8.5): events are found by the words of
 * their title (fuzzy, Hebrew and English) within the day or range the user named, else from today
 * on; occurrences of one series count once unless a day was named. One match resolves; several ask
 * which (numbered, with their times in the user's zone); none says so with the closest titles.
 * Times are read here against the event found ("18:00" keeps its day), so what a confirmation names
 * is exactly what the executor does. A new or moved event that overlaps another, deleting a whole
 * series and deleting several events all ask first.
 */
export class CalendarEntityResolver implements EntityResolver {
  readonly capability = "calendar" as const;

  constructor(
    private readonly providers: CalendarProviders,
    /** Changes already made: a re-run turn goes straight to the executor, which reports them (default: none). */
    private readonly ledger?: OperationLedger,
    /** Names to addresses from the user's own contacts (default: none; a name alone invites nobody). */
    private readonly contacts?: ContactDirectory,
  ) {}

  resolve(step: PlanStep, result: ResolverResult, context: CapabilityContext): Promise<EntityResolution> {
    return this.resolveStep(step, result, context);
  }

  /** Resolves a step; `chosenId` is the event the user picked from a disambiguation question. */
  private async resolveStep(
    step: PlanStep,
    result: ResolverResult,
    context: CapabilityContext,
    chosenId?: string,
  ): Promise<EntityResolution> {
    const operation = operationOf(result.functionName ?? "");
    const operationIds = [operationIdOf(context.state.traceId, step.id)];
    // A re-run of a turn whose change already happened: the executor reports its outcome.
    return resolveUnlessDone(this.ledger, context.phone, operationIds, result.args ?? {}, async () => {
      try {
        const provider = await this.providers.forUser(context.phone);
        return await this.resolveOperation(step, operation, result.args ?? {}, provider, context, chosenId);
      } catch (error) {
        if (error instanceof GoogleConnectionLostError || error instanceof CalendarRequestError)
          return notFound(userTextOf(error, context.language, { capability: "calendar" }));
        throw error;
      }
    });
  }

  /**
   * A risky plan's question before changing one event, naming it with its day and time: "Delete
   * *Dentist* (tomorrow 14:00–15:00)?". Creating and reading ask nothing; a series and several
   * events were asked about already.
   */
  confirmation(step: PlanStep, args: Args, context: CapabilityContext): Promise<string | null> {
    // A re-run of a turn whose change already happened asks nothing again.
    return confirmUnlessDone(
      this.ledger,
      context.phone,
      [operationIdOf(context.state.traceId, step.id)],
      () => this.question(args, context),
    );
  }

  /** The confirmation question of a change to one event, if it asks one. */
  private async question(args: Args, context: CapabilityContext): Promise<string | null> {
    const { language } = context;
    const frame = frameOf(context);
    const operation = operationOf(`calendar.${str(args.operation) ?? ""}`);
    const asks = operation ? QUESTION[operation] : "none";
    if (asks === "delete") {
      const checked = calendarContract.operations["calendar.delete"].args.safeParse(args);
      const events = checked.success ? (checked.data.events ?? []) : [];
      const event = events.length === 1 ? events[0]! : null;
      return event
        ? t(language, "calendar.confirmDeleteOne", {
            summary: event.summary,
            when: whenText(event, frame, language),
          })
        : null;
    }
    if (asks === "none") return null;
    const id = str(asks === "update" ? args.eventId : args.seriesId);
    const event = id ? await (await this.providers.forUser(context.phone)).getEvent(id) : null;
    if (!event) return null;
    if (asks === "update")
      return t(language, "calendar.confirmUpdateOne", {
        summary: event.summary,
        when: whenText(event, frame, language),
      });
    const last = parseDate(str(args.lastDate) ?? "");
    return last
      ? t(language, "calendar.confirmTruncate", {
          summary: event.summary,
          date: dayText(last, frame.today, language),
        })
      : null;
  }

  async applySelection(
    step: PlanStep,
    disambiguation: DisambiguationState,
    selection: string[],
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    const chosen = selection[0];
    // Only an event Memo itself offered: the choice is an id of the user's own calendar.
    if (!chosen || !disambiguation.candidates.some((c) => c.id === chosen))
      return notFound(t(context.language, "calendar.askWhichEvent"));
    return this.resolveStep(
      step,
      withChosenArgs(step, context, disambiguation.originalArgs),
      context,
      chosen,
    );
  }

  private async resolveOperation(
    step: PlanStep,
    operation: CalendarOperationName | null,
    args: Args,
    provider: CalendarProvider,
    context: CapabilityContext,
    chosenId: string | undefined,
  ): Promise<EntityResolution> {
    const { language } = context;
    const criteriaOf = (a: Args) => readCriteria(a, chosenId);
    // A function the contract does not declare names nothing Memo can act on.
    if (!operation) return notFound(t(language, "calendar.askWhichEvent"));
    switch (operation) {
      case "create":
      case "createMultiple":
      case "createRecurring":
      case "createMultipleRecurring":
        return this.resolveCreate(operation, args, provider, context);
      case "getEvents":
      case "analyzeSchedule": {
        const range = readRange(str(args.timeMin), str(args.timeMax), timeOptions(context, true));
        if (!range.ok) return notFound(t(language, "calendar.askRange", { phrase: range.phrase }));
        return resolved(
          argsOf(operation, {
            range: range.range,
            ...(str(args.summary) ? { query: str(args.summary) } : {}),
            excludeSummaries: strings(args.excludeSummaries),
            excludeDays: strings(args.excludeDays),
          }),
        );
      }
      case "checkConflicts": {
        const slot = eventTimes({ start: str(args.start), end: str(args.end) }, timeOptions(context, true));
        if (!slot.ok) return notFound(timeQuestion(slot, language, frameOf(context)));
        return resolved(argsOf(operation, { range: { from: slot.times.start, to: slot.times.end } }));
      }
      case "get": {
        const criteria = criteriaOf(args);
        const found = await this.find(criteria, provider, context, false);
        if (found.status === "missing") return notFound(found.message);
        const events = found.status === "found" ? [found.event] : found.events;
        return resolved(argsOf(operation, { eventIds: events.map((e) => e.id) }));
      }
      case "getRecurringInstances": {
        const criteria = criteriaOf(args);
        const found = await this.find(
          { ...criteria, timeMin: undefined, timeMax: undefined },
          provider,
          context,
          true,
        );
        if (found.status !== "found") return this.unresolved(step, found, args, context);
        const series = found.event;
        if (!series.seriesId)
          return notFound(t(language, "calendar.notRecurring", { summary: series.summary }));
        const range = readRange(criteria.timeMin, criteria.timeMax, {
          ...timeOptions(context, true),
          defaultDays: INSTANCES_DAYS,
        });
        if (!range.ok) return notFound(t(language, "calendar.askRange", { phrase: range.phrase }));
        return resolved(argsOf(operation, { seriesId: series.seriesId, range: range.range }));
      }
      case "update":
        return this.resolveUpdate(step, args, provider, context, criteriaOf(args));
      case "delete":
        return this.resolveDelete(step, args, provider, context, criteriaOf(args));
      case "deleteBySummary":
        return this.resolveDeleteMany(args, provider, context);
      case "truncateRecurring": {
        const found = await this.find(criteriaOf(args), provider, context, true);
        if (found.status !== "found") return this.unresolved(step, found, args, context);
        const series = found.event;
        if (!series.seriesId)
          return notFound(t(language, "calendar.notRecurring", { summary: series.summary }));
        const until = str(args.until);
        const last = until ? readDate(until, timeOptions(context, true)) : null;
        if (!last)
          return notFound(
            until
              ? t(language, "calendar.askEventTime", { phrase: until })
              : t(language, "calendar.askUntil"),
          );
        return resolved(argsOf(operation, { seriesId: series.seriesId, lastDate: formatDate(last) }));
      }
      default:
        return assertNever(operation);
    }
  }

  // ---- creating ----

  private async resolveCreate(
    operation: "create" | "createMultiple" | "createRecurring" | "createMultipleRecurring",
    args: Args,
    provider: CalendarProvider,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    // Already read (a confirmation answered, a re-run): exactly these events.
    if (Array.isArray(args.inputs)) return resolved(args);
    const built = buildEventInputs(args as CalendarMutateOperation, timeOptions(context));
    if (!built.ok) return notFound(timeQuestion(built, context.language, frameOf(context)));
    const inputs: EventInput[] = [];
    const typed: Attendee[] = [];
    for (const input of built.inputs) {
      if (!input.attendees) {
        inputs.push(input);
        continue;
      }
      const people = await this.attendees(input.attendees, context);
      if (!people.ok) return notFound(people.message);
      inputs.push({ ...input, attendees: people.attendees });
      typed.push(...people.typed);
    }
    const resolvedArgs = argsOf(operation, { inputs, ...typedArgs(typed) });
    // Google e-mails everyone with an address: the user says yes first, seeing the addresses.
    const invitees = provider.kind === "google" ? inputs.flatMap((i) => withAddress(i.attendees)) : [];
    const clashes: { input: EventInput; with: CalendarEvent[] }[] = [];
    for (const input of inputs) {
      // All-day events and series are not checked: a trip does not make a meeting impossible.
      if (input.allDay || input.recurrence) continue;
      const overlapping = await this.overlapping(
        provider,
        { from: input.start, to: input.end },
        (e) =>
          // The event itself, when a turn runs again after creating it.
          !(e.summary === input.summary && e.start === input.start && e.end === input.end),
      );
      if (overlapping.length > 0) clashes.push({ input, with: overlapping });
    }
    const invites = invitees.length > 0 ? peopleText(invitees) : null;
    if (clashes.length === 0) {
      if (!invites) return resolved(resolvedArgs);
      const input = inputs[0]!;
      return {
        status: "confirm",
        question: t(context.language, "calendar.confirmInvite", {
          summary: inputs.length === 1 ? input.summary : inputs.map((i) => i.summary).join(", "),
          when: whenText(input, frameOf(context), context.language),
          people: invites,
        }),
        args: resolvedArgs,
      };
    }
    const first = clashes[0]!;
    const question = t(context.language, "calendar.confirmConflict", {
      conflicts: this.names(first.with, context),
      summary: first.input.summary,
      when: whenText(first.input, frameOf(context), context.language),
    });
    return {
      status: "confirm",
      question: invites
        ? `${question}\n${t(context.language, "calendar.alsoInvites", { people: invites })}`
        : question,
      args: resolvedArgs,
    };
  }

  /**
   * The people of an event as the user named them, made safe to invite: an address must be one
   * (else the user is told) and must be in the user's own words (a model's address is never used;
   * nor is one only in a quoted message or a picture's text, D14); an address the user typed is
   * returned in `typed`, kept for later once the change is made; a name alone gets the address the
   * user's own contacts hold for it, or stays a name (nobody is invited for it); several addresses
   * for one name ask which. A name past MAX_NAME characters is not one (a model's slip): dropped.
   */
  private async attendees(
    named: Attendee[],
    context: CapabilityContext,
  ): Promise<{ ok: true; attendees: Attendee[]; typed: Attendee[] } | { ok: false; message: string }> {
    const { language, phone } = context;
    // The user's own words only: enhancedMessage adds the quoted message and media text (D14).
    const words = context.state.input.message.toLowerCase();
    const out: Attendee[] = [];
    const typed: Attendee[] = [];
    for (const person of named) {
      const email = person.email?.trim() || null;
      const said = person.name?.trim() || null;
      const name = said && said.length <= MAX_NAME ? said : null;
      if (email && typedIn(words, email)) {
        if (!isEmailAddress(email))
          return { ok: false, message: t(language, "calendar.invalidEmail", { email }) };
        out.push({ name, email: email.toLowerCase() });
        typed.push({ name, email: email.toLowerCase() });
        continue;
      }
      if (!name) continue;
      const matches = (await this.contacts?.find(phone, name)) ?? [];
      if (matches.length > 1) {
        return {
          ok: false,
          message: t(language, "calendar.askWhichAddress", {
            name,
            emails: matches.map((m) => m.email).join(", "),
          }),
        };
      }
      out.push({ name, email: matches[0]?.email ?? null });
    }
    return { ok: true, attendees: out, typed };
  }

  /** Timed events overlapping the range (all-day ones do not block time). */
  private async overlapping(
    provider: CalendarProvider,
    range: TimeRange,
    keep: (event: CalendarEvent) => boolean,
  ): Promise<CalendarEvent[]> {
    const fromMs = Date.parse(range.from);
    const toMs = Date.parse(range.to);
    const events = await provider.listEvents(range);
    return events.filter(
      (e) => !e.allDay && Date.parse(e.start) < toMs && Date.parse(e.end) > fromMs && keep(e),
    );
  }

  /** "*A* (today 14:00–15:00) and *B* (…)". */
  private names(events: CalendarEvent[], context: CapabilityContext): string {
    const labels = events.slice(0, 3).map((e) => label(e, context));
    if (events.length > 3) labels.push("…");
    return labels.join(", ");
  }

  // ---- updating ----

  private async resolveUpdate(
    step: PlanStep,
    args: Args,
    provider: CalendarProvider,
    context: CapabilityContext,
    criteria: Criteria,
  ): Promise<EntityResolution> {
    if (args.patch && typeof args.eventId === "string") return resolved(args);
    const found = await this.find(criteria, provider, context, false);
    if (found.status !== "found") return this.unresolved(step, found, args, context);
    const { event, dateNamed } = found;
    const fields = (args.updateFields ?? {}) as UpdateFields;
    const times = patchTimes(fields, event, timeOptions(context, true));
    if (!times.ok) return notFound(timeQuestion(times, context.language, frameOf(context)));
    const patch: EventPatch = { ...times.patch };
    if (str(fields.summary)) patch.summary = str(fields.summary)!;
    if (str(fields.location)) patch.location = str(fields.location)!;
    if (str(fields.description)) patch.description = str(fields.description)!;
    if (typeof fields.reminderMinutesBefore === "number")
      patch.reminderMinutesBefore = fields.reminderMinutesBefore;
    let added: Attendee[] = [];
    let typed: Attendee[] = [];
    if (fields.attendees?.length) {
      const people = await this.attendees(
        fields.attendees.map((a) => ({ name: str(a.name) ?? null, email: str(a.email) ?? null })),
        context,
      );
      if (!people.ok) return notFound(people.message);
      typed = people.typed;
      const known = new Set(event.attendees.map((a) => a.email ?? `name:${a.name ?? ""}`));
      added = people.attendees.filter((a) => !known.has(a.email ?? `name:${a.name ?? ""}`));
      if (added.length > 0) patch.attendees = [...event.attendees, ...added];
    }
    if (Object.keys(patch).length === 0) return notFound(t(context.language, "calendar.askChange"));
    const scope = scopeOf(event, args.isRecurring, dateNamed);
    const resolvedArgs = argsOf("update", { eventId: event.id, scope, patch, ...typedArgs(typed) });
    const moved = { ...event, ...patch };
    // Inviting on Google e-mails them, and Google's update goes to everyone already invited
    // (sendUpdates has no "only the new ones"): the user says yes first, seeing the addresses.
    const invitees = provider.kind === "google" ? withAddress(added) : [];
    const guests = withAddress(event.attendees).length > 0;
    // Moving one event onto another asks first, naming it (and the invitation, when there is one).
    if (scope === "instance" && (patch.start || patch.end) && !moved.allDay) {
      const clashes = await this.overlapping(
        provider,
        { from: moved.start, to: moved.end },
        (e) => e.id !== event.id && (!event.seriesId || e.seriesId !== event.seriesId),
      );
      if (clashes.length > 0) {
        const question = t(context.language, "calendar.confirmMoveConflict", {
          summary: moved.summary,
          conflicts: this.names(clashes, context),
        });
        const invites =
          invitees.length > 0
            ? [
                t(context.language, "calendar.alsoInvites", { people: peopleText(invitees) }),
                ...(guests ? [t(context.language, "calendar.alsoUpdatesGuests")] : []),
              ]
            : [];
        return { status: "confirm", question: [question, ...invites].join("\n"), args: resolvedArgs };
      }
    }
    if (invitees.length > 0) {
      return {
        status: "confirm",
        question: t(
          context.language,
          guests ? "calendar.confirmInviteUpdateGuests" : "calendar.confirmInviteUpdate",
          {
            summary: event.summary,
            when: whenText(moved, frameOf(context), context.language),
            people: peopleText(invitees),
          },
        ),
        args: resolvedArgs,
      };
    }
    return resolved(resolvedArgs);
  }

  // ---- deleting ----

  private async resolveDelete(
    step: PlanStep,
    args: Args,
    provider: CalendarProvider,
    context: CapabilityContext,
    criteria: Criteria,
  ): Promise<EntityResolution> {
    if (Array.isArray(args.targets)) return resolved(args);
    const found = await this.find(criteria, provider, context, false);
    if (found.status !== "found") return this.unresolved(step, found, args, context);
    const { event, dateNamed } = found;
    const scope = scopeOf(event, args.isRecurring, dateNamed);
    // What the reply names once they are gone (no descriptions: args live in the checkpoint).
    const resolvedArgs = argsOf("delete", { targets: [{ id: event.id, scope }], events: [eventView(event)] });
    if (scope === "series" && event.recurrence) {
      return {
        status: "confirm",
        question: t(context.language, "calendar.confirmDeleteSeries", {
          summary: event.summary,
          rule: ruleText(event.recurrence, event, frameOf(context), context.language),
        }),
        args: resolvedArgs,
      };
    }
    return resolved(resolvedArgs);
  }

  /** deleteBySummary: every matching event in the range (default: the search window), confirmed when several. */
  private async resolveDeleteMany(
    args: Args,
    provider: CalendarProvider,
    context: CapabilityContext,
  ): Promise<EntityResolution> {
    if (Array.isArray(args.targets)) return resolved(args);
    const { language } = context;
    const criteria = readCriteria(args);
    const window = this.window(criteria, context);
    if (!window.ok) return notFound(t(language, "calendar.askRange", { phrase: window.phrase }));
    let events = this.filter(await provider.listEvents(window.range), criteria, context);
    if (criteria.summary) {
      const query = criteria.summary;
      events = rankMatches(query, events, (e) => e.summary)
        .filter((m) => m.score >= DEFAULT_THRESHOLD)
        .map((m) => m.item)
        .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
    }
    const rangeWords = rangeText(window.range, frameOf(context), language);
    if (events.length === 0) {
      return notFound(
        criteria.summary
          ? t(language, "calendar.notFound", { query: criteria.summary, range: ` ${rangeWords}` })
          : t(language, "calendar.noEvents", { range: rangeWords }),
      );
    }
    // A whole series goes only when asked for; otherwise its occurrences in the range.
    const wholeSeries = args.isRecurring === true;
    if (wholeSeries) events = uniqueBy(events, (e) => e.seriesId ?? e.id);
    const targets = uniqueBy(
      events.map((e) => ({
        id: wholeSeries && e.seriesId ? e.seriesId : e.id,
        scope: wholeSeries && e.seriesId ? ("series" as const) : ("instance" as const),
      })),
      (t) => t.id,
    );
    const resolvedArgs = argsOf("deleteBySummary", { targets, events: events.map(eventView) });
    if (events.length === 1 && !wholeSeries) return resolved(resolvedArgs);
    const names = events.slice(0, MAX_NAMED).map((e, i) => `${i + 1}. ${label(e, context)}`);
    if (events.length > MAX_NAMED) names.push("…");
    return {
      status: "confirm",
      question:
        events.length === 1
          ? t(language, "calendar.confirmDeleteOne", {
              summary: events[0]!.summary,
              when: whenText(events[0]!, frameOf(context), language),
            })
          : t(language, "calendar.confirmDeleteMany", {
              count: String(events.length),
              names: names.join("\n"),
            }),
      args: resolvedArgs,
    };
  }

  // ---- finding ----

  /** The range events are looked for in: the one named, else today and the next SEARCH_DAYS days. */
  private window(criteria: Criteria, context: CapabilityContext) {
    if (criteria.timeMin || criteria.timeMax)
      return readRange(criteria.timeMin, criteria.timeMax, timeOptions(context, true));
    const zone = context.state.user.timezone;
    const today = localDateOf(context.now, zone);
    return {
      ok: true as const,
      range: {
        from: new Date(startOfDay(today, zone)).toISOString(),
        to: new Date(startOfDay(addDays(today, SEARCH_DAYS), zone)).toISOString(),
      },
    };
  }

  /** Events of the window that fit the weekday, clock time and exclusions named. */
  private filter(events: CalendarEvent[], criteria: Criteria, context: CapabilityContext): CalendarEvent[] {
    const zone = context.state.user.timezone;
    const day = criteria.dayOfWeek ? dayIndex(criteria.dayOfWeek) : null;
    const clock = criteria.startTime ? clockOf(criteria.startTime) : null;
    const wanted = clock ? `${pad2(clock.hour)}:${pad2(clock.minute)}` : null;
    const excludedDays = new Set((criteria.excludeDays ?? []).map(dayIndex).filter((d) => d !== null));
    return events.filter((event) => {
      const at = localStart(event, zone);
      if (day !== null && at.day !== day) return false;
      if (wanted && at.clock !== wanted) return false;
      if (excludedDays.has(at.day)) return false;
      return !excluded(event.summary, criteria.excludeSummaries ?? []);
    });
  }

  /**
   * The event a step means: the one chosen from Memo's question, or a handle ("@1"), else title words within the
   * window (several occurrences of one series count as its next one, unless a day was named), else
   * with nothing named, the event of the latest calendar action.
   */
  private async find(
    criteria: Criteria,
    provider: CalendarProvider,
    context: CapabilityContext,
    seriesOnly: boolean,
  ): Promise<Found> {
    const { language } = context;
    const dateNamed = !!(criteria.timeMin || criteria.timeMax || criteria.dayOfWeek);
    // "move it" after an earlier step of this message found or made the event: that event (a day
    // named without a handle or fromStep is the user's own search).
    const binding =
      criteria.chosenId || (dateNamed && !criteria.eventId && !criteria.fromStep)
        ? null
        : bindToDependency(
            context,
            "events",
            { handle: criteria.eventId, words: criteria.summary },
            criteria.fromStep,
          );
    if (binding) {
      const events: CalendarEvent[] = [];
      if (binding.status === "bound")
        for (const id of binding.ref.ids) {
          const event = await provider.getEvent(id);
          if (event) events.push(event);
        }
      if (events.length === 1) return { status: "found", event: events[0]!, dateNamed };
      if (events.length > 1) return { status: "several", events, query: "" };
      return { status: "missing", message: t(language, "calendar.askWhichEvent") };
    }
    const handle = criteria.eventId ? parseHandle(criteria.eventId) : null;
    const ids = criteria.chosenId
      ? [criteria.chosenId]
      : handle?.kind === "action"
        ? actionIds(context.state.latestActions, handle.n)
        : [];
    if (ids.length > 0) {
      for (const id of ids) {
        const event = await provider.getEvent(id);
        if (event) return { status: "found", event, dateNamed };
      }
    }
    const window = this.window(criteria, context);
    if (!window.ok)
      return { status: "missing", message: t(language, "calendar.askRange", { phrase: window.phrase }) };
    let events = this.filter(await provider.listEvents(window.range), criteria, context);
    if (seriesOnly) events = events.filter((e) => e.seriesId);
    // Without a day, a series is one thing to choose: its next occurrence.
    if (!dateNamed) events = uniqueBy(events, (e) => e.seriesId ?? e.id);

    const words = criteria.summary;
    if (!words) {
      if (!dateNamed) {
        const latest = await this.latestEvent(provider, context);
        if (latest) return { status: "found", event: latest, dateNamed: false };
        return { status: "missing", message: t(language, "calendar.askWhichEvent") };
      }
      if (events.length === 1) return { status: "found", event: events[0]!, dateNamed };
      if (events.length > 1) return { status: "several", events, query: "" };
      return {
        status: "missing",
        message: t(language, "calendar.noEvents", {
          range: rangeText(window.range, frameOf(context), language),
        }),
      };
    }
    const decision = decideMatch(words, events, (e) => e.summary);
    if (decision.kind === "one") return { status: "found", event: decision.match.item, dateNamed };
    if (decision.kind === "several") {
      const sameSeries = new Set(decision.matches.map((m) => m.item.seriesId ?? m.item.id)).size === 1;
      // Several occurrences of one series on the named days: the first is meant.
      if (sameSeries) return { status: "found", event: decision.matches[0]!.item, dateNamed };
      return { status: "several", events: decision.matches.map((m) => m.item), query: words };
    }
    const range = dateNamed ? ` ${rangeText(window.range, frameOf(context), language)}` : "";
    return {
      status: "missing",
      message:
        t(language, "calendar.notFound", { query: words, range }) + closestHint(decision.closest, language),
    };
  }

  /** The event of the most recent calendar action ("move it"), if it still exists. */
  private async latestEvent(
    provider: CalendarProvider,
    context: CapabilityContext,
  ): Promise<CalendarEvent | null> {
    for (const action of context.state.latestActions) {
      if (action.capability !== "calendar") continue;
      for (const id of action.externalIds ?? []) {
        const event = await provider.getEvent(id);
        if (event) return event;
      }
    }
    return null;
  }

  /** Several matches → a question (numbered, with times); none → what was not found. */
  private unresolved(
    step: PlanStep,
    found: Exclude<Found, { status: "found" }>,
    args: Args,
    context: CapabilityContext,
  ): EntityResolution {
    if (found.status === "missing") return notFound(found.message);
    const frame = frameOf(context);
    return {
      status: "disambiguation",
      entityLabel: t(context.language, "calendar.entity"),
      disambiguation: {
        type: "calendar_event",
        stepId: step.id,
        query: found.query,
        candidates: found.events.map((e) => ({
          id: e.id,
          displayText: `${e.summary} (${whenText(e, frame, context.language)})`,
        })),
        allowMultiple: false,
        originalArgs: args,
        target: "eventId",
      },
    };
  }
}

/**
 * What a step's args say about which events it means: the event chosen in a disambiguation question,
 * a handle in eventId, searchCriteria, or the top-level fields. Anything else in eventId is not
 * trusted as an id (the model may have copied it from the user's words): it counts as title words.
 */
function readCriteria(args: Args, chosenId?: string): Criteria {
  const search = (args.searchCriteria ?? {}) as SearchCriteria;
  const pick = (key: keyof SearchCriteria) => str(search[key]) ?? str(args[key]);
  const criteria: Criteria = {};
  if (chosenId) criteria.chosenId = chosenId;
  const fromStep = str(args.fromStep);
  if (fromStep) criteria.fromStep = fromStep;
  const eventId = str(args.eventId);
  if (eventId && parseHandle(eventId)) criteria.eventId = eventId;
  for (const key of ["summary", "timeMin", "timeMax", "startTime"] as const) {
    const value = pick(key);
    if (value) criteria[key] = value;
  }
  const day = pick("dayOfWeek");
  if (day) criteria.dayOfWeek = day as Criteria["dayOfWeek"];
  const excludeSummaries = strings(args.excludeSummaries);
  if (excludeSummaries.length) criteria.excludeSummaries = excludeSummaries;
  const excludeDays = strings(args.excludeDays);
  if (excludeDays.length) criteria.excludeDays = excludeDays;
  if (eventId && !criteria.eventId && !criteria.summary) criteria.summary = eventId;
  return criteria;
}

/**
 * Whether a change is for one occurrence or its whole series: as the user said; otherwise the series
 * when no day was named ("move yoga to 19:00"), the occurrence when one was ("move Monday's yoga").
 */
function scopeOf(event: CalendarEvent, isRecurring: unknown, dateNamed: boolean): EventScope {
  if (!event.seriesId) return "instance";
  if (isRecurring === true) return "series";
  if (isRecurring === false) return "instance";
  return dateNamed ? "instance" : "series";
}

/**
 * Whether the user's words hold this address whole, not inside a longer one ("xdana@…",
 * "…example.com.il"); a Hebrew prefix with a hyphen ("ל-dana@…") is fine.
 */
function typedIn(words: string, email: string): boolean {
  const escaped = email.toLowerCase().replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
  return new RegExp(`(^|[^\\w.+])${escaped}($|[^\\w.-]|\\.(?!\\w))`, "u").test(words);
}

/** The `typed` arg of a change: the addresses the user typed, each once (absent when none). */
function typedArgs(typed: Attendee[]): { typed?: { email: string; name: string | null }[] } {
  const once = uniqueBy(
    typed.filter((a) => a.email !== null),
    (a) => a.email!,
  );
  return once.length > 0 ? { typed: once.map((a) => ({ email: a.email!, name: a.name })) } : {};
}

/** The attendees with an address (those Google invites). */
function withAddress(attendees: Attendee[] | undefined): Attendee[] {
  return (attendees ?? []).filter((a) => a.email !== null);
}

/** "Dana (dana@example.com), avi@example.com": who is meant, with the address that will be used. */
function peopleText(attendees: Attendee[]): string {
  return attendees
    .map((a) => (a.name && a.email ? `${a.name} (${a.email})` : (a.email ?? a.name!)))
    .join(", ");
}

function closestHint(closest: Match<CalendarEvent>[], language: "he" | "en"): string {
  const names = [...new Set(closest.map((m) => m.item.summary))];
  return names.length > 0
    ? ` ${t(language, "calendar.closest", { names: names.map((n) => `"${n}"`).join(", ") })}`
    : "";
}

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
