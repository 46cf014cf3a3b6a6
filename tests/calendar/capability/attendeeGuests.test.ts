// Attendees Memo did not write (issue 34 review): an event made in Google Calendar whose guests have
// addresses zod's check refuses (josé@example.com, a punycode TLD, a "!"), an empty displayName and
// the user's own `self` entry can be listed, deleted (after its question) and changed; inviting
// someone to it keeps every field of the guests Google has and says the others get an update; a move
// onto a taken slot that also invites names both; an address is kept among the user's contacts only
// once the event is made, and an over-long name never stops it; an address only in a picture's text
// is not the user's own words (D14). Conversations through the graph with the scripted model; Google
// is the Calendar v3 stand-in. "Now" is Thursday 5 March 2026, 12:00 in Asia/Jerusalem.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FakeGoogleCalendar, googleProviders } from "../../support/fakeGoogleCalendar.js";
import { PHONE } from "../../support/memoHarness.js";
import { calendarHarness, jlm, scriptTurn, seed, type CalendarHarness } from "./calendarScript.js";

let h: CalendarHarness;
let google: FakeGoogleCalendar;

beforeEach(async () => {
  google = await FakeGoogleCalendar.start({ timeZone: "Asia/Jerusalem" });
});
afterEach(async () => {
  await h?.close();
  await google?.close();
});

const TOKEN = `token-${PHONE}`;
const ZONE = "Asia/Jerusalem";

/** Google's own entries of the guests, as Google Calendar itself writes them. */
const GUESTS = [
  { email: "me@example.com", self: true, organizer: true, responseStatus: "accepted" },
  { email: "josé@example.com", displayName: "", responseStatus: "accepted", optional: true },
  { email: "a@b.xn--p1ai", displayName: "Boris", responseStatus: "tentative" },
  { email: "a!b@x.com", responseStatus: "needsAction" },
];

/** "Planning meeting" (or `summary`) tomorrow 10:00–11:00, made in Google Calendar with GUESTS. */
function planningMeeting(summary = "Planning meeting") {
  return google.addEvent(TOKEN, {
    summary,
    start: { dateTime: jlm(6, "10:00"), timeZone: ZONE },
    end: { dateTime: jlm(6, "11:00"), timeZone: ZONE },
    attendees: GUESTS,
  });
}

const onGoogle = () => calendarHarness({ providers: googleProviders(google) });

const contactsKept = async () =>
  (
    await h.db.pool.query<{ email: string; name: string | null }>(
      "SELECT email, name FROM contacts WHERE user_phone = $1 ORDER BY email",
      [PHONE],
    )
  ).rows;

describe("an event whose guests Google wrote", () => {
  it("is listed with its guests, and deleted after its question (English)", async () => {
    h = await onGoogle();
    const meeting = planningMeeting();
    scriptTurn(h, "list_events", { operation: "getEvents", timeMin: "tomorrow" });
    const listed = await h.say("what's on tomorrow?");
    expect(listed.text).toContain("Planning meeting");
    expect(listed.text).toContain("josé@example.com");
    expect(listed.text).toContain("Boris (a@b.xn--p1ai)");

    scriptTurn(
      h,
      "delete_event",
      { operation: "delete", searchCriteria: { summary: "planning meeting" } },
      { riskLevel: "high" },
    );
    expect((await h.say("delete the planning meeting")).text).toBe(
      "Delete *Planning meeting* (tomorrow 10:00–11:00)?",
    );
    expect(google.calendarRequests("DELETE")).toHaveLength(0);
    expect((await h.say("yes")).text).toContain("🗑️ Deleted *Planning meeting*");
    expect(google.calendarRequests("DELETE").map((r) => r.path)).toEqual([
      expect.stringContaining(meeting.id!),
    ]);
  });

  it("is deleted after its question in Hebrew", async () => {
    h = await onGoogle();
    planningMeeting("ישיבת תכנון");
    scriptTurn(
      h,
      "delete_event",
      { operation: "delete", searchCriteria: { summary: "ישיבת תכנון" } },
      { riskLevel: "high" },
    );
    expect((await h.say("תמחק את ישיבת התכנון של מחר")).text).toBe(
      "למחוק את *ישיבת תכנון* (מחר 10:00–11:00)?",
    );
    expect((await h.say("כן")).text).toContain("🗑️ מחקתי את *ישיבת תכנון*");
    expect(google.calendarRequests("DELETE")).toHaveLength(1);
  });

  it("moves, keeping its guests as Google has them (Hebrew)", async () => {
    h = await onGoogle();
    planningMeeting("ישיבת תכנון");
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "ישיבת תכנון" },
      updateFields: { start: "15:00" },
    });
    // No "invitation sent" line: moving it invites nobody new.
    expect((await h.say("תזיז את ישיבת התכנון לשלוש אחרי הצהריים")).text).toBe(
      "✏️ עדכנתי את *ישיבת תכנון* — מחר 15:00–16:00",
    );
    const patches = google.calendarRequests("PATCH");
    expect(patches).toHaveLength(1);
    expect(patches[0]!.body).not.toHaveProperty("attendees");
    expect(google.storedEvents(TOKEN)[0]!.attendees).toEqual(GUESTS);
  });

  it("invites someone new keeping every field of the guests, and says they get an update (English)", async () => {
    h = await onGoogle();
    planningMeeting();
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "planning meeting" },
      updateFields: { attendees: [{ name: "Dana", email: "dana@example.com" }] },
    });
    expect((await h.say("invite Dana dana@example.com to the planning meeting")).text).toBe(
      "Invite Dana (dana@example.com) to *Planning meeting* (tomorrow 10:00–11:00)? Google Calendar will e-mail them, and e-mail an update to the guests already invited.",
    );
    // Nothing is kept before the user says yes.
    expect(await contactsKept()).toEqual([]);
    // Only the new guest is named as invited.
    expect((await h.say("yes")).text).toBe(
      "✏️ Updated *Planning meeting* — tomorrow 10:00–11:00\n✉️ Invitation sent to Dana (dana@example.com)",
    );
    const patch = google.calendarRequests("PATCH")[0]!;
    expect(patch.query).toMatchObject({ sendUpdates: "all" });
    expect(patch.body).toEqual({
      attendees: [...GUESTS, { email: "dana@example.com", displayName: "Dana" }],
    });
    expect(await contactsKept()).toEqual([{ email: "dana@example.com", name: "Dana" }]);
  });

  it("says in Hebrew that the guests already invited get an update", async () => {
    h = await onGoogle();
    planningMeeting("ישיבת תכנון");
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "ישיבת תכנון" },
      updateFields: { attendees: [{ name: "דנה", email: "dana@example.com" }] },
    });
    expect((await h.say("תזמין את דנה dana@example.com לישיבת התכנון של מחר")).text).toBe(
      "להזמין את דנה (dana@example.com) לאירוע *ישיבת תכנון* (מחר 10:00–11:00)? יומן Google ישלח להם מייל, וגם עדכון במייל לאורחים שכבר הוזמנו.",
    );
    await h.say("לא");
    expect(google.calendarRequests("PATCH")).toHaveLength(0);
    // A "no" keeps no address either.
    expect(await contactsKept()).toEqual([]);
  });
});

describe("moving onto a taken slot and inviting", () => {
  async function standupAndReview() {
    await seed(h, "standup", { summary: "Standup", start: jlm(6, "09:00"), end: jlm(6, "09:30") });
    await seed(h, "review", { summary: "Design review", start: jlm(6, "15:00"), end: jlm(6, "16:00") });
  }

  it("names the clash and the invitation in one question (English)", async () => {
    h = await onGoogle();
    await standupAndReview();
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "standup" },
      updateFields: { start: "15:00", attendees: [{ email: "dana@x.com" }] },
    });
    expect((await h.say("move the standup to 15:00 and invite dana@x.com")).text).toBe(
      "⚠️ At the new time *Standup* would overlap *Design review* (tomorrow 15:00–16:00). Move it anyway?\nGoogle Calendar will also e-mail an invitation to dana@x.com.",
    );
    expect(google.calendarRequests("PATCH")).toHaveLength(0);
    await h.say("yes");
    expect(google.calendarRequests("PATCH")[0]!.body).toMatchObject({
      attendees: [{ email: "dana@x.com" }],
    });
  });

  it("names the clash and the invitation in one question (Hebrew)", async () => {
    h = await onGoogle();
    await standupAndReview();
    scriptTurn(h, "update_event", {
      operation: "update",
      searchCriteria: { summary: "Standup" },
      updateFields: { start: "15:00", attendees: [{ email: "dana@x.com" }] },
    });
    const asked = await h.say("תזיז את הסטנדאפ של מחר לשלוש ותזמין גם את dana@x.com");
    expect(asked.text).toContain("יחפוף ל*Design review*");
    expect(asked.text).toContain("יומן Google ישלח גם הזמנה במייל אל dana@x.com.");
  });
});

describe("keeping the addresses the user typed", () => {
  it("makes the event when the model's name is too long to keep, and keeps the address alone", async () => {
    h = await onGoogle();
    const name = "Dana ".repeat(50).trim();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana",
      start: "tomorrow at 10:00",
      attendees: [{ name, email: "dana@example.com" }],
    });
    expect((await h.say("meeting with dana@example.com tomorrow at 10")).text).toContain(
      "send an invitation to dana@example.com?",
    );
    expect((await h.say("yes")).text).toContain("📅 Added to your calendar: *Meeting with Dana*");
    expect(google.storedEvents(TOKEN)).toHaveLength(1);
    expect(await contactsKept()).toEqual([{ email: "dana@example.com", name: null }]);
  });
});

describe("an address only in a picture's text (D14)", () => {
  const card = (extractedText: string) => ({
    imageContext: {
      imageId: "img1",
      imageType: "structured" as const,
      extractedAt: h.clock.now(),
      analysisResult: { description: "a business card", extractedText },
    },
  });

  it("is not the user's own words: nobody is invited (English)", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "Meeting with Dana",
      start: "tomorrow at 10:00",
      attendees: [{ name: "Dana", email: "dana@example.com" }],
    });
    const done = await h.say("meeting with her tomorrow at 10", card("Dana Levi dana@example.com"));
    expect(done.text).toContain("I didn't invite Dana");
    expect(google.storedEvents(TOKEN)[0]).not.toHaveProperty("attendees");
    expect(await contactsKept()).toEqual([]);
  });

  it("is not the user's own words in Hebrew either", async () => {
    h = await onGoogle();
    scriptTurn(h, "create_event", {
      operation: "create",
      summary: "פגישה עם דנה",
      start: "מחר ב-10:00",
      attendees: [{ name: "דנה", email: "dana@example.com" }],
    });
    const done = await h.say("פגישה איתה מחר ב-10", card("דנה לוי dana@example.com"));
    expect(done.text).toContain("לא הזמנתי את דנה");
    expect(google.storedEvents(TOKEN)[0]).not.toHaveProperty("attendees");
  });
});
