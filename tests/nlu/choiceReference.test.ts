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
});
