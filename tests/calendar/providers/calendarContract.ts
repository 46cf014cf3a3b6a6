import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localToInstant } from "../../../src/nlu/zonedTime.js";
import { CalendarRequestError } from "../../../src/services/calendar/calendarRequestError.js";
import { type CalendarEvent, type CalendarProvider, type EventInput } from "../../../src/types/calendar.js";

/**
 * The calendar contract (src/types/calendar.ts), run against every provider: the built-in
 * calendar on each database backend, and Google Calendar against the local stand-in.
 */

/** A provider implementation under test. */
export interface CalendarContractTarget {
  /** Opens the backing store once for the suite. */
  open(): Promise<{
    /** A provider for `phone`, starting from an empty calendar (every test uses fresh phones). */
    providerFor(phone: string): Promise<CalendarProvider>;
    close(): Promise<void>;
  }>;
  /** Whether the suite can show that one user never sees another's events (a store shared by users). */
  sharedStore: boolean;
}

export const ZONE = "Asia/Jerusalem";

/** The instant of a local wall time in Jerusalem: "2026-04-06 09:00" → ISO. */
export function jlm(local: string): string {
  const [date, time = "00:00"] = local.split(" ");
  const [year, month, day] = date!.split("-").map(Number);
  const [hour, minute] = time.split(":").map(Number);
  return new Date(
    localToInstant({ year: year!, month: month!, day: day!, hour: hour!, minute: minute! }, ZONE),
  ).toISOString();
}

/** The local wall time of an instant in Jerusalem, "2026-04-06 09:00". */
function wall(iso: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: ZONE,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(Date.parse(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

const range = (from: string, to: string) => ({ from: jlm(from), to: jlm(to) });

function timed(summary: string, from: string, to: string, extra: Partial<EventInput> = {}): EventInput {
  return { summary, allDay: false, start: jlm(from), end: jlm(to), timeZone: ZONE, ...extra };
}

async function rejectsWith(promise: Promise<unknown>, code: CalendarRequestError["code"]): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `expected a CalendarRequestError("${code}")`).toBeInstanceOf(CalendarRequestError);
  expect((error as CalendarRequestError).code).toBe(code);
}

const summaries = (events: CalendarEvent[]) => events.map((e) => e.summary);
const starts = (events: CalendarEvent[]) => events.map((e) => (e.allDay ? e.start : wall(e.start)));

let phoneCounter = 0;
/** A fresh phone per test: providers start empty without clearing the store. */
const nextPhone = () => `97250${String(4_000_000 + ++phoneCounter).padStart(7, "0")}`;

export function calendarProviderContract(name: string, target: CalendarContractTarget): void {
  describe(`CalendarProvider contract: ${name}`, () => {
    let store: Awaited<ReturnType<CalendarContractTarget["open"]>>;
    let calendar: CalendarProvider;
    let phone: string;
    let op = 0;
    const opId = () => `op-${phone}-${++op}`;

    beforeAll(async () => {
      store = await target.open();
    });
    afterAll(async () => store?.close());
    beforeEach(async () => {
      phone = nextPhone();
      calendar = await store.providerFor(phone);
    });

    it("creates a timed event and reads it back by id and by range", async () => {
      const created = await calendar.createEvent(
        timed("Dentist", "2026-04-06 09:00", "2026-04-06 09:45", {
          location: "Herzl 5, Tel Aviv",
          description: "bring the X-ray",
          reminderMinutesBefore: 30,
        }),
        opId(),
      );
      expect(created).toMatchObject({
        seriesId: null,
        summary: "Dentist",
        allDay: false,
        start: jlm("2026-04-06 09:00"),
        end: jlm("2026-04-06 09:45"),
        timeZone: ZONE,
        recurrence: null,
        reminderMinutesBefore: 30,
        location: "Herzl 5, Tel Aviv",
        description: "bring the X-ray",
      });
      expect(await calendar.getEvent(created.id)).toEqual(created);
      expect(summaries(await calendar.listEvents(range("2026-04-06 00:00", "2026-04-07 00:00")))).toEqual([
        "Dentist",
      ]);
      // Half-open ranges: one ending as the event starts, one starting as it ends, both miss it.
      expect(await calendar.listEvents(range("2026-04-06 08:00", "2026-04-06 09:00"))).toEqual([]);
      expect(await calendar.listEvents(range("2026-04-06 09:45", "2026-04-06 11:00"))).toEqual([]);
    });

    it("keeps who an event is with: addresses read back checked, a patch adds people, a bad address is refused", async () => {
      const created = await calendar.createEvent(
        timed("Meeting with Dana", "2026-04-06 10:00", "2026-04-06 11:00", {
          attendees: [{ name: "Dana", email: " Dana@Example.com " }],
        }),
        opId(),
      );
      expect(created.attendees).toEqual([{ name: "Dana", email: "dana@example.com" }]);
      expect((await calendar.getEvent(created.id))?.attendees).toEqual(created.attendees);
      const updated = await calendar.updateEvent(
        created.id,
        { attendees: [...created.attendees, { name: null, email: "avi@example.com" }] },
        "instance",
      );
      expect(updated.attendees.map((a) => a.email)).toEqual(["dana@example.com", "avi@example.com"]);
      const listed = await calendar.listEvents(range("2026-04-06 00:00", "2026-04-07 00:00"));
      expect(listed[0]?.attendees.map((a) => a.email)).toEqual(["dana@example.com", "avi@example.com"]);
      await rejectsWith(
        calendar.createEvent(
          timed("Bad", "2026-04-06 12:00", "2026-04-06 13:00", {
            attendees: [{ name: null, email: "dana@example" }],
          }),
          opId(),
        ),
        "invalid",
      );
    });

    it("orders events by start and keeps events outside the range out", async () => {
      await calendar.createEvent(timed("Late", "2026-04-07 18:00", "2026-04-07 19:00"), opId());
      await calendar.createEvent(timed("Early", "2026-04-07 08:00", "2026-04-07 09:00"), opId());
      await calendar.createEvent(timed("Next week", "2026-04-14 08:00", "2026-04-14 09:00"), opId());
      const events = await calendar.listEvents(range("2026-04-07 00:00", "2026-04-08 00:00"));
      expect(summaries(events)).toEqual(["Early", "Late"]);
    });

    it("keeps an all-day event on its dates in the user's zone, end exclusive", async () => {
      const day = await calendar.createEvent(
        { summary: "Holiday", allDay: true, start: "2026-04-09", end: "2026-04-10", timeZone: ZONE },
        opId(),
      );
      expect(day).toMatchObject({ allDay: true, start: "2026-04-09", end: "2026-04-10" });
      expect(await calendar.getEvent(day.id)).toMatchObject({
        allDay: true,
        start: "2026-04-09",
        end: "2026-04-10",
      });
      // The evening before, local time, is not the holiday yet.
      expect(await calendar.listEvents(range("2026-04-08 23:00", "2026-04-08 23:59"))).toEqual([]);
      expect(summaries(await calendar.listEvents(range("2026-04-09 00:00", "2026-04-09 00:30")))).toEqual([
        "Holiday",
      ]);
      expect(summaries(await calendar.listEvents(range("2026-04-09 23:30", "2026-04-10 02:00")))).toEqual([
        "Holiday",
      ]);
      // The next local day: the exclusive end keeps it out, though it is still the 9th in UTC.
      expect(await calendar.listEvents(range("2026-04-10 00:00", "2026-04-10 02:00"))).toEqual([]);
    });

    it("creates a multi-day trip that shows on each of its days", async () => {
      const trip = await calendar.createEvent(
        { summary: "Trip to Eilat", allDay: true, start: "2026-04-20", end: "2026-04-23", timeZone: ZONE },
        opId(),
      );
      expect(trip).toMatchObject({ start: "2026-04-20", end: "2026-04-23" });
      for (const day of ["2026-04-20", "2026-04-21", "2026-04-22"]) {
        expect(summaries(await calendar.listEvents(range(`${day} 12:00`, `${day} 13:00`))), day).toEqual([
          "Trip to Eilat",
        ]);
      }
      expect(await calendar.listEvents(range("2026-04-23 00:00", "2026-04-24 00:00"))).toEqual([]);
    });

    it("expands a weekly series at the same local time across the DST change", async () => {
      // Mondays and Wednesdays 09:00 from Mon 2026-03-23; Israel moves to summer time on Fri 2026-03-27.
      const series = await calendar.createEvent(
        timed("Standup", "2026-03-23 09:00", "2026-03-23 09:30", {
          recurrence: { frequency: "weekly", days: [1, 3] },
          reminderMinutesBefore: 10,
        }),
        opId(),
      );
      expect(series.seriesId).toBe(series.id);
      expect(series.recurrence).toMatchObject({ frequency: "weekly", days: [1, 3] });
      const events = await calendar.listEvents(range("2026-03-22 00:00", "2026-04-05 00:00"));
      expect(starts(events)).toEqual([
        "2026-03-23 09:00",
        "2026-03-25 09:00",
        "2026-03-30 09:00",
        "2026-04-01 09:00",
      ]);
      // Same wall time, different offsets: 07:00Z in winter, 06:00Z in summer.
      expect(events[0]!.start).toBe("2026-03-23T07:00:00.000Z");
      expect(events[2]!.start).toBe("2026-03-30T06:00:00.000Z");
      for (const e of events) {
        expect(e).toMatchObject({ seriesId: series.id, summary: "Standup", reminderMinutesBefore: 10 });
        expect(e.recurrence).toMatchObject({ frequency: "weekly", days: [1, 3] });
        expect(Date.parse(e.end) - Date.parse(e.start)).toBe(30 * 60_000);
        expect(e.id).not.toBe(series.id);
      }
      expect(await calendar.getEvent(events[2]!.id)).toEqual(events[2]);
    });

    it("keeps the reminders' rules: the first Sunday of each month, a yearly date, moved along", async () => {
      const brunch = await calendar.createEvent(
        timed("Brunch", "2026-03-20 10:00", "2026-03-20 11:00", {
          recurrence: { frequency: "monthly", rule: "FREQ=MONTHLY;BYDAY=1SU" },
        }),
        opId(),
      );
      // The series starts on the rule's first day: Sunday 5 April, 10:00 local (summer time since 27 March).
      expect(brunch).toMatchObject({
        start: "2026-04-05T07:00:00.000Z",
        recurrence: { frequency: "monthly", rule: "FREQ=MONTHLY;BYDAY=1SU" },
      });
      const months = range("2026-03-01 00:00", "2026-07-01 00:00");
      const occurrences = await calendar.listEvents(months);
      expect(starts(occurrences)).toEqual(["2026-04-05 10:00", "2026-05-03 10:00", "2026-06-07 10:00"]);
      // Moved through one occurrence to the Monday after: the first Monday of each month from then on.
      await calendar.updateEvent(
        occurrences[1]!.id,
        { start: jlm("2026-05-04 10:00"), end: jlm("2026-05-04 11:00") },
        "series",
      );
      expect(starts(await calendar.listEvents(months))).toEqual([
        "2026-04-06 10:00",
        "2026-05-04 10:00",
        "2026-06-01 10:00",
      ]);
      expect((await calendar.getEvent(brunch.id))?.recurrence).toEqual({
        frequency: "monthly",
        rule: "FREQ=MONTHLY;BYDAY=1MO",
      });

      const birthday = await calendar.createEvent(
        {
          summary: "Birthday",
          allDay: true,
          start: "2026-05-10",
          end: "2026-05-11",
          timeZone: ZONE,
          recurrence: { frequency: "yearly", rule: "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=10", count: 3 },
        },
        opId(),
      );
      const years = range("2026-01-01 00:00", "2031-01-01 00:00");
      expect(starts(await calendar.listInstances(birthday.id, years))).toEqual([
        "2026-05-10",
        "2027-05-10",
        "2028-05-10",
      ]);
      const [first] = await calendar.listInstances(birthday.id, years);
      await calendar.updateEvent(first!.id, { start: "2026-05-12", end: "2026-05-13" }, "series");
      expect((await calendar.getEvent(birthday.id))?.recurrence).toEqual({
        frequency: "yearly",
        rule: "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=12",
        count: 3,
      });
      expect(starts(await calendar.listInstances(birthday.id, years))).toEqual([
        "2026-05-12",
        "2027-05-12",
        "2028-05-12",
      ]);
    });

    it("honours a series' count and until", async () => {
      await calendar.createEvent(
        timed("Physio", "2026-05-04 17:00", "2026-05-04 18:00", {
          recurrence: { frequency: "daily", interval: 2, count: 3 },
        }),
        opId(),
      );
      await calendar.createEvent(
        {
          summary: "Rent",
          allDay: true,
          start: "2026-05-01",
          end: "2026-05-02",
          timeZone: ZONE,
          recurrence: { frequency: "monthly", daysOfMonth: [1], until: "2026-07-01" },
        },
        opId(),
      );
      const events = await calendar.listEvents(range("2026-05-01 00:00", "2026-09-01 00:00"));
      expect(events.map((e) => `${e.summary} ${e.allDay ? e.start : wall(e.start)}`)).toEqual([
        "Rent 2026-05-01",
        "Physio 2026-05-04 17:00",
        "Physio 2026-05-06 17:00",
        "Physio 2026-05-08 17:00",
        "Rent 2026-06-01",
        "Rent 2026-07-01",
      ]);
    });

    it("filters by text, case-insensitively, in English and Hebrew", async () => {
      await calendar.createEvent(timed("Meeting with Dana", "2026-04-08 10:00", "2026-04-08 11:00"), opId());
      await calendar.createEvent(timed("פגישה עם דנה", "2026-04-08 12:00", "2026-04-08 13:00"), opId());
      await calendar.createEvent(
        timed("Lunch", "2026-04-08 13:00", "2026-04-08 14:00", { location: "Cafe DANA" }),
        opId(),
      );
      await calendar.createEvent(timed("Gym", "2026-04-08 18:00", "2026-04-08 19:00"), opId());
      const day = range("2026-04-08 00:00", "2026-04-09 00:00");
      expect(summaries(await calendar.listEvents(day, { query: "dana" }))).toEqual([
        "Meeting with Dana",
        "Lunch",
      ]);
      expect(summaries(await calendar.listEvents(day, { query: "MEETING" }))).toEqual(["Meeting with Dana"]);
      expect(summaries(await calendar.listEvents(day, { query: "דנה" }))).toEqual(["פגישה עם דנה"]);
      expect(await calendar.listEvents(day, { query: "dentist" })).toEqual([]);
    });

    it("changes one occurrence, or the whole series", async () => {
      const series = await calendar.createEvent(
        timed("Team sync", "2026-04-06 09:00", "2026-04-06 10:00", { recurrence: { frequency: "weekly" } }),
        opId(),
      );
      const weeks = range("2026-04-06 00:00", "2026-04-27 00:00");
      const [, second] = await calendar.listEvents(weeks);

      const moved = await calendar.updateEvent(
        second!.id,
        { summary: "Team sync (moved)", start: jlm("2026-04-14 11:00"), end: jlm("2026-04-14 12:00") },
        "instance",
      );
      expect(moved).toMatchObject({
        summary: "Team sync (moved)",
        start: jlm("2026-04-14 11:00"),
        seriesId: series.id,
      });
      expect((await calendar.listEvents(weeks)).map((e) => `${e.summary} ${wall(e.start)}`)).toEqual([
        "Team sync 2026-04-06 09:00",
        "Team sync (moved) 2026-04-14 11:00",
        "Team sync 2026-04-20 09:00",
      ]);
      expect(await calendar.getEvent(moved.id)).toMatchObject({ summary: "Team sync (moved)" });

      // The whole series, through one of its occurrences: every week moves to 10:30.
      const [first] = await calendar.listEvents(weeks);
      await calendar.updateEvent(
        first!.id,
        { location: "Room 4", start: jlm("2026-04-06 10:30"), end: jlm("2026-04-06 11:30") },
        "series",
      );
      const after = await calendar.listEvents(range("2026-04-06 00:00", "2026-05-05 00:00"));
      expect(after.filter((e) => e.summary === "Team sync").map((e) => wall(e.start))).toEqual([
        "2026-04-06 10:30",
        "2026-04-20 10:30",
        "2026-04-27 10:30",
        "2026-05-04 10:30",
      ]);
      expect(after.every((e) => e.location === "Room 4")).toBe(true);
      expect(after.every((e) => e.seriesId === series.id)).toBe(true);
    });

    it("updates a single event's fields and keeps the rest", async () => {
      const event = await calendar.createEvent(
        timed("Call mom", "2026-04-10 18:00", "2026-04-10 18:30", { location: "Home" }),
        opId(),
      );
      const updated = await calendar.updateEvent(event.id, { start: jlm("2026-04-10 19:00") }, "instance");
      expect(updated).toMatchObject({
        id: event.id,
        summary: "Call mom",
        location: "Home",
        start: jlm("2026-04-10 19:00"),
        end: jlm("2026-04-10 19:30"),
      });
      const renamed = await calendar.updateEvent(
        event.id,
        { summary: "Call Mom ❤", reminderMinutesBefore: 5 },
        "series",
      );
      expect(renamed).toMatchObject({
        summary: "Call Mom ❤",
        reminderMinutesBefore: 5,
        start: jlm("2026-04-10 19:00"),
      });
      expect(await calendar.getEvent(event.id)).toEqual(renamed);
    });

    it("deletes one occurrence, or the whole series", async () => {
      const series = await calendar.createEvent(
        timed("Yoga", "2026-04-05 07:00", "2026-04-05 08:00", { recurrence: { frequency: "daily" } }),
        opId(),
      );
      const days = range("2026-04-05 00:00", "2026-04-09 00:00");
      const occurrences = await calendar.listEvents(days);
      expect(occurrences).toHaveLength(4);

      await calendar.deleteEvent(occurrences[1]!.id, "instance");
      expect(starts(await calendar.listEvents(days))).toEqual([
        "2026-04-05 07:00",
        "2026-04-07 07:00",
        "2026-04-08 07:00",
      ]);
      expect(await calendar.getEvent(occurrences[1]!.id)).toBeNull();
      expect(await calendar.getEvent(occurrences[2]!.id)).not.toBeNull();

      await calendar.deleteEvent(occurrences[2]!.id, "series");
      expect(await calendar.listEvents(days)).toEqual([]);
      expect(await calendar.getEvent(series.id)).toBeNull();
    });

    it("deletes a single event", async () => {
      const event = await calendar.createEvent(
        timed("Haircut", "2026-04-10 16:00", "2026-04-10 16:30"),
        opId(),
      );
      await calendar.deleteEvent(event.id, "instance");
      expect(await calendar.getEvent(event.id)).toBeNull();
      expect(await calendar.listEvents(range("2026-04-10 00:00", "2026-04-11 00:00"))).toEqual([]);
    });

    it("truncates a series so that nothing starts after the last date", async () => {
      const series = await calendar.createEvent(
        timed("Course", "2026-04-06 19:00", "2026-04-06 21:00", {
          recurrence: { frequency: "weekly", days: [1] },
        }),
        opId(),
      );
      const truncated = await calendar.truncateSeries(series.id, "2026-04-20");
      expect(truncated.recurrence).toMatchObject({ frequency: "weekly", until: "2026-04-20" });
      expect(starts(await calendar.listEvents(range("2026-04-01 00:00", "2026-06-01 00:00")))).toEqual([
        "2026-04-06 19:00",
        "2026-04-13 19:00",
        "2026-04-20 19:00",
      ]);
    });

    it("lists the instances of one series within a range", async () => {
      const series = await calendar.createEvent(
        timed("Piano", "2026-04-07 16:00", "2026-04-07 17:00", {
          recurrence: { frequency: "weekly", days: [2, 4] },
        }),
        opId(),
      );
      await calendar.createEvent(timed("Other", "2026-04-07 18:00", "2026-04-07 19:00"), opId());
      const instances = await calendar.listInstances(
        series.id,
        range("2026-04-07 00:00", "2026-04-15 00:00"),
      );
      expect(starts(instances)).toEqual(["2026-04-07 16:00", "2026-04-09 16:00", "2026-04-14 16:00"]);
      expect(instances.every((e) => e.seriesId === series.id && e.summary === "Piano")).toBe(true);
    });

    it("creates once per operation id", async () => {
      const input = timed("Vet", "2026-04-11 10:00", "2026-04-11 10:30");
      const id = opId();
      const first = await calendar.createEvent(input, id);
      const again = await calendar.createEvent(input, id);
      expect(again.id).toBe(first.id);
      expect(await calendar.listEvents(range("2026-04-11 00:00", "2026-04-12 00:00"))).toHaveLength(1);
      const other = await calendar.createEvent(input, opId());
      expect(other.id).not.toBe(first.id);
    });

    it("answers not found for unknown ids", async () => {
      expect(await calendar.getEvent("nosuchevent123")).toBeNull();
      await rejectsWith(calendar.updateEvent("nosuchevent123", { summary: "x" }, "instance"), "not_found");
      await rejectsWith(calendar.deleteEvent("nosuchevent123", "series"), "not_found");
      await rejectsWith(calendar.truncateSeries("nosuchevent123", "2026-05-01"), "not_found");
      const event = await calendar.createEvent(timed("Real", "2026-04-10 10:00", "2026-04-10 11:00"), opId());
      await calendar.deleteEvent(event.id, "series");
      await rejectsWith(calendar.deleteEvent(event.id, "series"), "not_found");
      await rejectsWith(calendar.updateEvent(event.id, { summary: "again" }, "series"), "not_found");
    });

    it("refuses malformed events", async () => {
      await rejectsWith(
        calendar.createEvent(timed("", "2026-04-10 10:00", "2026-04-10 11:00"), opId()),
        "invalid",
      );
      await rejectsWith(
        calendar.createEvent(timed("Backwards", "2026-04-10 10:00", "2026-04-10 09:00"), opId()),
        "invalid",
      );
      await rejectsWith(
        calendar.createEvent(
          { summary: "Day", allDay: true, start: "2026-04-10", end: "2026-04-10", timeZone: ZONE },
          opId(),
        ),
        "invalid",
      );
      await rejectsWith(
        calendar.createEvent(
          timed("Zone", "2026-04-10 10:00", "2026-04-10 11:00", { timeZone: "Mars/Olympus" }),
          opId(),
        ),
        "invalid",
      );
    });

    if (target.sharedStore) {
      it("never shows, changes or deletes another user's events", async () => {
        const mine = await calendar.createEvent(
          timed("Mine", "2026-04-10 10:00", "2026-04-10 11:00"),
          opId(),
        );
        const other = await store.providerFor(nextPhone());
        const day = range("2026-04-10 00:00", "2026-04-11 00:00");
        expect(await other.listEvents(day)).toEqual([]);
        expect(await other.getEvent(mine.id)).toBeNull();
        await rejectsWith(other.updateEvent(mine.id, { summary: "Theirs" }, "series"), "not_found");
        await rejectsWith(other.deleteEvent(mine.id, "series"), "not_found");
        // The same operation id from another user is another event.
        const theirs = await other.createEvent(
          timed("Theirs", "2026-04-10 10:00", "2026-04-10 11:00"),
          `op-${phone}-${op}`,
        );
        expect(theirs.id).not.toBe(mine.id);
        expect(await calendar.getEvent(mine.id)).toMatchObject({ summary: "Mine" });
        expect(summaries(await calendar.listEvents(day))).toEqual(["Mine"]);
      });
    }
  });
}
