/**
 * The factored number patterns (EN_NUMBER_WORDS, HE_NUMBER_WORDS) read exactly the words of the
 * tables they are built from, and nothing else: the grammar and the unread-word scanner rely on them.
 */
import { describe, expect, it } from "vitest";
import { EN_COUNTS, EN_NUMBER_WORDS, HE_NUMBERS, HE_NUMBER_WORDS } from "../../src/nlu/timeWords.js";

const whole = (source: string) => new RegExp(`^(?:${source})$`, "iu");

describe("the factored number patterns", () => {
  it("read every English count but 'a'/'an', with a space or a hyphen inside", () => {
    const en = whole(EN_NUMBER_WORDS);
    for (const word of EN_COUNTS.keys()) {
      const expected = word !== "a" && word !== "an";
      expect(en.test(word), word).toBe(expected);
      expect(en.test(word.replace(/ /gu, " - ")), word).toBe(expected);
    }
  });

  it("read every Hebrew number, with 'ו' before the unit of a compound", () => {
    const he = whole(HE_NUMBER_WORDS);
    for (const word of HE_NUMBERS.keys()) expect(he.test(word), word).toBe(true);
    expect(he.test("עשרים  ושלוש")).toBe(true);
  });

  it("read no other pairing of the tables' words", () => {
    const en = whole(EN_NUMBER_WORDS);
    const he = whole(HE_NUMBER_WORDS);
    const known = new Set([...EN_COUNTS.keys(), ...HE_NUMBERS.keys()].map((w) => w.replace(/[\s-]+/gu, " ")));
    const all = [...EN_COUNTS.keys(), ...HE_NUMBERS.keys()];
    for (const a of all)
      for (const b of all)
        for (const pair of [`${a} ${b}`, `${a} ו${b}`]) {
          const spaced = pair.replace(/[\s-]+/gu, " ");
          expect(en.test(pair) || he.test(pair), pair).toBe(
            known.has(spaced) && spaced !== "a" && spaced !== "an",
          );
        }
  });
});
