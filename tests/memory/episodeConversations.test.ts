// Episodes through whole conversations: what the user tells Memo becomes a dated moment it can
// tell again, by rules with no model and by the one "memory" call with one; tasks completed in a
// turn become moments too; "forget everything" erases them.
import { afterEach, describe, expect, it } from "vitest";
import { FACTS_PROMPT } from "../../src/prompts/factExtractionPrompt.js";
import { formatEpisodes } from "../../src/services/memory/episodes.js";
import { createHarness, isPlanner, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { lastUserMessageOf, systemPromptOf } from "../support/scriptedOpenAI.js";

const ZONE = "Asia/Jerusalem";
const DAY = 24 * 60 * 60 * 1000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function harness(options: Parameters<typeof createHarness>[0] = {}): Promise<Harness> {
  const made = await createHarness({ ...options, env: { FAST_PATH: "on", ...options.env } });
  await made.users.getOrCreate(PHONE, { timeZone: ZONE });
  return made;
}

const episodeCount = async (made: Harness) =>
  Number(
    (
      await made.db.pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM memory_episodes WHERE user_phone = $1",
        [PHONE],
      )
    ).rows[0]!.n,
  );

describe("episodes in a conversation", () => {
  it("no model: 'we decided to go to Eilat for the trip' is recalled with its date; a question is no episode", async () => {
    h = await harness({ llm: "none" });
    const said = h.clock.now();
    await h.say("we decided to go to Eilat for the trip");
    await h.say("what did we decide about the trip?");
    await h.longTerm.idle();

    const found = await h.longTerm.recallEpisodes(PHONE, "what did we decide about the trip?");
    expect(found.map((e) => [e.kind, e.title])).toEqual([["decision", "Go to Eilat for the trip"]]);
    expect(found[0]!.occurredAt).toBe(said);
    h.clock.advance(3 * DAY);
    expect(formatEpisodes(found, "en", h.clock.now(), ZONE)).toEqual([
      "Thu 05/03 at 12:00, you decided: Go to Eilat for the trip",
    ]);
    expect(await episodeCount(h)).toBe(1);

    // "forget everything" erases them with the rest.
    await h.say("forget everything");
    await h.say("yes");
    await h.longTerm.idle();
    expect(await episodeCount(h)).toBe(0);
  });

  it("no model: a task completed in a turn becomes a task_completed episode, in the background", async () => {
    h = await harness({ llm: "none" });
    await h.say("add task renew the passport");
    await h.say("my tasks");
    expect((await h.say("done 1")).text).toBe("✅ Done: *renew the passport*");
    await h.longTerm.idle();
    const found = await h.longTerm.recallEpisodes(PHONE, "passport");
    expect(found.map((e) => [e.kind, e.title])).toEqual([["task_completed", "Renew the passport"]]);
    // From the message of that turn.
    const { rows } = await h.db.pool.query<{ content: string }>(
      "SELECT content FROM conversation_messages WHERE id = $1",
      [found[0]!.turnStart],
    );
    expect(rows[0]!.content).toBe("done 1");
  });

  it("with a model: the same memory call answers the facts and the episodes", async () => {
    h = await harness({ memoryMode: "llm" });
    h.server!.on(
      isPlanner,
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
    );
    h.server!.on((req) => systemPromptOf(req) === FACTS_PROMPT, {
      json: {
        facts: [
          {
            message: 1,
            type: "decision",
            content: "Chose the Galilee over Eilat",
            importance: 0.7,
            subject: "user",
            attribute: "trip destination",
            people: [],
            since: "",
            replaces: [],
          },
        ],
        episodes: [
          {
            message: 1,
            kind: "pivot",
            title: "The Galilee instead of Eilat",
            summary: "Changed the trip from Eilat to the Galilee with Dana",
            outcome: "",
            participants: ["Dana"],
            emotionalValence: 0.2,
            significance: 0.75,
          },
        ],
      },
    });
    h.server!.on(() => true, { text: "Sounds lovely!" });
    await h.say("Dana and I talked it over and it's the Galilee this time, not Eilat");
    await h.longTerm.idle();

    const memoryCalls = h.server!.requests.filter((req) => systemPromptOf(req) === FACTS_PROMPT);
    expect(memoryCalls).toHaveLength(1);
    expect(lastUserMessageOf(memoryCalls[0]!)).toContain("it's the Galilee this time");
    const found = await h.longTerm.recallEpisodes(PHONE, "Galilee");
    expect(found.map((e) => [e.kind, e.title, e.participants])).toEqual([
      ["pivot", "The Galilee instead of Eilat", ["user", "Dana"]],
    ]);
    expect(found[0]!.significance).toBeCloseTo(0.75, 5);
    expect((await h.longTerm.listFacts(PHONE)).map((f) => f.content)).toEqual([
      "Chose the Galilee over Eilat",
    ]);
  });
});
