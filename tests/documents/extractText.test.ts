// Documents' text in reading order, from files made by real producers (tests/fixtures/documents).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { documentKind, extractText, hasText } from "../../src/services/documents/extractText.js";

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../fixtures/documents/${name}`, import.meta.url)));

const read = (name: string, kind: "pdf" | "docx" | "text") =>
  extractText(fixture(name), kind, { fileName: name, mimeType: null });

/** The sentences of the school letter, in logical (reading) order. */
const LETTER_SENTENCES = [
  "תאריך: 1 במרץ 2027",
  "ביום חמישי, 11 במרץ 2027, תצא שכבת ד' לטיול שנתי במוזיאון המדע בירושלים.",
  "בשעה 08:15, והחזרה משוערת בשעה 14:30.",
  'יש לשלם את דמי הטיול, 85 ש"ח, עד יום ראשון 7 במרץ 2027 באתר בית הספר.',
];

describe("extractText", () => {
  it("rebuilds the reading order of a browser-printed Hebrew PDF (pdf.js gives it visually)", async () => {
    const letter = await read("schoolLetterHe.pdf", "pdf");
    const text = letter.pages.join("\n");
    expect(letter.pages).toHaveLength(1);
    expect(text).not.toContain("2027 במרץ 1 תאריך:");
    for (const phrase of [
      "ביום חמישי, 11 במרץ 2027",
      "בשעה 08:15",
      "עד יום ראשון 7 במרץ 2027",
      "מוזיאון המדע",
    ])
      expect(text).toContain(phrase);
    for (const sentence of LETTER_SENTENCES) expect(text).toContain(sentence);
    // The title Chromium printed into the PDF's information (the page's <title>), not its first line.
    expect(letter.title).toBe('מכתב להורים - טיול שכבה');
  });

  it("gives the same sentences for the word processor's PDF and its DOCX", async () => {
    const chromium = (await read("schoolLetterHe.pdf", "pdf")).pages.join("\n");
    const writer = (await read("schoolLetterHeWriter.pdf", "pdf")).pages.join("\n");
    const docx = (await read("schoolLetterHe.docx", "docx")).pages.join("\n");
    expect(writer).toBe(chromium);
    for (const sentence of LETTER_SENTENCES) expect(docx).toContain(sentence);
  });

  it("keeps English and mixed lines in order, page by page", async () => {
    const newsletter = await read("newsletter20Pages.pdf", "pdf");
    expect(newsletter.pages).toHaveLength(20);
    expect(newsletter.pages[0]).toContain(
      "The residents' committee reviewed the annual budget and the playground renovation.",
    );
    expect(newsletter.pages[0]).toContain("הספרייה העירונית תהיה פתוחה עד השעה 19:00. נא לפנות את הרכבים");
    expect(newsletter.pages[11]).toContain(
      "The building meeting is on Monday 15 March 2027 at 19:30 in the lobby.",
    );
  });

  it("reads plain text (UTF-8 and UTF-16 with a byte-order mark) and titles it by its first line", async () => {
    const dentist = await read("dentist.txt", "text");
    expect(dentist.title).toBe("Dentist appointment for Noa");
    expect(dentist.pages[0]).toContain("Tuesday 9 March 2027 at 16:40");
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from("שלום עולם\nשורה", "utf16le")]);
    const decoded = await extractText(utf16, "text", { fileName: "x.txt", mimeType: "text/plain" });
    expect(decoded.pages[0]).toBe("שלום עולם\nשורה");
  });

  it("finds no text in a scanned PDF, and titles it by its file name", async () => {
    const scan = await read("invoiceScanned.pdf", "pdf");
    expect(hasText(scan)).toBe(false);
    expect(scan.title).toBe("invoiceScanned");
  });

  it("knows the kinds it reads by MIME type or file name", () => {
    expect(documentKind("application/pdf", "a.bin")).toBe("pdf");
    expect(documentKind("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "a")).toBe(
      "docx",
    );
    expect(documentKind("application/octet-stream", "notes.md")).toBe("text");
    expect(documentKind("text/plain", null)).toBe("text");
    expect(documentKind("application/zip", "a.zip")).toBeNull();
    expect(documentKind("application/msword", "a.doc")).toBeNull();
  });

  it("accepts a .pdf sent as application/octet-stream, and titles an untitled file in the user's language", async () => {
    expect(documentKind("application/octet-stream", "letter.PDF")).toBe("pdf");
    expect(documentKind("application/octet-stream", "photos.zip")).toBeNull();
    const blank = await extractText(new Uint8Array(Buffer.from("12 34")), "text", {
      fileName: null,
      mimeType: null,
      language: "he",
    });
    expect(blank.title).toBe("מסמך");
  });
});
