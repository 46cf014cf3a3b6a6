import { crc32, deflateSync } from "node:zlib";

/** Pixels as pdf.js decodes them: rows of gray (1), RGB (3) or RGBA (4) bytes, top to bottom. */
export interface RawPixels {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** PNG colour types by channel count: gray, truecolour, truecolour with alpha. */
const COLOUR_TYPE = { 1: 0, 3: 2, 4: 6 } as const;

function chunk(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** Encodes raw 8-bit pixels as a PNG file (no filtering, zlib level 6): a few lines, no dependency. */
export function encodePng(pixels: RawPixels): Buffer {
  const { width, height, channels, data } = pixels;
  const row = width * channels;
  if (data.length !== row * height)
    throw new Error(`PNG: ${data.length} bytes for ${width}×${height}×${channels}`);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = COLOUR_TYPE[channels];
  // Each scanline starts with its filter type: 0, none.
  const lines = Buffer.alloc((row + 1) * height);
  for (let y = 0; y < height; y++) lines.set(data.subarray(y * row, (y + 1) * row), y * (row + 1) + 1);
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(lines)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
