// The disambiguation snapshot (spec 000 §5.1, 002 §7.2): choices Memo offered can still be named
// for 5 minutes after their question ended (expired, or left for a new command), through
// invokeMemoGraph with the real tasks capability and storage, the model scripted. A bare "2" or
// "yes" after the question ended keeps spec 001's stale-reply answer. "Now" is Thursday
// 5 March 2026, 12:00 in Asia/Jerusalem.
import { afterEach, describe, expect, it, vi } from "vitest";
import { PgConversationStore } from "../../src/db/repositories/conversationStore.js";
import { PgOutboundMessageRepository } from "../../src/db/repositories/outboundMessageRepository.js";
import { HITL_TTL_MS } from "../../src/types/index.js";
import { createHarness, isPlanner, PHONE, plan, type Harness } from "../support/memoHarness.js";
import { scriptTurn, stores } from "../support/databaseScript.js";

let h: Harness;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
});

const MINUTE = 60_000;

const EN = {
  first: "Bank appointment",
  second: "Dentist appointment",
  query: "appointment",
  ask: "delete the appointment",
  yes: "yes",
  question: "I found several tasks. Which one did you mean?",
  stale: "I'm not waiting on a question right now — what would you like to do?",
  expired: "Your earlier question timed out, so I dropped it.",
  takenAfterExpiry: "Your earlier question had timed out, but I still took your choice from its list.",
  takenWhenLeft: "(I took your choice from my earlier question's list.)",
};
const HE = {
  first: "תור לבנק",
  second: "תור לרופא השיניים",
  query: "תור",
  ask: "תמחק את התור",
  yes: "כן",
  question: "מצאתי כמה משימות. למה התכוונת?",
  stale: "אני לא מחכה לתשובה ממך כרגע — במה אפשר לעזור?",
  expired: "השאלה הקודמת שלי פגה, אז ביטלתי אותה.",
  takenAfterExpiry: "השאלה הקודמת שלי כבר פגה, אבל לקחתי את הבחירה שלך מהרשימה שלה.",
  takenWhenLeft: "(לקחתי את הבחירה שלך מהרשימה של השאלה הקודמת שלי.)",
};
type Words = typeof EN;

/** A harness with the user's two similar tasks (tomorrow 09:00, today 18:00), listed in this order. */
async function withTwoTasks(words: Words, language: "en" | "he") {
  h = await createHarness();
  await h.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem", language });
  const repo = stores(h).taskRepo;
  const first = await repo.create(PHONE, "seed#1", {
    text: words.first,
    timeZone: "Asia/Jerusalem",
    dueAt: "2026-03-06T07:00:00.000Z",
  });
  const second = await repo.create(PHONE, "seed#2", {
    text: words.second,
    timeZone: "Asia/Jerusalem",
    dueAt: "2026-03-05T16:00:00.000Z",
  });
  return { first, second };
}

/** Asks "which one?" for a delete of `words.query`, and records the list as sent (wamid.list). */
async function askWhich(
  words: Words,
  action: "delete_task" | "complete_task" = "delete_task",
  risky = false,
) {
  scriptTurn(
    h,
    action,
    { operation: action === "delete_task" ? "delete" : "complete", text: words.query },
    risky ? { riskLevel: "high" } : {},
  );
  const asked = await h.say(words.ask, { whatsappMessageId: "wamid.ask" });
  expect(asked).toMatchObject({ status: "waiting", question: words.question });
  expect(asked.text).toContain(`1. ${words.first}`);
  expect(asked.text).toContain(`2. ${words.second}`);
  // The sender records the list's WhatsApp id with the message's localId.
  await new PgOutboundMessageRepository(h.db.pool).record({
    waMessageId: "wamid.list",
    phone: PHONE,
    inReplyTo: "wamid.ask",
    kind: "text",
    body: asked.text,
    ...(asked.storedMessageId ? { localId: asked.storedMessageId } : {}),
  });
  return asked;
}

const taskTexts = async () => (await stores(h).tasks()).map((t) => t.text);
const modelCalls = () => h.server!.requests.length;

describe.each([
  ["English", EN, "en" as const, "the second one", "the bank one"],
  ["Hebrew", HE, "he" as const, "השני", "זה של הבנק"],
])("a choice named after its question ended (%s)", (_name, words, language, second, byWords) => {
  it("a quoted choice list answered after its question expired acts on the choice", async () => {
    await withTwoTasks(words, language);
    await askWhich(words);
    h.clock.advance(HITL_TTL_MS + MINUTE);
    const calls = modelCalls();
    const reply = await h.say("2", { replyToMessageId: "wamid.list" });
    expect(reply.text.startsWith(`${words.takenAfterExpiry}\n\n`)).toBe(true);
    expect(reply.text).toContain(words.second);
    expect(await taskTexts()).toEqual([words.first]);
    // The stored step acted: no planner or resolver call.
    expect(modelCalls()).toBe(calls);
    // Used: it is gone, so the same again is a stale "2".
    expect(h.memory.getDisambiguationContext(PHONE)).toBeNull();
  });

  it(`"${second}" after the question expired acts on the second candidate`, async () => {
    await withTwoTasks(words, language);
    await askWhich(words);
    h.clock.advance(HITL_TTL_MS + MINUTE);
    const reply = await h.say(second);
    expect(reply.text.startsWith(words.takenAfterExpiry)).toBe(true);
    expect(await taskTexts()).toEqual([words.first]);
  });

  it(`"${second}" a minute after the question was left for another command acts on it`, async () => {
    await withTwoTasks(words, language);
    await askWhich(words);
    // A new command leaves the question (nothing is done for it).
    scriptTurn(h, "create_task", { operation: "create", text: "pay rent" });
    const left = await h.say("add task pay rent");
    expect(left.status).toBe("completed");
    expect(await taskTexts()).toEqual([words.first, words.second, "pay rent"]);
    h.clock.advance(MINUTE);
    const calls = modelCalls();
    const reply = await h.say(second);
    expect(reply.status).toBe("completed");
    expect(reply.text).toContain(words.second);
    expect(await taskTexts()).toEqual([words.first, "pay rent"]);
    expect(modelCalls()).toBe(calls);
  });

  it(`names a candidate by its words ("${byWords}")`, async () => {
    await withTwoTasks(words, language);
    await askWhich(words);
    h.clock.advance(HITL_TTL_MS + 2 * MINUTE);
    await h.say(byWords);
    expect(await taskTexts()).toEqual([words.second]);
  });

  it('a bare "2" or "yes" after the question ended still gets the stale-reply answer', async () => {
    await withTwoTasks(words, language);
    await askWhich(words);
    h.clock.advance(HITL_TTL_MS + MINUTE);
    expect((await h.say("2")).text).toBe(`${words.expired}\n\n${words.stale}`);
    expect((await h.say(words.yes)).text).toBe(words.stale);
    expect((await h.say("2")).text).toBe(words.stale);
    expect(await taskTexts()).toEqual([words.first, words.second]);
    // The snapshot is still there for a reference that says which: the stale rule only governs bare answers.
    await h.say(second);
    expect(await taskTexts()).toEqual([words.first]);
  });

  it("is gone 5 minutes after the question ended: then the message is an ordinary turn", async () => {
    await withTwoTasks(words, language);
    await askWhich(words);
    h.clock.advance(2 * HITL_TTL_MS);
    h.server!.enqueue(plan({ confidence: 0.3, clarificationQuestion: "What do you mean?" }));
    expect((await h.say(second)).text).toBe(`${words.expired}\n\nWhat do you mean?`);
    expect(await taskTexts()).toEqual([words.first, words.second]);
  });
});

describe("what the snapshot does not take", () => {
  it("words that fit both candidates, or none, are an ordinary turn", async () => {
    await withTwoTasks(EN, "en");
    await askWhich(EN);
    h.clock.advance(HITL_TTL_MS + MINUTE);
    h.server!.on(isPlanner, plan({ confidence: 0.3, clarificationQuestion: "What do you mean?" }));
    expect((await h.say("the appointment one")).text).toBe(`${EN.expired}\n\nWhat do you mean?`);
    expect((await h.say("the plumber one")).text).toBe("What do you mean?");
    expect(await taskTexts()).toEqual([EN.first, EN.second]);
  });

  it("an answered question clears it: a later 'the second one' is an ordinary turn", async () => {
    await withTwoTasks(EN, "en");
    await askWhich(EN);
    expect((await h.say("1")).status).toBe("completed");
    expect(await taskTexts()).toEqual([EN.second]);
    expect(h.memory.getDisambiguationContext(PHONE)).toBeNull();
    h.server!.on(isPlanner, plan({ confidence: 0.3, clarificationQuestion: "What do you mean?" }));
    expect((await h.say("the second one")).text).toBe("What do you mean?");
    expect(await taskTexts()).toEqual([EN.second]);
  });

  it("a candidate gone since gets the not-found reply (as the answer would have)", async () => {
    const { second } = await withTwoTasks(EN, "en");
    await askWhich(EN);
    await stores(h).taskRepo.delete(PHONE, [second.id]);
    h.clock.advance(MINUTE);
    h.clock.advance(HITL_TTL_MS);
    const reply = await h.say("the second one");
    expect(reply.text).toContain(EN.takenAfterExpiry);
    expect(reply.text).toBe(`${EN.takenAfterExpiry}\n\nWhich task do you mean?`);
    expect(await taskTexts()).toEqual([EN.first]);
  });

  it("a risky operation still asks its confirmation before acting on the choice", async () => {
    await withTwoTasks(EN, "en");
    await askWhich(EN, "delete_task", true);
    h.clock.advance(HITL_TTL_MS + MINUTE);
    const asked = await h.say("the second one");
    expect(asked.status).toBe("waiting");
    expect(asked.expectedInput).toBe("yes_no");
    expect(asked.text).toContain(EN.second);
    expect(await taskTexts()).toEqual([EN.first, EN.second]);
    expect((await h.say("yes")).status).toBe("completed");
    expect(await taskTexts()).toEqual([EN.first]);
  });
});

describe.each([
  [
    "English",
    EN,
    "en" as const,
    "the second one",
    "keep the bank appointment",
    "my tasks",
    "What do you mean?",
  ],
  ["Hebrew", HE, "he" as const, "השני", "תשאיר את התור לרופא השיניים", "המשימות שלי", "למה התכוונת?"],
])("what the snapshot does not take (%s)", (_name, words, language, second, negated, listTasks, unclear) => {
  /** The planner's answer to a message the snapshot did not take: a clarification, nothing done. */
  const plannerAsks = () =>
    h.server!.on(isPlanner, plan({ confidence: 0.3, clarificationQuestion: unclear }));

  it(`a reply quoting the list that says more than a name ("${negated}") is no choice`, async () => {
    await withTwoTasks(words, language);
    await askWhich(words);
    h.clock.advance(HITL_TTL_MS + MINUTE);
    plannerAsks();
    const reply = await h.say(negated, { replyToMessageId: "wamid.list" });
    expect(reply.text).toBe(`${words.expired}\n\n${unclear}`);
    expect(await taskTexts()).toEqual([words.first, words.second]);
  });

  it(`a forwarded "${second}" is someone else's words: no choice (D14)`, async () => {
    await withTwoTasks(words, language);
    await askWhich(words);
    h.clock.advance(HITL_TTL_MS + MINUTE);
    plannerAsks();
    expect((await h.say(second, { forwarded: true })).text).toBe(`${words.expired}\n\n${unclear}`);
    expect(await taskTexts()).toEqual([words.first, words.second]);
  });

  it(`"${second}" after Memo sent another numbered list is no choice from the old one`, async () => {
    await withTwoTasks(words, language);
    await askWhich(words);
    // "my tasks" leaves the question; its reply is a numbered list of its own.
    scriptTurn(h, "list_tasks", { operation: "getAll" });
    const listed = await h.say(listTasks);
    expect(listed.text).toMatch(/^\s*1\. /mu);
    h.clock.advance(MINUTE);
    plannerAsks();
    expect((await h.say(second)).text).toBe(unclear);
    expect(await taskTexts()).toEqual([words.first, words.second]);
  });

  it("a choice answered, then its confirmation left unanswered, is made: the list is done", async () => {
    await withTwoTasks(words, language);
    await askWhich(words, "delete_task", true);
    const confirm = await h.say("2");
    expect(confirm.expectedInput).toBe("yes_no");
    h.clock.advance(HITL_TTL_MS + MINUTE);
    expect(h.memory.getDisambiguationContext(PHONE)).toBeNull();
    plannerAsks();
    expect((await h.say("1", { replyToMessageId: "wamid.list" })).text).toBe(
      `${words.expired}\n\n${unclear}`,
    );
    expect(await taskTexts()).toEqual([words.first, words.second]);
  });

  it("a choice taken from the snapshot, then its confirmation left for a command, is made", async () => {
    await withTwoTasks(words, language);
    await askWhich(words, "delete_task", true);
    h.clock.advance(HITL_TTL_MS + MINUTE);
    expect((await h.say(second)).expectedInput).toBe("yes_no");
    scriptTurn(h, "create_task", { operation: "create", text: "pay rent" });
    expect((await h.say("add task pay rent")).status).toBe("completed");
    plannerAsks();
    expect((await h.say("1", { replyToMessageId: "wamid.list" })).text).toBe(unclear);
    expect(await taskTexts()).toEqual([words.first, words.second, "pay rent"]);
  });
});

describe.each([
  ["English", EN, "en" as const],
  ["Hebrew", HE, "he" as const],
])("a message that leaves the question and is a choice from its list (%s)", (_name, base, language) => {
  it("acts on the choice and says so, not that nothing was done", async () => {
    // "my tasks" quoting the list is a command (it leaves the question) and, with these names,
    // the second candidate's name on its own.
    const words = { ...base, first: "Tasks review", second: "My tasks review", query: "review" };
    await withTwoTasks(words, language);
    await askWhich(words);
    const reply = await h.say("my tasks", { replyToMessageId: "wamid.list" });
    expect(reply.text.startsWith(`${words.takenWhenLeft}\n\n`)).toBe(true);
    expect(await taskTexts()).toEqual([words.first]);
  });
});

describe("writes", () => {
  it("the snapshot rides in the question's one window write, recent tasks in the turn's", async () => {
    await withTwoTasks(EN, "en");
    const saves = vi.spyOn(PgConversationStore.prototype, "save");
    await askWhich(EN);
    expect(saves).toHaveBeenCalledTimes(1);
    const saved = saves.mock.calls[0]![1].disambiguation;
    expect(saved?.hitlId).toBe("hitl-1");
    expect(saved?.candidates.map((c) => c.displayText)).toEqual([
      `${EN.first} (tomorrow at 09:00)`,
      `${EN.second} (today at 18:00)`,
    ]);
    expect(saved?.step.action).toBe("delete_task");
    saves.mockClear();
    scriptTurn(h, "create_task", { operation: "create", text: "pay rent", dueDate: "tomorrow at 9" });
    await h.say("add task pay rent");
    expect(saves).toHaveBeenCalledTimes(1);
    const rent = (await stores(h).tasks()).find((t) => t.text === "pay rent")!;
    expect(h.memory.getRecentTasks(PHONE)).toEqual([
      { id: rent.id, text: "pay rent", completed: false, dueDate: "2026-03-06T07:00:00.000Z" },
    ]);
  });
});
