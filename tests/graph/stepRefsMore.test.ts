// More plans whose steps hand their results to each other (issue 33, D13, spec 003 refs), one per
// capability beyond lists: events, notes, emails, and numbered handles on tasks. In every test an
// item of the same kind from the previous message exists and must stay untouched.
// "Now" is Thursday 5 March 2026, 12:00 in Asia/Jerusalem (UTC+2).
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import {
  calendarHarness,
  isFindResolver,
  isMutateResolver,
  jlm,
  scriptTurn,
  seed,
  storedEvents,
  type CalendarHarness,
} from "../calendar/capability/calendarScript.js";
import { isTaskResolver, stores } from "../support/databaseScript.js";
import { gmailHarness, scriptGmailTurn } from "../gmail/support.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** One message whose plan is `steps`; the resolvers answer `ops` in the order the steps run. */
function scriptPlan(harness: Harness, steps: ReturnType<typeof step>[], ...ops: object[]): void {
  harness.server!.enqueue(plan({ steps }), ...ops.map((json) => ({ json })));
}

const findThenMove = [
  step("s1", "calendar", "find_event"),
  step("s2", "calendar", "update_event", { dependsOn: ["s1"] }),
];

describe("events: find one, then change it", () => {
  /**
   * The previous message made `lunch` tomorrow at 13:00 (so it is latest action 1); `dentist` is
   * already in the calendar tomorrow at 09:00.
   */
  async function lunchThenDentist(lunch: string, dentist: string, words: string): Promise<CalendarHarness> {
    const harness = await calendarHarness();
    h = harness;
    await seed(harness, "dentist", { summary: dentist, start: jlm(6, "09:00"), end: jlm(6, "10:00") });
    scriptTurn(harness, "create_event", { operation: "create", summary: lunch, start: "2026-03-06T13:00" });
    await harness.say(words);
    return harness;
  }

  const startsOf = async (harness: Harness) =>
    Object.fromEntries((await storedEvents(harness)).map((e) => [e.summary, [e.start, e.end]]));

  for (const [how, reference] of [
    ['eventId "@1"', { eventId: "@1" }],
    ["fromStep", { fromStep: "s1" }],
  ] as const) {
    it(`moves the dentist appointment found by the first step (${how}), not the lunch made before`, async () => {
      const harness = await lunchThenDentist(
        "Lunch with Avi",
        "Dentist",
        "add lunch with Avi tomorrow at 13:00",
      );
      scriptPlan(
        harness,
        findThenMove,
        { operation: "get", summary: "dentist" },
        { operation: "update", updateFields: { start: "17:00" }, ...reference },
      );
      const reply = await harness.say("find my dentist appointment and move it to 17:00");
      expect(reply.text).toContain("✏️ Updated *Dentist* — tomorrow 17:00–18:00");
      expect(await startsOf(harness)).toEqual({
        Dentist: [jlm(6, "17:00"), jlm(6, "18:00")],
        "Lunch with Avi": [jlm(6, "13:00"), jlm(6, "14:00")],
      });
      expect(harness.server!.requests.filter(isFindResolver)).toHaveLength(1);
      expect(harness.server!.requests.filter(isMutateResolver)).toHaveLength(2);
    });
  }

  it("a listing step (getEvents) hands on what it listed: one event is moved; none skips the move and says so", async () => {
    const harness = await lunchThenDentist(
      "Lunch with Avi",
      "Dentist",
      "add lunch with Avi tomorrow at 13:00",
    );
    const listed = (summary: string) => ({
      operation: "getEvents",
      summary,
      timeMin: "2026-03-06",
      timeMax: "2026-03-06",
    });
    scriptPlan(harness, findThenMove, listed("dentist"), {
      operation: "update",
      eventId: "@1",
      updateFields: { start: "17:00" },
    });
    expect((await harness.say("what's my dentist appointment tomorrow? move it to 17:00")).text).toContain(
      "✏️ Updated *Dentist* — tomorrow 17:00–18:00",
    );
    scriptPlan(harness, findThenMove, listed("haircut"));
    const none = await harness.say("what's my haircut tomorrow? move it to 18:00");
    expect(none.text).toContain("So I didn't change the event: I couldn't find the event “haircut”.");
    expect(await startsOf(harness)).toEqual({
      Dentist: [jlm(6, "17:00"), jlm(6, "18:00")],
      "Lunch with Avi": [jlm(6, "13:00"), jlm(6, "14:00")],
    });
    // The move after the empty listing was never resolved.
    expect(harness.server!.requests.filter(isMutateResolver)).toHaveLength(2);
  });

  it("in Hebrew: תמצא את התור לרופא שיניים ותזיז אותו ל-17:00", async () => {
    const harness = await lunchThenDentist(
      "ארוחת צהריים עם אבי",
      "רופא שיניים",
      "תוסיף ארוחת צהריים עם אבי מחר ב-13:00",
    );
    scriptPlan(
      harness,
      findThenMove,
      { operation: "get", summary: "רופא שיניים" },
      { operation: "update", eventId: "@1", updateFields: { start: "17:00" } },
    );
    const reply = await harness.say("תמצא את התור לרופא שיניים ותזיז אותו ל-17:00");
    expect(reply.text).toContain("✏️ עדכנתי את *רופא שיניים*");
    expect(await startsOf(harness)).toEqual({
      "רופא שיניים": [jlm(6, "17:00"), jlm(6, "18:00")],
      "ארוחת צהריים עם אבי": [jlm(6, "13:00"), jlm(6, "14:00")],
    });
  });

  for (const [language, words, find, skipped] of [
    [
      "English",
      "find my dentist appointment and move it to 17:00",
      "dentist",
      "So I didn't change the event: I couldn't find the event “dentist”.",
    ],
    [
      "Hebrew",
      "תמצא את התור לרופא שיניים ותזיז אותו ל-17:00",
      "רופא שיניים",
      "לכן לא המשכתי לשנות את האירוע: לא הצלחתי למצוא את האירוע “רופא שיניים”.",
    ],
  ] as const) {
    it(`finds no such event (${language}): the move does not run, and the reply says so`, async () => {
      const harness = await calendarHarness();
      h = harness;
      scriptTurn(harness, "create_event", {
        operation: "create",
        summary: "Lunch with Avi",
        start: "2026-03-06T13:00",
      });
      await harness.say("add lunch with Avi tomorrow at 13:00");
      scriptPlan(harness, findThenMove, { operation: "get", summary: find });
      const reply = await harness.say(words);
      expect(reply.text).toContain(skipped);
      expect(await startsOf(harness)).toEqual({ "Lunch with Avi": [jlm(6, "13:00"), jlm(6, "14:00")] });
      // The move's resolver was never asked.
      expect(harness.server!.requests.filter(isMutateResolver)).toHaveLength(1);
    });
  }
});

describe("notes: store one, then change it", () => {
  async function notesOf(harness: Harness): Promise<string[]> {
    const { rows } = await harness.db.pool.query<{ content: string }>(
      "SELECT content FROM notes WHERE user_phone = $1 ORDER BY seq",
      [PHONE],
    );
    return rows.map((r) => r.content);
  }

  const storeThenUpdate = [
    step("s1", "second-brain", "store_note"),
    step("s2", "second-brain", "update_note", { dependsOn: ["s1"] }),
  ];

  for (const [how, reference] of [
    ['noteRef "@1"', { noteRef: "@1" }],
    ["fromStep", { fromStep: "s1" }],
    ['"it" as the query', { query: "it" }],
    ["no name at all", {}],
  ] as const) {
    it(`updates the note the first step stored (${how}), not the previous message's`, async () => {
      h = await createHarness();
      await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
      scriptPlan(h, [step("s1", "second-brain", "store_note")], {
        operation: "store",
        content: "the wifi password is HappyCat42",
      });
      await h.say("keep a note that the wifi password is HappyCat42");
      scriptPlan(
        h,
        storeThenUpdate,
        { operation: "store", content: "the gate code is 4321" },
        {
          operation: "update",
          newContent: "the gate code is 4321, the gate opens to the left",
          ...reference,
        },
      );
      const reply = await h.say(
        "keep a note that the gate code is 4321, and add to it that the gate opens to the left",
      );
      expect(reply.text).toContain("✏️ Note updated: “the gate code is 4321, the gate opens to the left”");
      expect(await notesOf(h)).toEqual([
        "the wifi password is HappyCat42",
        "the gate code is 4321, the gate opens to the left",
      ]);
    });
  }
});

describe("emails: find one, then forward it", () => {
  let g: Awaited<ReturnType<typeof gmailHarness>> | undefined;
  afterEach(async () => {
    await g?.close();
    g = undefined;
  });

  for (const [how, reference] of [
    ['handle "@1"', { email: { handle: "@1" } }],
    ["fromStep", { fromStep: "s1" }],
  ] as const) {
    it(`forwards the email the search found (${how}), not the one the previous message read`, async () => {
      g = await gmailHarness();
      const { h: harness, gmail } = g;
      const news = gmail.add({ from: "News <news@example.com>", subject: "Weekly", text: "This week…" });
      gmail.add({ from: "Dana Levi <dana@example.com>", subject: "Invoice March", text: "Amount: 100" });
      scriptGmailTurn(harness, "read_email", { operation: "read", email: { from: "News" } });
      expect((await harness.say("read the newsletter")).text).toContain("📧 *Weekly*");
      const newsLabels = [...gmail.messages.get(news.id)!.labelIds];
      scriptPlan(
        harness,
        [step("s1", "gmail", "search_email"), step("s2", "gmail", "forward_email", { dependsOn: ["s1"] })],
        { operation: "search", query: "from:dana invoice" },
        { operation: "forward", to: ["acc@example.com"], ...reference },
      );
      const asked = await harness.say("find Dana's invoice email and forward it to acc@example.com");
      expect(asked.text).toContain(
        "➡️ Forward this email?\nTo: acc@example.com\nSubject: Fwd: Invoice March",
      );
      await harness.say("approve");
      expect(gmail.sent).toEqual([
        expect.objectContaining({ to: "acc@example.com", subject: "Fwd: Invoice March" }),
      ]);
      expect(gmail.sent[0]!.body).toContain("Amount: 100");
      expect(gmail.messages.get(news.id)!.labelIds).toEqual(newsLabels);
    });
  }
});

describe("tasks: a numbered handle in a dependent step is still the user's own reference", () => {
  it('add a task, then "done 2": item 2 of the last listing is completed, not the task just added', async () => {
    h = await createHarness();
    await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
    const repo = stores(h).taskRepo;
    await repo.create(PHONE, "seed#1", {
      text: "Pay electricity bill",
      timeZone: "Asia/Jerusalem",
      dueAt: "2026-03-04T08:00:00.000Z",
    });
    await repo.create(PHONE, "seed#2", { text: "Buy a birthday gift", timeZone: "Asia/Jerusalem" });
    scriptPlan(h, [step("s1", "database", "list_tasks")], { operation: "getAll" });
    const listing = await h.say("what's on my list?");
    expect(listing.text).toContain("1. Pay electricity bill");
    expect(listing.text).toContain("2. Buy a birthday gift");
    scriptPlan(
      h,
      [step("s1", "database", "create_task"), step("s2", "database", "complete_task", { dependsOn: ["s1"] })],
      { operation: "create", text: "Call Dana" },
      { operation: "complete", taskId: "#2" },
    );
    await h.say("add call Dana, and the task you listed as 2 is done");
    const done = Object.fromEntries((await stores(h).tasks()).map((t) => [t.text, t.completed]));
    expect(done).toEqual({
      "Pay electricity bill": false,
      "Buy a birthday gift": true,
      "Call Dana": false,
    });
    expect(h.server!.requests.filter(isTaskResolver)).toHaveLength(3);
  });
});
