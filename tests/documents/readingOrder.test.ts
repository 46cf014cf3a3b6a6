// Reading order of a PDF page from pdf.js's pieces in visual order (synthetic items: each piece
// placed left to right on its line as a browser or word processor lays it out).
import { describe, expect, it } from "vitest";
import { pageText, type PlacedText } from "../../src/services/documents/readingOrder.js";

const HEIGHT = 10;
/** One line's pieces as seen, left to right, each 6 units a character wide, touching. */
function line(y: number, pieces: string[], startX = 0): PlacedText[] {
  let x = startX;
  return pieces.map((str) => {
    const item = { str, x, y, width: str.length * 6, height: HEIGHT };
    x += item.width;
    return item;
  });
}

describe("reading order", () => {
  it("two numbers in an RTL line keep their written order (UAX #9 shows them reversed)", () => {
    expect(pageText(line(700, ["14:30", " - ", "08:15", " ", "הטיול"]))).toBe("הטיול 08:15 - 14:30");
    expect(pageText(line(700, ["1234567", " ", "03", " ", "טלפון:"]))).toBe("טלפון: 03 1234567");
    // A hyphen with no spaces joins the numbers into one (shown as written).
    expect(pageText(line(700, ["08:15-14:30", " ", "בשעות"]))).toBe("בשעות 08:15-14:30");
  });

  it("a Latin name with a number after it stays one run", () => {
    const page = [
      ...line(720, ["מכתב להורים של שכבה ד"]),
      ...line(700, ["Science Museum 2027", " ", "ביקור"]),
    ];
    expect(pageText(page)).toBe("מכתב להורים של שכבה ד ביקור Science Museum 2027");
  });

  it("brackets in an RTL line are mirrored back", () => {
    expect(pageText(line(700, ["(", "הערה", ")", " ", "ראו"]))).toBe("ראו (הערה)");
  });

  it("a Hebrew line with more Latin letters than Hebrew ones is RTL in a Hebrew page", () => {
    const page = [
      ...line(720, ["המכתב נשלח אל ההורים של תלמידי שכבה ד"]),
      ...line(700, ["Science Museum", " ", "במוזיאון"]),
    ];
    expect(pageText(page)).toBe("המכתב נשלח אל ההורים של תלמידי שכבה ד במוזיאון Science Museum");
  });

  it("an English line stays as written", () => {
    expect(pageText(line(700, ["Trip on 11 March, 08:15 - 14:30 (bring lunch)"]))).toBe(
      "Trip on 11 March, 08:15 - 14:30 (bring lunch)",
    );
  });

  it("two columns are read one after the other: the right one first in a Hebrew page", () => {
    const page = [
      ...line(700, ["שמאל אחת"], 0),
      ...line(700, ["ימין אחת"], 300),
      ...line(688, ["שמאל שתיים"], 0),
      ...line(688, ["ימין שתיים"], 300),
    ];
    expect(pageText(page)).toBe("ימין אחת ימין שתיים\nשמאל אחת שמאל שתיים");
  });

  it("two columns in an English page: the left one first", () => {
    const page = [
      ...line(700, ["left one"], 0),
      ...line(700, ["right one"], 300),
      ...line(688, ["left two"], 0),
      ...line(688, ["right two"], 300),
    ];
    expect(pageText(page)).toBe("left one left two\nright one right two");
  });
});
