import { inflateSync } from "node:zlib";

/**
 * A small reader of a PDF's objects, enough to find the JPEG images each page draws and take their
 * bytes as stored (a DCTDecode stream is a JPEG file). pdf.js decodes images to pixels and never
 * hands out their stored bytes, so this reads the file itself: every `n g obj` in the body (a
 * stream is never inside an object stream), the objects of object streams, and the page tree.
 * Anything it cannot read is left out; the caller then falls back to pdf.js.
 */

class Name {
  constructor(readonly name: string) {}
}
class Ref {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
class Keyword {
  constructor(readonly word: string) {}
}
type Dict = Map<string, Value>;
type Value = number | boolean | null | string | Name | Ref | Keyword | Value[] | Dict;

interface PdfObject {
  value: Value;
  /** A stream's stored bytes, still encoded (absent: not a stream). */
  stream?: Buffer;
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
/** Nesting allowed in one value, and in forms drawing forms: a hostile file cannot recurse forever. */
const MAX_DEPTH = 32;
const MAX_FORM_DEPTH = 4;
/** Bytes one stream may inflate to, and all streams of one file together: a zip bomb is unreadable. */
const MAX_STREAM_BYTES = 8 * 1024 * 1024;
const MAX_FILE_DECODED_BYTES = 32 * 1024 * 1024;
/** Images taken of one page (a page drawing one image 3,000 times gives it once). */
const MAX_IMAGES_PER_PAGE = 4;

/** A file's streams inflated more than MAX_FILE_DECODED_BYTES, or one more than MAX_STREAM_BYTES. */
class DecodedTooLarge extends Error {}

/** What a file's streams have inflated to so far. */
interface Inflated {
  bytes: number;
}

/** Reads one PDF value at a position (dictionaries, arrays, names, numbers, references, strings). */
class Lexer {
  constructor(
    private readonly bytes: Buffer,
    public pos: number,
  ) {}

  private skip(): void {
    const { bytes } = this;
    while (this.pos < bytes.length) {
      const b = bytes[this.pos]!;
      if (WHITESPACE.has(b)) this.pos++;
      else if (b === 0x25)
        while (this.pos < bytes.length && bytes[this.pos] !== 0x0a && bytes[this.pos] !== 0x0d) this.pos++;
      else break;
    }
  }

  private regular(): string {
    const start = this.pos;
    while (this.pos < this.bytes.length) {
      const b = this.bytes[this.pos]!;
      if (WHITESPACE.has(b) || DELIMITERS.has(b)) break;
      this.pos++;
    }
    return this.bytes.toString("latin1", start, this.pos);
  }

  /** The next value; a bare word (obj, stream, R…) comes back as a Keyword. */
  value(depth = 0): Value {
    if (depth > MAX_DEPTH) throw new Error("PDF value nested too deep");
    this.skip();
    const { bytes } = this;
    const b = bytes[this.pos];
    if (b === undefined) throw new Error("PDF ended inside a value");
    if (b === 0x3c && bytes[this.pos + 1] === 0x3c) {
      this.pos += 2;
      const dict: Dict = new Map();
      for (;;) {
        this.skip();
        if (bytes[this.pos] === 0x3e && bytes[this.pos + 1] === 0x3e) {
          this.pos += 2;
          return dict;
        }
        const key = this.value(depth + 1);
        if (!(key instanceof Name)) throw new Error("PDF dictionary key is not a name");
        dict.set(key.name, this.value(depth + 1));
      }
    }
    if (b === 0x5b) {
      this.pos++;
      const list: Value[] = [];
      for (;;) {
        this.skip();
        if (bytes[this.pos] === 0x5d) {
          this.pos++;
          return list;
        }
        list.push(this.value(depth + 1));
      }
    }
    if (b === 0x2f) {
      this.pos++;
      return new Name(
        this.regular().replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) =>
          String.fromCharCode(parseInt(hex, 16)),
        ),
      );
    }
    if (b === 0x28) return this.literalString();
    if (b === 0x3c) {
      const end = bytes.indexOf(0x3e, this.pos);
      if (end < 0) throw new Error("PDF hex string not closed");
      const text = bytes.toString("latin1", this.pos + 1, end);
      this.pos = end + 1;
      return text;
    }
    if (b === 0x5d || b === 0x3e || b === 0x29 || b === 0x7b || b === 0x7d) {
      this.pos++;
      throw new Error("unexpected PDF delimiter");
    }
    const word = this.regular();
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) {
      const number = Number(word);
      // "12 0 R" is a reference: look ahead without consuming when it is not.
      if (/^\d+$/.test(word)) {
        const back = this.pos;
        this.skip();
        const gen = this.regular();
        if (/^\d+$/.test(gen)) {
          this.skip();
          if (bytes[this.pos] === 0x52 && this.endsWord(this.pos + 1)) {
            this.pos++;
            return new Ref(number, Number(gen));
          }
        }
        this.pos = back;
      }
      return number;
    }
    if (word === "true") return true;
    if (word === "false") return false;
    if (word === "null") return null;
    if (!word) throw new Error("empty PDF token");
    return new Keyword(word);
  }

  private endsWord(at: number): boolean {
    const b = this.bytes[at];
    return b === undefined || WHITESPACE.has(b) || DELIMITERS.has(b);
  }

  /** A (literal) string: balanced parentheses, backslash escapes; its text is not needed here. */
  private literalString(): string {
    const { bytes } = this;
    let depth = 0;
    const start = this.pos;
    while (this.pos < bytes.length) {
      const b = bytes[this.pos++]!;
      if (b === 0x5c) this.pos++;
      else if (b === 0x28) depth++;
      else if (b === 0x29 && --depth === 0) return bytes.toString("latin1", start + 1, this.pos - 1);
    }
    throw new Error("PDF string not closed");
  }
}

/** Every object of the file by number: later definitions (incremental updates) replace earlier ones. */
function readObjects(bytes: Buffer, inflated: Inflated): Map<number, PdfObject> {
  const objects = new Map<number, PdfObject>();
  const objectStreams: PdfObject[] = [];
  const text = bytes.toString("latin1");
  const header = /(\d+)\s+(\d+)\s+obj\b/g;
  for (let match = header.exec(text); match; match = header.exec(text)) {
    const lexer = new Lexer(bytes, match.index + match[0].length);
    let value: Value;
    try {
      value = lexer.value();
    } catch {
      continue;
    }
    const object: PdfObject = { value };
    header.lastIndex = lexer.pos;
    const after = /^\s*stream(\r\n|\n|\r)/.exec(text.slice(lexer.pos, lexer.pos + 32));
    if (after && value instanceof Map) {
      const start = lexer.pos + after[0].length;
      const length = value.get("Length");
      let end =
        typeof length === "number" && text.startsWith("endstream", skipSpace(text, start + length))
          ? start + length
          : text.indexOf("endstream", start);
      if (end < 0) break;
      const close = end;
      if (typeof length !== "number")
        while (end > start && (text[end - 1] === "\n" || text[end - 1] === "\r")) end--;
      object.stream = bytes.subarray(start, end);
      // Stream data is skipped whole: its bytes may look like "1 0 obj".
      header.lastIndex = close;
      if (nameOf(value.get("Type")) === "ObjStm") objectStreams.push(object);
    }
    objects.set(Number(match[1]), object);
  }
  for (const stream of objectStreams) {
    for (const [num, object] of objectStreamContents(stream, objects, inflated))
      if (!objects.has(num)) objects.set(num, object);
  }
  return objects;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at;
}

/** The objects an object stream (PDF 1.5) holds: "num offset" pairs, then the values. */
function objectStreamContents(
  stream: PdfObject,
  objects: Map<number, PdfObject>,
  inflated: Inflated,
): [number, PdfObject][] {
  const dict = stream.value as Dict;
  const data = decoded(stream, objects, inflated);
  const count = resolve(dict.get("N"), objects);
  const first = resolve(dict.get("First"), objects);
  if (!data || typeof count !== "number" || typeof first !== "number") return [];
  const lexer = new Lexer(data, 0);
  const entries: [number, PdfObject][] = [];
  try {
    const pairs: number[] = [];
    for (let i = 0; i < count * 2; i++) pairs.push(lexer.value() as number);
    for (let i = 0; i < count; i++) {
      const at = new Lexer(data, first + pairs[2 * i + 1]!);
      entries.push([pairs[2 * i]!, { value: at.value() }]);
    }
  } catch {
    return entries;
  }
  return entries;
}

function resolve(value: Value | undefined, objects: Map<number, PdfObject>, hops = 0): Value | undefined {
  if (value instanceof Ref && hops < 8) return resolve(objects.get(value.num)?.value, objects, hops + 1);
  return value;
}

function nameOf(value: Value | undefined): string | undefined {
  return value instanceof Name ? value.name : undefined;
}

/** The filters of a stream, in order. */
function filtersOf(dict: Dict, objects: Map<number, PdfObject>): string[] {
  const filter = resolve(dict.get("Filter"), objects);
  if (filter instanceof Name) return [filter.name];
  if (Array.isArray(filter)) return filter.map((f) => nameOf(resolve(f, objects)) ?? "?");
  return [];
}

/** A stream's data when it is plain or Flate-encoded without a predictor; null otherwise. */
function decoded(object: PdfObject, objects: Map<number, PdfObject>, inflated: Inflated): Buffer | null {
  if (!object.stream || !(object.value instanceof Map)) return null;
  const filters = filtersOf(object.value, objects);
  if (filters.length === 0) return object.stream;
  if (filters.length !== 1 || filters[0] !== "FlateDecode" || object.value.has("DecodeParms")) return null;
  let data: Buffer;
  try {
    data = inflateSync(object.stream, { maxOutputLength: MAX_STREAM_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new DecodedTooLarge("a PDF stream inflates past its cap");
    return null;
  }
  inflated.bytes += data.length;
  if (inflated.bytes > MAX_FILE_DECODED_BYTES) throw new DecodedTooLarge("a PDF inflates past its cap");
  return data;
}

/** The pages in order, each with its (inherited) resources and content streams. */
function pagesOf(
  objects: Map<number, PdfObject>,
): { resources: Dict | undefined; contents: Value | undefined }[] {
  let catalog: Dict | undefined;
  for (const object of objects.values())
    if (object.value instanceof Map && nameOf(object.value.get("Type")) === "Catalog") catalog = object.value;
  const root = resolve(catalog?.get("Pages"), objects);
  const pages: { resources: Dict | undefined; contents: Value | undefined }[] = [];
  const seen = new Set<Dict>();
  const walk = (node: Value | undefined, inherited: Dict | undefined, depth: number) => {
    if (!(node instanceof Map) || seen.has(node) || depth > MAX_DEPTH) return;
    seen.add(node);
    const own = resolve(node.get("Resources"), objects);
    const resources = own instanceof Map ? own : inherited;
    const kids = resolve(node.get("Kids"), objects);
    if (Array.isArray(kids)) for (const kid of kids) walk(resolve(kid, objects), resources, depth + 1);
    else pages.push({ resources, contents: node.get("Contents") });
  };
  walk(root, undefined, 0);
  return pages;
}

/** The XObject names a content stream draws (`/Name Do`), in order; null when it cannot be read. */
function drawnNames(
  contents: Value | undefined,
  objects: Map<number, PdfObject>,
  inflated: Inflated,
): string[] | null {
  const parts = Array.isArray(resolve(contents, objects))
    ? (resolve(contents, objects) as Value[])
    : [contents];
  const texts: string[] = [];
  for (const part of parts) {
    if (!(part instanceof Ref)) return null;
    const object = objects.get(part.num);
    const data = object ? decoded(object, objects, inflated) : null;
    if (!data) return null;
    texts.push(data.toString("latin1"));
  }
  return [...new Set([...texts.join("\n").matchAll(/\/([^\s/[\]<>(){}%]+)\s+Do\b/g)].map((m) => m[1]!))];
}

/**
 * Whether the file's Flate streams (content, fonts, object streams; not images) inflate within `maxBytes` in all, measured
 * under the cap, so pdf.js (which has no such limit) is never handed a stream bomb. A file this
 * reader cannot read at all counts as within (pdf.js decides).
 */
export function inflatesWithin(pdf: Uint8Array, maxBytes: number): boolean {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const inflated: Inflated = { bytes: 0 };
  try {
    const objects = readObjects(bytes, inflated);
    for (const object of objects.values()) {
      if (!object.stream || !(object.value instanceof Map)) continue;
      const filters = filtersOf(object.value, objects);
      // Images are decoded only when a page is looked at, within pdf.js's pixel cap.
      if (filters[0] !== "FlateDecode" || nameOf(resolve(object.value.get("Subtype"), objects)) === "Image")
        continue;
      const left = maxBytes - inflated.bytes;
      if (left <= 0) return false;
      try {
        inflated.bytes += inflateSync(object.stream, { maxOutputLength: left }).length;
      } catch (error) {
        if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return false;
      }
    }
  } catch (error) {
    return !(error instanceof DecodedTooLarge);
  }
  return inflated.bytes <= maxBytes;
}

/** A JPEG image a page draws: its stored bytes (a view into the file: copy what is kept) and size. */
export interface StoredJpeg {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * The JPEG (DCTDecode) images each of the first `maxPages` pages draws, in drawing order, by page
 * index; null when the file cannot be read this way (or its streams inflate past the caps). An image
 * drawn several times is given once, and at most MAX_IMAGES_PER_PAGE per page. Images in CMYK, with
 * a Decode array, or behind another filter are left out (pdf.js decodes those).
 */
export function storedJpegsByPage(pdf: Uint8Array, maxPages = Infinity): StoredJpeg[][] | null {
  try {
    return jpegsByPage(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), maxPages);
  } catch {
    return null;
  }
}

function jpegsByPage(bytes: Buffer, maxPages: number): StoredJpeg[][] | null {
  const inflated: Inflated = { bytes: 0 };
  const objects = readObjects(bytes, inflated);
  const pages = pagesOf(objects);
  if (pages.length === 0) return null;

  const imagesOf = (
    resources: Dict | undefined,
    contents: Value | undefined,
    depth: number,
    seen: Set<number>,
  ): StoredJpeg[] => {
    const xobjects = resolve(resources?.get("XObject"), objects);
    if (!(xobjects instanceof Map) || depth > MAX_FORM_DEPTH) return [];
    const names = drawnNames(contents, objects, inflated) ?? [...xobjects.keys()];
    const found: StoredJpeg[] = [];
    for (const name of names) {
      if (seen.size >= MAX_IMAGES_PER_PAGE * 4 || found.length >= MAX_IMAGES_PER_PAGE) break;
      const ref = xobjects.get(name);
      if (!(ref instanceof Ref) || seen.has(ref.num)) continue;
      seen.add(ref.num);
      const object = objects.get(ref.num);
      if (!object?.stream || !(object.value instanceof Map)) continue;
      const dict = object.value;
      const subtype = nameOf(resolve(dict.get("Subtype"), objects));
      if (subtype === "Form") {
        // A form's content is its own stream; its resources are its own, or else the page's.
        const own = resolve(dict.get("Resources"), objects);
        found.push(...imagesOf(own instanceof Map ? own : resources, ref, depth + 1, seen));
        continue;
      }
      const filters = filtersOf(dict, objects);
      const colorSpace = resolve(dict.get("ColorSpace"), objects);
      const width = resolve(dict.get("Width"), objects);
      const height = resolve(dict.get("Height"), objects);
      if (
        subtype !== "Image" ||
        filters.length !== 1 ||
        filters[0] !== "DCTDecode" ||
        nameOf(colorSpace) === "DeviceCMYK" ||
        dict.has("Decode") ||
        typeof width !== "number" ||
        typeof height !== "number" ||
        object.stream[0] !== 0xff ||
        object.stream[1] !== 0xd8
      )
        continue;
      found.push({ data: object.stream, width, height });
    }
    return found.slice(0, MAX_IMAGES_PER_PAGE);
  };

  return pages.map((page, index) =>
    index < maxPages ? imagesOf(page.resources, page.contents, 0, new Set()) : [],
  );
}
