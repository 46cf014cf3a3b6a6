import { inflateRawSync } from "node:zlib";

/**
 * What a ZIP file (a DOCX) inflates to, read from its central directory and measured by inflating
 * each entry under a cap, so a zip bomb is refused before a library opens it whole. The sizes a
 * file declares are not trusted: each deflated entry is inflated with `maxOutputLength`.
 */

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** A ZIP whose entries inflate past the caps, or that cannot be read as a ZIP. */
class ZipTooLarge extends Error {}

/**
 * Throws ZipTooLarge unless every entry inflates within `maxEntry` bytes (`maxNamed` for `named`)
 * and all of them together within `maxTotal`. A file that is not a ZIP passes (the reader refuses it).
 */
export function checkZipSizes(
  data: Uint8Array,
  limits: { named: string; maxNamed: number; maxEntry: number; maxTotal: number },
): void {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const end = endOfDirectory(bytes);
  if (end < 0) return;
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY)
      throw new ZipTooLarge("ZIP directory cannot be read");
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString("utf8", at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    const cap = Math.min(name === limits.named ? limits.maxNamed : limits.maxEntry, limits.maxTotal - total);
    total += entrySize(bytes, local, method, compressed, cap);
  }
}

/** The End of Central Directory record's offset (searched back over its comment), or -1. */
function endOfDirectory(bytes: Buffer): number {
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= stop; at--)
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  return -1;
}

/** One entry's real inflated size; throws ZipTooLarge past `cap`. */
function entrySize(bytes: Buffer, local: number, method: number, compressed: number, cap: number): number {
  if (compressed === 0xffffffff || local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_HEADER)
    throw new ZipTooLarge("ZIP entry cannot be read");
  const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
  const stored = bytes.subarray(start, start + compressed);
  if (method === 0) {
    if (stored.length > cap) throw new ZipTooLarge("ZIP entry too large");
    return stored.length;
  }
  if (method !== 8) throw new ZipTooLarge(`ZIP entry compressed by method ${method}`);
  try {
    return inflateRawSync(stored, { maxOutputLength: Math.max(1, cap) }).length;
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new ZipTooLarge("ZIP entry inflates past its cap");
    throw new ZipTooLarge("ZIP entry cannot be inflated", { cause: error });
  }
}
