// When Google refuses a connected user's tokens, calendar requests say so and how to reconnect, in
// the user's language, and change nothing; today's events join the morning digest. "Now" is
// Thursday 5 March 2026, 12:00 in Asia/Jerusalem (UTC+2).
import { afterEach, describe, expect, it } from "vitest";
import { calendarDigestSource } from "../../../src/graph/capabilities/calendar/calendarCapability.js";
import type { CalendarProviders } from "../../../src/types/calendar.js";
import { GoogleConnectionLostError } from "../../../src/services/google/types.js";
import { renderDigest } from "../../../src/services/reminder/proactiveText.js";
import { type DigestContent } from "../../../src/types/proactive.js";
import { PHONE } from "../../support/memoHarness.js";
import {
  calendarHarness,
  isMutateResolver,
  jlm,
  scriptTurn,
  seed,
  ZONE,
  type CalendarHarness,
} from "./calendarScript.js";

let h: CalendarHarness;
afterEach(async () => h?.close());

/** A user whose Google connection was revoked: every calendar call refuses. */
function lostGoogle(): CalendarProviders & { asked: number } {
  const providers = {
    asked: 0,
    forUser(phone: string) {
      providers.asked += 1;
      return Promise.reject(new GoogleConnectionLostError(phone));
    },
  };
  return providers;
}

describe("Google access lost", () => {
  it("answers a calendar look-up with how to reconnect (fast path, English)", async () => {
    const providers = lostGoogle();
    h = await calendarHarness({ llm: "none", env: { FAST_PATH: "on" }, providers });
    const reply = await h.say("my calendar today");
    expect(reply).toMatchObject({
      status: "completed",
      text: 'I\'ve lost access to your Google Calendar (the permission was revoked or has expired). Say "connect Google" and I\'ll send you a new link, or "disconnect Google" to use my own calendar instead.',
    });
    expect(providers.asked).toBeGreaterThan(0);
  });

  it("answers a new event with how to reconnect, in Hebrew, and creates nothing", async () => {
    const providers = lostGoogle();
    h = await calendarHarness({ providers });
    scriptTurn(h, "create_event", { operation: "create", summary: "פגישה עם דנה", start: "מחר ב-14:00" });
    const reply = await h.say("תקבע פגישה עם דנה מחר ב-14:00");
    expect(reply.text).toBe(
      'איבדתי את הגישה ליומן Google שלך (ההרשאה בוטלה או פגה). כתבו "חבר גוגל" ואשלח קישור חדש, או "נתק גוגל" כדי להשתמש ביומן שלי במקום.',
    );
    expect(h.server!.requests.filter(isMutateResolver)).toHaveLength(1);
    const { rows } = await h.db.pool.query("SELECT 1 FROM calendar_events");
    expect(rows).toHaveLength(0);
  });
});

describe("the morning digest", () => {
  it("adds today's events, all-day first, in the user's language and zone", async () => {
    h = await calendarHarness();
    await seed(h, "trip", { summary: "Trip to Eilat", allDay: true, start: "2026-03-05", end: "2026-03-07" });
    await seed(h, "standup", { summary: "Standup", start: jlm(5, "09:30"), end: jlm(5, "09:45") });
    await seed(h, "dentist", {
      summary: "Dentist",
      start: jlm(5, "16:00"),
      end: jlm(5, "17:00"),
      location: "Clinic",
    });
    await seed(h, "tomorrow", { summary: "Brunch", start: jlm(6, "10:00"), end: jlm(6, "11:00") });
    const source = calendarDigestSource(h.providers);
    const day = { startMs: Date.parse(jlm(5, "00:00")), endMs: Date.parse(jlm(6, "00:00")) };

    const section = await source.sectionFor({ phone: PHONE, timeZone: ZONE, language: "en" }, day);
    expect(section).toEqual({
      title: "📅 In your calendar today:",
      lines: [
        { text: "Trip to Eilat (all day)" },
        { time: "09:30", text: "Standup" },
        { time: "16:00", text: "Dentist 📍 Clinic" },
      ],
    });
    const hebrew = await source.sectionFor({ phone: PHONE, timeZone: ZONE, language: "he" }, day);
    expect(hebrew?.title).toBe("📅 ביומן היום:");
    expect(hebrew?.lines[0]).toEqual({ text: "Trip to Eilat (כל היום)" });

    // What the user reads: the section inside the digest.
    const digest: DigestContent = {
      kind: "digest",
      language: "en",
      timeZone: ZONE,
      name: "Dana",
      date: "2026-03-05",
      digestAt: jlm(5, "08:00"),
      today: [],
      overdue: [],
      undated: 0,
      sections: [section!],
    };
    expect(renderDigest(digest)).toContain(
      "📅 In your calendar today:\n• Trip to Eilat (all day)\n• 09:30 Standup\n• 16:00 Dentist 📍 Clinic",
    );
  });

  it("has no section on an empty day, and fails (to be left out) when Google access is lost", async () => {
    h = await calendarHarness();
    const day = { startMs: Date.parse(jlm(5, "00:00")), endMs: Date.parse(jlm(6, "00:00")) };
    const user = { phone: PHONE, timeZone: ZONE, language: "en" as const };
    expect(await calendarDigestSource(h.providers).sectionFor(user, day)).toBeNull();
    await expect(calendarDigestSource(lostGoogle()).sectionFor(user, day)).rejects.toBeInstanceOf(
      GoogleConnectionLostError,
    );
  });
});
