// The images a PDF's pages without text are made of, taken out without a native renderer (issue 37).
import { readFileSync } from "node:fs";
import { inflateSync, deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { embeddedPageImages } from "../../src/services/documents/pageImages.js";
import { storedJpegsByPage } from "../../src/services/documents/rawPdfObjects.js";

const fixture = (name: string) => new Uint8Array(readFileSync(`tests/fixtures/documents/${name}`));
const PHOTO = readFileSync("tests/fixtures/documents/invoicePhoto.jpg");

/** A JPEG's size from its start-of-frame marker; null when it is not a JPEG. */
function jpegSize(data: Buffer): { width: number; height: number } | null {
  if (data[0] !== 0xff || data[1] !== 0xd8) return null;
  for (let at = 2; at + 9 < data.length;) {
    if (data[at] !== 0xff) return null;
    const marker = data[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    at += 2 + data.readUInt16BE(at + 2);
  }
  return null;
}

/** A PNG's size and colour type from its IHDR, after checking its signature and that its pixels inflate. */
function pngInfo(data: Buffer): { width: number; height: number; colourType: number } {
  expect(data.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(data.toString("latin1", 12, 16)).toBe("IHDR");
  const width = data.readUInt32BE(16);
  const height = data.readUInt32BE(20);
  const colourType = data[25]!;
  const idat = data.indexOf("IDAT", 0, "latin1");
  const pixels = inflateSync(data.subarray(idat + 4, idat + 4 + data.readUInt32BE(idat - 4)));
  const channels = { 0: 1, 2: 3, 6: 4 }[colourType as 0 | 2 | 6];
  expect(pixels.length).toBe((width * channels + 1) * height);
  return { width, height, colourType };
}

describe("embeddedPageImages", () => {
  it("takes a scanned page's JPEG as stored: the very file img2pdf was given, 760×560", async () => {
    const images = await embeddedPageImages(fixture("invoiceScanned.pdf"));
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ page: 1, mimeType: "image/jpeg" });
    expect(jpegSize(images[0]!.data)).toEqual({ width: 760, height: 560 });
    expect(images[0]!.data.equals(PHOTO)).toBe(true);
  });

  it("gives nothing for pages with a text layer (Chromium's print, LibreOffice's export)", async () => {
    expect(await embeddedPageImages(fixture("schoolLetterHe.pdf"))).toEqual([]);
    expect(await embeddedPageImages(fixture("schoolLetterHeWriter.pdf"))).toEqual([]);
  });

  it("a photo printed to PDF by Chromium: the JPEG inside, as stored", async () => {
    const images = await embeddedPageImages(fixture("invoicePrintedPhoto.pdf"));
    expect(images.map((i) => [i.page, i.mimeType])).toEqual([[1, "image/jpeg"]]);
    expect(images[0]!.data.equals(PHOTO)).toBe(true);
  });

  it("a page that is not a JPEG (img2pdf of a PNG screenshot) comes out as a PNG of its pixels; pages keep their numbers", async () => {
    const images = await embeddedPageImages(fixture("scanTwoPages.pdf"));
    expect(images.map((i) => [i.page, i.mimeType])).toEqual([
      [1, "image/png"],
      [2, "image/jpeg"],
    ]);
    expect(pngInfo(images[0]!.data)).toEqual({ width: 400, height: 300, colourType: 2 });
    expect(images[1]!.data.equals(PHOTO)).toBe(true);
  });

  it("stops at the page cap and leaves out what passes the byte cap", async () => {
    const pdf = fixture("scanTwoPages.pdf");
    expect((await embeddedPageImages(pdf, { maxPages: 1 })).map((i) => i.page)).toEqual([1]);
    // The PNG (about 12 KB) fits, the JPEG (37,711 bytes) no longer does.
    expect((await embeddedPageImages(pdf, { maxBytes: 40_000 })).map((i) => i.page)).toEqual([1]);
    expect(await embeddedPageImages(pdf, { maxBytes: 1000 })).toEqual([]);
  });

  it("does not change the bytes it is given (pdf.js gets a copy)", async () => {
    const pdf = fixture("invoiceScanned.pdf");
    const before = Buffer.from(pdf);
    await embeddedPageImages(pdf);
    expect(pdf.byteLength).toBe(before.length);
    expect(Buffer.from(pdf).equals(before)).toBe(true);
  });
});

/**
 * A PDF written here object by object, for the reader's structure only (no text is in it): the
 * catalog and pages inside a compressed object stream, as PDF 1.5 writers do.
 */
function pdfWithObjectStream(options: { cmykImage?: boolean } = {}): Uint8Array {
  const parts: Buffer[] = [Buffer.from("%PDF-1.5\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const stream = (num: number, dict: string, data: Buffer) =>
    parts.push(
      Buffer.from(`${num} 0 obj\n<< ${dict} /Length ${data.length} >>\nstream\n`, "latin1"),
      data,
      Buffer.from("\nendstream\nendobj\n", "latin1"),
    );
  // 1 catalog, 2 pages, 3 page (in the object stream 9); 4 the drawn form, 5 its content,
  // 6 the photo, 7 a JPEG listed but never drawn, 8 the page's content.
  const inStream = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources << /XObject << /Fm0 4 0 R /Unused 7 0 R >> >> >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 8 0 R >>",
  ];
  let header = "";
  let body = "";
  inStream.forEach((object, i) => {
    header += `${i + 1} ${body.length} `;
    body += `${object}\n`;
  });
  const objStm = Buffer.from(header + body, "latin1");
  stream(9, `/Type /ObjStm /N 3 /First ${header.length} /Filter /FlateDecode`, deflateSync(objStm));
  stream(
    4,
    "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Im1 6 0 R >> >>",
    Buffer.from("q 600 0 0 440 6 300 cm /Im1 Do Q", "latin1"),
  );
  const colour = options.cmykImage ? "/DeviceCMYK" : "/DeviceRGB";
  stream(
    6,
    `/Type /XObject /Subtype /Image /Width 760 /Height 560 /ColorSpace ${colour} /BitsPerComponent 8 /Filter /DCTDecode`,
    PHOTO,
  );
  stream(
    7,
    "/Type /XObject /Subtype /Image /Width 760 /Height 560 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter [/DCTDecode]",
    PHOTO,
  );
  stream(8, "/Filter /FlateDecode", deflateSync(Buffer.from("q /Fm0 Do Q", "latin1")));
  parts.push(Buffer.from("trailer\n<< /Root 1 0 R /Size 10 >>\n%%EOF\n", "latin1"));
  return new Uint8Array(Buffer.concat(parts));
}

describe("storedJpegsByPage", () => {
  it("reads pages kept in an object stream, follows a drawn form to its image, and leaves out an image never drawn", () => {
    const pages = storedJpegsByPage(pdfWithObjectStream());
    expect(pages).toHaveLength(1);
    expect(pages![0]!.map((jpeg) => [jpeg.width, jpeg.height])).toEqual([[760, 560]]);
    expect(pages![0]![0]!.data.equals(PHOTO)).toBe(true);
  });

  it("leaves a CMYK JPEG to pdf.js (its stored colours are not what a viewer shows)", () => {
    expect(storedJpegsByPage(pdfWithObjectStream({ cmykImage: true }))).toEqual([[]]);
  });

  it("is null for what is not a PDF", () => {
    expect(storedJpegsByPage(new Uint8Array(Buffer.from("not a pdf at all")))).toBeNull();
  });
});
