import { describe, expect, it } from "vitest";
import type { TaskTimeArgs } from "../../src/services/tasks/taskTimes.js";
import type { SentMessage } from "../support/fakeGraphApi.js";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";
import { textMessage, waId, type WaMessage } from "../support/whatsappHarness.js";

/**
 * Nudges and the reminder buttons, as the user meets them in WhatsApp: a nudge repeats until
 * "Done ✅" is tapped, "Snooze 10 min" puts it off by exactly ten minutes, quiet hours set in chat
 * hold nudges until morning, in English and in Hebrew.
 */

const PHONE = "972501110003";
const TZ = "Asia/Jerusalem";
let h: SchedulerHarness;
const shared = sharedDatabase(() => h);

/** Monday 2 March 2026, 09:00 in Jerusalem, unless `iso` says otherwise. */
async function start(options: { language?: "he" | "en"; iso?: string } = {}): Promise<void> {
  h = await createSchedulerHarness({ db: shared.db, start: options.iso ?? "2026-03-02T07:00:00Z" });
  await h.user(PHONE, { timeZone: TZ, language: options.language ?? "en" });
  await h.memo.users.update(PHONE, { digestEnabled: false });
}

const remind = async (text: string, words: TaskTimeArgs) => (await h.remind(PHONE, text, words, TZ)).id;

/** A pass at `iso`; returns the texts it sent. */
async function passAt(iso: string): Promise<string[]> {
  const before = h.sentTo(PHONE).length;
  h.at(iso);
  await h.pass();
  return h.sentTo(PHONE).slice(before);
}

interface Button {
  id: string;
  title: string;
}

/** The reply buttons of a sent message ([] for plain text). */
function buttonsOf(message: SentMessage): Button[] {
  const body = message.body as { interactive?: { action?: { buttons?: { reply: Button }[] } } };
  return body.interactive?.action?.buttons?.map((b) => b.reply) ?? [];
}

const lastSent = () => h.graphApi.sent.at(-1)!;

/** Sends one message through the signed webhook and waits for Memo's one reply; returns its text. */
async function send(message: WaMessage): Promise<string> {
  const count = h.graphApi.sent.length;
  await h.deliver(message);
  await h.graphApi.waitForSent(count + 1);
  await h.idle();
  expect(h.graphApi.sent).toHaveLength(count + 1);
  return h.sentTo(PHONE).at(-1)!;
}

/** Taps `button` now; returns Memo's answer. */
function tap(button: Button): Promise<string> {
  return send({
    from: PHONE,
    id: waId(),
    timestamp: String(Math.floor(h.clock.now() / 1000)),
    type: "interactive",
    interactive: { type: "button_reply", button_reply: { id: button.id, title: button.title } },
  });
}

const say = (text: string) => send(textMessage(PHONE, text, h.clock.now()));

const NUDGE = (text: string, every: string) =>
  `🔔 ${text}\nI'll remind you again every ${every} until it's done.`;

describe("a nudge", () => {
  it("rings every 10 minutes until 'Done ✅' is tapped, then never again", async () => {
    await start();
    const id = await remind("drink water", { reminderRecurrence: { type: "nudge", interval: "10 minutes" } });
    expect(await passAt("2026-03-02T07:09:59Z")).toEqual([]);
    expect(await passAt("2026-03-02T07:10:00Z")).toEqual([NUDGE("drink water", "10 minutes")]);
    expect(await passAt("2026-03-02T07:15:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T07:20:00Z")).toEqual([NUDGE("drink water", "10 minutes")]);
    expect(await passAt("2026-03-02T07:30:00Z")).toEqual([NUDGE("drink water", "10 minutes")]);
    expect(buttonsOf(lastSent())).toEqual([
      { id: `rem:done:${id}`, title: "Done ✅" },
      { id: `rem:snooze:${id}`, title: "Snooze 10 min" },
    ]);

    h.at("2026-03-02T07:32:00Z");
    expect(await tap(buttonsOf(lastSent())[0]!)).toBe("✅ Done: drink water");
    expect(await h.tasks.get(PHONE, id)).toBeNull();
    expect(await passAt("2026-03-02T07:40:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T07:50:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T09:00:00Z")).toEqual([]);
    expect((await h.ledger(PHONE)).map((r) => r.kind)).toEqual(["nudge", "nudge", "nudge"]);
  });

  it("'Snooze 10 min' moves the next ring to exactly 10 minutes after the tap, then the interval goes on", async () => {
    await start();
    const id = await remind("finish the report", {
      reminderRecurrence: { type: "nudge", interval: "30 minutes" },
    });
    expect(await passAt("2026-03-02T07:30:00Z")).toEqual([NUDGE("finish the report", "30 minutes")]);

    h.at("2026-03-02T07:33:20Z");
    expect(await tap(buttonsOf(lastSent())[1]!)).toBe(
      "⏰ OK, I'll remind you again today at 09:43: finish the report",
    );
    expect((await h.tasks.get(PHONE, id))?.nextFireAt).toBe("2026-03-02T07:43:20.000Z");
    expect(await passAt("2026-03-02T07:43:19Z")).toEqual([]);
    expect(await passAt("2026-03-02T07:43:20Z")).toEqual([NUDGE("finish the report", "30 minutes")]);
    // Not at 10:00 as planned before the snooze: 30 minutes after it actually went.
    expect(await passAt("2026-03-02T08:00:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T08:13:20Z")).toEqual([NUDGE("finish the report", "30 minutes")]);
  });

  it("speaks Hebrew to a Hebrew speaker: text, buttons and the answers to a tap", async () => {
    await start({ language: "he" });
    const id = await remind("לשתות מים", { reminderRecurrence: { type: "nudge", interval: "10 minutes" } });
    expect(await passAt("2026-03-02T07:10:00Z")).toEqual([
      "🔔 לשתות מים\nאזכיר שוב כל 10 דקות עד שזה ייעשה.",
    ]);
    const [done, snooze] = buttonsOf(lastSent());
    expect([done?.title, snooze?.title]).toEqual(["בוצע ✅", "דחה ב-10 דק׳"]);

    h.at("2026-03-02T07:13:00Z");
    expect(await tap(snooze!)).toBe("⏰ בסדר, אזכיר לך שוב היום ב-09:23: לשתות מים");
    expect(await passAt("2026-03-02T07:23:00Z")).toEqual([
      "🔔 לשתות מים\nאזכיר שוב כל 10 דקות עד שזה ייעשה.",
    ]);
    h.at("2026-03-02T07:24:00Z");
    expect(await tap(buttonsOf(lastSent())[0]!)).toBe("✅ בוצע: לשתות מים");
    expect(await h.tasks.get(PHONE, id)).toBeNull();
    expect(await tap(done!)).toBe("התזכורת הזאת כבר לא קיימת (אולי כבר בוצעה או נמחקה).");
  });

  it("waits through quiet hours set in chat and resumes at 07:00 local", async () => {
    await start({ iso: "2026-03-02T18:40:00Z" }); // Monday 20:40 local
    expect(await say("quiet hours 22:00-07:00")).toBe(
      "Quiet hours set: 22:00–07:00. Nudges wait until 07:00.",
    );
    expect(await say("what are my quiet hours?")).toBe("Quiet hours: 22:00–07:00.");
    const nudge = NUDGE("study for the exam", "30 minutes");
    await remind("study for the exam", { reminderRecurrence: { type: "nudge", interval: "30 minutes" } });
    expect(await passAt("2026-03-02T19:10:00Z")).toEqual([nudge]); // 21:10
    expect(await passAt("2026-03-02T19:40:00Z")).toEqual([nudge]); // 21:40
    // 22:10 is quiet: nothing at it, through the night, or a minute before 07:00.
    expect(await passAt("2026-03-02T20:10:00Z")).toEqual([]);
    expect(await passAt("2026-03-02T23:00:00Z")).toEqual([]);
    expect(await passAt("2026-03-03T02:30:00Z")).toEqual([]);
    expect(await passAt("2026-03-03T04:59:00Z")).toEqual([]);
    expect(await passAt("2026-03-03T05:00:00Z")).toEqual([nudge]); // 07:00, not late
    expect(await passAt("2026-03-03T05:29:00Z")).toEqual([]);
    expect(await passAt("2026-03-03T05:30:00Z")).toEqual([nudge]);
    const local = (await h.ledger(PHONE)).map((r) =>
      new Date(r.occurrenceAt).toLocaleTimeString("en-GB", {
        timeZone: TZ,
        hour: "2-digit",
        minute: "2-digit",
      }),
    );
    expect(local).toEqual(["21:10", "21:40", "07:00", "07:30"]);
  });

  it("rings at night again once quiet hours are turned off", async () => {
    await start({ iso: "2026-03-02T19:50:00Z" }); // 21:50 local
    await h.memo.users.update(PHONE, { quietStart: "22:00", quietEnd: "07:00" });
    expect(await say("no quiet hours")).toBe("Quiet hours are off.");
    expect(await say("my quiet hours")).toBe("You have no quiet hours set.");
    await remind("take out the laundry", { reminderRecurrence: { type: "nudge", interval: "15 minutes" } });
    expect(await passAt("2026-03-02T20:05:00Z")).toEqual([NUDGE("take out the laundry", "15 minutes")]);
    expect(await passAt("2026-03-02T20:20:00Z")).toEqual([NUDGE("take out the laundry", "15 minutes")]);
  });
});

describe("reminder buttons", () => {
  it("a one-time reminder carries 'Done ✅' and 'Snooze 10 min'; a snoozed one rings again", async () => {
    await start();
    const id = await remind("call the bank", { dueDate: "today at 10:00" });
    expect(await passAt("2026-03-02T08:00:00Z")).toEqual(["⏰ Reminder: call the bank"]);
    expect(buttonsOf(lastSent())).toEqual([
      { id: `rem:done:${id}`, title: "Done ✅" },
      { id: `rem:snooze:${id}`, title: "Snooze 10 min" },
    ]);
    h.at("2026-03-02T08:02:00Z");
    expect(await tap(buttonsOf(lastSent())[1]!)).toBe(
      "⏰ OK, I'll remind you again today at 10:12: call the bank",
    );
    expect(await passAt("2026-03-02T08:11:59Z")).toEqual([]);
    expect(await passAt("2026-03-02T08:12:00Z")).toEqual(["⏰ Reminder: call the bank"]);
    expect(buttonsOf(lastSent()).map((b) => b.title)).toEqual(["Done ✅", "Snooze 10 min"]);
    expect(await passAt("2026-03-02T09:00:00Z")).toEqual([]);
    h.at("2026-03-02T09:01:00Z");
    expect(await tap(buttonsOf(lastSent())[0]!)).toBe("✅ Done: call the bank");
    expect(await h.tasks.get(PHONE, id)).toBeNull();
  });

  it("a one-time reminder rings during quiet hours (only nudges wait)", async () => {
    await start({ iso: "2026-03-02T19:00:00Z" }); // 21:00 local
    await h.memo.users.update(PHONE, { quietStart: "22:00", quietEnd: "07:00" });
    await remind("move the car", { dueDate: "today at 23:00" });
    expect(await passAt("2026-03-02T21:00:00Z")).toEqual(["⏰ Reminder: move the car"]);
  });

  it("a recurring reminder carries no buttons", async () => {
    await start();
    await remind("stand-up", { reminderRecurrence: { type: "daily", time: "09:30" } });
    expect(await passAt("2026-03-02T07:30:00Z")).toEqual(["🔁 Reminder: stand-up"]);
    expect(lastSent().type).toBe("text");
    expect(buttonsOf(lastSent())).toEqual([]);
  });

  it("'Done ✅' on a reminder that is already gone says so", async () => {
    await start();
    await remind("pay the parking fine", { dueDate: "today at 09:30" });
    expect(await passAt("2026-03-02T07:30:00Z")).toEqual(["⏰ Reminder: pay the parking fine"]);
    const [done, snooze] = buttonsOf(lastSent());
    h.at("2026-03-02T07:31:00Z");
    expect(await tap(done!)).toBe("✅ Done: pay the parking fine");
    expect(await tap(done!)).toBe("That reminder isn't there anymore (it may already be done or deleted).");
    expect(await tap(snooze!)).toBe("That reminder isn't there anymore (it may already be done or deleted).");
    expect(await passAt("2026-03-02T08:00:00Z")).toEqual([]);
  });

  it("a button naming someone else's reminder, or no reminder at all, changes nothing", async () => {
    await start();
    const OTHER = "972501110099";
    await h.user(OTHER, { timeZone: TZ });
    const theirs = (await h.remind(OTHER, "their secret errand", { dueDate: "today at 10:00" }, TZ)).id;
    const sendAs = (id: string) =>
      send({
        from: PHONE,
        id: waId(),
        timestamp: String(Math.floor(h.clock.now() / 1000)),
        type: "interactive",
        interactive: { type: "button_reply", button_reply: { id, title: "Done ✅" } },
      });
    const gone = "That reminder isn't there anymore (it may already be done or deleted).";
    expect(await sendAs(`rem:done:${theirs}`)).toBe(gone);
    expect(await sendAs(`rem:snooze:${theirs}`)).toBe(gone);
    expect(await sendAs("rem:done:not-a-task")).toBe(gone);
    expect((await h.tasks.get(OTHER, theirs))?.nextFireAt).toBe("2026-03-02T08:00:00.000Z");
  });
});

describe("a ring claimed before the task was done", () => {
  it("is not sent once the task is gone (a deferred ring after a Done tap)", async () => {
    await start();
    const task = await h.remind(PHONE, "drink water", {
      reminderRecurrence: { type: "nudge", interval: "10 minutes" },
    });
    h.at(Date.parse(task.nextFireAt!));
    const { deliveries } = await h.reminders.claimRings("5b0e8c4e-0b7e-4a8e-9d7e-0c4b5a1f2e3d", 10);
    expect(deliveries).toHaveLength(1);
    await h.tasks.delete(PHONE, [task.id]);
    expect(await h.reminders.send(deliveries)).toEqual(["skipped"]);
    expect(h.sentTo(PHONE)).toEqual([]);
    expect(await h.ledger(PHONE)).toMatchObject([
      { status: "skipped", error: "the task was done or deleted" },
    ]);
  });
});

describe('"done" typed after a reminder', () => {
  /** Moves the clock to the task's next ring (plus `laterMs`) and runs a pass. */
  const ringOf = async (id: string, laterMs = 0) => {
    h.at(Date.parse((await h.tasks.get(PHONE, id))!.nextFireAt!) + laterMs);
    await h.pass();
  };

  it("completes the reminder that just rang, in either language, with no LLM", async () => {
    await start();
    const id = await remind("check the oven", {
      reminderRecurrence: { type: "nudge", interval: "10 minutes" },
    });
    await ringOf(id);
    expect(await say("done")).toBe("✅ Done: check the oven");
    expect(await h.tasks.get(PHONE, id)).toBeNull();
    h.at(h.clock.now() + 30 * 60_000);
    await h.pass();
    expect(h.sentTo(PHONE).filter((t) => t.startsWith("🔔"))).toHaveLength(1);

    const water = await remind("לשתות מים", { dueDate: "in 5 minutes" });
    await ringOf(water);
    expect(await say("סיימתי!")).toBe("✅ בוצע: לשתות מים");
  });

  it("as a reply to an older reminder, completes that one", async () => {
    await start();
    const bank = await remind("call the bank", { dueDate: "in 5 minutes" });
    const table = await remind("book the table", { dueDate: "in 10 minutes" });
    await ringOf(bank);
    const bankMessage = lastSent();
    await ringOf(table, 3 * 60 * 60_000);
    const reply = await send(textMessage(PHONE, "done", h.clock.now(), { replyTo: bankMessage.id }));
    expect(reply).toBe("✅ Done: call the bank");
    expect(await h.tasks.get(PHONE, table)).not.toBeNull();
  });

  it("with no reminder rung recently, is left to the conversation", async () => {
    await start();
    const rent = await remind("pay rent", { dueDate: "in 5 minutes" });
    await ringOf(rent);
    // Three hours later, "done" is not about that reminder any more.
    h.at(h.clock.now() + 3 * 60 * 60_000);
    const reply = await say("done");
    expect(reply).not.toContain("pay rent");
    expect(await h.tasks.get(PHONE, rent)).not.toBeNull();
  });
});

describe("undo after a reminder's buttons", () => {
  it("'undo' after 'Done ✅' brings the nudge back with its next ring, and it rings again", async () => {
    await start();
    const id = await remind("drink water", { reminderRecurrence: { type: "nudge", interval: "10 minutes" } });
    expect(await passAt("2026-03-02T07:10:00Z")).toEqual([NUDGE("drink water", "10 minutes")]);
    const before = await h.tasks.get(PHONE, id);
    h.at("2026-03-02T07:12:00Z");
    expect(await tap(buttonsOf(lastSent())[0]!)).toBe("✅ Done: drink water");
    expect(await h.tasks.get(PHONE, id)).toBeNull();
    expect(await say("undo")).toBe("↩️ Undone — back as it was: the task “drink water”.");
    expect(await h.tasks.get(PHONE, id)).toEqual(before);
    expect(await passAt("2026-03-02T07:20:00Z")).toEqual([NUDGE("drink water", "10 minutes")]);
  });

  it("'בטל' after a typed 'done' on a daily reminder puts it back as it was", async () => {
    await start({ language: "he" });
    const id = await remind("לקחת ויטמינים", { reminderRecurrence: { type: "daily", time: "09:05" } });
    await passAt("2026-03-02T07:05:00Z");
    const before = await h.tasks.get(PHONE, id);
    h.at("2026-03-02T07:06:00Z");
    expect(await say("בוצע")).toContain("לקחת ויטמינים");
    expect(await say("בטל")).toBe("↩️ בוטל — חזר למצב הקודם: המשימה „לקחת ויטמינים”.");
    expect(await h.tasks.get(PHONE, id)).toEqual(before);
  });

  it("'undo' after 'Snooze 10 min' puts the ring back where it was", async () => {
    await start();
    const id = await remind("finish the report", {
      reminderRecurrence: { type: "nudge", interval: "30 minutes" },
    });
    await passAt("2026-03-02T07:30:00Z");
    const before = await h.tasks.get(PHONE, id);
    h.at("2026-03-02T07:33:00Z");
    await tap(buttonsOf(lastSent())[1]!);
    expect((await h.tasks.get(PHONE, id))?.nextFireAt).toBe("2026-03-02T07:43:00.000Z");
    expect(await say("undo")).toBe("↩️ Undone — back as it was: the task “finish the report”.");
    expect(await h.tasks.get(PHONE, id)).toEqual(before);
  });

  it("'undo' after a settings change says it cannot, and undoes nothing older", async () => {
    await start();
    const id = await remind("call the bank", { dueDate: "in 5 minutes" });
    await passAt("2026-03-02T07:05:00Z");
    await tap(buttonsOf(lastSent())[0]!);
    expect(await say("quiet hours 22:00-07:00")).toContain("22:00–07:00");
    expect(await say("undo")).toBe(
      "I can't undo a settings change — just tell me the setting you want again (like “quiet hours 22:00-07:00” or “change my time zone to London”). Nothing else was changed.",
    );
    expect(await h.tasks.get(PHONE, id)).toBeNull();
  });
});
