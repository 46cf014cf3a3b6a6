// What Memo adds to a user's words (an image's analysis, the list item "2" names, the message
// replied to) stays in the window beside them, marked as added, and never becomes the user's words
// for long-term memory (D14). A re-plan shows the planner the question it asked with the answer.
import { afterEach, describe, expect, it } from "vitest";
import type { ImageContext } from "../../src/types/index.js";
import { createHarness, isPlanner, PHONE, plan, step, type Harness } from "../support/memoHarness.js";
import { lastUserMessageOf } from "../support/scriptedOpenAI.js";

let h: Harness;
afterEach(async () => h?.close());

const MINUTE = 60_000;

function image(at: number, description: string, text: string): ImageContext {
  return {
    imageId: "media-1",
    imageType: "random",
    extractedAt: at,
    analysisResult: { description, extractedText: text },
  };
}

/** Every planner call answers with one general step; the general resolver's words are queued. */
function answerEverythingInWords(harness: Harness): void {
  harness.server!.on(
    isPlanner,
    plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
  );
}

const plannerPrompts = (harness: Harness) =>
  harness.server!.requests.filter(isPlanner).map((r) => lastUserMessageOf(r)!);

const LANGUAGES = [
  {
    language: "English",
    caption: "what does this postcard say?",
    description: "a postcard",
    text: "I live in Paris",
    second: "who could have sent it?",
    third: "should I answer it?",
    control: "I live in Haifa",
    controlFact: "Lives in Haifa",
    list: "Your notes:\n1. I live in Paris\n2. Dana's birthday is in May",
    pick: "tell me more about 1",
  },
  {
    language: "Hebrew",
    caption: "מה כתוב בגלויה?",
    description: "גלויה",
    text: "אני גר בפריז",
    second: "מי יכול היה לשלוח אותה?",
    third: "כדאי לי לענות לה?",
    control: "אני גר בחיפה",
    controlFact: "גר בחיפה",
    list: "הפתקים שלך:\n1. אני גר בפריז\n2. יום ההולדת של דנה במאי",
    pick: "ספר לי עוד על 1",
  },
];

describe.each(LANGUAGES)("added context in the window ($language)", (c) => {
  it("keeps an image's analysis with the message it came with, two turns later, marked as added", async () => {
    h = await createHarness();
    answerEverythingInWords(h);
    h.server!.enqueue({ text: "It is a postcard." }, { text: "A friend." }, { text: "Yes." });
    const added = `[added by Memo: Recent image (random) — description: ${c.description} | text: ${c.text}]`;

    await h.say(c.caption, { imageContext: image(h.clock.now(), c.description, c.text) });
    expect(plannerPrompts(h)[0]).toContain(`## User message\n${c.caption}\n${added}`);

    h.clock.advance(MINUTE);
    await h.say(c.second);
    // The image is past its 5 minutes: what the planner sees of it now comes from the window.
    h.clock.advance(6 * MINUTE);
    await h.say(c.third);

    const third = plannerPrompts(h)[2]!;
    expect(third).toContain(`user: ${c.caption}\n${added}`);
    expect(third).toContain(`## User message\n${c.third}`);
    expect(third.endsWith(`## User message\n${c.third}`)).toBe(true);
    // Never as something the user said.
    expect(third).not.toMatch(new RegExp(`^user: [^\\n]*${c.text}`, "m"));
    // Kept once, with the message that brought the image, not again with the turn after it.
    const window = h.memory.getRecentMessages(PHONE);
    const withImage = window.filter((m) => m.metadata?.addedContext);
    expect(withImage).toHaveLength(1);
    expect(withImage[0]!.content).toBe(c.caption);
  });

  it("keeps the list item a number named, for later turns", async () => {
    h = await createHarness();
    answerEverythingInWords(h);
    h.server!.enqueue({ text: "Here it is." }, { text: "Sure." });
    await h.memory.load(PHONE);
    await h.memory.addAssistantMessage(PHONE, c.list);
    await h.say(c.pick);
    await h.say(c.second);
    const [, second] = plannerPrompts(h);
    const item = c.list.split("\n")[1]!.slice(3);
    expect(second).toContain(`user: ${c.pick}\n[added by Memo: Item 1 of the list Memo sent: "${item}"]`);
    expect(h.memory.getRecentMessages(PHONE).find((m) => m.role === "user")!.content).toBe(c.pick);
  });

  it("never makes a fact, a summary or history of what Memo added", async () => {
    h = await createHarness({ env: { FAST_PATH: "on" } });
    answerEverythingInWords(h);
    h.server!.enqueue({ text: "A postcard." }, { text: "Here it is." }, { text: "Noted." });
    await h.say(c.caption, { imageContext: image(h.clock.now(), c.description, c.text) });
    await h.memory.load(PHONE);
    await h.memory.addAssistantMessage(PHONE, c.list);
    await h.say(c.pick);
    // What the user does say is remembered: the extraction ran, and read the user's words only.
    await h.say(c.control);
    await h.longTerm.idle();
    expect((await h.longTerm.listFacts(PHONE)).map((f) => f.content)).toEqual([c.controlFact]);

    // Enough turns for those messages to leave the window and be put into a conversation chunk.
    for (let i = 0; i < 12; i++) {
      h.clock.advance(MINUTE);
      await h.say(i % 2 ? "my tasks" : "המשימות שלי");
    }
    await h.longTerm.idle();
    const { rows: summaries } = await h.db.pool.query<{ summary: string }>(
      "SELECT string_agg(summary, E'\\n' ORDER BY chunk_number) AS summary FROM conversation_chunks WHERE user_phone = $1",
      [PHONE],
    );
    expect(summaries[0]?.summary ?? "").toContain(c.control);
    expect(summaries[0]?.summary ?? "").not.toContain(c.text);
    const { rows: history } = await h.db.pool.query<{ role: string; content: string }>(
      "SELECT role, content FROM conversation_messages WHERE user_phone = $1 AND role = 'user' ORDER BY id",
      [PHONE],
    );
    expect(history.slice(0, 3).map((m) => m.content)).toEqual([c.caption, c.pick, c.control]);
    expect((await h.longTerm.listFacts(PHONE)).map((f) => f.content)).toEqual([c.controlFact]);
  });
});

describe("a re-plan shows the planner the question it asked", () => {
  it("English: its own clarification question, then the answer", async () => {
    h = await createHarness();
    h.server!.enqueue(
      plan({
        confidence: 0.4,
        clarificationQuestion: "Should that be a reminder or a calendar event?",
        steps: [step("s1", "general", "answer_question")],
      }),
    );
    expect((await h.say("dentist thursday")).text).toBe("Should that be a reminder or a calendar event?");
    h.server!.enqueue(
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
      { text: "A reminder it is." },
    );
    expect((await h.say("the calendar one")).text).toBe("A reminder it is.");
    const replan = plannerPrompts(h)[1]!;
    expect(replan).toContain(
      "## Memo asked the user to clarify, and they answered\nMemo: Should that be a reminder or a calendar event?\nUser: the calendar one",
    );
    expect(replan).toContain("## User message\ndentist thursday");
  });

  it("Hebrew: the missing-fields question Memo worded itself, then the answer", async () => {
    h = await createHarness();
    h.server!.enqueue(plan({ missingFields: ["time"], steps: [step("s1", "general", "answer_question")] }));
    expect((await h.say("תזכיר לי להתקשר לאמא")).text).toBe("חסר לי עוד קצת מידע: time.");
    h.server!.enqueue(
      plan({ intentType: "conversation", steps: [step("s1", "general", "answer_question")] }),
      { text: "בסדר." },
    );
    await h.say("מחר בתשע");
    expect(plannerPrompts(h)[1]).toContain(
      "## Memo asked the user to clarify, and they answered\nMemo: חסר לי עוד קצת מידע: time.\nUser: מחר בתשע",
    );
  });
});
