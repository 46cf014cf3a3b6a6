import { describe, expect, it } from "vitest";
import { durationText, renderProactive, digestIsEmpty } from "../../src/services/reminder/proactiveText.js";
import { type AwayContent, type DigestContent, type RingContent } from "../../src/types/proactive.js";
import {
  inQuietHours,
  planRing,
  quietHoursEnd,
  type DueTask,
  type QuietHours,
} from "../../src/services/reminder/ringPlan.js";
import { parseSettingsCommand, type SettingsCommand } from "../../src/nlu/settingsCommand.js";

/** The scheduler's pure parts: what rings when, what a message says, which chat messages are settings. */

const TZ = "Asia/Jerusalem";
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const MIN = 60_000;

function task(fields: Partial<DueTask> & { nextFireAt: string }): DueTask {
  return {
    id: "11111111-1111-4111-8111-111111111111",
    dueAt: null,
    recurrence: null,
    reminderOffsetMinutes: null,
    timeZone: TZ,
    ...fields,
  };
}

const NIGHT: QuietHours = { start: "22:00", end: "07:00", timeZone: TZ };

describe("planRing", () => {
  it("a one-time reminder rings once at its time and has no next ring", () => {
    const plan = planRing(
      task({ nextFireAt: "2026-03-02T08:00:00Z", dueAt: "2026-03-02T08:00:00Z" }),
      at("2026-03-02T08:00:00Z"),
      null,
    );
    expect(plan).toEqual({
      ring: { kind: "reminder", fireAt: at("2026-03-02T08:00:00Z") },
      skipped: 0,
      nextFireAt: null,
    });
  });

  it("'an hour before': the early ring, then the due time comes as an overdue notice", () => {
    const early = task({
      nextFireAt: "2026-03-02T07:00:00Z",
      dueAt: "2026-03-02T08:00:00Z",
      reminderOffsetMinutes: 60,
    });
    const first = planRing(early, at("2026-03-02T07:00:00Z"), null);
    expect(first.ring?.kind).toBe("reminder");
    expect(iso(first.nextFireAt)).toBe("2026-03-02T08:00:00.000Z");
    const due = planRing({ ...early, nextFireAt: "2026-03-02T08:00:00Z" }, at("2026-03-02T08:00:00Z"), null);
    expect(due).toEqual({
      ring: { kind: "overdue", fireAt: at("2026-03-02T08:00:00Z") },
      skipped: 0,
      nextFireAt: null,
    });
  });

  it("'an hour before' with both times missed: one ring, no overdue notice after it", () => {
    const early = task({
      nextFireAt: "2026-03-02T07:00:00Z",
      dueAt: "2026-03-02T08:00:00Z",
      reminderOffsetMinutes: 60,
    });
    const plan = planRing(early, at("2026-03-02T08:30:00Z"), null);
    expect(plan).toEqual({
      ring: { kind: "reminder", fireAt: at("2026-03-02T07:00:00Z") },
      skipped: 0,
      nextFireAt: null,
    });
  });

  it("a daily reminder missed for three days rings only the latest occurrence", () => {
    const daily = task({ nextFireAt: "2026-03-02T07:00:00Z", recurrence: { type: "daily", time: "09:00" } });
    const plan = planRing(daily, at("2026-03-05T10:00:00Z"), null);
    expect(plan.ring).toEqual({ kind: "recurring", fireAt: at("2026-03-05T07:00:00Z") });
    expect(plan.skipped).toBe(3);
    expect(iso(plan.nextFireAt)).toBe("2026-03-06T07:00:00.000Z");
  });

  it("a daily reminder on time skips nothing; its next ring keeps local 09:00 across the spring forward", () => {
    const daily = task({ nextFireAt: "2026-03-26T07:00:00Z", recurrence: { type: "daily", time: "09:00" } });
    const plan = planRing(daily, at("2026-03-26T07:00:00Z"), null);
    expect(plan.skipped).toBe(0);
    expect(iso(plan.nextFireAt)).toBe("2026-03-27T06:00:00.000Z");
  });

  it("a recurring reminder's lead time applies to each occurrence", () => {
    const weekly = task({
      nextFireAt: "2026-03-02T06:45:00Z",
      recurrence: { type: "weekly", time: "09:00", days: [1] },
      reminderOffsetMinutes: 15,
    });
    expect(iso(planRing(weekly, at("2026-03-02T06:45:00Z"), null).nextFireAt)).toBe(
      "2026-03-09T06:45:00.000Z",
    );
  });

  it("a recurring reminder past its end has no next ring", () => {
    const daily = task({
      nextFireAt: "2026-03-02T07:00:00Z",
      recurrence: { type: "daily", time: "09:00", until: "2026-03-02T21:59:00Z" },
    });
    expect(planRing(daily, at("2026-03-02T07:00:00Z"), null).nextFireAt).toBeNull();
  });

  it("a nudge rings and comes again an interval after it actually went", () => {
    const nudge = task({
      nextFireAt: "2026-03-02T08:00:00Z",
      recurrence: { type: "nudge", intervalMinutes: 10 },
    });
    const plan = planRing(nudge, at("2026-03-02T08:03:00Z"), null);
    expect(plan.ring).toEqual({ kind: "nudge", fireAt: at("2026-03-02T08:00:00Z") });
    expect(iso(plan.nextFireAt)).toBe("2026-03-02T08:13:00.000Z");
  });

  it("a nudge stops at its end", () => {
    const nudge = task({
      nextFireAt: "2026-03-02T08:00:00Z",
      recurrence: { type: "nudge", intervalMinutes: 10, until: "2026-03-02T08:05:00Z" },
    });
    expect(planRing(nudge, at("2026-03-02T08:00:00Z"), null)).toMatchObject({
      ring: { kind: "nudge" },
      nextFireAt: null,
    });
  });

  it("a nudge in quiet hours does not ring and waits for their end", () => {
    const nudge = task({
      nextFireAt: "2026-03-02T20:10:00Z",
      recurrence: { type: "nudge", intervalMinutes: 10 },
    });
    const plan = planRing(nudge, at("2026-03-02T20:10:00Z"), NIGHT); // 22:10 local
    expect(plan).toEqual({ ring: null, skipped: 0, nextFireAt: at("2026-03-03T05:00:00Z") });
  });

  it("a nudge that ends before the quiet hours do is over", () => {
    const nudge = task({
      nextFireAt: "2026-03-02T20:10:00Z",
      recurrence: { type: "nudge", intervalMinutes: 10, until: "2026-03-02T23:00:00Z" },
    });
    expect(planRing(nudge, at("2026-03-02T20:10:00Z"), NIGHT)).toEqual({
      ring: null,
      skipped: 0,
      nextFireAt: null,
    });
  });

  it("quiet hours follow the user's zone, not the task's", () => {
    const nudge = task({
      nextFireAt: "2026-03-02T20:10:00Z",
      recurrence: { type: "nudge", intervalMinutes: 10 },
    });
    // 22:10 in Jerusalem is 15:10 in New York: not quiet there.
    const plan = planRing(nudge, at("2026-03-02T20:10:00Z"), { ...NIGHT, timeZone: "America/New_York" });
    expect(plan.ring?.kind).toBe("nudge");
  });

  it("quiet hours hold nudges only: one-time and recurring reminders ring", () => {
    const now = at("2026-03-02T21:00:00Z"); // 23:00 local
    expect(planRing(task({ nextFireAt: "2026-03-02T21:00:00Z" }), now, NIGHT).ring?.kind).toBe("reminder");
    const daily = task({ nextFireAt: "2026-03-02T21:00:00Z", recurrence: { type: "daily", time: "23:00" } });
    expect(planRing(daily, now, NIGHT).ring?.kind).toBe("recurring");
  });
});

describe("inQuietHours and quietHoursEnd", () => {
  const local = (hhmm: string) => at(`2026-03-02T${hhmm}:00+02:00`);

  it.each([
    ["21:59", false],
    ["22:00", true],
    ["23:30", true],
    ["00:00", true],
    ["03:00", true],
    ["06:59", true],
    ["07:00", false],
    ["12:00", false],
  ])("22:00–07:00 at %s local: %s", (hhmm, quiet) => {
    expect(inQuietHours(local(hhmm), NIGHT)).toBe(quiet);
  });

  it.each([
    ["12:59", false],
    ["13:00", true],
    ["14:59", true],
    ["15:00", false],
  ])("13:00–15:00 (same day) at %s local: %s", (hhmm, quiet) => {
    expect(inQuietHours(local(hhmm), { start: "13:00", end: "15:00", timeZone: TZ })).toBe(quiet);
  });

  it("equal bounds or unreadable ones are no quiet hours", () => {
    expect(inQuietHours(local("03:00"), { start: "07:00", end: "07:00", timeZone: TZ })).toBe(false);
    expect(inQuietHours(local("03:00"), { start: "late", end: "07:00", timeZone: TZ })).toBe(false);
  });

  it("read in the user's zone: 22:30 in Kolkata is quiet, the same instant in Jerusalem is not", () => {
    const instant = at("2026-03-02T17:00:00Z");
    expect(inQuietHours(instant, { ...NIGHT, timeZone: "Asia/Kolkata" })).toBe(true);
    expect(inQuietHours(instant, NIGHT)).toBe(false);
  });

  it("they end at the next local 07:00: the same morning, or the next one from the evening", () => {
    expect(iso(quietHoursEnd(local("03:00"), NIGHT))).toBe("2026-03-02T05:00:00.000Z");
    expect(iso(quietHoursEnd(local("23:00"), NIGHT))).toBe("2026-03-03T05:00:00.000Z");
  });

  it("their end is local 07:00 also on the night the clocks go forward", () => {
    // Night of 26–27 March in Jerusalem: 07:00 is +03:00 that morning.
    expect(iso(quietHoursEnd(at("2026-03-26T21:00:00Z"), NIGHT))).toBe("2026-03-27T04:00:00.000Z");
  });
});

describe("renderProactive", () => {
  const ring = (fields: Partial<RingContent> = {}): RingContent => ({
    kind: "reminder",
    language: "en",
    timeZone: TZ,
    taskId: "t1",
    text: "call mom",
    fireAt: "2026-03-02T08:00:00.000Z", // 10:00 local
    dueAt: "2026-03-02T08:00:00.000Z",
    ...fields,
  });
  const due = at("2026-03-02T08:00:00Z");

  it("a reminder on time: its text and the two buttons", () => {
    expect(renderProactive(ring(), due)).toEqual({
      text: "⏰ Reminder: call mom",
      buttons: [
        { id: "rem:done:t1", label: "Done ✅" },
        { id: "rem:snooze:t1", label: "Snooze 10 min" },
      ],
    });
  });

  it("says nothing about lateness up to 2 minutes, and says it after", () => {
    expect(renderProactive(ring(), due + 2 * MIN).text).toBe("⏰ Reminder: call mom");
    expect(renderProactive(ring(), due + 2 * MIN + 1000).text).toBe(
      "⏰ Reminder: call mom\n(Sorry, this comes 2 minutes late: it was due today at 10:00.)",
    );
  });

  it("in Hebrew: text, lateness and buttons", () => {
    expect(renderProactive(ring({ language: "he", text: "להתקשר לאמא" }), due + 75 * MIN)).toEqual({
      text: "⏰ תזכורת: להתקשר לאמא\n(סליחה, זה מגיע באיחור של שעה ו-15 דקות: זה היה אמור להגיע היום ב-10:00.)",
      buttons: [
        { id: "rem:done:t1", label: "בוצע ✅" },
        { id: "rem:snooze:t1", label: "דחה ב-10 דק׳" },
      ],
    });
  });

  it("an early ring names the due time; sent only after the due time, it is late for that", () => {
    const early = ring({ fireAt: "2026-03-02T07:30:00.000Z" });
    expect(renderProactive(early, at("2026-03-02T07:30:00Z")).text).toBe(
      "⏰ Reminder: call mom (today at 10:00)",
    );
    expect(renderProactive(early, at("2026-03-02T07:40:00Z")).text).toBe(
      "⏰ Reminder: call mom (today at 10:00)\n(Sorry, this comes 10 minutes late: it was due today at 09:30.)",
    );
    expect(renderProactive(early, at("2026-03-02T08:20:00Z")).text).toBe(
      "⏰ Reminder: call mom\n(Sorry, this comes 20 minutes late: it was due today at 10:00.)",
    );
  });

  it("an overdue notice names the due time and never adds a late line", () => {
    const overdue = ring({ kind: "overdue" });
    expect(renderProactive(overdue, due + 3 * 60 * MIN).text).toBe(
      "⚠️ Still open: call mom (it was due today at 10:00).",
    );
    expect(renderProactive(overdue, due).buttons).toHaveLength(2);
  });

  it("a recurring reminder has no buttons; a nudge says how often it comes back", () => {
    expect(renderProactive(ring({ kind: "recurring" }), due)).toEqual({
      text: "🔁 Reminder: call mom",
      buttons: [],
    });
    const nudge = renderProactive(ring({ kind: "nudge", intervalMinutes: 60 }), due);
    expect(nudge.text).toBe("🔔 call mom\nI'll remind you again every hour until it's done.");
    expect(nudge.buttons.map((b) => b.id)).toEqual(["rem:done:t1", "rem:snooze:t1"]);
    expect(renderProactive(ring({ kind: "nudge", intervalMinutes: 30, language: "he" }), due).text).toBe(
      "🔔 call mom\nאזכיר שוב כל חצי שעה עד שזה ייעשה.",
    );
  });

  it("the away message lists the items oldest first, with their days", () => {
    const away: AwayContent = {
      kind: "away",
      language: "en",
      timeZone: TZ,
      items: [
        { text: "B", fireAt: "2026-03-02T10:00:00.000Z" },
        { text: "A", fireAt: "2026-02-28T08:00:00.000Z" },
      ],
    };
    expect(renderProactive(away, at("2026-03-03T09:00:00Z"))).toEqual({
      text: "While I was away, these came due:\n• A (Sat 28/02 at 10:00)\n• B (yesterday at 12:00)\nTell me what's done, or what to move.",
      buttons: [],
    });
    expect(renderProactive({ ...away, language: "he" }, at("2026-03-03T09:00:00Z")).text).toBe(
      "בזמן שלא הייתי זמין, הגיע הזמן של אלה:\n• A (יום שבת 28/02 ב-10:00)\n• B (אתמול ב-12:00)\nאפשר לכתוב לי מה בוצע, או מה להזיז.",
    );
  });

  it("a digest leaves out empty parts; one with nothing at all counts as empty", () => {
    const digest: DigestContent = {
      kind: "digest",
      language: "en",
      timeZone: TZ,
      name: null,
      date: "2026-03-02",
      digestAt: "2026-03-02T06:00:00.000Z",
      today: [],
      overdue: [],
      undated: 0,
      sections: [{ title: "Calendar:", lines: [] }],
    };
    expect(digestIsEmpty(digest)).toBe(true);
    expect(digestIsEmpty({ ...digest, undated: 1 })).toBe(false);
    expect(digestIsEmpty({ ...digest, sections: [{ title: "Calendar:", lines: [{ text: "x" }] }] })).toBe(
      false,
    );
    expect(renderProactive({ ...digest, undated: 1 }, at("2026-03-02T06:00:00Z")).text).toBe(
      '☀️ Good morning! Here\'s your day, Monday 02/03:\n\nPlus 1 open task with no date.\n\nSay "stop the morning summary" to turn these off.',
    );
  });
});

describe("durationText", () => {
  it.each([
    [30_000, "1 minute", "דקה"],
    [MIN, "1 minute", "דקה"],
    [5 * MIN, "5 minutes", "5 דקות"],
    [59 * MIN, "59 minutes", "59 דקות"],
    [60 * MIN, "1 hour", "שעה"],
    [61 * MIN, "1 hour 1 minute", "שעה ודקה"],
    [90 * MIN, "1 hour 30 minutes", "שעה ו-30 דקות"],
    [120 * MIN, "2 hours", "שעתיים"],
    [130 * MIN, "2 hours 10 minutes", "שעתיים ו-10 דקות"],
    [5 * 60 * MIN, "5 hours", "5 שעות"],
    [25 * 60 * MIN, "25 hours", "25 שעות"],
    [48 * 60 * MIN, "2 days", "יומיים"],
    [3 * 24 * 60 * MIN, "3 days", "3 ימים"],
  ])("%d ms: %s / %s", (ms, en, he) => {
    expect(durationText(ms, "en")).toBe(en);
    expect(durationText(ms, "he")).toBe(he);
  });
});

describe("parseSettingsCommand", () => {
  const off: SettingsCommand = { kind: "digestOff" };
  const on: SettingsCommand = { kind: "digestOn" };
  const digestAt = (time: string): SettingsCommand => ({ kind: "digestAt", time });
  const quiet = (start: string, end: string): SettingsCommand => ({ kind: "quietHours", start, end });
  const quietOff: SettingsCommand = { kind: "quietOff" };
  const quietShow: SettingsCommand = { kind: "quietShow" };

  it.each<[string, SettingsCommand | null]>([
    // The digest off.
    ["stop the morning summary", off],
    ["Stop the morning summary please", off],
    ["please stop sending me the daily digest", off],
    ["turn off the digest", off],
    ["no more morning summaries", off],
    ["don't send me the morning brief anymore", off],
    ["morning summary off", off],
    ["unsubscribe from the daily digest", off],
    ["ok thanks, stop the daily summary!", off],
    ["can you stop the morning summary?", off],
    ["תפסיק את סיכום הבוקר", off],
    ["בטל את הסיכום היומי", off],
    ["די עם סיכום הבוקר", off],
    ["אל תשלח לי את סיכום הבוקר יותר", off],
    ["תפסיקי לשלוח לי את סיכום הבוקר בבקשה", off],
    // The digest on.
    ["turn on the morning summary", on],
    ["resume the daily digest", on],
    ["morning summary on", on],
    ["send me the morning summary again", on],
    ["start the digest", on],
    ["תפעיל את סיכום הבוקר", on],
    ["תחזיר את סיכום הבוקר", on],
    // The digest at another time.
    ["send the digest at 7:30", digestAt("07:30")],
    ["send the morning summary at 7", digestAt("07:00")],
    ["move the digest to 6:45", digestAt("06:45")],
    ["set the morning summary for 9am", digestAt("09:00")],
    ["morning summary at 08:15", digestAt("08:15")],
    ["change my daily digest to 7.30", digestAt("07:30")],
    ["send the digest at 7pm", digestAt("19:00")],
    ["send the digest at 12", digestAt("12:00")],
    ["Memo, can you send the digest at 6:30 please?", digestAt("06:30")],
    ["שלח את סיכום הבוקר ב-7:30", digestAt("07:30")],
    ["תעביר את סיכום הבוקר לשעה 7", digestAt("07:00")],
    ["סיכום הבוקר ב-6:45", digestAt("06:45")],
    // Quiet hours.
    ["quiet hours 22:00-07:00", quiet("22:00", "07:00")],
    ["set quiet hours from 23:00 to 6:30", quiet("23:00", "06:30")],
    ["quiet hours 10pm-7am", quiet("22:00", "07:00")],
    ["quiet hours 10-7", quiet("22:00", "07:00")],
    ["my quiet hours are 22:30 until 06:00", quiet("22:30", "06:00")],
    ["quiet hours 13:00-15:00", quiet("13:00", "15:00")],
    ["שעות שקט 22:00-07:00", quiet("22:00", "07:00")],
    ["שעות שקט 22-7", quiet("22:00", "07:00")],
    ["הגדר שעות שקט מ-23:00 עד 6:00", quiet("23:00", "06:00")],
    ["שעות השקט שלי הן 23:00-06:30", quiet("23:00", "06:30")],
    ["turn off quiet hours", quietOff],
    ["no quiet hours", quietOff],
    ["quiet hours off", quietOff],
    ["בטל את שעות השקט", quietOff],
    ["בלי שעות שקט", quietOff],
    ["what are my quiet hours?", quietShow],
    ["my quiet hours", quietShow],
    ["מה שעות השקט שלי?", quietShow],
    // Not settings: left to the planner.
    ["summarize my notes", null],
    ["cancel the summary", null],
    ["תשלח לי עדכון ב-5", null],
    ["בלי עדכון", null],
    ["בטל את העדכון", null],
    ["תחזיר לי עדכון", null],
    ["quiet hours 12-6", { kind: "quietHours", start: "00:00", end: "06:00" }],
    ["remind me to stop the car", null],
    ["send the report at 7:30", null],
    ["stop", null],
    ["digest", null],
    ["what's the summary of the meeting?", null],
    ["send me a summary of my tasks", null],
    ["send me the summary", null],
    ["send the summary at 5", null],
    ["remind me at 7:30 to read the digest", null],
    ["is the morning summary on?", null],
    ["the morning summary was great", null],
    ["stop the morning summary and remind me to call mom", null],
    ["cancel the summary meeting", null],
    ["move the meeting to 7:30", null],
    ["set an alarm for 7:30", null],
    ["quiet please", null],
    ["send the digest at 25:00", null],
    ["send the digest at 7:75", null],
    ["quiet hours 07:00-07:00", null],
    ["תזכיר לי לעצור את האוטו", null],
    ["תסכם לי את הפגישה", null],
    ["שלח את הדוח ב-7:30", null],
    ["תשלח לי סיכום של המשימות", null],
    ["שלח לי את הסיכום", null],
    ["שעות שקט בספרייה", null],
    [`stop the morning summary ${"please ".repeat(20)}`, null],
    ["", null],
    // Shabbat and holiday quiet, and the holiday calendar (issue 36).
    ["quiet on Shabbat and holidays", { kind: "sabbathOn", city: null }],
    ["Please don't message me on Shabbat.", { kind: "sabbathOn", city: null }],
    ["quiet on Shabbat in Haifa", { kind: "sabbathOn", city: "Haifa" }],
    ["don't send me reminders on shabbat and holidays in New York", { kind: "sabbathOn", city: "New York" }],
    ["שקט בשבת ובחגים", { kind: "sabbathOn", city: null }],
    ["אל תשלח לי הודעות בשבת", { kind: "sabbathOn", city: null }],
    ["שקט בשבת בירושלים", { kind: "sabbathOn", city: "ירושלים" }],
    ["stop Shabbat quiet", { kind: "sabbathOff" }],
    ["בטל שקט בשבת", { kind: "sabbathOff" }],
    ["my Shabbat settings", { kind: "sabbathShow" }],
    ["מה הגדרות השבת שלי?", { kind: "sabbathShow" }],
    ["use the diaspora holiday calendar", { kind: "calendarSchedule", schedule: "diaspora" }],
    ["I keep Israel's holidays", { kind: "calendarSchedule", schedule: "israel" }],
    ['תשתמש בלוח החגים של חו"ל', { kind: "calendarSchedule", schedule: "diaspora" }],
    ["אני שומרת את לוח החגים של ישראל", { kind: "calendarSchedule", schedule: "israel" }],
    ["תעבור ללוח החגים של ישראל בבקשה", { kind: "calendarSchedule", schedule: "israel" }],
    ["switch to the israeli holiday calendar", { kind: "calendarSchedule", schedule: "israel" }],
    // A calendar named without a verb, or asked about, changes nothing (the planner answers).
    ["israel holidays", null],
    ["Israeli holidays?", null],
    ["holidays in Israel", null],
    ["israel calendar", null],
    ["israel schedule", null],
    ["abroad schedule", null],
    ["use the israeli holiday calendar?", null],
    ["חגים ישראל", null],
    ["לוח חגים ישראל", null],
    ['לוח חגים של חו"ל', null],
    // Politeness is not a city; ordinary words after ב / at / for narrow the request: not this setting.
    ["שקט בשבת בבקשה", { kind: "sabbathOn", city: null }],
    ["quiet on Shabbat please", { kind: "sabbathOn", city: null }],
    ["שקט בשבת בחיפה בבקשה", { kind: "sabbathOn", city: "חיפה" }],
    ["quiet on shabbat in new york please", { kind: "sabbathOn", city: "new york" }],
    ["quiet on Shabbat in Springfield", { kind: "sabbathOn", city: "Springfield" }],
    ["אל תשלח לי הודעות בשבת בבוקר", null],
    ["שקט בשבת בבית", null],
    ["quiet on Shabbat at home", null],
    ["don't text me on shabbat at work", null],
    ["quiet on shabbat for the kids", null],
    ["quiet on shabbat in the morning", null],
    ["remind me on shabbat to call mom", null],
    ["what's on shabbat?", null],
    ["quiet on shabbat was nice", null],
    ["תזכיר לי בשבת להתקשר לאמא", null],
    ["מה יש בשבת", null],
  ])("%j", (text, expected) => {
    expect(parseSettingsCommand(text)).toEqual(expected);
  });
});

describe("parseSettingsCommand: the weekly review", () => {
  const show: SettingsCommand = { kind: "weeklyShow" };
  const on: SettingsCommand = { kind: "weeklyOn" };
  const off: SettingsCommand = { kind: "weeklyOff" };
  const at = (day: number, time: string | null): SettingsCommand => ({ kind: "weeklyAt", day, time });

  it.each<[string, SettingsCommand | null]>([
    ["weekly review", show],
    ["Weekly review?", show],
    ["show me my weekly review", show],
    ["סיכום שבועי", show],
    ["הסיכום השבועי", show],
    ["תראה לי את הסיכום השבועי", show],
    ["turn on the weekly review", on],
    ["send me a weekly review", on],
    ["enable the weekly summary", on],
    ["weekly review on", on],
    ["תפעיל סיכום שבועי", on],
    ["תפעיל את הסיכום השבועי", on],
    ["stop the weekly review", off],
    ["no more weekly reviews", off],
    ["weekly review off", off],
    ["בטל את הסיכום השבועי", off],
    ["תפסיק את הסיכום השבועי", off],
    ["weekly review on Friday at 14:00", at(5, "14:00")],
    ["set my weekly review to sundays at 9", at(0, "09:00")],
    ["weekly review at 18:30 on Thursday", at(4, "18:30")],
    ["move the weekly review to Monday", at(1, null)],
    ["סיכום שבועי ביום שישי ב-14:00", at(5, "14:00")],
    ["תעביר את הסיכום השבועי ליום ראשון בשעה 9", at(0, "09:00")],
    ["סיכום שבועי בשישי", at(5, null)],
    // Not the weekly review: the morning digest, the memory, other summaries.
    ["stop the morning summary", { kind: "digestOff" }],
    ["summarize my week", null],
    ["what changed this week?", null],
    ["summary", null],
    ["weekly review of the budget with Dana", null],
    ["תסכם לי את השבוע", null],
  ])("%s", (text, expected) => {
    expect(parseSettingsCommand(text)).toEqual(expected);
  });
});

describe("parseSettingsCommand: answers by voice", () => {
  const on: SettingsCommand = { kind: "voiceOn" };
  const off: SettingsCommand = { kind: "voiceOff" };
  const show: SettingsCommand = { kind: "voiceShow" };

  it.each<[string, SettingsCommand | null]>([
    ["answer me by voice", on],
    ["Reply with voice please", on],
    ["please reply with a voice note", on],
    ["turn on voice answers", on],
    ["תענה לי בקול", on],
    ["תענה בהקלטה", on],
    ["תעני לי בהודעה קולית", on],
    ["הפעל תשובות קוליות", on],
    ["stop voice answers", off],
    ["answer in text", off],
    ["stop answering by voice", off],
    ["תפסיק לענות בקול", off],
    ["תענה בטקסט", off],
    ["בלי תשובות קוליות", off],
    ["voice answers?", show],
    ["are voice replies on?", show],
    ["תשובות קוליות?", show],
    // Not the setting: a request about something else, or a reply to someone else.
    ["answer me", null],
    ["answer me by voice about the trip", null],
    ["reply to Dana by voice", null],
    ["voice notes", null],
    ["תענה לי", null],
  ])("%s", (text, expected) => {
    expect(parseSettingsCommand(text)).toEqual(expected);
  });
});
