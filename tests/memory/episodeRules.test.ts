import { describe, expect, it } from "vitest";
import type { HistoryMessage } from "../../src/db/repositories/conversationHistory.js";
import { mergeEpisodes, type Episode } from "../../src/db/repositories/episodeRepository.js";
import {
  completedTaskEpisode,
  episodesFromAnswer,
  extractEpisodesByRules,
  formatEpisodes,
} from "../../src/services/memory/episodes.js";

const AT = Date.parse("2026-11-12T09:30:00Z");
let ids = 100;
const message = (content: string, role: HistoryMessage["role"] = "user"): HistoryMessage => ({
  id: ++ids,
  role,
  content,
  whatsappMessageId: null,
  createdAt: AT,
});
const kindsAndTitles = (text: string) =>
  extractEpisodesByRules(message(text)).map((e) => [e.kind, e.title] as const);

describe("episodes by rules", () => {
  it("finds decisions, problems solved, breakthroughs, issues, tasks completed and pivots in English", () => {
    expect(kindsAndTitles("We decided to go to Eilat for the trip")).toEqual([
      ["decision", "Go to Eilat for the trip"],
    ]);
    expect(kindsAndTitles("I decided on the blue sofa.")).toEqual([["decision", "The blue sofa"]]);
    expect(kindsAndTitles("Finally fixed the leak!")).toEqual([["problem_solved", "The leak"]]);
    expect(kindsAndTitles("we solved the printer problem")).toEqual([
      ["problem_solved", "The printer problem"],
    ]);
    expect(kindsAndTitles("I got the job at Wix")).toEqual([["breakthrough", "Got the job at Wix"]]);
    expect(kindsAndTitles("There's a problem with the boiler")).toEqual([
      ["issue_identified", "Problem with the boiler"],
    ]);
    expect(kindsAndTitles("The heater is broken")).toEqual([["issue_identified", "The heater is broken"]]);
    expect(kindsAndTitles("I finished the quarterly report")).toEqual([
      ["task_completed", "The quarterly report"],
    ]);
    expect(kindsAndTitles("We changed plans: we're going to Haifa")).toEqual([
      ["pivot", "We're going to Haifa"],
    ]);
    const instead = extractEpisodesByRules(message("Instead of Eilat we'll go to the Galilee"));
    expect(instead.map((e) => [e.kind, e.title, e.context])).toEqual([
      ["pivot", "We'll go to the Galilee", "Instead of Eilat"],
    ]);
  });

  it("finds the same moments in Hebrew", () => {
    expect(kindsAndTitles("החלטנו לנסוע לאילת לטיול")).toEqual([["decision", "לנסוע לאילת לטיול"]]);
    expect(kindsAndTitles("סוף סוף תיקנתי את הנזילה")).toEqual([["problem_solved", "הנזילה"]]);
    expect(kindsAndTitles("שינינו תוכניות: נוסעים לחיפה")).toEqual([["pivot", "נוסעים לחיפה"]]);
    const instead = extractEpisodesByRules(message("במקום אילת ניסע לגליל"));
    expect(instead.map((e) => [e.kind, e.title, e.context])).toEqual([["pivot", "ניסע לגליל", "במקום אילת"]]);
    expect(kindsAndTitles("יש בעיה עם הדוד")).toEqual([["issue_identified", "בעיה עם הדוד"]]);
    expect(kindsAndTitles("סיימתי את הדוח הרבעוני")).toEqual([["task_completed", "הדוח הרבעוני"]]);
    expect(kindsAndTitles("התקבלתי לאוניברסיטה")).toEqual([["breakthrough", "התקבלתי לאוניברסיטה"]]);
  });

  it("keeps the message, its time, who took part, and weighs 'finally' more", () => {
    const said = message("Dana and I decided to adopt a dog");
    const [episode] = extractEpisodesByRules(said);
    expect(episode).toMatchObject({
      kind: "decision",
      title: "Adopt a dog",
      summary: "Dana and I decided to adopt a dog",
      participants: ["user", "Dana"],
      turnStart: said.id,
      turnEnd: said.id,
      occurredAt: AT,
      sourceMessageId: said.id,
      significance: 0.7,
    });
    const [fixed] = extractEpisodesByRules(message("I fixed the sink"));
    const [finallyFixed] = extractEpisodesByRules(message("I finally fixed the sink"));
    expect(finallyFixed!.significance).toBeGreaterThan(fixed!.significance!);
    expect(finallyFixed!.emotionalValence).toBeGreaterThan(fixed!.emotionalValence!);
  });

  it("finds none in questions, requests, wishes, small talk, memory commands, notes or Memo's messages", () => {
    for (const text of [
      "Did we decide to go to Eilat?",
      "what did we decide about the trip?",
      "מה החלטנו על הטיול?",
      "remind me that we decided to go to Eilat",
      "can you fix the leak?",
      "fix the leak",
      "I need to decide about the trip",
      "We haven't decided yet",
      "תזכיר לי שהחלטנו לנסוע לאילת",
      "thanks!",
      "ok",
      "forget that we decided to go to Eilat",
      "note: we decided to go to Eilat",
      "add a task to finish the report",
    ])
      expect(kindsAndTitles(text), text).toEqual([]);
    expect(extractEpisodesByRules(message("We decided to go to Eilat", "assistant"))).toEqual([]);
  });
});

describe("episodes from the memory call", () => {
  it("maps message numbers back, drops unknown numbers and empty titles, bounds the numbers", () => {
    const said = [message("I prefer tea"), message("we decided to go to Eilat")];
    const episodes = episodesFromAnswer(
      [
        {
          message: 2,
          kind: "decision",
          title: "go to Eilat for the trip",
          summary: "Decided with Dana to go to Eilat",
          outcome: "",
          participants: ["Dana", "user"],
          emotionalValence: 3,
          significance: 0.9,
        },
        {
          message: 9,
          kind: "pivot",
          title: "Invented",
          summary: "",
          outcome: "",
          participants: [],
          emotionalValence: 0,
          significance: 0.5,
        },
        {
          message: 1,
          kind: "breakthrough",
          title: " ",
          summary: "",
          outcome: "",
          participants: [],
          emotionalValence: 0,
          significance: 0.5,
        },
      ],
      said,
    );
    expect(episodes).toEqual([
      expect.objectContaining({
        kind: "decision",
        title: "Go to Eilat for the trip",
        outcome: null,
        participants: ["user", "Dana"],
        emotionalValence: 1,
        significance: 0.9,
        turnStart: said[1]!.id,
        occurredAt: AT,
      }),
    ]);
  });
});

describe("a completed task", () => {
  it("is a task_completed episode keyed once per task and completion", () => {
    const episode = completedTaskEpisode({ id: "t1", text: "call the plumber", at: AT }, 7);
    expect(episode).toMatchObject({
      kind: "task_completed",
      title: "Call the plumber",
      turnStart: 7,
      occurredAt: AT,
      operationKey: `task:t1:done:${AT}`,
    });
  });
});

describe("episodes as the user reads them", () => {
  it("say when, in the user's zone and language", () => {
    const episodes = [{ kind: "decision" as const, title: "Go to Eilat for the trip", occurredAt: AT }];
    const later = AT + 5 * 24 * 60 * 60 * 1000;
    expect(formatEpisodes(episodes, "en", later, "Asia/Jerusalem")).toEqual([
      "Thu 12/11 at 11:30, you decided: Go to Eilat for the trip",
    ]);
    expect(formatEpisodes(episodes, "he", later, "Asia/Jerusalem")).toEqual([
      "יום חמישי 12/11 ב-11:30, החלטת: Go to Eilat for the trip",
    ]);
    expect(formatEpisodes(episodes, "en", AT, "America/New_York")).toEqual([
      "Today at 04:30, you decided: Go to Eilat for the trip",
    ]);
  });
});

describe("consolidation's merge plan", () => {
  const base: Episode = {
    id: "a",
    kind: "decision",
    title: "Go to Eilat for the trip",
    summary: "We decided to go to Eilat for the trip",
    context: "",
    outcome: null,
    participants: ["user"],
    emotionalValence: 0.1,
    significance: 0.6,
    linkedMemories: [],
    turnStart: 10,
    turnEnd: 10,
    occurredAt: AT,
    accessCount: 1,
    lastAccessedAt: AT,
    createdAt: AT,
    updatedAt: AT,
  };

  it("merges the same kind with near-identical titles and meeting turns: ranges widened, participants unioned, higher significance kept", () => {
    const again: Episode = {
      ...base,
      id: "b",
      title: "Go to Eilat for the trip!",
      summary: "Dana and I decided: Eilat for the trip",
      participants: ["user", "Dana"],
      significance: 0.8,
      turnStart: 12,
      turnEnd: 12,
      occurredAt: AT + 10 * 60_000,
      accessCount: 2,
    };
    const [merge, ...rest] = mergeEpisodes([again, base]);
    expect(rest).toEqual([]);
    expect(merge!.dropped).toEqual(["b"]);
    expect(merge!.kept).toMatchObject({
      id: "a",
      occurredAt: AT,
      turnStart: 10,
      turnEnd: 12,
      participants: ["user", "Dana"],
      significance: 0.8,
      summary: "Dana and I decided: Eilat for the trip",
      accessCount: 3,
    });
  });

  it("keeps apart other kinds, other titles, and the same title days apart", () => {
    const pivot: Episode = { ...base, id: "p", kind: "pivot" };
    const other: Episode = { ...base, id: "o", title: "Buy a new fridge", turnStart: 11, turnEnd: 11 };
    const later: Episode = {
      ...base,
      id: "l",
      turnStart: 900,
      turnEnd: 900,
      occurredAt: AT + 3 * 86_400_000,
    };
    expect(mergeEpisodes([base, pivot, other, later])).toEqual([]);
  });
});
