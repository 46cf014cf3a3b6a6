import { describe, expect, it } from "vitest";
import { enforceNoteRule } from "../../src/graph/plan/planPolicy.js";
import { fastPathTurn } from "../../src/graph/plan/fastPath.js";
import { recognizeMemoryCommand, recognizeNoteCommand } from "../../src/nlu/noteCommands.js";
import type { PlannerOutput } from "../../src/types/index.js";

const NOW = Date.parse("2026-03-05T10:00:00Z");
const ZONE = "Asia/Jerusalem";

describe("memory commands (always recognized, no model)", () => {
  it.each([
    "what do you remember about me?",
    "What do you know about me",
    "Memo, what have you learned about me?",
    "show my memories",
    "מה אתה זוכר עליי?",
    "מה את יודעת עליי",
    "מה שמרת עליי?",
  ])("%s → list_memories", (message) => {
    expect(recognizeMemoryCommand(message)?.action).toBe("list_memories");
  });

  it.each([
    "forget everything",
    "Please forget everything about me.",
    "erase your memory of me",
    "delete everything you know about me",
    "תשכח הכל",
    "תשכח את הכול עליי",
    "תמחק את כל מה שאתה יודע עליי",
  ])("%s → forget_everything", (message) => {
    expect(recognizeMemoryCommand(message)?.action).toBe("forget_everything");
  });

  it.each([
    ["forget that I prefer morning meetings", "I prefer morning meetings"],
    ["Please forget that my old address is Herzl 5.", "my old address is Herzl 5"],
    ["forget 2", "#2"],
    ["forget #3", "#3"],
    ["תשכח את 2", "#2"],
    ["forget I'm vegetarian", "I'm vegetarian"],
    ["תשכח שאני אוהב קפה", "אני אוהב קפה"],
    ["תשכחי את זה שאני גרה בחיפה", "אני גרה בחיפה"],
  ])("%s → forget_memory %s", (message, query) => {
    expect(recognizeMemoryCommand(message)).toEqual({
      action: "forget_memory",
      functionName: "memory.forget",
      args: { query },
    });
  });

  it.each([
    "forget the milk",
    "don't forget to call mom",
    "I forgot my keys",
    "what do you think about me?",
    "תזכור שאני אוהב קפה",
    "אל תשכח לקנות חלב",
    "forget about the dentist",
    "forget about it",
    "Forget that meeting, we'll do it next week",
    "forget about the 5pm reminder",
    "תשכח שטויות",
  ])("%s is not a memory command", (message) => {
    expect(recognizeMemoryCommand(message)).toBeNull();
  });

  it("works with the fast path off, but only when the capability is registered", () => {
    const on = fastPathTurn("what do you remember about me?", NOW, ZONE, () => true, false);
    expect(on?.plannerOutput.plan[0]).toMatchObject({ capability: "second-brain", action: "list_memories" });
    expect(on?.resolverResults.get("A")?.functionName).toBe("memory.list");
    expect(
      fastPathTurn("what do you remember about me?", NOW, ZONE, (c) => c !== "second-brain", false),
    ).toBeNull();
  });
});

describe("note commands (fast path on)", () => {
  it.each([
    ["note: the wifi password is HappyCat42", "the wifi password is HappyCat42"],
    ["Note to self - Dana's shoe size is 38", "Dana's shoe size is 38"],
    ["save a note that the car is parked on level -2, spot 14", "the car is parked on level -2, spot 14"],
    ["remember that my locker code is 4412", "my locker code is 4412"],
    ["note that I hate cilantro", "I hate cilantro"],
    ["פתק: הקוד של הלוקר 4412", "הקוד של הלוקר 4412"],
    ["תרשום פתק: מתכון לעוגת גזר מהאתר של שירי", "מתכון לעוגת גזר מהאתר של שירי"],
    ["תזכור שהסיסמה של הוויפי היא HappyCat42", "הסיסמה של הוויפי היא HappyCat42"],
  ])("%s → store %s", (message, content) => {
    expect(recognizeNoteCommand(message, NOW, ZONE)?.args).toEqual({ operation: "store", content });
  });

  it.each([
    ["search notes for wifi", "wifi"],
    ["find the note about the car", "the car"],
    ["notes about Dana", "Dana"],
    ["חפש בפתקים וויפי", "וויפי"],
    ["הפתקים על דנה", "דנה"],
  ])("%s → search %s", (message, query) => {
    expect(recognizeNoteCommand(message, NOW, ZONE)?.args).toEqual({ operation: "search", query });
  });

  it.each(["my notes", "show me all my notes", "הפתקים שלי", "תראה לי את הפתקים"])("%s → list", (message) => {
    expect(recognizeNoteCommand(message, NOW, ZONE)?.functionName).toBe("notes.getAll");
  });

  it.each([
    "note: remind me to water the plants",
    "פתק: תזכיר לי להתקשר לרופא מחר ב-9",
    "note 2",
    "note this down",
    "Remember that movie we saw? it was great",
    "note taken, thanks",
    "what's my wifi password?",
    "I prefer morning meetings",
    "save this as a list",
    "keep that in mind",
    "remember this one",
    // A second request beside the note command is never dropped: the planner plans both.
    "find my note with the wifi details and email it to the babysitter",
    "search notes wifi and remind me tomorrow at 9 to change it",
    "note: the wifi password is 1234 and email it to dana",
    "חפש בפתקים וויפי ותשלח את זה לדנה",
  ])("%s is left to the planner", (message) => {
    expect(recognizeNoteCommand(message, NOW, ZONE)).toBeNull();
  });

  it("a note's own words that sound like a request stay the note's", () => {
    expect(
      recognizeNoteCommand("note: the plumber said to turn off the water and call him back", NOW, ZONE)?.args,
    ).toEqual({ operation: "store", content: "the plumber said to turn off the water and call him back" });
  });

  it("an explicit note that mentions a time is kept as a note, and says how to get a reminder", () => {
    expect(recognizeNoteCommand("note: the kids' school starts at 8:15", NOW, ZONE)?.args).toEqual({
      operation: "store",
      content: "the kids' school starts at 8:15",
      namesTime: true,
    });
    expect(
      recognizeNoteCommand("remember that I have a meeting on Sunday at 10", NOW, ZONE)?.args,
    ).toMatchObject({
      namesTime: true,
    });
  });

  it("only with the fast path on", () => {
    expect(fastPathTurn("note: the wifi password is HappyCat42", NOW, ZONE, () => true, false)).toBeNull();
    expect(
      fastPathTurn("note: the wifi password is HappyCat42", NOW, ZONE, () => true, true)?.plannerOutput
        .plan[0],
    ).toMatchObject({
      capability: "second-brain",
      action: "store_note",
    });
  });
});

describe("planner rule 2 in code: a note with a time or 'remind me' is a task", () => {
  const planned = (action: string): PlannerOutput => ({
    intentType: "operation",
    confidence: 0.9,
    riskLevel: "low",
    needsApproval: false,
    missingFields: [],
    plan: [{ id: "s1", capability: "second-brain", action, constraints: {}, changes: {}, dependsOn: [] }],
  });

  it.each([
    "remember to call the bank tomorrow at 9",
    "תזכיר לי לקנות מתנה לדנה",
    "note: remind me of the dentist on Sunday at 10",
  ])("%s → database create_task", (message) => {
    expect(enforceNoteRule(planned("store_note"), message, NOW, ZONE).plan[0]).toMatchObject({
      capability: "database",
      action: "create_task",
    });
  });

  it("a note whose plan sets the reminder in a step of its own stays a note", () => {
    const both = planned("store_note");
    both.plan.push({
      id: "s2",
      capability: "database",
      action: "create_task",
      constraints: {},
      changes: {},
      dependsOn: ["s1"],
    });
    const message = "note that the car insurance renews on 1 April and remind me tomorrow at 9 to renew it";
    expect(enforceNoteRule(both, message, NOW, ZONE).plan.map((s) => s.capability)).toEqual([
      "second-brain",
      "database",
    ]);
  });

  it("a plain note, an explicit note naming a time, or a search that names a time, stays with the second brain", () => {
    expect(
      enforceNoteRule(planned("store_note"), "note: the shop opens at 9", NOW, ZONE).plan[0]!.capability,
    ).toBe("second-brain");
    expect(
      enforceNoteRule(planned("store_note"), "note: Dana likes tulips", NOW, ZONE).plan[0]!.capability,
    ).toBe("second-brain");
    expect(
      enforceNoteRule(planned("search_notes"), "what did I note yesterday about Dana?", NOW, ZONE).plan[0]!
        .capability,
    ).toBe("second-brain");
  });
});

describe("document commands (no model)", () => {
  const recognize = (message: string) => recognizeNoteCommand(message, NOW, ZONE);

  it.each(["my documents", "show my files", "list my documents", "המסמכים שלי", "תראה לי את המסמכים שלי"])(
    "%s → the documents listing",
    (message) => {
      expect(recognize(message)).toEqual({
        action: "list_notes",
        functionName: "notes.getAll",
        args: { operation: "getAll", documents: true },
      });
    },
  );

  it.each([
    ["forget the school letter", "school letter"],
    ["delete the invoice from the garage", "invoice from the garage"],
    ["remove my dentist letter", "dentist letter"],
    ["תשכח את המכתב מבית הספר", "המכתב מבית הספר"],
    ["תמחק את החשבונית של החשמל", "החשבונית של החשמל"],
  ])("%s → deletes the document the words name (documents only)", (message, query) => {
    expect(recognize(message)?.args).toEqual({ operation: "delete", query, documents: true });
  });

  it.each([
    ["forget document 2", "#2"],
    ["delete doc 3", "#3"],
    ["תשכח מסמך 2", "#2"],
  ])("%s → deletes document N of the listing", (message, noteRef) => {
    expect(recognize(message)?.args).toEqual({ operation: "delete", noteRef, documents: true });
  });

  it.each([
    "delete the reminder to pay the invoice",
    "remove the reminder about the invoice",
    "delete the task about the contract",
    "delete task 2 about the form",
    "delete the note about the letter",
    "remove the event for the school letter",
    "delete my shopping list file",
    "תמחק את התזכורת לשלם את החשבונית",
    "תמחק את המשימה על החוזה",
  ])("%s → never deletes a document", (message) => {
    expect(recognize(message)?.args).not.toMatchObject({ documents: true });
  });

  it.each([
    ["what did the school letter say about the trip?", "school the trip"],
    ["what does the invoice say?", null],
    ["מה כתוב במכתב מבית הספר על הטיול?", "מבית הספר הטיול"],
  ])("%s → a search of the notes", (message, query) => {
    const command = recognize(message);
    if (query === null) {
      expect(command).toBeNull();
      return;
    }
    expect(command).toEqual({
      action: "search_notes",
      functionName: "notes.search",
      args: { operation: "search", query },
    });
  });

  it("leaves notes, tasks and facts to their own commands", () => {
    expect(recognize("delete the note about Dana")?.args).toEqual({ operation: "delete", query: "Dana" });
    expect(recognize("delete the dentist appointment")).toBeNull();
    expect(recognizeMemoryCommand("forget that I like coffee")?.action).toBe("forget_memory");
  });
});
