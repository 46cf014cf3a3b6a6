// The words that answer a document's numbered offer, and "save it", read whole in code (issue 37).
import { describe, expect, it } from "vitest";
import { readOfferAnswer } from "../../src/nlu/offerAnswer.js";
import { isSaveTextCommand } from "../../src/nlu/saveTextCommand.js";

describe("readOfferAnswer", () => {
  it.each([
    ["2", [2]],
    ["1 and 2", [1, 2]],
    ["1,2", [1, 2]],
    ["1, 2 and 3", [1, 2, 3]],
    ["add 1 and 3", [1, 3]],
    ["1 ו-2", [1, 2]],
    ["1 ו2", [1, 2]],
    ["1 ו 3", [1, 3]],
    ["תוסיף את 1 ו-2", [1, 2]],
    ["2 and 2", [2]],
    ["2 and 5", [2, 5]],
  ])("%s → numbers %j", (text, numbers) => {
    expect(readOfferAnswer(text, 3)).toEqual({ kind: "numbers", numbers });
  });

  it.each(["all", "All!", "all of them", "add them all", "הכל", "הכול", "את כולם", "כולם"])(
    "%s → all",
    (text) => {
      expect(readOfferAnswer(text, 3)).toEqual({ kind: "all" });
    },
  );

  it("'both' / 'את שניהם' is all of two items only", () => {
    expect(readOfferAnswer("both", 2)).toEqual({ kind: "all" });
    expect(readOfferAnswer("את שניהם", 2)).toEqual({ kind: "all" });
    expect(readOfferAnswer("both", 3)).toBeNull();
    // "שני" is "second" / "two", not "both".
    expect(readOfferAnswer("שני", 2)).toBeNull();
  });

  it.each(["none", "no thanks", "neither", "אף אחד", "לא תודה", "כלום"])("%s → none", (text) => {
    expect(readOfferAnswer(text, 3)).toEqual({ kind: "none" });
  });

  it.each(["add milk", "remind me at 2", "2 apples", "what is 2", "yes", "call mom at 5 and 6"])(
    "%s is no answer",
    (text) => {
      expect(readOfferAnswer(text, 3)).toBeNull();
    },
  );
});

describe("isSaveTextCommand", () => {
  it.each([
    "save it",
    "Save that.",
    "save this",
    "save it as a note",
    "תשמור",
    "תשמור את זה",
    "שמור את זה",
    "תשמרי את זה",
    "תשמור את זה בפתקים",
  ])("%s", (text) => {
    expect(isSaveTextCommand(text)).toBe(true);
  });

  it.each(["keep it", "save it for Sunday", "save the date", "תשמור לי מקום", "note: buy milk"])(
    "%s is not",
    (text) => {
      expect(isSaveTextCommand(text)).toBe(false);
    },
  );
});
