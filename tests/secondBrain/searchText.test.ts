// The words notes are found by: normalization, Hebrew prefixes, plurals, stop words and the
// safety of the full-text query built from user text.
import { describe, expect, it } from "vitest";
import { noteSearchText, queryTerms, toTsQuery, wordForms } from "../../src/utils/searchText.js";

describe("wordForms", () => {
  it("strips one or two Hebrew prefix letters and keeps the word first", () => {
    expect(wordForms("בפגישה")).toEqual(["בפגישה", "פגישה"]);
    // ו + ב: "and in the meeting" also gives the bare word.
    expect(wordForms("ובפגישה")).toEqual(expect.arrayContaining(["ובפגישה", "בפגישה", "פגישה"]));
    // A word that does not start with a prefix letter has no other form.
    expect(wordForms("פגישה")).toEqual(["פגישה"]);
  });

  it("never whittles a short Hebrew word to one letter", () => {
    expect(wordForms("לגנ")).toEqual(["לגנ", "גנ"]);
    expect(wordForms("בו")).toEqual(["בו"]);
  });

  it("adds singulars: Hebrew ים / ות (also as ה), English s, es, ies", () => {
    expect(wordForms("מתכונימ")).toContain("מתכונ");
    expect(wordForms("מתנות")).toContain("מתנה");
    expect(wordForms("sizes")).toContain("size");
    expect(wordForms("boxes")).toContain("box");
    expect(wordForms("allergies")).toContain("allergy");
    expect(wordForms("password")).toEqual(["password"]);
  });
});

describe("noteSearchText", () => {
  it("normalizes content, category and tags like fuzzy matching does, forms beside their word", () => {
    const text = noteSearchText("בפגישה עם רוני: WiFi-Password!", "עבודה", ["Meetings"]);
    expect(text.split(" ")).toEqual([
      ...["בפגישה", "פגישה", "עמ", "רוני", "wifi", "password", "עבודה", "meetings", "meeting"],
    ]);
  });

  it("removes niqqud and folds final letters, so pointed and plain text index alike", () => {
    expect(noteSearchText("גֶּזֶר וְתַפּוּחַ")).toBe(noteSearchText("גזר ותפוח"));
    expect(noteSearchText("עוגת תפוחים")).toBe("עוגת תפוחימ תפוח");
  });

  it("lists a repeated word's forms once", () => {
    expect(noteSearchText("בבית בבית")).toBe("בבית בית בבית");
  });
});

describe("queryTerms", () => {
  it("drops question words and pronouns in both languages", () => {
    expect(queryTerms("What's the wifi password at my parents?").words).toEqual([
      "wifi",
      "password",
      "parents",
    ]);
    expect(queryTerms("מה הסיסמה של הוויפי").words).toEqual(["הסיסמה", "הוויפי"]);
  });

  it("groups each word with its forms, so any form of a word counts as that word", () => {
    const terms = queryTerms("הסיסמה לוויפי");
    expect(terms.groups).toEqual([
      ["הסיסמה", "סיסמה"],
      ["לוויפי", "וויפי", "ויפי"],
    ]);
    expect(terms.lexemes).toEqual(terms.groups.flat());
  });

  it("keeps a query of stop words only, and drops one-letter words", () => {
    expect(queryTerms("what is it").words).toEqual(["what", "is", "it"]);
    expect(queryTerms("a b c").words).toEqual([]);
    expect(queryTerms("vitamin D").words).toEqual(["vitamin"]);
    expect(queryTerms("  ?! ").words).toEqual([]);
  });

  it("keeps numbers, even of one digit", () => {
    expect(queryTerms("room 7").words).toEqual(["room", "7"]);
  });

  it("uses at most eight words of a long query", () => {
    expect(queryTerms("one two three four five six seven eight nine ten").words).toHaveLength(8);
  });
});

describe("toTsQuery", () => {
  it("quotes each lexeme and ORs them", () => {
    expect(toTsQuery(["wifi", "סיסמה"])).toBe("'wifi' | 'סיסמה'");
    expect(toTsQuery(["pas"], { prefix: true })).toBe("'pas':*");
    expect(toTsQuery([])).toBeNull();
  });

  it("never lets tsquery syntax through, whatever the words", () => {
    for (const hostile of ["a' | 'b", "x:*", "!(a & b)", "a <-> b", "\\'", "'"]) {
      // Lexemes come from normalized text, but toTsQuery does not rely on it.
      expect(toTsQuery([hostile])).toBeNull();
      const fromQuery = toTsQuery(queryTerms(hostile).lexemes);
      expect(fromQuery === null || /^'[\p{L}\p{N}]+'( \| '[\p{L}\p{N}]+')*$/u.test(fromQuery)).toBe(true);
    }
  });
});
