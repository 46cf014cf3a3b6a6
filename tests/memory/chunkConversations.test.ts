// Conversation chunks (spec 004 Layer 2) as a user meets them: what leaves the window is chunked
// ten messages at a time, the planner reads the newest chunk summaries, "forget" reaches them and
// "forget everything" erases them.
import { afterEach, describe, expect, it } from "vitest";
import { CHUNK_SUMMARY_PROMPT } from "../../src/prompts/conversationSummaryPrompt.js";
import { FACTS_PROMPT } from "../../src/prompts/factExtractionPrompt.js";
import { SUMMARY_HEADING } from "../../src/services/memory/memoryContext.js";
import { createHarness, isPlanner, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { lastUserMessageOf, systemPromptOf } from "../support/scriptedOpenAI.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const PLACES = [
  "Rome",
  "Lisbon",
  "Oslo",
  "Prague",
  "Vienna",
  "Madrid",
  "Dublin",
  "Athens",
  "Porto",
  "Bergen",
];
const PLACES_2 = [
  "Krakow",
  "Seville",
  "Lyon",
  "Ghent",
  "Turin",
  "Bruges",
  "Split",
  "Bologna",
  "Tallinn",
  "Riga",
];
/** What the user says at turn i (1-based): a trip, or a command on the fast path. */
const said = (i: number) =>
  i % 2 === 1 ? `I visited ${[...PLACES, ...PLACES_2][(i - 1) / 2]} with my sister last year` : "my tasks";

async function harness(options: Parameters<typeof createHarness>[0] = {}): Promise<Harness> {
  const made = await createHarness({ ...options, env: { FAST_PATH: "on", ...options.env } });
  await made.users.getOrCreate(PHONE, { timeZone: "Asia/Jerusalem" });
  return made;
}

/** The user's chunks, oldest first. */
async function chunksOf(made: Harness): Promise<{ summary: string; message_count: number }[]> {
  const { rows } = await made.db.pool.query<{ summary: string; message_count: number }>(
    "SELECT summary, message_count FROM conversation_chunks WHERE user_phone = $1 ORDER BY chunk_number",
    [PHONE],
  );
  return rows;
}

/** 25 turns, 50 messages: 40 leave the window of 10, four chunks. */
async function fiftyMessages(made: Harness, first = "I prefer morning meetings"): Promise<void> {
  await made.say(first);
  for (let i = 2; i <= 25; i++) {
    await made.say(said(i));
    made.clock.advance(60 * 60_000);
  }
  await made.longTerm.idle();
}

describe("conversation chunks with no language model", () => {
  it("after 50 messages four chunks summarize what left the window; the context shows the newest, dated", async () => {
    h = await harness({ llm: "none" });
    await fiftyMessages(h);
    const chunks = await chunksOf(h);
    expect(chunks.map((c) => c.message_count)).toEqual([10, 10, 10, 10]);
    expect(chunks[0]!.summary).toContain("I prefer morning meetings");
    // Turn 19 said Bergen: messages 37–38, the fourth chunk. Turn 21 (message 41) is still in the window.
    expect(chunks[3]!.summary).toContain("I visited Bergen");
    expect(chunks.map((c) => c.summary).join("\n")).not.toContain("Krakow");

    const context = (await h.longTerm.contextFor(PHONE, "where did I travel?")).text!;
    expect(context).toContain(SUMMARY_HEADING);
    // Oldest to newest, each with its local dates; the first turn (5 Mar, 12:00 in Jerusalem) on.
    expect(context).toMatch(/^\(5 Mar 2026\) - 2026-03-05: "I prefer morning meetings"$/m);
    expect(context).toMatch(/^\(6 Mar 2026\) - 2026-03-06: "I visited Porto[^]*"I visited Bergen/m);
    expect(context.indexOf("Prague")).toBeLessThan(context.indexOf("Porto"));
  });

  it("'forget that…' rewrites the chunk that speaks of it; 'forget everything' erases the chunks", async () => {
    h = await harness({ llm: "none" });
    await fiftyMessages(h);
    expect((await chunksOf(h))[0]!.summary).toContain("morning meetings");

    expect((await h.say("forget that I prefer morning meetings")).text).toMatch(/^🧹 Forgotten/);
    await h.longTerm.idle();
    const chunks = await chunksOf(h);
    expect(chunks).toHaveLength(4);
    expect(chunks.map((c) => c.summary).join("\n")).not.toMatch(/morning/i);
    // The rest of that chunk stays.
    expect(chunks[0]!.summary).toContain("I visited Lisbon");

    expect((await h.say("forget everything")).text).toMatch(/^⚠️/);
    await h.say("yes");
    await h.longTerm.idle();
    expect(await chunksOf(h)).toEqual([]);
    expect((await h.longTerm.counts(PHONE)).hasSummary).toBe(false);
  });
});

describe("conversation chunks in the planner's request (scripted LLM)", () => {
  it("after 50 messages the planner reads the newest chunk summaries (chunks by rules)", async () => {
    h = await harness();
    await fiftyMessages(h, "I visited Rome with my sister last year");
    h.server!.enqueue(
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
      {
        text: "Bergen, in the spring.",
      },
    );
    await h.say("which cities did I visit lately?");
    const context = lastUserMessageOf(h.server!.requests.filter(isPlanner).at(-1)!)!;
    expect(context).toContain(SUMMARY_HEADING);
    expect(context).toContain('"I visited Bergen with my sister last year"');
    expect(context).toMatch(/\(\d{1,2}(–\d{1,2})? Mar 2026\)/);
    // What is still in the window is there verbatim, not summarized again.
    const summaries = context.slice(context.indexOf(SUMMARY_HEADING)).split("\n### ")[0]!;
    expect(summaries).not.toContain("Krakow");
  });

  it("chunks by the model: one 'memory' call per chunk, its summary in the planner's request", async () => {
    h = await harness({ memoryMode: "llm" });
    let chunkCalls = 0;
    h.server!.on(
      (req) => systemPromptOf(req) === CHUNK_SUMMARY_PROMPT,
      () => ({ json: { summary: `- Trip stories, part ${++chunkCalls}`, topics: ["travel", "sister"] } }),
    );
    h.server!.on((req) => systemPromptOf(req) === FACTS_PROMPT, { json: { facts: [] } });
    await fiftyMessages(h, "I visited Rome with my sister last year");
    expect(chunkCalls).toBe(4);
    expect((await chunksOf(h)).map((c) => c.summary)).toEqual(
      [1, 2, 3, 4].map((n) => `- Trip stories, part ${n}`),
    );

    h.server!.enqueue(
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
      {
        text: "Rome and Bergen.",
      },
    );
    await h.say("which cities did I visit lately?");
    const context = lastUserMessageOf(h.server!.requests.filter(isPlanner).at(-1)!)!;
    expect(context).toMatch(/\(\d{1,2}(–\d{1,2})? Mar 2026\) - Trip stories, part 4/);
    expect(context.indexOf("part 3")).toBeLessThan(context.indexOf("part 4"));
  });
});
