import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pgliteBackend, type TestDatabase } from "../support/db.js";
import { createSchedulerHarness, type SchedulerHarness } from "../support/schedulerHarness.js";
import { textMessage, waId } from "../support/whatsappHarness.js";

/**
 * The weekly review as the user gets it (issue 36): opt-in, at their day and time in their zone,
 * once a week whatever the number of instances, with what got done, what is overdue (numbered,
 * and "done 1" then completes item 1), what is coming (tasks and calendar), the week's holidays
 * and the open items of shared lists; as the template outside the 24-hour window.
 */

const PHONE = "972501234567";
const PARTNER = "972507654321";
const JERUSALEM = "Asia/Jerusalem";
const TABLES =
  "users, tasks, task_completions, lists, list_items, households, household_members, reminder_deliveries, inbox_messages, inbox_phone_leases, outbound_messages, conversation_windows, calendar_events";

let db: TestDatabase;
let h: SchedulerHarness;

beforeAll(async () => {
  db = await pgliteBackend.create();
});
afterEach(async () => {
  await h?.close(false);
  await db.pool.query(`TRUNCATE ${TABLES} CASCADE`);
});
afterAll(async () => db?.close());

/** Saturday 17 April 2027, 13:00 in Jerusalem: the review is due Sunday 18 April at 08:00 (05:00Z). */
const SATURDAY = "2027-04-17T10:00:00Z";
const SUNDAY_8 = "2027-04-18T05:00:00Z";

async function start(
  options: { language?: "he" | "en"; env?: Record<string, string>; on?: boolean; inbound?: string } = {},
) {
  h = await createSchedulerHarness({
    db,
    start: SATURDAY,
    env: { FAST_PATH: "on", ...options.env },
  });
  await h.user(PHONE, {
    timeZone: JERUSALEM,
    language: options.language ?? "en",
    ...(options.inbound ? { inbound: Date.parse(options.inbound) } : {}),
  });
  // The morning digest (on by default) comes at 08:00 too: off, so what is seen is the review.
  await h.memo.users.update(PHONE, { digestEnabled: false, weeklyReviewEnabled: options.on !== false });
  // The scheduler's first pass plans the next review (as it does every minute).
  await h.pass();
}

/** A pass at `iso` (the user has kept chatting: the 24-hour window is open); the texts it sent. */
async function passAt(iso: string, phone = PHONE): Promise<string[]> {
  const before = h.sentTo(phone).length;
  h.at(iso);
  await h.memo.users.recordInbound(phone, new Date(h.clock.now()));
  await h.pass();
  return h.sentTo(phone).slice(before);
}

/** The body parameters of the templates sent. */
const templateParameters = () =>
  h.graphApi.sent
    .filter((m) => (m.body as { type?: string }).type === "template")
    .map(
      (m) =>
        (m.body as { template: { components: { parameters: { text: string }[] }[] } }).template.components[0]!
          .parameters[0]!.text,
    );

/** A text as a template parameter carries it: its lines joined with " · ". */
const flat = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" · ");

const weekly = async (phone = PHONE) => (await h.ledger(phone)).filter((r) => r.kind === "weekly");

/** The week's material: done, overdue, coming, a calendar event, a shared list. */
async function seedWeek(): Promise<void> {
  // What got done is what "done" recorded (task_completions): last Wednesday, and three weeks ago.
  await db.pool.query(
    `INSERT INTO task_completions (user_phone, task_id, text, completed_at)
     VALUES ($1, gen_random_uuid(), 'file the tax return', $2), ($1, gen_random_uuid(), 'old errand', $3)`,
    [PHONE, new Date("2027-04-14T09:00:00Z"), new Date("2027-03-28T09:00:00Z")],
  );
  await h.addTask(PHONE, { text: "renew passport", dueAt: "2027-04-12T09:00:00Z" });
  await h.addTask(PHONE, { text: "call the plumber", dueAt: "2027-04-15T09:00:00Z" });
  await h.addTask(PHONE, { text: "buy matza", dueAt: "2027-04-20T07:00:00Z" }); // Tue 10:00
  await h.addTask(PHONE, { text: "next month's thing", dueAt: "2027-05-20T07:00:00Z" });
  await h.addTask(PHONE, { text: "someday" });
  const calendar = await h.memo.calendars.forUser(PHONE);
  await calendar.createEvent(
    {
      summary: "Seder at grandma's",
      allDay: false,
      start: "2027-04-21T16:00:00Z", // Wed 19:00
      end: "2027-04-21T20:00:00Z",
      timeZone: JERUSALEM,
    },
    "seed:seder",
  );
  // A household of two, and the partner's shopping list shared with it.
  await h.user(PARTNER, { timeZone: JERUSALEM });
  const household = randomUUID();
  await db.pool.query(`INSERT INTO households (id, created_at) VALUES ($1, now())`, [household]);
  await db.pool.query(
    `INSERT INTO household_members (household_id, phone, name, joined_at)
     VALUES ($1, $2, 'Noa', now()), ($1, $3, 'Dana', now())`,
    [household, PHONE, PARTNER],
  );
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO lists (user_phone, name, household_id) VALUES ($1, 'Shopping', $2) RETURNING id`,
    [PARTNER, household],
  );
  await db.pool.query(
    `INSERT INTO list_items (list_id, user_phone, text, checked, position)
     VALUES ($1, $2, 'wine', false, 0), ($1, $2, 'eggs', false, 1), ($1, $2, 'salt', true, 2)`,
    [rows[0]!.id, PARTNER],
  );
}

describe("when the weekly review comes", () => {
  it("with Shabbat quiet, a review due on Saturday 10:00 waits for havdalah (19:52), once, under its own key", async () => {
    await start();
    await seedWeek();
    await h.memo.users.update(PHONE, { sabbathQuiet: true, weeklyReviewDay: 6, weeklyReviewTime: "10:00" });
    await h.pass();
    // Shabbat chol hamoed Pesach 5787 in Jerusalem: candle lighting Fri 18:33, havdalah Sat 19:52.
    expect(await passAt("2027-04-24T07:00:00Z")).toEqual([]);
    expect(await passAt("2027-04-24T16:51:00Z")).toEqual([]);
    const atHavdalah = await passAt("2027-04-24T16:52:00Z");
    expect(atHavdalah).toHaveLength(1);
    expect(atHavdalah[0]).toContain("🗓️ Your weekly review for Sat 24/04:");
    expect(await passAt("2027-04-24T17:30:00Z")).toEqual([]);
    const rows = await weekly();
    // Keyed by the week it belongs to (Sunday 18 April starts it in Israel), not by its day.
    expect(rows.map((r) => [r.key, r.status])).toEqual([[`weekly:${PHONE}@2027-04-18`, "sent"]]);
  });

  it("the holiday section only for a user whose calendar it plainly is", async () => {
    await start();
    await seedWeek();
    // English, in New York, no Shabbat quiet, no schedule chosen: no holidays.
    await h.memo.users.update(PHONE, { timeZone: "America/New_York" });
    await h.pass();
    const [plain] = await passAt("2027-04-19T12:00:00Z"); // Monday 08:00 in New York
    expect(plain).toContain("🗓️ Your weekly review");
    expect(plain).not.toContain("✡️");
    // The same user, having said "I keep the diaspora holiday calendar": the week's holidays.
    await h.memo.users.update(PHONE, { calendarSchedule: "diaspora" });
    const [chosen] = await passAt("2027-04-26T12:00:00Z");
    expect(chosen).toContain("✡️ Holidays this week:");
  });

  it("at the user's day and time in their zone (Sunday 08:00 in Israel), not before, and a week later again", async () => {
    await start();
    await seedWeek();
    expect(await passAt("2027-04-18T04:59:00Z")).toEqual([]);
    const [review, ...rest] = await passAt(SUNDAY_8);
    expect(rest).toEqual([]);
    expect(review).toBe(
      [
        "🗓️ Your weekly review for Sun 18/04:",
        "✅ Done in the past 7 days (1):\n• file the tax return",
        "⚠️ Overdue:\n1. renew passport (Mon 12/04)\n2. call the plumber (Thu 15/04)",
        "📅 Coming this week:\n• Tue 20/04 10:00 buy matza",
        "🗓️ In your calendar this week:\n• Wed 21/04 19:00 Seder at grandma's",
        "✡️ Holidays this week:\n• Wed 21/04 Ta’anit Bechorot\n• Wed 21/04 Erev Pesach\n• Thu 22/04 Pesach I\n• Fri 23/04 Pesach (chol hamoed)\n• Sat 24/04 Pesach (chol hamoed)",
        "🛒 Open on shared lists:\n• *Shopping* (2): wine, eggs",
        'Reply "done 1", "move 1 to Friday" or "delete 1" for an overdue one.',
        'Say "stop the weekly review" to turn these off.',
      ].join("\n\n"),
    );
    const rows = await weekly();
    expect(rows.map((r) => [r.key, r.status])).toEqual([[`weekly:${PHONE}@2027-04-18`, "sent"]]);
    // The rest of the week: nothing more.
    expect(await passAt("2027-04-18T05:30:00Z")).toEqual([]);
    expect(await passAt("2027-04-24T20:00:00Z")).toEqual([]);
    const next = await passAt("2027-04-25T05:00:00Z");
    expect(next).toHaveLength(1);
    expect(next[0]).toContain("🗓️ Your weekly review for Sun 25/04:");
    expect((await weekly()).map((r) => r.key)).toEqual([
      `weekly:${PHONE}@2027-04-18`,
      `weekly:${PHONE}@2027-04-25`,
    ]);
  });

  it("Hebrew, on the day and time the user chose (Friday 14:00)", async () => {
    await start({ language: "he" });
    await h.memo.users.update(PHONE, { weeklyReviewDay: 5, weeklyReviewTime: "14:00" });
    await h.addTask(PHONE, { text: "לחדש דרכון", dueAt: "2027-04-12T09:00:00Z" });
    expect(await passAt("2027-04-18T05:00:00Z")).toEqual([]);
    const [review] = await passAt("2027-04-23T11:00:00Z"); // Friday 14:00 IDT
    expect(review).toBe(
      [
        "🗓️ הסיכום השבועי שלך (שישי 23/04):",
        "⚠️ באיחור:\n1. לחדש דרכון (שני 12/04)",
        "✡️ חגים ומועדים השבוע:\n• שישי 23/04 פסח (חול המועד)\n• שבת 24/04 פסח (חול המועד)\n• ראשון 25/04 פסח (חול המועד)\n• שני 26/04 פסח (חול המועד)\n• שלישי 27/04 פסח (חול המועד)\n• רביעי 28/04 פסח ז׳",
        'אפשר לכתוב "בוצע 1", "תזיז את 1 ליום שישי" או "מחק 1" על משימה באיחור.',
        'אפשר לכתוב "בטל את הסיכום השבועי" כדי להפסיק.',
      ].join("\n\n"),
    );
  });

  it("elsewhere the default is Monday 08:00 local", async () => {
    await start({ on: false });
    await h.user("14155550100", { timeZone: "America/New_York" });
    await h.memo.users.update("14155550100", { weeklyReviewEnabled: true, digestEnabled: false });
    await h.addTask("14155550100", { text: "send the report", dueAt: "2027-04-12T13:00:00Z" });
    expect(await passAt("2027-04-18T12:00:00Z", "14155550100")).toEqual([]); // Sunday 08:00 EDT
    const sent = await passAt("2027-04-19T12:00:00Z", "14155550100"); // Monday 08:00 EDT
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain("Mon 19/04");
  });

  it("not sent when it is off (the default)", async () => {
    await start({ on: false });
    await seedWeek();
    expect(await passAt(SUNDAY_8)).toEqual([]);
    expect(await passAt("2027-04-19T05:00:00Z")).toEqual([]);
    expect(await weekly()).toEqual([]);
  });

  it("more than 3 hours late (the service was down) it is skipped, and next week's comes", async () => {
    await start();
    await seedWeek();
    // The first pass schedules it; the service is then down until 11:00.
    await passAt(SATURDAY);
    expect(await passAt("2027-04-18T08:01:00Z")).toEqual([]);
    expect((await weekly()).map((r) => [r.status, r.error])).toEqual([["skipped", "too late"]]);
    expect(await passAt("2027-04-25T05:00:00Z")).toHaveLength(1);
  });

  it("exactly once across two instances running their passes at the same moment", async () => {
    await start();
    await seedWeek();
    await passAt(SATURDAY);
    const other = h.instance();
    h.at(SUNDAY_8);
    await h.memo.users.recordInbound(PHONE, new Date(h.clock.now()));
    const before = h.sentTo(PHONE).length;
    const reports = await Promise.all([h.reminders.runDue(), other.reminders.runDue(), h.reminders.runDue()]);
    expect(
      h
        .sentTo(PHONE)
        .slice(before)
        .filter((m) => m.includes("weekly review")),
    ).toHaveLength(1);
    expect(reports.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect((await weekly()).map((r) => r.status)).toEqual(["sent"]);
  });

  it("outside the 24-hour window it goes as WHATSAPP_WEEKLY_TEMPLATE, its numbers still kept for 'done 1'", async () => {
    // Last wrote on Saturday morning: the window is closed by Sunday 08:00.
    await start({ env: { WHATSAPP_WEEKLY_TEMPLATE: "memo_weekly" }, inbound: "2027-04-17T04:00:00Z" });
    await h.addTask(PHONE, { text: "renew passport", dueAt: "2027-04-12T09:00:00Z" });
    await h.pass();
    h.at(SUNDAY_8);
    await h.pass();
    const template = h.graphApi.sent.filter((m) => (m.body as { type?: string }).type === "template");
    expect(template).toHaveLength(1);
    const body = template[0]!.body as {
      template: {
        name: string;
        language: { code: string };
        components: { parameters: { text: string }[] }[];
      };
    };
    expect(body.template.name).toBe("memo_weekly");
    expect(body.template.language.code).toBe("en");
    expect(body.template.components[0]!.parameters[0]!.text).toContain("1. renew passport (Mon 12/04)");
    expect((await weekly()).map((r) => [r.status, r.via])).toEqual([["sent", "template"]]);
    await h.memo.memory.load(PHONE);
    expect(h.memo.memory.getRecentMessages(PHONE).at(-1)?.metadata?.numbered?.type).toBe("task");
  });

  it("moved mid-week (sent Sunday, moved to Wednesday): not again that week, the next the following Wednesday", async () => {
    await start();
    await seedWeek();
    expect(await passAt(SUNDAY_8)).toHaveLength(1);
    await h.memo.users.update(PHONE, { weeklyReviewDay: 3 });
    await h.pass();
    // Wednesday 21 April 08:00 is in the week Sunday's review covered: nothing.
    expect(await passAt("2027-04-21T05:00:00Z")).toEqual([]);
    expect(await passAt("2027-04-24T20:00:00Z")).toEqual([]);
    const next = await passAt("2027-04-28T05:00:00Z");
    expect(next).toHaveLength(1);
    expect(next[0]).toContain("🗓️ Your weekly review for Wed 28/04:");
    expect((await weekly()).map((r) => [r.key, r.status])).toEqual([
      [`weekly:${PHONE}@2027-04-18`, "sent"],
      [`weekly:${PHONE}@2027-04-25`, "sent"],
    ]);
  });

  it("as the template, a long week fits the parameter: overdue first, the rest shortened, the footer kept; the window holds what went", async () => {
    await start({ env: { WHATSAPP_WEEKLY_TEMPLATE: "memo_weekly" }, inbound: "2027-04-17T04:00:00Z" });
    for (let i = 1; i <= 10; i++) {
      await db.pool.query(
        `INSERT INTO task_completions (user_phone, task_id, text, completed_at) VALUES ($1, gen_random_uuid(), $2, $3)`,
        [PHONE, `finished the weekly errand number ${i}`, new Date(`2027-04-${11 + (i % 6)}T09:00:00Z`)],
      );
      await h.addTask(PHONE, {
        text: `overdue errand ${i}`,
        dueAt: `2027-04-${String(i).padStart(2, "0")}T09:00:00Z`,
      });
    }
    await h.pass();
    h.at(SUNDAY_8);
    await h.pass();
    const parameter = templateParameters().at(-1)!;
    expect(parameter.length).toBeLessThanOrEqual(900);
    expect(parameter).toMatch(
      /^🗓️ Your weekly review for Sun 18\/04: · ⚠️ Overdue: · 1\. overdue errand 1 \(Thu 01\/04\)/,
    );
    expect(parameter).toContain('10. overdue errand 10 (Sat 10/04) · Reply "done 1"');
    expect(parameter).toContain("✅ Done in the past 7 days (10):");
    expect(parameter).toMatch(/…and \d+ more/);
    expect(parameter.endsWith('Say "stop the weekly review" to turn these off.')).toBe(true);
    await h.memo.memory.load(PHONE);
    const shown = h.memo.memory.getRecentMessages(PHONE).at(-1)!;
    expect(flat(shown.content)).toBe(parameter);
    expect(shown.metadata?.numbered?.ids).toHaveLength(10);
  });

  it("as the template, overdue tasks too long to fit: only the numbered lines sent are kept for 'done N'", async () => {
    await start({ env: { WHATSAPP_WEEKLY_TEMPLATE: "memo_weekly" }, inbound: "2027-04-17T04:00:00Z" });
    const long = "x".repeat(90);
    for (let i = 1; i <= 10; i++)
      await h.addTask(PHONE, {
        text: `errand ${i} ${long}`,
        dueAt: `2027-04-${String(i).padStart(2, "0")}T09:00:00Z`,
      });
    await h.pass();
    h.at(SUNDAY_8);
    await h.pass();
    const parameter = templateParameters().at(-1)!;
    expect(parameter.length).toBeLessThanOrEqual(900);
    const numbers = [...parameter.matchAll(/(?:^| · )(\d+)\. errand/g)].map((m) => Number(m[1]));
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers.length).toBeLessThan(10);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(parameter).toContain(`…and ${10 - numbers.length} more`);
    expect(parameter.endsWith('Say "stop the weekly review" to turn these off.')).toBe(true);
    await h.memo.memory.load(PHONE);
    const shown = h.memo.memory.getRecentMessages(PHONE).at(-1)!;
    expect(flat(shown.content)).toBe(parameter);
    const ids = shown.metadata?.numbered?.ids ?? [];
    expect(ids).toHaveLength(numbers.length);
    const { rows } = await db.pool.query<{ id: string; text: string }>(
      `SELECT id, text FROM tasks WHERE user_phone = $1`,
      [PHONE],
    );
    const text = new Map(rows.map((r) => [r.id, r.text]));
    expect(ids.map((id) => text.get(id))).toEqual(numbers.map((n) => `errand ${n} ${long}`));
  });

  it("window closed and no template: recorded undeliverable, as the digest is", async () => {
    await start({ inbound: "2027-04-17T04:00:00Z" });
    await h.addTask(PHONE, { text: "renew passport", dueAt: "2027-04-12T09:00:00Z" });
    await h.pass();
    h.at(SUNDAY_8);
    await h.pass();
    expect((await weekly()).map((r) => r.status)).toEqual(["undeliverable"]);
  });
});

/** Sends a text through the signed webhook and returns Memo's reply. */
async function say(text: string, phone = PHONE): Promise<string> {
  const count = h.graphApi.sent.length;
  await h.deliver(textMessage(phone, text, h.clock.now()));
  await h.graphApi.waitForSent(count + 1);
  await h.idle();
  return h.sentTo(phone).at(-1)!;
}

describe("after the review: its numbers", () => {
  it("'done 1' completes overdue item 1, 'move 1 to Friday' and 'delete 1' act on the review's numbers", async () => {
    await start();
    await seedWeek();
    await passAt(SUNDAY_8);
    expect(await say("done 1")).toBe("✅ Done: *renew passport*");
    const open = async () =>
      (
        await db.pool.query<{ text: string; due_at: Date | null }>(
          `SELECT text, due_at FROM tasks WHERE user_phone = $1 AND NOT completed ORDER BY seq`,
          [PHONE],
        )
      ).rows;
    expect((await open()).map((t) => t.text)).not.toContain("renew passport");
    // The review again (on demand): the plumber is now overdue item 1.
    const again = await say("weekly review");
    expect(again).toContain("⚠️ Overdue:\n1. call the plumber (Thu 15/04)");
    expect(again).not.toContain('Say "stop the weekly review"');
    expect(await say("move 1 to friday")).toContain("call the plumber");
    const plumber = (await open()).find((t) => t.text === "call the plumber")!;
    // Friday 23 April, local.
    expect(new Intl.DateTimeFormat("en-CA", { timeZone: JERUSALEM }).format(plumber.due_at!)).toBe(
      "2027-04-23",
    );
    // Shown again, the plumber is no longer overdue: item 1 is nothing; a new overdue task is.
    await h.addTask(PHONE, { text: "return the library book", dueAt: "2027-04-10T09:00:00Z" });
    expect(await say("weekly review")).toContain("⚠️ Overdue:\n1. return the library book (Sat 10/04)");
    expect(await say("delete 1")).toContain("Deleted: *return the library book*");
    expect((await open()).map((t) => t.text)).not.toContain("return the library book");
  });
});

describe("what got done: every completion, whatever 'done' did to the task", () => {
  it("an overdue reminder done from the review ('done 1' deletes it) is next week's Done; undone, it is not", async () => {
    await start();
    await h.addTask(PHONE, { text: "renew passport", dueAt: "2027-04-12T09:00:00Z" });
    await h.addTask(PHONE, { text: "water the plants", dueAt: "2027-04-13T09:00:00Z" });
    await h.addTask(PHONE, { text: "call the plumber", dueAt: "2027-04-28T09:00:00Z" });
    const [review] = await passAt(SUNDAY_8);
    expect(review).toContain("1. renew passport (Mon 12/04)");
    expect(review).not.toContain("✅");
    expect(await say("done 1")).toBe("✅ Done: *renew passport*");
    expect(await say("weekly review")).toContain("1. water the plants (Tue 13/04)");
    expect(await say("done 1")).toContain("water the plants");
    expect(await say("undo")).toContain("water the plants");
    const [next] = await passAt("2027-04-25T05:00:00Z");
    expect(next).toContain("✅ Done in the past 7 days (1):\n• renew passport");
    expect(next).toContain("1. water the plants (Tue 13/04)");
  });

  it("a daily reminder's ring done by the Done button is counted", async () => {
    await start();
    const task = await h.addTask(PHONE, {
      text: "take the pills",
      reminder: "2027-04-17T17:00:00Z",
      recurrence: { type: "daily", time: "20:00" },
    });
    const count = h.graphApi.sent.length;
    await h.deliver({
      from: PHONE,
      id: waId(),
      timestamp: String(Math.floor(h.clock.now() / 1000)),
      type: "interactive",
      interactive: { type: "button_reply", button_reply: { id: `rem:done:${task.id}`, title: "Done ✅" } },
    });
    await h.graphApi.waitForSent(count + 1);
    await h.idle();
    expect(h.sentTo(PHONE).at(-1)).toContain("take the pills");
    const review = (await passAt(SUNDAY_8)).find((m) => m.includes("weekly review"));
    expect(review).toContain("✅ Done in the past 7 days (1):\n• take the pills");
  });
});

describe("whose review: the name, the language, other members' words", () => {
  it("the name leads the title (English and Hebrew); asked in Hebrew, the review is in Hebrew", async () => {
    await start();
    await h.memo.users.update(PHONE, { displayName: "Noa Levi" });
    await h.addTask(PHONE, { text: "renew passport", dueAt: "2027-04-12T09:00:00Z" });
    const [review] = await passAt(SUNDAY_8);
    expect(review!.split("\n")[0]).toBe("🗓️ Noa, your weekly review for Sun 18/04:");
    // The profile says English; this message is Hebrew.
    const hebrew = await say("סיכום שבועי");
    expect(hebrew.split("\n")[0]).toBe("🗓️ Noa, הסיכום השבועי שלך (ראשון 18/04):");
    expect(hebrew).toContain("⚠️ באיחור:\n1. renew passport (שני 12/04)");
  });

  it("another member's list name is shown as their words, like its items", async () => {
    await start();
    await h.user(PARTNER, { timeZone: JERUSALEM });
    const household = randomUUID();
    await db.pool.query(`INSERT INTO households (id, created_at) VALUES ($1, now())`, [household]);
    await db.pool.query(
      `INSERT INTO household_members (household_id, phone, name, joined_at)
       VALUES ($1, $2, 'Noa', now()), ($1, $3, 'Dana', now())`,
      [household, PHONE, PARTNER],
    );
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO lists (user_phone, name, household_id) VALUES ($1, 'Shop* _now_ https://x.example', $2) RETURNING id`,
      [PARTNER, household],
    );
    await db.pool.query(
      `INSERT INTO list_items (list_id, user_phone, text, checked, position) VALUES ($1, $2, 'wine', false, 0)`,
      [rows[0]!.id, PARTNER],
    );
    const [review] = await passAt(SUNDAY_8);
    const line = review!.split("\n").find((l) => l.includes("wine"))!;
    expect(line).not.toContain("Shop* _now_");
    expect(line).not.toContain("https://x.example");
  });
});

describe("a review that can never be planned", () => {
  it("stored as 'never' (infinity) for the review and the digest, the user's reminders still ring", async () => {
    await start();
    await db.pool.query(
      `UPDATE users SET weekly_review_next_at = 'infinity', digest_next_at = 'infinity' WHERE phone = $1`,
      [PHONE],
    );
    await h.addTask(PHONE, {
      text: "call the bank",
      dueAt: "2027-04-17T11:00:00Z",
      nextFireAt: "2027-04-17T11:00:00Z",
    });
    const sent = await passAt("2027-04-17T11:00:00Z");
    expect(sent.some((m) => m.includes("call the bank"))).toBe(true);
    // And no review: "never" is never due.
    expect(await passAt(SUNDAY_8)).toEqual([]);
  });
});

describe("a long week", () => {
  it("at most 10 numbered overdue tasks and '…and 2 more'; 'done 10' completes the tenth shown", async () => {
    await start();
    for (let day = 1; day <= 12; day++)
      await h.addTask(PHONE, {
        text: `errand ${day}`,
        dueAt: `2027-04-${String(day).padStart(2, "0")}T09:00:00Z`,
      });
    const [review] = await passAt(SUNDAY_8);
    expect(review).toContain("10. errand 10 (Sat 10/04)\n…and 2 more");
    expect(review).not.toContain("errand 11");
    expect(await say("done 10")).toBe("✅ Done: *errand 10*");
  });
});

describe("the commands, in English and Hebrew", () => {
  it("on (naming the default day and time), at a day and time, shown, off", async () => {
    await start({ on: false });
    expect(await say("turn on the weekly review")).toBe("Your weekly review is on: every Sunday at 08:00.");
    let user = await h.memo.users.get(PHONE);
    expect(user?.weeklyReviewEnabled).toBe(true);
    expect(await say("weekly review on Friday at 14:00")).toBe(
      "Done: your weekly review now comes every Friday at 14:00.",
    );
    user = await h.memo.users.get(PHONE);
    expect([user?.weeklyReviewDay, user?.weeklyReviewTime]).toEqual([5, "14:00"]);
    // Shown now (Saturday 17 April): the coming 7 days hold Pesach.
    const shown = await say("weekly review");
    expect(shown).toContain("🗓️ Your weekly review for Sat 17/04:");
    expect(shown).toContain("• Thu 22/04 Pesach I");
    expect(await weekly()).toEqual([]);
    expect(await say("stop the weekly review")).toBe(
      'OK, no more weekly reviews. Say "turn on the weekly review" to get them back.',
    );
    expect((await h.memo.users.get(PHONE))?.weeklyReviewEnabled).toBe(false);
    // "undo" right after a setting says it cannot be undone, as for the digest's settings.
    expect(await say("undo")).toContain("I can't undo a settings change");
  });

  it("a bare hour 1–6 is asked about, nothing changed; a time alone keeps the day (English and Hebrew)", async () => {
    await start({ on: false });
    const schedule = async () => {
      const user = await h.memo.users.get(PHONE);
      return [user?.weeklyReviewEnabled, user?.weeklyReviewDay, user?.weeklyReviewTime];
    };
    expect(await say("weekly review on friday at 2")).toBe(
      'At 2 in the morning or in the afternoon? Say it with am/pm or as a 24-hour time, e.g. "weekly review at 14:00". I didn\'t change anything.',
    );
    expect(await say("סיכום שבועי ביום שישי בשעה 2")).toContain("לא שיניתי כלום");
    expect(await schedule()).toEqual([false, null, null]);
    expect(await say("weekly review on friday at 2pm")).toBe(
      "Done: your weekly review now comes every Friday at 14:00.",
    );
    expect(await say("weekly review at 9")).toBe("Done: your weekly review now comes every Friday at 09:00.");
    expect(await say("סיכום שבועי ב-8:30")).toBe("בוצע: הסיכום השבועי יגיע מעכשיו כל יום שישי ב-08:30.");
    expect(await schedule()).toEqual([true, 5, "08:30"]);
  });

  it("Hebrew: on, at Friday 14:00, shown, off", async () => {
    await start({ on: false, language: "he" });
    expect(await say("תפעיל סיכום שבועי")).toBe("הסיכום השבועי פעיל: כל יום ראשון ב-08:00.");
    expect(await say("סיכום שבועי ביום שישי ב-14:00")).toBe(
      "בוצע: הסיכום השבועי יגיע מעכשיו כל יום שישי ב-14:00.",
    );
    await h.addTask(PHONE, { text: "לחדש דרכון", dueAt: "2027-04-12T09:00:00Z" });
    expect(await say("סיכום שבועי")).toContain("⚠️ באיחור:\n1. לחדש דרכון (שני 12/04)");
    await h.addTask(PHONE, { text: "לתקן את הברז", dueAt: "2027-04-14T09:00:00Z" });
    expect(await say("בוצע 1")).toContain("לחדש דרכון");
    expect(await say("סיכום שבועי")).toContain("⚠️ באיחור:\n1. לתקן את הברז (רביעי 14/04)");
    expect(await say("תזיז את 1 ליום שישי")).toContain("לתקן את הברז");
    const tap = await db.pool.query<{ due_at: Date }>(`SELECT due_at FROM tasks WHERE text = 'לתקן את הברז'`);
    expect(new Intl.DateTimeFormat("en-CA", { timeZone: JERUSALEM }).format(tap.rows[0]!.due_at)).toBe(
      "2027-04-23",
    );
    expect(await say("בטל את הסיכום השבועי")).toBe(
      'בסדר, לא אשלח יותר סיכום שבועי. אפשר לכתוב "תפעיל סיכום שבועי" כדי להחזיר.',
    );
    expect((await h.memo.users.get(PHONE))?.weeklyReviewEnabled).toBe(false);
  });
});
