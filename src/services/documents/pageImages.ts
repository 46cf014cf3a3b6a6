import { getDocumentProxy, getResolvedPDFJS } from "unpdf";
import { encodePng, type RawPixels } from "../../utils/pngImage.js";
import { storedJpegsByPage, type StoredJpeg } from "./rawPdfObjects.js";

/** One image a page without text is made of, ready for the image model. */
export interface PageImage {
  /** 1-based page number. */
  page: number;
  data: Buffer;
  mimeType: "image/jpeg" | "image/png";
}

export interface PageImageOptions {
  /** Pages whose images are taken, the first ones without text (default: 10). */
  maxPages?: number;
  /** Bytes of all images together; an image past the cap is left out (default: 20 MB). */
  maxBytes?: number;
  /** Images in all, each one vision call (default: 12). */
  maxImages?: number;
}

const DEFAULT_MAX_PAGES = 10;
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
const DEFAULT_MAX_IMAGES = 12;
/** Images taken of one page. */
const MAX_IMAGES_PER_PAGE = 4;
/** Pages looked at, with or without images (a file of 20,000 empty pages is not walked whole). */
const MAX_PAGES_VISITED = 200;
/** Milliseconds spent looking for images before what was found is used. */
const DEADLINE_MS = 30_000;
/** A page with at least this many visible characters of text has a text layer: it is read, not looked at. */
const TEXT_LAYER_CHARACTERS = 20;
/** Images smaller than this on either side are decorations (rules, bullets, logos' slivers). */
const MIN_SIDE = 48;
/** pdf.js decodes no image with more pixels than this (a 600 dpi A4 page is about 35 M). */
const MAX_IMAGE_PIXELS = 40_000_000;

interface DecodedImage {
  data?: Uint8Array | Uint8ClampedArray;
  width?: number;
  height?: number;
}

/**
 * The images each page without a text layer is made of (a scan, a photo saved as PDF), taken out
 * without a native renderer (D1): a JPEG (DCTDecode) image is taken as stored, byte for byte (it is
 * a JPEG file); any other image pdf.js can decode (Flate, JPX, JBIG2, CCITT, CMYK JPEG) is encoded
 * as PNG. Pages with text (at least 20 visible characters) give nothing: their text is read instead.
 * What cannot be taken out is skipped, so an empty result means "no text could be read".
 * Limits: the first `maxPages` (10) pages that give images, `maxBytes` (20 MB) and `maxImages` (12)
 * of images in all, four a page (an image drawn many times counts once), the first 200 pages
 * looked at, and 30 seconds.
 * The input is not changed (pdf.js is given a copy).
 */
export async function embeddedPageImages(
  pdf: Uint8Array,
  options: PageImageOptions = {},
): Promise<PageImage[]> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  let budget = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxImages = options.maxImages ?? DEFAULT_MAX_IMAGES;
  const deadline = performance.now() + DEADLINE_MS;
  const stored = storedJpegsByPage(pdf, MAX_PAGES_VISITED);
  // pdf.js's warnings about odd files stay quiet: what cannot be read is skipped.
  const document = await getDocumentProxy(pdf.slice(), {
    maxImageSize: MAX_IMAGE_PIXELS,
    verbosity: 0,
  });
  const { OPS } = await getResolvedPDFJS();
  const images: PageImage[] = [];
  try {
    let pagesTaken = 0;
    const last = Math.min(document.numPages, MAX_PAGES_VISITED);
    for (let number = 1; number <= last && pagesTaken < maxPages; number++) {
      if (images.length >= maxImages || budget <= 0 || performance.now() > deadline) break;
      // The stored JPEGs when the page tree was read whole, else what pdf.js decodes.
      const jpegs = stored?.length === document.numPages ? (stored[number - 1] ?? []) : [];
      const wanted = Math.min(MAX_IMAGES_PER_PAGE, maxImages - images.length);
      let found: Found[];
      try {
        found = await imagesOfPage(await document.getPage(number), jpegs, OPS.paintImageXObject, {
          count: wanted,
          bytes: budget,
        });
      } catch {
        // A page pdf.js cannot read is skipped, like an image it cannot decode.
        continue;
      }
      let taken = false;
      for (const image of found.slice(0, wanted)) {
        if (image.data.length > budget) continue;
        budget -= image.data.length;
        // Stored JPEGs are views into the file: only what is taken is copied.
        images.push({ page: number, ...image, data: Buffer.from(image.data) });
        taken = true;
      }
      if (taken) pagesTaken++;
    }
  } finally {
    await document.loadingTask.destroy();
  }
  return images;
}

type Found = Omit<PageImage, "page">;
type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>["getPage"]>>;

/**
 * One page's images: none when it has a text layer; its stored JPEGs, else pdf.js's pixels as PNG.
 * At most `limit.count` images, each drawn image once, none encoded past `limit.bytes`.
 */
async function imagesOfPage(
  page: PdfPage,
  jpegs: StoredJpeg[],
  paintImage: number,
  limit: { count: number; bytes: number },
): Promise<Found[]> {
  try {
    const text = await page.getTextContent();
    const visible = text.items.reduce(
      (sum, item) => sum + ("str" in item ? item.str.replace(/\s/g, "").length : 0),
      0,
    );
    if (visible >= TEXT_LAYER_CHARACTERS) return [];
    const stored = jpegs
      .filter((jpeg) => jpeg.width >= MIN_SIDE && jpeg.height >= MIN_SIDE)
      .map((jpeg) => ({ data: jpeg.data, mimeType: "image/jpeg" as const }));
    if (stored.length > 0) return stored;
    const list = await page.getOperatorList();
    const found: Found[] = [];
    const drawn = new Set<string>();
    let bytes = limit.bytes;
    for (let i = 0; i < list.fnArray.length && found.length < limit.count && bytes > 0; i++) {
      if (list.fnArray[i] !== paintImage) continue;
      const key = String((list.argsArray[i] as unknown[])[0]);
      if (drawn.has(key)) continue;
      drawn.add(key);
      const objects = key.startsWith("g_") ? page.commonObjs : page.objs;
      const image = await new Promise<DecodedImage | null>((resolve) => {
        objects.get(key, resolve);
      });
      const pixels = image ? rawPixels(image) : null;
      if (!pixels || pixels.width < MIN_SIDE || pixels.height < MIN_SIDE) continue;
      const png = encodePng(pixels);
      bytes -= png.length;
      if (bytes >= 0) found.push({ data: png, mimeType: "image/png" });
    }
    return found;
  } finally {
    page.cleanup();
  }
}

/** pdf.js's decoded image as 8-bit gray, RGB or RGBA rows; 1-bit gray (1 = white) is widened. */
function rawPixels(image: DecodedImage): RawPixels | null {
  const { data, width, height } = image;
  if (!data || !width || !height) return null;
  const channels = data.length / (width * height);
  if (channels === 1 || channels === 3) return { data, width, height, channels };
  if (channels === 4) {
    // Opaque RGBA (what pdf.js gives for most images) is RGB: a quarter smaller as PNG.
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return { data, width, height, channels };
    const rgb = new Uint8Array(width * height * 3);
    for (let i = 0, j = 0; i < data.length; i += 4, j += 3) {
      rgb[j] = data[i]!;
      rgb[j + 1] = data[i + 1]!;
      rgb[j + 2] = data[i + 2]!;
    }
    return { data: rgb, width, height, channels: 3 };
  }
  const rowBytes = Math.ceil(width / 8);
  if (data.length !== rowBytes * height) return null;
  const gray = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      gray[y * width + x] = data[y * rowBytes + (x >> 3)]! & (0x80 >> (x & 7)) ? 255 : 0;
  return { data: gray, width, height, channels: 1 };
}
