import { describe, expect, it } from "vitest";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { textMessage } from "../support/whatsappHarness.js";
import { householdNotice } from "../../src/services/reminder/householdNotices.js";
import { sabbathSetting } from "../../src/services/reminder/sabbathSettings.js";

/**
 * Shabbat and holiday quiet (issue 36), as a user meets it in WhatsApp with a controlled clock:
 * set in chat in English and Hebrew; reminders due between candle lighting and havdalah ring once
 * right after havdalah, saying so; nudges pause; yom tov on the user's schedule counts (Rosh
 * Hashana 5787 in Israel, the 8th day of Pesach only abroad); the Saturday digest is skipped;
 * Friday's names candle lighting; answers to the user are never held.
 *
 * Shabbat 27–28 Nov 2026 in Jerusalem: candle lighting Fri 15:55 (13:55Z), havdalah Sat 17:14 (15:14Z).
 */

const PHONE = "972501110036";
let h: SchedulerHarness;
const shared = sharedDatabase(() => h);

async function start(
  iso: string,
  options: { timeZone?: string; language?: "he" | "en"; quiet?: boolean; digest?: boolean } = {},
): Promise<void> {
  h = await createSchedulerHarness({ db: shared.db, start: iso });
  await h.user(PHONE, { timeZone: options.timeZone ?? "Asia/Jerusalem", language: options.language ?? "en" });
  await h.memo.users.update(PHONE, {
    digestEnabled: options.digest ?? false,
    sabbathQuiet: options.quiet ?? true,
  });
}

/** A pass at `iso`; returns the texts it sent to the user. */
async function passAt(iso: string): Promise<string[]> {
  const before = h.sentTo(PHONE).length;
  h.at(iso);
  await h.pass();
  return h.sentTo(PHONE).slice(before);
}

/** One message through the signed webhook; returns Memo's one reply. */
async function say(text: string): Promise<string> {
  const count = h.graphApi.sent.length;
  await h.deliver(textMessage(PHONE, text, h.clock.now()));
  await h.graphApi.waitForSent(count + 1);
  await h.idle();
  expect(h.graphApi.sent).toHaveLength(count + 1);
  return h.sentTo(PHONE).at(-1)!;
}

const reminder = (text: string, at: string, timeZone = "Asia/Jerusalem") =>
  h.addTask(PHONE, { text, dueAt: at, nextFireAt: at, timeZone });

describe("Shabbat quiet: reminders", () => {
  it("holds a reminder due Saturday 10:00 to havdalah and rings it once, saying so", async () => {
    await start("2026-11-28T07:00:00Z");
    await reminder("call Dana", "2026-11-28T08:00:00Z");
    expect(await passAt("2026-11-28T08:00:00Z")).toEqual([]);
    expect(await passAt("2026-11-28T12:00:00Z")).toEqual([]);
    expect(await passAt("2026-11-28T15:13:00Z")).toEqual([]);
    expect(await passAt("2026-11-28T15:14:00Z")).toEqual([
      "⏰ Reminder: call Dana\n(Held for Shabbat: it was due today at 10:00.)",
    ]);
    expect(await passAt("2026-11-28T15:20:00Z")).toEqual([]);
    expect(await passAt("2026-11-29T09:00:00Z")).toEqual([]);
    const rows = await h.ledger(PHONE);
    expect(rows).toHaveLength(1);
    // The occurrence's own key: the same one it would have had without the hold.
    expect(rows[0]!.key).toMatch(/@2026-11-28T08:00:00.000Z$/);
    expect(rows[0]!.status).toBe("sent");
  });

  it("a reminder an hour ahead of a time also inside the window sends one message at havdalah", async () => {
    await start("2026-11-28T07:00:00Z");
    await h.addTask(PHONE, {
      text: "call Dana",
      dueAt: "2026-11-28T09:00:00Z", // Sat 11:00
      nextFireAt: "2026-11-28T08:00:00Z", // an hour before
      reminderOffsetMinutes: 60,
      timeZone: "Asia/Jerusalem",
    });
    expect(await passAt("2026-11-28T08:00:00Z")).toEqual([]);
    expect(await passAt("2026-11-28T09:00:00Z")).toEqual([]);
    expect(await passAt("2026-11-28T15:14:00Z")).toEqual([
      "⏰ Reminder: call Dana\n(Held for Shabbat: it was due today at 11:00.)",
    ]);
    expect(await passAt("2026-11-28T15:20:00Z")).toEqual([]);
    expect((await h.ledger(PHONE)).map((r) => r.kind)).toEqual(["reminder"]);
  });

  it("rings at 10:00 for a user without the setting", async () => {
    await start("2026-11-28T07:00:00Z", { quiet: false });
    await reminder("call Dana", "2026-11-28T08:00:00Z");
    expect(await passAt("2026-11-28T08:00:00Z")).toEqual(["⏰ Reminder: call Dana"]);
  });

  it("a daily reminder inside the window rings once at havdalah, then on Sunday as usual", async () => {
    await start("2026-11-28T07:00:00Z");
    await h.addTask(PHONE, {
      text: "take the pills",
      nextFireAt: "2026-11-28T08:00:00Z",
      recurrence: { type: "daily", time: "10:00" },
      timeZone: "Asia/Jerusalem",
    });
    expect(await passAt("2026-11-28T08:00:00Z")).toEqual([]);
    expect(await passAt("2026-11-28T15:14:00Z")).toEqual([
      "🔁 Reminder: take the pills\n(Held for Shabbat: it was due today at 10:00.)",
    ]);
    // The user wrote on Sunday morning (inside WhatsApp's 24-hour window: a free-form message).
    await h.memo.users.recordInbound(PHONE, new Date("2026-11-29T07:00:00Z"));
    expect(await passAt("2026-11-29T08:00:00Z")).toEqual(["🔁 Reminder: take the pills"]);
  });

  it("a daily reminder due again within an hour of havdalah rings then, not also for the held occurrence", async () => {
    await start("2026-11-27T07:00:00Z");
    await h.addTask(PHONE, {
      text: "water the garden",
      nextFireAt: "2026-11-27T15:30:00Z", // Fri 17:30, inside the window
      recurrence: { type: "daily", time: "17:30" },
      timeZone: "Asia/Jerusalem",
    });
    await h.memo.users.recordInbound(PHONE, new Date("2026-11-28T15:00:00Z"));
    expect(await passAt("2026-11-27T15:30:00Z")).toEqual([]);
    expect(await passAt("2026-11-28T15:14:00Z")).toEqual([]); // havdalah 17:14
    expect(await passAt("2026-11-28T15:30:00Z")).toEqual(["🔁 Reminder: water the garden"]);
    expect(await passAt("2026-11-28T16:00:00Z")).toEqual([]);
  });

  it("pauses a nudge until havdalah", async () => {
    await start("2026-11-28T07:00:00Z");
    await h.addTask(PHONE, {
      text: "water the plants",
      nextFireAt: "2026-11-28T08:00:00Z",
      recurrence: { type: "nudge", intervalMinutes: 30 },
      timeZone: "Asia/Jerusalem",
    });
    expect(await passAt("2026-11-28T08:00:00Z")).toEqual([]);
    expect(await passAt("2026-11-28T11:00:00Z")).toEqual([]);
    const atHavdalah = await passAt("2026-11-28T15:14:00Z");
    expect(atHavdalah).toHaveLength(1);
    expect(atHavdalah[0]).toContain("🔔 water the plants");
    expect(await passAt("2026-11-28T15:44:00Z")).toHaveLength(1);
  });

  it("holds through Rosh Hashana 5787 and the Shabbat after it (Israel: Fri 18:10 to Sun 19:24)", async () => {
    await start("2026-09-11T14:00:00Z");
    await reminder("book the car service", "2026-09-13T06:00:00Z"); // Sun 09:00
    // Two days of quiet: the user last wrote on Sunday afternoon (WhatsApp's 24-hour window).
    await h.memo.users.recordInbound(PHONE, new Date("2026-09-13T12:00:00Z"));
    expect(await passAt("2026-09-13T06:00:00Z")).toEqual([]);
    expect(await passAt("2026-09-13T16:23:00Z")).toEqual([]);
    expect(await passAt("2026-09-13T16:24:00Z")).toEqual([
      "⏰ Reminder: book the car service\n(Held for Rosh Hashana and Shabbat: it was due today at 09:00.)",
    ]);
  });

  it("in Hebrew: held until the end of the holiday and Shabbat (עד צאת החג והשבת)", async () => {
    await start("2026-09-11T14:00:00Z", { language: "he" });
    await reminder("להזמין טיפול לרכב", "2026-09-13T06:00:00Z");
    await h.memo.users.recordInbound(PHONE, new Date("2026-09-13T12:00:00Z"));
    expect(await passAt("2026-09-13T06:00:00Z")).toEqual([]);
    const [held] = await passAt("2026-09-13T16:24:00Z");
    expect(held).toContain("(חיכיתי עם זה עד צאת החג והשבת:");
  });

  it("the 8th day of Pesach is yom tov abroad, not on Israel's calendar", async () => {
    // New York keeps the diaspora's calendar by its zone: Thu 29 Apr 2027 is Pesach VIII.
    await start("2027-04-29T12:00:00Z", { timeZone: "America/New_York" });
    const ISRAELI = "12125550136";
    await h.user(ISRAELI, { timeZone: "America/New_York" });
    // Someone abroad who said "I keep Israel's holidays": the same day is a weekday.
    await h.memo.users.update(ISRAELI, {
      digestEnabled: false,
      sabbathQuiet: true,
      calendarSchedule: "israel",
    });
    await reminder("call the bank", "2027-04-29T16:00:00Z", "America/New_York"); // 12:00 local
    await h.addTask(ISRAELI, {
      text: "call the bank",
      dueAt: "2027-04-29T16:00:00Z",
      nextFireAt: "2027-04-29T16:00:00Z",
      timeZone: "America/New_York",
    });
    expect(await passAt("2027-04-29T16:00:00Z")).toEqual([]);
    expect(h.sentTo(ISRAELI)).toEqual(["⏰ Reminder: call the bank"]);
    expect(await passAt("2027-04-30T00:34:00Z")).toEqual([
      "⏰ Reminder: call the bank\n(Held for Pesach: it was due today at 12:00.)",
    ]);
  });

  it("Israel's 29 Apr 2027 is chol hamoed's end: a reminder in Jerusalem rings at noon", async () => {
    await start("2027-04-29T06:00:00Z");
    await reminder("call the bank", "2027-04-29T09:00:00Z");
    expect(await passAt("2027-04-29T09:00:00Z")).toEqual(["⏰ Reminder: call the bank"]);
  });

  it("answers the user's own messages during Shabbat", async () => {
    await start("2026-11-28T07:00:00Z");
    h.at("2026-11-28T09:00:00Z");
    expect(await say("my Shabbat settings")).toBe(
      "Shabbat and holiday quiet: on (Israel's holiday calendar).\nQuiet from candle lighting Fri 15:55 to havdalah Sat 17:14 (Jerusalem).",
    );
  });
});

describe("Shabbat quiet: the morning digest", () => {
  it("Friday's digest gives candle lighting and havdalah to a user with the setting", async () => {
    await start("2026-11-27T05:00:00Z", { digest: true });
    await h.addTask(PHONE, { text: "buy challah", dueAt: "2026-11-27T10:00:00Z" });
    await passAt("2026-11-27T05:00:00Z");
    const [digest] = await passAt("2026-11-27T06:00:00Z");
    expect(digest).toContain("🕯️ Candle lighting 15:55 in Jerusalem, havdalah Sat 17:14");
  });

  it("a city in another zone: its own times, named as its time (New York user, Jerusalem's Shabbat)", async () => {
    await start("2026-11-27T05:00:00Z", { digest: true, timeZone: "America/New_York" });
    await h.memo.users.update(PHONE, { sabbathCity: "Jerusalem" });
    await h.addTask(PHONE, { text: "buy challah", dueAt: "2026-11-27T15:00:00Z" });
    await passAt("2026-11-27T05:00:00Z");
    const [digest] = await passAt("2026-11-27T13:00:00Z"); // Friday 08:00 in New York
    expect(digest).toContain("🕯️ Candle lighting 15:55 Jerusalem time, havdalah Sat 17:14");
  });

  it("gives none without the setting", async () => {
    await start("2026-11-27T05:00:00Z", { digest: true, quiet: false });
    await h.addTask(PHONE, { text: "buy challah", dueAt: "2026-11-27T10:00:00Z" });
    await passAt("2026-11-27T05:00:00Z");
    const [digest] = await passAt("2026-11-27T06:00:00Z");
    expect(digest).toContain("buy challah");
    expect(digest).not.toContain("Candle lighting");
  });

  it("skips Saturday's digest with the setting", async () => {
    await start("2026-11-28T05:00:00Z", { digest: true });
    await h.addTask(PHONE, { text: "visit grandma", dueAt: "2026-11-28T16:00:00Z" });
    await passAt("2026-11-28T05:00:00Z");
    expect(await passAt("2026-11-28T06:00:00Z")).toEqual([]);
    const rows = await h.ledger(PHONE);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([["digest", "skipped"]]);
  });

  it("names no holiday to a user whose calendar it is not (English, New York, no setting, no schedule)", async () => {
    await start("2027-04-21T10:00:00Z", { digest: true, quiet: false, timeZone: "America/New_York" });
    await h.addTask(PHONE, {
      text: "call the bank",
      dueAt: "2027-04-21T15:00:00Z",
      timeZone: "America/New_York",
    });
    await passAt("2027-04-21T10:00:00Z");
    const [digest] = await passAt("2027-04-21T12:00:00Z");
    expect(digest).toContain("call the bank");
    expect(digest).not.toContain("✡️");
    await h.memo.users.update(PHONE, { calendarSchedule: "diaspora" });
    await h.addTask(PHONE, {
      text: "call the bank again",
      dueAt: "2027-04-22T15:00:00Z",
      timeZone: "America/New_York",
    });
    await h.memo.users.recordInbound(PHONE, new Date("2027-04-22T11:00:00Z"));
    const [chosen] = await passAt("2027-04-22T12:00:00Z");
    expect(chosen).toContain("✡️ Today is Pesach");
  });

  it("names today's holiday to a Hebrew user, in Hebrew", async () => {
    await start("2027-04-21T04:00:00Z", { digest: true, quiet: false, language: "he" });
    await h.addTask(PHONE, { text: "לבער חמץ", dueAt: "2027-04-21T07:00:00Z" });
    await passAt("2027-04-21T04:00:00Z");
    const [digest] = await passAt("2027-04-21T05:00:00Z");
    expect(digest).toContain("✡️ היום תענית בכורות · ערב פסח");
  });
});

describe("Shabbat quiet: the setting in chat", () => {
  it("turns on with a city, says the next window, and turns off (English)", async () => {
    await start("2026-11-25T10:00:00Z", { quiet: false });
    expect(await say("quiet on Shabbat in Haifa")).toMatch(
      /^🕯️ Shabbat and holiday quiet is on \(Israel's holiday calendar\).*\nQuiet from candle lighting Fri \d\d:\d\d to havdalah Sat \d\d:\d\d \(Haifa\)\.$/s,
    );
    let user = await h.memo.users.get(PHONE);
    expect([user?.sabbathQuiet, user?.sabbathCity]).toEqual([true, "Haifa"]);
    expect(await say("quiet on Shabbat in Springfield")).toContain('I couldn\'t find "Springfield"');
    user = await h.memo.users.get(PHONE);
    expect(user?.sabbathCity).toBe("Haifa");
    expect(await say("use the diaspora holiday calendar")).toContain("the diaspora holiday calendar");
    expect((await h.memo.users.get(PHONE))?.calendarSchedule).toBe("diaspora");
    expect(await say("stop Shabbat quiet")).toBe(
      "Shabbat quiet is off: reminders ring on Shabbat and holidays too.",
    );
    expect((await h.memo.users.get(PHONE))?.sabbathQuiet).toBe(false);
  });

  it("a city named in another zone: its schedule and its times, named as its time", async () => {
    await start("2026-11-25T10:00:00Z", { quiet: false, timeZone: "America/New_York" });
    const on = await say("quiet on Shabbat in Jerusalem");
    expect(on).toContain("(Israel's holiday calendar)");
    expect(on).toContain("\nQuiet from candle lighting Fri 15:55 to havdalah Sat 17:14, Jerusalem time.");
    expect(await say("my Shabbat settings")).toBe(
      "Shabbat and holiday quiet: on (Israel's holiday calendar).\nQuiet from candle lighting Fri 15:55 to havdalah Sat 17:14, Jerusalem time.",
    );
  });

  it("turns on in Hebrew with the zone's city, and in Jerusalem by name", async () => {
    await start("2026-11-25T10:00:00Z", { quiet: false, language: "he" });
    expect(await say("שקט בשבת ובחגים")).toContain(
      "שקט מהדלקת נרות בשישי 15:55 ועד הבדלה בשבת 17:14 (ירושלים).",
    );
    expect((await h.memo.users.get(PHONE))?.sabbathCity).toBeNull();
    expect(await say("שקט בשבת בתל אביב")).toContain("(תל אביב)");
    expect((await h.memo.users.get(PHONE))?.sabbathCity).toBe("Tel Aviv");
    expect(await say('תשתמש בלוח החגים של חו"ל')).toContain('לוח החגים של חו"ל');
    expect(await say("מה הגדרות השבת שלי")).toContain("שקט בשבת ובחגים: פעיל");
    expect(await say("בטל שקט בשבת")).toBe("השקט בשבת בוטל: תזכורות יגיעו גם בשבת ובחגים.");
  });

  it('"please" is not a city: "שקט בשבת בבקשה" turns it on in the zone\'s city', async () => {
    await start("2026-11-25T10:00:00Z", { quiet: false, language: "he" });
    expect(await say("שקט בשבת בבקשה")).toContain("(ירושלים)");
    const user = await h.memo.users.get(PHONE);
    expect([user?.sabbathQuiet, user?.sabbathCity]).toEqual([true, null]);
  });

  it("a reply with no window to name ends with its sentence, not a bare newline", async () => {
    await start("2026-11-25T10:00:00Z", { timeZone: "Asia/Tokyo" });
    const user = (await h.memo.users.get(PHONE))!;
    const command = { kind: "calendarSchedule", schedule: "diaspora" } as const;
    expect(sabbathSetting(user, "en", command, h.clock.now()).reply).toBe(
      "OK: the diaspora holiday calendar.",
    );
  });

  it("asks for a city when the zone has none", async () => {
    await start("2026-11-25T10:00:00Z", { quiet: false, timeZone: "Asia/Tokyo" });
    expect(await say("don't message me on Shabbat")).toContain("Which city should I keep Shabbat times for?");
    expect((await h.memo.users.get(PHONE))?.sabbathQuiet).toBe(false);
  });
});

describe("Shabbat quiet: household notices", () => {
  const reader = {
    phone: PHONE,
    language: "en" as const,
    timeZone: "Asia/Jerusalem",
    quietStart: null,
    quietEnd: null,
  };
  const body = { notice: "task" as const, who: "Yossi", text: "buy milk" };
  const now = Date.parse("2026-11-28T09:00:00Z");

  it("a notice to a member keeping Shabbat quiet waits for havdalah", () => {
    const row = householdNotice({ ...reader, sabbathQuiet: true }, "household:task:x", now, body);
    expect(new Date(row.sendAfter).toISOString()).toBe("2026-11-28T15:14:00.000Z");
  });

  it("goes at once to a member without it", () => {
    expect(householdNotice(reader, "household:task:x", now, body).sendAfter).toBe(now);
  });
});
