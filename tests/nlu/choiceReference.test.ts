// Which of the choices Memo offered a message names, after the question ended (disambiguation snapshot).
import { describe, expect, it } from "vitest";
import { chosenIndex } from "../../src/nlu/choiceReference.js";

const EN = [
  "Dentist appointment (today at 18:00)",
  "Call the bank (tomorrow at 09:00)",
  "Call mom (Friday at 10:00)",
];
const HE = ["תור לרופא השיניים (היום ב-18:00)", "להתקשר לבנק (מחר ב-09:00)"];

describe("chosenIndex", () => {
  it.each([
    ["the second one", EN, 1],
    ["The last one.", EN, 2],
    ["the 1st", EN, 0],
    ["option 3", EN, 2],
    ["the dentist one", EN, 0],
    ["the one with the bank", EN, 1],
    ["I meant the mom one", EN, 2],
    ["השני", HE, 1],
    ["את השנייה", HE, 1],
    ["האחרון", HE, 1],
    ["זה של רופא השיניים", HE, 0],
    ["של הבנק", HE, 1],
    ["מספר 1", HE, 0],
  ] as const)("%s → choice %i", (text, labels, index) => {
    expect(chosenIndex(text, labels, false)).toBe(index);
  });

  it.each([
    ["2", EN],
    ["yes", EN],
    ["the call one", EN],
    ["the plumber one", EN],
    ["the fifth one", EN],
    ["delete the dentist appointment", EN],
    ["dentist", EN],
    ["שני", HE],
    ["כן", HE],
    ["תמחק את הבנק", HE],
  ] as const)("%s names no one choice (unquoted)", (text, labels) => {
    expect(chosenIndex(text, labels, false)).toBeNull();
  });

  it("a reply quoting the list takes its number and a candidate's own words", () => {
    expect(chosenIndex("2", EN, true)).toBe(1);
    expect(chosenIndex("the bank", EN, true)).toBe(1);
    expect(chosenIndex("לבנק", HE, true)).toBe(1);
    expect(chosenIndex("yes", EN, true)).toBeNull();
    expect(chosenIndex("7", EN, true)).toBeNull();
  });

  const MEETINGS = ["Meeting with Dana (today at 18:00)", "Meeting with Avi (tomorrow at 09:00)"];
  const HE_MEETINGS = ["פגישה עם דנה (היום ב-18:00)", "פגישה עם אבי (מחר ב-09:00)"];

  it.each([
    ["the meeting with dana", MEETINGS],
    ["Dana please", MEETINGS],
    ["that one with dana", MEETINGS],
    ["את הפגישה עם דנה", HE_MEETINGS],
    ["זה של דנה בבקשה", HE_MEETINGS],
    ["דנה", HE_MEETINGS],
  ] as const)("quoting the list, %s is the candidate's name: the first", (text, labels) => {
    expect(chosenIndex(text, labels, true)).toBe(0);
  });

  it.each([
    ["keep the meeting with dana", MEETINGS],
    ["cancel the meeting with dana", MEETINGS],
    ["don't delete dana", MEETINGS],
    ["not dana", MEETINGS],
    ["move dana to 5", MEETINGS],
    ["תשאיר את הפגישה עם דנה", HE_MEETINGS],
    ["לא את דנה", HE_MEETINGS],
    ["אל תמחק את דנה", HE_MEETINGS],
    ["תבטל את הפגישה עם דנה", HE_MEETINGS],
  ] as const)("quoting the list, %s says more than a name: no choice", (text, labels) => {
    expect(chosenIndex(text, labels, true)).toBeNull();
  });

  it.each([
    ["0", true],
    ["0.", true],
    ["option 0", false],
    ["#0", false],
    ["number 0", true],
    ["מספר 0", false],
    ["אפשרות 0", true],
  ] as const)('"%s" (quoted: %s) is no position: positions count from 1', (text, quoted) => {
    expect(chosenIndex(text, EN, quoted)).toBeNull();
  });

  it("the last one is a word, not a number", () => {
    expect(chosenIndex("the last one", EN, false)).toBe(2);
    expect(chosenIndex("האחרונה", HE, false)).toBe(1);
    expect(chosenIndex("האחרון", HE, true)).toBe(1);
  });
});
