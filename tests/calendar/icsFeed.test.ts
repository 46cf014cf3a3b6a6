import { randomBytes } from "node:crypto";
import express from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PgCalendarEventRepository,
  type StoredCalendarEvent,
} from "../../src/db/repositories/calendarEventRepository.js";
import { PgUserRepository } from "../../src/db/repositories/userRepository.js";
import { calendarFeedRoutes, calendarFeedUrl } from "../../src/transport/http/calendarFeedRoute.js";
import { escapeText, foldLine, renderIcsFeed } from "../../src/services/calendar/icsFeed.js";
import { createLogger } from "../../src/utils/logger.js";
import { pgliteBackend, type TestDatabase } from "../support/db.js";
import { builtinCalendarOf } from "../support/services.js";
import { jlm, ZONE } from "./providers/calendarContract.js";

/** One property of an iCalendar component: name, parameters, raw value. */
interface Property {
  name: string;
  params: Record<string, string>;
  value: string;
}

interface Component {
  type: string;
  properties: Property[];
  children: Component[];
}

/** A small RFC 5545 reader: unfolds lines and builds the component tree (test-side, independent of the renderer). */
function parseIcs(text: string): Component {
  expect(text.endsWith("\r\n")).toBe(true);
  const physical = text.slice(0, -2).split("\r\n");
  for (const line of physical) {
    expect(Buffer.byteLength(line, "utf8"), line).toBeLessThanOrEqual(75);
    expect(line).not.toMatch(/[\r\n]/);
  }
  const lines: string[] = [];
  for (const line of physical) {
    if (line.startsWith(" ")) lines[lines.length - 1] += line.slice(1);
    else lines.push(line);
  }
  const root: Component = { type: "ROOT", properties: [], children: [] };
  const stack = [root];
  for (const line of lines) {
    const colon = line.indexOf(":");
    const [name, ...params] = line.slice(0, colon).split(";");
    const value = line.slice(colon + 1);
    if (name === "BEGIN") {
      const child: Component = { type: value, properties: [], children: [] };
      stack.at(-1)!.children.push(child);
      stack.push(child);
    } else if (name === "END") {
      expect(stack.pop()!.type).toBe(value);
    } else {
      stack.at(-1)!.properties.push({
        name: name!,
        params: Object.fromEntries(params.map((p) => p.split("=") as [string, string])),
        value,
      });
    }
  }
  expect(stack).toHaveLength(1);
  expect(root.children).toHaveLength(1);
  return root.children[0]!;
}

const prop = (c: Component, name: string) => c.properties.find((p) => p.name === name);
const props = (c: Component, name: string) => c.properties.filter((p) => p.name === name);
const unescape = (v: string) => v.replace(/\\n/g, "\n").replace(/\\([\\;,])/g, "$1");

describe("iCalendar text", () => {
  it("escapes backslashes, semicolons, commas and newlines", () => {
    expect(escapeText("a\\b;c,d\ne")).toBe("a\\\\b\\;c\\,d\\ne");
  });

  it("folds at 75 octets without splitting a Hebrew letter", () => {
    const line = `SUMMARY:${"פגישה עם דנה ".repeat(12)}`;
    const folded = foldLine(line);
    const parts = folded.split("\r\n");
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((p) => p.startsWith(" "))).toBe(true);
    expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join("")).toBe(line);
    expect(folded).not.toContain("\uFFFD");
    expect(foldLine("SUMMARY:short")).toBe("SUMMARY:short");
  });
});

describe("the built-in calendar feed", () => {
  let db: TestDatabase;
  const phone = "972501112233";
  const otherPhone = "972501112244";
  const secret = randomBytes(32);
  const logger = createLogger("silent");
  let app: express.Express;
  let seriesId: string;

  beforeAll(async () => {
    db = await pgliteBackend.create();
    for (const p of [phone, otherPhone]) {
      await db.pool.query("INSERT INTO users (phone, time_zone) VALUES ($1, $2)", [p, ZONE]);
    }
    const calendar = builtinCalendarOf(db.pool, phone);
    await calendar.createEvent(
      {
        summary: "Dentist; Dr. Levi, room 3",
        description: "Line one\nLine two with a backslash \\ and a long tail ".repeat(3),
        location: "Herzl 5, Tel Aviv",
        allDay: false,
        start: jlm("2026-04-06 09:00"),
        end: jlm("2026-04-06 09:45"),
        timeZone: ZONE,
        reminderMinutesBefore: 30,
      },
      "op-dentist",
    );
    await calendar.createEvent(
      {
        summary: "טיול לאילת עם כל המשפחה והחברים",
        allDay: true,
        start: "2026-04-20",
        end: "2026-04-23",
        timeZone: ZONE,
      },
      "op-trip",
    );
    const series = await calendar.createEvent(
      {
        summary: "Standup",
        allDay: false,
        start: jlm("2026-03-23 09:00"),
        end: jlm("2026-03-23 09:15"),
        timeZone: ZONE,
        recurrence: { frequency: "weekly", days: [1, 3], until: "2026-05-31" },
      },
      "op-standup",
    );
    seriesId = series.id;
    const occurrences = await calendar.listInstances(series.id, {
      from: jlm("2026-03-30 00:00"),
      to: jlm("2026-04-02 00:00"),
    });
    await calendar.deleteEvent(occurrences[0]!.id, "instance"); // Mon 03-30
    await calendar.updateEvent(
      occurrences[1]!.id, // Wed 04-01
      { summary: "Standup (long)", end: jlm("2026-04-01 10:00") },
      "instance",
    );
    await builtinCalendarOf(db.pool, otherPhone).createEvent(
      {
        summary: "Someone else's",
        allDay: false,
        start: jlm("2026-04-06 10:00"),
        end: jlm("2026-04-06 11:00"),
        timeZone: ZONE,
      },
      "op-other",
    );
    app = express();
    app.use(
      calendarFeedRoutes({
        users: new PgUserRepository(db.pool),
        events: new PgCalendarEventRepository(db.pool),
        secret,
        logger,
        clock: () => Date.parse("2026-03-20T10:00:00Z"),
      }),
    );
  });
  afterAll(async () => db?.close());

  const pathOf = (url: string) => new URL(url).pathname;

  it("serves the user's calendar at the signed address as text/calendar", async () => {
    const url = calendarFeedUrl("https://memo.example.com/", phone, secret);
    expect(url).toMatch(
      new RegExp(`^https://memo\\.example\\.com/calendar/${phone}/[A-Za-z0-9_-]{43}\\.ics$`),
    );
    const res = await request(app)
      .get(pathOf(url))
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => done(null, Buffer.concat(chunks).toString("utf8")));
      });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    const calendar = parseIcs(res.body as string);
    expect(calendar.type).toBe("VCALENDAR");
    expect(prop(calendar, "VERSION")?.value).toBe("2.0");
    expect(prop(calendar, "X-WR-TIMEZONE")?.value).toBe(ZONE);

    const events = calendar.children.filter((c) => c.type === "VEVENT");
    const bySummary = (s: string) => events.filter((e) => unescape(prop(e, "SUMMARY")!.value) === s);
    expect(events.map((e) => unescape(prop(e, "SUMMARY")!.value))).not.toContain("Someone else's");

    const [dentist] = bySummary("Dentist; Dr. Levi, room 3");
    expect(prop(dentist!, "SUMMARY")!.value).toBe("Dentist\\; Dr. Levi\\, room 3");
    expect(prop(dentist!, "DTSTART")).toEqual({
      name: "DTSTART",
      params: { TZID: ZONE },
      value: "20260406T090000",
    });
    expect(prop(dentist!, "DTEND")!.value).toBe("20260406T094500");
    expect(unescape(prop(dentist!, "DESCRIPTION")!.value)).toBe(
      "Line one\nLine two with a backslash \\ and a long tail ".repeat(3).trim(),
    );
    expect(unescape(prop(dentist!, "LOCATION")!.value)).toBe("Herzl 5, Tel Aviv");
    const alarm = dentist!.children.find((c) => c.type === "VALARM")!;
    expect(prop(alarm, "TRIGGER")!.value).toBe("-PT30M");
    expect(prop(alarm, "ACTION")!.value).toBe("DISPLAY");
    expect(prop(dentist!, "UID")!.value).toMatch(/@memo$/);
    expect(prop(dentist!, "DTSTAMP")!.value).toBe("20260320T100000Z");

    const [trip] = bySummary("טיול לאילת עם כל המשפחה והחברים");
    expect(prop(trip!, "DTSTART")).toEqual({ name: "DTSTART", params: { VALUE: "DATE" }, value: "20260420" });
    expect(prop(trip!, "DTEND")).toEqual({ name: "DTEND", params: { VALUE: "DATE" }, value: "20260423" });

    const [standup] = bySummary("Standup");
    expect(prop(standup!, "UID")!.value).toBe(`${seriesId}@memo`);
    expect(prop(standup!, "RRULE")!.value).toBe("FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20260531T205959Z");
    expect(props(standup!, "EXDATE")).toEqual([
      { name: "EXDATE", params: { TZID: ZONE }, value: "20260330T090000" },
    ]);
    const [changed] = bySummary("Standup (long)");
    expect(prop(changed!, "UID")!.value).toBe(`${seriesId}@memo`);
    expect(prop(changed!, "RECURRENCE-ID")).toEqual({
      name: "RECURRENCE-ID",
      params: { TZID: ZONE },
      value: "20260401T090000",
    });
    expect(prop(changed!, "DTEND")!.value).toBe("20260401T100000");
    expect(prop(changed!, "RRULE")).toBeUndefined();

    // The zone's offsets as they are: Israel's summer time begins 2026-03-27 at 02:00 (+02 → +03).
    const zone = calendar.children.find((c) => c.type === "VTIMEZONE")!;
    expect(prop(zone, "TZID")!.value).toBe(ZONE);
    const spring = zone.children.find(
      (c) => c.type === "DAYLIGHT" && prop(c, "DTSTART")!.value.startsWith("2026"),
    );
    expect(spring && Object.fromEntries(spring.properties.map((p) => [p.name, p.value]))).toEqual({
      DTSTART: "20260327T020000",
      TZOFFSETFROM: "+0200",
      TZOFFSETTO: "+0300",
    });
  });

  it("answers 404 to a wrong signature, another user's signature, or a phone with no account", async () => {
    const good = pathOf(calendarFeedUrl("http://x", phone, secret));
    const tampered = good.replace(/.(?=\.ics$)/, (c) => (c === "A" ? "B" : "A"));
    expect((await request(app).get(tampered)).status).toBe(404);
    const othersSignature = pathOf(calendarFeedUrl("http://x", otherPhone, secret))
      .split("/")
      .at(-1)!;
    expect((await request(app).get(`/calendar/${phone}/${othersSignature}`)).status).toBe(404);
    expect((await request(app).get(good.replace(/\.ics$/, ""))).status).toBe(404);
    expect((await request(app).get(pathOf(calendarFeedUrl("http://x", phone, randomBytes(32))))).status).toBe(
      404,
    );
    expect((await request(app).get(pathOf(calendarFeedUrl("http://x", "972509999999", secret)))).status).toBe(
      404,
    );
  });

  it("renders a calendar with nothing in it", async () => {
    const text = renderIcsFeed(await new PgCalendarEventRepository(db.pool).listAll("972500000000"), {
      now: Date.parse("2026-03-20T10:00:00Z"),
    });
    const calendar = parseIcs(text);
    expect(calendar.children).toEqual([]);
  });
});

describe("the feed's rules are the reminders' rules", () => {
  const series = (
    fields: Partial<StoredCalendarEvent> & Pick<StoredCalendarEvent, "id" | "summary" | "start" | "end">,
  ): StoredCalendarEvent => ({
    description: null,
    location: null,
    allDay: false,
    timeZone: ZONE,
    recurrence: null,
    reminderMinutesBefore: null,
    attendees: [],
    exdates: [],
    overrides: {},
    ...fields,
  });

  it("writes a first-Sunday series with its EXDATE and a yearly all-day one as RRULE lines", () => {
    const text = renderIcsFeed(
      [
        series({
          id: "00000000-0000-4000-8000-000000000001",
          summary: "Family brunch",
          start: jlm("2026-04-05 10:00"),
          end: jlm("2026-04-05 12:00"),
          recurrence: { frequency: "monthly", rule: "FREQ=MONTHLY;BYDAY=1SU", until: "2026-12-31" },
          exdates: ["2026-05-03"],
          overrides: { "2026-06-07": { summary: "Family brunch at Grandma's" } },
        }),
        series({
          id: "00000000-0000-4000-8000-000000000002",
          summary: "Mom birthday",
          allDay: true,
          start: "2026-05-10",
          end: "2026-05-11",
          recurrence: { frequency: "yearly", rule: "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=10" },
        }),
      ],
      { now: Date.parse("2026-03-20T10:00:00Z") },
    );
    const events = parseIcs(text).children.filter((c) => c.type === "VEVENT");
    const [brunch, moved, birthday] = events;
    expect(prop(brunch!, "RRULE")?.value).toBe("FREQ=MONTHLY;BYDAY=1SU;UNTIL=20261231T215959Z");
    expect(prop(brunch!, "EXDATE")).toMatchObject({ params: { TZID: ZONE }, value: "20260503T100000" });
    expect(prop(moved!, "RECURRENCE-ID")).toMatchObject({ value: "20260607T100000" });
    expect(prop(birthday!, "RRULE")?.value).toBe("FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=10");
    expect(prop(birthday!, "DTSTART")).toMatchObject({ params: { VALUE: "DATE" }, value: "20260510" });
  });
});
