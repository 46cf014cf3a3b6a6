import { phoneTag } from "../../src/utils/phone.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pgliteBackend, type TestDatabase } from "../support/db.js";
import type { SentMessage } from "../support/fakeGraphApi.js";
import { clearDatabase, createSchedulerHarness, type SchedulerHarness } from "../support/schedulerHarness.js";
import { webhookBody } from "../support/whatsappHarness.js";

/**
 * WhatsApp's 24-hour customer-service window (issue #7): free-form reminders inside it, the
 * configured template outside it, one template retry after a 131047 failure, and "undeliverable"
 * (recorded and said once, never retried) when no template is configured.
 */

const HOUR = 60 * 60 * 1000;
const PHONE = "972501234567";
const OTHER = "972507654321";
const START = "2026-03-02T07:00:00Z";
/** Two minutes after START: when "in 2 minutes" rings. */
const DUE = "2026-03-02T07:02:00Z";
const TEMPLATES = {
  WHATSAPP_REMINDER_TEMPLATE: "memo_reminder",
  WHATSAPP_DIGEST_TEMPLATE: "memo_digest",
  WHATSAPP_TEMPLATE_LANGUAGE_EN: "en_US",
};

/** One database for the file, emptied before each test. */
let db: TestDatabase;
let h: SchedulerHarness | undefined;
beforeAll(async () => {
  db = await pgliteBackend.create();
});
afterEach(async () => {
  await h?.close(false);
  h = undefined;
});
afterAll(async () => db?.close());

async function harness(env: Record<string, string> = TEMPLATES): Promise<SchedulerHarness> {
  await clearDatabase(db.pool);
  h = await createSchedulerHarness({ db, start: START, env, startWorker: false });
  return h;
}

/** The template of a sent message: its name, language code and one body parameter. */
function templateOf(message: SentMessage) {
  const { template } = message.body as {
    template: { name: string; language: { code: string }; components: { parameters: { text: string }[] }[] };
  };
  return {
    name: template.name,
    language: template.language.code,
    parameter: template.components[0]!.parameters[0]!.text,
  };
}

/** WhatsApp telling Memo that message `id` to `phone` failed with `code`. */
function failedStatus(h: SchedulerHarness, id: string, phone: string, code: number, title: string) {
  return webhookBody([
    {
      statuses: [
        {
          id,
          status: "failed",
          timestamp: String(Math.floor(h.clock.now() / 1000)),
          recipient_id: phone,
          errors: [{ code, title }],
        },
      ],
    },
  ]);
}

/** Warnings that a user cannot be reached (no template), per phone. */
const unreachableWarnings = (h: SchedulerHarness) =>
  h
    .logs()
    .filter((l) => l.event === "REMINDER_UNDELIVERABLE" && l.level === 40)
    .map((l) => l.phone);

describe("inside and outside the 24-hour window", () => {
  it("inside it: a free-form reminder with its Done and Snooze buttons", async () => {
    const h = await harness();
    // Wrote 23 h 50 min ago: 23 h 52 min when it rings, inside the window and its 5-minute margin.
    await h.user(PHONE, { inbound: Date.parse(START) - 23 * HOUR - 50 * 60_000 });
    await h.remind(PHONE, "call mom", { dueDate: "in 2 minutes" });
    h.at(DUE);
    await h.pass();

    const [message] = h.graphApi.sent;
    expect(message).toMatchObject({ type: "interactive", to: PHONE });
    expect(message!.body).toMatchObject({
      interactive: {
        body: { text: "⏰ Reminder: call mom" },
        action: { buttons: [{ reply: { title: "Done ✅" } }, { reply: { title: "Snooze 10 min" } }] },
      },
    });
    expect(await h.ledger(PHONE)).toMatchObject([{ status: "sent", via: "text", waMessageId: message!.id }]);
  });

  it("outside it: the reminder template, with the reminder as its parameter", async () => {
    const h = await harness();
    // 23 h 56 min when it rings: inside 24 hours, but not by the 5-minute margin a send needs.
    await h.user(PHONE, { inbound: Date.parse(START) - 23 * HOUR - 54 * 60_000 });
    await h.user(OTHER, { inbound: null });
    await h.remind(PHONE, "call mom", { dueDate: "in 2 minutes" });
    await h.remind(OTHER, "pay rent", { dueDate: "in 2 minutes" });
    h.at(DUE);
    await h.pass();

    const byPhone = new Map(h.graphApi.sent.map((m) => [m.to, m]));
    expect(byPhone.get(PHONE)).toMatchObject({ type: "template" });
    expect(templateOf(byPhone.get(PHONE)!)).toEqual({
      name: "memo_reminder",
      language: "en_US",
      parameter: "⏰ Reminder: call mom",
    });
    expect(templateOf(byPhone.get(OTHER)!)).toMatchObject({ parameter: "⏰ Reminder: pay rent" });
    expect(await h.ledger(PHONE)).toMatchObject([
      { status: "sent", via: "template", waMessageId: byPhone.get(PHONE)!.id },
    ]);
  });

  it("template parameters never hold line breaks (Meta refuses them): nudges, late reminders, digests", async () => {
    const h = await harness();
    // The window closes at 07:15, between the nudge's first two rings.
    await h.user(PHONE, { inbound: Date.parse(START) - 23 * HOUR - 40 * 60_000 });
    await h.remind(PHONE, "drink water", { reminderRecurrence: { type: "nudge", interval: "30 minutes" } });
    await h.remind(PHONE, "call mom", { dueDate: "in 2 minutes" });
    await h.addTask(PHONE, { text: "buy bread" });
    // The nudge (two lines) and the reminder, which comes late (a second line saying so).
    h.at("2026-03-02T07:30:00Z");
    await h.pass();
    // The next morning's digest: several blocks of several lines.
    h.at("2026-03-03T06:00:00Z");
    await h.pass();

    const templates = h.graphApi.sent.map((m) => ({ type: m.type, ...templateOf(m) }));
    // The nudge went once as a template, then waited for the user to write (see below).
    expect(templates.map((t) => t.name).sort()).toEqual(["memo_digest", "memo_reminder", "memo_reminder"]);
    for (const { parameter } of templates) {
      expect(parameter).not.toMatch(/[\n\t]| {5,}/);
      expect(parameter).toContain(" · ");
    }
    expect(templates.map((t) => t.parameter)).toEqual(
      expect.arrayContaining([
        "🔔 drink water · I'll remind you again every 30 minutes until it's done.",
        expect.stringMatching(/^⏰ Reminder: call mom · \(.*28 minutes late.*\)$/),
        expect.stringMatching(/^☀️ Good morning! Here's your day, Tuesday 03\/03: · /),
      ]),
    );
    expect((await h.ledger(PHONE)).map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
  });

  it("a digest too long for the parameter is cut as before, and the window keeps what went, not the uncut text", async () => {
    const h = await harness();
    await h.user(PHONE, { inbound: Date.parse(START) - 25 * HOUR });
    for (let i = 1; i <= 20; i++)
      await h.addTask(PHONE, {
        text: `task number ${i} of a long day at work`,
        dueAt: "2026-03-03T10:00:00Z",
      });
    // The first pass plans the next morning's digest.
    await h.pass();
    h.at("2026-03-03T06:00:00Z");
    await h.pass();
    const { parameter } = templateOf(h.graphApi.sent.at(-1)!);
    expect(parameter).toHaveLength(900);
    expect(parameter.endsWith("…")).toBe(true);
    expect(parameter).not.toContain("task number 20");
    await h.memo.memory.load(PHONE);
    const shown = h.memo.memory.getRecentMessages(PHONE).at(-1)!.content;
    expect(shown).not.toContain("task number 20");
    expect(
      shown
        .split("\n")
        .filter((l) => l.trim())
        .join(" · "),
    ).toBe(parameter);
  });

  it("outside the window a nudge goes once, as the template, then waits for the user to write", async () => {
    const h = await harness();
    // The window closes at 07:15: the 07:10 nudge goes free-form, 07:20 as the template.
    await h.user(PHONE, { inbound: Date.parse(START) - 23 * HOUR - 40 * 60_000 });
    const nudge = await h.remind(PHONE, "drink water", {
      reminderRecurrence: { type: "nudge", interval: "10 minutes" },
    });
    for (let at = Date.parse(START); at <= Date.parse(START) + 2 * HOUR; at += 5 * 60_000) {
      h.at(at);
      await h.pass();
    }
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["interactive", "template"]);
    expect((await h.tasks.get(PHONE, nudge.id))?.nextFireAt).not.toBeNull();

    // The user writes: the window opens and the nudges carry on, free-form.
    await h.memo.users.recordInbound(PHONE, new Date(h.clock.now()));
    h.at(Date.parse(START) + 2 * HOUR + 10 * 60_000);
    await h.pass();
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["interactive", "template", "interactive"]);
  });

  it("the template's language follows the user's language", async () => {
    const h = await harness();
    await h.user(PHONE, { inbound: null, language: "he" });
    await h.user(OTHER, { inbound: null, language: "en" });
    await h.remind(PHONE, "להתקשר לאמא", { dueDate: "in 2 minutes" });
    await h.remind(OTHER, "call mom", { dueDate: "in 2 minutes" });
    h.at(DUE);
    await h.pass();

    const byPhone = new Map(h.graphApi.sent.map((m) => [m.to, templateOf(m)]));
    expect(byPhone.get(PHONE)).toEqual({
      name: "memo_reminder",
      language: "he",
      parameter: "⏰ תזכורת: להתקשר לאמא",
    });
    expect(byPhone.get(OTHER)).toEqual({
      name: "memo_reminder",
      language: "en_US",
      parameter: "⏰ Reminder: call mom",
    });
  });
});

describe("the window closing under a free-form reminder (131047)", () => {
  it("a failed status with 131047 is answered by the template, once", async () => {
    const h = await harness();
    await h.user(PHONE);
    await h.remind(PHONE, "call mom", { dueDate: "in 2 minutes" });
    h.at(DUE);
    await h.pass();
    const [text] = h.graphApi.sent;
    expect(text!.type).toBe("interactive");

    const status = failedStatus(h, text!.id, PHONE, 131047, "Re-engagement message");
    expect((await h.post(status)).status).toBe(200);
    // Queued, not sent from inside the webhook: the next pass sends it, paced like the rest.
    expect(h.graphApi.sent).toHaveLength(1);
    h.at(Date.parse(DUE) + 60_000);
    await h.pass();
    expect(h.graphApi.sent).toHaveLength(2);
    const template = h.graphApi.sent[1]!;
    expect(templateOf(template)).toEqual({
      name: "memo_reminder",
      language: "en_US",
      parameter: "⏰ Reminder: call mom",
    });
    expect(await h.ledger(PHONE)).toMatchObject([
      { status: "sent", via: "template", waMessageId: template.id, templateRetried: true },
    ]);

    // The same status again (WhatsApp redelivers webhooks), and later passes: nothing more.
    expect((await h.post(status)).status).toBe(200);
    h.at(Date.parse(DUE) + HOUR);
    await h.pass();
    expect(h.graphApi.sent).toHaveLength(2);
  });

  it("the Graph API refusing the free-form send with 131047: the template goes at once", async () => {
    const h = await harness();
    await h.user(PHONE);
    await h.remind(PHONE, "call mom", { dueDate: "in 2 minutes" });
    h.at(DUE);
    h.graphApi.failNext(1, { status: 400, code: 131047, message: "Re-engagement message" });
    expect(await h.pass()).toMatchObject({ sent: 0, failed: 0 });
    // The next pass (a minute later at most) sends the template.
    h.at(Date.parse(DUE) + 60_000);
    expect(await h.pass()).toMatchObject({ sent: 1, failed: 0, reclaimed: 1 });
    expect(h.graphApi.sent.map((m) => m.type)).toEqual(["template"]);
    expect(await h.ledger(PHONE)).toMatchObject([
      { status: "sent", via: "template", attempts: 1, templateRetried: true },
    ]);
  });

  it("131047 with no template configured: recorded as undeliverable, said once", async () => {
    const h = await harness({});
    await h.user(PHONE);
    await h.remind(PHONE, "call mom", { dueDate: "in 2 minutes" });
    h.at(DUE);
    await h.pass();
    const [text] = h.graphApi.sent;
    await h.post(failedStatus(h, text!.id, PHONE, 131047, "Re-engagement message"));
    await h.post(failedStatus(h, text!.id, PHONE, 131047, "Re-engagement message"));
    h.at(Date.parse(DUE) + 60_000);
    await h.pass();
    await h.pass();

    expect(h.graphApi.sent).toHaveLength(1);
    expect(await h.ledger(PHONE)).toMatchObject([
      { status: "undeliverable", error: expect.stringContaining("no template") as string },
    ]);
    expect(unreachableWarnings(h)).toEqual([phoneTag(PHONE)]);
  });

  it("another failure code is recorded as failed, without a template retry", async () => {
    const h = await harness();
    await h.user(PHONE);
    await h.remind(PHONE, "call mom", { dueDate: "in 2 minutes" });
    h.at(DUE);
    await h.pass();
    const [text] = h.graphApi.sent;
    await h.post(failedStatus(h, text!.id, PHONE, 131026, "Message undeliverable"));

    expect(h.graphApi.sent).toHaveLength(1);
    expect(await h.ledger(PHONE)).toMatchObject([
      { status: "failed", error: "code 131026: Message undeliverable" },
    ]);
  });
});

describe("nudges that start outside the window", () => {
  it("ring once as the template, even when the user last wrote days before, then wait", async () => {
    const h = await harness();
    // Written on Saturday; the nudge starts on Monday 09:10 local, long after the window closed.
    await h.user(PHONE, { inbound: Date.parse(START) - 2 * 24 * HOUR });
    await h.addTask(PHONE, {
      text: "call the bank",
      recurrence: { type: "nudge", intervalMinutes: 30 },
      nextFireAt: "2026-03-02T07:10:00.000Z",
    });
    for (let at = Date.parse(START); at <= Date.parse(START) + 3 * HOUR; at += 10 * 60_000) {
      h.at(at);
      await h.pass();
    }
    expect(h.graphApi.sent.map((m) => templateOf(m).parameter)).toEqual([
      "🔔 call the bank · I'll remind you again every 30 minutes until it's done.",
    ]);
  });

  it("a 131047 for a message that cannot be queued again (a template) is still recorded as failed", async () => {
    const h = await harness();
    await h.user(PHONE, { inbound: null });
    await h.remind(PHONE, "call mom", { dueDate: "in 2 minutes" });
    h.at(DUE);
    await h.pass();
    const [template] = h.graphApi.sent;
    await h.post(failedStatus(h, template!.id, PHONE, 131047, "Re-engagement message"));
    expect(await h.ledger(PHONE)).toMatchObject([
      { status: "failed", via: "template", error: "code 131047: Re-engagement message" },
    ]);
  });
});

describe("outside the window with no template", () => {
  it("each occurrence is recorded as undeliverable, nothing is sent, and it is never retried", async () => {
    const h = await harness({});
    await h.user(PHONE, { inbound: null });
    await h.remind(PHONE, "stretch", { reminderRecurrence: { type: "daily", time: "09:30" } });
    // Two days of passes, every 20 minutes.
    for (let at = Date.parse(START); at <= Date.parse("2026-03-04T07:00:00Z"); at += 20 * 60_000) {
      h.at(at);
      await h.pass();
    }

    expect(h.graphApi.requests.filter((r) => r.path.endsWith("/messages"))).toEqual([]);
    const rings = (await h.ledger(PHONE)).filter((r) => r.kind === "recurring");
    expect(rings).toMatchObject([
      { status: "undeliverable", attempts: 1, occurrenceAt: Date.parse("2026-03-02T07:30:00Z") },
      { status: "undeliverable", attempts: 1, occurrenceAt: Date.parse("2026-03-03T07:30:00Z") },
    ]);
  });

  it("the log warns once per user, however many reminders are undeliverable", async () => {
    const h = await harness({});
    await h.user(PHONE, { inbound: null });
    await h.user(OTHER, { inbound: null });
    await h.remind(PHONE, "stretch", { dueDate: "in 2 minutes" });
    await h.remind(PHONE, "drink water", { dueDate: "in 5 minutes" });
    await h.remind(OTHER, "pay rent", { dueDate: "in 5 minutes" });
    h.at(DUE);
    expect(await h.pass()).toMatchObject({ undeliverable: 1 });
    h.at("2026-03-02T07:05:00Z");
    expect(await h.pass()).toMatchObject({ undeliverable: 2 });

    // Logs carry the phone's tag, never the number.
    expect(unreachableWarnings(h).sort()).toEqual([phoneTag(PHONE), phoneTag(OTHER)].sort());
    // The later ones are still in the log, below warn.
    expect(h.logs().filter((l) => l.event === "REMINDER_UNDELIVERABLE")).toHaveLength(3);
    expect(h.graphApi.sent).toEqual([]);
  });
});
