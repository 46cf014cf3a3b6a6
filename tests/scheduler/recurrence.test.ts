import { describe, expect, it } from "vitest";
import type { TaskTimeArgs } from "../../src/services/tasks/taskTimes.js";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { textMessage } from "../support/whatsappHarness.js";

/**
 * Recurring reminders and nudges, driven through the scheduler's passes across the 2026 daylight
 * saving changes: each occurrence goes at the user's local wall time (D6), never "+24 hours".
 */

const PHONE = "972501110001";
let h: SchedulerHarness;
const shared = sharedDatabase(() => h);

/** A user in `timeZone` with the morning digest off (only the reminder under test speaks). */
async function start(iso: string, timeZone: string): Promise<void> {
  h = await createSchedulerHarness({ db: shared.db, start: iso });
  await h.user(PHONE, { timeZone });
  await h.memo.users.update(PHONE, { digestEnabled: false });
}

async function reminder(text: string, words: TaskTimeArgs, timeZone: string): Promise<string> {
  return (await h.remind(PHONE, text, words, timeZone)).id;
}

/** "Fri 2026-03-27 03:30": an instant on the wall clock of `timeZone` (Intl, not the code under test). */
function local(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "short",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/**
 * Moves the clock to the task's next ring (read back from the database): nothing goes a minute
 * before it, exactly one message goes at it. Returns the local time of the occurrence sent.
 */
async function ringNext(taskId: string, timeZone: string): Promise<string> {
  const task = await h.tasks.get(PHONE, taskId);
  if (!task?.nextFireAt) throw new Error(`task has no next ring (sent so far: ${h.sentTo(PHONE).length})`);
  const at = Date.parse(task.nextFireAt);
  const before = h.sentTo(PHONE).length;
  h.at(at - 60_000);
  // The user keeps chatting, so WhatsApp's 24-hour window stays open.
  await h.memo.users.recordInbound(PHONE, new Date(h.clock.now()));
  await h.pass();
  expect(h.sentTo(PHONE), `a minute before ${local(at, timeZone)}`).toHaveLength(before);
  h.at(at);
  await h.pass();
  expect(h.sentTo(PHONE), `at ${local(at, timeZone)}`).toHaveLength(before + 1);
  const rows = (await h.ledger(PHONE)).filter((r) => r.occurrenceAt === at);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ status: "sent", taskId });
  return local(rows[0]!.occurrenceAt, timeZone);
}

async function rings(taskId: string, timeZone: string, count: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(await ringNext(taskId, timeZone));
  return out;
}

/** Passes at each of these instants send nothing more. */
async function silentAt(...isos: string[]): Promise<void> {
  const before = h.sentTo(PHONE).length;
  for (const iso of isos) {
    h.at(iso);
    await h.memo.users.recordInbound(PHONE, new Date(h.clock.now()));
    await h.pass();
  }
  expect(h.sentTo(PHONE)).toHaveLength(before);
}

describe("Asia/Jerusalem (spring forward 27 March, fall back 25 October 2026)", () => {
  const TZ = "Asia/Jerusalem";

  it("a daily 09:00 reminder stays at 09:00 local as the offset changes from +2 to +3", async () => {
    await start("2026-03-25T10:00:00Z", TZ);
    const id = await reminder("take the pills", { reminderRecurrence: { type: "daily", time: "09:00" } }, TZ);
    expect(await rings(id, TZ, 4)).toEqual([
      "Thu 2026-03-26 09:00",
      "Fri 2026-03-27 09:00",
      "Sat 2026-03-28 09:00",
      "Sun 2026-03-29 09:00",
    ]);
    const rows = await h.ledger(PHONE);
    // 09:00 is 07:00Z in winter and 06:00Z in summer: 23 hours apart across the change, not 24.
    expect(rows.map((r) => new Date(r.occurrenceAt).toISOString())).toEqual([
      "2026-03-26T07:00:00.000Z",
      "2026-03-27T06:00:00.000Z",
      "2026-03-28T06:00:00.000Z",
      "2026-03-29T06:00:00.000Z",
    ]);
    expect(h.sentTo(PHONE)).toEqual(Array(4).fill("🔁 Reminder: take the pills"));
  });

  it("02:30, which does not exist on 27 March, rings at 03:30 that day and at 02:30 after", async () => {
    await start("2026-03-25T10:00:00Z", TZ);
    const id = await reminder(
      "water the plants",
      { reminderRecurrence: { type: "daily", time: "02:30" } },
      TZ,
    );
    expect(await rings(id, TZ, 4)).toEqual([
      "Thu 2026-03-26 02:30",
      "Fri 2026-03-27 03:30",
      "Sat 2026-03-28 02:30",
      "Sun 2026-03-29 02:30",
    ]);
  });

  it("01:30, which happens twice on 25 October, rings at the first one only", async () => {
    await start("2026-10-23T10:00:00Z", TZ);
    const id = await reminder(
      "back up the laptop",
      { reminderRecurrence: { type: "daily", time: "01:30" } },
      TZ,
    );
    expect(await rings(id, TZ, 2)).toEqual(["Sat 2026-10-24 01:30", "Sun 2026-10-25 01:30"]);
    // The first 01:30 of 25 October is 22:30Z (+3); the second, an hour later, is +2 and stays quiet.
    expect((await h.ledger(PHONE)).at(-1)!.occurrenceAt).toBe(Date.parse("2026-10-24T22:30:00Z"));
    await silentAt("2026-10-24T23:30:00Z", "2026-10-24T23:45:00Z");
    expect(await rings(id, TZ, 2)).toEqual(["Mon 2026-10-26 01:30", "Tue 2026-10-27 01:30"]);
  });

  it("a weekly Sunday and Wednesday 18:00 reminder keeps 18:00 across the fall back", async () => {
    await start("2026-10-19T10:00:00Z", TZ);
    const id = await reminder(
      "put out the bins",
      { reminderRecurrence: { type: "weekly", time: "18:00", days: [0, 3] } },
      TZ,
    );
    expect(await rings(id, TZ, 4)).toEqual([
      "Wed 2026-10-21 18:00",
      "Sun 2026-10-25 18:00",
      "Wed 2026-10-28 18:00",
      "Sun 2026-11-01 18:00",
    ]);
  });

  it("'an hour before' a weekly Monday 00:30 reminder rings on Sunday at 23:30, across the spring forward", async () => {
    await start("2026-03-20T10:00:00Z", TZ);
    const id = await reminder(
      "night shift",
      { reminder: "1 hour", reminderRecurrence: { type: "weekly", time: "00:30", days: [1] } },
      TZ,
    );
    expect(await rings(id, TZ, 3)).toEqual([
      "Sun 2026-03-22 23:30",
      "Sun 2026-03-29 23:30",
      "Sun 2026-04-05 23:30",
    ]);
  });

  it("a daily reminder with an end date rings up to it and never after", async () => {
    await start("2026-03-25T10:00:00Z", TZ);
    const id = await reminder(
      "antibiotics",
      { reminderRecurrence: { type: "daily", time: "20:00", until: "2026-03-28" } },
      TZ,
    );
    expect(await rings(id, TZ, 4)).toEqual([
      "Wed 2026-03-25 20:00",
      "Thu 2026-03-26 20:00",
      "Fri 2026-03-27 20:00",
      "Sat 2026-03-28 20:00",
    ]);
    expect((await h.tasks.get(PHONE, id))?.nextFireAt).toBeNull();
    await silentAt("2026-03-29T17:00:00Z", "2026-03-30T17:00:00Z", "2026-04-02T17:00:00Z");
  });

  it("a nudge every 30 minutes keeps real 30-minute gaps through the missing hour", async () => {
    await start("2026-03-26T22:30:00Z", TZ); // 00:30 local, Friday 27 March
    const id = await reminder(
      "finish the deploy",
      { reminderRecurrence: { type: "nudge", interval: "30 minutes" } },
      TZ,
    );
    const times = await rings(id, TZ, 4);
    expect(times).toEqual([
      "Fri 2026-03-27 01:00",
      "Fri 2026-03-27 01:30",
      "Fri 2026-03-27 03:00",
      "Fri 2026-03-27 03:30",
    ]);
    const at = (await h.ledger(PHONE)).map((r) => r.occurrenceAt);
    expect(at.slice(1).map((t, i) => (t - at[i]!) / 60_000)).toEqual([30, 30, 30]);
  });

  it("a nudge with an end time stops at it", async () => {
    await start("2026-03-27T06:00:00Z", TZ); // 09:00 local
    const id = await reminder(
      "call the bank",
      { reminderRecurrence: { type: "nudge", interval: "20 minutes", until: "2026-03-27 10:00" } },
      TZ,
    );
    expect(await rings(id, TZ, 3)).toEqual([
      "Fri 2026-03-27 09:20",
      "Fri 2026-03-27 09:40",
      "Fri 2026-03-27 10:00",
    ]);
    expect((await h.tasks.get(PHONE, id))?.nextFireAt).toBeNull();
    await silentAt("2026-03-27T07:20:00Z", "2026-03-27T08:00:00Z");
  });
});

describe("America/New_York (spring forward 8 March, fall back 1 November 2026)", () => {
  const TZ = "America/New_York";

  it("a daily 02:30 reminder rings at 03:30 on 8 March and back at 02:30 after", async () => {
    await start("2026-03-06T15:00:00Z", TZ);
    const id = await reminder("feed the cat", { reminderRecurrence: { type: "daily", time: "02:30" } }, TZ);
    expect(await rings(id, TZ, 4)).toEqual([
      "Sat 2026-03-07 02:30",
      "Sun 2026-03-08 03:30",
      "Mon 2026-03-09 02:30",
      "Tue 2026-03-10 02:30",
    ]);
  });

  it("'30 minutes before' a Monday and Friday 18:00 reminder rings at 17:30 local, -5 and -4 alike", async () => {
    await start("2026-03-02T15:00:00Z", TZ);
    const id = await reminder(
      "pick up the kids",
      { reminder: "30 minutes", reminderRecurrence: { type: "weekly", time: "18:00", days: [1, 5] } },
      TZ,
    );
    expect(await rings(id, TZ, 4)).toEqual([
      "Mon 2026-03-02 17:30",
      "Fri 2026-03-06 17:30",
      "Mon 2026-03-09 17:30",
      "Fri 2026-03-13 17:30",
    ]);
    const utc = (await h.ledger(PHONE)).map((r) => new Date(r.occurrenceAt).toISOString().slice(11, 16));
    expect(utc).toEqual(["22:30", "22:30", "21:30", "21:30"]);
  });

  it("01:30 on 1 November rings once, at the first (EDT) one", async () => {
    await start("2026-10-30T15:00:00Z", TZ);
    const id = await reminder("night pills", { reminderRecurrence: { type: "daily", time: "01:30" } }, TZ);
    expect(await rings(id, TZ, 2)).toEqual(["Sat 2026-10-31 01:30", "Sun 2026-11-01 01:30"]);
    expect((await h.ledger(PHONE)).at(-1)!.occurrenceAt).toBe(Date.parse("2026-11-01T05:30:00Z"));
    await silentAt("2026-11-01T06:30:00Z");
    expect(await rings(id, TZ, 1)).toEqual(["Mon 2026-11-02 01:30"]);
  });

  it("a monthly reminder on the 31st uses the last day of shorter months", async () => {
    await start("2026-09-15T15:00:00Z", TZ);
    const id = await reminder(
      "pay the rent",
      { reminderRecurrence: { type: "monthly", time: "09:00", dayOfMonth: 31 } },
      TZ,
    );
    expect(await rings(id, TZ, 4)).toEqual([
      "Wed 2026-09-30 09:00",
      "Sat 2026-10-31 09:00",
      "Mon 2026-11-30 09:00",
      "Thu 2026-12-31 09:00",
    ]);
  });
});

describe("Asia/Kolkata (+05:30, no daylight saving)", () => {
  const TZ = "Asia/Kolkata";

  it("a monthly reminder on the 31st rings on 31 Jan, 28 Feb, 31 Mar, 30 Apr and 31 May", async () => {
    await start("2026-01-20T06:00:00Z", TZ);
    const id = await reminder(
      "file the expenses",
      { reminderRecurrence: { type: "monthly", time: "10:00", dayOfMonth: 31 } },
      TZ,
    );
    expect(await rings(id, TZ, 5)).toEqual([
      "Sat 2026-01-31 10:00",
      "Sat 2026-02-28 10:00",
      "Tue 2026-03-31 10:00",
      "Thu 2026-04-30 10:00",
      "Sun 2026-05-31 10:00",
    ]);
    expect(new Date((await h.ledger(PHONE))[0]!.occurrenceAt).toISOString()).toBe("2026-01-31T04:30:00.000Z");
  });

  it("a daily reminder 15 minutes before 08:00 rings at 07:45 every day", async () => {
    await start("2026-03-06T06:00:00Z", TZ);
    const id = await reminder(
      "yoga",
      { reminder: "15 minutes", reminderRecurrence: { type: "daily", time: "08:00" } },
      TZ,
    );
    expect(await rings(id, TZ, 3)).toEqual([
      "Sat 2026-03-07 07:45",
      "Sun 2026-03-08 07:45",
      "Mon 2026-03-09 07:45",
    ]);
  });

  it("a weekly reminder with an end date rings on its days up to it", async () => {
    await start("2026-03-02T06:00:00Z", TZ); // Monday 11:30 local
    const id = await reminder(
      "team sync",
      { reminderRecurrence: { type: "weekly", time: "16:00", days: [2, 4], until: "2026-03-12" } },
      TZ,
    );
    expect(await rings(id, TZ, 4)).toEqual([
      "Tue 2026-03-03 16:00",
      "Thu 2026-03-05 16:00",
      "Tue 2026-03-10 16:00",
      "Thu 2026-03-12 16:00",
    ]);
    expect((await h.tasks.get(PHONE, id))?.nextFireAt).toBeNull();
    await silentAt("2026-03-17T10:30:00Z", "2026-03-19T10:30:00Z");
  });
});

describe("'every weekday at 7' follows the user's week, read from the user's own words (D10)", () => {
  it("rings Monday–Friday at 07:00 for a New York user, across the spring forward", async () => {
    const TZ = "America/New_York";
    await start("2026-03-05T17:00:00Z", TZ); // Thursday noon
    const id = await reminder(
      "standup",
      { reminderRecurrence: { type: "weekly", phrase: "every weekday at 7" } },
      TZ,
    );
    expect((await h.tasks.get(PHONE, id))?.recurrence).toMatchObject({
      type: "rrule",
      rule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
      time: "07:00",
    });
    expect(await rings(id, TZ, 7)).toEqual([
      "Fri 2026-03-06 07:00",
      "Mon 2026-03-09 07:00",
      "Tue 2026-03-10 07:00",
      "Wed 2026-03-11 07:00",
      "Thu 2026-03-12 07:00",
      "Fri 2026-03-13 07:00",
      "Mon 2026-03-16 07:00",
    ]);
    // 07:00 is 12:00Z before the change and 11:00Z after it: never "+24 hours".
    const utc = (await h.ledger(PHONE)).map((r) => new Date(r.occurrenceAt).toISOString().slice(11, 16));
    expect(utc).toEqual(["12:00", "11:00", "11:00", "11:00", "11:00", "11:00", "11:00"]);
  });

  it("rings Sunday–Thursday at 07:00 for a Jerusalem user, across the spring forward, in Hebrew too", async () => {
    const TZ = "Asia/Jerusalem";
    await start("2026-03-25T08:00:00Z", TZ); // Wednesday 10:00
    const id = await reminder(
      "לקום לעבודה",
      { reminderRecurrence: { type: "weekly", phrase: "כל יום חול ב-7" } },
      TZ,
    );
    expect(await rings(id, TZ, 7)).toEqual([
      "Thu 2026-03-26 07:00",
      "Sun 2026-03-29 07:00",
      "Mon 2026-03-30 07:00",
      "Tue 2026-03-31 07:00",
      "Wed 2026-04-01 07:00",
      "Thu 2026-04-02 07:00",
      "Sun 2026-04-05 07:00",
    ]);
    const utc = (await h.ledger(PHONE)).map((r) => new Date(r.occurrenceAt).toISOString().slice(11, 16));
    expect(utc).toEqual(["05:00", "04:00", "04:00", "04:00", "04:00", "04:00", "04:00"]);
    // Friday and Saturday stay quiet.
    await silentAt("2026-04-03T04:00:00Z", "2026-04-04T04:00:00Z");
  });

  it("the same words with an English user in Jerusalem: the week follows the zone, not the language", async () => {
    const TZ = "Asia/Jerusalem";
    await start("2026-10-22T08:00:00Z", TZ); // Thursday 11:00, fall back on Sunday 25 October
    const id = await reminder(
      "standup",
      { reminderRecurrence: { type: "weekly", phrase: "every weekday at 7" } },
      TZ,
    );
    expect(await rings(id, TZ, 3)).toEqual([
      "Sun 2026-10-25 07:00",
      "Mon 2026-10-26 07:00",
      "Tue 2026-10-27 07:00",
    ]);
  });
});

describe("a reminder said in words rings at the time meant (D10)", () => {
  it("'מחר ברבע לשמונה' through the webhook, with no model, rings at 07:45 the next morning", async () => {
    const TZ = "Asia/Jerusalem";
    await start("2026-03-05T10:00:00Z", TZ); // Thursday 12:00
    await h.memo.users.update(PHONE, { language: "he" });
    await h.deliver(textMessage(PHONE, "תזכיר לי מחר ברבע לשמונה לצאת מהבית", h.clock.now()));
    await h.idle();
    const [task] = await h.tasks.list(PHONE, { completed: false });
    expect(task?.text).toBe("לצאת מהבית");
    expect(await rings(task!.id, TZ, 1)).toEqual(["Fri 2026-03-06 07:45"]);
    expect(h.sentTo(PHONE).at(-1)).toContain("לצאת מהבית");
  });
});

describe("a yearly Hebrew date (issue 36)", () => {
  const TZ = "Asia/Jerusalem";

  it("15 Shevat at 08:00 rings on its Gregorian day in two consecutive years", async () => {
    await start("2026-11-28T10:00:00Z", TZ);
    const id = await reminder(
      "plant a tree",
      {
        reminderRecurrence: { type: "hebrew", time: "08:00", hebrew: { month: 11, day: 15, custom: "date" } },
      },
      TZ,
    );
    // Tu BiShvat 5787 and 5788 (published calendars).
    expect(await rings(id, TZ, 2)).toEqual(["Sat 2027-01-23 08:00", "Sat 2028-02-12 08:00"]);
  });

  it("a yahrzeit said in words rings the evening before, on the day the custom keeps", async () => {
    await start("2026-11-28T10:00:00Z", TZ);
    const id = await reminder(
      "yahrzeit for grandma",
      { reminderRecurrence: { type: "hebrew", phrase: "yahrzeit on 10 Tevet, the evening before at 19:00" } },
      TZ,
    );
    // 10 Tevet 5787 = Sun 20 Dec 2026, 5788 = Sun 9 Jan 2028.
    expect(await rings(id, TZ, 2)).toEqual(["Sat 2026-12-19 19:00", "Sat 2028-01-08 19:00"]);
    expect((await h.tasks.get(PHONE, id))?.recurrence).toMatchObject({
      type: "hebrew",
      hebrew: { month: 10, day: 10, custom: "yahrzeit" },
      eve: true,
    });
  });
});
