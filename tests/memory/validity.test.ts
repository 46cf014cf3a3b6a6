import { afterEach, describe, expect, it } from "vitest";
import { PgMemoryRepository } from "../../src/db/repositories/memoryRepository.js";
import { fakeClock } from "../support/clock.js";
import { createHarness, isPlanner, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { FACTS_PROMPT } from "../../src/prompts/factExtractionPrompt.js";
import { lastUserMessageOf, systemPromptOf } from "../support/scriptedOpenAI.js";

const DAY = 86_400_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Memo in Jerusalem from Monday 2 March 2026, fast path on. */
async function harness(options: Parameters<typeof createHarness>[0] = {}): Promise<Harness> {
  const made = await createHarness({
    clock: fakeClock("2026-03-02T08:00:00Z"),
    ...options,
    env: { FAST_PATH: "on", ...options.env },
  });
  await made.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
  return made;
}

/** Says it, then lets the background memory round finish. */
async function tell(made: Harness, text: string): Promise<void> {
  await made.say(text);
  await made.longTerm.idle();
}

/** Moves the clock to this UTC instant. */
function at(made: Harness, iso: string): void {
  made.clock.advance(Date.parse(iso) - made.clock.now());
}

describe("facts that stop being true (spec 004 temporal validity), without a model", () => {
  it("a move closes the old address, keeps it for the past, and dates the new one in code", async () => {
    h = await harness({ llm: "none" });
    await tell(h, "I live in Tel Aviv");
    // Friday 20 November: "last week" is Sunday 8 – Saturday 14 November in Israel.
    at(h, "2026-11-20T09:00:00Z");
    await tell(h, "I moved to Haifa last week");

    const listed = (await h.say("what do you remember about me?")).text;
    expect(listed).toContain("1. Lives in Haifa _(fact, since the week of 8 Nov 2026)_");
    expect(listed).not.toMatch(/Tel Aviv|last week/);
    expect(listed).toContain('Say "what changed?"');

    const changed = (await h.say("what changed?")).text;
    // Told on 2 March without saying since when: that start is not shown as if it were one.
    expect(changed).toMatch(/No longer true:\n2\. Lives in Tel Aviv _\(fact, until 8 Nov 2026\)_/);

    const march = (await h.say("where did I live in March?")).text;
    expect(march).toBe(
      "🧠 From what you told me, for March 2026:\n1. Lives in Tel Aviv _(fact, until 8 Nov 2026)_",
    );
    const now = (await h.say("where do I live?")).text;
    expect(now).toContain("Lives in Haifa");
    expect(now).not.toContain("Tel Aviv");
    // Never told: said so, nothing made up.
    expect((await h.say("what did I tell you about my car?")).text).toBe(
      "🧠 I don't remember you telling me anything about that.",
    );
  });

  it("said minutes apart: the move last week ends the address said this morning", async () => {
    h = await harness({ llm: "none" });
    at(h, "2026-11-20T07:00:00Z");
    await tell(h, "I live in Tel Aviv");
    h.clock.advance(5 * 60_000);
    await tell(h, "I moved to Haifa last week");
    const listed = (await h.say("what do you remember about me?")).text;
    expect(listed).toContain("1. Lives in Haifa _(fact, since the week of 8 Nov 2026)_");
    expect(listed).not.toContain("Tel Aviv");
    expect((await h.say("what changed?")).text).toContain("2. Lives in Tel Aviv _(fact, until 8 Nov 2026)_");
    expect((await h.say("where did I live in October?")).text).toContain("Lives in Tel Aviv");
    expect((await h.say("where do I live?")).text).not.toContain("Tel Aviv");
  });

  it("two sisters: Noa's address never closes Dana's", async () => {
    h = await harness({ llm: "none" });
    await tell(h, "My sister Dana lives in Haifa");
    await tell(h, "My sister Noa lives in Eilat");
    await tell(h, "I live in Tel Aviv");
    // Asked about oneself: the sisters' addresses are not the answer.
    expect((await h.say("where do I live?")).text).toBe(
      "🧠 From what you told me:\n1. Lives in Tel Aviv _(fact)_",
    );
    const listed = (await h.say("what do you remember about me?")).text;
    expect(listed).toContain("User's sister Dana lives in Haifa");
    expect(listed).toContain("User's sister Noa lives in Eilat");
    expect(listed).toContain("User's sister is Dana");
    expect(listed).toContain("User's sister is Noa");
  });

  it("forgetting the move brings back the address it had ended", async () => {
    h = await harness({ llm: "none" });
    await tell(h, "I live in Tel Aviv");
    at(h, "2026-11-20T09:00:00Z");
    await tell(h, "I moved to Haifa last week");
    expect((await h.say("forget that I moved to Haifa")).text).toMatch(/^🧹 Forgotten: “Lives in Haifa”/);
    const listed = (await h.say("what do you remember about me?")).text;
    expect(listed).toContain("1. Lives in Tel Aviv _(fact)_");
    expect(listed).not.toContain("Haifa");
  });

  it("forgetting the middle of three moves leaves the first ended where the last began", async () => {
    h = await harness({ llm: "none" });
    await tell(h, "I live in Tel Aviv");
    at(h, "2026-05-20T09:00:00Z");
    await tell(h, "I moved to Haifa last week");
    at(h, "2026-08-20T09:00:00Z");
    await tell(h, "I moved to Jerusalem last week");
    await h.say("forget that I moved to Haifa");
    const now = (await h.say("where do I live?")).text;
    expect(now).toContain("Lives in Jerusalem");
    expect(now).not.toContain("Tel Aviv");
    expect((await h.say("where did I live in June?")).text).toContain("Lives in Tel Aviv");
  });

  it("an older state said late ('since 2019' after an undated one) does not end what holds now", async () => {
    h = await harness({ llm: "none" });
    const repo = new PgMemoryRepository(h.db.pool);
    const now = h.clock.now();
    const about = { subject: "user", attribute: "residence" } as const;
    const haifa = await repo.create(PHONE, { type: "fact", content: "Lives in Haifa", ...about }, now);
    const paris = await repo.create(
      PHONE,
      {
        type: "fact",
        content: "Lived in Paris",
        ...about,
        validFrom: Date.UTC(2019, 0, 1),
        precision: "year",
      },
      now + 1000,
    );
    const [stillHaifa] = await repo.getMany(PHONE, [haifa.fact.id]);
    expect(stillHaifa!.validUntil).toBeNull();
    // Paris held until Haifa was told (all that is known of when Haifa began).
    expect(paris.fact.validUntil).toBe(now);
  });

  it("a fact about someone else never closes the user's own", async () => {
    h = await harness({ llm: "none" });
    await tell(h, "I live in Tel Aviv");
    h.clock.advance(3 * DAY);
    await tell(h, "My sister moved to Haifa");
    const listed = (await h.say("what do you remember about me?")).text;
    expect(listed).toContain("Lives in Tel Aviv");
    expect(listed).toContain("User's sister lives in Haifa");
    expect((await h.say("what changed?")).text).toContain("Nothing I remember has changed.");
  });

  it("Hebrew: עברנו לחיפה closes גר בתל אביב, and the past is answered for its month", async () => {
    h = await harness({ llm: "none" });
    await tell(h, "אני גר בתל אביב");
    at(h, "2026-11-20T09:00:00Z");
    await tell(h, "עברנו לחיפה בשבוע שעבר");
    const listed = (await h.say("מה אתה זוכר עליי?")).text;
    expect(listed).toContain("מגורים: חיפה");
    expect(listed).not.toContain("תל אביב");
    await tell(h, "אחותי דנה גרה בירושלים");
    expect((await h.say("מה אתה זוכר על אחותי?")).text).toContain("מגורים של אחותי דנה: בירושלים");
    expect((await h.say("איפה אני גר?")).text).not.toContain("ירושלים");
    const march = (await h.say("איפה גרתי במרץ?")).text;
    expect(march).toMatch(/^🧠 ממה שסיפרת לי, לגבי מרץ 2026:\n1\. גר בתל אביב/);
    expect((await h.say("מה השתנה?")).text).toMatch(/כבר לא נכון:\n\d\. גר בתל אביב/);
    // "תשכח ש…" with the verb as said brings the old address back.
    expect((await h.say("תשכח שעברנו לחיפה")).text).toMatch(/^🧹 שכחתי: “מגורים: חיפה”/);
    expect((await h.say("איפה אני גר?")).text).toContain("גר בתל אביב");
  });

  it("a question about a person finds what is linked to them", async () => {
    h = await harness({ llm: "none" });
    await tell(h, "My sister is Dana");
    await tell(h, "Dana's birthday is May 3");
    await tell(h, "I prefer tea");
    const found = (await h.say("what do you know about my sister?")).text;
    expect(found).toContain("Dana's birthday is May 3");
    expect(found).toContain("User's sister is Dana");
    expect(found).not.toContain("tea");
  });

  it("what was said about a subject last month", async () => {
    h = await harness({ llm: "none" });
    at(h, "2026-10-12T09:00:00Z");
    await tell(h, "We decided the renovation budget is 50000");
    at(h, "2026-11-20T09:00:00Z");
    await tell(h, "I prefer tea");
    const found = (await h.say("what did I say about the budget last month?")).text;
    // Decided: kept as an episode with its day (and as a fact, not said twice).
    expect(found).toBe(
      "🧠 From what you told me, for October 2026:\n1. 12 Oct 2026, you decided: The renovation budget is 50000",
    );
    expect((await h.say("what did I say about the budget in March?")).text).toBe(
      "🧠 I don't remember you telling me anything about that for March 2026.",
    );
  });
});

describe("episodes: what was decided, recalled with its day", () => {
  it("Hebrew: 'מה החלטנו על החופשה?' answers from the episode, citing when", async () => {
    h = await harness({ llm: "none" });
    at(h, "2026-11-12T09:00:00Z");
    await tell(h, "החלטנו לנסוע לאילת בחופשה");
    at(h, "2026-11-20T09:00:00Z");
    const answer = (await h.say("מה החלטנו על החופשה?")).text;
    expect(answer).toMatch(/^🧠 ממה שסיפרת לי:\n1\. 12 בנוב׳ 2026, החלטת: .*אילת/);
    // Said once: the decision is not listed again as a fact.
    expect(answer.split("\n")).toHaveLength(2);
  });

  it("the planner is shown the moments its message speaks of", async () => {
    h = await harness({ memoryMode: "llm" });
    const chat = plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] });
    h.server!.enqueue(chat, { text: "Lovely!" });
    // The memory call (by the model) names the moment; the rules would have found it too.
    h.server!.on((req) => !isPlanner(req) && systemPromptOf(req) === FACTS_PROMPT, {
      json: {
        facts: [],
        episodes: [
          {
            message: 1,
            kind: "decision",
            title: "Go to Eilat for the trip",
            summary: "We decided on Eilat",
            outcome: "",
            participants: [],
            emotionalValence: 0.5,
            significance: 0.7,
          },
        ],
      },
    });
    await tell(h, "we decided to go to Eilat for the trip");
    expect(h.server!.requests.filter((req) => systemPromptOf(req) === FACTS_PROMPT)).toHaveLength(1);
    h.server!.enqueue(chat, { text: "Pack sunscreen." });
    await h.say("any tips for the trip?");
    const context = lastUserMessageOf(h.server!.requests.filter(isPlanner).at(-1)!)!;
    expect(context).toMatch(/### Key moments\n- \(decided, 2 Mar 2026\) Go to Eilat for the trip/);
  });
});

describe("the planner sees only what holds now, each with when it became true", () => {
  it("with the scripted model", async () => {
    h = await harness();
    await tell(h, "I live in Tel Aviv");
    at(h, "2026-11-20T09:00:00Z");
    await tell(h, "I moved to Haifa last week");
    h.server!.enqueue(
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
      {
        text: "Try the Carmel market.",
      },
    );
    await h.say("any tips for groceries near home?");
    const context = lastUserMessageOf(h.server!.requests.filter(isPlanner).at(-1)!)!;
    expect(context).toContain("Lives in Haifa (since the week of 8 Nov 2026)");
    expect(context).not.toContain("Tel Aviv");
  });
});
