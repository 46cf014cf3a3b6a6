import { describe, expect, it } from "vitest";
import type { HistoryMessage } from "../../src/db/repositories/conversationHistory.js";
import type { Fact } from "../../src/db/repositories/memoryRepository.js";
import type { ScoredFact } from "../../src/services/memory/memoryContext.js";
import { calculateDecay, contradicts } from "../../src/db/repositories/memoryRepository.js";
import { extractFactsByRules, factsFromAnswer } from "../../src/services/memory/factExtraction.js";
import { estimateTokens } from "../../src/services/memory/limits.js";
import type { ChunkSummary } from "../../src/db/repositories/chunkRepository.js";
import {
  CONTEXT_FACT_TOKENS,
  FACTS_HEADING,
  SUMMARY_HEADING,
  chunkDates,
  formatMemoryContext,
} from "../../src/services/memory/memoryContext.js";
import {
  echoesFact,
  isMemoryCommand,
  isNegated,
  isNoteCommand,
  mentionsFact,
  sentencesOf,
  withoutNegation,
  withoutNoteCommand,
} from "../../src/utils/memoryText.js";
import {
  extractiveLines,
  extractiveSummary,
  fitSummary,
  keyTopicsOf,
  mergedSummary,
  mergedTopics,
  summarizable,
} from "../../src/services/memory/summary.js";

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse("2026-03-01T09:00:00Z");

let nextId = 1;
function message(content: string, role: HistoryMessage["role"] = "user", createdAt = T0): HistoryMessage {
  return { id: nextId++, role, content, whatsappMessageId: null, createdAt };
}

const extract = (text: string) => extractFactsByRules(message(text)).map((f) => `${f.type}: ${f.content}`);

describe("fact extraction by rules", () => {
  it.each([
    ["I prefer morning meetings", "preference: Prefers morning meetings"],
    ["I really like jazz.", "preference: Likes jazz"],
    ["I don't like cilantro", "preference: Doesn't like cilantro"],
    ["I hate flying", "preference: Hates flying"],
    ["Keep in mind that I prefer tea over coffee", "preference: Prefers tea over coffee"],
    ["By the way, I love sushi", "preference: Loves sushi"],
    ["My favorite color is green", "preference: Favorite color is green"],
    ["I decided to move to Haifa in June", "decision: Decided to move to Haifa in June"],
    ["We went with the blue sofa", "decision: Went with the blue sofa"],
    ["I've decided to quit sugar", "decision: Decided to quit sugar"],
    ["I'm allergic to peanuts", "constraint: Allergic to peanuts"],
    ["I am vegetarian", "constraint: Is vegetarian"],
    ["I can't meet on Fridays", "constraint: Can't meet on Fridays"],
    ["My goal is to run a marathon", "goal: Aims to run a marathon"],
    ["I plan to learn Spanish this year", "goal: Plans to learn Spanish this year"],
    ["My wife is Dana", "entity: User's wife is Dana"],
    ["Dana is my wife", "entity: Dana is the user's wife"],
    ["My birthday is May 3", "fact: User's birthday is May 3"],
    ["I work at Acme as a designer", "fact: Works at Acme as a designer"],
    ["I live in Tel Aviv", "fact: Lives in Tel Aviv"],
    ["My dentist is Dr. Cohen", "entity: User's dentist is Dr. Cohen"],
    ["My lawyer is Mrs. J. Levi.", "entity: User's lawyer is Mrs. J. Levi"],
    ["Hi Memo! I prefer morning meetings. Thanks", "preference: Prefers morning meetings"],
    ["אני מעדיף פגישות בבוקר", "preference: מעדיף פגישות בבוקר"],
    ["אני מעדיפה פגישות בבוקר", "preference: מעדיפה פגישות בבוקר"],
    ["אני לא אוהב כוסברה", "preference: לא אוהב כוסברה"],
    ["אגב, אני אוהב קפה שחור", "preference: אוהב קפה שחור"],
    ["לידיעתך, אני מעדיף תה", "preference: מעדיף תה"],
    ["החלטתי לעבור לחיפה", "decision: החלטה: לעבור לחיפה"],
    ["אני אלרגי לבוטנים", "constraint: אלרגי לבוטנים"],
    ["יש לי אלרגיה לאגוזים", "constraint: אלרגיה לאגוזים"],
    ["אסור לי סוכר", "constraint: אסור: סוכר"],
    ["אני צמחונית", "constraint: צמחונית"],
    ["המטרה שלי היא לרוץ מרתון", "goal: מטרה: לרוץ מרתון"],
    ["אני גר בתל אביב", "fact: גר בתל אביב"],
    ["אני עובדת בגוגל", "fact: עובדת בגוגל"],
    ["קוראים לי דנה", "fact: שם: דנה"],
    ["הבוס שלי הוא יוסי", "entity: בוס: יוסי"],
  ])("%s → %s", (text, expected) => {
    expect(extract(text)).toEqual([expected]);
  });

  it.each([
    // Questions.
    "What do I prefer?",
    "Do you like jazz?",
    "מה אני מעדיף?",
    // Requests to Memo, however they start.
    "Remind me to call mom tomorrow",
    "Can you remind me that I prefer tea?",
    "I want you to remind me about the dentist",
    "I want to add a task",
    "I need to buy milk",
    "תזכיר לי להתקשר לאמא",
    "אני רוצה שתזכיר לי",
    "אני צריך לקנות חלב",
    // Small talk and one-off states.
    "thanks!",
    "ok",
    "תודה",
    "בוקר טוב",
    "I have a meeting at 5",
    // Requests about memory itself.
    "forget that I prefer morning meetings",
    "תשכח שאני מעדיף פגישות בבוקר",
    // Note commands: the second brain keeps them as notes (they may hold secrets).
    "note: my bank PIN is 4412",
    "Note to self: I love jazz",
    "remember that I prefer tea over coffee",
    "Please save a note that I'm allergic to peanuts",
    "פתק: הקוד של השער הוא 1234",
    "תרשום שאני אוהב קפה",
    "תזכור שאני מעדיף תה",
  ])("finds nothing in %s", (text) => {
    expect(extract(text)).toEqual([]);
  });

  it("gives each fact its type's default importance and its message", () => {
    const source = message("I'm allergic to peanuts. My goal is to run a marathon");
    expect(extractFactsByRules(source)).toEqual([
      { type: "constraint", content: "Allergic to peanuts", importance: 0.6, sourceMessageId: source.id },
      { type: "goal", content: "Aims to run a marathon", importance: 0.8, sourceMessageId: source.id },
    ]);
  });

  it("maps the LLM's message numbers back to messages and drops unknown ones", () => {
    const messages = [message("I prefer tea"), message("I live in Haifa")];
    const facts = factsFromAnswer(
      {
        facts: [
          { message: 2, type: "fact", content: "Lives in Haifa", importance: 0.5, ...about("residence") },
          { message: 7, type: "fact", content: "Invented", importance: 0.5, ...about("") },
          { message: 1, type: "preference", content: "Prefers tea", importance: 3, ...about("") },
        ],
      },
      messages,
    );
    expect(facts).toEqual([
      {
        type: "fact",
        content: "Lives in Haifa",
        importance: 0.5,
        sourceMessageId: messages[1]!.id,
        subject: "user",
        attribute: "residence",
      },
      {
        type: "preference",
        content: "Prefers tea",
        importance: 1,
        sourceMessageId: messages[0]!.id,
        subject: "user",
      },
    ]);
  });
});

/** The fields the extraction model gives beside the fact: about the user, no time, nothing replaced. */
function about(attribute: string) {
  return { subject: "user", attribute, people: [], since: "", replaces: [] };
}

describe("what a fact is about, and since when (rules)", () => {
  const about = (text: string, createdAt = T0) =>
    extractFactsByRules(message(text, "user", createdAt), "Asia/Jerusalem").map((f) => ({
      content: f.content,
      subject: f.subject,
      attribute: f.attribute,
      people: f.people,
    }));

  it("names subject, attribute and people, in English and Hebrew", () => {
    expect(about("I live in Tel Aviv")).toEqual([
      { content: "Lives in Tel Aviv", subject: "user", attribute: "residence", people: undefined },
    ]);
    expect(about("My sister Dana lives in Haifa")).toEqual([
      {
        content: "User's sister Dana lives in Haifa",
        subject: "dana",
        attribute: "residence",
        people: ["sister", "dana"],
      },
      {
        content: "User's sister is Dana",
        subject: "sister",
        attribute: undefined,
        people: ["sister", "dana"],
      },
    ]);
    expect(about("My kids are Tom and Noa")[0]!.content).toBe("User's kids are Tom and Noa");
    expect(about("אחותי דנה גרה בחיפה")[0]).toMatchObject({ subject: "דנה", attribute: "residence" });
    expect(about("אני גר בתל אביב")[0]).toMatchObject({ subject: "user", attribute: "residence" });
  });

  it("dates a change said with its time, and leaves the time words out", () => {
    const [moved] = extractFactsByRules(message("I moved to Haifa last week"), "Asia/Jerusalem");
    expect(moved).toMatchObject({ content: "Lives in Haifa", precision: "week" });
    expect(moved!.validFrom).toBeLessThan(T0);
    // Vague: no date, the words stay the user's.
    const [recent] = extractFactsByRules(message("I recently moved to Haifa"), "Asia/Jerusalem");
    expect(recent!.validFrom).toBeUndefined();
    // "in May" beside no word of change is what the fact says, not when it began.
    const [birthday] = extractFactsByRules(message("Dana's birthday is in May"), "Asia/Jerusalem");
    expect(birthday).toMatchObject({ content: "Dana's birthday is in May" });
    expect(birthday!.validFrom).toBeUndefined();
  });
});

describe("memory commands", () => {
  it.each([
    ["forget that I prefer morning meetings", true],
    ["please forget everything", true],
    ["what do you remember about me?", true],
    ["תשכח שאני מעדיף פגישות בבוקר", true],
    ["מה אתה זוכר עליי?", true],
    ["I forgot my keys", false],
    ["remind me to buy milk", false],
  ])("%s → %s", (text, expected) => {
    expect(isMemoryCommand(text)).toBe(expected);
  });

  it("leaves a memory request and Memo's answer to it out of what is summarized", () => {
    const kept = summarizable([
      message("I prefer tea"),
      message("Noted", "assistant"),
      message("forget that I prefer tea"),
      message("Done: I forgot that you prefer tea", "assistant"),
      message("I live in Haifa"),
    ]);
    expect(kept.map((m) => m.content)).toEqual(["I prefer tea", "Noted", "I live in Haifa"]);
  });
});

describe("extractive summary", () => {
  it("keeps the user's informative sentences, dated in their zone, and nothing else", () => {
    const lines = extractiveLines(
      [
        message("Hi!", "user", T0),
        message("Hello! How can I help?", "assistant", T0),
        message("Remind me to call mom at 5", "user", T0),
        message("What's on my calendar tomorrow?", "user", T0),
        // 22:30 UTC is 00:30 the next day in Jerusalem.
        message("Thanks. I prefer morning meetings.", "user", Date.parse("2026-03-01T22:30:00Z")),
        message("ok", "user", T0),
      ],
      "Asia/Jerusalem",
    );
    expect(lines).toEqual(['- 2026-03-02: "I prefer morning meetings."']);
  });

  it("keeps the newest lines within the budget, a repeated sentence once", () => {
    const older = Array.from(
      { length: 60 },
      (_, i) => `- 2026-01-01: "Sentence number ${i} about the garden"`,
    );
    const summary = extractiveSummary(older.join("\n"), [
      '- 2026-03-01: "Sentence number 59 about the garden"',
      '- 2026-03-01: "I prefer morning meetings"',
    ]);
    expect(estimateTokens(summary)).toBeLessThanOrEqual(90);
    const lines = summary.split("\n");
    expect(lines.at(-1)).toBe('- 2026-03-01: "I prefer morning meetings"');
    expect(lines.at(-2)).toBe('- 2026-03-01: "Sentence number 59 about the garden"');
    expect(summary).not.toContain('2026-01-01: "Sentence number 59');
    expect(summary).not.toContain('"Sentence number 0 ');
  });

  it("fits a long summary to the budget by keeping its newest part", () => {
    const prose = Array.from({ length: 80 }, (_, i) => `Fact ${i} is here.`).join(" ");
    const fitted = fitSummary(prose, 50);
    expect(estimateTokens(fitted)).toBeLessThanOrEqual(50);
    expect(fitted.startsWith("…")).toBe(true);
    expect(fitted.endsWith("Fact 79 is here.")).toBe(true);
    expect(fitSummary("short", 50)).toBe("short");
  });
});

describe("note commands", () => {
  it.each([
    ["note: my bank PIN is 4412", "my bank PIN is 4412"],
    ["Note to self buy milk", "buy milk"],
    ["remember that I'm allergic to peanuts", "I'm allergic to peanuts"],
    ["save a note: the gate code is 1234", "the gate code is 1234"],
    ["פתק: הקוד 1234", "הקוד 1234"],
    ["תזכור שאני מעדיף תה", "אני מעדיף תה"],
  ])("%s keeps %s", (text, kept) => {
    expect(isNoteCommand(text)).toBe(true);
    expect(withoutNoteCommand(text)).toBe(kept);
  });

  it.each(["Remember I like tea", "My notebook is red", "I noted it", "תזכורת מחר", "I like notes"])(
    "%s is not one",
    (text) => {
      expect(isNoteCommand(text)).toBe(false);
      expect(withoutNoteCommand(text)).toBe(text);
    },
  );
});

describe("sentences", () => {
  it("do not end at an abbreviation or an initial, and always end at a line break", () => {
    expect(sentencesOf("My dentist is Dr. Cohen. I live in Haifa")).toEqual([
      "My dentist is Dr. Cohen.",
      "I live in Haifa",
    ]);
    expect(
      sentencesOf("I like fruit, e.g. apples! J. K. Rowling wrote it... Next.\nMr.\nSt. Louis i.e. home"),
    ).toEqual([
      "I like fruit, e.g. apples!",
      "J. K. Rowling wrote it...",
      "Next.",
      "Mr.",
      "St. Louis i.e. home",
    ]);
  });
});

describe("negation", () => {
  it.each([
    ["Can't meet on Fridays", true, "can meet on fridays"],
    ["Doesn't like coffee", true, "like coffee"],
    ["I never drink coffee at night", true, "i drink coffee at night"],
    ["I have no kids", true, "i have kids"],
    ["I cannot fly", true, "i can fly"],
    ["לא אוהב קפה", true, "אוהב קפה"],
    ["אין לי רכב", true, "לי רכב"],
    ["אף פעם לא שותה קפה", true, "שותה קפה"],
    ["קפה בלי סוכר", true, "קפה סוכר"],
    ["Likes coffee", false, "likes coffee"],
    ["Knows Dana", false, "knows dana"],
  ])("%s → %s, %s", (text, negated, without) => {
    expect(isNegated(text)).toBe(negated);
    expect(withoutNegation(text)).toBe(without);
  });

  it("tells a statement taken back from a near-identical one", () => {
    expect(contradicts("Can't meet on Fridays", "Can meet on Fridays")).toBe(true);
    expect(contradicts("Doesn't like coffee", "Likes coffee")).toBe(true);
    expect(contradicts("לא אוהב קפה", "אוהב קפה")).toBe(true);
    expect(contradicts("Prefers morning meetings", "Prefers meetings in the morning")).toBe(false);
    expect(contradicts("Can't meet on Fridays", "Can't meet on Fridays")).toBe(false);
    expect(contradicts("Doesn't like coffee", "Likes jazz")).toBe(false);
  });
});

describe("echoesFact", () => {
  it("sees Memo's replies repeating a fact, not replies merely naming its words", () => {
    const meetings = "Prefers morning meetings";
    expect(echoesFact("📝 Noted: “I prefer morning meetings”", meetings)).toBe(true);
    expect(echoesFact("Got it, you prefer morning meetings", meetings)).toBe(true);
    expect(echoesFact("Your morning meetings with Dan are at 9.", meetings)).toBe(false);
    expect(echoesFact("Noted, mornings it is.", meetings)).toBe(false);
    expect(echoesFact("Done.", meetings)).toBe(false);

    expect(echoesFact("📝 Noted: “I'm allergic to peanuts”", "Allergic to peanuts")).toBe(true);
    expect(echoesFact("Added peanuts to the shopping list for Dan", "Allergic to peanuts")).toBe(false);
    expect(echoesFact("📝 רשמתי: „אני אלרגי לבוטנים”", "אלרגי לבוטנים")).toBe(true);
    expect(echoesFact("Got it, you don't like coffee", "Likes coffee")).toBe(false);
    expect(echoesFact("Got it, you don't like coffee", "Doesn't like coffee")).toBe(true);
    expect(echoesFact("Got it, your wife is Dana", "User's wife is Dana")).toBe(true);
    expect(echoesFact("Sent the invite to Dana", "User's wife is Dana")).toBe(false);
    // A fact of one word is echoed only by a short sentence.
    expect(echoesFact("Got it, you're vegetarian", "Is vegetarian")).toBe(true);
    expect(echoesFact('task "book the vegetarian place for Friday"', "Is vegetarian")).toBe(false);
  });
});

describe("mentionsFact", () => {
  it("sees a fact's distinctive words in one line, in any form", () => {
    expect(mentionsFact('- 2026-03-01: "I prefer morning meetings"', "Prefers morning meetings")).toBe(true);
    expect(mentionsFact("The user likes meetings in the morning.", "Prefers morning meetings")).toBe(true);
    expect(mentionsFact("- morning run\n- team meetings on Sunday", "Prefers morning meetings")).toBe(false);
    expect(mentionsFact("המשתמש מעדיף פגישות בבוקר", "מעדיף פגישות בבוקר")).toBe(true);
    expect(mentionsFact("- Lives in Haifa", "Prefers morning meetings")).toBe(false);
  });
});

function scored(n: number, content: string, type: Fact["type"] = "fact"): ScoredFact {
  return {
    fact: {
      id: `f${n}`,
      type,
      content,
      importance: 0.5,
      accessCount: 0,
      lastAccessedAt: T0,
      decayFactor: 1,
      status: "active",
      sourceMessageId: null,
      createdAt: T0,
      updatedAt: T0,
      searchText: content.toLowerCase(),
      validFrom: T0,
      precision: "instant",
      validUntil: null,
      subject: null,
      attribute: null,
      relationships: [],
      people: [],
    },
    score: 1 - n / 100,
    relevance: 0,
  };
}

/** T0's day in UTC, as the planner's context dates a fact ("5 Mar 2026"). */
const T0_DAY = (() => {
  const d = new Date(T0);
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
})();

describe("conversation chunks (rules)", () => {
  it("takes as key topics the content words said most over the chunk, deduplicated", () => {
    const topics = keyTopicsOf([
      message("We are planning the trip to Rome in May", "user", T0),
      message("Noted the Rome trip.", "assistant", T0),
      message("Book a hotel in Rome near the station", "user", T0),
      message("Which hotel do you like?", "assistant", T0),
      message("The cheap hotel, and remind me about the trip", "user", T0),
    ]);
    expect(topics.slice(0, 3)).toEqual(["trip", "rome", "hotel"]);
    expect(topics.length).toBeLessThanOrEqual(5);
    expect(new Set(topics).size).toBe(topics.length);
    expect(topics).not.toContain("the");
  });

  it("merges two summaries as 'Earlier: … Then: …' within 200 tokens, topics once each", () => {
    expect(mergedSummary("- Likes tea", "- Moved to Haifa")).toBe(
      "Earlier: - Likes tea\n\nThen: - Moved to Haifa",
    );
    // A merged summary merged again is labelled once, and stays within the cap, newest kept.
    const long = Array.from({ length: 40 }, (_, i) => `- Line ${i} of what was said`).join("\n");
    const twice = mergedSummary(mergedSummary(long, long), "- The newest thing");
    expect(twice.startsWith("Earlier: ")).toBe(true);
    expect(twice).not.toContain("Earlier: Earlier");
    expect(twice.endsWith("Then: - The newest thing")).toBe(true);
    expect(estimateTokens(twice)).toBeLessThanOrEqual(200);
    expect(mergedTopics(["rome", "trip"], ["Trip", "hotel"])).toEqual(["rome", "trip", "hotel"]);
  });

  it("dates a chunk in the user's zone, as short as the range allows", () => {
    const nov = (day: number, hour = 10) => Date.UTC(2026, 10, day, hour);
    expect(chunkDates(nov(12), nov(14), "Asia/Jerusalem")).toBe("(12–14 Nov 2026)");
    expect(chunkDates(nov(12), nov(12, 12), "UTC")).toBe("(12 Nov 2026)");
    // 22:30 UTC on 30 Nov is 1 Dec in Jerusalem.
    expect(chunkDates(nov(28), Date.UTC(2026, 10, 30, 22, 30), "Asia/Jerusalem")).toBe("(28 Nov–1 Dec 2026)");
  });
});

/** A chunk summary as `loadTurn` reads it, on day `day` of November 2026. */
function chunk(day: number, summary: string): ChunkSummary {
  return {
    summary,
    startedAt: Date.UTC(2026, 10, day, 9),
    endedAt: Date.UTC(2026, 10, day, 18),
    timeZone: "UTC",
  };
}

describe("the planner's memory context", () => {
  it("holds many chunks and many facts within the long-term budget, facts at most 40%", () => {
    // Newest first, as loadTurn reads them.
    const chunks = Array.from({ length: 10 }, (_, i) =>
      chunk(
        20 - i,
        `- Chunk ${20 - i}: talked about the garden, the boat and the new kitchen tiles.\n- Then about the trip to Rome in May, the hotel near the station and the cheap flights`,
      ),
    );
    const facts = Array.from({ length: 30 }, (_, i) => scored(i, `Fact number ${i} with some words in it`));
    const context = formatMemoryContext(chunks, facts);
    const [summarySection, factsSection] = context.text!.split("\n\n");
    expect(summarySection!.startsWith(`${SUMMARY_HEADING}\n`)).toBe(true);
    const chunkLines = summarySection!.split("\n").slice(1);
    // The newest chunks, shown oldest to newest with their dates.
    expect(chunkLines.at(-1)).toBe(
      "- Then about the trip to Rome in May, the hotel near the station and the cheap flights",
    );
    expect(chunkLines.at(-2)).toBe(
      "(20 Nov 2026) - Chunk 20: talked about the garden, the boat and the new kitchen tiles.",
    );
    expect(chunkLines[0]).toMatch(/^\(\d+ Nov 2026\) - Chunk \d+/);
    const days = chunkLines
      .filter((line) => line.startsWith("("))
      .map((line) => Number(/Chunk (\d+)/.exec(line)![1]));
    expect(days).toEqual([...days].sort((a, b) => a - b));
    expect(days.length).toBeLessThan(10);
    expect(
      estimateTokens(context.text!.replace(`${SUMMARY_HEADING}\n`, "").replace(`${FACTS_HEADING}\n`, "")),
    ).toBeLessThanOrEqual(500);
    const factLines = factsSection!.split("\n").slice(1);
    expect(factsSection!.startsWith(FACTS_HEADING)).toBe(true);
    expect(factLines.length).toBeLessThanOrEqual(6);
    expect(factLines.reduce((sum, line) => sum + estimateTokens(line), 0)).toBeLessThanOrEqual(
      CONTEXT_FACT_TOKENS,
    );
    expect(factLines[0]).toBe(`- (fact) Fact number 0 with some words in it (since ${T0_DAY})`);
    expect(context.factIds).toEqual(factLines.map((_, i) => `f${i}`));
  });

  it("skips a fact too long for what is left and shows the shorter ones after it", () => {
    const facts = [
      scored(0, "x".repeat(600)),
      scored(1, "y".repeat(200)),
      scored(2, "Prefers tea", "preference"),
    ];
    const context = formatMemoryContext([], facts);
    expect(context.factIds).toEqual(["f0", "f2"]);
    expect(context.text).toContain("- (preference) Prefers tea");
    expect(context.text).not.toContain(SUMMARY_HEADING);
  });

  it("gives the chunks what the facts leave, and cuts a newest chunk too long alone", () => {
    const few = formatMemoryContext([chunk(3, "- Short"), chunk(2, "x ".repeat(1000).trim())], []);
    expect(few.text).toContain("(3 Nov 2026) - Short");
    expect(few.text).not.toContain("(2 Nov 2026)");
    const long = formatMemoryContext(
      [chunk(4, Array.from({ length: 200 }, (_, i) => `- line ${i}`).join("\n"))],
      [],
    );
    expect(long.text).toContain("- line 199");
    expect(long.text).not.toContain("- line 0\n");
    expect(estimateTokens(long.text!)).toBeLessThanOrEqual(500 + 10);
  });

  it("is empty without chunks or facts", () => {
    expect(formatMemoryContext([], [])).toEqual({ text: undefined, factIds: [] });
  });
});

describe("decay (spec 004)", () => {
  it("halves in 30 days without use, and each use adds 0.1 up to 0.5", () => {
    expect(calculateDecay(0, T0, T0)).toBe(1);
    expect(calculateDecay(0, T0, T0 + 30 * DAY)).toBeCloseTo(0.5, 10);
    expect(calculateDecay(2, T0, T0 + 30 * DAY)).toBeCloseTo(0.7, 10);
    expect(calculateDecay(9, T0, T0 + 60 * DAY)).toBeCloseTo(0.75, 10);
  });
});
