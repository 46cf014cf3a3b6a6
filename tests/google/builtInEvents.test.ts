// Connecting Google while the built-in calendar holds events still ahead: the chat confirmation
// says they stay there (and come back after disconnecting) but won't show in Google Calendar.
import { afterEach, describe, expect, it } from "vitest";
import { fakeClock } from "../support/clock.js";
import { backends } from "../support/db.js";
import {
  connectThroughBrowser,
  PHONE_A,
  PHONE_B,
  startGoogleTestbed,
  type GoogleTestbed,
} from "./testbed.js";

/** 00:30 on March 6 in Jerusalem, still March 5 in New York. */
const NOW = "2026-03-05T22:30:00Z";

type Event =
  | { timed: [start: string, end: string | null]; recurring?: boolean }
  | { allDay: [startDate: string, endDate: string]; timeZone: string };

describe.each(backends)("the built-in events notice on $name", (backend) => {
  let bed: GoogleTestbed;
  afterEach(async () => bed?.close());

  /** Puts events in the user's built-in calendar. */
  async function addEvents(phone: string, events: Event[]) {
    for (const [i, event] of events.entries()) {
      const timed = "timed" in event;
      await bed.db.pool.query(
        `INSERT INTO calendar_events
           (user_phone, summary, all_day, start_at, end_at, start_date, end_date, time_zone, recurrence)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          phone,
          `event ${i}`,
          !timed,
          timed ? event.timed[0] : null,
          timed ? event.timed[1] : null,
          timed ? null : event.allDay[0],
          timed ? null : event.allDay[1],
          timed ? "Asia/Jerusalem" : event.timeZone,
          timed && event.recurring ? JSON.stringify({ frequency: "weekly", interval: 1, days: [1] }) : null,
        ],
      );
    }
  }

  it("counts only events still ahead and says so in English", async () => {
    bed = await startGoogleTestbed(backend, { clock: fakeClock(NOW) });
    await addEvents(PHONE_A, [
      // Counted: tomorrow; under way now; recurring since long ago; all-day today in New York.
      { timed: ["2026-03-06T08:00:00Z", "2026-03-06T09:00:00Z"] },
      { timed: ["2026-03-05T22:00:00Z", "2026-03-05T23:00:00Z"] },
      { timed: ["2025-01-06T08:00:00Z", "2025-01-06T09:00:00Z"], recurring: true },
      { allDay: ["2026-03-05", "2026-03-06"], timeZone: "America/New_York" },
      // Not counted: over; all-day March 5 in Jerusalem, where it is March 6 already.
      { timed: ["2026-03-05T20:00:00Z", "2026-03-05T21:00:00Z"] },
      { allDay: ["2026-03-05", "2026-03-06"], timeZone: "Asia/Jerusalem" },
    ]);
    // Someone else's events are not this user's.
    await addEvents(PHONE_B, [{ timed: ["2026-03-07T08:00:00Z", "2026-03-07T09:00:00Z"] }]);

    expect((await connectThroughBrowser(bed, PHONE_A)).status).toBe(200);
    expect(bed.notified).toEqual([
      {
        phone: PHONE_A,
        text:
          "Google is connected ✅ (user@example.com) I can now use your calendar and Gmail. " +
          "You have 4 events in my own calendar; they stay there and come back if you disconnect Google, " +
          "but they won't show in Google Calendar.",
      },
    ]);
  });

  it("says it in Hebrew, in the singular for one event, after the note about unticked access", async () => {
    bed = await startGoogleTestbed(backend, { clock: fakeClock(NOW) });
    await addEvents(PHONE_B, [{ allDay: ["2026-03-06", "2026-03-08"], timeZone: "Asia/Jerusalem" }]);
    bed.google.withhold = ["https://www.googleapis.com/auth/gmail.modify"];
    await connectThroughBrowser(bed, PHONE_B);
    expect(bed.notified.at(-1)).toEqual({
      phone: PHONE_B,
      text:
        'גוגל מחובר (user@example.com), אבל לא אישרת גישה ל-Gmail, אז אין לי גישה למייל שלך. כדי לאשר, כתבו "נתק גוגל", אחר כך "חבר גוגל", וסמנו את Gmail בדף של גוגל. ' +
        "יש לך אירוע אחד ביומן שלי; הוא נשאר שם וחוזר אם מנתקים את גוגל, אבל הוא לא יופיע ביומן גוגל.",
    });
  });

  it("uses the plural in Hebrew, and the singular in English", async () => {
    bed = await startGoogleTestbed(backend, { clock: fakeClock(NOW) });
    await addEvents(PHONE_B, [
      { timed: ["2026-03-06T08:00:00Z", "2026-03-06T09:00:00Z"] },
      { timed: ["2026-03-07T08:00:00Z", null] },
    ]);
    await addEvents(PHONE_A, [{ timed: ["2026-03-06T08:00:00Z", "2026-03-06T09:00:00Z"] }]);
    await connectThroughBrowser(bed, PHONE_B);
    await connectThroughBrowser(bed, PHONE_A);
    expect(bed.notified.map((n) => n.text)).toEqual([
      "גוגל מחובר ✅ (user@example.com) עכשיו אני יכול להשתמש ביומן וב-Gmail שלך. " +
        "יש לך 2 אירועים ביומן שלי; הם נשארים שם וחוזרים אם מנתקים את גוגל, אבל הם לא יופיעו ביומן גוגל.",
      "Google is connected ✅ (user@example.com) I can now use your calendar and Gmail. " +
        "You have 1 event in my own calendar; it stays there and comes back if you disconnect Google, " +
        "but it won't show in Google Calendar.",
    ]);
  });

  it("adds nothing when every built-in event is over", async () => {
    bed = await startGoogleTestbed(backend, { clock: fakeClock(NOW) });
    await addEvents(PHONE_A, [
      { timed: ["2026-03-01T08:00:00Z", "2026-03-01T09:00:00Z"] },
      { allDay: ["2026-03-04", "2026-03-05"], timeZone: "America/New_York" },
    ]);
    await connectThroughBrowser(bed, PHONE_A);
    expect(bed.notified).toEqual([
      {
        phone: PHONE_A,
        text: "Google is connected ✅ (user@example.com) I can now use your calendar and Gmail.",
      },
    ]);
  });
});
