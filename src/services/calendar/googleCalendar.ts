import { formatDate } from "../../nlu/zonedTime.js";
import { createHash } from "node:crypto";
import { calendar, type calendar_v3 } from "@googleapis/calendar";
import {
  GOOGLE_TIMEOUT_MS,
  GoogleConnectionLostError,
  isInvalidGrant,
  type GoogleAccounts,
} from "../google/types.js";
import type { Logger } from "../../utils/logger.js";
import {
  applyPatch,
  checkEventInput,
  normalizeEventInput,
  rangeBounds,
  seriesPatchFromOccurrence,
  spanOf,
} from "./eventInput.js";
import { type CompleteEventInput } from "../../types/calendar.js";
import { localDateOf, overlaps, parseDate } from "./recurrenceExpansion.js";
import { isRuleLine, parseRRule, toRRule, weekStartOf } from "./rrule.js";
import { CalendarRequestError } from "./calendarRequestError.js";
import {
  type CalendarEvent,
  type CalendarProvider,
  type CalendarRecurrence,
  type EventInput,
  type EventPatch,
  type EventScope,
  type TimeRange,
} from "../../types/calendar.js";

type GoogleEvent = calendar_v3.Schema$Event;

/** Options of a user's Google Calendar. */
export interface GoogleCalendarOptions {
  google: GoogleAccounts;
  phone: string;
  logger?: Logger;
  /** The calendar acted on (default: "primary"). */
  calendarId?: string;
  /** Events asked for per page of a listing (default: 250, Google's maximum is 2500). */
  pageSize?: number;
  /** Pages read at most per listing (default: 20). */
  maxPages?: number;
  /** Milliseconds one request may take (default: GOOGLE_TIMEOUT_MS, 15 000). */
  timeoutMs?: number;
}

const BASE32HEX = "0123456789abcdefghijklmnopqrstuv";

/**
 * The Google event id of an operation's event: Google takes ids chosen by the client (base32hex
 * characters a–v and 0–9, 5–1024 of them), so a re-run of the same operation asks for the same id
 * and Google answers 409 instead of creating a second event.
 * @internal
 */
export function googleEventId(phone: string, operationId: string): string {
  const digest = createHash("sha256").update(`memo-calendar:${phone}:${operationId}`).digest();
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** The HTTP status of a Google client error, if it has one. */
function statusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; response?: { status?: unknown }; code?: unknown } | null;
  for (const candidate of [e?.status, e?.response?.status, e?.code]) {
    const n = typeof candidate === "string" ? Number(candidate) : candidate;
    if (typeof n === "number" && Number.isInteger(n) && n >= 100 && n < 600) return n;
  }
  return undefined;
}

/** Whether an error is a failed HTTP request (gaxios keeps the request in `config`), not a slip of code. */
function isRequestError(error: unknown): boolean {
  return typeof error === "object" && error !== null && "config" in error;
}

const notFound = (id: string) => new CalendarRequestError("not_found", `no event ${id}`);
const invalid = (message: string) => new CalendarRequestError("invalid", message);

/** A new event's fields as the body Google takes (a patch sends only what changed: changedFields). */
function toGoogleBody(event: CompleteEventInput): GoogleEvent {
  const when = (value: string): calendar_v3.Schema$EventDateTime =>
    // The other form is cleared explicitly: Google merges a patched `start` into the old one.
    event.allDay
      ? { date: value, dateTime: null, timeZone: event.timeZone }
      : { dateTime: value, date: null, timeZone: event.timeZone };
  return {
    summary: event.summary,
    description: event.description,
    location: event.location,
    start: when(event.start),
    end: when(event.end),
    recurrence: event.recurrence ? [toRRule(event.recurrence, event)] : null,
    reminders:
      event.reminderMinutesBefore === null
        ? { useDefault: true }
        : { useDefault: false, overrides: [{ method: "popup", minutes: event.reminderMinutesBefore }] },
    attendees: invitees(event).length > 0 ? invitees(event) : undefined,
  };
}

/** The attendees Google invites: those with an address (a name alone has nowhere to go). */
function invitees(event: CompleteEventInput): calendar_v3.Schema$EventAttendee[] {
  return event.attendees
    .filter((a) => a.email !== null)
    .map((a) => ({ email: a.email!, ...(a.name ? { displayName: a.name } : {}) }));
}

/**
 * The attendee list that gives `event` its people: Google's own entries of the people it keeps,
 * every field as Google has it (the user's own `self` entry, optional and resource flags, answers),
 * then the new people with an address. Only these fields are Memo's to change: a patch replaces the
 * whole list, so rebuilding the old entries from name and address would drop the rest.
 */
function attendeesWith(
  original: calendar_v3.Schema$EventAttendee[] | undefined,
  event: CompleteEventInput,
): calendar_v3.Schema$EventAttendee[] {
  const address = (email: string | null | undefined) => email?.trim().toLowerCase() || null;
  const wanted = new Set(event.attendees.map((a) => a.email ?? `name:${a.name ?? ""}`));
  const kept = (original ?? []).filter((a) => {
    // The calendar's owner is not one of the people Memo reads, so never one it removes.
    if (a.self === true) return true;
    const email = address(a.email);
    return wanted.has(email ?? `name:${a.displayName?.trim() ?? ""}`);
  });
  const present = new Set(kept.map((a) => address(a.email)).filter((e) => e !== null));
  const added = invitees(event).filter((a) => !present.has(a.email!));
  return [...kept, ...added];
}

/**
 * Google's `sendUpdates` for a write: "all" when the event (now) invites someone, so Google e-mails
 * them; otherwise nothing is sent. Memo asks the user before any write that invites (the entity resolver).
 */
function sendUpdatesFor(body: GoogleEvent): { sendUpdates?: "all" } {
  return body.attendees && body.attendees.length > 0 ? { sendUpdates: "all" } : {};
}

/** A body without its null fields (they clear fields in a patch; a new event has nothing to clear). */
function withoutNulls<T extends object>(body: T): T {
  const entries = Object.entries(body as Record<string, unknown>)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]): [string, unknown] => [
      k,
      typeof v === "object" && !Array.isArray(v) ? withoutNulls(v!) : v,
    ]);
  return Object.fromEntries(entries) as T;
}

/** Whether two rules say the same thing. */
function sameRule(a: CalendarRecurrence | null, b: CalendarRecurrence | null): boolean {
  const key = (r: CalendarRecurrence | null) =>
    r &&
    JSON.stringify([
      r.frequency,
      r.interval ?? 1,
      r.days ?? [],
      r.daysOfMonth ?? [],
      r.rule,
      r.until,
      r.count,
    ]);
  return key(a) === key(b);
}

/**
 * A series' recurrence lines with its RRULE line replaced by `event`'s rule: EXDATE and RDATE lines
 * stay, and so does the rule's week start. Null when `event` no longer recurs.
 */
function recurrenceWith(lines: string[] | null | undefined, event: CompleteEventInput): string[] | null {
  if (!event.recurrence) return null;
  const rule = toRRule(event.recurrence, event, weekStartOf(lines));
  const at = lines?.findIndex(isRuleLine) ?? -1;
  if (!lines || at < 0) return [rule, ...(lines ?? [])];
  return lines.map((line, i) => (i === at ? rule : line));
}

/** Google's reminders with the popup one at `minutes` (other overrides kept); null: the calendar's defaults. */
function remindersWith(
  reminders: GoogleEvent["reminders"],
  minutes: number | null,
): calendar_v3.Schema$Event["reminders"] {
  // The overrides are emptied: a patch merges objects, and Google refuses defaults and overrides together.
  if (minutes === null) return { useDefault: true, overrides: [] };
  const others = reminders?.useDefault
    ? []
    : (reminders?.overrides ?? []).filter((o) => o.method !== "popup");
  return { useDefault: false, overrides: [...others, { method: "popup", minutes }] };
}

/**
 * The patch that turns Google's event `original` (read as `before`) into `after`: only what `patch`
 * changes, so that what Memo cannot read (a rule it cannot say, EXDATE lines, other reminders) stays
 * as Google has it. An instance that changes its title alone keeps following its series' time (a
 * changed start or end pins both); a rule that changes moves the start along when it must.
 */
function changedFields(
  original: GoogleEvent,
  before: CompleteEventInput,
  after: CompleteEventInput,
  patch: EventPatch,
): GoogleEvent {
  const body = toGoogleBody(after);
  const out: GoogleEvent = {};
  if (patch.summary !== undefined) out.summary = body.summary;
  if (patch.description !== undefined) out.description = body.description;
  if (patch.location !== undefined) out.location = body.location;
  if (patch.attendees !== undefined) out.attendees = attendeesWith(original.attendees, after);
  if (
    patch.reminderMinutesBefore !== undefined &&
    after.reminderMinutesBefore !== before.reminderMinutesBefore
  )
    out.reminders = remindersWith(original.reminders, after.reminderMinutesBefore);
  const ruleChanged = !sameRule(before.recurrence, after.recurrence);
  if (ruleChanged) out.recurrence = recurrenceWith(original.recurrence, after);
  const timeNamed = [patch.start, patch.end, patch.allDay, patch.timeZone].some((v) => v !== undefined);
  if (timeNamed || (ruleChanged && (after.start !== before.start || after.end !== before.end))) {
    out.start = body.start;
    out.end = body.end;
  }
  return out;
}

/**
 * Whether a series has a rule the strict reader refuses (BYWEEKNO, hourly, a fifth Monday…): read, it
 * is null, and Memo never rewrites it.
 */
const unreadableRule = (event: GoogleEvent, input: CompleteEventInput) =>
  !input.recurrence && (event.recurrence ?? []).some(isRuleLine);

const cannotChangeRule = () =>
  invalid("this series repeats in a way Memo can't change; change its rule in Google Calendar");

/**
 * One user's Google Calendar (Calendar API v3, their primary calendar). Occurrences are Google's
 * own instances ("<series id>_<start>"); a series reads back with seriesId = its own id, as the
 * built-in calendar does. Google refusing the user's tokens marks the connection lost and throws
 * GoogleConnectionLostError; an unknown or deleted event is CalendarRequestError("not_found");
 * Google not answering (an outage, a timeout) is CalendarRequestError("unavailable").
 */
export class GoogleCalendar implements CalendarProvider {
  readonly kind = "google" as const;
  private api: calendar_v3.Calendar | undefined;
  private calendarZone: string | undefined;
  private readonly calendarId: string;

  constructor(private readonly options: GoogleCalendarOptions) {
    this.calendarId = options.calendarId ?? "primary";
  }

  async listEvents(range: TimeRange, options: { query?: string } = {}): Promise<CalendarEvent[]> {
    const { fromMs, toMs } = rangeBounds(range);
    const query = options.query?.trim();
    const items = await this.pages((api, pageToken) =>
      api.events.list({
        calendarId: this.calendarId,
        singleEvents: true,
        orderBy: "startTime",
        timeMin: new Date(fromMs).toISOString(),
        timeMax: new Date(toMs).toISOString(),
        maxResults: this.options.pageSize ?? 250,
        ...(query ? { q: query } : {}),
        ...(pageToken ? { pageToken } : {}),
      }),
    );
    return this.toEvents(items, fromMs, toMs);
  }

  async getEvent(id: string): Promise<CalendarEvent | null> {
    const event = await this.fetch(id);
    return event ? (await this.toEvents([event]))[0]! : null;
  }

  async createEvent(input: EventInput, operationId: string): Promise<CalendarEvent> {
    if (!operationId) throw new Error("createEvent: operationId is required");
    const fields = normalizeEventInput(input);
    const id = googleEventId(this.options.phone, operationId);
    const body = withoutNulls({ id, ...toGoogleBody(fields) });
    const created = await this.call(async (api) => {
      try {
        return (
          await api.events.insert({
            calendarId: this.calendarId,
            requestBody: body,
            ...sendUpdatesFor(body),
          })
        ).data;
      } catch (error) {
        // 409: the id is taken, so this operation already created its event (a re-run turn).
        if (statusOf(error) !== 409) throw error;
        return (await api.events.get({ calendarId: this.calendarId, eventId: id })).data;
      }
    });
    const [event] = await this.toEvents([created]);
    // A re-run of an operation whose event the user has deleted since.
    if (!event)
      throw new CalendarRequestError("not_found", "the event this operation created was deleted since");
    return event;
  }

  async updateEvent(id: string, patch: EventPatch, scope: EventScope): Promise<CalendarEvent> {
    const current = await this.fetch(id);
    if (!current) throw notFound(id);
    const seriesId = current.recurringEventId;

    if (seriesId && scope === "instance") {
      if (patch.recurrence !== undefined)
        throw invalid("a rule changes the whole series, not one occurrence");
      const before = await this.inputOf(current);
      const next = checkEventInput(applyPatch(before, { ...patch, recurrence: null }), before.attendees);
      return this.patched(id, changedFields(current, before, next, patch));
    }
    if (seriesId) {
      const master = await this.fetch(seriesId);
      if (!master) throw notFound(id);
      const base = await this.inputOf(master);
      if (patch.recurrence !== undefined && unreadableRule(master, base)) throw cannotChangeRule();
      const original = current.originalStartTime ?? current.start;
      const occurrence = await this.inputOf(current);
      const date =
        original?.date ?? formatDate(localDateOf(Date.parse(original?.dateTime ?? ""), base.timeZone));
      const { patch: seriesPatch } = seriesPatchFromOccurrence(
        base,
        { date, start: occurrence.start, end: occurrence.end },
        patch,
      );
      const next = normalizeEventInput(applyPatch(base, seriesPatch), base.attendees);
      return this.patched(seriesId, changedFields(master, base, next, seriesPatch));
    }
    const before = await this.inputOf(current);
    if (patch.recurrence !== undefined && unreadableRule(current, before)) throw cannotChangeRule();
    const next = normalizeEventInput(applyPatch(before, patch), before.attendees);
    return this.patched(id, changedFields(current, before, next, patch));
  }

  async deleteEvent(id: string, scope: EventScope): Promise<void> {
    const current = await this.fetch(id);
    if (!current) throw notFound(id);
    const target = current.recurringEventId && scope === "series" ? current.recurringEventId : id;
    await this.call((api) => api.events.delete({ calendarId: this.calendarId, eventId: target }), target);
  }

  async undoSnapshot(
    id: string,
    scope: EventScope,
  ): Promise<{ eventId: string; before: Record<string, unknown>; summary: string } | null> {
    const current = await this.fetch(id);
    // A change "for the whole series" from an occurrence changes (or deletes) the series itself.
    const target =
      current?.recurringEventId && scope === "series" ? await this.fetch(current.recurringEventId) : current;
    if (!target?.id) return null;
    return { eventId: target.id, before: { ...target }, summary: target.summary ?? "" };
  }

  /**
   * Google keeps a deleted event as "cancelled": patching its fields back with status "confirmed"
   * restores it (same id), and the same patch takes back an edit.
   */
  async undoRestore(eventId: string, before: Record<string, unknown>): Promise<boolean> {
    const event = before as GoogleEvent;
    const body: GoogleEvent = {
      status: "confirmed",
      summary: event.summary ?? null,
      description: event.description ?? null,
      location: event.location ?? null,
      ...(event.start ? { start: event.start } : {}),
      ...(event.end ? { end: event.end } : {}),
      reminders: event.reminders ?? null,
      ...(event.attendees ? { attendees: event.attendees } : {}),
      // An occurrence has no rule of its own.
      ...(event.recurringEventId ? {} : { recurrence: event.recurrence ?? null }),
    };
    await this.call(
      (api) => api.events.patch({ calendarId: this.calendarId, eventId, requestBody: body }),
      eventId,
    );
    return true;
  }

  async truncateSeries(seriesId: string, lastDate: string): Promise<CalendarEvent> {
    if (!parseDate(lastDate)) throw invalid(`not a date: ${lastDate}`);
    const found = await this.fetch(seriesId);
    const master = found?.recurringEventId ? await this.fetch(found.recurringEventId) : found;
    if (!master?.id) throw notFound(seriesId);
    const base = await this.inputOf(master);
    if (unreadableRule(master, base)) throw cannotChangeRule();
    if (!base.recurrence) throw invalid("only a recurring series can be ended");
    const until =
      base.recurrence.until && base.recurrence.until < lastDate ? base.recurrence.until : lastDate;
    let next: CompleteEventInput;
    try {
      next = normalizeEventInput({ ...base, recurrence: { ...base.recurrence, until } }, base.attendees);
    } catch (error) {
      if (error instanceof CalendarRequestError) throw invalid("the series would have no occurrence left");
      throw error;
    }
    return this.patched(master.id, { recurrence: recurrenceWith(master.recurrence, next) });
  }

  async listInstances(seriesId: string, range: TimeRange): Promise<CalendarEvent[]> {
    const { fromMs, toMs } = rangeBounds(range);
    const found = await this.fetch(seriesId);
    const master = found?.recurringEventId ? await this.fetch(found.recurringEventId) : found;
    if (!master?.id) throw notFound(seriesId);
    if (!master.recurrence?.length) return this.toEvents([master], fromMs, toMs);
    const masterId = master.id;
    const items = await this.pages((api, pageToken) =>
      api.events.instances({
        calendarId: this.calendarId,
        eventId: masterId,
        timeMin: new Date(fromMs).toISOString(),
        timeMax: new Date(toMs).toISOString(),
        maxResults: this.options.pageSize ?? 250,
        ...(pageToken ? { pageToken } : {}),
      }),
    );
    return this.toEvents(items, fromMs, toMs);
  }

  /** The client for this user; Google refusing the tokens marks the connection lost. */
  private async client(): Promise<calendar_v3.Calendar> {
    if (this.api) return this.api;
    const auth = await this.options.google.clientFor(this.options.phone);
    if (!auth) throw new GoogleConnectionLostError(this.options.phone);
    this.api = calendar({
      version: "v3",
      auth,
      rootUrl: this.options.google.apiRootUrl,
      // A hanging request ends, and is not tried again: the user hears "try again" instead of waiting.
      // (An answered 5xx to a read is still retried by gaxios, each try under the same limit.)
      timeout: this.options.timeoutMs ?? GOOGLE_TIMEOUT_MS,
      retryConfig: { noResponseRetries: 0 },
    });
    return this.api;
  }

  /**
   * Runs a request, turning Google's answers into the contract's errors: a refused refresh token
   * (invalid_grant) marks the connection lost; 404 and 410 are "not found"; 400 is "invalid"; any
   * other answer (403, 429, 5xx) or none at all (a timeout, a network error) is "unavailable".
   */
  private async call<T>(work: (api: calendar_v3.Calendar) => Promise<T>, id?: string): Promise<T> {
    const api = await this.client();
    try {
      return await work(api);
    } catch (error) {
      if (isInvalidGrant(error)) {
        await this.options.google.markLost(this.options.phone);
        this.options.logger?.warn(
          { event: "GOOGLE_CONNECTION_LOST", capability: "calendar" },
          "Google refused the tokens",
        );
        throw new GoogleConnectionLostError(this.options.phone);
      }
      const status = statusOf(error);
      if (status === 404 || status === 410) throw notFound(id ?? "");
      if (status === 400) {
        throw invalid(
          `Google refused the request: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      // Only the status goes on: gaxios' error carries the request, the event's title and place included.
      if (status !== undefined || isRequestError(error)) {
        throw new CalendarRequestError(
          "unavailable",
          status !== undefined ? `Google Calendar answered ${status}` : "Google Calendar did not answer",
        );
      }
      throw error;
    }
  }

  /** The raw event (or instance) by id; null when Google has none or it was deleted. */
  private async fetch(id: string): Promise<GoogleEvent | null> {
    if (!id) return null;
    try {
      const event = await this.call(
        async (api) => (await api.events.get({ calendarId: this.calendarId, eventId: id })).data,
        id,
      );
      return event.status === "cancelled" ? null : event;
    } catch (error) {
      if (error instanceof CalendarRequestError && error.code === "not_found") return null;
      throw error;
    }
  }

  private async patched(id: string, body: GoogleEvent): Promise<CalendarEvent> {
    const event = await this.call(
      async (api) =>
        (
          await api.events.patch({
            calendarId: this.calendarId,
            eventId: id,
            requestBody: body,
            // Only a change of who is invited e-mails them.
            ...(body.attendees !== undefined ? sendUpdatesFor(body) : {}),
          })
        ).data,
      id,
    );
    return (await this.toEvents([event]))[0]!;
  }

  /** Every item of a paged listing (at most maxPages pages). */
  private async pages(
    list: (
      api: calendar_v3.Calendar,
      pageToken: string | undefined,
    ) => Promise<{
      data: { items?: GoogleEvent[]; nextPageToken?: string | null; timeZone?: string | null };
    }>,
  ): Promise<GoogleEvent[]> {
    const items: GoogleEvent[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < (this.options.maxPages ?? 20); page++) {
      const { data } = await this.call((api) => list(api, pageToken));
      if (data.timeZone) this.calendarZone = data.timeZone;
      items.push(...(data.items ?? []));
      if (!data.nextPageToken) return items;
      pageToken = data.nextPageToken;
    }
    this.options.logger?.warn(
      { event: "CALENDAR_LIST_TRUNCATED", capability: "calendar" },
      "listing cut short",
    );
    return items;
  }

  /** The calendar's own zone (for all-day events that name none). */
  private async zone(): Promise<string> {
    this.calendarZone ??=
      (await this.call(async (api) => (await api.calendars.get({ calendarId: this.calendarId })).data))
        .timeZone ?? "UTC";
    return this.calendarZone;
  }

  /** An event's fields as an input (its series' rule for an instance is not included). */
  private async inputOf(event: GoogleEvent): Promise<CompleteEventInput> {
    const timeZone = event.start?.timeZone ?? (await this.zone());
    const allDay = Boolean(event.start?.date);
    const instant = (value: string | null | undefined) => new Date(Date.parse(value ?? "")).toISOString();
    const overrides = event.reminders?.useDefault ? [] : (event.reminders?.overrides ?? []);
    const reminder = overrides.find((o) => o.method === "popup") ?? overrides[0];
    return {
      summary: event.summary ?? "",
      description: event.description ?? null,
      location: event.location ?? null,
      allDay,
      start: allDay ? event.start!.date! : instant(event.start?.dateTime),
      end: allDay
        ? (event.end?.date ?? event.start!.date!)
        : instant(event.end?.dateTime ?? event.start?.dateTime),
      timeZone,
      recurrence: parseRRule(event.recurrence, timeZone),
      reminderMinutesBefore: typeof reminder?.minutes === "number" ? reminder.minutes : null,
      // The calendar's owner is not someone the event is with; an empty name is none (Google sends "").
      attendees: (event.attendees ?? [])
        .filter((a) => a.self !== true)
        .map((a) => ({ name: a.displayName?.trim() || null, email: a.email?.trim().toLowerCase() || null }))
        .filter((a) => a.name !== null || a.email !== null),
    };
  }

  /**
   * Google events as CalendarEvents, cancelled ones left out, each instance carrying its series'
   * rule (read once per series); with a range, only those overlapping it.
   */
  private async toEvents(items: GoogleEvent[], fromMs?: number, toMs?: number): Promise<CalendarEvent[]> {
    const rules = new Map<string, CompleteEventInput["recurrence"]>();
    const events: CalendarEvent[] = [];
    for (const item of items) {
      if (item.status === "cancelled" || !item.id) continue;
      const input = await this.inputOf(item);
      let seriesId: string | null = null;
      if (item.recurringEventId) {
        seriesId = item.recurringEventId;
        if (!rules.has(seriesId)) {
          const master = await this.fetch(seriesId);
          rules.set(seriesId, master ? parseRRule(master.recurrence, input.timeZone) : null);
        }
        input.recurrence = rules.get(seriesId) ?? null;
      } else if (item.recurrence?.length) {
        seriesId = item.id;
      }
      const event: CalendarEvent = { id: item.id, seriesId, ...input };
      if (fromMs !== undefined && toMs !== undefined) {
        const { startMs, endMs } = spanOf(event);
        if (!overlaps(startMs, endMs, fromMs, toMs)) continue;
      }
      events.push(event);
    }
    return events;
  }
}
