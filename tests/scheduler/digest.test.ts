import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DigestSource } from "../../src/services/reminder/digest.js";
import { pgliteBackend, type TestDatabase } from "../support/db.js";
import { createSchedulerHarness, type SchedulerHarness } from "../support/schedulerHarness.js";
import { ScriptedOpenAI, lastUserMessageOf, systemPromptOf } from "../support/scriptedOpenAI.js";
import { textMessage } from "../support/whatsappHarness.js";

/**
 * The morning digest as the user gets it: at their local digest time (half- and quarter-hour
 * zones included), once a day, with the day's reminders, what is overdue and what has no date;
 * never empty, never at noon after an outage; turned off, on or moved by a chat message.
 * (Monday 2 March 2026 is Ta'anit Esther and Erev Purim: the digests of that day name them.)
 */

const PHONE = "919812345601";
const KOLKATA = "Asia/Kolkata"; // +05:30
const KATHMANDU = "Asia/Kathmandu"; // +05:45
const JERUSALEM = "Asia/Jerusalem";
const TABLES =
  "users, tasks, reminder_deliveries, inbox_messages, inbox_phone_leases, outbound_messages, conversation_windows";

let db: TestDatabase;
let h: SchedulerHarness;
let llm: ScriptedOpenAI | undefined;

beforeAll(async () => {
  db = await pgliteBackend.create();
});
afterEach(async () => {
  await h?.close(false);
  await llm?.close();
  llm = undefined;
  await db.pool.query(`TRUNCATE ${TABLES} CASCADE`);
});
afterAll(async () => db?.close());

const FOOTER = 'Say "stop the morning summary" to turn these off.';

/** The harness at `iso` with a user in `timeZone`; a first pass schedules their digest. */
async function start(
  iso: string,
  timeZone: string,
  options: { language?: "he" | "en"; name?: string; env?: Record<string, string>; llm?: ScriptedOpenAI } = {},
): Promise<void> {
  h = await createSchedulerHarness({
    db,
    start: iso,
    ...(options.env ? { env: options.env } : {}),
    ...(options.llm ? { llm: options.llm } : {}),
  });
  await h.user(PHONE, { timeZone, language: options.language ?? "en" });
  if (options.name) await h.memo.users.update(PHONE, { displayName: options.name });
}

/** A pass at `iso` (the user has kept chatting, so the 24-hour window is open); the texts it sent. */
async function passAt(iso: string, phone = PHONE): Promise<string[]> {
  const before = h.sentTo(phone).length;
  h.at(iso);
  await h.memo.users.recordInbound(phone, new Date(h.clock.now()));
  await h.pass();
  return h.sentTo(phone).slice(before);
}

/** An open task with no date and no reminder. */
const undated = (text: string, phone = PHONE) => h.addTask(phone, { text });

/** Sends a text through the signed webhook and returns Memo's reply. */
async function say(text: string, phone = PHONE): Promise<string> {
  const count = h.graphApi.sent.length;
  await h.deliver(textMessage(phone, text, h.clock.now()));
  await h.graphApi.waitForSent(count + 1);
  await h.idle();
  return h.sentTo(phone).at(-1)!;
}

const digests = async (phone = PHONE) => (await h.ledger(phone)).filter((r) => r.kind === "digest");

describe("when the digest comes", () => {
  it("Asia/Kolkata: at 08:00 local (02:30Z), not at 07:59, once, and again the next day", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA); // 05:30 local
    await undated("plan the trip");
    expect(await passAt("2026-03-02T00:00:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T02:29:00Z")).toEqual([]);
    const [digest] = await passAt("2026-03-02T02:30:00Z");
    expect(digest).toBe(
      `☀️ Good morning! Here's your day, Monday 02/03:\n\nPlus 1 open task with no date.\n\n${FOOTER}`,
    );
    expect(await passAt("2026-03-02T02:31:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T06:00:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T20:00:00Z")).toEqual([]);
    expect(await passAt("2026-03-03T02:29:00Z")).toEqual([]);
    expect(await passAt("2026-03-03T02:30:00Z")).toHaveLength(1);
    const rows = await digests();
    expect(
      rows.map((r) => [new Date(r.occurrenceAt).toISOString(), new Date(r.sentAt!).toISOString()]),
    ).toEqual([
      ["2026-03-02T02:30:00.000Z", "2026-03-02T02:30:00.000Z"],
      ["2026-03-03T02:30:00.000Z", "2026-03-03T02:30:00.000Z"],
    ]);
  });

  it("Asia/Kathmandu: at 08:00 local, which is 02:15Z", async () => {
    await start("2026-03-02T00:00:00Z", KATHMANDU, { language: "he", name: "Dana" });
    await undated("לתכנן את הטיול");
    await undated("לקנות מתנה");
    expect(await passAt("2026-03-02T02:14:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T02:15:00Z")).toEqual([
      `☀️ בוקר טוב Dana! הנה היום שלך, יום שני 02/03:\n✡️ היום תענית אסתר · ערב פורים\n\nועוד 2 משימות פתוחות בלי תאריך.\n\nאפשר לכתוב "תפסיק את סיכום הבוקר" כדי לבטל.`,
    ]);
    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([]);
    expect((await digests()).map((r) => new Date(r.occurrenceAt).toISOString())).toEqual([
      "2026-03-02T02:15:00.000Z",
    ]);
  });

  it("a reminder due at the same minute goes too, the two at least 6 s apart", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA);
    await h.remind(PHONE, "call the office", { dueDate: "today at 08:00" }, KOLKATA);
    await passAt("2026-03-02T00:00:00Z");
    const sent = await passAt("2026-03-02T02:30:00Z");
    expect(sent).toEqual([
      "⏰ Reminder: call the office",
      `☀️ Good morning! Here's your day, Monday 02/03:\n\nToday:\n• 08:00 call the office\n\n${FOOTER}`,
    ]);
    const [reminder, digest] = (await h.ledger(PHONE)).sort((a, b) => a.sentAt! - b.sentAt!);
    expect(digest!.sentAt! - reminder!.sentAt!).toBeGreaterThanOrEqual(6_000);
  });

  it("today's calendar events come in the digest, in the user's zone, with the day's tasks", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA);
    await undated("plan the trip");
    const calendar = await h.memo.calendars.forUser(PHONE);
    const event = (summary: string, start: string, end: string) =>
      calendar.createEvent({ summary, allDay: false, start, end, timeZone: KOLKATA }, `seed:${summary}`);
    await event("Standup", "2026-03-02T04:30:00Z", "2026-03-02T04:45:00Z"); // 10:00 local
    await event("Tomorrow's review", "2026-03-03T04:30:00Z", "2026-03-03T05:30:00Z");
    await calendar.createEvent(
      { summary: "Holi", allDay: true, start: "2026-03-02", end: "2026-03-03", timeZone: KOLKATA },
      "seed:holi",
    );
    expect(await passAt("2026-03-02T00:00:00Z")).toEqual([]);
    const [digest] = await passAt("2026-03-02T02:30:00Z");
    expect(digest).toContain("Holi");
    expect(digest).toContain("10:00");
    expect(digest).toContain("Standup");
    expect(digest).not.toContain("Tomorrow's review");
    expect(digest).toContain("Plus 1 open task with no date.");
  });

  it("an empty digest is not sent", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA);
    await passAt("2026-03-02T00:00:00Z");
    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T03:30:00Z")).toEqual([]);
    // A task that is done does not count.
    const task = await undated("done already");
    await h.tasks.update(PHONE, task.id, {
      completed: true,
      completedAt: new Date(h.clock.now()).toISOString(),
    });
    expect(await passAt("2026-03-03T02:30:00Z")).toEqual([]);
    expect(h.graphApi.sent).toEqual([]);
  });

  it("after an outage past 11:00 local it is skipped, not sent at noon; the next morning it comes", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA);
    await undated("plan the trip");
    await passAt("2026-03-02T00:00:00Z");
    // Down from 05:30 until 12:01 local.
    expect(await passAt("2026-03-02T06:31:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T07:00:00Z")).toEqual([]);
    // The next day it is late too, but only by 2 hours 29 minutes: still a morning digest.
    expect(await passAt("2026-03-03T04:59:00Z")).toHaveLength(1);
    expect(await passAt("2026-03-04T02:30:00Z")).toHaveLength(1);
  });
});

describe("what the digest says", () => {
  it("today's reminders and tasks with times, overdue items, undated count and the first name", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA, { name: "Dana Cohen" });
    await h.remind(PHONE, "dentist", { dueDate: "today at 15:00" }, KOLKATA);
    await h.remind(PHONE, "vitamins", { reminderRecurrence: { type: "daily", time: "09:00" } }, KOLKATA);
    await h.remind(PHONE, "team lunch", { dueDate: "today at 13:00", reminder: "30 minutes" }, KOLKATA);
    await h.remind(
      PHONE,
      "gym",
      { reminderRecurrence: { type: "weekly", time: "18:30", days: [1] } },
      KOLKATA,
    );
    await h.remind(PHONE, "tomorrow's thing", { dueDate: "tomorrow at 10:00" }, KOLKATA);
    await h.remind(
      PHONE,
      "not today",
      { reminderRecurrence: { type: "weekly", time: "10:00", days: [3] } },
      KOLKATA,
    );
    await h.addTask(PHONE, { text: "pay the electricity bill", dueAt: "2026-02-27T06:30:00Z" });
    await h.addTask(PHONE, { text: "send the form", dueAt: "2026-03-02T01:00:00Z" }); // 06:30 today
    await undated("plan the trip");
    await undated("fix the bike");
    await undated("read the contract");
    await passAt("2026-03-02T00:00:00Z");

    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([
      [
        "☀️ Good morning Dana! Here's your day, Monday 02/03:",
        "",
        "Today:\n• 09:00 vitamins\n• 13:00 team lunch\n• 15:00 dentist\n• 18:30 gym",
        "",
        "Overdue:\n• 27/02 pay the electricity bill\n• 06:30 send the form",
        "",
        "Plus 3 open tasks with no date.",
        "",
        FOOTER,
      ].join("\n"),
    ]);
  });

  it("a repeating reminder that has ended is not an open task with no date", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA);
    await h.remind(
      PHONE,
      "antibiotics",
      { reminderRecurrence: { type: "daily", time: "21:00", until: "2026-03-02" } },
      KOLKATA,
    );
    await passAt("2026-03-02T00:00:00Z");
    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([
      `☀️ Good morning! Here's your day, Monday 02/03:\n\nToday:\n• 21:00 antibiotics\n\n${FOOTER}`,
    ]);
    expect(await passAt("2026-03-02T15:30:00Z")).toEqual(["🔁 Reminder: antibiotics"]);
    // Its last ring is gone: the next morning has nothing to say.
    expect(await passAt("2026-03-03T02:30:00Z")).toEqual([]);
  });

  it("in Hebrew for a Hebrew speaker", async () => {
    await start("2026-03-02T04:00:00Z", JERUSALEM, { language: "he", name: "נועה לוי" }); // 06:00 local
    await h.remind(PHONE, "רופא שיניים", { dueDate: "today at 15:00" }, JERUSALEM);
    await h.addTask(PHONE, { text: "לשלם חשבון חשמל", dueAt: "2026-03-01T08:00:00Z", timeZone: JERUSALEM });
    await undated("לתקן את האופניים");
    await passAt("2026-03-02T04:00:00Z");
    expect(await passAt("2026-03-02T06:00:00Z")).toEqual([
      [
        "☀️ בוקר טוב נועה! הנה היום שלך, יום שני 02/03:\n✡️ היום תענית אסתר · ערב פורים",
        "",
        "היום:\n• 15:00 רופא שיניים",
        "",
        "באיחור:\n• 01/03 לשלם חשבון חשמל",
        "",
        "ועוד משימה פתוחה אחת בלי תאריך.",
        "",
        'אפשר לכתוב "תפסיק את סיכום הבוקר" כדי לבטל.',
      ].join("\n"),
    ]);
  });
});

describe("digest sources", () => {
  it("a source's section appears, asked for the user's local day", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA);
    const asked: unknown[] = [];
    const calendar: DigestSource = {
      name: "calendar",
      sectionFor(user, day) {
        asked.push({ user, day });
        return Promise.resolve({
          title: "Calendar:",
          lines: [{ time: "11:00", text: "Design review" }, { text: "Holiday in Goa" }],
        });
      },
    };
    h.reminders.addDigestSource(calendar);
    await h.remind(PHONE, "dentist", { dueDate: "today at 15:00" }, KOLKATA);
    await passAt("2026-03-02T00:00:00Z");
    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([
      `☀️ Good morning! Here's your day, Monday 02/03:\n\nToday:\n• 15:00 dentist\n\nCalendar:\n• 11:00 Design review\n• Holiday in Goa\n\n${FOOTER}`,
    ]);
    // Asked once, for the local day from midnight to midnight: 18:30Z to 18:30Z.
    expect(asked).toEqual([
      {
        user: { phone: PHONE, timeZone: KOLKATA, language: "en" },
        day: { startMs: Date.parse("2026-03-01T18:30:00Z"), endMs: Date.parse("2026-03-02T18:30:00Z") },
      },
    ]);
  });

  it("a source alone makes a digest worth sending; an empty one does not", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA);
    let lines = [{ time: "11:00", text: "Design review" }];
    h.reminders.addDigestSource({
      name: "calendar",
      sectionFor: () => Promise.resolve({ title: "Calendar:", lines }),
    });
    await passAt("2026-03-02T00:00:00Z");
    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([
      `☀️ Good morning! Here's your day, Monday 02/03:\n\nCalendar:\n• 11:00 Design review\n\n${FOOTER}`,
    ]);
    lines = [];
    expect(await passAt("2026-03-03T02:30:00Z")).toEqual([]);
  });

  it("a failing source is left out and the digest still comes", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA);
    h.reminders.addDigestSource({
      name: "calendar",
      sectionFor: () => Promise.reject(new Error("calendar is down")),
    });
    h.reminders.addDigestSource({
      name: "weather",
      sectionFor: () => Promise.resolve({ title: "Weather:", lines: [{ text: "Sunny, 31°" }] }),
    });
    await h.remind(PHONE, "dentist", { dueDate: "today at 15:00" }, KOLKATA);
    await passAt("2026-03-02T00:00:00Z");
    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([
      `☀️ Good morning! Here's your day, Monday 02/03:\n\nToday:\n• 15:00 dentist\n\nWeather:\n• Sunny, 31°\n\n${FOOTER}`,
    ]);
  });
});

describe("digest settings in chat", () => {
  it("'stop the morning summary' turns it off; 'turn on the morning summary' back on", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA);
    await undated("plan the trip");
    expect(await say("stop the morning summary")).toBe(
      'OK, no more morning summaries. Say "turn on the morning summary" to get them back.',
    );
    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([]);
    expect(await passAt("2026-03-03T02:30:00Z")).toEqual([]);
    h.at("2026-03-03T03:00:00Z");
    expect(await say("turn on the morning summary")).toBe("Your morning summary is on: every day at 08:00.");
    // Today's 08:00 has passed: tomorrow's comes.
    expect(await passAt("2026-03-03T03:01:00Z")).toEqual([]);
    expect(await passAt("2026-03-04T02:29:00Z")).toEqual([]);
    expect(await passAt("2026-03-04T02:30:00Z")).toHaveLength(1);
  });

  it("'send the digest at 7:30' moves it to 07:30", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA);
    await undated("plan the trip");
    await passAt("2026-03-02T00:00:00Z");
    expect(await say("send the digest at 7:30")).toBe(
      "Done: your morning summary now comes every day at 07:30.",
    );
    expect(await passAt("2026-03-02T01:59:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T02:00:00Z")).toHaveLength(1);
    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([]);
    expect(await passAt("2026-03-03T02:00:00Z")).toHaveLength(1);
    expect((await h.memo.users.get(PHONE))?.digestLocalTime).toBe("07:30");
  });

  it("moving it later on a morning it already came does not send a second one that day", async () => {
    await start("2026-03-02T00:00:00Z", KOLKATA);
    await undated("plan the trip");
    await passAt("2026-03-02T00:00:00Z");
    expect(await passAt("2026-03-02T02:30:00Z")).toHaveLength(1);
    h.at("2026-03-02T03:00:00Z");
    expect(await say("move the morning summary to 9:00")).toBe(
      "Done: your morning summary now comes every day at 09:00.",
    );
    expect(await passAt("2026-03-02T03:30:00Z")).toEqual([]);
    expect(await passAt("2026-03-03T03:29:00Z")).toEqual([]);
    expect(await passAt("2026-03-03T03:30:00Z")).toHaveLength(1);
  });

  it("Hebrew: 'תפסיק את סיכום הבוקר' and 'שלח את סיכום הבוקר ב-7:30'", async () => {
    await start("2026-03-02T03:00:00Z", JERUSALEM, { language: "he" }); // 05:00 local
    await undated("לתכנן את הטיול");
    expect(await say("תפסיק את סיכום הבוקר")).toBe(
      'בסדר, לא אשלח יותר סיכום בוקר. אפשר לכתוב "תפעיל את סיכום הבוקר" כדי להחזיר.',
    );
    expect(await passAt("2026-03-02T06:00:00Z")).toEqual([]);
    h.at("2026-03-02T10:00:00Z");
    expect(await say("שלח את סיכום הבוקר ב-7:30")).toBe("בוצע: סיכום הבוקר יגיע מעכשיו כל יום ב-07:30.");
    expect(await passAt("2026-03-03T05:29:00Z")).toEqual([]);
    const [digest] = await passAt("2026-03-03T05:30:00Z");
    expect(digest).toMatch(/^☀️ בוקר טוב! הנה היום שלך, יום שלישי 03\/03:/);
    expect(await say("תפעיל את סיכום הבוקר")).toBe("סיכום הבוקר פעיל: כל יום ב-07:30.");
  });
});

describe("configuration", () => {
  it("MORNING_DIGEST_HOUR sets the digest time of users onboarded after it, not of existing ones", async () => {
    const NEW_PHONE = "919812345602";
    await start("2026-03-02T00:00:00Z", KOLKATA, { env: { MORNING_DIGEST_HOUR: "7:30" } });
    await undated("plan the trip");
    // A new user's first message: onboarding creates them (zone from the +91 number).
    expect(await say("hi", NEW_PHONE)).toMatch(/./);
    const onboarded = await h.memo.users.get(NEW_PHONE);
    expect(onboarded).toMatchObject({ timeZone: KOLKATA, digestLocalTime: "07:30" });
    await undated("call the bank", NEW_PHONE);
    // The user made before (as the harness makes users, straight in the table) keeps 08:00.
    expect((await h.memo.users.get(PHONE))?.digestLocalTime).toBe("08:00");

    await passAt("2026-03-02T00:30:00Z");
    expect(await passAt("2026-03-02T02:00:00Z", NEW_PHONE)).toHaveLength(1);
    expect(h.sentTo(PHONE)).toEqual([]);
    expect(await passAt("2026-03-02T02:30:00Z")).toHaveLength(1);
  });

  it("MORNING_DIGEST_POLISH=on sends the model's wording of the digest", async () => {
    llm = await ScriptedOpenAI.start();
    const polished = "☀️ Morning Dana! One thing waits without a date: plan the trip. Have a good Monday!";
    llm.on((req) => (systemPromptOf(req) ?? "").includes("morning summary"), { text: polished });
    await start("2026-03-02T00:00:00Z", KOLKATA, { name: "Dana", env: { MORNING_DIGEST_POLISH: "on" }, llm });
    await undated("plan the trip");
    await passAt("2026-03-02T00:00:00Z");
    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([polished]);
    // The model was given the template's facts to reword, the language ahead of them (its system prompt is every user's).
    expect(llm.requests).toHaveLength(1);
    expect(lastUserMessageOf(llm.requests[0]!)).toBe(
      `Language: English\n\n☀️ Good morning Dana! Here's your day, Monday 02/03:\n\nPlus 1 open task with no date.\n\n${FOOTER}`,
    );
  });

  it("MORNING_DIGEST_POLISH=on falls back to the template when the model fails", async () => {
    llm = await ScriptedOpenAI.start();
    llm.on(() => true, { status: 500 });
    await start("2026-03-02T00:00:00Z", KOLKATA, { name: "Dana", env: { MORNING_DIGEST_POLISH: "on" }, llm });
    await undated("plan the trip");
    await passAt("2026-03-02T00:00:00Z");
    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([
      `☀️ Good morning Dana! Here's your day, Monday 02/03:\n\nPlus 1 open task with no date.\n\n${FOOTER}`,
    ]);
    expect(llm.requests.length).toBeGreaterThan(0);
  });

  it("MORNING_DIGEST_POLISH=off (the default) never asks the model", async () => {
    llm = await ScriptedOpenAI.start();
    llm.on(() => true, { text: "should not be used" });
    await start("2026-03-02T00:00:00Z", KOLKATA, { llm });
    await undated("plan the trip");
    await passAt("2026-03-02T00:00:00Z");
    expect(await passAt("2026-03-02T02:30:00Z")).toEqual([
      `☀️ Good morning! Here's your day, Monday 02/03:\n\nPlus 1 open task with no date.\n\n${FOOTER}`,
    ]);
    expect(llm.requests).toEqual([]);
  });
});
