import type { GraphError } from "./graphErrors.js";

/**
 * What the Graph API stand-in accepts on `POST /{version}/{phone-number-id}/media`: WhatsApp's
 * supported media types and sizes (Cloud API, "Supported media types"), and bytes that are what
 * their type says, so a voice reply WhatsApp would refuse (a WAV labelled audio/ogg, an Ogg file
 * without Opus) is refused in development too.
 */

/** The kind of message a media type can be sent as. */
type MediaKind = "audio" | "document" | "image" | "sticker" | "video";

interface MediaRule {
  kind: MediaKind;
  /** The largest file WhatsApp takes, in bytes. */
  maxBytes: number;
  /** How WhatsApp's table names the limit. */
  limit: string;
  /** Whether the bytes are of this type; unset when the type has no signature worth checking. */
  matches?: (bytes: Buffer) => boolean;
  /** What the bytes must be, for the refusal. */
  expected?: string;
}

const KB = 1024;
const MB = 1024 * KB;

const startsWith = (bytes: Buffer, signature: string | number[], at = 0) => {
  const expected = typeof signature === "string" ? Buffer.from(signature, "latin1") : Buffer.from(signature);
  return bytes.subarray(at, at + expected.length).equals(expected);
};

/** An Ogg stream whose first packet is an Opus header (RFC 7845: "OpusHead" opens the first page). */
const isOggOpus = (b: Buffer) => startsWith(b, "OggS") && b.subarray(0, 80).includes("OpusHead", 0, "latin1");
/** ISO base media (MP4, M4A, 3GP): a `ftyp` box first. */
const isIsoMedia = (b: Buffer) => startsWith(b, "ftyp", 4);
/** MPEG audio: an ID3 tag or a frame sync. */
const isMpegAudio = (b: Buffer) => startsWith(b, "ID3") || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0);
/** AAC: an ADTS frame sync or an ADIF header. */
const isAac = (b: Buffer) => startsWith(b, "ADIF") || (b[0] === 0xff && ((b[1] ?? 0) & 0xf6) === 0xf0);
/** Text: no NUL byte near the start, and none of the binary formats a refusal names. */
const isText = (b: Buffer) => !b.subarray(0, 4 * KB).includes(0) && !LOOKS_LIKE.some(([, test]) => test(b));
/** Office Open XML files are ZIP archives. */
const isZip = (b: Buffer) => startsWith(b, "PK\u0003\u0004");
/** Legacy Office files are OLE compound files. */
const isOle = (b: Buffer) => startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

const audio = (matches: (b: Buffer) => boolean, expected: string): MediaRule => ({
  kind: "audio",
  maxBytes: 16 * MB,
  limit: "16 MB",
  matches,
  expected,
});
const document = (matches?: (b: Buffer) => boolean, expected?: string): MediaRule => ({
  kind: "document",
  maxBytes: 100 * MB,
  limit: "100 MB",
  ...(matches && expected ? { matches, expected } : {}),
});
const video: MediaRule = {
  kind: "video",
  maxBytes: 16 * MB,
  limit: "16 MB",
  matches: isIsoMedia,
  expected: "an MP4 or 3GP file",
};

/** WhatsApp's table, by MIME type (without parameters). */
const RULES: Record<string, MediaRule> = {
  "audio/aac": audio(isAac, "AAC audio (ADTS)"),
  "audio/amr": audio((b) => startsWith(b, "#!AMR"), "AMR audio"),
  "audio/mpeg": audio(isMpegAudio, "MP3 audio"),
  "audio/mp4": audio(isIsoMedia, "MP4 audio"),
  // Opus only: WhatsApp does not take base audio/ogg (Vorbis).
  "audio/ogg": audio(isOggOpus, "Ogg audio with the Opus codec"),
  "text/plain": document(isText, "text"),
  "application/pdf": document((b) => startsWith(b, "%PDF-"), "a PDF file"),
  "application/msword": document(isOle, "a Word 97-2003 file"),
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": document(isZip, "a DOCX file"),
  "application/vnd.ms-excel": document(isOle, "an Excel 97-2003 file"),
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": document(isZip, "an XLSX file"),
  "application/vnd.ms-powerpoint": document(isOle, "a PowerPoint 97-2003 file"),
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": document(isZip, "a PPTX file"),
  "image/jpeg": {
    kind: "image",
    maxBytes: 5 * MB,
    limit: "5 MB",
    matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]),
    expected: "a JPEG image",
  },
  "image/png": {
    kind: "image",
    maxBytes: 5 * MB,
    limit: "5 MB",
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    expected: "a PNG image",
  },
  // Stickers: 500 KB animated, 100 KB static; the simulator does not tell them apart.
  "image/webp": {
    kind: "sticker",
    maxBytes: 500 * KB,
    limit: "500 KB",
    matches: (b) => startsWith(b, "RIFF") && startsWith(b, "WEBP", 8),
    expected: "a WebP image",
  },
  "video/mp4": video,
  "video/3gp": video,
  "video/3gpp": video,
};

/** The other formats a refused file is most likely to be, named in the refusal. */
const LOOKS_LIKE: [string, (b: Buffer) => boolean][] = [
  ["WAV audio", (b) => startsWith(b, "RIFF") && startsWith(b, "WAVE", 8)],
  ["Ogg Vorbis audio", (b) => startsWith(b, "OggS") && b.subarray(0, 80).includes("vorbis", 0, "latin1")],
  ["WebM/Matroska", (b) => startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])],
  ["FLAC audio", (b) => startsWith(b, "fLaC")],
  ["a PDF file", (b) => startsWith(b, "%PDF-")],
  ["a PNG image", (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47])],
  ["a JPEG image", (b) => startsWith(b, [0xff, 0xd8, 0xff])],
  ["a ZIP archive", isZip],
];

/** A file Memo uploaded, checked against WhatsApp's rules. */
interface Upload {
  /** A view into the request body (not copied). */
  bytes: Buffer;
  /** The declared media type (the form's `type`), parameters included (`audio/ogg; codecs=opus`). */
  mimeType: string;
  /** The kind of message it can be sent as. */
  kind: MediaKind;
}

/** The media type without parameters, lower case. */
function baseType(mimeType: string): string {
  return mimeType.split(";")[0]!.trim().toLowerCase();
}

/**
 * The largest file the stand-in takes: WhatsApp's largest limit (100 MB, documents), or less when
 * the store's media budget is smaller, so one upload cannot evict all other media.
 */
export function largestUpload(mediaBudget: number): number {
  return Math.min(Math.max(...Object.values(RULES).map((rule) => rule.maxBytes)), mediaBudget);
}

/** "50 MB", "500 KB", or bytes. */
export function sizeName(bytes: number): string {
  if (bytes % MB === 0) return `${bytes / MB} MB`;
  if (bytes % KB === 0) return `${bytes / KB} KB`;
  return `${bytes} bytes`;
}

/** One part of a multipart/form-data body. */
interface FormPart {
  name: string;
  filename?: string;
  /** The part's own Content-Type header; unset when it has none. */
  contentType?: string;
  /** A view into the body (not copied). */
  body: Buffer;
}

/**
 * The parts of a multipart/form-data body (RFC 7578) as views into it, so a large file is not
 * copied before its size is checked; undefined when the body is not such a form.
 */
function readParts(raw: Buffer, contentType: string): FormPart[] | undefined {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`, "latin1");
  const next = Buffer.concat([Buffer.from("\r\n"), delimiter]);
  let at = raw.indexOf(delimiter);
  if (at < 0) return undefined;
  const parts: FormPart[] = [];
  for (;;) {
    at += delimiter.length;
    if (raw.toString("latin1", at, at + 2) === "--") return parts;
    const headersEnd = raw.indexOf("\r\n\r\n", at, "latin1");
    const end = headersEnd < 0 ? -1 : raw.indexOf(next, headersEnd + 4);
    if (end < 0) return undefined;
    let name: string | undefined;
    let filename: string | undefined;
    let type: string | undefined;
    for (const line of raw.toString("utf8", at, headersEnd).split("\r\n")) {
      const colon = line.indexOf(":");
      const header = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (header === "content-disposition") {
        name = /(?:^|;)\s*name="([^"]*)"/i.exec(value)?.[1];
        filename = /(?:^|;)\s*filename="([^"]*)"/i.exec(value)?.[1];
      } else if (header === "content-type" && value) {
        type = value;
      }
    }
    if (name === undefined) return undefined;
    parts.push({
      name,
      ...(filename !== undefined ? { filename } : {}),
      ...(type ? { contentType: type } : {}),
      body: raw.subarray(headersEnd + 4, end),
    });
    at = end + 2;
  }
}

/** Meta's 131053 ("Media upload error", what it documents for media it cannot take) with why. */
const uploadError = (details: string): { error: GraphError } => ({
  error: { message: "(#131053) Media upload error", code: 131053, details },
});

/**
 * An upload form (`messaging_product`, `type`, `file`) checked as WhatsApp checks it: a supported
 * type (the form's `type`, which the file part's own Content-Type may not contradict), within its
 * size and the store's media budget (checked before the bytes are read), with bytes of that type.
 */
export function readUpload(
  raw: unknown,
  contentType: string | undefined,
  mediaBudget: number,
): { upload: Upload } | { error: GraphError } {
  // A JSON body was already read by the JSON parser: an upload is a form, with a file in it.
  if (!Buffer.isBuffer(raw) || !contentType || !/^multipart\/form-data/i.test(contentType)) {
    return { error: { message: "(#100) The parameter file is required.", code: 100 } };
  }
  const parts = readParts(raw, contentType);
  if (!parts) {
    return {
      error: { message: "(#100) The request body could not be read as multipart/form-data", code: 100 },
    };
  }
  const field = (name: string) =>
    parts.find((p) => p.name === name && p.filename === undefined)?.body.toString("utf8");
  const product = field("messaging_product");
  if (product !== "whatsapp") {
    return {
      error:
        product === undefined
          ? { message: "(#100) The parameter messaging_product is required.", code: 100 }
          : {
              message: "(#100) Invalid parameter",
              code: 100,
              subcode: 2494010,
              details: "Param messaging_product: must be whatsapp",
            },
    };
  }
  // Meta's reference lists `type` (the file's MIME type) as required.
  const declared = field("type")?.trim();
  if (!declared) return { error: { message: "(#100) The parameter type is required.", code: 100 } };
  const file = parts.find((p) => p.name === "file" && p.filename !== undefined);
  if (!file) return { error: { message: "(#100) The parameter file is required.", code: 100 } };

  const type = baseType(declared);
  // A part without a type of its own (or curl's application/octet-stream) takes the declared one.
  const own = file.contentType ? baseType(file.contentType) : undefined;
  if (own && own !== "application/octet-stream" && own !== type) {
    return uploadError(`Param file: its Content-Type ${own} is not the declared type ${type}`);
  }
  const rule = RULES[type];
  if (!rule) {
    return {
      error: {
        message: `(#100) Param file must be a file with one of the following types: ${Object.keys(RULES).join(", ")}. Received file of type '${type}'.`,
        code: 100,
      },
    };
  }
  const bytes = file.body;
  if (bytes.length === 0) {
    return { error: { message: "(#100) Param file must be a non-empty file.", code: 100 } };
  }
  if (bytes.length > rule.maxBytes) {
    return uploadError(
      `Param file: ${type} of ${bytes.length} bytes is over WhatsApp's ${rule.limit} limit for ${rule.kind}`,
    );
  }
  if (bytes.length > mediaBudget) {
    return uploadError(
      `Param file: ${type} of ${bytes.length} bytes is over the simulator's ${sizeName(mediaBudget)} media store (WhatsApp takes ${rule.kind} up to ${rule.limit})`,
    );
  }
  if (rule.matches && !rule.matches(bytes)) {
    const actual = LOOKS_LIKE.find(([, test]) => test(bytes))?.[0];
    return uploadError(
      `Param file: labelled ${type} but the bytes are not ${rule.expected ?? type}${actual ? ` (they look like ${actual})` : ""}`,
    );
  }
  return { upload: { bytes, mimeType: declared, kind: rule.kind } };
}

/** Whether media of this MIME type may go out as a message of `type` (a document may be anything). */
export function fitsMessage(type: string, mimeType: string): boolean {
  if (type === "document") return true;
  const base = baseType(mimeType);
  const rule = RULES[base];
  if (rule) return rule.kind === type;
  // Media the user sent (any image/*, audio/*), sent back by id: its own family.
  return base.startsWith(`${type === "sticker" ? "image" : type}/`);
}
