// Two calendars through the graph with no LLM (issue 36): holidays and Hebrew dates said with a
// reminder are read on the fast path, stored on the right day with the holiday out of the title,
// and a yearly Hebrew date is stored as one and confirmed by its rule.
import { afterEach, describe, expect, it } from "vitest";
import { PHONE, createHarness, type Harness } from "../support/memoHarness.js";
import { scriptTurn, stores } from "../support/databaseScript.js";
import { fakeClock } from "../support/clock.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Thursday 5 March 2026, 12:00 in Jerusalem (the harness clock). */
const harness = () => createHarness({ llm: "none", env: { FAST_PATH: "on" } });
const openTasks = async (hh: Harness) =>
  (await stores(hh).tasks({ completed: false })).map((t) => ({
    text: t.text,
    nextFireAt: t.nextFireAt,
    recurrence: t.recurrence,
  }));

describe("two calendars through the graph, without an LLM", () => {
  it("stores 'every year on 15 Shevat at 8' as a yearly Hebrew date and confirms its rule", async () => {
    h = await harness();
    const reply = await h.say("remind me every year on 15 Shevat at 8 to plant a tree");
    expect(reply.status).toBe("completed");
    expect(reply.text).toContain(
      "every year on 15 Sh'vat (Hebrew calendar) at 08:00, next: Sat 23/01/2027 at 08:00",
    );
    // The listing shows both calendars too.
    expect((await h.say("my tasks")).text).toContain(
      "plant a tree — every year on 15 Sh'vat (Hebrew calendar) at 08:00, next: Sat 23/01/2027 at 08:00",
    );
    // 15 Shevat 5787 is Saturday 23 January 2027: 08:00 in Jerusalem is 06:00 UTC.
    expect(await openTasks(h)).toEqual([
      {
        text: "plant a tree",
        nextFireAt: "2027-01-23T06:00:00.000Z",
        recurrence: { type: "hebrew", time: "08:00", hebrew: { month: 11, day: 15, custom: "date" } },
      },
    ]);
  });

  it("stores the Hebrew 'כל שנה בט״ו בשבט' the same way, confirmed in Hebrew", async () => {
    h = await harness();
    const reply = await h.say("תזכיר לי כל שנה בט״ו בשבט בשמונה בבוקר לשתול עץ");
    expect(reply.status).toBe("completed");
    expect(reply.text).toContain("כל שנה בט״ו בשבט (בלוח העברי) ב-08:00");
    expect(await openTasks(h)).toMatchObject([
      { text: "לשתול עץ", nextFireAt: "2027-01-23T06:00:00.000Z", recurrence: { type: "hebrew" } },
    ]);
  });

  it("reads 'on Christmas at 6 pm' as 25 December at 18:00, with Christmas out of the title", async () => {
    h = await harness();
    const reply = await h.say("remind me on Christmas at 6 pm to call grandma");
    expect(reply.status).toBe("completed");
    expect(reply.text).not.toMatch(/christmas/iu);
    expect(await openTasks(h)).toEqual([
      { text: "call grandma", nextFireAt: "2026-12-25T16:00:00.000Z", recurrence: null },
    ]);
  });

  it("keeps a holiday said as content in the title, on the day named with it", async () => {
    h = await harness();
    const reply = await h.say("remind me to buy a christmas tree tomorrow");
    expect(reply.status).toBe("completed");
    expect(reply.text).toMatch(/buy a christmas tree/iu);
    // Tomorrow is Friday 6 March 2026: 09:00 in Jerusalem is 07:00 UTC (not Christmas, not asked).
    expect(await openTasks(h)).toEqual([
      { text: "buy a christmas tree", nextFireAt: "2026-03-06T07:00:00.000Z", recurrence: null },
    ]);
  });

  it("reads 'a week before Pesach' as seven days before its first day, the offset out of the title", async () => {
    h = await harness();
    const reply = await h.say("remind me a week before Pesach to clean the kitchen");
    expect(reply.status).toBe("completed");
    expect(reply.text).not.toMatch(/pesach|week/iu);
    // Pesach 5786 is Thursday 2 April 2026: a week before is Thursday 26 March, 09:00 at +02.
    expect(await openTasks(h)).toEqual([
      { text: "clean the kitchen", nextFireAt: "2026-03-26T07:00:00.000Z", recurrence: null },
    ]);
  });

  it("asks about 'during Hanukkah' instead of storing its first day", async () => {
    h = await harness();
    const reply = await h.say("remind me during Hanukkah to light candles");
    expect(reply.status).toBe("waiting");
    expect(reply.text).toContain('"during Hanukkah"');
    expect(await openTasks(h)).toEqual([]);
  });

  it("reads Shushan Purim and Yom HaShoah as their days, and asks about Ramadan, never today", async () => {
    h = await harness();
    const shushan = await h.say("remind me on Shushan Purim to read megillah");
    expect(shushan.status).toBe("completed");
    expect(shushan.text).not.toMatch(/shushan/iu);
    expect((await h.say("תזכיר לי ביום השואה ב-10 לעמוד בצפירה")).status).toBe("completed");
    const ramadan = await h.say("remind me on Ramadan at 8pm to call Ali");
    expect(ramadan.status).toBe("waiting");
    expect(ramadan.text).toMatch(/ramadan/iu);
    // Shushan Purim 5786 was yesterday (4 March): 5787's is Wednesday 24 March 2027, 09:00 (+02);
    // Yom HaShoah 5786 is Tuesday 14 April 2026, 10:00 (+03).
    expect(await openTasks(h)).toEqual([
      { text: "read megillah", nextFireAt: "2027-03-24T07:00:00.000Z", recurrence: null },
      { text: "לעמוד בצפירה", nextFireAt: "2026-04-14T07:00:00.000Z", recurrence: null },
    ]);
    // Asked while the Ramadan question is open: that question is left, and this one answered.
    expect((await h.say("when is Shushan Purim?")).text).toContain(
      "Shushan Purim: Wed 24 Mar 2027 (15 Adar II 5787), starts the evening before.",
    );
  });

  it("reads 'בפסח' and 'ערב ראש השנה' in Hebrew", async () => {
    h = await harness();
    expect((await h.say("תזכיר לי בפסח בשש בערב להתקשר לסבתא")).status).toBe("completed");
    expect((await h.say("תזכיר לי בערב ראש השנה לקנות דבש")).status).toBe("completed");
    // Pesach 5786 is Thursday 2 April 2026 (+03); Erev Rosh Hashana 5787 is Friday 11 September 2026.
    expect((await openTasks(h)).map((t) => [t.text, t.nextFireAt])).toEqual([
      ["להתקשר לסבתא", "2026-04-02T15:00:00.000Z"],
      ["לקנות דבש", "2026-09-11T06:00:00.000Z"],
    ]);
  });

  it("takes 'yahrzeit for grandma on 10 Tevet' and 'יום הולדת עברי של אבא ב-ג' בניסן' as yearly reminders", async () => {
    h = await harness();
    const yahrzeit = await h.say("yahrzeit for grandma on 10 Tevet");
    expect(yahrzeit.status).toBe("completed");
    expect(yahrzeit.text).toContain("every year on 10 Tevet (Hebrew calendar)");
    const birthday = await h.say("יום הולדת עברי של אבא ב-ג' בניסן");
    expect(birthday.status).toBe("completed");
    expect(await openTasks(h)).toEqual([
      {
        text: "yahrzeit for grandma",
        nextFireAt: "2026-12-20T07:00:00.000Z",
        recurrence: { type: "hebrew", time: "09:00", hebrew: { month: 10, day: 10, custom: "yahrzeit" } },
      },
      {
        text: "יום הולדת עברי של אבא",
        // 3 Nisan 5786: Saturday 21 March 2026.
        nextFireAt: "2026-03-21T07:00:00.000Z",
        recurrence: { type: "hebrew", time: "09:00", hebrew: { month: 1, day: 3, custom: "birthday" } },
      },
    ]);
  });

  it("takes 'on my Hebrew birthday' as the answer to a time question", async () => {
    h = await harness();
    await h.say("hi");
    await h.users.update(PHONE, { hebrewBirthday: { month: 1, day: 3 } });
    const question = await h.say("remind me yesterday at 5pm to donate blood");
    expect(question.status).toBe("waiting");
    expect((await h.say("on my Hebrew birthday at 8")).status).toBe("completed");
    // 3 Nisan 5786 is Saturday 21 March 2026: 08:00 at +02.
    expect(await openTasks(h)).toEqual([
      { text: "donate blood", nextFireAt: "2026-03-21T06:00:00.000Z", recurrence: null },
    ]);
  });

  it("names the Hebrew date of a one-off reminder set on one, in the confirmation and the listing", async () => {
    h = await harness();
    const reply = await h.say("remind me on 10 Tevet to light a candle");
    expect(reply.status).toBe("completed");
    expect(reply.text).toContain("(10 Tevet)");
    expect((await h.say("my tasks")).text).toMatch(/light a candle — .*20\/12.* \(10 Tevet\)/u);
    expect(await openTasks(h)).toEqual([
      { text: "light a candle", nextFireAt: "2026-12-20T07:00:00.000Z", recurrence: null },
    ]);
  });

  it("takes the first Adar of a leap year for a one-off '10 Adar', and says so", async () => {
    h = await createHarness({
      llm: "none",
      env: { FAST_PATH: "on" },
      clock: fakeClock("2027-01-01T10:00:00Z"),
    });
    const reply = await h.say("remind me on 10 Adar to send the gifts");
    expect(reply.status).toBe("completed");
    expect(reply.text).toContain("(10 Adar I)");
    // 10 Adar I 5787: Wednesday 17 February 2027, 09:00 at +02.
    expect(await openTasks(h)).toEqual([
      { text: "send the gifts", nextFireAt: "2027-02-17T07:00:00.000Z", recurrence: null },
    ]);
  });

  it("says so when the Hebrew year lacks the day said: 30 Cheshvan 5789 is 1 Kislev", async () => {
    h = await createHarness({
      llm: "none",
      env: { FAST_PATH: "on" },
      clock: fakeClock("2028-10-01T10:00:00Z"),
    });
    const reply = await h.say("remind me on 30 Cheshvan to pay the rent");
    expect(reply.text).toContain("(1 Kislev: 5789 has no 30 Cheshvan)");
    expect(await openTasks(h)).toEqual([
      { text: "pay the rent", nextFireAt: "2028-11-19T07:00:00.000Z", recurrence: null },
    ]);
  });

  it("says the Hebrew date of the evening after sunset in the user's city, and today's before it", async () => {
    // Saturday 28 November 2026 in New York: sunset about 16:29; 17:50 is after it.
    const clock = fakeClock("2026-11-28T22:50:00Z");
    h = await createHarness({ llm: "none", env: { FAST_PATH: "on" }, clock });
    await h.users.getOrCreate(PHONE, { timeZone: "America/New_York", language: "en" });
    expect((await h.say("what's the Hebrew date today?")).text).toBe(
      "Today is Sat 28 Nov 2026; since sunset it is 19 Kislev 5787 (18 Kislev 5787 until sunset).",
    );
    expect((await h.say("איזה תאריך עברי היום?")).text).toBe(
      "היום יום שבת, 28 בנובמבר 2026; מאז השקיעה: י״ט כסלו תשפ״ז (עד השקיעה: י״ח כסלו תשפ״ז).",
    );
    // 15:00, before sunset: today's form.
    clock.advance(-170 * 60_000);
    expect((await h.say("what's the Hebrew date today?")).text).toBe(
      "Today is Sat 28 Nov 2026, 18 Kislev 5787; from sunset this evening, 19 Kislev 5787.",
    );
  });

  it("keeps today's form after dark in a zone with no city to compute sunset for", async () => {
    h = await createHarness({
      llm: "none",
      env: { FAST_PATH: "on" },
      clock: fakeClock("2026-11-28T22:50:00Z"),
    });
    await h.users.getOrCreate(PHONE, { timeZone: "Etc/GMT+5", language: "en" });
    expect((await h.say("what's the Hebrew date today?")).text).toBe(
      "Today is Sat 28 Nov 2026, 18 Kislev 5787; from sunset this evening, 19 Kislev 5787.",
    );
  });

  it("answers 'when is …?' and 'what's the Hebrew date today?' in both calendars, without a model", async () => {
    h = await harness();
    // Thursday 5 March 2026: Rosh Hashana 5787 is Saturday 12 September 2026.
    expect((await h.say("when is Rosh Hashana?")).text).toBe(
      "Rosh Hashana: Sat 12 Sep 2026 (1 Tishrei 5787), starts the evening before.",
    );
    expect((await h.say("when is Hanukkah?")).text).toBe(
      "Hanukkah: Sat 5 Dec 2026 (25 Kislev 5787), starts the evening before.",
    );
    expect((await h.say("מתי פסח השנה?")).text).toBe(
      "פסח: יום חמישי, 2 באפריל 2026 (ט״ו ניסן תשפ״ו), נכנס בערב שלפני.",
    );
    expect((await h.say("what's the Hebrew date today?")).text).toBe(
      "Today is Thu 5 Mar 2026, 16 Adar 5786; from sunset this evening, 17 Adar 5786.",
    );
    expect((await h.say("איזה תאריך עברי היום?")).text).toContain("ט״ז אדר תשפ״ו");
    expect((await h.say("מתי ראש השנה?")).text).toContain("ראש השנה: יום שבת, 12 בספטמבר 2026");
    expect((await h.say("when is Passover in 2028?")).text).toBe(
      "Pesach: Tue 11 Apr 2028 (15 Nisan 5788), starts the evening before.",
    );
    expect((await h.say("when is the first night of Hanukkah?")).text).toContain("Fri 4 Dec 2026");
    expect(await openTasks(h)).toEqual([]);
  });
});

describe("two calendars on the LLM path (the resolver hands over the user's words)", () => {
  it("reads a holiday in the resolver's time words, and a yearly Hebrew date in its repeat words", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "call grandma",
      dueDate: "on Christmas at 6 pm",
    });
    expect((await h.say("remind me on Christmas at 6 pm to call grandma")).status).toBe("completed");
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "call mom",
      // The model's schema has no Hebrew type: its repeat words are what count, read in code.
      reminderRecurrence: { type: "daily", phrase: "every year on Rosh Hashana at 10" },
    });
    const yearly = await h.say("every Rosh Hashana at 10 remind me to call mom");
    expect(yearly.text).toContain("every year on 1 Tishrei (Hebrew calendar) at 10:00");
    expect(await openTasks(h)).toEqual([
      { text: "call grandma", nextFireAt: "2026-12-25T16:00:00.000Z", recurrence: null },
      {
        text: "call mom",
        // Rosh Hashana 5787: Saturday 12 September 2026, 10:00 at +03.
        nextFireAt: "2026-09-12T07:00:00.000Z",
        recurrence: { type: "hebrew", time: "10:00", hebrew: { month: 7, day: 1, custom: "date" } },
      },
    ]);
  });

  it("keeps a yahrzeit's custom from the user's message when the model's words drop it", async () => {
    h = await createHarness();
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "yahrzeit for grandpa",
      reminderRecurrence: { type: "daily", phrase: "every year on 7 Adar" },
    });
    expect((await h.say("yahrzeit for grandpa on 7 Adar")).status).toBe("completed");
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "light a candle for grandma",
      dueDate: "on 10 Tevet",
    });
    expect((await h.say("remind me to light a candle for grandma's yahrzeit on 10 Tevet")).status).toBe(
      "completed",
    );
    expect(await openTasks(h)).toEqual([
      {
        text: "yahrzeit for grandpa",
        // 5787 is leap: a yahrzeit of Adar is kept in Adar I (7 Adar I = Sunday 14 February 2027).
        nextFireAt: "2027-02-14T07:00:00.000Z",
        recurrence: { type: "hebrew", time: "09:00", hebrew: { month: 12, day: 7, custom: "yahrzeit" } },
      },
      {
        text: "light a candle for grandma",
        // 10 Tevet 5787: Sunday 20 December 2026, every year (not once).
        nextFireAt: "2026-12-20T07:00:00.000Z",
        recurrence: { type: "hebrew", time: "09:00", hebrew: { month: 10, day: 10, custom: "yahrzeit" } },
      },
    ]);
  });

  it("reads 'on my Hebrew birthday' with the user's saved Hebrew birthday", async () => {
    h = await createHarness();
    await h.say("hi");
    await h.users.update(PHONE, { hebrewBirthday: { month: 1, day: 3 } });
    scriptTurn(h, "create_task", {
      operation: "create",
      text: "donate blood",
      dueDate: "on my Hebrew birthday at 8",
    });
    expect((await h.say("remind me on my Hebrew birthday at 8 to donate blood")).status).toBe("completed");
    // 3 Nisan 5786 is Saturday 21 March 2026: 08:00 at +02.
    expect(await openTasks(h)).toEqual([
      { text: "donate blood", nextFireAt: "2026-03-21T06:00:00.000Z", recurrence: null },
    ]);
  });
});
