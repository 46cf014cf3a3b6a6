import { describe, expect, it } from "vitest";
import type { TaskTimeArgs } from "../../src/services/tasks/taskTimes.js";
import {
  createSchedulerHarness,
  sharedDatabase,
  type SchedulerHarness,
} from "../support/schedulerHarness.js";

/**
 * What the user sees after Memo was down: late reminders say they are late and by how much, each
 * once and paced; a repeating one sends only its latest missed occurrence; whatever is more than
 * a day late comes as one "while I was away" message, never one per reminder.
 */

const PHONE = "972501110002";
const TZ = "Asia/Jerusalem";
let h: SchedulerHarness;
const shared = sharedDatabase(() => h);

/** Monday 2 March 2026, 09:00 in Jerusalem (+02:00). */
async function start(iso = "2026-03-02T07:00:00Z"): Promise<void> {
  h = await createSchedulerHarness({ db: shared.db, start: iso });
  await h.user(PHONE, { timeZone: TZ });
  await h.memo.users.update(PHONE, { digestEnabled: false });
}

const remind = async (text: string, words: TaskTimeArgs) => (await h.remind(PHONE, text, words, TZ)).id;

/** Memo comes back at `iso`; the user has written meanwhile (the 24-hour window is open). */
async function backAt(iso: string) {
  h.at(iso);
  await h.memo.users.recordInbound(PHONE, new Date(h.clock.now()));
  return h.pass();
}

describe("a short outage", () => {
  it("three reminders due while down 10 minutes: three late messages, each once, 6 s apart", async () => {
    await start();
    await remind("call the plumber", { dueDate: "today at 09:05" });
    await remind("send the invoice", { dueDate: "today at 09:06" });
    await remind("book the table", { dueDate: "today at 09:07" });
    await h.pass();
    expect(h.sentTo(PHONE)).toEqual([]);

    // Down from 09:04 to 09:15 local.
    const report = await backAt("2026-03-02T07:15:00Z");
    expect(report.sent).toBe(3);
    await backAt("2026-03-02T07:16:00Z");
    await backAt("2026-03-02T07:30:00Z");
    expect(h.sentTo(PHONE)).toEqual([
      "⏰ Reminder: call the plumber\n(Sorry, this comes 10 minutes late: it was due today at 09:05.)",
      "⏰ Reminder: send the invoice\n(Sorry, this comes 9 minutes late: it was due today at 09:06.)",
      "⏰ Reminder: book the table\n(Sorry, this comes 8 minutes late: it was due today at 09:07.)",
    ]);
    const rows = await h.ledger(PHONE);
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
    const sentAt = rows.map((r) => r.sentAt!);
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(6_000);
    expect(sentAt[2]! - sentAt[1]!).toBeGreaterThanOrEqual(6_000);
    // Three sends reached WhatsApp, no retries or duplicates.
    expect(h.graphApi.sent.map((m) => m.to)).toEqual([PHONE, PHONE, PHONE]);
  });

  it("a reminder one minute late says nothing about being late", async () => {
    await start();
    await remind("stretch", { dueDate: "today at 09:05" });
    await backAt("2026-03-02T07:06:00Z");
    expect(h.sentTo(PHONE)).toEqual(["⏰ Reminder: stretch"]);
  });
});

describe("down for days", () => {
  it("a daily reminder missed for two days sends one catch-up, then keeps its time", async () => {
    await start("2026-03-02T06:00:00Z"); // Monday 08:00 local
    const id = await remind("vitamins", { reminderRecurrence: { type: "daily", time: "09:00" } });
    await backAt("2026-03-02T07:00:00Z");
    expect(h.sentTo(PHONE)).toEqual(["🔁 Reminder: vitamins"]);

    // Down from Monday 09:01 until Wednesday 10:00: Tuesday's and Wednesday's 09:00 were missed.
    await backAt("2026-03-04T08:00:00Z");
    await backAt("2026-03-04T08:05:00Z");
    expect(h.sentTo(PHONE)).toEqual([
      "🔁 Reminder: vitamins",
      "🔁 Reminder: vitamins\n(Sorry, this comes 1 hour late: it was due today at 09:00.)",
    ]);
    const rows = await h.ledger(PHONE);
    expect(rows.map((r) => new Date(r.occurrenceAt).toISOString())).toEqual([
      "2026-03-02T07:00:00.000Z",
      "2026-03-04T07:00:00.000Z",
    ]);
    // Next: Thursday 09:00 local, on time.
    expect((await h.tasks.get(PHONE, id))?.nextFireAt).toBe("2026-03-05T07:00:00.000Z");
    await backAt("2026-03-05T06:59:00Z");
    expect(h.sentTo(PHONE)).toHaveLength(2);
    await backAt("2026-03-05T07:00:00Z");
    expect(h.sentTo(PHONE).at(-1)).toBe("🔁 Reminder: vitamins");
  });

  it("one-time reminders more than a day late come as one 'while I was away' message", async () => {
    await start();
    await remind("renew the passport", { dueDate: "today at 10:00" });
    await remind("call grandma", { dueDate: "today at 11:00" });
    await remind("order the cake", { dueDate: "today at 12:30" });
    await h.pass();

    // Down from Monday 09:00 until Wednesday 13:00.
    const report = await backAt("2026-03-04T11:00:00Z");
    expect(report.sent).toBe(1);
    await backAt("2026-03-04T11:05:00Z");
    expect(h.sentTo(PHONE)).toEqual([
      [
        "While I was away, these came due:",
        "• renew the passport (Mon 02/03 at 10:00)",
        "• call grandma (Mon 02/03 at 11:00)",
        "• order the cake (Mon 02/03 at 12:30)",
        "Tell me what's done, or what to move.",
      ].join("\n"),
    ]);
    const rows = await h.ledger(PHONE);
    const away = rows.find((r) => r.kind === "away")!;
    expect(away.status).toBe("sent");
    const covered = rows.filter((r) => r.kind !== "away");
    expect(covered.map((r) => r.status)).toEqual(["covered", "covered", "covered"]);
  });

  it("an early ring missed by days is listed at its due time, and a repeating early ring says what it is ahead of", async () => {
    await start();
    await remind("dentist", { dueDate: "today at 15:00", reminder: "1 hour" });
    await remind("standup", { reminderRecurrence: { type: "daily", time: "10:00" }, reminder: "15 minutes" });
    await h.pass();
    // The daily early ring, on time: it names the occurrence it is ahead of.
    await backAt("2026-03-02T07:45:00Z");
    expect(h.sentTo(PHONE)).toEqual(["🔁 Reminder: standup (today at 10:00)"]);

    // Down from Monday 10:00 until Wednesday 18:00: the dentist is listed at 15:00, not 14:00.
    await backAt("2026-03-04T16:00:00Z");
    expect(h.sentTo(PHONE)[1]).toContain("• dentist (Mon 02/03 at 15:00)");
  });

  it("a mix: the long-missed ones gathered, the recently missed ones each once and late", async () => {
    await start("2026-03-02T07:30:00Z"); // Monday 09:30 local
    const daily = await remind("vitamins", { reminderRecurrence: { type: "daily", time: "09:00" } });
    await remind("weekly report", { reminderRecurrence: { type: "weekly", time: "12:00", days: [1] } });
    await remind("renew the passport", { dueDate: "today at 10:00" });
    await remind("water the plants", { dueDate: "Wednesday at 08:30" });
    await h.pass();

    // Down from Monday 09:30 until Wednesday 11:00 local.
    await backAt("2026-03-04T09:00:00Z");
    await backAt("2026-03-04T09:10:00Z");
    expect(h.sentTo(PHONE)).toEqual([
      [
        "While I was away, these came due:",
        "• renew the passport (Mon 02/03 at 10:00)",
        "• weekly report (Mon 02/03 at 12:00)",
        "Tell me what's done, or what to move.",
      ].join("\n"),
      "⏰ Reminder: water the plants\n(Sorry, this comes 2 hours 30 minutes late: it was due today at 08:30.)",
      "🔁 Reminder: vitamins\n(Sorry, this comes 2 hours late: it was due today at 09:00.)",
    ]);
    const sent = (await h.ledger(PHONE)).filter((r) => r.status === "sent").map((r) => r.sentAt!);
    expect(sent).toHaveLength(3);
    // Never sent back to back: each at least the per-user gap after the one before.
    const sorted = [...sent].sort((a, b) => a - b);
    expect(sorted.slice(1).every((t, i) => t - sorted[i]! >= 6_000)).toBe(true);
    expect((await h.tasks.get(PHONE, daily))?.nextFireAt).toBe("2026-03-05T07:00:00.000Z");
  });
});

describe("'X before' a one-time reminder", () => {
  it("rings early, then an overdue notice at the due time", async () => {
    await start();
    await remind("dentist", { dueDate: "today at 15:00", reminder: "30 minutes" });
    await backAt("2026-03-02T12:29:00Z");
    expect(h.sentTo(PHONE)).toEqual([]);
    await backAt("2026-03-02T12:30:00Z");
    expect(h.sentTo(PHONE)).toEqual(["⏰ Reminder: dentist (today at 15:00)"]);
    await backAt("2026-03-02T12:59:00Z");
    expect(h.sentTo(PHONE)).toHaveLength(1);
    await backAt("2026-03-02T13:00:00Z");
    await backAt("2026-03-02T13:30:00Z");
    expect(h.sentTo(PHONE)).toEqual([
      "⏰ Reminder: dentist (today at 15:00)",
      "⚠️ Still open: dentist (it was due today at 15:00).",
    ]);
    expect((await h.ledger(PHONE)).map((r) => r.kind)).toEqual(["reminder", "overdue"]);
  });

  it("sends one message when both the early ring and the due time were missed", async () => {
    await start();
    await remind("dentist", { dueDate: "today at 15:00", reminder: "30 minutes" });
    await h.pass();
    // Down from 09:00 until 15:20 local.
    await backAt("2026-03-02T13:20:00Z");
    await backAt("2026-03-02T13:40:00Z");
    await backAt("2026-03-02T16:00:00Z");
    expect(h.sentTo(PHONE)).toEqual([
      "⏰ Reminder: dentist\n(Sorry, this comes 20 minutes late: it was due today at 15:00.)",
    ]);
    expect(await h.ledger(PHONE)).toHaveLength(1);
  });

  it("sends the early ring late, then still the overdue notice, when only the early ring was missed", async () => {
    await start();
    await remind("dentist", { dueDate: "today at 15:00", reminder: "1 hour" });
    await h.pass();
    // Down from 09:00 until 14:20 local: the 14:00 ring is late, 15:00 is still ahead.
    await backAt("2026-03-02T12:20:00Z");
    expect(h.sentTo(PHONE)).toEqual([
      "⏰ Reminder: dentist (today at 15:00)\n(Sorry, this comes 20 minutes late: it was due today at 14:00.)",
    ]);
    await backAt("2026-03-02T13:00:00Z");
    expect(h.sentTo(PHONE).at(-1)).toBe("⚠️ Still open: dentist (it was due today at 15:00).");
  });
});
