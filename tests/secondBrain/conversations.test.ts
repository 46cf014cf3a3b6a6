import { afterEach, describe, expect, it } from "vitest";
import { createHarness, isPlanner, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { lastUserMessageOf, type RecordedRequest } from "../support/scriptedOpenAI.js";

const OTHER = "972509999999";
const ZONE = "Asia/Jerusalem";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Memo with the second brain, FAST_PATH on (commands need no model), the user in Jerusalem. */
async function harness(options: Parameters<typeof createHarness>[0] = {}): Promise<Harness> {
  const made = await createHarness({ ...options, env: { FAST_PATH: "on", ...options.env } });
  await made.users.getOrCreate(PHONE, { timeZone: ZONE });
  return made;
}

/** Scripts one note turn: the planner picks `action` on the second brain, the resolver answers `op`. */
function scriptNoteTurn(made: Harness, action: string, op: Record<string, unknown>): void {
  made.server!.enqueue(plan({ steps: [step("s1", "second-brain", action)] }), { json: op });
}

async function notesOf(made: Harness, phone = PHONE): Promise<string[]> {
  const { rows } = await made.db.pool.query<{ content: string }>(
    "SELECT content FROM notes WHERE user_phone = $1 ORDER BY seq",
    [phone],
  );
  return rows.map((r) => r.content);
}

/** A reply with note dates (the day the database stored them) written as DATE. */
const undated = (text: string) => text.replace(/\((\d{1,2} [^)\n]+)\)/g, "(DATE)");

const plannerRequests = (made: Harness): RecordedRequest[] => made.server!.requests.filter(isPlanner);

describe("notes with no language model (the simulator with no OpenAI key)", () => {
  it("stores, lists and finds notes by words, in English and Hebrew", async () => {
    h = await harness({ llm: "none" });
    expect((await h.say("note: the wifi password is HappyCat42")).text).toBe(
      "📝 Noted: “the wifi password is HappyCat42”",
    );
    expect((await h.say("פתק: הקוד של הלוקר בבריכה 4412")).text).toBe(
      "📝 רשמתי: „הקוד של הלוקר בבריכה 4412”",
    );
    expect((await h.say("remember that Dana's shoe size is 38")).text).toContain("Dana's shoe size is 38");

    const found = await h.say("search notes for wifi");
    expect(undated(found.text)).toBe("🔎 From your notes:\n1. “the wifi password is HappyCat42” (DATE)");
    // Hebrew with a prefix: "לוקר" finds "הלוקר".
    expect((await h.say("חפש בפתקים לוקר")).text).toContain("„הקוד של הלוקר בבריכה 4412”".slice(1, -1));
    expect((await h.say("notes about parking")).text).toBe("🔎 Nothing in your notes about “parking”.");

    const listed = await h.say("my notes");
    expect(listed.text).toMatch(/^🗂️ Your notes \(3\):\n1\. “Dana's shoe size is 38”/);
    expect(await notesOf(h)).toHaveLength(3);
  });

  it("a note naming a time is kept as asked, saying how to get a reminder; 'note: remind me…' is a reminder", async () => {
    h = await harness({ llm: "none" });
    expect((await h.say("note: the kids' school starts at 8:15")).text).toBe(
      '📝 Noted: “the kids\' school starts at 8:15”\n(I keep it as a note. To be reminded, say "remind me …".)',
    );
    // A reminder in note's clothing goes to the planner (here: no model, so the commands that work).
    expect((await h.say("note: remind me to call the dentist tomorrow at 9")).text).toMatch(
      /^Without a language model/,
    );
    expect(await notesOf(h)).toEqual(["the kids' school starts at 8:15"]);
  });
});

describe("notes through the planner (scripted LLM)", () => {
  it("English: store a note, then a question is answered from it, citing the note", async () => {
    h = await harness();
    scriptNoteTurn(h, "store_note", {
      operation: "store",
      content: "Wifi password at the cabin: PineTree77",
    });
    expect((await h.say("could you jot down that the cabin wifi is PineTree77")).text).toBe(
      "📝 Noted: “Wifi password at the cabin: PineTree77”",
    );
    scriptNoteTurn(h, "search_notes", { operation: "search", query: "cabin wifi password" });
    h.server!.enqueue({ text: "The cabin's wifi password is PineTree77 [1]." });
    const reply = await h.say("what's the wifi password at the cabin?");
    expect(undated(reply.text)).toBe(
      "The cabin's wifi password is PineTree77 [1].\n\nFrom these notes:\n1. “Wifi password at the cabin: PineTree77” (DATE)",
    );
    // The answer was written from the note found, numbered as quoted.
    expect(lastUserMessageOf(h.server!.requests.at(-1)!)).toContain(
      '<note id="1">\nWifi password at the cabin: PineTree77\n</note>',
    );
  });

  it("an answer citing no note is dropped: only the quotes are shown", async () => {
    h = await harness();
    scriptNoteTurn(h, "store_note", { operation: "store", content: "Locker code 4412" });
    await h.say("jot down the locker code 4412");
    scriptNoteTurn(h, "search_notes", { operation: "search", query: "locker code" });
    h.server!.enqueue({ text: "It is 9999." });
    expect(undated((await h.say("what is my locker code?")).text)).toBe(
      "🔎 From your notes:\n1. “Locker code 4412” (DATE)",
    );
  });

  it("Hebrew: store and find a note", async () => {
    h = await harness();
    scriptNoteTurn(h, "store_note", {
      operation: "store",
      content: "מתכון לעוגת גזר: 3 גזרים, 2 ביצים, כוס סוכר",
    });
    expect((await h.say("תשמור לי את המתכון לעוגת גזר: 3 גזרים, 2 ביצים, כוס סוכר")).text).toBe(
      "📝 רשמתי: „מתכון לעוגת גזר: 3 גזרים, 2 ביצים, כוס סוכר”",
    );
    scriptNoteTurn(h, "search_notes", { operation: "search", query: "עוגת גזר" });
    h.server!.enqueue({ text: "צריך 3 גזרים, 2 ביצים וכוס סוכר [1]." });
    const reply = await h.say("מה צריך לעוגת הגזר?");
    expect(undated(reply.text)).toBe(
      "צריך 3 גזרים, 2 ביצים וכוס סוכר [1].\n\nמהפתקים האלה:\n1. “מתכון לעוגת גזר: 3 גזרים, 2 ביצים, כוס סוכר” (DATE)",
    );
  });

  it("deletes by fuzzy words, asking which note when two match, and updates the one meant", async () => {
    h = await harness();
    await h.say("note: Dana's shoe size is 38");
    await h.say("note: Dana's favourite flowers are tulips");
    await h.say("note: wifi password HappyCat42");

    // On the fast path (no model call): the words are searched, two notes fit, Memo asks.
    const asked = await h.say("delete the note about Dana");
    expect(asked.text).toContain("Dana's shoe size is 38");
    expect(asked.text).toContain("Dana's favourite flowers are tulips");
    const done = await h.say(asked.text.indexOf("tulips") < asked.text.indexOf("shoe") ? "1" : "2");
    expect(done.text).toBe(
      "🗑️ Deleted the note “Dana's favourite flowers are tulips”\nReply *undo* to bring it back.",
    );
    expect(await notesOf(h)).toEqual(["Dana's shoe size is 38", "wifi password HappyCat42"]);

    scriptNoteTurn(h, "update_note", {
      operation: "update",
      query: "wifi pasword",
      newContent: "wifi password SunnyDog9",
    });
    expect((await h.say("change the wifi note to SunnyDog9")).text).toBe(
      "✏️ Note updated: “wifi password SunnyDog9”",
    );
    expect(await notesOf(h)).toEqual(["Dana's shoe size is 38", "wifi password SunnyDog9"]);
  });

  it("'#2' after a listing names that note; a number not shown is said so", async () => {
    h = await harness();
    await h.say("note: first note");
    await h.say("note: second note");
    await h.say("my notes");
    scriptNoteTurn(h, "delete_note", { operation: "delete", noteRef: "#2" });
    expect((await h.say("delete note 2")).text).toBe(
      "🗑️ Deleted the note “first note”\nReply *undo* to bring it back.",
    );
    scriptNoteTurn(h, "delete_note", { operation: "delete", noteRef: "#7" });
    expect((await h.say("delete note 7")).text).toBe("There's no number 7 in the last notes I showed you.");
  });

  it("planner rule 2 holds in code: 'remember … tomorrow at 9' becomes a task, not a note", async () => {
    h = await harness({ env: { FAST_PATH: "off" } });
    h.server!.enqueue(plan({ steps: [step("s1", "second-brain", "store_note")] }), {
      json: { operation: "create", text: "call the bank", dueDate: "tomorrow at 9" },
    });
    const reply = await h.say("remember to call the bank tomorrow at 9");
    expect(await notesOf(h)).toEqual([]);
    const { rows } = await h.db.pool.query("SELECT text FROM tasks WHERE user_phone = $1", [PHONE]);
    expect(rows).toEqual([{ text: "call the bank" }]);
    expect(reply.text).toContain("call the bank");
  });
});

describe("long-term memory in conversation", () => {
  it("a preference stated early is in the planner's context twenty turns later; 'forget' removes it, chunks too", async () => {
    h = await harness();
    h.server!.enqueue(
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
      {
        text: "Noted, mornings it is.",
      },
    );
    await h.say("I prefer morning meetings, afternoons are for deep work");
    // Twenty everyday turns on the fast path push it far out of the 10-message window.
    for (let i = 1; i <= 20; i++) {
      await h.say(i % 2 === 0 ? "my tasks" : `note: idea number ${i} for the garden`);
      h.clock.advance(60_000);
    }
    await h.longTerm.idle();
    expect(h.memory.getRecentMessages(PHONE).some((m) => m.content.includes("morning"))).toBe(false);

    h.server!.enqueue(
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
      {
        text: "How about Tuesday at 9?",
      },
    );
    await h.say("when should we set up the review with Dana?");
    const context = lastUserMessageOf(plannerRequests(h).at(-1)!)!;
    expect(context).toContain("## What Memo knows about the user");
    expect(context).toMatch(/morning meetings/i);
    // The chunk summaries of what left the window were loaded too, the preference's chunk among them.
    expect(context).toMatch(/Summary of earlier conversation/i);
    const { rows: before } = await h.db.pool.query<{ summary: string }>(
      "SELECT summary FROM conversation_chunks WHERE user_phone = $1 ORDER BY chunk_number",
      [PHONE],
    );
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(before[0]!.summary).toMatch(/morning/i);

    const listed = await h.say("what do you remember about me?");
    expect(listed.text).toMatch(/🧠 What I remember about you:\n1\. .*morning meetings/i);

    const forgot = await h.say("forget that I prefer morning meetings");
    expect(forgot.text).toMatch(/^🧹 Forgotten: “.*morning meetings.*”/i);
    await h.longTerm.idle();

    h.server!.enqueue(
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
      {
        text: "Any time works.",
      },
    );
    await h.say("when should we meet with Dana next week?");
    const after = lastUserMessageOf(plannerRequests(h).at(-1)!)!;
    expect(after).not.toMatch(/morning meetings/i);
    const { rows } = await h.db.pool.query<{ summary: string }>(
      "SELECT summary FROM conversation_chunks WHERE user_phone = $1",
      [PHONE],
    );
    expect(rows).toHaveLength(before.length);
    expect(rows.map((r) => r.summary).join("\n")).not.toMatch(/morning/i);
    expect((await h.say("what do you remember about me?")).text).not.toMatch(/^\d+\. .*morning/im);
  });

  it("Hebrew: 'מה אתה זוכר עליי?' and 'תשכח ש…'", async () => {
    h = await harness({ llm: "none" });
    await h.say("אני אלרגי לבוטנים");
    await h.longTerm.idle();
    expect((await h.say("מה אתה זוכר עליי?")).text).toMatch(/🧠 מה שאני זוכר עליך:\n1\. .*בוטנים/);
    expect((await h.say("תשכח שאני אלרגי לבוטנים")).text).toMatch(/^🧹 שכחתי: .*בוטנים/);
    expect((await h.say("מה אתה זוכר עליי?")).text).toMatch(/^🧠 עדיין אין לי משהו שמור עליך/);
  });

  it("'forget 2' after the listing; 'forget that…' held only by a note asks to delete that note", async () => {
    h = await harness({ llm: "none" });
    await h.say("I prefer tea over coffee");
    await h.say("I live in Haifa");
    await h.longTerm.idle();
    const listed = (await h.say("what do you remember about me?")).text;
    const n = /^(\d+)\. .*Haifa/m.exec(listed)?.[1];
    expect(n).toBeDefined();
    expect((await h.say(`forget ${n}`)).text).toMatch(/^🧹 Forgotten: “.*Haifa.*”/);
    expect((await h.say("what do you remember about me?")).text).not.toMatch(/Haifa/);

    // A note is kept as a note, not as a remembered fact: forgetting it is asked about first.
    await h.say("note: my blood type is A+");
    await h.longTerm.idle();
    const asked = await h.say("forget that my blood type is A+");
    expect(asked.text).toContain("“my blood type is A+”");
    expect(asked.text).toContain("Delete that note?");
    expect((await h.say("yes")).text).toBe("🧹 Forgotten: “my blood type is A+”.");
    expect(await notesOf(h)).toEqual([]);

    // "forget about the dentist" is not a memory command: it goes to the planner (no model here).
    expect((await h.say("forget about the dentist")).text).toMatch(/^Without a language model/);
  });

  it("no model: 'forget that the wifi password is hunter2' forgets that note (asked first), asks which among several; 'search notes wifi'", async () => {
    h = await harness({ llm: "none" });
    await h.say("remember that the wifi password is hunter2");
    await h.say("note: the gate code is 1948");
    expect((await h.say("search notes wifi")).text).toContain("“the wifi password is hunter2”");
    expect((await h.say("find notes wifi")).text).toContain("“the wifi password is hunter2”");
    expect((await h.say("search my notes for wifi")).text).toContain("“the wifi password is hunter2”");
    const asked = await h.say("forget that the wifi password is hunter2");
    expect(asked.text).toContain("“the wifi password is hunter2”");
    expect(asked.text).toContain("Delete that note?");
    expect((await h.say("yes")).text).toBe("🧹 Forgotten: “the wifi password is hunter2”.");
    expect(await notesOf(h)).toEqual(["the gate code is 1948"]);

    // Two notes the words name equally: Memo asks which, and forgets only the chosen one.
    await h.say("note: the wifi password at home is hunter2");
    await h.say("note: the wifi password at the office is swordfish");
    const which = await h.say("forget that the wifi password is secret");
    expect(which.text).toContain("at home is hunter2");
    expect(which.text).toContain("at the office is swordfish");
    const office = /(\d)\. [^\n]*office/.exec(which.text)?.[1];
    expect(office).toBeDefined();
    expect((await h.say(office!)).text).toBe("🧹 Forgotten: “the wifi password at the office is swordfish”.");
    expect(await notesOf(h)).toEqual(["the gate code is 1948", "the wifi password at home is hunter2"]);

    // Hebrew: "תשכח ש…" a statement kept by "תזכור ש…"; "חפש בפתקים …" finds it first.
    await h.say("תזכור שהקוד של הלוקר הוא 4412");
    expect((await h.say("חפש בפתקים לוקר")).text).toContain("הקוד של הלוקר הוא 4412");
    expect((await h.say("תשכח שהקוד של הלוקר הוא 4412")).text).toContain("„הקוד של הלוקר הוא 4412”");
    await h.say("כן");
    expect(await notesOf(h)).toEqual(["the gate code is 1948", "the wifi password at home is hunter2"]);
    // "forget that meeting" names no statement: not a memory command (the planner's, no model here).
    expect((await h.say("forget that meeting")).text).toMatch(/^Without a language model/);
  });

  it("no model: a statement about oneself is acknowledged as remembered; a secret is never a remembered fact", async () => {
    h = await harness({ llm: "none" });
    expect((await h.say("I prefer morning meetings")).text).toMatch(
      /^🧠 Got it, I'll keep that in mind: “.*morning meetings.*”/i,
    );
    expect((await h.say("my bank PIN is 4321")).text).toMatch(/^Without a language model/);
    await h.say("note: the alarm code is 9090");
    await h.longTerm.idle();
    const listed = (await h.say("what do you remember about me?")).text;
    expect(listed).toMatch(/morning meetings/i);
    expect(listed).not.toMatch(/4321|9090/);
  });

  it("a number after a notes listing names a note: 'delete note 1' and 'forget 1' (asked first); 'cancel' leaves a which-one question", async () => {
    h = await harness({ llm: "none" });
    await h.say("note: the gate code is 1948");
    await h.say("note: Dana's shoe size is 38");
    await h.say("my notes");
    expect((await h.say("delete note 1")).text).toBe(
      "🗑️ Deleted the note “Dana's shoe size is 38”\nReply *undo* to bring it back.",
    );
    await h.say("my notes");
    expect((await h.say("forget 1")).text).toBe(
      "Delete the note “the gate code is 1948”? Reply yes to delete it.",
    );
    expect((await h.say("yes")).text).toBe("🧹 Forgotten: “the gate code is 1948”.");
    expect(await notesOf(h)).toEqual([]);

    await h.say("I'm allergic to cats");
    await h.say("I'm allergic to peanuts");
    await h.longTerm.idle();
    const asked = await h.say("forget that I'm allergic");
    expect(asked.text).toMatch(/cats[\s\S]*peanuts|peanuts[\s\S]*cats/);
    expect((await h.say("cancel")).text).toBe("OK, I won't do that.");
    expect((await h.say("what do you remember about me?")).text).toMatch(
      /cats[\s\S]*peanuts|peanuts[\s\S]*cats/,
    );
  });

  it("'forget everything' asks first; yes erases memory, notes and conversation history, tasks stay", async () => {
    h = await harness({ llm: "none" });
    await h.say("I live in Haifa and I prefer tea over coffee");
    await h.say("note: the gate code is 1234");
    await h.say("remind me tomorrow at 9 to call mom");
    await h.longTerm.idle();
    const asked = await h.say("forget everything");
    expect(asked.text).toMatch(
      /^⚠️ This erases everything I remember about you: \d+ remembered things, 1 notes/,
    );

    const erased = await h.say("yes");
    expect(erased.text).toBe(
      "🧹 Done. I've erased my memory of you: remembered things, notes and our conversation history.",
    );
    await h.longTerm.idle();
    const count = async (table: string) =>
      Number(
        (
          await h!.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE user_phone = $1`, [
            PHONE,
          ])
        ).rows[0]!.n,
      );
    expect(await count("memories")).toBe(0);
    expect(await count("notes")).toBe(0);
    // No chunk summarizes anything from before.
    const { rows: chunks } = await h.db.pool.query<{ summary: string }>(
      "SELECT summary FROM conversation_chunks WHERE user_phone = $1",
      [PHONE],
    );
    expect(chunks.map((c) => c.summary).join("")).not.toMatch(/Haifa|tea|gate/);
    // Nothing from before the erasure is left in the history (only this very exchange may follow).
    const { rows } = await h.db.pool.query<{ content: string }>(
      "SELECT content FROM conversation_messages WHERE user_phone = $1",
      [PHONE],
    );
    expect(rows.map((r) => r.content).join(" ")).not.toMatch(/Haifa|gate code|call mom/);
    expect(await count("tasks")).toBe(1);
    expect((await h.say("what do you remember about me?")).text).toMatch(
      /^🧠 I don't have anything remembered/,
    );
  });

  it("'forget everything' answered no erases nothing", async () => {
    h = await harness({ llm: "none" });
    await h.say("note: the gate code is 1234");
    await h.say("forget everything");
    expect((await h.say("no")).text).toBe("OK, I won't do that.");
    expect(await notesOf(h)).toEqual(["the gate code is 1234"]);
  });

  it("isolation: another user's search, memories and forget never reach this user's", async () => {
    h = await harness({ llm: "none" });
    await h.users.getOrCreate(OTHER, { timeZone: ZONE });
    await h.say("note: the wifi password is HappyCat42");
    await h.say("I prefer morning meetings");
    await h.longTerm.idle();

    const other = (text: string) => h!.runtime.invokeMemoGraph(OTHER, text);
    expect((await other("search notes for wifi")).text).toBe("🔎 Nothing in your notes about “wifi”.");
    expect((await other("my notes")).text).toMatch(/^🗂️ You have no notes yet/);
    expect((await other("what do you remember about me?")).text).toMatch(
      /^🧠 I don't have anything remembered/,
    );
    expect((await other("forget that I prefer morning meetings")).text).toMatch(
      /^I don't have anything remembered/,
    );
    await other("forget everything");
    await other("yes");
    expect(await notesOf(h)).toEqual(["the wifi password is HappyCat42"]);
    expect((await h.say("what do you remember about me?")).text).toMatch(/morning meetings/i);
  });
});
