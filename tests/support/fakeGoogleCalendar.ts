import { randomBytes } from "node:crypto";
import { OAuth2Client } from "google-auth-library";
import { GoogleCalendar, type GoogleCalendarOptions } from "../../src/services/calendar/googleCalendar.js";
import type { CalendarProviders } from "../../src/types/calendar.js";
import type { GoogleAccounts } from "../../src/services/google/types.js";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { calendar_v3 } from "@googleapis/calendar";
import { addDays, daysBetween, instantToLocal, type LocalDate, formatDate } from "../../src/nlu/zonedTime.js";
import { matchesQuery, spanOf } from "../../src/services/calendar/eventInput.js";
import {
  expandSeries,
  localDateOf,
  occurrenceOn,
  overlaps,
  parseDate,
  type Occurrence,
  type SeriesTiming,
} from "../../src/services/calendar/recurrenceExpansion.js";
import { basicDate, parseRRule, utcStamp } from "../../src/services/calendar/rrule.js";

/**
 * A local stand-in for the Google Calendar v3 endpoints Memo uses (events list / get / insert /
 * patch / delete / instances, calendars.get) and for Google's OAuth token endpoint, on 127.0.0.1.
 * The real `@googleapis/calendar` client talks to it through `rootUrl`. Each bearer token has a
 * calendar of its own (kept in memory); recurring events are expanded for `singleEvents=true`.
 * Every request is recorded, so tests can assert what Memo sent.
 *
 *   const google = await FakeGoogleCalendar.start({ timeZone: "Asia/Jerusalem" });
 *   ... calendar({ version: "v3", auth, rootUrl: google.rootUrl }) ...
 *   expect(google.requests.at(-1)?.body).toMatchObject({ recurrence: ["RRULE:FREQ=WEEKLY"] });
 *   await google.close();
 */

type GoogleEvent = calendar_v3.Schema$Event;

/** One request the stand-in answered. */
export interface RecordedCalendarRequest {
  method: string;
  /** The path without the query, e.g. "/calendar/v3/calendars/primary/events". */
  path: string;
  query: Record<string, string>;
  /** The Authorization header as sent. */
  authorization?: string;
  /** The JSON body (or, for the token endpoint, the form fields). */
  body: unknown;
}

interface StoredEvent {
  resource: GoogleEvent;
  /**
   * Original local date of an instance → what it changed on its own (status "cancelled" when
   * deleted). Kept by date, so that an instance that changed only its title follows the series
   * when the series moves (as the built-in calendar does).
   */
  exceptions: Map<string, GoogleEvent>;
}

/** What the stand-in does instead of answering Calendar requests (of one method, when named). */
export interface CalendarFault {
  method?: string;
  /** Answer this HTTP status (503: Google is down for a moment). */
  status?: number;
  /** Answer nothing for this many milliseconds (a hanging Google). */
  delayMs?: number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason = "error",
  ) {
    super(message);
  }
}

const ID = /^[a-v0-9]{5,1024}$/;
const BASE32HEX = "0123456789abcdefghijklmnopqrstuv";

function newId(): string {
  return [...randomBytes(26)].map((b) => BASE32HEX[b & 31]).join("");
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Google's patch semantics: objects merge, arrays and scalars replace, null clears. */
function mergePatch(
  target: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isObject(value) && isObject(out[key])) out[key] = mergePatch(out[key], value);
    else out[key] = value;
  }
  return out;
}

/** An RFC 3339 time with the zone's offset, as Google writes dateTime ("2026-04-06T09:00:00+03:00"). */
function rfc3339(epochMs: number, timeZone: string): string {
  const local = instantToLocal(epochMs, timeZone);
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  const offset = Math.round((wall - Math.floor(epochMs / 60_000) * 60_000) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const pad = (n: number) => String(Math.abs(n)).padStart(2, "0");
  const seconds = pad(Math.floor((epochMs % 60_000) / 1000));
  return `${formatDate(local)}T${pad(local.hour)}:${pad(local.minute)}:${seconds}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

/** A series' first local date. */
function firstDate(timing: SeriesTiming): LocalDate {
  return timing.allDay ? parseDate(timing.start)! : localDateOf(Date.parse(timing.start), timing.timeZone);
}

export class FakeGoogleCalendar {
  /** Every request answered, in order. */
  readonly requests: RecordedCalendarRequest[] = [];
  /** Bearer token → the calendar it opens (default: a calendar named after the token). */
  private readonly tokenCalendars = new Map<string, string>();
  /** Refresh token → the calendar its access tokens open; refused ones answer invalid_grant. */
  private readonly refreshTokens = new Map<string, string>();
  private readonly revoked = new Set<string>();
  private readonly calendars = new Map<string, Map<string, StoredEvent>>();
  private fault: CalendarFault | null = null;

  private constructor(
    private readonly server: Server,
    readonly rootUrl: string,
    /** The calendars' own zone (calendars.get, and all-day events that name none). */
    readonly timeZone: string,
  ) {}

  /** Starts the stand-in on a free port of 127.0.0.1. */
  static async start(options: { timeZone?: string } = {}): Promise<FakeGoogleCalendar> {
    const holder: { fake?: FakeGoogleCalendar } = {};
    const server = createServer((req, res) => void holder.fake!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeGoogleCalendar(
      server,
      `http://127.0.0.1:${port}/`,
      options.timeZone ?? "Asia/Jerusalem",
    );
    holder.fake = fake;
    return fake;
  }

  /** The OAuth token endpoint (for OAuth2Client's `endpoints.oauth2TokenUrl`). */
  get tokenUrl(): string {
    return `${this.rootUrl}token`;
  }

  /** Lets `refreshToken` be exchanged for access tokens to `calendar`'s events. */
  allowRefresh(refreshToken: string, calendar: string): void {
    this.refreshTokens.set(refreshToken, calendar);
  }

  /** From now on, refreshing with `refreshToken` answers invalid_grant (the user revoked access). */
  revoke(refreshToken: string): void {
    this.revoked.add(refreshToken);
  }

  /** The stored events (series as series, with their instances' changes) of the calendar a token opens. */
  storedEvents(token: string): GoogleEvent[] {
    return [...(this.calendars.get(this.tokenCalendars.get(token) ?? token)?.values() ?? [])].map(
      (e) => e.resource,
    );
  }

  /**
   * Puts an event in the calendar a token opens as Google would keep it, without a request (an
   * event made in Google Calendar itself: guests Memo never wrote, the owner's own entry).
   */
  addEvent(token: string, event: GoogleEvent): GoogleEvent {
    const key = this.tokenCalendars.get(token) ?? token;
    const events = this.calendars.get(key) ?? new Map<string, StoredEvent>();
    this.calendars.set(key, events);
    return this.insert(events, event);
  }

  /** From now on, Calendar requests (of `fault.method`, when given) get the fault; null: answered again. */
  setFault(fault: CalendarFault | null): void {
    this.fault = fault;
  }

  /** Requests to the Calendar API (the token endpoint left out), optionally of one method. */
  calendarRequests(method?: string): RecordedCalendarRequest[] {
    return this.requests.filter((r) => r.path.startsWith("/calendar/") && (!method || r.method === method));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((e) => (e ? reject(e) : resolve())));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.rootUrl);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const isForm = (req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded");
    let body: unknown;
    try {
      body = raw === "" ? undefined : isForm ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw);
    } catch {
      body = raw;
    }
    this.requests.push({
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      body,
    });
    const fault = this.fault;
    if (url.pathname.startsWith("/calendar/") && fault && (!fault.method || fault.method === req.method)) {
      if (fault.delayMs) {
        await new Promise<void>((resolve) => setTimeout(resolve, fault.delayMs).unref());
        if (res.destroyed) return;
      }
      if (fault.status) {
        res.writeHead(fault.status, { "content-type": "application/json; charset=UTF-8" }).end(
          JSON.stringify({
            error: {
              code: fault.status,
              message: "The service is currently unavailable.",
              errors: [{ domain: "global", reason: "backendError", message: "Backend Error" }],
            },
          }),
        );
        return;
      }
    }
    try {
      if (url.pathname === "/token" && req.method === "POST") {
        this.token(res, body as Record<string, string>);
        return;
      }
      const answer = this.route(req.method ?? "GET", url, body, req.headers.authorization);
      if (answer === undefined) {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json; charset=UTF-8" }).end(JSON.stringify(answer));
    } catch (error) {
      const e = error instanceof HttpError ? error : new HttpError(500, String(error), "backendError");
      res.writeHead(e.status, { "content-type": "application/json; charset=UTF-8" }).end(
        JSON.stringify({
          error: {
            code: e.status,
            message: e.message,
            errors: [{ domain: "global", reason: e.reason, message: e.message }],
          },
        }),
      );
    }
  }

  /** Google's token endpoint, refresh grants only. */
  private token(res: ServerResponse, form: Record<string, string>): void {
    const refresh = form?.refresh_token ?? "";
    const calendar = this.refreshTokens.get(refresh);
    if (form?.grant_type !== "refresh_token" || !calendar || this.revoked.has(refresh)) {
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(
          JSON.stringify({ error: "invalid_grant", error_description: "Token has been expired or revoked." }),
        );
      return;
    }
    const accessToken = `access-${newId().slice(0, 12)}`;
    this.tokenCalendars.set(accessToken, calendar);
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        access_token: accessToken,
        expires_in: 3599,
        token_type: "Bearer",
        scope: "calendar",
      }),
    );
  }

  private route(method: string, url: URL, body: unknown, authorization: string | undefined): unknown {
    const token = /^Bearer (.+)$/.exec(authorization ?? "")?.[1];
    if (!token)
      throw new HttpError(401, "Request is missing required authentication credential.", "required");
    const key = this.tokenCalendars.get(token) ?? token;
    const events = this.calendars.get(key) ?? new Map<string, StoredEvent>();
    this.calendars.set(key, events);

    const match = /^\/calendar\/v3\/calendars\/([^/]+)(?:\/events(?:\/([^/]+)(\/instances)?)?)?$/.exec(
      url.pathname,
    );
    if (!match || decodeURIComponent(match[1]!) !== "primary")
      throw new HttpError(404, "Not Found", "notFound");
    const isEvents = url.pathname.includes("/events");
    const eventId = match[2] ? decodeURIComponent(match[2]) : undefined;
    const q = url.searchParams;

    if (!isEvents && method === "GET")
      return { kind: "calendar#calendar", id: "primary", timeZone: this.timeZone };
    if (isEvents && !eventId && method === "GET") return this.list(events, q);
    if (isEvents && !eventId && method === "POST") return this.insert(events, body);
    if (eventId && match[3] && method === "GET") return this.instances(events, eventId, q);
    if (eventId && method === "GET") return this.get(events, eventId);
    if (eventId && method === "PATCH") return this.patch(events, eventId, body);
    if (eventId && method === "DELETE") return this.delete(events, eventId);
    throw new HttpError(404, "Not Found", "notFound");
  }

  private insert(events: Map<string, StoredEvent>, input: unknown): GoogleEvent {
    if (!isObject(input)) throw new HttpError(400, "Bad Request", "badRequest");
    const body = input as GoogleEvent;
    const id = body.id ?? newId();
    if (!ID.test(id)) throw new HttpError(400, "Invalid resource id value.", "invalid");
    if (events.has(id)) throw new HttpError(409, "The requested identifier already exists.", "duplicate");
    const resource = this.checked({
      kind: "calendar#event",
      status: "confirmed",
      reminders: { useDefault: true },
      ...body,
      id,
      created: new Date().toISOString(),
      updated: new Date().toISOString(),
    });
    events.set(id, { resource, exceptions: new Map() });
    return resource;
  }

  /** An event as Google would keep it: start and end of one kind, nulls dropped. */
  private checked(event: GoogleEvent): GoogleEvent {
    const clean = mergePatch({}, event as Record<string, unknown>) as GoogleEvent;
    for (const side of [clean.start, clean.end]) {
      if (!side || Boolean(side.date) === Boolean(side.dateTime)) {
        throw new HttpError(400, "Invalid start or end time.", "invalid");
      }
    }
    if (Boolean(clean.start!.date) !== Boolean(clean.end!.date)) {
      throw new HttpError(400, "Start and end must both be dates or both be date-times.", "invalid");
    }
    return clean;
  }

  private get(events: Map<string, StoredEvent>, id: string): GoogleEvent {
    const direct = events.get(id);
    if (direct) return direct.resource;
    const found = this.instanceById(events, id);
    if (!found) throw new HttpError(404, "Not Found", "notFound");
    return found.instance;
  }

  private patch(events: Map<string, StoredEvent>, id: string, input: unknown): GoogleEvent {
    if (!isObject(input)) throw new HttpError(400, "Bad Request", "badRequest");
    const body = input as GoogleEvent;
    const direct = events.get(id);
    if (direct) {
      // As Google does, a deleted event stays "cancelled" and a patch with status "confirmed" restores it.
      if (direct.resource.status === "cancelled" && body.status !== "confirmed")
        throw new HttpError(410, "Resource has been deleted", "deleted");
      const before = this.timingOf(direct.resource);
      direct.resource = this.checked({
        ...(mergePatch(
          direct.resource as Record<string, unknown>,
          body as Record<string, unknown>,
        ) as GoogleEvent),
        updated: new Date().toISOString(),
      });
      const after = this.timingOf(direct.resource);
      // A series moved by whole days takes its instances' changes along.
      const shift = before && after ? daysBetween(firstDate(before), firstDate(after)) : 0;
      if (shift !== 0) {
        direct.exceptions = new Map(
          [...direct.exceptions].map(([date, delta]) => [
            formatDate(addDays(parseDate(date)!, shift)),
            delta,
          ]),
        );
      }
      return direct.resource;
    }
    const found = this.instanceById(events, id);
    if (!found || (found.instance.status === "cancelled" && body.status !== "confirmed"))
      throw new HttpError(404, "Not Found", "notFound");
    const { recurrence: _recurrence, ...changes } = body;
    const delta = mergePatch(
      (found.stored.exceptions.get(found.date) ?? {}) as Record<string, unknown>,
      changes,
    );
    const updated = this.checked(mergePatch(found.instance as Record<string, unknown>, delta));
    found.stored.exceptions.set(found.date, delta);
    return updated;
  }

  private delete(events: Map<string, StoredEvent>, id: string): undefined {
    const direct = events.get(id);
    if (direct) {
      if (direct.resource.status === "cancelled")
        throw new HttpError(410, "Resource has been deleted", "deleted");
      direct.resource = { ...direct.resource, status: "cancelled" };
      return undefined;
    }
    const found = this.instanceById(events, id);
    if (!found) throw new HttpError(404, "Not Found", "notFound");
    if (found.instance.status === "cancelled")
      throw new HttpError(410, "Resource has been deleted", "deleted");
    found.stored.exceptions.set(found.date, {
      ...found.stored.exceptions.get(found.date),
      status: "cancelled",
    });
    return undefined;
  }

  private list(events: Map<string, StoredEvent>, q: URLSearchParams): unknown {
    if (q.get("orderBy") === "startTime" && q.get("singleEvents") !== "true") {
      throw new HttpError(
        400,
        "The requested ordering is not available for the particular query.",
        "invalid",
      );
    }
    const { fromMs, toMs } = this.range(q);
    const items: GoogleEvent[] = [];
    for (const stored of events.values()) {
      if (stored.resource.status === "cancelled") continue;
      if (q.get("singleEvents") === "true" && this.timingOf(stored.resource)?.recurrence) {
        items.push(...this.expand(stored, fromMs, toMs));
      } else if (this.overlapsRange(stored.resource, fromMs, toMs)) {
        items.push(stored.resource);
      }
    }
    const query = q.get("q") ?? undefined;
    const found = items
      .filter((e) =>
        matchesQuery(
          { summary: e.summary ?? "", description: e.description ?? null, location: e.location ?? null },
          query,
        ),
      )
      .sort((a, b) => this.startMs(a) - this.startMs(b));
    return this.page(found, q, { kind: "calendar#events", timeZone: this.timeZone });
  }

  private instances(events: Map<string, StoredEvent>, id: string, q: URLSearchParams): unknown {
    const stored = events.get(id);
    if (!stored || stored.resource.status === "cancelled") throw new HttpError(404, "Not Found", "notFound");
    const { fromMs, toMs } = this.range(q);
    const found = this.timingOf(stored.resource)?.recurrence
      ? this.expand(stored, fromMs, toMs)
      : this.overlapsRange(stored.resource, fromMs, toMs)
        ? [stored.resource]
        : [];
    return this.page(found, q, { kind: "calendar#events", timeZone: this.timeZone });
  }

  private page(items: GoogleEvent[], q: URLSearchParams, envelope: Record<string, unknown>): unknown {
    const size = Math.min(Number(q.get("maxResults") ?? 250), 2500);
    const offset = Number(q.get("pageToken") ?? 0);
    const next = offset + size < items.length ? String(offset + size) : undefined;
    return {
      ...envelope,
      items: items.slice(offset, offset + size),
      ...(next ? { nextPageToken: next } : {}),
    };
  }

  private range(q: URLSearchParams): { fromMs: number; toMs: number } {
    const fromMs = q.get("timeMin") ? Date.parse(q.get("timeMin")!) : Date.parse("2000-01-01T00:00:00Z");
    const toMs = q.get("timeMax") ? Date.parse(q.get("timeMax")!) : fromMs + 2 * 365 * 86_400_000;
    if (!Number.isFinite(fromMs) || !Number.isFinite(toMs))
      throw new HttpError(400, "Bad Request", "badRequest");
    return { fromMs, toMs };
  }

  private zoneOf(event: GoogleEvent): string {
    return event.start?.timeZone ?? this.timeZone;
  }

  private spanOf(event: GoogleEvent): { startMs: number; endMs: number } {
    const allDay = Boolean(event.start?.date);
    return spanOf({
      allDay,
      start: allDay ? event.start!.date! : event.start!.dateTime!,
      end: allDay ? event.end!.date! : event.end!.dateTime!,
      timeZone: this.zoneOf(event),
    });
  }

  private startMs(event: GoogleEvent): number {
    return this.spanOf(event).startMs;
  }

  private overlapsRange(event: GoogleEvent, fromMs: number, toMs: number): boolean {
    const { startMs, endMs } = this.spanOf(event);
    return overlaps(startMs, endMs, fromMs, toMs);
  }

  /** A series' timing, or null when the event does not recur (or its rule is beyond this stand-in). */
  private timingOf(event: GoogleEvent): SeriesTiming | null {
    const timeZone = this.zoneOf(event);
    const recurrence = parseRRule(event.recurrence, timeZone);
    if (!recurrence) return null;
    const allDay = Boolean(event.start?.date);
    return {
      allDay,
      start: allDay ? event.start!.date! : new Date(event.start!.dateTime!).toISOString(),
      end: allDay ? event.end!.date! : new Date(event.end!.dateTime!).toISOString(),
      timeZone,
      recurrence,
    };
  }

  /** Google's instance id: the series id and the original start (a date, or a UTC time). */
  private instanceId(master: GoogleEvent, occurrence: Occurrence): string {
    return `${master.id}_${master.start?.date ? basicDate(occurrence.date) : utcStamp(occurrence.startMs)}`;
  }

  /** One occurrence as Google shows it, before any change of its own. */
  private instanceOf(master: GoogleEvent, occurrence: Occurrence): GoogleEvent {
    const { recurrence: _recurrence, ...fields } = master;
    const zone = this.zoneOf(master);
    const when = (value: string, ms: number) =>
      master.start?.date
        ? { date: value, timeZone: master.start.timeZone }
        : { dateTime: rfc3339(ms, zone), timeZone: zone };
    return {
      ...fields,
      id: this.instanceId(master, occurrence),
      recurringEventId: master.id,
      originalStartTime: when(occurrence.start, occurrence.startMs),
      start: when(occurrence.start, occurrence.startMs),
      end: when(occurrence.end, occurrence.endMs),
    };
  }

  /** The instance an id names, with its own changes; null when the series has no such occurrence. */
  private instanceById(
    events: Map<string, StoredEvent>,
    id: string,
  ): { stored: StoredEvent; date: string; instance: GoogleEvent } | null {
    const match = /^([a-v0-9]+)_(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(id);
    if (!match) return null;
    const [, masterId, y, mo, d, h, mi, sec] = match;
    const stored = events.get(masterId!);
    if (!stored || stored.resource.status === "cancelled") return null;
    const timing = this.timingOf(stored.resource);
    if (!timing) return null;
    const date =
      h === undefined
        ? `${y}-${mo}-${d}`
        : formatDate(localDateOf(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi!, +sec!), timing.timeZone));
    const occurrence = occurrenceOn(timing, date);
    if (!occurrence || this.instanceId(stored.resource, occurrence) !== id) return null;
    return { stored, date, instance: this.withChanges(stored, occurrence) };
  }

  /** An occurrence with its own changes applied. */
  private withChanges(stored: StoredEvent, occurrence: Occurrence): GoogleEvent {
    const instance = this.instanceOf(stored.resource, occurrence);
    const delta = stored.exceptions.get(occurrence.date);
    return delta
      ? mergePatch(instance as Record<string, unknown>, delta as Record<string, unknown>)
      : instance;
  }

  /** A series' instances overlapping the range, changed ones as changed, cancelled ones left out. */
  private expand(stored: StoredEvent, fromMs: number, toMs: number): GoogleEvent[] {
    const timing = this.timingOf(stored.resource)!;
    const seen = new Set<string>();
    const out: GoogleEvent[] = [];
    for (const occurrence of expandSeries(timing, fromMs, toMs)) {
      seen.add(occurrence.date);
      const instance = this.withChanges(stored, occurrence);
      if (instance.status !== "cancelled" && this.overlapsRange(instance, fromMs, toMs)) out.push(instance);
    }
    // Instances moved into the range from a date outside it.
    for (const [date, delta] of stored.exceptions) {
      if (seen.has(date) || delta.status === "cancelled" || !delta.start) continue;
      const occurrence = occurrenceOn(timing, date);
      if (!occurrence) continue;
      const instance = this.withChanges(stored, occurrence);
      if (this.overlapsRange(instance, fromMs, toMs)) out.push(instance);
    }
    return out;
  }
}

/** Google connections for every phone at a stand-in's root URL, each with the token `token-<phone>`. */
export function connectedAccounts(apiRootUrl: string): GoogleAccounts {
  return {
    configured: true,
    apiRootUrl,
    status: () => Promise.resolve("connected"),
    clientFor: (phone) => {
      const client = new OAuth2Client();
      client.setCredentials({ access_token: `token-${phone}` });
      return Promise.resolve(client);
    },
    markLost: () => Promise.resolve(true),
  };
}

/** Every user connected to the stand-in, each with a token of their own (and `options`, such as a timeout). */
export function googleProviders(
  stand: FakeGoogleCalendar,
  options: Partial<GoogleCalendarOptions> = {},
): CalendarProviders {
  const accounts = connectedAccounts(stand.rootUrl);
  return {
    forUser: (phone) => Promise.resolve(new GoogleCalendar({ google: accounts, phone, ...options })),
  };
}
