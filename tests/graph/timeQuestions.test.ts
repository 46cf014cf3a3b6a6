// Times that are never silently wrong (D10), as a user sees them through the graph with no LLM:
// the Hebrew quarter-to reminder rings at 07:45; "tomorrow at 5" asks morning or afternoon with two
// buttons and stores the answer; words not understood, a past time and an absurd one are asked
// about, never stored as a guess.
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, plan, step, type Harness } from "../support/memoHarness.js";
import { isTaskResolver, scriptTurn, stores } from "../support/databaseScript.js";
import { lastUserMessageOf } from "../support/scriptedOpenAI.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Thursday 5 March 2026, 12:00 in Jerusalem (the harness clock). */
const harness = () => createHarness({ llm: "none", env: { FAST_PATH: "on" } });
const openTasks = async (hh: Harness) =>
  (await stores(hh).tasks({ completed: false })).map((t) => [t.text, t.nextFireAt]);

describe("time questions through the graph, without an LLM", () => {
  it("reads the Hebrew quarter-to and rings at 07:45, with the time words out of the title", async () => {
    h = await harness();
    const reply = await h.say("תזכיר לי מחר ברבע לשמונה לצאת מהבית");
    expect(reply.status).toBe("completed");
    expect(reply.text).toContain("07:45");
    expect(reply.text).toContain("לצאת מהבית");
    expect(reply.text).not.toContain("רבע");
    // 07:45 on Friday 6 March in Jerusalem is 05:45 UTC.
    expect(await openTasks(h)).toEqual([["לצאת מהבית", "2026-03-06T05:45:00.000Z"]]);
  });

  it("asks morning or afternoon for 'tomorrow at 5' with two buttons, and stores the one tapped", async () => {
    h = await harness();
    const question = await h.say("remind me tomorrow at 5 to call the bank");
    expect(question.status).toBe("waiting");
    expect(question.question).toBe('"tomorrow at 5": in the morning or in the afternoon?');
    expect(question.options.map((o) => o.label)).toEqual(["05:00 morning", "17:00 afternoon"]);
    expect(await openTasks(h)).toEqual([]);
    const answer = await h.say("17:00 afternoon", { optionId: question.options[1]!.id });
    expect(answer.status).toBe("completed");
    expect(answer.text).toBe("⏰ I'll remind you tomorrow at 17:00: *call the bank*");
    expect(await openTasks(h)).toEqual([["call the bank", "2026-03-06T15:00:00.000Z"]]);
  });

  it("takes a typed answer to the Hebrew question ('בבוקר'), and a clock time typed instead", async () => {
    h = await harness();
    const question = await h.say("תזכיר לי מחר בחמש להתקשר לבנק");
    expect(question.status).toBe("waiting");
    expect(question.options.map((o) => o.label)).toEqual(["05:00 בבוקר", "17:00 אחה״צ"]);
    expect((await h.say("בבוקר")).status).toBe("completed");
    const second = await h.say("remind me on Friday at 3 to water the plants");
    expect(second.status).toBe("waiting");
    expect((await h.say("3pm")).status).toBe("completed");
    expect(await openTasks(h)).toEqual([
      ["להתקשר לבנק", "2026-03-06T03:00:00.000Z"],
      ["water the plants", "2026-03-06T13:00:00.000Z"],
    ]);
  });

  it("leaves the morning/afternoon question for a calendar question asked instead, never reading its date", async () => {
    h = await harness();
    const question = await h.say("remind me tomorrow at 5 to call Dana");
    expect(question.status).toBe("waiting");
    const when = await h.say("when is Rosh Hashana?");
    expect(when.status).toBe("completed");
    expect(when.text).toContain("Rosh Hashana");
    expect(when.text).toContain("I left my earlier question unanswered");
    expect(when.text).not.toContain("remind you");
    expect(await openTasks(h)).toEqual([]);
    // The Hebrew date asked instead of the answer: answered, never "'today' has passed".
    expect((await h.say("remind me tomorrow at 5 to call Dana")).status).toBe("waiting");
    const today = await h.say("what's the Hebrew date today?");
    expect(today.text).toContain("Adar");
    expect(today.text).not.toContain("passed");
    // Any other question is left for its own turn too; "5pm?" still answers.
    expect((await h.say("remind me tomorrow at 5 to call Dana")).status).toBe("waiting");
    expect((await h.say("5pm?")).text).toBe("⏰ I'll remind you tomorrow at 17:00: *call Dana*");
    expect(await openTasks(h)).toEqual([["call Dana", "2026-03-06T15:00:00.000Z"]]);
  });

  it("asks about words it did not understand, and completes the time from the answer", async () => {
    h = await harness();
    const question = await h.say("remind me tomorrow at the usual time to take the pills");
    expect(question.status).toBe("waiting");
    expect(question.question).toBe(
      'I understood "tomorrow", but not "at the usual time". When exactly should it be?',
    );
    expect(await openTasks(h)).toEqual([]);
    const answer = await h.say("at 8:15");
    expect(answer.status).toBe("completed");
    expect(await openTasks(h)).toEqual([["take the pills", "2026-03-06T06:15:00.000Z"]]);
  });

  it("never stores a past, a 'now' or an absurd time: it asks, and a later turn still works", async () => {
    h = await harness();
    const past = await h.say("remind me yesterday at 5pm to pick up the package");
    expect(past.status).toBe("waiting");
    expect(past.question).toBe('That time ("yesterday at 5pm") has already passed. When should it be?');
    expect((await h.say("cancel")).status).toBe("completed");
    const absurd = await h.say("remind me in 99999999 days to x");
    expect(absurd.question).toBe(
      "That's further ahead than I keep reminders (up to 10 years). When should it be?",
    );
    expect((await h.say("in 2 hours")).status).toBe("completed");
    expect(await openTasks(h)).toEqual([["x", "2026-03-05T12:00:00.000Z"]]);
    const hebrew = await h.say("תזכיר לי בעוד 999999999999 שעות לשתות");
    expect(hebrew.question).toBe("זה רחוק יותר ממה שאני שומר תזכורות (עד 10 שנים). מתי זה צריך להיות?");
  });
});

describe("a time named in another zone", () => {
  it("converts '8am PST' to the user's zone and says both times, fast path and LLM path", async () => {
    h = await harness();
    // Friday 6 March 08:00 in Los Angeles (PST, UTC-8) is 16:00 UTC, 18:00 in Jerusalem.
    const reply = await h.say("remind me tomorrow at 8am PST to call Dan");
    expect(reply.text).toBe("⏰ I'll remind you tomorrow at 18:00 your time (08:00 PST): *call Dan*");
    expect(await openTasks(h)).toEqual([["call Dan", "2026-03-06T16:00:00.000Z"]]);
    await h.close();
    h = await createHarness({ env: { FAST_PATH: "off" } });
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "call Dana",
      dueDate: "מחר ב-15:00 שעון לונדון",
    });
    const hebrew = await h.say("תזכיר לי מחר ב-15:00 שעון לונדון להתקשר לדנה");
    // 15:00 in London (GMT) is 17:00 in Jerusalem.
    expect(hebrew.text).toContain("17:00");
    expect(hebrew.text).toContain("15:00 שעון לונדון");
    expect(await openTasks(h)).toEqual([["call Dana", "2026-03-06T15:00:00.000Z"]]);
  });
});

describe("clock times written every way, and 'the same time'", () => {
  it("reads 'ב-2130', '7 o'clock pm' and seconds, and asks about a year-like 'ב-1930'", async () => {
    h = await harness();
    expect((await h.say("תזכיר לי מחר ב-2130 לסגור את הדוד")).status).toBe("completed");
    expect((await h.say("remind me tomorrow at 7 o'clock pm to call dad")).status).toBe("completed");
    expect((await h.say("remind me tomorrow at 07:00:30 to leave")).status).toBe("completed");
    const year = await h.say("תזכיר לי מחר ב-1930 לשלם");
    expect(year.status).toBe("waiting");
    expect(await openTasks(h)).toEqual([
      ["לסגור את הדוד", "2026-03-06T19:30:00.000Z"],
      ["call dad", "2026-03-06T17:00:00.000Z"],
      // 07:00:30 in Jerusalem: the reminder keeps its seconds.
      ["leave", "2026-03-06T05:00:30.000Z"],
    ]);
  });

  it("takes 'same time tomorrow' as now's wall time tomorrow, and asks 'when' for 'at the same time' alone", async () => {
    h = await harness();
    const reply = await h.say("remind me same time tomorrow to call mom");
    expect(reply.status).toBe("completed");
    // The harness clock is Thursday 5 March, 12:00 in Jerusalem (10:00 UTC).
    expect(await openTasks(h)).toEqual([["call mom", "2026-03-06T10:00:00.000Z"]]);
    const alone = await h.say("remind me at the same time to call mom");
    expect(alone.status).toBe("waiting");
    expect(alone.question).toBe('When should I remind you? (for example "in 10 minutes" or "at 18:00")');
  });

  it("reads 'EST' as UTC−5 in its season, and asks about 'EDT' said for a winter day", async () => {
    h = await harness();
    // Friday 6 March: New York is still on EST (until 8 March); 09:00 EST is 14:00 UTC, 16:00 in Jerusalem.
    const reply = await h.say("remind me tomorrow at 9am EST to call the office");
    expect(reply.text).toBe("⏰ I'll remind you tomorrow at 16:00 your time (09:00 EST): *call the office*");
    const summer = await h.say("remind me tomorrow at 9am EDT to call the office");
    expect(summer.status).toBe("waiting");
    expect(summer.question).toBe(
      'The time words "tomorrow at 9am EDT" don\'t fit together. When exactly should it be?',
    );
    expect(await openTasks(h)).toEqual([["call the office", "2026-03-06T14:00:00.000Z"]]);
  });
});

describe("time questions on the LLM path (scripted model)", () => {
  it("asks morning or afternoon with two buttons for the model's 'tomorrow at 5', answered with no second model call", async () => {
    h = await createHarness({ env: { FAST_PATH: "off" } });
    scriptTurn(h, "create_task", { operation: "create", text: "call the bank", dueDate: "tomorrow at 5" });
    const question = await h.say("remind me tomorrow at 5 to call the bank");
    expect(question.status).toBe("waiting");
    expect(question.options.map((o) => o.label)).toEqual(["05:00 morning", "17:00 afternoon"]);
    const calls = h.server!.requests.length;
    const answer = await h.say("17:00 afternoon", { optionId: question.options[1]!.id });
    expect(answer.text).toBe("⏰ I'll remind you tomorrow at 17:00: *call the bank*");
    expect(h.server!.requests.length).toBe(calls);
    expect(await openTasks(h)).toEqual([["call the bank", "2026-03-06T15:00:00.000Z"]]);
  });

  it("refuses an instant with Z or an offset from the model: asks it once more, and uses its words", async () => {
    h = await createHarness({ env: { FAST_PATH: "off" } });
    h.server!.enqueue(
      plan({ steps: [step("s1", "database", "create_task")] }),
      { json: { operation: "create", text: "call mom", dueDate: "2026-03-06T07:00:00Z" } },
      { json: { operation: "create", text: "call mom", dueDate: "tomorrow at 9" } },
    );
    const reply = await h.say("remind me tomorrow at 9 to call mom");
    expect(reply.text).toBe("⏰ I'll remind you tomorrow at 09:00: *call mom*");
    const resolverCalls = h.server!.requests.filter(isTaskResolver);
    expect(resolverCalls).toHaveLength(2);
    expect(lastUserMessageOf(resolverCalls[1]!)).toContain("Never compute instants");
  });

  it("asks the user when the model hands over an instant twice, and stores nothing from it", async () => {
    h = await createHarness({ env: { FAST_PATH: "off" } });
    h.server!.enqueue(
      plan({ steps: [step("s1", "database", "create_task")] }),
      { json: { operation: "create", text: "call mom", dueDate: "2026-03-06T09:00:00+02:00" } },
      { json: { operation: "create", text: "call mom", dueDate: "2026-03-06T07:00:00.000Z" } },
    );
    const reply = await h.say("remind me tomorrow at 9 to call mom");
    expect(reply.status).toBe("waiting");
    expect(reply.question).toBe(
      'I couldn\'t pin down the time. Could you say it again, for example "tomorrow at 9"?',
    );
    expect(await openTasks(h)).toEqual([]);
  });
});

describe("a new command while a question is open (issue 20: a command is never lost as an answer)", () => {
  const LEFT = "(I left my earlier question unanswered: nothing was done for it.)";

  it("runs the command and leaves the question: its time is not taken as the answer", async () => {
    h = await harness();
    expect((await h.say("remind me in 99999999 days to x")).status).toBe("waiting");
    const reply = await h.say("in 10 minutes remind me to call mom");
    expect(reply.status).toBe("completed");
    expect(reply.text).toBe(`${LEFT}\n\n⏰ I'll remind you today at 12:10: *call mom*`);
    expect(await openTasks(h)).toEqual([["call mom", "2026-03-05T10:10:00.000Z"]]);
  });

  it("a listing or a new task while morning-or-afternoon is asked; a time still answers it, in Hebrew too", async () => {
    h = await harness();
    expect((await h.say("add task pay rent")).status).toBe("completed");
    expect((await h.say("remind me tomorrow at 5 to call the bank")).status).toBe("waiting");
    const listed = await h.say("my tasks");
    expect(listed.text.startsWith(`${LEFT}\n\n`)).toBe(true);
    expect(listed.text).toContain("pay rent");
    // The question is gone: a bare "17:00" now is no answer to anything.
    expect(await openTasks(h)).toEqual([["pay rent", null]]);

    expect((await h.say("תזכיר לי מחר ב-5 להתקשר לבנק")).status).toBe("waiting");
    const answered = await h.say("17:00");
    expect(answered.text).not.toContain("השארתי");
    expect((await openTasks(h)).map(([text]) => text)).toEqual(["pay rent", "להתקשר לבנק"]);
  });

  it("a new reminder request while a time question is open leaves the question and runs with its own words", async () => {
    h = await harness();
    expect((await h.say("remind me every year on 29 February to x")).question).toContain("on 29 February");
    const next = await h.say("remind me tomorrow at 5 to call Dana");
    expect(next.status).toBe("waiting");
    expect(next.text.startsWith(`${LEFT}\n\n`)).toBe(true);
    expect(next.question).toBe('"tomorrow at 5": in the morning or in the afternoon?');
    expect((await h.say("5pm")).text).toBe("⏰ I'll remind you tomorrow at 17:00: *call Dana*");
    expect(await openTasks(h)).toEqual([["call Dana", "2026-03-06T15:00:00.000Z"]]);

    // A Hebrew-calendar day that does not exist this year, then a new request in Hebrew: the same.
    expect((await h.say("remind me on 30 Adar to x")).status).toBe("waiting");
    const yossi = await h.say("תזכיר לי מחר ב-4 להתקשר ליוסי");
    expect(yossi.text.startsWith("(השארתי את השאלה הקודמת שלי בלי תשובה: לא נעשה בשבילה כלום.)\n\n")).toBe(
      true,
    );
    expect(yossi.status).toBe("waiting");
    expect((await h.say("אחר הצהריים")).text).toContain("16:00");
    expect((await openTasks(h)).map(([text]) => text)).toEqual(["call Dana", "להתקשר ליוסי"]);

    // "again" needs the conversation (the planner's model): without one the request is still its
    // own turn, never read as the old question's time.
    expect((await h.say("remind me every year on 29 February to x")).status).toBe("waiting");
    const again = await h.say("remind me tomorrow at 4 to call Yossi again");
    expect(again.text.startsWith(`${LEFT}\n\n`)).toBe(true);
    expect(again.status).toBe("completed");
    expect(again.text).not.toContain("every year tomorrow");
    expect((await h.say("4pm")).text).not.toContain("remind you");
    expect(await openTasks(h)).toHaveLength(2);
  });

  it("a reply of only time words still answers, with a reminder verb or 'instead' around it", async () => {
    h = await harness();
    expect((await h.say("remind me tomorrow at 5 to call the bank")).status).toBe("waiting");
    expect((await h.say("remind me at 5pm instead")).text).toBe(
      "⏰ I'll remind you tomorrow at 17:00: *call the bank*",
    );
    expect((await h.say("תזכיר לי מחר בחמש להתקשר לדנה")).status).toBe("waiting");
    const hebrew = await h.say("תזכיר לי ב-17:00 במקום");
    expect(hebrew.text).not.toContain("השארתי");
    expect(hebrew.text).toContain("17:00");
    expect(await openTasks(h)).toEqual([
      ["call the bank", "2026-03-06T15:00:00.000Z"],
      ["להתקשר לדנה", "2026-03-06T15:00:00.000Z"],
    ]);
  });

  it("says the question was left in the new message's language, not the question's", async () => {
    h = await harness();
    expect((await h.say("remind me tomorrow at 5 to call the bank")).status).toBe("waiting");
    const hebrew = await h.say("תזכיר לי מחר ב-17:00 להתקשר לדנה");
    expect(hebrew.text.startsWith("(השארתי את השאלה הקודמת שלי בלי תשובה: לא נעשה בשבילה כלום.)\n\n")).toBe(
      true,
    );
    expect((await h.say("תזכיר לי מחר בחמש להתקשר לבנק")).status).toBe("waiting");
    const english = await h.say("remind me tomorrow at 18:00 to call Dana");
    expect(english.text.startsWith(`${LEFT}\n\n`)).toBe(true);
    expect((await openTasks(h)).map(([text]) => text)).toEqual(["להתקשר לדנה", "call Dana"]);
  });

  it("'undo' while a time question is open cancels the question, and undoes nothing", async () => {
    h = await harness();
    await h.say("add task pay rent");
    expect((await h.say("remind me tomorrow at 5 to call the bank")).status).toBe("waiting");
    expect((await h.say("undo")).text).toBe("OK, I won't do that.");
    expect(await openTasks(h)).toEqual([["pay rent", null]]);
  });
});

describe("answers to a time question that are not a time, or only half of one", () => {
  it("asks again on 'banana', keeps the day for '5:30', keeps the repeat for '5pm', and gives up after three", async () => {
    h = await harness();
    const question = await h.say("remind me tomorrow at 5 to call the bank");
    const banana = await h.say("banana");
    expect(banana.status).toBe("waiting");
    expect(banana.question).toBe(
      'I still need a time, for example "at 17:30" or "tomorrow at 9" (or "cancel").',
    );
    expect(question.options).toHaveLength(2);
    // "5:30" is still morning or afternoon, and still tomorrow.
    const again = await h.say("5:30");
    expect(again.status).toBe("waiting");
    expect(again.options.map((o) => o.label)).toEqual(["05:30 morning", "17:30 afternoon"]);
    expect((await h.say("afternoon")).text).toBe("⏰ I'll remind you tomorrow at 17:30: *call the bank*");

    const repeat = await h.say("remind me every day at 5 to take the pills");
    expect(repeat.status).toBe("waiting");
    expect((await h.say("5pm")).status).toBe("completed");
    const tasks = await stores(h).tasks({ completed: false });
    expect(tasks.find((t) => t.text === "take the pills")?.recurrence).toMatchObject({
      type: "daily",
      time: "17:00",
    });

    await h.say("remind me tomorrow at 4 to water the plants");
    await h.say("ok");
    await h.say("no idea");
    const gaveUp = await h.say("whatever");
    expect(gaveUp.status).toBe("completed");
    expect(gaveUp.text).toBe("Let's leave that for now. Tell me again whenever you're ready.");
    expect((await stores(h).tasks()).map((t) => t.text)).not.toContain("water the plants");
  });
});

describe("huge numbers in time words (issue 20)", () => {
  const TOO_FAR = "That's further ahead than I keep reminders (up to 10 years). When should it be?";
  const TOO_FAR_HE = "זה רחוק יותר ממה שאני שומר תזכורות (עד 10 שנים). מתי זה צריך להיות?";

  it("without an LLM: the horizon is named, nothing is stored, and the next turn still works", async () => {
    h = await harness();
    for (const [said, question] of [
      ["remind me in 99999999 days to x", TOO_FAR],
      ["remind me to x every 99999999 minutes", TOO_FAR],
      ["תזכיר לי בעוד 99999999 ימים לעשות x", TOO_FAR_HE],
    ]) {
      const reply = await h.say(said!);
      expect(reply.question).toBe(question);
      expect((await h.say("cancel")).status).toBe("completed");
    }
    // A note keeps its words as they are: no time is read from them.
    expect((await h.say("note: buy x in 99999999 days")).text).toBe("📝 Noted: “buy x in 99999999 days”");
    expect(await openTasks(h)).toEqual([]);
    expect((await h.say("remind me in 5 minutes to y")).text).toBe("⏰ I'll remind you today at 12:05: *y*");
  });

  it("without an LLM: a time first and nudges past the horizon get the 10-year question, never the help text", async () => {
    h = await harness();
    for (const [said, question] of [
      ["in 999999999999 hours remind me to x", TOO_FAR],
      ["in 9999999 days remind me x", TOO_FAR],
      ["nudge every 99999999 minutes", TOO_FAR],
      ["nudge me every 99999999 minutes about x", TOO_FAR],
      ["remind me to x and nudge me every 99999999 minutes until done", TOO_FAR],
      ["בעוד 999999999999 שעות תזכיר לי לבדוק", TOO_FAR_HE],
      ["נדנד לי כל 99999999 דקות לשתות מים", TOO_FAR_HE],
    ]) {
      const reply = await h.say(said!);
      expect(reply.status, said).toBe("waiting");
      expect(reply.question, said).toBe(question);
      expect((await h.say("cancel")).status).toBe("completed");
    }
    expect(await openTasks(h)).toEqual([]);
    // Normal numbers set the reminder (12:00 now, Jerusalem).
    expect((await h.say("in 10 minutes remind me to call mom")).text).toBe(
      "⏰ I'll remind you today at 12:10: *call mom*",
    );
    expect((await h.say("tomorrow at 9 remind me to call the bank")).text).toBe(
      "⏰ I'll remind you tomorrow at 09:00: *call the bank*",
    );
    expect((await h.say("מחר ב-9 תזכיר לי להתקשר לבנק")).text).toContain("להתקשר לבנק");
    expect((await h.say("remind me to drink water and nudge me every 15 minutes until done")).text).toBe(
      "🔔 I'll nudge you every 15 minutes until it's done: *drink water*",
    );
    // Only a leading time followed by "remind me" is a reminder.
    for (const said of ["in the morning I went to the gym", "at 5 we met"])
      expect((await h.say(said)).text, said).toMatch(/^Without a language model/);
    expect(await openTasks(h)).toEqual([
      ["call mom", "2026-03-05T10:10:00.000Z"],
      ["call the bank", "2026-03-06T07:00:00.000Z"],
      ["להתקשר לבנק", "2026-03-06T07:00:00.000Z"],
      ["drink water", "2026-03-05T10:15:00.000Z"],
    ]);
  });

  it("without an LLM: a bare 'nudge every N minutes' goes on the latest task, or asks what to nudge about", async () => {
    h = await harness();
    expect((await h.say("nudge every 10 minutes")).text).toBe(
      'What should I nudge you about? (for example "nudge me every 10 minutes to drink water")',
    );
    await h.say("remind me tomorrow at 9 to call the bank");
    // Past the horizon: the 10-year question, and the answer goes on the same task.
    expect((await h.say("nudge every 99999999 minutes")).question).toBe(TOO_FAR);
    expect((await h.say("every 20 minutes")).text).toBe("✏️ Updated: *call the bank* — 🔔 every 20 minutes");
    expect((await h.say("נדנד לי כל חצי שעה")).text).toBe("✏️ עדכנתי: *call the bank* — 🔔 כל חצי שעה");
    expect(await openTasks(h)).toEqual([["call the bank", "2026-03-05T10:30:00.000Z"]]);
  });

  it("on the LLM path: due dates, nudge intervals and lead times past ten years are asked about, never thrown", async () => {
    h = await createHarness({ env: { FAST_PATH: "off" } });
    const cases: [string, Record<string, unknown>][] = [
      ["in 999999999999 hours remind me to x", { dueDate: "in 999999999999 hours" }],
      ["in 9999999 days remind me x", { dueDate: "in 9999999 days" }],
      [
        "nudge every 99999999 minutes",
        { reminderRecurrence: { type: "nudge", interval: "99999999 minutes" } },
      ],
      [
        "nudge every 999999999999 hours",
        { reminderRecurrence: { type: "nudge", interval: "999999999999 hours" } },
      ],
      [
        "nudge every 99999999 minutes",
        { reminderRecurrence: { type: "nudge", phrase: "every 99999999 minutes" } },
      ],
      [
        "remind me tomorrow at 9, 999999999999 hours before",
        { dueDate: "tomorrow at 9", reminder: "999999999999 hours" },
      ],
    ];
    for (const [said, time] of cases) {
      scriptTurn(h, "create_task", { operation: "create", text: "x", ...time });
      const reply = await h.say(said);
      expect(reply.status, said).toBe("waiting");
      expect(reply.question, said).toBe(TOO_FAR);
      expect(reply.question).not.toContain("+0");
      // "cancel" leaves the model's question in code, without another model call.
      const calls = h.server!.requests.length;
      expect((await h.say("cancel")).text).toBe("OK, I won't do that.");
      expect(h.server!.requests.length).toBe(calls);
    }
    expect(await openTasks(h)).toEqual([]);
  });
});
