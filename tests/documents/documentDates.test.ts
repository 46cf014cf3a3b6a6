// What the real fixtures offer without a model, read before the letters' own date (a letter dated
// 1 March 2027 read in November 2026): the document's own date is no plan, a salutation is no
// title, and a line a newsletter repeats on every page does not crowd out the one real date.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { documentDates } from "../../src/nlu/documentDates.js";
import { readOfferAnswer } from "../../src/nlu/offerAnswer.js";
import { extractText } from "../../src/services/documents/extractText.js";

const NOW = Date.parse("2026-11-29T10:00:00Z");

async function offered(name: string, timeZone: string) {
  const file = readFileSync(`tests/fixtures/documents/${name}`);
  const document = await extractText(file, "pdf", { fileName: name, mimeType: "application/pdf" });
  return documentDates(document.pages, NOW, timeZone).map((item) => [
    item.kind,
    item.start ?? null,
    item.title,
  ]);
}

describe("documentDates on the fixtures", () => {
  it("the English letter: the trip and the fee, the evening asked; not the letter's date, no 'Dear Parents'", async () => {
    expect(await offered("schoolLetterEn.pdf", "Europe/London")).toEqual([
      ["event", "2027-03-11T08:15", "Year 4 will go on a trip to the Science Museum in London"],
      ["reminder", "2027-03-07", "Please pay the trip fee of £12 on the school website"],
      ["event", null, "The spring parents' evening will take place next month; we will send the exact…"],
    ]);
  });

  it("the Hebrew letter: 'תאריך: 1 במרץ 2027' is the letter's own date, not offered", async () => {
    const items = await offered("schoolLetterHe.pdf", "Asia/Jerusalem");
    expect(items.map(([, start]) => start)).toEqual(["2027-03-11T08:15", "2027-03-07", null]);
  });

  it("the 20-page newsletter: the meeting on page 12 is offered, the repeated undated line once", async () => {
    expect(await offered("newsletter20Pages.pdf", "Asia/Jerusalem")).toEqual([
      ["event", null, 'בשבוע הבא תתקיים הרצאה על גינון עירוני במתנ"ס'],
      ["event", "2027-03-15T19:30", "The building meeting is in the lobby"],
    ]);
  });
});

describe("readOfferAnswer", () => {
  it("a number of any length is an answer naming an item (the caller says there is none)", () => {
    expect(readOfferAnswer("1 and 99999999999", 3)).toEqual({ kind: "numbers", numbers: [1, 99999999999] });
    expect(readOfferAnswer("2 ו-99999999999", 3)).toEqual({ kind: "numbers", numbers: [2, 99999999999] });
  });
});
