import type { calendar_v3 } from "@googleapis/calendar";
import { OAuth2Client } from "google-auth-library";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GoogleCalendar, googleEventId } from "../../../src/services/calendar/googleCalendar.js";
import { CalendarRequestError } from "../../../src/services/calendar/calendarRequestError.js";
import { GoogleConnectionLostError, type GoogleAccounts } from "../../../src/services/google/types.js";
import { FakeGoogleCalendar } from "../../support/fakeGoogleCalendar.js";
import { calendarProviderContract, jlm, ZONE } from "./calendarContract.js";

/** Google access as the OAuth helper gives it: an authorized client per phone; what was marked lost. */
function fakeAccounts(
  google: FakeGoogleCalendar,
  clientFor: (phone: string) => OAuth2Client = (phone) => {
    const client = new OAuth2Client();
    client.setCredentials({ access_token: `token-${phone}` });
    return client;
  },
): GoogleAccounts & { lost: string[] } {
  const lost: string[] = [];
  return {
    configured: true,
    apiRootUrl: google.rootUrl,
    lost,
    status: () => Promise.resolve("connected"),
    clientFor: (phone) => Promise.resolve(clientFor(phone)),
    markLost: (phone) => {
      lost.push(phone);
      return Promise.resolve(lost.length === 1);
    },
  };
}

calendarProviderContract("GoogleCalendar against the Calendar v3 stand-in", {
  sharedStore: true,
  async open() {
    const google = await FakeGoogleCalendar.start({ timeZone: ZONE });
    const accounts = fakeAccounts(google);
    return {
      providerFor: (phone) => Promise.resolve(new GoogleCalendar({ google: accounts, phone, pageSize: 3 })),
      close: () => google.close(),
    };
  },
});

describe("GoogleCalendar: what Memo sends to Google", () => {
  let google: FakeGoogleCalendar;
  let accounts: ReturnType<typeof fakeAccounts>;
  const phone = "972501234567";
  const calendarFor = () => new GoogleCalendar({ google: accounts, phone });

  beforeAll(async () => {
    google = await FakeGoogleCalendar.start({ timeZone: ZONE });
    accounts = fakeAccounts(google);
  });
  afterAll(async () => google?.close());

  it("inserts a weekly series with its RRULE, zone, reminder override and the operation's id", async () => {
    const before = google.requests.length;
    await calendarFor().createEvent(
      {
        summary: "Standup",
        allDay: false,
        start: jlm("2026-04-06 09:00"),
        end: jlm("2026-04-06 09:15"),
        timeZone: ZONE,
        recurrence: { frequency: "weekly", days: [0, 2], interval: 2, until: "2026-06-30" },
        reminderMinutesBefore: 10,
      },
      "op-standup",
    );
    const insert = google.requests.slice(before).find((r) => r.method === "POST")!;
    expect(insert.path).toBe("/calendar/v3/calendars/primary/events");
    expect(insert.authorization).toBe(`Bearer token-${phone}`);
    expect(insert.body).toMatchObject({
      id: googleEventId(phone, "op-standup"),
      summary: "Standup",
      // The series starts on its first matching day: Tuesday the 7th (the 6th is a Monday).
      start: { dateTime: "2026-04-07T06:00:00.000Z", timeZone: ZONE },
      end: { dateTime: "2026-04-07T06:15:00.000Z", timeZone: ZONE },
      // UNTIL: the last second of 30 June in Jerusalem (+03), in UTC.
      recurrence: ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,TU;WKST=SU;UNTIL=20260630T205959Z"],
      reminders: { useDefault: false, overrides: [{ method: "popup", minutes: 10 }] },
    });
    expect(googleEventId(phone, "op-standup")).toMatch(/^[a-v0-9]{5,1024}$/);
  });

  it("sends an all-day trip as dates with an exclusive end, and the default reminders when none is asked", async () => {
    const before = google.requests.length;
    const trip = await calendarFor().createEvent(
      { summary: "טיול לאילת", allDay: true, start: "2026-05-10", end: "2026-05-13", timeZone: ZONE },
      "op-trip",
    );
    const insert = google.requests.slice(before).find((r) => r.method === "POST")!;
    expect(insert.body).toMatchObject({
      summary: "טיול לאילת",
      start: { date: "2026-05-10" },
      end: { date: "2026-05-13" },
      reminders: { useDefault: true },
    });
    expect((insert.body as { recurrence?: unknown }).recurrence).toBeUndefined();
    expect(trip).toMatchObject({
      allDay: true,
      start: "2026-05-10",
      end: "2026-05-13",
      reminderMinutesBefore: null,
    });
  });

  it("lists with singleEvents, orderBy startTime, the range and the query", async () => {
    const before = google.requests.length;
    await calendarFor().listEvents(
      { from: jlm("2026-04-06 00:00"), to: jlm("2026-04-13 00:00") },
      { query: "Standup" },
    );
    const list = google.requests.slice(before).find((r) => r.method === "GET" && r.path.endsWith("/events"))!;
    expect(list.query).toMatchObject({
      singleEvents: "true",
      orderBy: "startTime",
      timeMin: "2026-04-05T21:00:00.000Z",
      timeMax: "2026-04-12T21:00:00.000Z",
      q: "Standup",
    });
  });

  it("writes a yearly and an nth-weekday rule as their RRULE text and reads them back equal", async () => {
    const calendar = calendarFor();
    const birthday = { frequency: "yearly", rule: "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=10" } as const;
    const brunch = { frequency: "monthly", rule: "FREQ=MONTHLY;BYDAY=1SU", until: "2026-12-31" } as const;
    const cases = [
      {
        input: { summary: "Mom birthday", allDay: true, start: "2026-05-10", end: "2026-05-11" },
        recurrence: birthday,
        line: "RRULE:FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=10",
      },
      {
        input: {
          summary: "Family brunch",
          allDay: false,
          start: jlm("2026-04-05 10:00"),
          end: jlm("2026-04-05 12:00"),
        },
        recurrence: brunch,
        // UNTIL: the last second of 31 December in Jerusalem (+02), in UTC.
        line: "RRULE:FREQ=MONTHLY;BYDAY=1SU;UNTIL=20261231T215959Z",
      },
    ];
    for (const [i, { input, recurrence, line }] of cases.entries()) {
      const before = google.requests.length;
      const created = await calendar.createEvent(
        { ...input, timeZone: ZONE, recurrence: { ...recurrence } },
        `op-rule-${i}`,
      );
      const insert = google.requests.slice(before).find((r) => r.method === "POST")!;
      expect((insert.body as { recurrence?: unknown }).recurrence).toEqual([line]);
      expect(created.recurrence).toEqual(recurrence);
      expect((await calendar.getEvent(created.id))?.recurrence).toEqual(recurrence);
    }
    const brunches = await calendar.listEvents(
      { from: jlm("2026-04-01 00:00"), to: jlm("2026-07-01 00:00") },
      { query: "brunch" },
    );
    expect(brunches.map((e) => [e.start, e.recurrence])).toEqual([
      [jlm("2026-04-05 10:00"), brunch],
      [jlm("2026-05-03 10:00"), brunch],
      [jlm("2026-06-07 10:00"), brunch],
    ]);
    const birthdays = await calendar.listEvents(
      { from: jlm("2026-01-01 00:00"), to: jlm("2029-01-01 00:00") },
      { query: "birthday" },
    );
    expect(birthdays.map((e) => e.start)).toEqual(["2026-05-10", "2027-05-10", "2028-05-10"]);
  });

  it("reads back a series made in Google's own UI, with BYDAY and a UTC UNTIL", async () => {
    // Inserted by "someone else" straight into the stand-in's calendar of a user of its own.
    const other = "972501234570";
    const client = new OAuth2Client();
    client.setCredentials({ access_token: `token-${other}` });
    await client.request({
      url: `${google.rootUrl}calendar/v3/calendars/primary/events`,
      method: "POST",
      data: {
        summary: "Choir",
        start: { dateTime: "2026-04-06T20:00:00+03:00", timeZone: ZONE },
        end: { dateTime: "2026-04-06T22:00:00+03:00", timeZone: ZONE },
        recurrence: ["RRULE:FREQ=WEEKLY;WKST=SU;UNTIL=20260427T205959Z;BYDAY=MO"],
      },
    });
    const events = await new GoogleCalendar({ google: accounts, phone: other }).listEvents({
      from: jlm("2026-04-01 00:00"),
      to: jlm("2026-06-01 00:00"),
    });
    expect(events.map((e) => e.start)).toEqual([
      "2026-04-06T17:00:00.000Z",
      "2026-04-13T17:00:00.000Z",
      "2026-04-20T17:00:00.000Z",
      "2026-04-27T17:00:00.000Z",
    ]);
    expect(events[0]!.recurrence).toEqual({ frequency: "weekly", days: [1], until: "2026-04-27" });
  });

  it("truncates a series by patching its RRULE's UNTIL", async () => {
    const calendar = calendarFor();
    const series = await calendar.createEvent(
      {
        summary: "Course",
        allDay: false,
        start: jlm("2026-04-06 19:00"),
        end: jlm("2026-04-06 21:00"),
        timeZone: ZONE,
        recurrence: { frequency: "weekly", count: 10 },
      },
      "op-course",
    );
    const before = google.requests.length;
    await calendar.truncateSeries(series.id, "2026-04-20");
    const patch = google.requests.slice(before).find((r) => r.method === "PATCH")!;
    expect(patch.path).toBe(`/calendar/v3/calendars/primary/events/${series.id}`);
    // COUNT gives way to UNTIL (RFC 5545 allows one of them).
    expect(patch.body).toEqual({ recurrence: ["RRULE:FREQ=WEEKLY;UNTIL=20260420T205959Z"] });
  });

  it("answers 404 and 410 from Google as not found", async () => {
    const calendar = calendarFor();
    expect(await calendar.getEvent("abcdefghij")).toBeNull();
    const event = await calendar.createEvent(
      {
        summary: "Once",
        allDay: false,
        start: jlm("2026-04-10 10:00"),
        end: jlm("2026-04-10 11:00"),
        timeZone: ZONE,
      },
      "op-once",
    );
    await calendar.deleteEvent(event.id, "instance");
    // Google keeps a deleted event as "cancelled" (get) and answers 410 to deleting it again.
    expect(await calendar.getEvent(event.id)).toBeNull();
    const error = await calendar.deleteEvent(event.id, "instance").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalendarRequestError);
    expect((error as CalendarRequestError).code).toBe("not_found");
  });
});

describe("GoogleCalendar: a revoked refresh token", () => {
  let google: FakeGoogleCalendar;
  beforeAll(async () => {
    google = await FakeGoogleCalendar.start({ timeZone: ZONE });
  });
  afterAll(async () => google?.close());

  /** A client whose access token has expired, so the next request refreshes it at the stand-in. */
  const expiredClient = () => {
    const client = new OAuth2Client({
      clientId: "client-id",
      clientSecret: "client-secret",
      endpoints: { oauth2TokenUrl: google.tokenUrl },
    });
    client.setCredentials({
      access_token: "stale",
      refresh_token: "refresh-1",
      expiry_date: Date.now() - 60_000,
    });
    return client;
  };

  it("refreshes an expired access token and carries on", async () => {
    google.allowRefresh("refresh-1", "user-1");
    const accounts = fakeAccounts(google, expiredClient);
    const events = await new GoogleCalendar({ google: accounts, phone: "972501234568" }).listEvents({
      from: "2026-04-01T00:00:00Z",
      to: "2026-04-02T00:00:00Z",
    });
    expect(events).toEqual([]);
    expect(
      google.requests.some(
        (r) => r.path === "/token" && (r.body as { grant_type?: string }).grant_type === "refresh_token",
      ),
    ).toBe(true);
    expect(google.calendarRequests("GET").at(-1)?.authorization).toMatch(/^Bearer access-/);
    expect(accounts.lost).toEqual([]);
  });

  it("marks the connection lost and throws GoogleConnectionLostError on invalid_grant", async () => {
    google.revoke("refresh-1");
    const accounts = fakeAccounts(google, expiredClient);
    const calendar = new GoogleCalendar({ google: accounts, phone: "972501234569" });
    const before = google.calendarRequests().length;
    const error = await calendar
      .createEvent(
        {
          summary: "x",
          allDay: false,
          start: "2026-04-01T10:00:00Z",
          end: "2026-04-01T11:00:00Z",
          timeZone: ZONE,
        },
        "op-x",
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoogleConnectionLostError);
    expect((error as GoogleConnectionLostError).phone).toBe("972501234569");
    expect(accounts.lost).toEqual(["972501234569"]);
    // Nothing reached the Calendar API without a valid token.
    expect(google.calendarRequests().length).toBe(before);
  });
});

/** An event made outside Memo (Google's own UI, another app), inserted straight into `phone`'s calendar. */
async function insertRaw(
  google: FakeGoogleCalendar,
  phone: string,
  body: calendar_v3.Schema$Event,
): Promise<calendar_v3.Schema$Event> {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: `token-${phone}` });
  const { data } = await client.request<calendar_v3.Schema$Event>({
    url: `${google.rootUrl}calendar/v3/calendars/primary/events`,
    method: "POST",
    data: body,
  });
  return data;
}

describe("GoogleCalendar: editing a series keeps what Memo cannot say", () => {
  let google: FakeGoogleCalendar;
  let accounts: ReturnType<typeof fakeAccounts>;
  let users = 0;
  /** A user of their own for each test, so calendars do not mix. */
  const nextPhone = () => `97250555${String(++users).padStart(4, "0")}`;
  const lastPatch = () => google.calendarRequests("PATCH").at(-1);

  beforeAll(async () => {
    google = await FakeGoogleCalendar.start({ timeZone: ZONE });
    accounts = fakeAccounts(google);
  });
  afterAll(async () => google?.close());

  it("changes a yearly birthday's place without touching its rule or its reminders", async () => {
    const phone = nextPhone();
    const birthday = await insertRaw(google, phone, {
      summary: "Mom birthday",
      start: { date: "2020-05-10" },
      end: { date: "2020-05-11" },
      recurrence: ["RRULE:FREQ=YEARLY"],
      reminders: {
        useDefault: false,
        overrides: [
          { method: "email", minutes: 1440 },
          { method: "popup", minutes: 60 },
        ],
      },
    });
    await new GoogleCalendar({ google: accounts, phone }).updateEvent(
      birthday.id!,
      { location: "Haifa" },
      "series",
    );
    expect(lastPatch()?.body).toEqual({ location: "Haifa" });
    expect(google.storedEvents(`token-${phone}`)[0]).toMatchObject({
      location: "Haifa",
      recurrence: ["RRULE:FREQ=YEARLY"],
      reminders: { overrides: [{ method: "email" }, { method: "popup", minutes: 60 }] },
    });
  });

  it("renames a whole series from one of its occurrences with the title alone", async () => {
    const phone = nextPhone();
    const calendar = new GoogleCalendar({ google: accounts, phone });
    await insertRaw(google, phone, {
      summary: "Choir",
      start: { dateTime: "2026-04-06T20:00:00+03:00", timeZone: ZONE },
      end: { dateTime: "2026-04-06T22:00:00+03:00", timeZone: ZONE },
      recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO", "EXDATE;TZID=Asia/Jerusalem:20260413T200000"],
    });
    const [occurrence] = await calendar.listEvents({
      from: jlm("2026-04-20 00:00"),
      to: jlm("2026-04-21 00:00"),
    });
    await calendar.updateEvent(occurrence!.id, { summary: "Choir rehearsal" }, "series");
    expect(lastPatch()?.body).toEqual({ summary: "Choir rehearsal" });
  });

  it("replaces only the RRULE line when the rule changes, keeping EXDATE", async () => {
    const phone = nextPhone();
    const choir = await insertRaw(google, phone, {
      summary: "Choir",
      start: { dateTime: "2026-04-06T20:00:00+03:00", timeZone: ZONE },
      end: { dateTime: "2026-04-06T22:00:00+03:00", timeZone: ZONE },
      recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO", "EXDATE;TZID=Asia/Jerusalem:20260413T200000"],
      reminders: { useDefault: false, overrides: [{ method: "email", minutes: 30 }] },
    });
    await new GoogleCalendar({ google: accounts, phone }).updateEvent(
      choir.id!,
      { recurrence: { frequency: "weekly", days: [1], count: 5 } },
      "series",
    );
    expect(lastPatch()?.body).toEqual({
      recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=5", "EXDATE;TZID=Asia/Jerusalem:20260413T200000"],
    });
  });

  it("refuses to change a rule it cannot read, and sends nothing", async () => {
    const phone = nextPhone();
    // A fifth Monday is not in every month: the strict reader (the reminders' one) refuses it.
    const meeting = await insertRaw(google, phone, {
      summary: "Board meeting",
      start: { dateTime: "2026-03-30T10:00:00+03:00", timeZone: ZONE },
      end: { dateTime: "2026-03-30T11:00:00+03:00", timeZone: ZONE },
      recurrence: ["RRULE:FREQ=MONTHLY;BYDAY=5MO"],
    });
    const patches = google.calendarRequests("PATCH").length;
    const error = await new GoogleCalendar({ google: accounts, phone })
      .updateEvent(meeting.id!, { recurrence: { frequency: "weekly", days: [1] } }, "series")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalendarRequestError);
    expect((error as CalendarRequestError).code).toBe("invalid");
    expect(google.calendarRequests("PATCH")).toHaveLength(patches);
    expect(google.storedEvents(`token-${phone}`)[0]?.recurrence).toEqual(["RRULE:FREQ=MONTHLY;BYDAY=5MO"]);
    // Other changes still go through, the rule left as Google has it.
    await new GoogleCalendar({ google: accounts, phone }).updateEvent(
      meeting.id!,
      { location: "Room 4" },
      "series",
    );
    expect(lastPatch()?.body).toEqual({ location: "Room 4" });
    expect(google.storedEvents(`token-${phone}`)[0]?.recurrence).toEqual(["RRULE:FREQ=MONTHLY;BYDAY=5MO"]);
  });

  it("reads a first-Monday rule made in Google and changes it, keeping its EXDATE", async () => {
    const phone = nextPhone();
    const exdate = "EXDATE;TZID=Asia/Jerusalem:20260504T100000";
    const meeting = await insertRaw(google, phone, {
      summary: "Board meeting",
      start: { dateTime: "2026-04-06T10:00:00+03:00", timeZone: ZONE },
      end: { dateTime: "2026-04-06T11:00:00+03:00", timeZone: ZONE },
      recurrence: ["RRULE:FREQ=MONTHLY;BYDAY=1MO", exdate],
    });
    const calendar = new GoogleCalendar({ google: accounts, phone });
    expect((await calendar.getEvent(meeting.id!))?.recurrence).toEqual({
      frequency: "monthly",
      rule: "FREQ=MONTHLY;BYDAY=1MO",
    });
    await calendar.updateEvent(
      meeting.id!,
      { recurrence: { frequency: "monthly", rule: "FREQ=MONTHLY;BYDAY=-1MO" } },
      "series",
    );
    expect(lastPatch()?.body).toMatchObject({
      recurrence: ["RRULE:FREQ=MONTHLY;BYDAY=-1MO", exdate],
    });
  });

  it("ends an every-other-week series made in Google keeping its week start and its EXDATE", async () => {
    const phone = nextPhone();
    const calendar = new GoogleCalendar({ google: accounts, phone });
    const exdate = "EXDATE;TZID=Asia/Jerusalem:20260414T090000";
    const implicit = await insertRaw(google, phone, {
      summary: "Pilates",
      start: { dateTime: "2026-04-07T09:00:00+03:00", timeZone: ZONE },
      end: { dateTime: "2026-04-07T10:00:00+03:00", timeZone: ZONE },
      // No WKST: Google's (and RFC 5545's) default week start, Monday.
      recurrence: ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,TU", exdate],
    });
    await calendar.truncateSeries(implicit.id!, "2026-05-31");
    expect(lastPatch()?.body).toEqual({
      recurrence: ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,TU;UNTIL=20260531T205959Z", exdate],
    });
    const explicit = await insertRaw(google, phone, {
      summary: "Swim",
      start: { dateTime: "2026-04-07T07:00:00+03:00", timeZone: ZONE },
      end: { dateTime: "2026-04-07T08:00:00+03:00", timeZone: ZONE },
      recurrence: ["RRULE:FREQ=WEEKLY;WKST=MO;INTERVAL=2;BYDAY=SU,TU"],
    });
    await calendar.truncateSeries(explicit.id!, "2026-05-31");
    expect(lastPatch()?.body).toEqual({
      recurrence: ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,TU;WKST=MO;UNTIL=20260531T205959Z"],
    });
  });
});

describe("GoogleCalendar: Google not answering", () => {
  let google: FakeGoogleCalendar;
  const phone = "972501239999";
  beforeAll(async () => {
    google = await FakeGoogleCalendar.start({ timeZone: ZONE });
  });
  afterEach(() => google.setFault(null));
  afterAll(async () => google?.close());

  it("turns a 503 into CalendarRequestError('unavailable') naming only the status", async () => {
    const calendar = new GoogleCalendar({ google: fakeAccounts(google), phone });
    const event = await calendar.createEvent(
      {
        summary: "Secret surgery",
        allDay: false,
        start: jlm("2026-04-10 10:00"),
        end: jlm("2026-04-10 11:00"),
        timeZone: ZONE,
      },
      "op-surgery",
    );
    google.setFault({ method: "PATCH", status: 503 });
    const error = await calendar
      .updateEvent(event.id, { location: "Hidden clinic" }, "instance")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalendarRequestError);
    expect((error as CalendarRequestError).code).toBe("unavailable");
    expect((error as CalendarRequestError).message).toBe("Google Calendar answered 503");
    expect(JSON.stringify(error)).not.toMatch(/Secret surgery|Hidden clinic/);
  });

  it("gives up on a request Google leaves hanging after the timeout", async () => {
    const calendar = new GoogleCalendar({ google: fakeAccounts(google), phone, timeoutMs: 200 });
    google.setFault({ method: "GET", delayMs: 5_000 });
    const started = Date.now();
    const error = await calendar
      .listEvents({ from: jlm("2026-04-01 00:00"), to: jlm("2026-04-02 00:00") })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalendarRequestError);
    expect((error as CalendarRequestError).code).toBe("unavailable");
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
