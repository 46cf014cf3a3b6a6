// Hostile files, made here small: what reading a document may cost is capped (issue 37 review).
// A PDF stream inflating past its cap, an image drawn thousands of times, a PDF of many empty
// pages, a DOCX zip bomb and a very long text: each is read within its limits, or refused.
import { readFileSync } from "node:fs";
import { deflateRawSync, deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { embeddedPageImages } from "../../src/services/documents/pageImages.js";
import { storedJpegsByPage } from "../../src/services/documents/rawPdfObjects.js";
import { DocumentUnreadableError, extractText } from "../../src/services/documents/extractText.js";

const PHOTO = readFileSync("tests/fixtures/documents/invoicePhoto.jpg");

/** A PDF written object by object, with an xref table pdf.js reads. */
function pdf(objects: (string | { dict: string; data: Buffer })[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from("%PDF-1.5\n", "latin1")];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const push = (buffer: Buffer) => {
    parts.push(buffer);
    length += buffer.length;
  };
  objects.forEach((object, i) => {
    offsets.push(length);
    if (typeof object === "string") push(Buffer.from(`${i + 1} 0 obj\n${object}\nendobj\n`, "latin1"));
    else {
      push(
        Buffer.from(`${i + 1} 0 obj\n<< ${object.dict} /Length ${object.data.length} >>\nstream\n`, "latin1"),
      );
      push(object.data);
      push(Buffer.from("\nendstream\nendobj\n", "latin1"));
    }
  });
  const xref = length;
  const rows = offsets.map((at) => `${String(at).padStart(10, "0")} 00000 n \n`).join("");
  push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Root 1 0 R /Size ${objects.length + 1} >>\nstartxref\n${xref}\n%%EOF\n`,
      "latin1",
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
}

const IMAGE = (data: Buffer) => ({
  dict: "/Type /XObject /Subtype /Image /Width 760 /Height 560 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode",
  data,
});

/** A ZIP of stored-name → bytes, deflated, with its central directory. */
function zip(entries: Record<string, Buffer>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = deflateRawSync(content);
    const nameBytes = Buffer.from(name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(data.length, 20);
    // The declared size lies (small): the check inflates to measure.
    entry.writeUInt32LE(100, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    central.push(entry, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const FILE = { fileName: "x", mimeType: null };

describe("document limits", () => {
  it("a content stream inflating past 8 MB makes the raw reader give up (null), quickly and without throwing", () => {
    const bomb = deflateSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    const file = pdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im0 5 0 R >> >> >>",
      { dict: "/Filter /FlateDecode", data: bomb },
      IMAGE(PHOTO),
    ]);
    expect(file.length).toBeLessThan(100_000);
    expect(storedJpegsByPage(file)).toBeNull();
  });

  it("a PDF whose streams inflate past 64 MB in all is refused before pdf.js opens it", async () => {
    const bomb = deflateSync(Buffer.alloc(7 * 1024 * 1024, 0x20));
    const count = 10;
    const objects: (string | { dict: string; data: Buffer })[] = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      `<< /Type /Pages /Kids [${Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(" ")}] /Count ${count} >>`,
    ];
    for (let i = 0; i < count; i++)
      objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${count + 3 + i} 0 R >>`);
    for (let i = 0; i < count; i++) objects.push({ dict: "/Filter /FlateDecode", data: bomb });
    await expect(extractText(pdf(objects), "pdf", FILE)).rejects.toBeInstanceOf(DocumentUnreadableError);
  });

  it("an image drawn 3,000 times on a page is taken once", async () => {
    const file = pdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im0 5 0 R >> >> >>",
      { dict: "/Filter /FlateDecode", data: deflateSync(Buffer.from("q /Im0 Do Q\n".repeat(3000))) },
      IMAGE(PHOTO),
    ]);
    expect(storedJpegsByPage(file)![0]).toHaveLength(1);
    const images = await embeddedPageImages(file);
    expect(images).toHaveLength(1);
  });

  it("at most 12 images in all, four a page, whatever the file draws", async () => {
    const pages = 6;
    const objects: (string | { dict: string; data: Buffer })[] = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(" ")}] /Count ${pages} >>`,
    ];
    // Pages 3..8; content 9; images 10..15.
    const xobjects = Array.from({ length: 6 }, (_, i) => `/Im${i} ${i + 10} 0 R`).join(" ");
    for (let i = 0; i < pages; i++)
      objects.push(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 9 0 R /Resources << /XObject << ${xobjects} >> >> >>`,
      );
    objects.push({
      dict: "/Filter /FlateDecode",
      data: deflateSync(Buffer.from(Array.from({ length: 6 }, (_, i) => `/Im${i} Do`).join("\n"))),
    });
    for (let i = 0; i < 6; i++) objects.push(IMAGE(PHOTO));
    const images = await embeddedPageImages(pdf(objects));
    expect(images).toHaveLength(12);
    expect(images.filter((image) => image.page === 1)).toHaveLength(4);
  });

  it("a PDF of 500 empty pages: only the first 200 are read, the real count kept, cut short", async () => {
    const count = 500;
    const objects: string[] = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      `<< /Type /Pages /Kids [${Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(" ")}] /Count ${count} >>`,
    ];
    for (let i = 0; i < count; i++) objects.push("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>");
    const started = performance.now();
    const read = await extractText(pdf(objects), "pdf", FILE);
    expect(read.pages).toHaveLength(200);
    expect(read.pageCount).toBe(500);
    expect(read.cutShort).toBe(true);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("a DOCX whose document.xml inflates past 20 MB is refused before mammoth opens it", async () => {
    const bomb = zip({
      "[Content_Types].xml": Buffer.from("<Types/>"),
      "word/document.xml": Buffer.alloc(21 * 1024 * 1024, 0x20),
    });
    expect(bomb.length).toBeLessThan(100_000);
    await expect(extractText(bomb, "docx", FILE)).rejects.toBeInstanceOf(DocumentUnreadableError);
  });

  it("a very long text keeps its first 300,000 characters and says it was cut short", async () => {
    const long = Buffer.from("word ".repeat(100_000));
    const read = await extractText(long, "text", FILE);
    expect(read.pages.join("").length).toBeLessThanOrEqual(300_000);
    expect(read.cutShort).toBe(true);
  });

  it("a Hebrew text in windows-1255 is read as Hebrew", async () => {
    // "שלום" in windows-1255.
    const read = await extractText(
      Buffer.from([0xf9, 0xec, 0xe5, 0xed, 0x20, 0xf2, 0xec, 0xe9, 0xea]),
      "text",
      FILE,
    );
    expect(read.pages[0]).toBe("שלום עליך");
  });
});
