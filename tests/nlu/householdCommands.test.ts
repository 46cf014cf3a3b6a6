// The household commands read in code (docs/HOUSEHOLD.md), with or without a model: which whole
// messages are ones, and which are left to the rest of Memo (no database read is spent on them).
import { describe, expect, it } from "vitest";
import { recognizeHouseholdCommand } from "../../src/nlu/householdCommands.js";

describe("household commands", () => {
  it.each([
    ["add Dana 050-1234567 to my household", { kind: "invite", name: "Dana", phone: "050-1234567" }],
    ["תוסיף את דנה 0501234567 למשק הבית", { kind: "invite", name: "דנה", phone: "0501234567" }],
    ["share the shopping list with Dana", { kind: "share", list: "shopping", with: "Dana", saidList: true }],
    ["share shopping with the household", { kind: "share", list: "shopping", with: null, saidList: false }],
    ["תשתף את רשימת קניות עם דנה", { kind: "share", list: "קניות", with: "דנה", saidList: true }],
    ["stop sharing the shopping list", { kind: "unshare", list: "shopping" }],
    ["create a shopping list for the household", { kind: "newSharedList", list: "shopping" }],
    ["תיצור רשימת קניות למשק הבית", { kind: "newSharedList", list: "קניות" }],
    ["our tasks", { kind: "ourTasks" }],
    ["המשימות שלנו", { kind: "ourTasks" }],
    [
      "task for Dana: call the plumber",
      { kind: "assign", target: "Dana", text: "call the plumber", explicit: true },
    ],
    [
      "משימה לדנה: להתקשר לאינסטלטור",
      { kind: "assign", target: "דנה", text: "להתקשר לאינסטלטור", explicit: true },
    ],
    ["Dana: call the plumber", { kind: "assign", target: "Dana", text: "call the plumber", explicit: false }],
    [
      "remind Dana at 17:00 to pick up the kids",
      { kind: "remind", rest: "Dana at 17:00 to pick up the kids", hebrew: false },
    ],
    [
      "תזכיר לדנה ב-17:00 לאסוף את הילדים",
      { kind: "remind", rest: "דנה ב-17:00 לאסוף את הילדים", hebrew: true },
    ],
    ["stop reminders from Yossi", { kind: "reminders", name: "Yossi", allow: false }],
    ["תאפשר תזכורות מיוסי", { kind: "reminders", name: "יוסי", allow: true }],
    ["turn on list notices", { kind: "listNotices", on: true }],
    ["תפסיק לעדכן על רשימות", { kind: "listNotices", on: false }],
    ["keep a copy", { kind: "keepCopy" }],
    ["שמור עותק", { kind: "keepCopy" }],
  ])("%s", (message, command) => {
    expect(recognizeHouseholdCommand(message)).toEqual(command);
  });

  it.each([
    "remind me at 10:30 to call mom",
    "תזכיר לי מחר ב-9 להתקשר לאמא",
    "note: the wifi password is hunter2",
    "פתק: הקוד של השער 1948",
    "https://example.com/a",
    "12:30 meeting with the bank",
    "make dinner for the household",
    "todo: buy stamps",
    "add milk to shopping list",
  ])("%s is left to the rest of Memo", (message) => {
    expect(recognizeHouseholdCommand(message)).toBeNull();
  });
});
