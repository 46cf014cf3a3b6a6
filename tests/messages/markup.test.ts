// WhatsApp formatting in the catalogue: every sentence, filled with Hebrew (or English) words for
// every placeholder, keeps each bold, italic and strikethrough pair working. WhatsApp formats a
// pair only when its opening marker is not glued to a letter or digit before it and its closing
// marker not glued to one after it: "הוספתי ל*קניות*" shows raw asterisks.
import { describe, expect, it } from "vitest";
import { MESSAGES, t, type Language, type MessageKey } from "../../src/messages/index.js";

const keys = Object.keys(MESSAGES.en) as MessageKey[];

/** A letter, a digit, or a mark that belongs to one (Hebrew points): what a marker must not touch. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** Words put in every placeholder: a name, a list, a text, in each language. */
const SAMPLE: Record<Language, string> = { he: "קניות", en: "shopping" };

/** Every placeholder of a sentence, in all its forms. */
function placeholdersOf(key: MessageKey): string[] {
  const entry = MESSAGES.en[key] as string | Record<string, string>;
  const texts = typeof entry === "string" ? [entry] : Object.values(entry);
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)))];
}

/** `t` for any key: the sentences are taken from the catalogue's own list of keys. */
const anyT = t as (language: Language, key: MessageKey, vars: Record<string, string | number>) => string;

/** The sentence `key` as a user reads it, every placeholder filled, for each plural form it has. */
function rendered(language: Language, key: MessageKey): string[] {
  const vars = Object.fromEntries(placeholdersOf(key).map((name) => [name, SAMPLE[language]]));
  const entry = MESSAGES[language][key];
  if (typeof entry === "string") return [anyT(language, key, vars)];
  return [1, 2, 5].map((count) => anyT(language, key, { ...vars, count }));
}

/** Why the `marker` pairs of `line` would not all format in WhatsApp; [] when they would. */
function brokenPairs(line: string, marker: string): string[] {
  const chars = [...line];
  // An underscore inside a name like OPENAI_API_KEY is part of the name, not a marker.
  const literal = (i: number) =>
    marker === "_" && /[A-Za-z0-9]/.test(chars[i - 1] ?? "") && /[A-Za-z0-9]/.test(chars[i + 1] ?? "");
  const at = chars.flatMap((char, i) => (char === marker && !literal(i) ? [i] : []));
  if (at.length % 2 !== 0) return [`an unpaired ${marker}`];
  const problems: string[] = [];
  for (let i = 0; i < at.length; i += 2) {
    const open = at[i]!;
    const close = at[i + 1]!;
    const before = chars[open - 1];
    const after = chars[close + 1];
    if (before !== undefined && WORD_CHAR.test(before))
      problems.push(`“${before}${marker}” opens glued to a letter`);
    if (after !== undefined && WORD_CHAR.test(after))
      problems.push(`“${marker}${after}” closes glued to a letter`);
    if (/\s/u.test(chars[open + 1] ?? " ")) problems.push(`space after the opening ${marker}`);
    if (/\s/u.test(chars[close - 1] ?? " ")) problems.push(`space before the closing ${marker}`);
  }
  return problems;
}

describe("WhatsApp markup in the catalogue", () => {
  for (const language of ["he", "en"] as const) {
    it(`formats every bold, italic and strikethrough pair of every ${language} sentence`, () => {
      const broken: string[] = [];
      for (const key of keys) {
        for (const text of rendered(language, key)) {
          for (const line of text.split("\n")) {
            for (const marker of ["*", "_", "~"]) {
              for (const problem of brokenPairs(line, marker)) broken.push(`${key}: ${problem} in “${line}”`);
            }
          }
        }
      }
      expect(broken).toEqual([]);
    });
  }

  it("finds a marker glued to a Hebrew prefix, and accepts one after a space", () => {
    expect(brokenPairs("➕ הוספתי ל*קניות*: לחם", "*")).toEqual(["“ל*” opens glued to a letter"]);
    expect(brokenPairs("➕ הוספתי לרשימה *קניות*: לחם", "*")).toEqual([]);
    expect(brokenPairs("*shopping*s", "*")).toEqual(["“*s” closes glued to a letter"]);
    expect(brokenPairs("ל_קניות_ (OPENAI_API_KEY)", "_")).toEqual(["“ל_” opens glued to a letter"]);
  });
});
