// Attendees (spec 002 §15.2, issue 34): "meeting with dana@example.com tomorrow at 10" invites her on
// Google Calendar only after the user says yes to a question that shows the address; a name is
// offered by the address the user gave earlier or, with Google connected, by their own Google
// contacts (never another household member's); a name without an address invites nobody and the
// reply says so; the built-in calendar keeps the people as text and sends nothing. Conversations
// through the graph with the scripted model; Google is the Calendar v3 and People stand-ins.
// "Now" is Thursday 5 March 2026, 12:00 in Asia/Jerusalem.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeGoogleCalendar, googleProviders } from "../../support/fakeGoogleCalendar.js";
import { FakeGooglePeople } from "../../support/fakeGooglePeople.js";
import { PHONE } from "../../support/memoHarness.js";
import { HouseholdRepository } from "../../../src/db/repositories/householdRepository.js";
import { PgContactRepository } from "../../../src/db/repositories/contactRepository.js";
import {
  calendarHarness,
  jlm,
  scriptTurn,
  seed,
  storedEvents,
  type CalendarHarness,
} from "./calendarScript.js";

let h: CalendarHarness;
let google: FakeGoogleCalendar;
let people: FakeGooglePeople;

beforeEach(async () => {
  google = await FakeGoogleCalendar.start({ timeZone: "Asia/Jerusalem" });
  people = await FakeGooglePeople.start();
});
afterEach(async () => {
  await h?.close();
  await google?.close();
  await people?.close();
});

/** The events Memo asked Google to create (the request bodies, with their query). */
const inserts = () => google.calendarRequests("POST").filter((r) => r.path.endsWith("/events"));

const onGoogle = () =>
  calendarHarness({ providers: googleProviders(google), googleContacts: people.accounts() });

describe("inviting by address on Google Calendar", () => {
  it("asks, showing the address, and invites her only after yes (English)", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana",
      start: "tomorrow at 10:00",
      attendees: [{ email: "dana@example.com" }],
    });
    const asked = await h.say("meeting with dana@example.com tomorrow at 10");
    expect(asked.text).toBe(
      "Add *Meeting with Dana* (tomorrow 10:00–11:00) and send an invitation to dana@example.com? Google Calendar will e-mail them.",
    );
    expect(inserts()).toHaveLength(0);

    const done = await h.say("yes");
    expect(done.text).toBe(
      "📅 Added to your calendar: *Meeting with Dana* — tomorrow 10:00–11:00\n✉️ Invitation sent to dana@example.com",
    );
    expect(inserts()).toHaveLength(1);
    expect(inserts()[0]!.query).toMatchObject({ sendUpdates: "all" });
    expect(inserts()[0]!.body).toMatchObject({
      summary: "Meeting with Dana",
      start: { dateTime: jlm(6, "10:00") },
      attendees: [{ email: "dana@example.com" }],
    });
  });

  it("creates nothing and invites nobody when the user says no (Hebrew)", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "פגישה עם דנה",
      start: "מחר ב-10:00",
      attendees: [{ name: "דנה", email: "dana@example.com" }],
    });
    const asked = await h.say("פגישה עם דנה dana@example.com מחר ב-10");
    expect(asked.text).toContain("ולשלוח הזמנה אל דנה (dana@example.com)?");
    const no = await h.say("לא");
    expect(no.text).not.toContain("הוספתי");
    expect(inserts()).toHaveLength(0);
    expect(google.storedEvents(`token-${PHONE}`)).toEqual([]);
  });

  it("refuses an address that is not one, and creates nothing (English)", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana",
      start: "tomorrow at 10:00",
      attendees: [{ email: "dana@example" }],
    });
    expect((await h.say("meeting with dana@example tomorrow at 10")).text).toBe(
      '"dana@example" isn\'t an e-mail address I can use. Please check it and send it again.',
    );
    expect(inserts()).toHaveLength(0);
  });

  it("refuses an address that is not one in Hebrew", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "פגישה עם דנה",
      start: "מחר ב-10:00",
      attendees: [{ email: "dana@@example.com" }],
    });
    expect((await h.say("תקבע לי פגישה עם dana@@example.com מחר בעשר בבוקר")).text).toContain(
      "היא לא כתובת מייל שאפשר להשתמש בה",
    );
    expect(inserts()).toHaveLength(0);
  });

  it("never uses an address the model wrote that the user did not", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana",
      start: "tomorrow at 10:00",
      attendees: [{ name: "Dana", email: "dana@guessed.example" }],
    });
    const done = await h.say("meeting with Dana tomorrow at 10");
    expect(done.text).toBe(
      "📅 Added to your calendar: *Meeting with Dana* — tomorrow 10:00–11:00\nI didn't invite Dana: I don't have their e-mail address. Send it to me and I'll invite them.",
    );
    expect(inserts()[0]!.body).not.toHaveProperty("attendees");
    expect(inserts()[0]!.query).not.toHaveProperty("sendUpdates");
  });
});

describe("inviting to an event that exists", () => {
  it("asks before adding her to the meeting on Google, then patches with sendUpdates", async () => {
    h = await onGoogle();
    const meeting = await seed(h, "meeting", {
      summary: "Planning meeting",
      start: jlm(6, "10:00"),
      end: jlm(6, "11:00"),
    });
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "planning meeting" },
      updateFields: { attendees: [{ email: "dana@example.com" }] },
    });
    const asked = await h.say("invite dana@example.com to the planning meeting");
    expect(asked.text).toBe(
      "Invite dana@example.com to *Planning meeting* (tomorrow 10:00–11:00)? Google Calendar will e-mail them.",
    );
    expect(google.calendarRequests("PATCH")).toHaveLength(0);
    const done = await h.say("yes");
    expect(done.text).toBe(
      "✏️ Updated *Planning meeting* — tomorrow 10:00–11:00\n✉️ Invitation sent to dana@example.com",
    );
    const patches = google.calendarRequests("PATCH");
    expect(patches).toHaveLength(1);
    expect(patches[0]!.path).toContain(meeting.id);
    expect(patches[0]!.query).toMatchObject({ sendUpdates: "all" });
    expect(patches[0]!.body).toEqual({ attendees: [{ email: "dana@example.com" }] });
  });
});

describe("inviting by name", () => {
  it("offers the address the user gave earlier, and asks (English)", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana",
      start: "tomorrow at 10:00",
      attendees: [{ email: "dana@example.com" }],
    });
    await h.say("meeting with dana@example.com tomorrow at 10");
    await h.say("yes");

    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Lunch with Dana",
      start: "Sunday at 13:00",
      attendees: [{ name: "Dana" }],
    });
    const asked = await h.say("lunch with Dana on Sunday at 13");
    expect(asked.text).toBe(
      "Add *Lunch with Dana* (Sun 08/03 13:00–14:00) and send an invitation to Dana (dana@example.com)? Google Calendar will e-mail them.",
    );
    expect(inserts()).toHaveLength(1);
    await h.say("yes");
    expect(inserts()).toHaveLength(2);
    expect(inserts()[1]!.body).toMatchObject({
      summary: "Lunch with Dana",
      attendees: [{ email: "dana@example.com", displayName: "Dana" }],
    });
    // The address the user gave was enough: Google contacts were not searched.
    expect(people.requests).toHaveLength(0);
  });

  it("offers the address the user gave with her Hebrew name, and asks (Hebrew)", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "פגישה עם דנה",
      start: "מחר ב-10:00",
      attendees: [{ name: "דנה", email: "dana@example.com" }],
    });
    await h.say("פגישה עם דנה dana@example.com מחר ב-10");
    await h.say("כן");
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "ארוחת צהריים עם דנה",
      start: "יום ראשון ב-13:00",
      attendees: [{ name: "דנה" }],
    });
    const asked = await h.say("ארוחת צהריים עם דנה ביום ראשון ב-13");
    expect(asked.text).toContain("ולשלוח הזמנה אל דנה (dana@example.com)?");
    const done = await h.say("כן");
    expect(done.text).toContain("✉️ נשלחה הזמנה אל דנה (dana@example.com)");
    expect(inserts()[1]!.body).toMatchObject({ attendees: [{ email: "dana@example.com" }] });
  });

  it("offers the user's own Google contact, and asks", async () => {
    h = await onGoogle();
    people.addContact(`token-${PHONE}`, "Dana Levi", "dana.levi@example.com");
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana",
      start: "tomorrow at 10:00",
      attendees: [{ name: "Dana" }],
    });
    const asked = await h.say("meeting with Dana tomorrow at 10");
    expect(asked.text).toContain("send an invitation to Dana (dana.levi@example.com)?");
    expect(people.requests.map((r) => [r.token, r.query.query])).toEqual([[`token-${PHONE}`, "Dana"]]);
    await h.say("yes");
    expect(inserts()[0]!.body).toMatchObject({ attendees: [{ email: "dana.levi@example.com" }] });
  });

  it("offers the user's own Google contact in Hebrew, and creates nothing after no", async () => {
    h = await onGoogle();
    people.addContact(`token-${PHONE}`, "דנה לוי", "dana.levi@example.com");
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "פגישה עם דנה",
      start: "מחר ב-10:00",
      attendees: [{ name: "דנה" }],
    });
    const asked = await h.say("פגישה עם דנה מחר ב-10");
    expect(asked.text).toContain("ולשלוח הזמנה אל דנה (dana.levi@example.com)?");
    await h.say("לא");
    expect(inserts()).toHaveLength(0);
  });

  it("uses only an address the user wrote whole, not part of a longer one", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana",
      start: "tomorrow at 10:00",
      attendees: [{ name: "Dana", email: "dana@example.com" }],
    });
    const done = await h.say("meeting with Dana (dana@example.com.il) tomorrow at 10");
    expect(done.text).toContain("I didn't invite Dana");
    expect(inserts()[0]!.body).not.toHaveProperty("attendees");
  });

  it("asks in English too, and sends nothing after no", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana",
      start: "tomorrow at 10:00",
      attendees: [{ email: "dana@example.com" }],
    });
    expect((await h.say("meeting with dana@example.com tomorrow at 10")).text).toContain("dana@example.com?");
    expect((await h.say("no")).text).toBe("OK, I won't do that.");
    expect(inserts()).toHaveLength(0);
  });

  it("never offers an address another household member gave or keeps in their Google contacts", async () => {
    h = await onGoogle();
    const other = "972509999999";
    await h.users.getOrCreate(other, { timeZone: "Asia/Jerusalem" });
    const households = new HouseholdRepository(h.db.pool);
    await households.create("00000000-0000-4000-8000-000000000001", PHONE, "Yael", h.clock.now());
    await households.addMember("00000000-0000-4000-8000-000000000001", other, "Omer", h.clock.now());
    await new PgContactRepository(h.db.pool).remember(other, { email: "dana@shared.example", name: "Dana" });
    people.addContact(`token-${other}`, "Dana Cohen", "dana.cohen@example.com");

    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana",
      start: "tomorrow at 10:00",
      attendees: [{ name: "Dana" }],
    });
    const done = await h.say("meeting with Dana tomorrow at 10");
    expect(done.text).toBe(
      "📅 Added to your calendar: *Meeting with Dana* — tomorrow 10:00–11:00\nI didn't invite Dana: I don't have their e-mail address. Send it to me and I'll invite them.",
    );
    expect(inserts()[0]!.body).not.toHaveProperty("attendees");
    expect(JSON.stringify(google.requests)).not.toContain("dana@shared.example");
    expect(people.requests.every((r) => r.token === `token-${PHONE}`)).toBe(true);
  });

  it("says in Hebrew that nobody was invited when no address is known", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "פגישה עם דנה",
      start: "מחר ב-10:00",
      attendees: [{ name: "דנה" }],
    });
    const done = await h.say("פגישה עם דנה מחר ב-10");
    expect(done.text).toBe(
      "📅 הוספתי ליומן: *פגישה עם דנה* — מחר 10:00–11:00\nלא הזמנתי את דנה: אין לי את כתובת המייל. שלחו לי אותה ואזמין.",
    );
    expect(inserts()).toHaveLength(1);
  });
});

describe("on the built-in calendar", () => {
  it("keeps the people as text, sends nothing, and shows them in listings (English)", async () => {
    h = await calendarHarness();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana and Avi",
      start: "tomorrow at 10:00",
      attendees: [{ name: "Dana" }, { email: "avi@example.com" }],
    });
    const done = await h.say("meeting with Dana and avi@example.com tomorrow at 10");
    expect(done.text).toBe(
      "📅 Added to your calendar: *Meeting with Dana and Avi* — tomorrow 10:00–11:00\n👥 With Dana, avi@example.com",
    );
    expect(google.requests).toHaveLength(0);
    const { rows } = await h.db.pool.query<{ attendees: unknown }>(
      "SELECT attendees FROM calendar_events WHERE user_phone = $1",
      [PHONE],
    );
    expect(rows[0]!.attendees).toEqual([
      { name: "Dana", email: null },
      { name: null, email: "avi@example.com" },
    ]);
    expect((await storedEvents(h)).map((e) => e.summary)).toEqual(["Meeting with Dana and Avi"]);

    scriptTurn(h, "list_events", { operation: "getEvents", timeMin: "tomorrow" });
    expect((await h.say("what's on tomorrow?")).text).toContain(
      "10:00–11:00 Meeting with Dana and Avi 👥 Dana, avi@example.com",
    );
  });

  it("keeps the people as text in Hebrew, with the address the user gave earlier", async () => {
    h = await calendarHarness();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "פגישה עם דנה",
      start: "מחר ב-10:00",
      attendees: [{ name: "דנה", email: "dana@example.com" }],
    });
    expect((await h.say("פגישה עם דנה dana@example.com מחר ב-10")).text).toBe(
      "📅 הוספתי ליומן: *פגישה עם דנה* — מחר 10:00–11:00\n👥 עם דנה (dana@example.com)",
    );
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "קפה עם דנה",
      start: "יום ראשון ב-09:00",
      attendees: [{ name: "דנה" }],
    });
    expect((await h.say("קפה עם דנה ביום ראשון ב-9")).text).toContain("👥 עם דנה (dana@example.com)");
  });
});
